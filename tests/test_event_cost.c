/* test_event_cost.c - what an event costs the engine: RK4's root location
 * (a few partial steps, not ~50 bisections), IDA's Jacobian reuse across
 * step-size changes, and the METIS ordering's placement of a DAE's multipliers
 * (after the unknowns that give them a pivot). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"
#include "mbdae/mbdae.h"
#include "testutil.h"

/* ---- a ball bouncing with restitution e (ODE, one root) ------------------ */
typedef struct ball { double g, e; int impacts; double t[64]; } ball;

static int ball_rhs(double t, const double *y, double *f, void *ud) {
  (void)t;
  ball *b = ud;
  f[0] = y[1];
  f[1] = -b->g;
  return 0;
}
static int ball_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp, (void)ud;
  g[0] = -y[0];
  return 0;
}
static int ball_event(double t, double *y, double *yp, const int *dirs,
                      mbdae_event_info *info, void *ud) {
  (void)yp, (void)info;
  ball *b = ud;
  if (dirs[0] <= 0) return MBDAE_EVENT_NOCHANGE;
  if (b->impacts < 64) b->t[b->impacts] = t;
  b->impacts++;
  y[0] = 0.0;
  y[1] = -b->e * y[1];
  return MBDAE_EVENT_CONTINUE;
}

/* Impact k of a ball dropped from h0 at rest (closed form). */
static double impact_time(double h0, double g, double e, int k) {
  double t = sqrt(2 * h0 / g), v1 = g * t;
  for (int j = 1; j < k; ++j) t += 2 * pow(e, j) * v1 / g;
  return t;
}

/* RK4 is exact on the ball's quadratic flight, so each impact time is known
 * to round-off; the location must cost a few partial steps (4 RHS each),
 * where bisection to round-off took ~50. */
static void test_rk4_location_cost(void) {
  ball b = {.g = 9.81, .e = 0.8};
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_user_data(p, &b);
  mbdae_problem_set_rhs(p, ball_rhs);
  mbdae_problem_set_roots(p, 1, ball_root);
  mbdae_problem_set_event_handler(p, ball_event);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.t_end = 4.0; /* 10 impacts (the 10th at 3.67 s) */
  o.dt_out = 4.0;
  o.rk4_step = 1e-2;
  double y[2] = {1.0, 0.0};
  mbdae_stats st;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(mbdae_run(p, &o, y, NULL, &st, msg, sizeof msg), MBDAE_OK);
  CU_ASSERT(b.impacts >= 8);
  for (int k = 1; k <= b.impacts && k <= 8; ++k)
    MBDAE_ASSERT_REL(b.t[k - 1], impact_time(1.0, b.g, b.e, k), 1e-12);
  /* grid steps: at most t_end / h + one restart per event */
  double grid = 4.0 * (o.t_end / o.rk4_step + b.impacts + 1);
  double per_event = (st.rhs_evals - grid) / b.impacts;
  printf("\n  RK4 root location: %.1f RHS per event (%d events)\n", per_event, b.impacts);
  CU_ASSERT(per_event <= 40.0);
  mbdae_problem_free(&p);
}

/* ---- exponential decay, one event that changes the rate (DAE) ----------- */
typedef struct decay { double k1, k2, level; int switched; double tev; } decay;

static int decay_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t;
  decay *d = ud;
  r[0] = yp[0] + (d->switched ? d->k2 : d->k1) * y[0];
  return 0;
}
static int decay_jac(double t, double cj, const double *y, const double *yp,
                     double *J, void *ud) {
  (void)t, (void)y, (void)yp;
  decay *d = ud;
  J[0] = cj + (d->switched ? d->k2 : d->k1);
  return 0;
}
static int decay_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp;
  decay *d = ud;
  g[0] = d->level - y[0];
  return 0;
}
static int decay_event(double t, double *y, double *yp, const int *dirs,
                       mbdae_event_info *info, void *ud) {
  (void)info;
  decay *d = ud;
  if (dirs[0] <= 0 || d->switched) return MBDAE_EVENT_NOCHANGE;
  d->switched = 1;
  d->tev = t;
  yp[0] = -d->k2 * y[0];
  return MBDAE_EVENT_CONTINUE;
}

static int run_decay(double reuse, double *y_end, mbdae_stats *st, decay *d) {
  mbdae_problem *p = mbdae_problem_create(1, MBDAE_FORM_DAE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  double id = 1.0;
  mbdae_problem_set_user_data(p, d);
  mbdae_problem_set_residual(p, decay_res);
  mbdae_problem_set_id(p, &id);
  mbdae_problem_set_jacobian_dense(p, decay_jac);
  mbdae_problem_set_roots(p, 1, decay_root);
  mbdae_problem_set_event_handler(p, decay_event);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.t_end = 3.0;
  o.dt_out = 3.0;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.jac_reuse_cj = reuse;
  double y = 1.0, yp = -d->k1;
  char msg[512];
  int rc = mbdae_run(p, &o, &y, &yp, st, msg, sizeof msg);
  if (rc) printf("\n  decay run: %s\n", msg);
  *y_end = y;
  mbdae_problem_free(&p);
  return rc;
}

/* After the switch at t1 = ln(2)/k1 the solution is y = 1/2 exp(-k2 (t - t1)).
 * Keeping the factorised iteration matrix while cj changes by up to 90%
 * (the engine's default) needs fewer factorisations than IDA's own 25%
 * after the restart, at the same accuracy; a reused matrix that fails Newton
 * is refactored at once (doc/engine.md, "Jacobian reuse"). */
static void test_jacobian_reuse(void) {
  decay d0 = {.k1 = 1.0, .k2 = 3.0, .level = 0.5}, d1 = d0;
  double y0, y1;
  mbdae_stats s0, s1;
  CU_ASSERT_EQUAL_FATAL(run_decay(0.25, &y0, &s0, &d0), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(run_decay(0.9, &y1, &s1, &d1), MBDAE_OK);
  double t1 = log(2.0), exact = 0.5 * exp(-3.0 * (3.0 - t1));
  MBDAE_ASSERT_REL(d0.tev, t1, 1e-8);
  MBDAE_ASSERT_REL(d1.tev, t1, 1e-8);
  MBDAE_ASSERT_REL(y0, exact, 1e-7);
  MBDAE_ASSERT_REL(y1, exact, 1e-7);
  printf("\n  factorisations: %ld (cj within 25%%) vs %ld (within 90%%); steps %ld vs %ld; "
         "reused matrices refactored after a Newton failure: %ld vs %ld; Newton failures %ld vs "
         "%ld\n", s0.lin_setups, s1.lin_setups, s0.steps, s1.steps, s0.reuse_refactors,
         s1.reuse_refactors, s0.newton_fails, s1.newton_fails);
  CU_ASSERT(s1.lin_setups < s0.lin_setups);
  /* The problem is linear: Newton with a matrix factorised at the current cj
   * converges in one iteration, so every Newton failure is one of a reused
   * matrix, and each must be retried at once with a fresh factorisation
   * (counted in reuse_refactors), never left to fail the step. */
  CU_ASSERT(s1.reuse_refactors > 0);
  CU_ASSERT_EQUAL(s1.reuse_refactors, s1.newton_fails);
  CU_ASSERT(s1.reuse_refactors <= s1.lin_setups);
}

/* ---- IDA's first step after an event (solver.restart_step) -------------- */
/* The ball of test_rk4_location_cost as a DAE for IDA: F = (y0' - y1,
 * y1' + g). BDF of order >= 2 is exact on its parabolas, so every impact
 * time is known to the root finder's accuracy, and what an event costs is
 * the climb back to long steps after IDAReInit. */
static int ball_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t;
  ball *b = ud;
  r[0] = yp[0] - y[1];
  r[1] = yp[1] + b->g;
  return 0;
}
static int ball_jac(double t, double cj, const double *y, const double *yp, double *J,
                    void *ud) {
  (void)t, (void)y, (void)yp, (void)ud;
  J[0] = cj;   /* dF0/dy0 */
  J[2] = -1.0; /* dF0/dy1 (column 1) */
  J[3] = cj;   /* dF1/dy1 */
  return 0;
}
static int ball_event_dae(double t, double *y, double *yp, const int *dirs,
                          mbdae_event_info *info, void *ud) {
  int rc = ball_event(t, y, yp, dirs, info, ud);
  if (rc == MBDAE_EVENT_CONTINUE) yp[0] = y[1]; /* consistent: y0' = y1 */
  return rc;
}

static int run_ball_ida(double restart_step, ball *b, mbdae_stats *st) {
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_DAE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  const double id[2] = {1.0, 1.0};
  mbdae_problem_set_user_data(p, b);
  mbdae_problem_set_residual(p, ball_res);
  mbdae_problem_set_id(p, id);
  mbdae_problem_set_jacobian_dense(p, ball_jac);
  mbdae_problem_set_roots(p, 1, ball_root);
  mbdae_problem_set_event_handler(p, ball_event_dae);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.t_end = 3.5; /* 9 impacts (the 9th at 3.457 s, the 10th at 3.579 s) */
  o.dt_out = 3.5;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.restart_step = restart_step;
  o.restart_policy = MBDAE_RESTART_SOLVER; /* restart_step 0: IDA's own h0 */
  double y[2] = {1.0, 0.0}, yp[2] = {0.0, -b->g};
  char msg[512];
  int rc = mbdae_run(p, &o, y, yp, st, msg, sizeof msg);
  if (rc) printf("\n  ball (IDA) run: %s\n", msg);
  mbdae_problem_free(&p);
  return rc;
}

/* With a tenth of the last step as the first step after each impact, IDA
 * takes fewer steps and locates every impact as well as from its own tiny
 * first step (closed-form impact times). */
static void test_restart_step(void) {
  ball b0 = {.g = 9.81, .e = 0.8}, b1 = b0;
  mbdae_stats s0, s1;
  CU_ASSERT_EQUAL_FATAL(run_ball_ida(0.0, &b0, &s0), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(run_ball_ida(0.1, &b1, &s1), MBDAE_OK);
  CU_ASSERT_EQUAL(b0.impacts, 9);
  CU_ASSERT_EQUAL(b1.impacts, 9);
  double worst0 = 0, worst1 = 0;
  for (int k = 1; k <= 9 && k <= b0.impacts && k <= b1.impacts; ++k) {
    double tk = impact_time(1.0, b0.g, b0.e, k);
    worst0 = fmax(worst0, fabs(b0.t[k - 1] - tk) / tk);
    worst1 = fmax(worst1, fabs(b1.t[k - 1] - tk) / tk);
  }
  printf("\n  IDA ball, 9 impacts: %ld steps (IDA's h0) vs %ld (restart_step 0.1); worst "
         "impact-time error %.1e vs %.1e\n", s0.steps, s1.steps, worst0, worst1);
  CU_ASSERT(worst0 <= 1e-8);
  CU_ASSERT(worst1 <= 1e-8);
  CU_ASSERT(s1.steps < s0.steps);
}

/* The first step after an event (doc/engine.md, "Restarts"): restart_step x
 * gives x h; restart: auto after an order-3 step at rtol 1e-6 restarting at
 * order 1 gives rtol^(1/2 - 1/4) h = 10^-1.5 h, at order 3 h itself; an
 * order-1 restart is cut to the distance to the output time the run is
 * heading for, a one-step method's (order kept) is not. */
static void test_restart_step_rule(void) {
  mbdae_options o;
  mbdae_options_default(&o);
  CU_ASSERT_EQUAL(o.restart_policy, MBDAE_RESTART_AUTO);
  o.rtol = 1e-6;
  mbdae_engine e;
  memset(&e, 0, sizeof e);
  e.o = &o;
  e.last_h = 0.1;
  e.last_order = 3;
  e.t = 1.0;
  e.tout = 2.0;
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 1), 0.1 * pow(10.0, -1.5), 1e-12);
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 3), 0.1, 1e-12);
  e.tout = 1.02;
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 3), 0.1, 1e-12);
  e.last_order = 1; /* order 1 -> order 1: x = 1, cut to the output */
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 1), 0.02, 1e-12);
  e.last_order = 3;
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 1), 0.1 * pow(10.0, -1.5), 1e-12);
  o.restart_step = 0.5;
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 1), 0.02, 1e-12);
  e.tout = 3.0;
  MBDAE_ASSERT_REL(mbdae_engine_restart_step(&e, 1), 0.05, 1e-12);
  o.restart_step = 0.0;
  o.restart_policy = MBDAE_RESTART_SOLVER;
  CU_ASSERT_EQUAL(mbdae_engine_restart_step(&e, 1), 0.0);
  e.last_h = 0.0; /* no step yet: the integrator's own estimate */
  o.restart_policy = MBDAE_RESTART_AUTO;
  CU_ASSERT_EQUAL(mbdae_engine_restart_step(&e, 1), 0.0);
}

/* ---- METIS places multipliers after their neighbours -------------------- */
/* A k x k grid of differential unknowns (a point each) and one algebraic
 * unknown per grid edge, coupled to its two end points (the pattern of a
 * string net's saddle-point matrix, one unknown per point). */
#define K 12
static void test_metis_delays_multipliers(void) {
  int np = K * K, ne = 2 * K * (K - 1), n = np + ne;
  int *ea = malloc((size_t)ne * sizeof *ea), *eb = malloc((size_t)ne * sizeof *eb);
  long *Ap = malloc(((size_t)n + 1) * sizeof *Ap), *Ai = malloc((size_t)(n + 4 * ne + n) * sizeof *Ai);
  long *Perm = malloc((size_t)n * sizeof *Perm), *pos = malloc((size_t)n * sizeof *pos);
  double *id = malloc((size_t)n * sizeof *id);
  CU_ASSERT_FATAL(ea && eb && Ap && Ai && Perm && pos && id);
  int e = 0;
  for (int a = 0; a < K; ++a)
    for (int b = 0; b < K; ++b) {
      if (b + 1 < K) ea[e] = a * K + b, eb[e] = a * K + b + 1, e++;
      if (a + 1 < K) ea[e] = a * K + b, eb[e] = (a + 1) * K + b, e++;
    }
  /* column-wise pattern, rows increasing: point column v has v, its edges;
   * edge column np + s has its two points and itself */
  long nz = 0;
  for (int v = 0; v < n; ++v) {
    Ap[v] = nz;
    id[v] = v < np ? 1.0 : 0.0;
    if (v < np) {
      Ai[nz++] = v;
      for (int s = 0; s < ne; ++s)
        if (ea[s] == v || eb[s] == v) Ai[nz++] = np + s;
    } else {
      int s = v - np;
      Ai[nz++] = ea[s];
      Ai[nz++] = eb[s];
      Ai[nz++] = v;
    }
  }
  Ap[n] = nz;
  CU_ASSERT(mbdae_klu_metis_order(n, Ap, Ai, Perm, id) > 0);
  for (int v = 0; v < n; ++v) pos[v] = -1;
  for (int k = 0; k < n; ++k) {
    CU_ASSERT_FATAL(Perm[k] >= 0 && Perm[k] < n && pos[Perm[k]] == -1);
    pos[Perm[k]] = k;
  }
  int late = 0;
  for (int s = 0; s < ne; ++s)
    late += pos[np + s] > pos[ea[s]] && pos[np + s] > pos[eb[s]];
  CU_ASSERT_EQUAL(late, ne);
  free(ea), free(eb), free(Ap), free(Ai), free(Perm), free(pos), free(id);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"RK4 locates a root in a few partial steps", test_rk4_location_cost},
    {"Jacobian reuse: fewer factorisations, same accuracy", test_jacobian_reuse},
    {"IDA restart step: fewer steps per event, same impact times", test_restart_step},
    {"restart step rule: fraction, auto, bounded by the next output", test_restart_step_rule},
    {"METIS ordering delays multipliers past their neighbours", test_metis_delays_multipliers},
    {NULL, NULL},
  };
  return mbdae_test_main("event_cost", tests);
}
