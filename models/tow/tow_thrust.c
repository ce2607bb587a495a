/* tow_thrust.c - the chaser's thrust profile: piecewise linear in t from a
 * table, held before its first and after its last row, optionally periodic;
 * its impulse in closed form (tow.h). */
#include <math.h>
#include <stdio.h>

#include "mbdae/status.h"
#include "tow/tow.h"

/* F at tau from the rows (no periodicity) */
static void interp(const tow_params *p, double tau, double F[3]) {
  const double *T = p->thrust;
  int n = p->nthrust;
  if (n == 0) { F[0] = F[1] = F[2] = 0.0; return; }
  if (tau <= T[0]) { for (int c = 0; c < 3; ++c) F[c] = T[1 + c]; return; }
  if (tau >= T[4 * (n - 1)]) { for (int c = 0; c < 3; ++c) F[c] = T[4 * (n - 1) + 1 + c]; return; }
  int lo = 0, hi = n - 1; /* T[4 lo] <= tau < T[4 hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (T[4 * mid] <= tau) lo = mid; else hi = mid;
  }
  double s = (tau - T[4 * lo]) / (T[4 * hi] - T[4 * lo]);
  for (int c = 0; c < 3; ++c) F[c] = (1.0 - s) * T[4 * lo + 1 + c] + s * T[4 * hi + 1 + c];
}

/* int_a^b F (a <= b) of the non-periodic profile: exact (trapezoids on the
 * linear pieces, rectangles on the held ends) */
static void integral(const tow_params *p, double a, double b, double I[3]) {
  I[0] = I[1] = I[2] = 0.0;
  const double *T = p->thrust;
  int n = p->nthrust;
  if (n == 0 || !(b > a)) return;
  /* breakpoints: the row times inside (a, b) */
  double t = a, Fa[3], Fb[3];
  interp(p, a, Fa);
  for (int k = 0; k <= n; ++k) {
    double next = k < n ? T[4 * k] : b;
    if (next <= t) continue;
    if (next > b) next = b;
    interp(p, next, Fb);
    for (int c = 0; c < 3; ++c) I[c] += 0.5 * (Fa[c] + Fb[c]) * (next - t);
    t = next;
    for (int c = 0; c < 3; ++c) Fa[c] = Fb[c];
    if (t >= b) break;
  }
}

void tow_thrust(const tow_params *p, double t, double F[3]) {
  double tau = t;
  if (p->thrust_period > 0.0) tau = t - floor(t / p->thrust_period) * p->thrust_period;
  interp(p, tau, F);
}

void tow_impulse(const tow_params *p, double t, double I[3]) {
  double P = p->thrust_period, sgn = 1.0, a = 0.0, b = t;
  if (P > 0.0) {
    double k = floor(t / P), Ip[3], Ir[3];
    integral(p, 0.0, P, Ip);
    integral(p, 0.0, t - k * P, Ir);
    for (int c = 0; c < 3; ++c) I[c] = k * Ip[c] + Ir[c];
    return;
  }
  if (t < 0.0) { a = t; b = 0.0; sgn = -1.0; }
  integral(p, a, b, I);
  for (int c = 0; c < 3; ++c) I[c] *= sgn;
}

int tow_thrust_check(const tow_params *p, mbdae_param_error *err) {
  static char key[48];
  for (int r = 0; r < p->nthrust; ++r) {
    const double *row = &p->thrust[4 * r];
    snprintf(key, sizeof key, "thrust[%d]", r);
    for (int c = 0; c < 4; ++c)
      if (!isfinite(row[c])) {
        if (err) {
          err->key = key;
          snprintf(err->msg, sizeof err->msg, "not finite");
        }
        return MBDAE_ERR_PARAMETER;
      }
    if (r > 0 && !(row[0] > row[-4])) {
      if (err) {
        err->key = key;
        snprintf(err->msg, sizeof err->msg, "times must increase strictly (%g after %g)",
                 row[0], row[-4]);
      }
      return MBDAE_ERR_PARAMETER;
    }
    if (p->thrust_period > 0.0 && (row[0] < 0.0 || row[0] > p->thrust_period)) {
      if (err) {
        err->key = key;
        snprintf(err->msg, sizeof err->msg,
                 "with thrust_period %g the rows' times must lie in [0, %g]",
                 p->thrust_period, p->thrust_period);
      }
      return MBDAE_ERR_PARAMETER;
    }
  }
  return MBDAE_OK;
}
