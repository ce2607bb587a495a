/* hunt_crossley.c - the one-dimensional Hunt-Crossley law, its restitution
 * closed form and its inverse (derivation in hunt_crossley.h). */
#include "compliant/hunt_crossley.h"

#include <math.h>

#include "mbdae/status.h"

double hc_force(const hc_law *law, double d, double v, double *dfd, double *dfv) {
  if (dfd) *dfd = 0.0;
  if (dfv) *dfv = 0.0;
  if (!(d > 0.0)) return 0.0;
  double dp = law->p == 1.0 ? d : pow(d, law->p);
  double damp = 1.0 + law->a * v;
  if (!(damp > 0.0)) return 0.0; /* clamped: a thread cannot push, a contact cannot pull */
  double dpm1 = law->p == 1.0 ? 1.0 : law->p * dp / d; /* d(d^p)/dd */
  if (dfd) *dfd = law->k * dpm1 * damp;
  if (dfv) *dfv = law->k * dp * law->a;
  return law->k * dp * damp;
}

double hc_energy(const hc_law *law, double d) {
  if (!(d > 0.0)) return 0.0;
  return law->k * pow(d, law->p + 1.0) / (law->p + 1.0);
}

/* z - ln(1 + z) for z > -1, without cancellation for small |z| */
static double z_minus_log1p(double z) {
  if (fabs(z) < 1e-2) {
    double s = 0.0, zk = z * z;
    for (int k = 2; k <= 12; ++k, zk *= z) s += ((k % 2) ? -zk : zk) / k;
    return s;
  }
  return z - log1p(z);
}

/* e^u - 1 - u (>= 0), without cancellation for small |u| */
static double expm1_minus(double u) {
  if (fabs(u) < 1e-2) {
    double s = 0.0, uk = u * u, f = 2.0;
    for (int k = 2; k <= 12; ++k) {
      s += uk / f;
      uk *= u;
      f *= k + 1;
    }
    return s;
  }
  return expm1(u) - u;
}

double hc_restitution(double x) {
  if (!(x >= 0.0) || !isfinite(x)) return -1.0;
  if (x == 0.0) return 1.0;
  /* exit speed y = a v_out in (-1, 0): y - ln(1 + y) = c, c = x - ln(1 + x).
   * With u = ln(1 + y): e^u - 1 - u = c, decreasing in u < 0, bracketed by
   * u = -(c + 1) (value c + e^-(c+1) > c) and u = 0 (value 0 < c). */
  double c = z_minus_log1p(x);
  double lo = -(c + 1.0), hi = 0.0;
  for (int it = 0; it < 400; ++it) {
    double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (expm1_minus(mid) > c) lo = mid;
    else hi = mid;
  }
  double y = expm1(0.5 * (lo + hi));
  return -y / x;
}

int hc_damping_for_restitution(double e, double v_ref, double *a) {
  if (!a || !(e > 0.0 && e <= 1.0) || !(v_ref > 0.0) || !isfinite(v_ref))
    return MBDAE_ERR_ARGUMENT;
  if (e == 1.0) {
    *a = 0.0;
    return 0;
  }
  /* e(x) falls from 1 (x = 0) towards 0: bracket [0, hi] with e(hi) < e */
  double lo = 0.0, hi = 1.0;
  while (!(hc_restitution(hi) < e)) {
    lo = hi;
    hi *= 2.0;
    if (hi > 1e12) return MBDAE_ERR_SOLVER;
  }
  for (int it = 0; it < 400; ++it) {
    double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    if (hc_restitution(mid) > e) lo = mid;
    else hi = mid;
  }
  *a = 0.5 * (lo + hi) / v_ref;
  return 0;
}

double hc_undamped_max_depth(double k, double p, double m, double v_in) {
  return pow((p + 1.0) * m * v_in * v_in / (2.0 * k), 1.0 / (p + 1.0));
}

double hc_undamped_duration(double k, double p, double m, double v_in) {
  double al = 1.0 / (p + 1.0);
  double beta = tgamma(al) * tgamma(0.5) / tgamma(al + 0.5); /* B(al, 1/2) */
  return 2.0 * hc_undamped_max_depth(k, p, m, v_in) / v_in * beta * al;
}
