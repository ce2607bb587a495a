/* elastic_thread.c - tension-only thread with Hunt-Crossley damping
 * (elastic_thread.h). */
#include "compliant/elastic_thread.h"

#include <math.h>
#include <string.h>


static double norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* stretch, its rate and the direction u; 0 when no tension can act
 * (delta <= -onset) */
static int kinematics(const elastic_thread *th, const double S[3], const double W[3],
                      double *len, double *delta, double *rate, double u[3]) {
  *len = norm3(S);
  *delta = *len - th->L;
  if (!(*delta > -th->onset)) return 0;
  for (int c = 0; c < 3; ++c) u[c] = S[c] / *len;
  *rate = u[0] * W[0] + u[1] * W[1] + u[2] * W[2];
  return 1;
}

/* phi(delta) and phi'(delta) (elastic_thread.h): delta itself without onset */
static double ramp(const elastic_thread *th, double delta, double *dphi) {
  double h = th->onset;
  if (!(h > 0.0) || delta >= h) {
    *dphi = 1.0;
    return delta;
  }
  double x = 0.5 * (delta + h) / h;
  *dphi = x * x * (3.0 - 2.0 * x);
  return 2.0 * h * x * x * x * (1.0 - 0.5 * x);
}

/* T = max(0, k phi (1 + a rate)) and its derivatives in delta and rate:
 * hc_law (hunt_crossley.h) with p = 1 when phi = delta */
static double tension(const elastic_thread *th, double phi, double dphi, double rate,
                      double *Td, double *Tv, double *k) {
  *k = th->ea / th->L;
  double a = th->eta / (th->ea * th->L);
  double damp = 1.0 + a * rate;
  *Td = *Tv = 0.0;
  if (!(phi > 0.0) || !(damp > 0.0)) return 0.0; /* slack, or clamped: a thread cannot push */
  *Td = *k * dphi * damp;
  *Tv = *k * phi * a;
  return *k * phi * damp;
}

double elastic_thread_force(const elastic_thread *th, const double S[3], const double W[3],
                            double f[3], double dfdS[9], double dfdW[9], double *diss) {
  if (f) memset(f, 0, 3 * sizeof *f);
  if (dfdS) memset(dfdS, 0, 9 * sizeof *dfdS);
  if (dfdW) memset(dfdW, 0, 9 * sizeof *dfdW);
  if (diss) *diss = 0.0;
  double len, delta, rate, u[3];
  if (!kinematics(th, S, W, &len, &delta, &rate, u)) return 0.0;
  double dphi, phi = ramp(th, delta, &dphi), Td, Tv, k;
  double T = tension(th, phi, dphi, rate, &Td, &Tv, &k);
  if (diss) *diss = (T - k * phi) * rate;
  if (f)
    for (int c = 0; c < 3; ++c) f[c] = -T * u[c];
  if (T == 0.0) return 0.0; /* clamped: no force, no derivative */
  /* d rate / dS = W^T (I - u u^T) / |S| */
  double wt[3];
  for (int c = 0; c < 3; ++c) wt[c] = (W[c] - rate * u[c]) / len;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      double P = (r == c) - u[r] * u[c];
      if (dfdS) dfdS[3 * r + c] = -u[r] * (Td * u[c] + Tv * wt[c]) - T * P / len;
      if (dfdW) dfdW[3 * r + c] = -Tv * u[r] * u[c];
    }
  return T;
}

double elastic_thread_energy(const elastic_thread *th, const double S[3]) {
  double delta = norm3(S) - th->L, h = th->onset, k = th->ea / th->L;
  if (!(h > 0.0)) return delta > 0.0 ? 0.5 * th->ea * delta * delta / th->L : 0.0;
  if (delta <= -h) return 0.0;
  if (delta >= h) return k * (0.5 * delta * delta + 0.1 * h * h);
  double x = 0.5 * (delta + h) / h, x4 = x * x * x * x;
  return 4.0 * k * h * h * x4 * (0.25 - 0.1 * x);
}

double elastic_thread_dissipation(const elastic_thread *th, const double S[3],
                                  const double W[3], double dDdS[3], double dDdW[3]) {
  if (dDdS) memset(dDdS, 0, 3 * sizeof *dDdS);
  if (dDdW) memset(dDdW, 0, 3 * sizeof *dDdW);
  double len, delta, rate, u[3];
  if (!kinematics(th, S, W, &len, &delta, &rate, u)) return 0.0;
  double dphi, phi = ramp(th, delta, &dphi), Td, Tv, k;
  double T = tension(th, phi, dphi, rate, &Td, &Tv, &k);
  /* D = (T - k phi) rate: dD/ddelta = (Td - k phi') rate, dD/drate = Tv rate + T - k phi */
  double Dd = (Td - k * dphi) * rate, Dv = Tv * rate + T - k * phi;
  for (int c = 0; c < 3; ++c) {
    if (dDdS) dDdS[c] = Dd * u[c] + Dv * (W[c] - rate * u[c]) / len;
    if (dDdW) dDdW[c] = Dv * u[c];
  }
  return (T - k * phi) * rate;
}
