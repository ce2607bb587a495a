/* ravine_impact.c - Kane's collision model with friction for a sphere
 * striking a plane (hartl ch. 2, sec. 2.1.2), written once in the contact
 * frame (c1 tangent, c2 outward normal, c3 = c1 x c2) so it serves every
 * plane and every convex corner. u[0..2] = omega . c_i, u[3..5] = v . c_i. */
#include <math.h>

#include "ravine/ravine.h"

int ravine_kane_impact(const ravine_sphere *s, const double u1[6], double u2[6],
                       double S[3]) {
  const double b = s->b, m = s->m, J = s->J;
  for (int i = 0; i < 6; ++i) u2[i] = u1[i];
  S[0] = S[1] = S[2] = 0.0;
  if (!(u1[4] < 0.0)) return -1; /* not approaching */
  /* hartl eq. 2.46-2.47: restitution on the normal speed of the contact point */
  u2[4] = -s->e * u1[4];
  S[1] = -m * (1.0 + s->e) * u1[4];
  u2[1] = u1[1]; /* eq. 2.43: spin about the normal is unchanged */
  /* no slip: eqs. 2.59-2.60 and 2.64-2.65 */
  const double D = m * b * b + J;
  double w3 = (J * u1[2] - m * b * u1[3]) / D;
  double v4 = -b * w3;
  double w1 = (J * u1[0] + m * b * u1[5]) / D;
  double v6 = b * w1;
  double S1 = m * (v4 - u1[3]); /* eq. 2.40 */
  double S3 = m * (v6 - u1[5]); /* eq. 2.42 */
  if (sqrt(S1 * S1 + S3 * S3) < s->mu * fabs(S[1])) { /* eq. 2.53 */
    u2[0] = w1; u2[2] = w3; u2[3] = v4; u2[5] = v6;
    S[0] = S1; S[2] = S3;
    return 1;
  }
  /* slip: eqs. 2.74-2.81. The tangential impulse opposes the slip of the
   * contact point, whose direction does not change during the impact
   * (eq. 2.80, and mu' <= mu keeps it from reversing), so
   * S_t = -mu' |S2| (alpha1, gamma1) / |(alpha1, gamma1)|, the form of
   * eq. 2.81 that does not divide by alpha1. */
  const double a1 = u1[3] + b * u1[2]; /* eq. 2.74 */
  const double g1 = u1[5] - b * u1[0]; /* eq. 2.75 */
  const double am = sqrt(a1 * a1 + g1 * g1);
  S1 = am > 0.0 ? -s->mu_k * fabs(S[1]) * a1 / am : 0.0;
  S3 = am > 0.0 ? -s->mu_k * fabs(S[1]) * g1 / am : 0.0;
  u2[0] = u1[0] - b * S3 / J; /* eq. 2.68 */
  u2[2] = u1[2] + b * S1 / J; /* eq. 2.69 */
  u2[3] = u1[3] + S1 / m;     /* eq. 2.70 */
  u2[5] = u1[5] + S3 / m;     /* eq. 2.71 */
  S[0] = S1; S[2] = S3;
  return 0;
}
