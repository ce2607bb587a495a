/* test_ravine_impact.c - Kane's collision with friction (hartl ch. 2)
 * against the thesis's closed forms, recomputed here literally: no slip
 * eqs. 2.43, 2.46, 2.59-2.65; slip eqs. 2.68-2.81 (with its division by
 * alpha1); the stick/slip boundary (2.53); energy never increases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ravine/ravine.h"
#include "testutil.h"

static const ravine_sphere S0 = {1.5, 2.0, 0.4 * 2.0 * 1.5 * 1.5, 0.8, 0.6, 0.45};

/* hartl eqs. 2.59-2.65 as printed (sign convention of ch. 2) */
static void thesis_no_slip(const ravine_sphere *s, const double u[6], double w[6]) {
  double m = s->m, b = s->b, J = s->J;
  w[1] = u[1];                                          /* 2.43 */
  w[4] = -s->e * u[4];                                  /* 2.46 */
  w[2] = (J * u[2] - m * b * u[3]) / (m * b * b + J);   /* 2.59 */
  w[3] = -b * w[2];                                     /* 2.60 */
  w[0] = (J * u[0] + m * b * u[5]) / (m * b * b + J);   /* 2.64 */
  w[5] = b * w[0];                                      /* 2.65 */
}

/* hartl eqs. 2.74-2.81, 2.68-2.71 as printed (needs alpha1 != 0) */
static void thesis_slip(const ravine_sphere *s, const double u[6], double w[6],
                        double *S1o, double *S3o) {
  double m = s->m, b = s->b, J = s->J;
  double S2 = -m * (1.0 + s->e) * u[4];                 /* 2.47 */
  double a1 = u[3] + b * u[2];                          /* 2.74 */
  double g1 = u[5] - b * u[0];                          /* 2.75 */
  double k1 = 1.0 / m + b * b / J;                      /* 2.76 */
  /* 2.81: S1 = -mu'|S2| (a1 + k1 S1)/(|a1 + k1 S1| sqrt(1 + (g1/a1)^2));
   * the slip keeps its direction, so sign(a1 + k1 S1) = sign(a1) */
  double S1 = -s->mu_k * fabs(S2) * (a1 > 0 ? 1.0 : -1.0) / sqrt(1.0 + (g1 / a1) * (g1 / a1));
  CU_ASSERT((a1 + k1 * S1) * a1 > 0.0); /* the assumption holds */
  double S3 = g1 / a1 * S1;                             /* 2.80 */
  w[0] = u[0] - b * S3 / J;                             /* 2.68 */
  w[1] = u[1];
  w[2] = u[2] + b * S1 / J;                             /* 2.69 */
  w[3] = u[3] + S1 / m;                                 /* 2.70 */
  w[4] = -s->e * u[4];
  w[5] = u[5] + S3 / m;                                 /* 2.71 */
  *S1o = S1;
  *S3o = S3;
}

static double kinetic(const ravine_sphere *s, const double u[6]) {
  return 0.5 * s->J * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) +
         0.5 * s->m * (u[3] * u[3] + u[4] * u[4] + u[5] * u[5]);
}

static void test_no_slip_3d(void) {
  /* rolling-like approach: small tangential slip, so it sticks */
  double u[6] = {0.3, -0.7, -2.0, 2.1, -1.5, 0.2}, w[6], ref[6], S[3];
  int r = ravine_kane_impact(&S0, u, w, S);
  CU_ASSERT_EQUAL(r, 1);
  thesis_no_slip(&S0, u, ref);
  for (int i = 0; i < 6; ++i) MBDAE_ASSERT_ABS(w[i], ref[i], 1e-13);
  /* the contact point does not slip after a no-slip impact (2.51-2.52) */
  MBDAE_ASSERT_ABS(w[3] + S0.b * w[2], 0.0, 1e-13);
  MBDAE_ASSERT_ABS(w[5] - S0.b * w[0], 0.0, 1e-13);
  /* impulses from 2.40-2.42 */
  MBDAE_ASSERT_REL(S[1], -S0.m * (1 + S0.e) * u[4], 1e-14);
  MBDAE_ASSERT_ABS(S[0], S0.m * (ref[3] - u[3]), 1e-13);
  MBDAE_ASSERT_ABS(S[2], S0.m * (ref[5] - u[5]), 1e-13);
  CU_ASSERT(hypot(S[0], S[2]) < S0.mu * fabs(S[1]));
}

static void test_slip_3d(void) {
  /* fast slip of the contact point: the no-slip impulse would leave the cone */
  double u[6] = {0.5, 0.4, 3.0, 4.0, -1.0, -1.2}, w[6], ref[6], S[3], S1, S3;
  int r = ravine_kane_impact(&S0, u, w, S);
  CU_ASSERT_EQUAL(r, 0);
  thesis_slip(&S0, u, ref, &S1, &S3);
  for (int i = 0; i < 6; ++i) MBDAE_ASSERT_ABS(w[i], ref[i], 1e-12);
  MBDAE_ASSERT_ABS(S[0], S1, 1e-12);
  MBDAE_ASSERT_ABS(S[2], S3, 1e-12);
  MBDAE_ASSERT_REL(hypot(S[0], S[2]), S0.mu_k * fabs(S[1]), 1e-12);
}

static void test_2d_reduction(void) {
  /* u1 = u2 = u6 = 0 stay zero (hartl 2.1.3, last paragraph) */
  double u[6] = {0, 0, -1.0, 3.0, -2.0, 0}, w[6], S[3];
  ravine_kane_impact(&S0, u, w, S);
  CU_ASSERT_EQUAL(w[0], 0.0);
  CU_ASSERT_EQUAL(w[1], 0.0);
  CU_ASSERT_EQUAL(w[5], 0.0);
  CU_ASSERT_EQUAL(S[2], 0.0);
}

static void test_boundary(void) {
  /* 2D: the no-slip tangential impulse is |S1| = |alpha1| / k1 (from 2.54 and
   * 2.51); it equals mu |S2| = mu m (1+e) |u5| at alpha1* = k1 mu m (1+e)|u5|. */
  const ravine_sphere *s = &S0;
  double u5 = -2.0, k1 = 1.0 / s->m + s->b * s->b / s->J;
  double a_star = k1 * s->mu * s->m * (1.0 + s->e) * fabs(u5);
  double w[6], S[3];
  double below[6] = {0, 0, 0, a_star * (1 - 1e-9), u5, 0};
  double above[6] = {0, 0, 0, a_star * (1 + 1e-9), u5, 0};
  CU_ASSERT_EQUAL(ravine_kane_impact(s, below, w, S), 1);
  CU_ASSERT_EQUAL(ravine_kane_impact(s, above, w, S), 0);
  /* continuity across the boundary when mu' = mu */
  ravine_sphere s2 = *s;
  s2.mu_k = s2.mu;
  double w1[6], w2[6];
  ravine_kane_impact(&s2, below, w1, S);
  ravine_kane_impact(&s2, above, w2, S);
  for (int i = 0; i < 6; ++i) MBDAE_ASSERT_ABS(w1[i], w2[i], 1e-7);
}

static void test_not_approaching(void) {
  double u[6] = {0, 0, 0, 1.0, 0.5, 0}, w[6], S[3];
  CU_ASSERT_EQUAL(ravine_kane_impact(&S0, u, w, S), -1);
  for (int i = 0; i < 6; ++i) CU_ASSERT_EQUAL(w[i], u[i]);
}

static void test_energy_never_increases(void) {
  srand(12345);
  int nstick = 0, nslip = 0;
  for (int n = 0; n < 20000; ++n) {
    ravine_sphere s = S0;
    s.e = (double)rand() / RAND_MAX;
    s.mu = 2.0 * rand() / RAND_MAX;
    s.mu_k = s.mu * rand() / RAND_MAX;
    s.J = s.m * s.b * s.b * (0.05 + 0.62 * rand() / RAND_MAX);
    double u[6], w[6], S[3];
    for (int i = 0; i < 6; ++i) u[i] = 10.0 * rand() / RAND_MAX - 5.0;
    u[4] = -fabs(u[4]) - 1e-3;
    int r = ravine_kane_impact(&s, u, w, S);
    if (r == 1) nstick++; else nslip++;
    double K1 = kinetic(&s, u), K2 = kinetic(&s, w);
    if (!(K2 <= K1 * (1 + 1e-13))) printf("\n  energy rose: %g -> %g (case %d)\n", K1, K2, n);
    CU_ASSERT(K2 <= K1 * (1 + 1e-13));
  }
  CU_ASSERT(nstick > 1000);
  CU_ASSERT(nslip > 1000);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"no slip in 3D = eqs. 2.59-2.65", test_no_slip_3d},
    {"slip in 3D = eqs. 2.68-2.81", test_slip_3d},
    {"2D reduction", test_2d_reduction},
    {"stick/slip boundary (2.53)", test_boundary},
    {"no impulse when separating", test_not_approaching},
    {"kinetic energy never increases", test_energy_never_increases},
    {NULL, NULL},
  };
  return mbdae_test_main("ravine_impact", tests);
}
