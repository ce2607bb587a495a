/* test_moreau.c - the mechanical form (mbdae/mechanics.h) and the Moreau-Jean
 * backend on the bouncing ball: validation of the interface, exact free
 * fall, the Zeno accumulation time reached within O(h) with no Zeno guard,
 * the release under a growing lift, the energy ledger and "energy never
 * rises" asserted at every step, option checks. Closed forms: doc/moreau.md
 * and doc/acceptance-models.md (bouncing ball). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <sys/wait.h>

#include "ball/ball.h"
#include "file_util.h"
#include "mbdae/mbdae.h"
#include "testutil.h"

static int dummy_mass(double t, const double *q, double *values, void *ud) {
  (void)t; (void)q; (void)ud;
  values[0] = 1.0;
  return 0;
}
static int dummy_forces(double t, const double *q, const double *v, double *f, void *ud) {
  (void)t; (void)q; (void)v; (void)ud;
  f[0] = 0.0;
  return 0;
}
static int dummy_gap(double t, const double *q, double *g, void *ud) {
  (void)t; (void)ud;
  g[0] = q[0];
  return 0;
}
static int dummy_gap_jac(double t, const double *q, double *values, void *ud) {
  (void)t; (void)q; (void)ud;
  values[0] = 1.0;
  return 0;
}
static int dummy_rhs(double t, const double *y, double *out, void *ud) {
  (void)t; (void)ud;
  out[0] = y[1];
  out[1] = 0.0;
  return 0;
}

static void test_interface_validation(void) {
  const int q[1] = {0}, v[1] = {1}, dup[1] = {0}, out[1] = {2};
  mbdae_problem *dae = mbdae_problem_create(2, MBDAE_FORM_DAE);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(dae, 1, 1, q, v), MBDAE_ERR_ARGUMENT);
  mbdae_problem_free(&dae);
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  CU_ASSERT_FALSE(mbdae_problem_has_mechanics(p));
  CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 1, (mbdae_index[]){0, 1}, (mbdae_index[]){0}, 1,
                                         dummy_mass), MBDAE_ERR_ARGUMENT); /* no layout yet */
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 1, 1, q, dup), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 1, 1, q, out), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 2, 1, (int[]){0, 1}, v), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 1, 1, q, v), MBDAE_OK);
  /* mass: the diagonal must be in the pattern */
  const mbdae_index cp[2] = {0, 1}, ri[1] = {0}, ri_bad[1] = {1};
  CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 1, cp, ri_bad, 1, dummy_mass), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 1, cp, ri, 1, dummy_mass), MBDAE_OK);
  CU_ASSERT_FALSE(mbdae_problem_has_mechanics(p)); /* no forces yet */
  CU_ASSERT_EQUAL(mbdae_problem_set_forces(p, dummy_forces), MBDAE_OK);
  CU_ASSERT_TRUE(mbdae_problem_has_mechanics(p));
  /* constraints: restitution in [0, 1], column in range */
  const double e_bad = 1.5, e_ok = 0.3;
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 1, 0, 1, cp, ri, dummy_gap, dummy_gap_jac,
                                                &e_bad), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 1, 0, 1, cp, ri_bad, dummy_gap,
                                                dummy_gap_jac, &e_ok), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 0, 0, 1, cp, ri, dummy_gap, dummy_gap_jac,
                                                NULL), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_constraints(p, 1, 0, 1, cp, ri, dummy_gap, dummy_gap_jac,
                                                &e_ok), MBDAE_OK);
  int nq, nv, nu, nb;
  CU_ASSERT_EQUAL(mbdae_problem_mechanics_sizes(p, &nq, &nv, &nu, &nb), MBDAE_OK);
  CU_ASSERT(nq == 1 && nv == 1 && nu == 1 && nb == 0);
  mbdae_problem_free(&p);

  /* a 2 x 2 mass with an asymmetric pattern is refused */
  p = mbdae_problem_create(4, MBDAE_FORM_ODE);
  CU_ASSERT_EQUAL(mbdae_problem_set_mechanics(p, 2, 2, (int[]){0, 1}, (int[]){2, 3}), MBDAE_OK);
  const mbdae_index cp2[3] = {0, 2, 3}, ri2[3] = {0, 1, 1};
  CU_ASSERT_EQUAL(mbdae_problem_set_mass(p, 3, cp2, ri2, 1, dummy_mass), MBDAE_ERR_ARGUMENT);
  mbdae_problem_free(&p);
}

/* The engine refuses bad moreau options and a problem without the form. */
static void test_engine_checks(void) {
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  mbdae_problem_set_rhs(p, dummy_rhs);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  double y[2] = {1.0, 0.0};
  char msg[512];
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_ERR_UNSUPPORTED);
  CU_ASSERT(strstr(msg, "mechanical form") != NULL);
  mbdae_problem_set_mechanics(p, 1, 1, (int[]){0}, (int[]){1});
  mbdae_problem_set_mass(p, 1, (mbdae_index[]){0, 1}, (mbdae_index[]){0}, 1, dummy_mass);
  mbdae_problem_set_forces(p, dummy_forces);
  o.theta = 0.4;
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
  CU_ASSERT(strstr(msg, "theta") != NULL);
  o.theta = 0.5;
  o.moreau_step = 0.0;
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
  o.moreau_step = 1e-3;
  /* no constraints: free flight at constant velocity */
  y[1] = 2.0;
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_OK);
  MBDAE_ASSERT_ABS(y[0], 3.0, 1e-12);
  CU_ASSERT_STRING_EQUAL(mbdae_method_name(MBDAE_METHOD_MOREAU), "moreau");
  mbdae_method m;
  CU_ASSERT_EQUAL(mbdae_method_parse("moreau", &m), MBDAE_OK);
  CU_ASSERT_EQUAL(m, MBDAE_METHOD_MOREAU);
  mbdae_problem_free(&p);
}

/* A ball model run by moreau. */
static ball_model *moreau_ball(const ball_params *p) {
  ball_model *m = NULL;
  if (ball_create(p, MBDAE_FORM_ODE, &m) != MBDAE_OK) return NULL;
  m->event_capturing = 1;
  return m;
}

static ball_params params(double e) {
  ball_params p;
  ball_params_default(&p);
  p.e = e;
  p.h0 = 1.0;
  p.v0 = 0.0;
  p.mass = 2.0;
  return p;
}

static void test_mechanics_check(void) {
  ball_params p = params(0.5);
  ball_model *m = moreau_ball(&p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  double y[2] = {0.3, -1.0};
  mbdae_mechanics_check_result r;
  CU_ASSERT_EQUAL(mbdae_mechanics_check(m->problem, 0.0, y, 0.0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT(r.g_max_rel_err < 1e-9);
  CU_ASSERT_EQUAL(r.g_pattern_misses, 0);
  CU_ASSERT_EQUAL(r.mass_asymmetry, 0.0);
  MBDAE_ASSERT_ABS(r.mass_min_diag, 2.0, 0.0);
  ball_free(&m);
}

/* theta = 1/2 integrates a constant force exactly: free fall to round-off
 * until the first activation. */
static void test_free_fall_exact(void) {
  ball_params p = params(0.5);
  ball_model *m = moreau_ball(&p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  o.moreau_step = 1e-3;
  o.t_end = 0.4; /* first impact at sqrt(2/g) = 0.4515 s */
  o.dt_out = 0.1;
  double y[2];
  ball_initial_state(m, 0.0, y, NULL);
  mbdae_stats st;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(mbdae_run(m->problem, &o, y, NULL, &st, msg, sizeof msg), MBDAE_OK);
  MBDAE_ASSERT_ABS(y[BALL_Q], 1.0 - 0.5 * 9.81 * 0.16, 1e-12);
  MBDAE_ASSERT_ABS(y[BALL_V], -9.81 * 0.4, 1e-12);
  CU_ASSERT_EQUAL(st.steps, 400);
  CU_ASSERT_EQUAL(st.index_set_max, 0);
  ball_free(&m);
}

typedef struct ledger {
  double mass, g, e, theta; /* for the derived bound */
  double max_rise, bound;  /* largest rise, the bound at that step */
  double max_identity;     /* largest |dK - (W_a + W_P - D_s)| */
  double last_kinetic;
  int first, violations;
} ledger;

/* Every step: the ledger identity, and the rise of K + V against the bound
 * of doc/moreau.md for one contact under gravity: m (g h)^2 (1 - e) / (8 (1 + e))
 * at theta = 1/2, m (g h)^2 e^2 / (2 (1 - e^2)) at theta = 1. */
static int ledger_step(const mbdae_step_record *r, void *ud) {
  ledger *l = ud;
  if (!l->first) {
    double dk = r->kinetic - l->last_kinetic;
    double id = fabs(dk - (r->work_applied + r->work_impulses - r->dissipated_scheme));
    if (id > l->max_identity) l->max_identity = id;
  }
  l->first = 0;
  l->last_kinetic = r->kinetic;
  const double e = l->e, c = l->theta == 0.5 ? (1.0 - e) / (8.0 * (1.0 + e))
                                              : e * e / (2.0 * (1.0 - e * e));
  const double bound = l->mass * (l->g * r->h) * (l->g * r->h) * c * (1.0 + 1e-9) + 1e-15;
  if (r->energy_rise > l->max_rise) l->max_rise = r->energy_rise;
  if (r->energy_rise > bound) l->violations++;
  return 0;
}

/* Zeno: the impacts accumulate at t1 + 2 e v1 / (g (1 - e)), t1 = sqrt(2 h0 / g),
 * v1 = g t1; the scheme reaches rest there within O(h) with no Zeno rule. */
static double rest_time_error(double e, double h, double theta, ledger *l) {
  ball_params p = params(e);
  p.zeno_velocity = 0.0;
  ball_model *m = moreau_ball(&p);
  if (!m) return INFINITY;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  o.moreau_step = h;
  o.theta = theta;
  o.t_end = 2.0;
  o.dt_out = 0.05;
  memset(l, 0, sizeof *l);
  l->mass = p.mass;
  l->g = p.g;
  l->e = e;
  l->theta = theta;
  l->first = 1;
  o.step_observer = ledger_step;
  o.step_data = l;
  double y[2];
  ball_initial_state(m, 0.0, y, NULL);
  mbdae_stats st;
  char msg[512];
  int rc = mbdae_run(m->problem, &o, y, NULL, &st, msg, sizeof msg);
  const double t1 = sqrt(2.0 / p.g), v1 = p.g * t1;
  const double tz = t1 + 2.0 * e * v1 / (p.g * (1.0 - e));
  double err = (rc == MBDAE_OK && m->step_contact) ? fabs(m->rest_time - tz) : INFINITY;
  /* at rest: on the plane (within the violation), energy gone */
  if (fabs(ball_energy(&p, y)) > p.mass * p.g * st.max_violation + 1e-12) err = INFINITY;
  ball_free(&m);
  return err;
}

static void test_zeno_rest_and_energy(void) {
  ledger l3, l4;
  double e3 = rest_time_error(0.5, 1e-3, 0.5, &l3);
  double e4 = rest_time_error(0.5, 1e-4, 0.5, &l4);
  printf("\n  rest time error: %.3e (h = 1e-3), %.3e (h = 1e-4); max rise %.2e, %.2e J\n", e3,
         e4, l3.max_rise, l4.max_rise);
  CU_ASSERT(e3 <= 12e-3);
  CU_ASSERT(e4 <= 12e-4);
  CU_ASSERT(e3 / e4 > 5.0); /* first order */
  CU_ASSERT_EQUAL(l3.violations, 0);
  CU_ASSERT_EQUAL(l4.violations, 0);
  CU_ASSERT(l3.max_identity < 1e-12);
  CU_ASSERT(l4.max_identity < 1e-12);
  /* theta = 1 damps (D_s >= 0) and also reaches rest (its flights are
   * first order: 16 h late at h = 1e-4) */
  ledger l1;
  double e1 = rest_time_error(0.5, 1e-4, 1.0, &l1);
  CU_ASSERT(e1 <= 25e-4);
  CU_ASSERT_EQUAL(l1.violations, 0);
  CU_ASSERT(l1.max_identity < 1e-12);
}

/* Resting ball under a lift F = rate t: it leaves when F passes m g, at the
 * first step whose mean lift exceeds m g: within [T + h/2, T + 3h/2]. */
static void test_release_under_lift(void) {
  ball_params p = params(0.0);
  p.h0 = 0.0;
  p.lift_rate = 5.0;
  ball_model *m = moreau_ball(&p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  o.moreau_step = 1e-3;
  o.t_end = 5.0;
  o.dt_out = 0.1;
  double y[2];
  ball_initial_state(m, 0.0, y, NULL);
  m->mode = BALL_FLIGHT; /* moreau has no modes: the constraint decides */
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(mbdae_run(m->problem, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_OK);
  const double T = p.mass * p.g / p.lift_rate;
  CU_ASSERT(m->release_time >= T + 0.5e-3 - 1e-9 && m->release_time <= T + 1.5e-3 + 1e-9);
  CU_ASSERT(y[BALL_Q] > 0.0);
  ball_free(&m);
}

/* The command line: series.csv gains the energy ledger columns, and a run
 * cut into checkpointed segments writes the same files as one run. */
static int run_cli(const char *dir, const char *extra) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) return -1;
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run ball.yaml --out %s --quiet --no-plots %s",
           dir, bin, extra[0] ? "seg" : "one", extra);
  return system(cmd);
}

static void test_cli_ledger_and_segments(void) {
  const char *dir = mbdae_test_tmpdir("moreau-cli");
  char path[2048];
  snprintf(path, sizeof path, "%s/ball.yaml", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "model: bouncing_ball\nsolver:\n  method: moreau\n  moreau_step: 1.0e-3\n"
             "  t_end: 2.0\n  dt_out: 0.01\nparameters:\n  e: 0.5\n");
  fclose(f);
  CU_ASSERT_EQUAL_FATAL(run_cli(dir, ""), 0);
  CU_ASSERT_EQUAL_FATAL(run_cli(dir, "--checkpoint-every 0.25"), 0);
  char one[2100], seg[2100];
  snprintf(one, sizeof one, "%s/one", dir);
  snprintf(seg, sizeof seg, "%s/seg", dir);
  char *a = slurp(one, "series.csv"), *b = slurp(seg, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT(strstr(a, "energy_kinetic [J],energy_potential [J],work_applied [J],"
                      "work_impulses [J],dissipated_scheme [J]") != NULL);
  CU_ASSERT_STRING_EQUAL(a, b);
  CU_ASSERT(csv_check(a, 15) == 201); /* ..., row_kind */
  CU_ASSERT(path_exists(seg, "summary.json"));
  free(a);
  free(b);
  char *js = slurp(one, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(js);
  CU_ASSERT(strstr(js, "\"max_energy_rise\"") && strstr(js, "\"index_set_max\": 1"));
  free(js);
}

/* A one-step problem that cannot meet its tolerance (1e-17, below round-off
 * on a spinning net): the run fails with MBDAE_ERR_SOLVER naming t, the
 * iterations and the residual; exit 1; the files written so far are valid. */
static void test_cli_nonconvergence(void) {
  const char *dir = mbdae_test_tmpdir("moreau-fail");
  char path[2048];
  snprintf(path, sizeof path, "%s/ball.yaml", dir); /* the name run_cli runs */
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "model: string_net\nsolver:\n  method: moreau\n  moreau_step: 1.0e-3\n"
             "  t_end: 0.05\n  dt_out: 0.01\n  nonsmooth_tol: 1.0e-17\nparameters:\n"
             "  topology: spinning_grid\n  grid_n: 5\n  grid_m: 5\n  length: 0.1\n");
  fclose(f);
  int st = run_cli(dir, "2> stderr.txt"); /* output in seg/ */
  CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 1);
  char out[2100];
  snprintf(out, sizeof out, "%s/seg", dir);
  char *js = slurp(out, "summary.json"), *series = slurp(out, "series.csv");
  char *err = slurp(dir, "stderr.txt"), *events = slurp(out, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(js);
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  /* one line on stderr: the failure with t, iterations, residual, where the output is */
  CU_ASSERT(strchr(err, '\n') == err + strlen(err) - 1);
  CU_ASSERT(strstr(err, "MBDAE_ERR_SOLVER") && strstr(err, "at t=0.001") &&
            strstr(err, "iterations") && strstr(err, "residual") && strstr(err, "[output in seg]"));
  CU_ASSERT(strncmp(events, "index,t [s]", 11) == 0); /* the events file has its header */
  free(err);
  free(events);
  CU_ASSERT(strstr(js, "\"status\": \"failed\"") != NULL);
  CU_ASSERT(strstr(js, "MBDAE_ERR_SOLVER") != NULL);
  CU_ASSERT(strstr(js, "at t=0.001") && strstr(js, "iterations") && strstr(js, "residual"));
  CU_ASSERT(csv_check(series, 5 + 6 * 25 + 2 * 40 + 1 + 8 + 1) >= 1); /* the t0 row at least (+ row_kind) */
  free(js);
  free(series);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"interface validation", test_interface_validation},
    {"engine checks", test_engine_checks},
    {"ball G against finite differences", test_mechanics_check},
    {"free fall exact", test_free_fall_exact},
    {"Zeno rest time O(h), energy never rises", test_zeno_rest_and_energy},
    {"release under a lift", test_release_under_lift},
    {"command line: ledger columns, segments", test_cli_ledger_and_segments},
    {"command line: a nonsmooth solve that does not converge", test_cli_nonconvergence},
    {NULL, NULL}};
  return mbdae_test_main("moreau", tests);
}
