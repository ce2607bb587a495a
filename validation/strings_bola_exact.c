/* strings_bola_exact.c - closed-form bola (capps 2021 App. I, eqs. 6.1-6.30,
 * with the taut phase written as the rigid rotation that the corrected
 * eq. 6.28, l'' = -(|l'|^2/L^2) l, describes). Independent of models/. */
#include "strings_bola_exact.h"

#include <math.h>
#include <string.h>

static double dot(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

int bola_exact_solve(bola_exact *b, double t_end) {
  double d[3], w[3], t = 0.0;
  double mu = b->m1 * b->m2 / (b->m1 + b->m2);
  for (int c = 0; c < 3; ++c) {
    d[c] = b->r2[c] - b->r1[c];
    w[c] = b->v2[c] - b->v1[c];
  }
  b->nimp = 0;
  b->accumulates = 0;
  b->t_inf = HUGE_VAL;
  /* first contact: |d + w s| = L, d inside the circle (a quadratic, eq. 6.11) */
  double ww = dot(w, w), dw = dot(d, w), dd = dot(d, d);
  if (ww == 0.0) return -1;
  double disc = dw * dw - ww * (dd - b->L * b->L);
  if (disc < 0.0) return -1;
  double s = (-dw + sqrt(disc)) / ww;
  for (;;) {
    if (t + s > t_end || b->nimp >= BOLA_MAX_IMPACTS) return 0;
    t += s;
    for (int c = 0; c < 3; ++c) d[c] += w[c] * s;
    /* put d exactly on the circle (removes round-off of the chord) */
    double nd = sqrt(dot(d, d));
    for (int c = 0; c < 3; ++c) d[c] *= b->L / nd;
    double n[3] = {d[0] / b->L, d[1] / b->L, d[2] / b->L};
    double wn = dot(w, n);
    int k = b->nimp++;
    b->t_imp[k] = t;
    b->wn_pre[k] = wn;
    /* eqs. 6.17-6.19: normal relative velocity reversed and scaled by e */
    for (int c = 0; c < 3; ++c) w[c] -= (1.0 + b->e) * wn * n[c];
    b->dE[k] = 0.5 * mu * (1.0 - b->e * b->e) * wn * wn;
    memcpy(b->d_imp[k], d, sizeof d);
    memcpy(b->w_post[k], w, sizeof w);
    double wt2 = dot(w, w) - b->e * b->e * wn * wn;
    /* accumulation: the remaining flights sum to ~ s_next / (1 - e) */
    if (b->e * wn <= 1e-15 * sqrt(dot(w, w)) || b->e == 0.0) {
      if (wt2 <= 0.0) return 0; /* purely radial plastic: rests at |d| = L */
      b->accumulates = 1;
      b->t_inf = t;
      memcpy(b->d_inf, d, sizeof d);
      for (int c = 0; c < 3; ++c) b->w_inf[c] = w[c] - dot(w, n) * n[c];
      return 0;
    }
    /* next chord: |d + w s| = L with |d| = L: s = -2 d.w / |w|^2 */
    s = -2.0 * dot(d, w) / dot(w, w);
  }
}

void bola_exact_state(const bola_exact *b, double t, double x[6], double v[6]) {
  double M = b->m1 + b->m2;
  double d[3], w[3];
  int k = -1;
  while (k + 1 < b->nimp && b->t_imp[k + 1] <= t) ++k;
  if (b->accumulates && t >= b->t_inf) {
    /* rigid rotation in the plane of (d_inf, w_inf) at rate |w_inf| / L */
    double wt = sqrt(dot(b->w_inf, b->w_inf));
    double om = wt / b->L, a = om * (t - b->t_inf);
    for (int c = 0; c < 3; ++c) {
      double n = b->d_inf[c] / b->L, u = b->w_inf[c] / wt;
      d[c] = b->L * (cos(a) * n + sin(a) * u);
      w[c] = wt * (-sin(a) * n + cos(a) * u);
    }
  } else if (k < 0) {
    for (int c = 0; c < 3; ++c) {
      w[c] = b->v2[c] - b->v1[c];
      d[c] = b->r2[c] - b->r1[c] + w[c] * t;
    }
  } else {
    for (int c = 0; c < 3; ++c) {
      w[c] = b->w_post[k][c];
      d[c] = b->d_imp[k][c] + w[c] * (t - b->t_imp[k]);
    }
  }
  for (int c = 0; c < 3; ++c) {
    /* centre of mass: eq. 6.29-6.30, a free fall */
    double R0 = (b->m1 * b->r1[c] + b->m2 * b->r2[c]) / M;
    double V0 = (b->m1 * b->v1[c] + b->m2 * b->v2[c]) / M;
    double Rc = R0 + V0 * t + 0.5 * b->g[c] * t * t, Vc = V0 + b->g[c] * t;
    x[c] = Rc - b->m2 / M * d[c];
    x[3 + c] = Rc + b->m1 / M * d[c];
    v[c] = Vc - b->m2 / M * w[c];
    v[3 + c] = Vc + b->m1 / M * w[c];
  }
}
