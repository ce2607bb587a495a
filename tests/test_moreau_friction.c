/* test_moreau_friction.c - Coulomb friction at contacts under method moreau
 * (mbdae_problem_set_friction, solver/friction.c) on a point block on the
 * plane z = 0, in Cartesian coordinates (diagonal mass) and in skew
 * coordinates x = A xi (a full mass matrix A^T m A, the KLU path), against
 * closed forms (doc/moreau.md, "Friction"):
 *   sliding to rest: speed V, deceleration mu g: stop time V / (mu g),
 *     distance V^2 / (2 mu g) along the initial direction, within O(h)
 *     (one step's travel; the stop within two steps);
 *   an incline below the cone (tan a < mu): the block stays at rest;
 *   above it: x = g (sin a - mu cos a) t^2 / 2;
 *   positions within one step of free fall (g h^2) of these: a rounding-level
 *   positive normal velocity can leave the contact out of one step's index
 *   set (the next step takes it back);
 * at every step the impulses lie in the cone (|P_t| <= mu P_n) and the
 * energy does not rise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

typedef struct block {
  double m, mu, grav[3]; /* gravity vector (incline: tilted) */
  double A[9];           /* x = A xi (row-major); identity: Cartesian */
  int skew;
  /* per-step checks */
  double prev_v[3];
  int steps_seen;
  double max_cone_excess, max_rise, t_stop;
} block;

static void x_of(const block *b, const double *xi, double *x) {
  for (int i = 0; i < 3; ++i) x[i] = b->A[3 * i] * xi[0] + b->A[3 * i + 1] * xi[1] + b->A[3 * i + 2] * xi[2];
}

/* M = m A^T A: the full 3 x 3 pattern (or the diagonal for Cartesian). */
static int mass(double t, const double *q, double *val, void *ud) {
  (void)t, (void)q;
  const block *b = ud;
  if (!b->skew) {
    val[0] = val[1] = val[2] = b->m;
    return 0;
  }
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      double s = 0.0;
      for (int r = 0; r < 3; ++r) s += b->A[3 * r + i] * b->A[3 * r + j];
      val[3 * j + i] = b->m * s;
    }
  return 0;
}

/* generalised gravity A^T m g */
static int forces(double t, const double *q, const double *v, double *f, void *ud) {
  (void)t, (void)q, (void)v;
  const block *b = ud;
  for (int i = 0; i < 3; ++i) {
    f[i] = 0.0;
    for (int r = 0; r < 3; ++r) f[i] += b->A[3 * r + i] * b->m * b->grav[r];
  }
  return 0;
}

static int gap(double t, const double *q, double *g, void *ud) {
  (void)t;
  double x[3];
  x_of(ud, q, x);
  g[0] = x[2];
  return 0;
}

/* rows of A: z for the normal, x and y for the tangents */
static int gap_jac(double t, const double *q, double *val, void *ud) {
  (void)t, (void)q;
  const block *b = ud;
  for (int j = 0; j < 3; ++j) val[j] = b->A[6 + j];
  return 0;
}

static int tangents(double t, const double *q, double *val, void *ud) {
  (void)t, (void)q;
  const block *b = ud;
  for (int j = 0; j < 6; ++j) val[j] = b->A[j];
  return 0;
}

static int potential(double t, const double *q, double *V, void *ud) {
  (void)t;
  const block *b = ud;
  double x[3];
  x_of(b, q, x);
  *V = -b->m * (b->grav[0] * x[0] + b->grav[1] * x[1] + b->grav[2] * x[2]);
  return 0;
}

static int rhs(double t, const double *y, double *out, void *ud) {
  (void)t, (void)y, (void)out, (void)ud;
  return -1; /* moreau only */
}

/* The impulses of the step from the velocity change (M dv = h f + P) in
 * Cartesian terms: m (x'_new - x'_old) - h m g = (P_t1, P_t2, P_n). */
static int observe(const mbdae_step_record *r, void *ud) {
  block *b = ud;
  double v[3];
  x_of(b, r->y + 3, v);
  if (b->steps_seen++ > 0) {
    double P[3];
    for (int i = 0; i < 3; ++i) P[i] = b->m * (v[i] - b->prev_v[i]) - r->h * b->m * b->grav[i];
    double excess = hypot(P[0], P[1]) - b->mu * P[2];
    if (excess > b->max_cone_excess) b->max_cone_excess = excess;
  }
  if (r->energy_rise > b->max_rise) b->max_rise = r->energy_rise;
  if (b->t_stop < 0.0 && hypot(v[0], v[1]) <= 1e-12) b->t_stop = r->t;
  memcpy(b->prev_v, v, sizeof v);
  return 0;
}

static mbdae_problem *block_problem(block *b) {
  static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (!b->skew) memcpy(b->A, I, sizeof I);
  mbdae_problem *p = mbdae_problem_create(6, MBDAE_FORM_ODE);
  mbdae_problem_set_rhs(p, rhs);
  mbdae_problem_set_user_data(p, b);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 3, 3, (int[]){0, 1, 2}, (int[]){3, 4, 5}),
                  MBDAE_OK);
  if (b->skew) {
    const mbdae_index cp[4] = {0, 3, 6, 9}, ri[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 9, cp, ri, 1, mass), MBDAE_OK);
  } else {
    const mbdae_index cp[4] = {0, 1, 2, 3}, ri[3] = {0, 1, 2};
    CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 3, cp, ri, 1, mass), MBDAE_OK);
  }
  mbdae_problem_set_forces(p, forces);
  mbdae_problem_set_potential(p, potential);
  const mbdae_index gp[2] = {0, 3}, gi[3] = {0, 1, 2};
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 1, 0, 3, gp, gi, gap, gap_jac, NULL),
                  MBDAE_OK);
  const mbdae_index tp[3] = {0, 3, 6}, ti[6] = {0, 1, 2, 0, 1, 2};
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){0}, &b->mu, 6, tp, ti, tangents),
                  MBDAE_OK);
  return p;
}

/* Run from Cartesian (x0, v0) for t_end; the end state in Cartesian terms. */
static int run_block(block *b, const double x0[3], const double v0[3], double t_end, double h,
                     double x[3], double v[3]) {
  mbdae_problem *p = block_problem(b);
  double Ainv[9], det;
  /* xi = A^-1 x (adjugate) */
  const double *A = b->A;
  det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
        A[2] * (A[3] * A[7] - A[4] * A[6]);
  Ainv[0] = (A[4] * A[8] - A[5] * A[7]) / det;
  Ainv[1] = (A[2] * A[7] - A[1] * A[8]) / det;
  Ainv[2] = (A[1] * A[5] - A[2] * A[4]) / det;
  Ainv[3] = (A[5] * A[6] - A[3] * A[8]) / det;
  Ainv[4] = (A[0] * A[8] - A[2] * A[6]) / det;
  Ainv[5] = (A[2] * A[3] - A[0] * A[5]) / det;
  Ainv[6] = (A[3] * A[7] - A[4] * A[6]) / det;
  Ainv[7] = (A[1] * A[6] - A[0] * A[7]) / det;
  Ainv[8] = (A[0] * A[4] - A[1] * A[3]) / det;
  double y[6];
  for (int i = 0; i < 3; ++i) {
    y[i] = Ainv[3 * i] * x0[0] + Ainv[3 * i + 1] * x0[1] + Ainv[3 * i + 2] * x0[2];
    y[3 + i] = Ainv[3 * i] * v0[0] + Ainv[3 * i + 1] * v0[1] + Ainv[3 * i + 2] * v0[2];
  }
  memcpy(b->prev_v, v0, 3 * sizeof *v0);
  b->steps_seen = 1;
  b->max_cone_excess = -INFINITY;
  b->max_rise = -INFINITY;
  b->t_stop = -1.0;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  o.moreau_step = h;
  o.t_end = t_end;
  o.dt_out = t_end;
  o.step_observer = observe;
  o.step_data = b;
  char msg[512] = "";
  int rc = mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg);
  if (rc) printf("\n  run: %s\n", msg);
  x_of(b, y, x);
  x_of(b, y + 3, v);
  mbdae_problem_free(&p);
  return rc;
}

static void sliding_to_rest(int skew) {
  block b = {.m = 2.0, .mu = 0.4, .grav = {0.0, 0.0, -9.81}, .skew = skew,
             .A = {1.0, 0.3, -0.2, 0.1, 0.9, 0.25, -0.15, 0.2, 1.1}};
  const double V = 2.5, dir[2] = {0.6, 0.8}, h = 1e-3, g = 9.81;
  const double x0[3] = {0.0, 0.0, 0.0}, v0[3] = {V * dir[0], V * dir[1], 0.0};
  const double ts = V / (b.mu * g), d = V * V / (2.0 * b.mu * g);
  double x[3], v[3];
  CU_ASSERT_EQUAL_FATAL(run_block(&b, x0, v0, ts + 0.3, h, x, v), MBDAE_OK);
  const double along = x[0] * dir[0] + x[1] * dir[1], across = x[0] * dir[1] - x[1] * dir[0];
  /* within O(h): the distance within one step's travel at the start speed,
   * the plane left by at most one step of free fall (g h^2: a rounding-level
   * positive normal velocity can take the contact out of one step's index
   * set, the next step takes it back) */
  if (!(fabs(along - d) <= V * h))
    printf("\n  distance %.15g, closed form %.15g (difference %.3e)\n", along, d, along - d);
  CU_ASSERT(fabs(along - d) <= V * h);
  MBDAE_ASSERT_ABS(across, 0.0, 1e-9);
  MBDAE_ASSERT_ABS(x[2], 0.0, 1.01 * g * h * h);
  MBDAE_ASSERT_ABS(hypot(v[0], v[1]), 0.0, 1e-12); /* at rest: sticking */
  MBDAE_ASSERT_ABS(v[2], 0.0, g * h);
  if (!(b.t_stop >= ts - h && b.t_stop < ts + 2.0 * h + 1e-9))
    printf("\n  stop time %.15g, closed form %.15g\n", b.t_stop, ts);
  CU_ASSERT(b.t_stop >= ts - h && b.t_stop < ts + 2.0 * h + 1e-9);
  CU_ASSERT(b.max_cone_excess <= 1e-12 * b.m * g * h);
  CU_ASSERT(b.max_rise <= 1e-12);
}

static void test_sliding_to_rest(void) { sliding_to_rest(0); }
static void test_sliding_to_rest_full_mass(void) { sliding_to_rest(1); }

/* An incline of angle a: gravity g (sin a, 0, -cos a) in the plane's frame. */
static void incline(double tan_a, double mu, double x[3], double v[3], block *b) {
  const double g = 9.81, a = atan(tan_a);
  *b = (block){.m = 1.5, .mu = mu, .grav = {g * sin(a), 0.0, -g * cos(a)}};
  const double zero[3] = {0.0, 0.0, 0.0};
  CU_ASSERT_EQUAL_FATAL(run_block(b, zero, zero, 1.0, 1e-3, x, v), MBDAE_OK);
}

static void test_incline_sticks_below_the_cone(void) {
  double x[3], v[3];
  block b;
  incline(0.8 * 0.5, 0.5, x, v, &b);
  /* stuck: at most one step of free motion (see sliding_to_rest) */
  MBDAE_ASSERT_ABS(hypot(x[0], x[1]), 0.0, 1.01 * 9.81 * 1e-6);
  MBDAE_ASSERT_ABS(hypot(v[0], v[1]), 0.0, 1e-12);
  CU_ASSERT(b.max_cone_excess < 0.0); /* strictly inside: |P_t| = 0.8 mu P_n */
}

static void test_incline_slides_above_the_cone(void) {
  double x[3], v[3];
  block b;
  const double mu = 0.3, tan_a = 1.5 * mu, a = atan(tan_a), g = 9.81;
  incline(tan_a, mu, x, v, &b);
  const double acc = g * (sin(a) - mu * cos(a));
  MBDAE_ASSERT_ABS(x[0], 0.5 * acc, 1.01 * g * 1e-6); /* one step of free motion */
  MBDAE_ASSERT_ABS(v[0], acc, 1e-9);
  MBDAE_ASSERT_ABS(x[1], 0.0, 1e-14);
  CU_ASSERT(fabs(b.max_cone_excess) <= 1e-12 * b.m * g * 1e-3); /* on the cone */
}

static void test_frictionless_contact_slides_freely(void) {
  block b = {.m = 1.0, .mu = 0.0, .grav = {0.0, 0.0, -9.81}};
  const double x0[3] = {0.0, 0.0, 0.0}, v0[3] = {1.0, -2.0, 0.0};
  double x[3], v[3];
  CU_ASSERT_EQUAL_FATAL(run_block(&b, x0, v0, 0.5, 1e-3, x, v), MBDAE_OK);
  MBDAE_ASSERT_ABS(x[0], 0.5, 1e-12);
  MBDAE_ASSERT_ABS(x[1], -1.0, 1e-12);
  MBDAE_ASSERT_ABS(v[0], 1.0, 1e-12);
}

/* A block dropped onto the plane while moving sideways: the impact's normal
 * impulse P_n = m V_n (plastic) limits the friction impulse of that step to
 * mu m V_n; afterwards it slides to rest. */
static void test_impact_with_friction(void) {
  block b = {.m = 1.0, .mu = 0.2, .grav = {0.0, 0.0, 0.0}};
  const double x0[3] = {0.0, 0.0, 0.0005}, v0[3] = {1.0, 0.0, -1.0};
  double x[3], v[3];
  CU_ASSERT_EQUAL_FATAL(run_block(&b, x0, v0, 0.01, 1e-3, x, v), MBDAE_OK);
  /* no gravity: after the impact step the block slides freely at 1 - mu * 1 */
  MBDAE_ASSERT_ABS(v[0], 1.0 - 0.2, 1e-12);
  MBDAE_ASSERT_ABS(v[2], 0.0, 1e-12);
  CU_ASSERT(b.max_cone_excess <= 1e-12);
  CU_ASSERT(b.max_rise <= 1e-12);
}

static int dummy_jac(double t, const double *q, double *val, void *ud) {
  (void)t, (void)q, (void)ud;
  val[0] = 1.0;
  return 0;
}

static void test_set_friction_checks(void) {
  block b = {.m = 1.0, .mu = 0.5};
  mbdae_problem *p = mbdae_problem_create(6, MBDAE_FORM_ODE);
  mbdae_problem_set_user_data(p, &b);
  mbdae_problem_set_mechanics(p, 3, 3, (int[]){0, 1, 2}, (int[]){3, 4, 5});
  const mbdae_index tp[3] = {0, 1, 2}, ti[2] = {0, 1}, ti_bad[2] = {0, 3};
  const double mu = 0.5, mu_bad = -0.1, mu_nan = NAN;
  /* before the constraints */
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){0}, &mu, 2, tp, ti, dummy_jac),
                  MBDAE_ERR_ARGUMENT);
  /* two unilateral rows, one bilateral */
  const mbdae_index gp[4] = {0, 1, 2, 3}, gi[3] = {0, 1, 2};
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 2, 1, 3, gp, gi, gap, gap_jac, NULL),
                  MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){2}, &mu, 2, tp, ti, dummy_jac),
                  MBDAE_ERR_ARGUMENT); /* a bilateral row */
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){0}, &mu_bad, 2, tp, ti, dummy_jac),
                  MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){0}, &mu_nan, 2, tp, ti, dummy_jac),
                  MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){0}, &mu, 2, tp, ti_bad, dummy_jac),
                  MBDAE_ERR_ARGUMENT); /* column out of range */
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 2, (int[]){0, 0}, (double[]){mu, mu}, 2,
                                             (mbdae_index[]){0, 1, 1, 1, 2}, ti, dummy_jac),
                  MBDAE_ERR_ARGUMENT); /* a repeated row */
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){1}, &mu, 2, tp, ti, NULL),
                  MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_friction(p, 1, (int[]){1}, &mu, 2, tp, ti, dummy_jac),
                  MBDAE_OK);
  mbdae_problem_free(&p);
}

int main(void) {
  static const mbdae_test tests[] = {
      {"sliding to rest: stop time and distance", test_sliding_to_rest},
      {"sliding to rest with a full mass matrix (skew coordinates)",
       test_sliding_to_rest_full_mass},
      {"an incline below the cone: the block sticks", test_incline_sticks_below_the_cone},
      {"an incline above the cone: sin a - mu cos a", test_incline_slides_above_the_cone},
      {"mu = 0: free sliding", test_frictionless_contact_slides_freely},
      {"an impact with friction", test_impact_with_friction},
      {"mbdae_problem_set_friction checks", test_set_friction_checks},
      {NULL, NULL}};
  return mbdae_test_main("moreau friction", tests);
}
