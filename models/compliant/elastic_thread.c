/* elastic_thread.c - tension-only thread with Hunt-Crossley damping
 * (elastic_thread.h). */
#include "compliant/elastic_thread.h"

#include <math.h>
#include <string.h>

#include "compliant/hunt_crossley.h"

static double norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

static hc_law law_of(const elastic_thread *th) {
  hc_law l = {th->ea / th->L, 1.0, th->eta / (th->ea * th->L)};
  return l;
}

/* stretch, its rate and the direction u; 0 when slack */
static int kinematics(const elastic_thread *th, const double S[3], const double W[3],
                      double *len, double *delta, double *rate, double u[3]) {
  *len = norm3(S);
  *delta = *len - th->L;
  if (!(*delta > 0.0)) return 0;
  for (int c = 0; c < 3; ++c) u[c] = S[c] / *len;
  *rate = u[0] * W[0] + u[1] * W[1] + u[2] * W[2];
  return 1;
}

double elastic_thread_force(const elastic_thread *th, const double S[3], const double W[3],
                            double f[3], double dfdS[9], double dfdW[9], double *diss) {
  if (f) memset(f, 0, 3 * sizeof *f);
  if (dfdS) memset(dfdS, 0, 9 * sizeof *dfdS);
  if (dfdW) memset(dfdW, 0, 9 * sizeof *dfdW);
  if (diss) *diss = 0.0;
  double len, delta, rate, u[3];
  if (!kinematics(th, S, W, &len, &delta, &rate, u)) return 0.0;
  hc_law law = law_of(th);
  double Td, Tv;
  double T = hc_force(&law, delta, rate, &Td, &Tv);
  if (diss) *diss = (T - law.k * delta) * rate;
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
  double delta = norm3(S) - th->L;
  return delta > 0.0 ? 0.5 * th->ea * delta * delta / th->L : 0.0;
}

double elastic_thread_dissipation(const elastic_thread *th, const double S[3],
                                  const double W[3], double dDdS[3], double dDdW[3]) {
  if (dDdS) memset(dDdS, 0, 3 * sizeof *dDdS);
  if (dDdW) memset(dDdW, 0, 3 * sizeof *dDdW);
  double len, delta, rate, u[3];
  if (!kinematics(th, S, W, &len, &delta, &rate, u)) return 0.0;
  hc_law law = law_of(th);
  double Td, Tv;
  double T = hc_force(&law, delta, rate, &Td, &Tv);
  /* D = (T - k delta) rate: dD/ddelta = (Td - k) rate, dD/drate = Tv rate + T - k delta */
  double Dd = (Td - law.k) * rate, Dv = Tv * rate + T - law.k * delta;
  for (int c = 0; c < 3; ++c) {
    if (dDdS) dDdS[c] = Dd * u[c] + Dv * (W[c] - rate * u[c]) / len;
    if (dDdW) dDdW[c] = Dv * u[c];
  }
  return (T - law.k * delta) * rate;
}
