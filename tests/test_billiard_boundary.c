/* test_billiard_boundary.c - the boundary curves of eq. (9) and the
 * closest-point search against brute-force minimisation of the distance. */
#include <math.h>
#include <stdio.h>

#include "billiard/boundary.h"
#include "testutil.h"

static billiard_curve curve(billiard_shape shape) {
  billiard_curve c = {0};
  c.shape = shape;
  c.a = 26.0;      /* 0.26 /cm */
  c.c = 0.0063;
  c.k = 1.85;
  c.alpha = 40.3e-4;
  c.beta = 800.0;
  c.delta = 0.0445;
  c.poly[0] = 0.002;
  c.poly[2] = 10.0;
  c.poly[4] = 2000.0;
  return c;
}

/* brute force: dense sampling then golden refinement around the best */
static double brute_distance(const billiard_curve *c, double xi, double y) {
  double best = HUGE_VAL, sbest = 0.0;
  const double w = 0.3;
  for (int i = 0; i <= 600000; ++i) {
    double s = -w + 2.0 * w * i / 600000.0;
    double f = billiard_curve_height(c, s);
    double d = hypot(s - xi, f - y);
    if (d < best) best = d, sbest = s;
  }
  double lo = sbest - 2e-6, hi = sbest + 2e-6;
  for (int it = 0; it < 100; ++it) {
    double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
    double d1 = hypot(m1 - xi, billiard_curve_height(c, m1) - y);
    double d2 = hypot(m2 - xi, billiard_curve_height(c, m2) - y);
    if (d1 < d2) hi = m2;
    else lo = m1;
  }
  double s = 0.5 * (lo + hi);
  return fmin(best, hypot(s - xi, billiard_curve_height(c, s) - y));
}

static double model_distance(const billiard_curve *c, double xi, double y,
                             billiard_foot *out) {
  double d = HUGE_VAL;
  for (int p = 0; p < billiard_curve_npieces(c); ++p) {
    billiard_foot f;
    CU_ASSERT_EQUAL_FATAL(billiard_closest(c, p, xi, y, &f), 0);
    if (fabs(f.dist) < fabs(d)) {
      d = f.dist;
      if (out) *out = f;
    }
  }
  return d;
}

static void check_shape(billiard_shape shape) {
  billiard_curve c = curve(shape);
  /* points inside (above) at various heights, and a few just outside */
  const double pts[][2] = {{0.0, 0.02},  {0.01, 0.02},  {-0.03, 0.05}, {0.05, 0.2},
                           {0.004, 0.009}, {-0.05, 0.1}, {0.02, 0.012}, {0.0, 0.0},
                           {0.07, 0.03}, {-0.001, 0.03}};
  for (size_t i = 0; i < sizeof pts / sizeof pts[0]; ++i) {
    double xi = pts[i][0], y = pts[i][1];
    billiard_foot f = {0};
    double d = model_distance(&c, xi, y, &f);
    double ref = brute_distance(&c, xi, y);
    int inside = y > billiard_curve_height(&c, xi);
    MBDAE_ASSERT_ABS(fabs(d), ref, 1e-9);
    CU_ASSERT_EQUAL(d > 0.0, inside);
    /* the normal is a unit vector */
    MBDAE_ASSERT_ABS(hypot(f.nx, f.ny), 1.0, 1e-14);
  }
}

static void test_parabola(void) { check_shape(BILLIARD_PARABOLA); }
static void test_wedge(void) { check_shape(BILLIARD_WEDGE); }
static void test_hyperbola(void) { check_shape(BILLIARD_HYPERBOLA); }
static void test_polynomial(void) { check_shape(BILLIARD_POLYNOMIAL); }

/* derivatives of each curve against central differences */
static void test_derivatives(void) {
  for (int sh = 0; sh < 4; ++sh) {
    billiard_curve c = curve((billiard_shape)sh);
    for (int p = 0; p < billiard_curve_npieces(&c); ++p)
      for (double s = -0.06; s <= 0.06; s += 0.011) {
        double f, fp, fpp, fa, fpa, fppa, fb, fpb, fppb, h = 1e-6;
        billiard_curve_eval(&c, p, s, &f, &fp, &fpp);
        billiard_curve_eval(&c, p, s + h, &fa, &fpa, &fppa);
        billiard_curve_eval(&c, p, s - h, &fb, &fpb, &fppb);
        MBDAE_ASSERT_ABS(fp, (fa - fb) / (2 * h), 1e-6 * (1 + fabs(fp)));
        MBDAE_ASSERT_ABS(fpp, (fpa - fpb) / (2 * h), 1e-5 * (1 + fabs(fpp)));
      }
  }
}

/* eq. 9 constants: vertex heights and the vertex curvatures 2a, sqrt(alpha) beta */
static void test_eq9_constants(void) {
  billiard_curve c = curve(BILLIARD_HYPERBOLA);
  MBDAE_ASSERT_REL(billiard_curve_height(&c, 0.0), sqrt(40.3e-4) - 0.0445, 1e-14);
  MBDAE_ASSERT_REL(billiard_curve_max_curvature(&c, 0.1), sqrt(40.3e-4) * 800.0, 1e-9);
  billiard_curve p = curve(BILLIARD_PARABOLA);
  MBDAE_ASSERT_REL(billiard_curve_max_curvature(&p, 0.1), 52.0, 1e-12);
  billiard_curve w = curve(BILLIARD_WEDGE);
  MBDAE_ASSERT_REL(billiard_curve_height(&w, -0.01), 0.0063 + 0.0185, 1e-14);
  CU_ASSERT_EQUAL(billiard_curve_max_curvature(&w, 0.1), 0.0);
}

int main(void) {
  const mbdae_test tests[] = {{"parabola closest point", test_parabola},
                              {"wedge closest point", test_wedge},
                              {"hyperbola closest point", test_hyperbola},
                              {"polynomial closest point", test_polynomial},
                              {"curve derivatives", test_derivatives},
                              {"eq. 9 constants", test_eq9_constants},
                              {NULL, NULL}};
  return mbdae_test_main("billiard_boundary", tests);
}
