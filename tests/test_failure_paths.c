/* test_failure_paths.c - runs that cannot finish end with a clear error and
 * valid partial output, never a crash or a hang (issue 10):
 *  - an impossible tolerance (the real CLI, MBDAE_BINARY);
 *  - a Newton failure in mid-run: a test-only DAE whose algebraic equation
 *    y1^2 = 1 - t has no real solution after t = 1 (driver API);
 *  - a NaN from a user force callback of a string net (sn_force_fn), with
 *    IDA, CVODE and RK4: the error names the callback and the time;
 *  - too many events in a short time (the engine's Zeno guard);
 *  - a singular constraint Jacobian: two net points at the same place, both
 *    joined by taut strings to the same two points (refused when the model
 *    is built); a capture net launched from the body's centre of mass
 *    (refused at load).
 * For each: exit/status code, summary.json "failed" with the reason,
 * series.csv and events.csv made of whole lines of the full column count. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "file_util.h"
#include "json_check.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "strings/string_net_model.h"
#include "testutil.h"

static char err_text[1 << 16];

/* `mbdae ARGS` in dir; stderr captured; the exit code (-1: not run). */
static int mbdae(const char *dir, const char *args) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    return -1;
  }
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s > /dev/null 2> stderr.txt < /dev/null", dir, bin,
           args);
  int st = system(cmd);
  char *e = slurp(dir, "stderr.txt");
  snprintf(err_text, sizeof err_text, "%s", e ? e : "");
  free(e);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int header_columns(const char *csv) {
  int n = 1;
  for (const char *p = csv; *p && *p != '\n'; ++p) n += *p == ',';
  return n;
}

/* The output directory of a failed run: summary.json parses, says "failed"
 * with status_code and a message containing want; series.csv (and
 * events.csv when present) are whole lines of the header's column count.
 * Returns the number of series rows (-1 if malformed). */
static long check_failed_output(const char *out, const char *status_code, const char *want) {
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"status\": \"failed\""));
  char code[128];
  snprintf(code, sizeof code, "\"status_code\": \"%s\"", status_code);
  if (!strstr(sum, code) || !strstr(sum, want))
    printf("\n  %s: want %s and '%s' in:\n%s\n", out, status_code, want, sum);
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, code));
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, want));
  free(sum);
  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  long rows = csv_check(series, header_columns(series));
  CU_ASSERT(rows >= 1); /* at least the t0 row, every line complete */
  free(series);
  char *events = slurp(out, "events.csv");
  if (events) {
    CU_ASSERT(csv_check(events, header_columns(events)) >= 0);
    free(events);
  }
  return rows;
}

/* The last series row's time (first column). */
static double last_time(const char *out) {
  char *s = slurp(out, "series.csv");
  if (!s) return NAN;
  size_t n = strlen(s);
  while (n > 0 && s[n - 1] == '\n') s[--n] = '\0';
  char *last = strrchr(s, '\n');
  double t = last ? strtod(last + 1, NULL) : NAN;
  free(s);
  return t;
}

/* ---- an impossible tolerance -------------------------------------------- */

static void test_impossible_tolerance(void) {
  const char *dir = mbdae_test_tmpdir("fail-tol");
  char args[8192], out[4200];
  snprintf(args, sizeof args,
           "run '%s' --out res --no-plots --quiet --set solver.rtol=1e-20 --set solver.atol=1e-20",
           mbdae_test_source_path("scenarios/pendulum_ggl.yaml"));
  CU_ASSERT_EQUAL(mbdae(dir, args), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "run failed (MBDAE_ERR_SOLVER)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "too much accuracy requested"));
  snprintf(out, sizeof out, "%s/res", dir);
  check_failed_output(out, "MBDAE_ERR_SOLVER", "IDA_TOO_MUCH_ACC");
}

/* ---- a Newton failure in mid-run: the "fold" kind ------------------------
 * DAE y0' = 1, 0 = y1^2 - 1 while y0 < 0.5 and 0 = y1^2 + 1 after: no real
 * solution once y0 = t passes 0.5, so every corrector iteration beyond it
 * fails. */

typedef struct fold_params {
  double y1;
} fold_params;

static const mbdae_param_spec fold_specs[] = {
  {"y1", MBDAE_PARAM_DOUBLE, offsetof(fold_params, y1), 0, 1.0, 0.0, 10.0, 0, NULL, 0, "",
   "initial algebraic value"}};

typedef struct fold_model {
  mbdae_problem *p;
  double y1;
} fold_model;

static int fold_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t;
  (void)ud;
  r[0] = yp[0] - 1.0;
  r[1] = y[0] < 0.5 ? y[1] * y[1] - 1.0 : y[1] * y[1] + 1.0;
  return 0;
}

static int fold_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  (void)err;
  (void)o;
  fold_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->y1 = ((const fold_params *)params)->y1;
  static const double id[2] = {1.0, 0.0};
  m->p = mbdae_problem_create(2, MBDAE_FORM_DAE);
  if (!m->p || mbdae_problem_set_user_data(m->p, m) || mbdae_problem_set_residual(m->p, fold_res) ||
      mbdae_problem_set_id(m->p, id)) {
    mbdae_problem_free(&m->p);
    free(m);
    return MBDAE_ERR_MEMORY;
  }
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void fold_destroy(mbdae_model **model) {
  if (!model || !*model) return;
  fold_model *m = (fold_model *)*model;
  mbdae_problem_free(&m->p);
  free(m);
  *model = NULL;
}

static mbdae_problem *fold_problem(mbdae_model *model) { return ((fold_model *)model)->p; }

static int fold_initial(mbdae_model *model, double t0, double *y, double *yp) {
  y[0] = t0;
  y[1] = ((fold_model *)model)->y1;
  yp[0] = 1.0;
  yp[1] = 0.0;
  return 0;
}

static const mbdae_column fold_cols[] = {{"t", "s"}, {"x", "-"}, {"y", "-"}};

static int fold_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(fold_cols, 3, cols, max);
}

static int fold_row(mbdae_model *model, double t, const double *y, const double *yp, double *row) {
  (void)model;
  (void)yp;
  row[0] = t;
  row[1] = y[0];
  row[2] = y[1];
  return 0;
}

static const mbdae_model_kind fold_kind = {
  .name = "fold", .summary = "y1^2 = 1 - t: no solution after t = 1 (test-only)",
  .params_size = sizeof(fold_params), .params = fold_specs, .nparams = 1,
  .create = fold_create, .destroy = fold_destroy, .problem = fold_problem,
  .initial_state = fold_initial, .columns = fold_columns, .output_row = fold_row};

static void test_newton_failure_midrun(void) {
  const mbdae_model_kind *reg[] = {&fold_kind, NULL};
  mbdae_scenario s;
  char err[1024];
  int rc = mbdae_scenario_load_string(reg, "fold.yaml",
                                      "model: fold\n"
                                      "solver: {method: ida, linear_solver: dense, t_end: 2.0,\n"
                                      "         dt_out: 0.01, rtol: 1.0e-8, atol: 1.0e-10}\n",
                                      NULL, 0, &s, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  char out[4200];
  snprintf(out, sizeof out, "%s/res", mbdae_test_tmpdir("fail-newton"));
  cfg.out_dir = out;
  cfg.plots = 0;
  mbdae_run_result *res = calloc(1, sizeof *res);
  CU_ASSERT_PTR_NOT_NULL_FATAL(res);
  rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
  /* IDA cuts the step at every failed corrector until it runs out of steps
   * just before t = 0.5: the message says so */
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_TOO_MUCH_WORK);
  CU_ASSERT_EQUAL(res->status, MBDAE_ERR_TOO_MUCH_WORK);
  CU_ASSERT_PTR_NOT_NULL(strstr(res->message, "IDA failed at t=0.5"));
  const char *nf = strstr(res->message, " Newton convergence failures");
  CU_ASSERT_PTR_NOT_NULL_FATAL(nf);
  while (nf > res->message && nf[-1] >= '0' && nf[-1] <= '9') --nf;
  CU_ASSERT(atol(nf) > 10);
  CU_ASSERT(res->stats.newton_fails > 10);
  double tf = res->stats.t_reached;
  if (!(tf > 0.49 && tf <= 0.5)) printf("\n  failed at t = %.10g: %s\n", tf, res->message);
  CU_ASSERT(tf > 0.49 && tf <= 0.5);
  long rows = check_failed_output(out, "MBDAE_ERR_TOO_MUCH_WORK", "Newton convergence failures");
  CU_ASSERT(rows >= 50); /* every dt_out sample up to the jump */
  CU_ASSERT(last_time(out) <= tf + 1e-12);
  free(res);
  mbdae_scenario_free(&s);
}

/* ---- a NaN from a user force callback ------------------------------------ */

#define NAN_AFTER 0.3

static int nan_force(int k, double t, const double r[3], const double v[3], double f[3],
                     double dfdr[9], double dfdv[9], void *user) {
  int rc = sn_force_gravity_drag(k, t, r, v, f, dfdr, dfdv, user);
  if (t >= NAN_AFTER && k == 1) f[2] = NAN;
  return rc;
}

extern const mbdae_model_kind mbdae_model_string_net;
static mbdae_model_kind nan_kind; /* string_net with nan_force as its force */

static int nan_create(const void *params, mbdae_options *o, mbdae_model **model,
                      mbdae_param_error *err) {
  int rc = mbdae_model_string_net.create(params, o, model, err);
  if (rc == MBDAE_OK) ((snm_model *)*model)->net->force.fn = nan_force;
  return rc;
}

static void test_nan_force_callback(void) {
  nan_kind = mbdae_model_string_net;
  nan_kind.create = nan_create;
  const mbdae_model_kind *reg[] = {&nan_kind, NULL};
  static const char *const methods[] = {"ida", "cvode-bdf", "rk4"};
  static const char *const callbacks[] = {"residual", "rhs", "rhs"};
  for (int i = 0; i < 3; ++i) {
    char set_method[64];
    snprintf(set_method, sizeof set_method, "solver.method=%s", methods[i]);
    const char *sets[] = {set_method, "solver.t_end=1.0", "solver.dt_out=0.01",
                          "solver.linear_solver=dense"};
    mbdae_scenario s;
    char err[1024];
    char *path = malloc(4096);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    snprintf(path, 4096, "%s", mbdae_test_source_path("scenarios/bola_event.yaml"));
    int rc = mbdae_scenario_load_registry(reg, path, sets, i == 2 ? 3 : 4, &s, err, sizeof err);
    free(path);
    if (rc) printf("\n  %s\n", err);
    CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
    mbdae_run_config cfg;
    mbdae_run_config_default(&cfg, &s);
    char out[4200];
    snprintf(out, sizeof out, "%s/res", mbdae_test_tmpdir("fail-nan"));
    cfg.out_dir = out;
    cfg.plots = 0;
    mbdae_run_result *res = calloc(1, sizeof *res);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res);
    rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
    CU_ASSERT(rc < 0);
    CU_ASSERT_EQUAL(res->status, MBDAE_ERR_CALLBACK);
    /* "the model's rhs returned NaN in component 5 at t=0.3" */
    char want[96];
    snprintf(want, sizeof want, "the model's %s returned NaN", callbacks[i]);
    if (!strstr(res->message, want)) printf("\n  %s: %s\n", methods[i], res->message);
    CU_ASSERT_PTR_NOT_NULL(strstr(res->message, want));
    const char *at = strstr(res->message, " at t=");
    CU_ASSERT_PTR_NOT_NULL(at);
    if (at) {
      double t = strtod(at + 6, NULL);
      /* the time of the evaluation: a trial point within a step after NAN_AFTER */
      if (!(t >= NAN_AFTER && t < NAN_AFTER + 0.1))
        printf("\n  %s: NaN reported at t = %.10g\n", methods[i], t);
      CU_ASSERT(t >= NAN_AFTER && t < NAN_AFTER + 0.1);
    }
    check_failed_output(out, "MBDAE_ERR_CALLBACK", want);
    double tl = last_time(out);
    CU_ASSERT(tl >= NAN_AFTER - 0.011 && tl < NAN_AFTER + 0.1);
    free(res);
    mbdae_scenario_free(&s);
  }
}

/* ---- too many events ---------------------------------------------------- */

static void test_event_limit(void) {
  /* without its Zeno rule the ball's impacts accumulate at t = 2.559 s */
  const char *dir = mbdae_test_tmpdir("fail-zeno");
  char args[8192], out[4200];
  snprintf(args, sizeof args,
           "run '%s' --out res --no-plots --quiet --set parameters.zeno_velocity=0 "
           "--set solver.window_events=20 --set solver.window_length=0.5",
           mbdae_test_source_path("scenarios/ball.yaml"));
  CU_ASSERT_EQUAL(mbdae(dir, args), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "MBDAE_ERR_EVENT_LIMIT"));
  snprintf(out, sizeof out, "%s/res", dir);
  check_failed_output(out, "MBDAE_ERR_EVENT_LIMIT", "too many events");
  char *ev = slurp(out, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  CU_ASSERT(csv_check(ev, header_columns(ev)) >= 20);
  free(ev);
  double t = last_time(out);
  CU_ASSERT(t > 2.4 && t < 2.56);
}

/* ---- a singular constraint Jacobian ------------------------------------- */

/* Points 0 and 2 at the same place, each joined to 1 and 3 (on either side,
 * spinning about them) by taut strings: the four constraint gradients are
 * dependent (row 0-1 minus 2-1 equals row 2-3 minus 0-3), so the string
 * forces are not determined. */
static const char diamond[] =
  "model: string_net\n"
  "solver: {method: %s, t_end: 1.0, dt_out: 0.01}\n"
  "parameters:\n"
  "  topology: table\n"
  "  mode: %s\n"
  "  gravity: [0.0, 0.0, 0.0]\n"
  "  points:\n"
  "    - [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]\n"
  "    - [1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]\n"
  "    - [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]\n"
  "    - [1.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0]\n"
  "  strings:\n"
  "    - [0, 1, 1.0]\n"
  "    - [2, 1, 1.0]\n"
  "    - [0, 3, 1.0]\n"
  "    - [2, 3, 1.0]\n";

static void test_singular_constraints(void) {
  static const char *const methods[] = {"ida", "cvode-bdf", "rk4"};
  static const char *const modes[] = {"event", "baumgarte"};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) {
      const char *dir = mbdae_test_tmpdir("fail-singular");
      char path[4200], args[8192];
      snprintf(path, sizeof path, "%s/diamond.yaml", dir);
      FILE *f = fopen(path, "w");
      CU_ASSERT_PTR_NOT_NULL_FATAL(f);
      fprintf(f, diamond, methods[i], modes[j]);
      fclose(f);
      snprintf(args, sizeof args, "run diamond.yaml --out res --no-plots --quiet");
      int code = mbdae(dir, args);
      if (!strstr(err_text, "singular"))
        printf("\n  %s/%s: exit %d: %s\n", methods[i], modes[j], code, err_text);
      CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "singular"));
      /* rejected up front (exit 2, nothing written) or failed (exit 1) */
      CU_ASSERT(code == 1 || code == 2);
      if (code == 1) {
        char out[4300];
        snprintf(out, sizeof out, "%s/res", dir);
        check_failed_output(out, "MBDAE_ERR", "singular");
      } else {
        CU_ASSERT(!path_exists(dir, "res"));
      }
    }
  /* net capture: the net launched from the body's centre of mass is refused
   * at load (a point inside the body has no contact geometry) */
  const char *dir = mbdae_test_tmpdir("fail-com");
  char args[8192];
  snprintf(args, sizeof args,
           "run '%s' --out res --no-plots --quiet --set 'parameters.launch_point=[0, 0, 0]' "
           "--set 'parameters.body_position=[0, 0, 0]'",
           mbdae_test_source_path("scenarios/capture_demo.yaml"));
  CU_ASSERT_EQUAL(mbdae(dir, args), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "key 'parameters.launch_point': the net starts inside"));
  CU_ASSERT(!path_exists(dir, "res"));
}

int main(void) {
  static const mbdae_test tests[] = {
    {"impossible tolerance: clear error, t0 row", test_impossible_tolerance},
    {"Newton failures in mid-run: rows up to t = 0.5", test_newton_failure_midrun},
    {"NaN from a force callback: names the callback and t", test_nan_force_callback},
    {"too many events: Zeno guard, whole files", test_event_limit},
    {"singular constraint Jacobian: clear error", test_singular_constraints},
    {NULL, NULL}};
  return mbdae_test_main("failure_paths", tests);
}
