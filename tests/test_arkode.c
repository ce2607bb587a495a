/* test_arkode.c - method arkode (ARKStep, ESDIRK tables): order and
 * L-stability on the stiff Prothero-Robinson equation against its closed
 * form, every table at its stated order, the pace statistics and restart
 * policies on a bouncing point, and the CLI's refusal of a form the method
 * cannot take. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "mbdae/mbdae.h"
#include "testutil.h"

/* ---- Prothero-Robinson: y' = -L (y - cos t) - sin t, y = cos t -------- */
static double PR_L = 1e6;

static int pr_rhs(double t, const double *y, double *f, void *ud) {
  (void)ud;
  f[0] = -PR_L * (y[0] - cos(t)) - sin(t);
  return 0;
}
static int pr_jac(double t, double cj, const double *y, const double *yp, double *J,
                  void *ud) {
  (void)t, (void)cj, (void)y, (void)yp, (void)ud;
  J[0] = -PR_L;
  return 0;
}

static int run_pr(double L, mbdae_arkode_table table, mbdae_linsol ls, double rtol,
                  mbdae_stats *st, double *err) {
  PR_L = L;
  mbdae_problem *p = mbdae_problem_create(1, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_rhs(p, pr_rhs);
  mbdae_problem_set_jacobian_dense(p, pr_jac);
  static const mbdae_index cp[] = {0, 1}, ri[] = {0};
  mbdae_problem_set_jacobian_sparse(p, 1, cp, ri, pr_jac);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_ARKODE;
  o.arkode_table = table;
  o.linsol = ls;
  o.t_end = 10.0;
  o.dt_out = 1.0;
  o.rtol = rtol;
  o.atol = 1e-12;
  double y = 1.0;
  char msg[512];
  int rc = mbdae_run(p, &o, &y, NULL, st, msg, sizeof msg);
  if (rc) printf("\n  %s\n", msg);
  *err = fabs(y - cos(10.0));
  mbdae_problem_free(&p);
  return rc;
}

/* L = 1e6: an internally stable table's steps follow the smooth solution,
 * not 1/L (an explicit method needs h < ~3e-6: 3.6e6 steps); the error
 * meets the tolerance. (The equation is the standard test of order
 * reduction: several tables fail it at this L, doc/arkode.md.) */
static void test_stiff_linear(void) {
  mbdae_stats st;
  double err;
  CU_ASSERT_EQUAL_FATAL(run_pr(1e6, MBDAE_ARKODE_ESDIRK43I6, MBDAE_LINSOL_DENSE, 1e-8, &st, &err),
                        MBDAE_OK);
  printf("\n  Prothero-Robinson L = 1e6, rtol 1e-8: %ld steps, error %.2e\n", st.steps, err);
  CU_ASSERT(st.steps < 200);
  CU_ASSERT(err < 1e-7);
  double err_klu;
  mbdae_stats sk;
  CU_ASSERT_EQUAL(run_pr(1e6, MBDAE_ARKODE_ESDIRK43I6, MBDAE_LINSOL_KLU, 1e-8, &sk, &err_klu),
                  MBDAE_OK);
  CU_ASSERT_EQUAL(sk.steps, st.steps);
  MBDAE_ASSERT_ABS(err_klu, err, 1e-12);
}

/* every table runs (L = 1, not stiff) and every step is at its stated order */
static void test_tables(void) {
  static const int order[] = {3, 3, 3, 4, 4, 4, 4, 5, 5, 3, 4, 4, 5, 3, 4, 5, 2};
  const int ntab = (int)(sizeof order / sizeof order[0]);
  CU_ASSERT_EQUAL(ntab, (int)MBDAE_ARKODE_TRBDF2 + 1);
  for (int k = 0; k < ntab; ++k) {
    mbdae_stats st;
    double err;
    CU_ASSERT_EQUAL(run_pr(1.0, (mbdae_arkode_table)k, MBDAE_LINSOL_DENSE, 1e-6, &st, &err),
                    MBDAE_OK);
    CU_ASSERT(st.steps > 0);
    CU_ASSERT_EQUAL(st.steps_by_order[order[k] - 1], st.steps);
    if (!(err < 1e-4)) printf("\n  table %d: error %.3g\n", k, err);
    CU_ASSERT(err < 1e-4);
  }
  mbdae_stats st;
  double err;
  CU_ASSERT_EQUAL(run_pr(1.0, (mbdae_arkode_table)ntab, MBDAE_LINSOL_DENSE, 1e-6, &st, &err),
                  MBDAE_ERR_ARGUMENT);
}

/* ---- a point bouncing on z = 0 with restitution e (ODE z, v) ---------- */
typedef struct bounce { double g, e; long impacts; double t1; } bounce;

static int b_rhs(double t, const double *y, double *f, void *ud) {
  (void)t;
  f[0] = y[1];
  f[1] = -((bounce *)ud)->g;
  return 0;
}
static int b_jac(double t, double cj, const double *y, const double *yp, double *J, void *ud) {
  (void)t, (void)cj, (void)y, (void)yp, (void)ud;
  J[2] = 1.0; /* column-major: df0/dy1 */
  return 0;
}
static int b_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp, (void)ud;
  g[0] = y[0];
  return 0;
}
static int b_event(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                   void *ud) {
  (void)yp;
  bounce *b = ud;
  if (dirs[0] != -1) return MBDAE_EVENT_NOCHANGE;
  if (b->impacts++ == 0) b->t1 = t;
  y[0] = 0.0;
  y[1] = -b->e * y[1];
  info->label = "impact";
  return MBDAE_EVENT_CONTINUE;
}

static int run_bounce(mbdae_method m, mbdae_restart_policy pol, double frac, mbdae_stats *st,
                      bounce *b) {
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_user_data(p, b);
  mbdae_problem_set_rhs(p, b_rhs);
  mbdae_problem_set_jacobian_dense(p, b_jac);
  mbdae_problem_set_roots(p, 1, b_root);
  mbdae_problem_set_event_handler(p, b_event);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m;
  o.t_end = 1.3; /* the impacts accumulate at 3 t1 = 1.3546 s */
  o.dt_out = 0.1;
  o.rtol = 1e-8;
  o.atol = 1e-10;
  o.restart_policy = pol;
  o.restart_step = frac;
  double y[2] = {1.0, 0.0};
  char msg[512];
  int rc = mbdae_run(p, &o, y, NULL, st, msg, sizeof msg);
  if (rc) printf("\n  %s\n", msg);
  mbdae_problem_free(&p);
  return rc;
}

/* restarts = events; a one-step method keeps its pace (each flight of the
 * bounce is half the last, so at most its first step after an event is a
 * ramp step), a BDF one climbs from a small first step */
static void test_pace_and_restarts(void) {
  const double t1 = sqrt(2.0 / 9.81);
  bounce b = {9.81, 0.5, 0, 0};
  mbdae_stats sa, sf;
  CU_ASSERT_EQUAL_FATAL(run_bounce(MBDAE_METHOD_ARKODE, MBDAE_RESTART_AUTO, 0, &sa, &b), 0);
  MBDAE_ASSERT_REL(b.t1, t1, 1e-10);
  CU_ASSERT_EQUAL(sa.restarts, sa.events);
  CU_ASSERT(sa.events >= 5);
  CU_ASSERT(sa.ramp_steps <= sa.events);
  b.impacts = 0;
  CU_ASSERT_EQUAL(run_bounce(MBDAE_METHOD_ARKODE, MBDAE_RESTART_AUTO, 1e-4, &sf, &b), 0);
  CU_ASSERT(sf.ramp_steps >= 3 * sf.events); /* every restart climbs from 1e-4 h */
  CU_ASSERT_EQUAL(sf.events, sa.events);
  mbdae_stats ia, is;
  b.impacts = 0;
  CU_ASSERT_EQUAL(run_bounce(MBDAE_METHOD_CVODE_BDF, MBDAE_RESTART_SOLVER, 1e-9, &is, &b), 0);
  MBDAE_ASSERT_REL(b.t1, t1, 1e-7);
  b.impacts = 0;
  CU_ASSERT_EQUAL(run_bounce(MBDAE_METHOD_CVODE_BDF, MBDAE_RESTART_AUTO, 0, &ia, &b), 0);
  MBDAE_ASSERT_REL(b.t1, t1, 1e-7);
  CU_ASSERT_EQUAL(ia.events, is.events);
  CU_ASSERT_EQUAL(ia.restarts, ia.events);
  printf("\n  CVODE BDF bounce: ramp steps %ld (restart_step 1e-9) vs %ld (auto)", is.ramp_steps,
         ia.ramp_steps);
  CU_ASSERT(ia.ramp_steps < is.ramp_steps);
  long n = 0;
  for (int q = 0; q < MBDAE_STATS_ORDERS; ++q) n += is.steps_by_order[q];
  CU_ASSERT_EQUAL(n, is.steps);
  CU_ASSERT(is.steps_by_order[0] > 0 && is.steps_by_order[1] > 0);
}

/* ---- a semi-explicit index-1 DAE through its completion ---------------
 * z' = -z + w, 0 = w - 2 z: z = e^t, w = 2 e^t; a root at z = 2 halves z */
typedef struct sdae { int events; double tev; } sdae;

static int sd_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t, (void)ud;
  r[0] = yp[0] + y[0] - y[1];
  r[1] = y[1] - 2.0 * y[0];
  return 0;
}
static int sd_jac(double t, double cj, const double *y, const double *yp, double *J, void *ud) {
  (void)t, (void)y, (void)yp, (void)ud;
  J[0] = 1.0 + cj, J[1] = -2.0, J[2] = -1.0, J[3] = 1.0; /* column-major */
  return 0;
}
static int sd_complete(double t, double *y, double *yp, void *ud) {
  (void)t, (void)ud;
  y[1] = 2.0 * y[0];
  yp[0] = -y[0] + y[1];
  yp[1] = 0.0;
  return 0;
}
static int sd_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp, (void)ud;
  g[0] = y[0] - 2.0;
  return 0;
}
static int sd_event(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                    void *ud) {
  sdae *s = ud;
  if (dirs[0] != 1) return MBDAE_EVENT_NOCHANGE;
  if (s->events++ == 0) s->tev = t;
  y[0] *= 0.5;
  sd_complete(t, y, yp, ud);
  info->label = "halve";
  return MBDAE_EVENT_CONTINUE;
}

static void test_dae_completion(void) {
  static const mbdae_index cp[] = {0, 2, 4}, ri[] = {0, 1, 0, 1};
  for (int klu = 0; klu < 2; ++klu) {
    sdae sd = {0, 0};
    mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_DAE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    mbdae_problem_set_user_data(p, &sd);
    mbdae_problem_set_residual(p, sd_res);
    const double id[2] = {1.0, 0.0}, bad_id[2] = {0.0, 1.0};
    mbdae_problem_set_id(p, bad_id);
    CU_ASSERT_EQUAL(mbdae_problem_set_completion(p, 1, sd_complete), MBDAE_ERR_ARGUMENT);
    mbdae_problem_set_id(p, id);
    CU_ASSERT_EQUAL(mbdae_problem_set_completion(p, 3, sd_complete), MBDAE_ERR_ARGUMENT);
    CU_ASSERT_EQUAL(mbdae_problem_completion_size(p), 0);
    /* a restart completion: a DAE form and a function only */
    CU_ASSERT_EQUAL(mbdae_problem_set_restart_state(p, NULL), MBDAE_ERR_ARGUMENT);
    CU_ASSERT_EQUAL(mbdae_problem_set_restart_state(NULL, sd_complete), MBDAE_ERR_ARGUMENT);
    mbdae_problem *ode = mbdae_problem_create(2, MBDAE_FORM_ODE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ode);
    CU_ASSERT_EQUAL(mbdae_problem_set_restart_state(ode, sd_complete), MBDAE_ERR_ARGUMENT);
    mbdae_problem_free(&ode);
    mbdae_problem_set_jacobian_dense(p, sd_jac);
    mbdae_problem_set_jacobian_sparse(p, 4, cp, ri, sd_jac);
    mbdae_problem_set_roots(p, 1, sd_root);
    mbdae_problem_set_event_handler(p, sd_event);
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = MBDAE_METHOD_ARKODE;
    o.linsol = klu ? MBDAE_LINSOL_KLU : MBDAE_LINSOL_DENSE;
    o.t_end = 2.0;
    o.dt_out = 0.1;
    o.rtol = 1e-10;
    o.atol = 1e-12;
    double y[2] = {1.0, 2.0}, yp[2] = {1.0, 0.0};
    char msg[512];
    /* without a completion: refused, naming what it needs */
    CU_ASSERT_EQUAL(mbdae_run(p, &o, y, yp, NULL, msg, sizeof msg), MBDAE_ERR_UNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "index 1"));
    CU_ASSERT_EQUAL(mbdae_problem_set_completion(p, 1, sd_complete), MBDAE_OK);
    CU_ASSERT_EQUAL(mbdae_problem_completion_size(p), 1);
    mbdae_stats st;
    int rc = mbdae_run(p, &o, y, yp, &st, msg, sizeof msg);
    if (rc) printf("\n  %s\n", msg);
    CU_ASSERT_EQUAL(rc, MBDAE_OK);
    /* z doubles to 2 at ln 2 and is halved: z = e^(t - k ln 2); the root is
     * located on the cubic interpolant of a long step (doc/arkode.md) */
    MBDAE_ASSERT_REL(sd.tev, log(2.0), 2e-8);
    CU_ASSERT_EQUAL(sd.events, 2);
    MBDAE_ASSERT_REL(y[0], exp(2.0 - 2.0 * log(2.0)), 5e-8);
    MBDAE_ASSERT_REL(y[1], 2.0 * y[0], 1e-14);
    MBDAE_ASSERT_REL(yp[0], y[0], 1e-14);
    CU_ASSERT(st.jac_evals > 0);
    CU_ASSERT_EQUAL(st.restarts, 2);
    mbdae_problem_free(&p);
  }
}

/* ---- CLI: a form the method cannot take, an unknown method ----------- */
static void test_cli_refusals(void) {
  const char *dir = mbdae_test_tmpdir("arkode_cli");
  char args[1024];
  snprintf(args, sizeof args, "run '%s' --set solver.method=arkode -o out",
           mbdae_test_source_path("scenarios/pendulum_ggl.yaml"));
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "solver.method"));
  char *nl = strchr(cli_err, '\n'); /* one line */
  CU_ASSERT(nl == NULL || nl[1] == '\0');
  CU_ASSERT_FALSE(path_exists(dir, "out"));
  snprintf(args, sizeof args, "run '%s' --set solver.method=radau -o out",
           mbdae_test_source_path("scenarios/ball.yaml"));
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "solver.method"));
  CU_ASSERT_FALSE(path_exists(dir, "out"));
  /* the Newton keys (doc/arkode.md "Newton"): out of range or mistyped */
  const char *bad[] = {"solver.arkode_newton_iters=-1", "solver.arkode_setup_every=-2",
                       "solver.arkode_jac_every=1.5", "solver.arkode_reduce=maybe",
                       "solver.arkode_newton=quasi",
                       /* the ball has an ODE form: no multipliers to solve in */
                       "solver.arkode_newton=multiplier"};
  for (int k = 0; k < 6; ++k) {
    snprintf(args, sizeof args, "run '%s' --set solver.method=arkode --set %s -o out",
             mbdae_test_source_path("scenarios/ball.yaml"), bad[k]);
    CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 2);
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)strcspn(bad[k], "="), bad[k]);
    CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, key));
    nl = strchr(cli_err, '\n');
    CU_ASSERT(nl == NULL || nl[1] == '\0');
    CU_ASSERT_FALSE(path_exists(dir, "out"));
  }
  /* and a run: the pace in summary.json */
  snprintf(args, sizeof args,
           "run '%s' --set solver.method=arkode --set solver.t_end=1 --quiet --no-plots -o ok",
           mbdae_test_source_path("scenarios/ball.yaml"));
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 0);
  char *js = slurp(dir, "ok/summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(js);
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"arkode_table\": \"esdirk43i6\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"steps_by_order\": [0, 0, 0, "));
  CU_ASSERT_EQUAL(json_number_of(js, "mean_order"), 4.0); /* esdirk43i6: order 4 */
  CU_ASSERT_EQUAL(json_number_of(js, "ramp_steps"), 0.0); /* it keeps its pace */
  CU_ASSERT(json_number_of(js, "restarts") >= 1.0);
  free(js);
  char *csv = slurp(dir, "ok/series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT(csv_check(csv, csv_header_columns(csv)) > 10);
  free(csv);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"stiff Prothero-Robinson: L-stable steps, dense = KLU", test_stiff_linear},
    {"every ESDIRK table at its order", test_tables},
    {"pace statistics and restart policies", test_pace_and_restarts},
    {"a semi-explicit index-1 DAE through its completion, dense and KLU", test_dae_completion},
    {"CLI: forms and methods refused naming solver.method", test_cli_refusals},
    {NULL, NULL}};
  return mbdae_test_main("arkode", tests);
}
