/* test_scenario_run.c - running a loaded scenario (driver/run.h) with the
 * test-only toy kind: event times against the closed form, complete CSV
 * lines with unit headers, a summary.json that parses, thinning with
 * output.every, the no-file mode of sweeps, a solver failure that leaves
 * valid files, an input rejected at model creation that writes nothing,
 * and plots without gnuplot. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "json_check.h"
#include "mbdae/status.h"
#include "progress.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"
#include "toy_kind.h"

/* toy: y' = -k y, refilled by 1 when y falls through e. With k = 1, y0 = 1,
 * e = 0.5: refills at ln 2, then every ln 3. */
static const char toy_text[] =
  "model: toy\n"
  "solver:\n"
  "  method: cvode-bdf\n"
  "  t_end: 3\n"
  "  dt_out: 0.1\n"
  "  rtol: 1e-10\n"
  "  atol: 1e-12\n"
  "parameters:\n"
  "  k: 1\n"
  "  e: 0.5\n"
  "  y0: 1\n";

static int load_toy(mbdae_scenario *s, const char *const *sets, int n) {
  char err[1024];
  int rc = mbdae_scenario_load_string(toy_registry, "toy.yaml", toy_text, sets, n, s, err,
                                      sizeof err);
  if (rc) printf("\n  %s\n", err);
  return rc;
}

static double refill_time(int i) { return log(2.0) + i * log(3.0); }

/* How many times needle occurs in text. */
static long count_of(const char *text, const char *needle) {
  long n = 0;
  for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle)) ++n;
  return n;
}

static void test_run_files(void) {
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, NULL, 0), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-files");
  char out[4096];
  snprintf(out, sizeof out, "%s/nested/out", dir); /* parents are created */
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  cfg.plots = 0;
  mbdae_run_result r;
  char err[1024];
  int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  CU_ASSERT_EQUAL(r.events, 3);
  CU_ASSERT_EQUAL(r.ninv, 1);
  CU_ASSERT_STRING_EQUAL(r.inv[0].name, "level");
  CU_ASSERT_EQUAL(r.inv[0].start, 1.0);
  MBDAE_ASSERT_REL(r.inv[0].end, 1.5 * exp(-(3.0 - refill_time(2))), 1e-7);
  CU_ASSERT_EQUAL_FATAL(r.noutcomes, 2);
  CU_ASSERT_STRING_EQUAL(r.outcomes[0].name, "refills");
  CU_ASSERT_EQUAL(r.outcomes[0].value, 3.0);
  CU_ASSERT_STRING_EQUAL(r.final_mode, "leaking");

  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT(strncmp(series, "t [s],y [m],ydot [m/s],row_kind\n", 32) == 0);
  long rows = csv_check(series, 4);
  CU_ASSERT_EQUAL(rows, r.rows);
  /* 31 grid samples, and each event adds its pre- and post-event rows */
  CU_ASSERT_EQUAL(rows, 31 + 2 * 3);
  CU_ASSERT_EQUAL(count_of(series, ",sample\n"), 31);
  CU_ASSERT_EQUAL(count_of(series, ",pre-event\n"), 3);
  CU_ASSERT_EQUAL(count_of(series, ",post-event\n"), 3);
  /* the first refill's pair: same t, y = e before and e + 1 after */
  const char *pre = strstr(series, ",pre-event\n");
  CU_ASSERT_PTR_NOT_NULL_FATAL(pre);
  while (pre > series && pre[-1] != '\n') --pre;
  double t1, y1, t2, y2;
  CU_ASSERT_EQUAL_FATAL(sscanf(pre, "%lf,%lf", &t1, &y1), 2);
  const char *post = strchr(pre, '\n') + 1;
  CU_ASSERT_EQUAL_FATAL(sscanf(post, "%lf,%lf", &t2, &y2), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(post, ",post-event\n") == strchr(post, '\n') - 11 ? post : NULL);
  MBDAE_ASSERT_REL(t1, refill_time(0), 1e-8);
  CU_ASSERT_EQUAL(t1, t2);
  MBDAE_ASSERT_REL(y1, 0.5, 1e-8);
  MBDAE_ASSERT_REL(y2, 1.5, 1e-8);
  free(series);

  char *events = slurp(out, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  const char *hdr = "index,t [s],label,mode_before,mode_after,roots,action,level_before,"
                    "level_after,y_before [m],y_after [m]\n";
  CU_ASSERT(strncmp(events, hdr, strlen(hdr)) == 0);
  CU_ASSERT_EQUAL(csv_check(events, 11), 3);
  const char *line = strchr(events, '\n') + 1;
  for (int i = 0; i < 3 && line; ++i) {
    long idx;
    double t, yb, ya, lb, la;
    char label[32], mb[32], ma[32], roots[32], action[32];
    int nf = sscanf(line, "%ld,%lf,%31[^,],%31[^,],%31[^,],%31[^,],%31[^,],%lf,%lf,%lf,%lf", &idx,
                    &t, label, mb, ma, roots, action, &lb, &la, &yb, &ya);
    CU_ASSERT_EQUAL(nf, 11);
    CU_ASSERT_EQUAL(idx, i);
    MBDAE_ASSERT_REL(t, refill_time(i), 1e-7);
    CU_ASSERT_STRING_EQUAL(label, "refill");
    CU_ASSERT_STRING_EQUAL(roots, "0-");
    CU_ASSERT_STRING_EQUAL(action, "continue");
    MBDAE_ASSERT_ABS(yb, 0.5, 1e-7);
    MBDAE_ASSERT_ABS(ya, 1.5, 1e-7);
    MBDAE_ASSERT_ABS(lb, 0.5, 1e-7);
    MBDAE_ASSERT_ABS(la, 1.5, 1e-7);
    line = strchr(line, '\n');
    if (line) ++line;
  }
  free(events);

  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "\"status\": \"ok\"") != NULL);
  CU_ASSERT(strstr(sum, "\"model\": \"toy\"") != NULL);
  CU_ASSERT(strstr(sum, "\"scenario\": \"toy.yaml\"") != NULL);
  CU_ASSERT(strstr(sum, "\"method\": \"cvode-bdf\"") != NULL);
  CU_ASSERT(strstr(sum, "\"events\": 3") != NULL);
  CU_ASSERT(strstr(sum, "\"refills\": {\"value\": 3,") != NULL);
  CU_ASSERT(strstr(sum, "\"level\": {\"start\": 1,") != NULL);
  CU_ASSERT(strstr(sum, "\"steps\": ") != NULL);
  free(sum);
  CU_ASSERT(!path_exists(out, "plots.gp")); /* plots off */
  mbdae_scenario_free(&s);
}

static void test_every_and_methods(void) {
  static const char *const methods[] = {"solver.method=ida", "solver.method=cvode-bdf",
                                        "solver.method=cvode-adams", "solver.method=rk4"};
  for (int m = 0; m < 4; ++m) {
    const char *sets[] = {methods[m], "output.every=4", "solver.rk4_step=1e-3"};
    mbdae_scenario s;
    CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 3), MBDAE_OK);
    const char *dir = mbdae_test_tmpdir("run-every");
    mbdae_run_config cfg;
    mbdae_run_config_default(&cfg, &s);
    CU_ASSERT_EQUAL(cfg.every, 4);
    cfg.out_dir = dir;
    cfg.plots = 0;
    mbdae_run_result r;
    char err[1024];
    int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
    if (rc) printf("\n  %s: %s\n", methods[m], err);
    CU_ASSERT_EQUAL(rc, MBDAE_OK);
    CU_ASSERT_EQUAL(r.events, 3);
    char *series = slurp(dir, "series.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(series);
    /* grid samples 0, 4, ..., 28 and the final one (30), plus the
     * pre- and post-event rows of the three events */
    CU_ASSERT_EQUAL(csv_check(series, 4), 8 + 1 + 2 * 3);
    /* the pre-event row of the first refill is there, at y = e */
    char want[64];
    snprintf(want, sizeof want, "\n%.6f", refill_time(0));
    double t = 0, y = 0;
    const char *p = strstr(series, "\n0.693");
    CU_ASSERT_PTR_NOT_NULL(p);
    if (p) {
      CU_ASSERT_EQUAL(sscanf(p + 1, "%lf,%lf", &t, &y), 2);
      MBDAE_ASSERT_REL(t, refill_time(0), m == 3 ? 1e-5 : 1e-6);
      MBDAE_ASSERT_ABS(y, 0.5, 1e-6);
    }
    free(series);
    mbdae_scenario_free(&s);
  }
}

/* output.event_rows = false: series.csv holds the output grid only (t = 0,
 * 0.1, ..., 3: 31 rows), events.csv still every event. */
static void test_no_event_rows(void) {
  const char *sets[] = {"output.event_rows=false"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 1), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-noevrows");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  CU_ASSERT_EQUAL(cfg.event_rows, 0);
  cfg.out_dir = dir;
  cfg.plots = 0;
  mbdae_run_result r;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL(r.events, 3);
  char *series = slurp(dir, "series.csv"), *events = slurp(dir, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  CU_ASSERT_EQUAL(csv_check(series, 4), 31);
  CU_ASSERT_EQUAL(count_of(series, ",sample\n"), 31); /* the grid only */
  CU_ASSERT_PTR_NULL(strstr(series, "\n0.693")); /* no pre-event row */
  CU_ASSERT_EQUAL(csv_check(events, 11), 3); /* every event */
  free(series);
  free(events);
  mbdae_scenario_free(&s);
}

static void test_no_files(void) {
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, NULL, 0), MBDAE_OK);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  CU_ASSERT_PTR_NULL(cfg.out_dir);
  mbdae_run_result r;
  char err[1024];
  /* a sweep reuses one loaded scenario: run it twice, same outcomes */
  for (int rep = 0; rep < 2; ++rep) {
    CU_ASSERT_EQUAL_FATAL(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err), MBDAE_OK);
    CU_ASSERT_EQUAL(r.outcomes[0].value, 3.0);
    CU_ASSERT_EQUAL(r.rows, 0);
    CU_ASSERT(r.samples >= 31);
  }
  const char *sets[] = {"parameters.k=2"};
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_override(&s, sets, 1, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err), MBDAE_OK);
  /* k = 2 halves every interval: refills at (ln 2 + i ln 3) / 2 <= 3, i.e. 5 */
  CU_ASSERT_EQUAL(r.outcomes[0].value, 5.0);
  mbdae_scenario_free(&s);
}

static void test_failure_keeps_valid_files(void) {
  const char *sets[] = {"parameters.fail_at=1.05"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 1), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-fail");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  cfg.plots = 0;
  mbdae_run_result r;
  char err[1024];
  int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  CU_ASSERT(rc < 0 && rc != MBDAE_ERR_SCENARIO && rc != MBDAE_ERR_IO);
  CU_ASSERT_EQUAL(rc, r.status);
  CU_ASSERT(r.message[0] != '\0');
  CU_ASSERT(strlen(err) > 0);
  char *series = slurp(dir, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  long rows = csv_check(series, 4);
  CU_ASSERT(rows >= 11); /* t = 0 ... 1.0 at least, every line complete */
  free(series);
  char *events = slurp(dir, "events.csv");
  CU_ASSERT_PTR_NOT_NULL(events);
  CU_ASSERT_EQUAL(csv_check(events, 11), 1); /* the refill at ln 2 */
  free(events);
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "\"status\": \"failed\"") != NULL);
  CU_ASSERT(strstr(sum, "\"message\": \"\"") == NULL);
  free(sum);
  mbdae_scenario_free(&s);
}

/* With output.every = 4 the last sample before the failure (t = 1.0, grid
 * index 10) is not on the thinned grid; it is still written at the end. */
static void test_failure_keeps_last_state(void) {
  const char *sets[] = {"parameters.fail_at=1.05", "output.every=4"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 2), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-fail-every");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  cfg.plots = 0;
  mbdae_run_result r;
  char err[1024];
  CU_ASSERT(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err) < 0);
  char *series = slurp(dir, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  /* t = 0, 0.4, 0.8, the refill's two rows, and the held t = 1.0 */
  CU_ASSERT_EQUAL(csv_check(series, 4), 6);
  size_t n = strlen(series);
  const char *last = series + n - 1;
  while (last > series && last[-1] != '\n') --last;
  double t = -1;
  CU_ASSERT_EQUAL(sscanf(last, "%lf,", &t), 1);
  MBDAE_ASSERT_ABS(t, 1.0, 1e-12);
  free(series);
  mbdae_scenario_free(&s);
}

static void test_rejected_at_create_writes_nothing(void) {
  const char *sets[] = {"solver.linear_solver=klu"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 1), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-reject");
  char out[4096];
  snprintf(out, sizeof out, "%s/never", dir);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  mbdae_run_result r;
  char err[1024];
  CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(strstr(err, "toy.yaml: --set solver.linear_solver=klu: key 'solver.linear_solver': the toy "
                        "has no sparse Jacobian") == err);
  CU_ASSERT(!path_exists(out, NULL));
  mbdae_scenario_free(&s);
}

/* The engine refuses KLU without a sparse pattern before the first sample:
 * an input error too, and still nothing written. */
static void test_rejected_by_engine_writes_nothing(void) {
  const char *sets[] = {"solver.linear_solver=klu", "parameters.mode=slow"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 2), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-reject-engine");
  char out[4096];
  snprintf(out, sizeof out, "%s/never", dir);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  mbdae_run_result r;
  char err[1024];
  int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  if (rc != MBDAE_ERR_SCENARIO) printf("\n  rc %d: %s\n", rc, err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
  if (!strstr(err, "key 'solver.linear_solver': linear_solver klu")) printf("\n  %s\n", err);
  CU_ASSERT(strstr(err, "key 'solver.linear_solver': linear_solver klu") != NULL);
  CU_ASSERT(r.status < 0);
  CU_ASSERT(!path_exists(out, NULL));
  mbdae_scenario_free(&s);
}

static void test_plots_without_gnuplot(void) {
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, NULL, 0), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-noplot");
  char dirc[4096];
  snprintf(dirc, sizeof dirc, "%s", dir);
  const char *old = getenv("PATH");
  char *saved = old ? strdup(old) : NULL;
  setenv("PATH", dirc, 1); /* an empty directory: no gnuplot */
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dirc;
  CU_ASSERT_EQUAL(cfg.plots, 1);
  mbdae_run_result r;
  char err[1024];
  int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  if (saved) setenv("PATH", saved, 1);
  else unsetenv("PATH");
  free(saved);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  CU_ASSERT_EQUAL(r.plots_written, 0);
  CU_ASSERT(strstr(r.plot_note, "gnuplot not found") != NULL);
  char *sum = slurp(dirc, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "gnuplot not found") != NULL);
  free(sum);
  mbdae_scenario_free(&s);
}

/* Text with quotes, backslashes, tabs and newlines still gives valid JSON. */
static void test_summary_escapes(void) {
  const char *sets[] = {"description=he said \"hi\"\tthen\\left\nand a control \x01 char"};
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(load_toy(&s, sets, 1), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("run-json");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  cfg.plots = 0;
  mbdae_run_result r;
  char err[1024];
  CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, &r, err, sizeof err), MBDAE_OK);
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "\"description\": \"he said \\\"hi\\\"\\tthen\\\\left\\nand a "
                        "control \\u0001 char\"") != NULL);
  free(sum);
  mbdae_scenario_free(&s);
}

static void test_progress_bar(void) {
  FILE *f = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  mbdae_progress_bar b;
  mbdae_progress_bar_init(&b, f);
  for (int i = 0; i <= 100000; ++i) mbdae_progress_bar_update(i * 1e-5, i * 1e-5, &b);
  mbdae_progress_bar_update(2.0, 2.0, &b);  /* clamped */
  mbdae_progress_bar_update(0.0, NAN, &b); /* NaN: drawn as 0 */
  mbdae_progress_bar_end(&b);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  size_t n = fread(text, 1, (size_t)size, f);
  text[n] = '\0';
  fclose(f);
  long draws = 0;
  for (size_t i = 0; i < n; ++i) draws += text[i] == '\r';
  /* one draw per 0.1 % (1001), the NaN one, and two for clearing the line */
  CU_ASSERT(draws <= 1001 + 1 + 2);
  CU_ASSERT(strstr(text, "[########################################] 100.0 %") != NULL);
  CU_ASSERT(strchr(text, '\n') == NULL); /* one terminal line, cleared at the end */
  free(text);
  /* never under CI */
  const char *ci = getenv("CI");
  char *saved = ci ? strdup(ci) : NULL;
  setenv("CI", "true", 1);
  CU_ASSERT_EQUAL(mbdae_progress_wanted(0), 0);
  if (saved) setenv("CI", saved, 1);
  else unsetenv("CI");
  free(saved);
  CU_ASSERT_EQUAL(mbdae_progress_wanted(1), 0); /* --quiet */
}

int main(void) {
  static const mbdae_test tests[] = {
    {"run writes series/events/summary", test_run_files},
    {"output.every and every method", test_every_and_methods},
    {"output.event_rows = false: grid rows only", test_no_event_rows},
    {"no files (sweep mode)", test_no_files},
    {"solver failure keeps valid files", test_failure_keeps_valid_files},
    {"failure keeps the last state with output.every", test_failure_keeps_last_state},
    {"rejected at model creation writes nothing", test_rejected_at_create_writes_nothing},
    {"rejected by the engine up front writes nothing", test_rejected_by_engine_writes_nothing},
    {"no gnuplot is a note", test_plots_without_gnuplot},
    {"summary.json escapes text", test_summary_escapes},
    {"progress bar", test_progress_bar},
    {NULL, NULL}};
  return mbdae_test_main("scenario_run", tests);
}
