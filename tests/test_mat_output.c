/* test_mat_output.c - results.mat (`mbdae run --format mat|both`, output.format):
 * read back with libmatio's reader (not the writer's code) and compared
 * value by value with series.csv / events.csv of the same run; parameters,
 * solver options and statistics against the loaded scenario and
 * summary.json; a failed run (toy kind) still leaves a complete file; odd
 * column names become unique valid MATLAB identifiers; a bad format value
 * is exit 2 with FILE:LINE / --set and key; a run with checkpoints killed
 * and resumed writes the results.mat of the uninterrupted run; when
 * octave-cli is installed it loads the file too. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <matio.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "file_util.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"
#include "toy_kind.h"

static char out_text[1 << 16], err_text[1 << 16];

/* Run a shell command line in cwd, capture stdout/stderr; the exit code. */
static int shell(const char *cwd, const char *cmdline) {
  static char logs[4096];
  if (!logs[0]) snprintf(logs, sizeof logs, "%s", mbdae_test_tmpdir("mat-logs"));
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s > '%s/out' 2> '%s/err' < /dev/null", cwd, cmdline,
           logs, logs);
  int st = system(cmd);
  char *o = slurp(logs, "out"), *e = slurp(logs, "err");
  snprintf(out_text, sizeof out_text, "%s", o ? o : "");
  snprintf(err_text, sizeof err_text, "%s", e ? e : "");
  free(o);
  free(e);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int mbdae(const char *cwd, const char *args) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    return -1;
  }
  char line[12288];
  snprintf(line, sizeof line, "'%s' %s", bin, args);
  return shell(cwd, line);
}

/* ---- a CSV file as header names/units and text fields ---------------------- */

typedef struct csv_table {
  int ncols;
  long nrows;
  char **names, **units; /* ncols each */
  char **cells;          /* nrows x ncols field texts (no quoting in our files) */
  char *text;
} csv_table;

static void csv_free(csv_table *t) {
  for (int i = 0; i < t->ncols; ++i) {
    free(t->names ? t->names[i] : NULL);
    free(t->units ? t->units[i] : NULL);
  }
  free(t->names);
  free(t->units);
  free(t->cells);
  free(t->text);
  memset(t, 0, sizeof *t);
}

/* Parse DIR/NAME; 0 on success. Header fields are "name [unit]" or "name". */
static int csv_read(const char *dir, const char *name, csv_table *t) {
  memset(t, 0, sizeof *t);
  t->text = slurp(dir, name);
  if (!t->text) return -1;
  long lines = 0;
  for (const char *p = t->text; *p; ++p) lines += *p == '\n';
  char *p = t->text, *nl = strchr(p, '\n');
  if (!nl) return -1;
  *nl = '\0';
  t->ncols = 1;
  for (const char *q = p; *q; ++q) t->ncols += *q == ',';
  t->names = calloc((size_t)t->ncols, sizeof *t->names);
  t->units = calloc((size_t)t->ncols, sizeof *t->units);
  t->nrows = lines - 1;
  t->cells = calloc((size_t)(t->nrows * t->ncols + 1), sizeof *t->cells);
  if (!t->names || !t->units || !t->cells) return -1;
  for (int i = 0; i < t->ncols; ++i) {
    char *end = strchr(p, ',');
    if (end) *end = '\0';
    char *br = strstr(p, " [");
    size_t nlen = br ? (size_t)(br - p) : strlen(p);
    t->names[i] = calloc(nlen + 1, 1);
    t->units[i] = calloc(strlen(p) + 1, 1);
    if (!t->names[i] || !t->units[i]) return -1;
    memcpy(t->names[i], p, nlen);
    if (br) {
      snprintf(t->units[i], strlen(p) + 1, "%s", br + 2);
      t->units[i][strcspn(t->units[i], "]")] = '\0';
    }
    p = end ? end + 1 : p + strlen(p);
  }
  p = nl + 1;
  for (long r = 0; r < t->nrows; ++r) {
    nl = strchr(p, '\n');
    if (!nl) return -1;
    *nl = '\0';
    for (int i = 0; i < t->ncols; ++i) {
      t->cells[r * t->ncols + i] = p;
      char *end = strchr(p, ',');
      if (end) *end = '\0';
      else if (i != t->ncols - 1) return -1;
      p = end ? end + 1 : p + strlen(p);
    }
    p = nl + 1;
  }
  return 0;
}

/* ---- matio reading utilities -------------------------------------------------- */

static const double *doubles(matvar_t *v, size_t *n) {
  if (!v || v->class_type != MAT_C_DOUBLE || !v->data) {
    *n = 0;
    return NULL;
  }
  *n = v->nbytes / sizeof(double);
  return v->data;
}

/* A char variable as a C string into buf ("" when empty). */
static const char *text_of(matvar_t *v, char *buf, size_t len) {
  buf[0] = '\0';
  if (!v || v->class_type != MAT_C_CHAR) return NULL;
  size_t n = v->rank == 2 ? v->dims[0] * v->dims[1] : 0;
  if (n + 1 > len) n = len - 1;
  for (size_t i = 0; i < n; ++i) {
    if (v->data_type == MAT_T_UINT16 || v->data_type == MAT_T_UTF16)
      buf[i] = (char)((const unsigned short *)v->data)[i];
    else
      buf[i] = ((const char *)v->data)[i];
  }
  buf[n] = '\0';
  return buf;
}

static matvar_t *field(matvar_t *st, const char *name) {
  return st ? Mat_VarGetStructFieldByName(st, name, 0) : NULL;
}

static double scalar(matvar_t *st, const char *name) {
  size_t n;
  const double *d = doubles(field(st, name), &n);
  return d && n == 1 ? d[0] : NAN;
}

static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return 0;
  size_t n = 0;
  for (; *s; ++s, ++n)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return n <= 63;
}

/* Field names of st: valid, unique MATLAB identifiers. */
static void check_fieldnames(matvar_t *st) {
  unsigned nf = Mat_VarGetNumberOfFields(st);
  char *const *f = Mat_VarGetStructFieldnames(st);
  for (unsigned i = 0; i < nf; ++i) {
    if (!is_identifier(f[i])) printf("\n  not a MATLAB identifier: '%s'\n", f[i]);
    CU_ASSERT(is_identifier(f[i]));
    for (unsigned j = 0; j < i; ++j) CU_ASSERT(strcmp(f[i], f[j]) != 0);
  }
}

/* Compare a struct of column vectors (series or events) with a CSV table:
 * same columns in the same order, every number printed as the CSV prints
 * it (%.15g), texts equal. units: the *_units struct. The series' last CSV
 * column, row_kind, is the separate variable row_kind (check_row_kind). */
static void compare_with_csv(matvar_t *st, matvar_t *units, const csv_table *t, int exact_names) {
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  CU_ASSERT_PTR_NOT_NULL_FATAL(units);
  check_fieldnames(st);
  int ncols = t->ncols - (t->ncols > 0 && !strcmp(t->names[t->ncols - 1], "row_kind"));
  CU_ASSERT_EQUAL_FATAL((int)Mat_VarGetNumberOfFields(st), ncols);
  char *const *f = Mat_VarGetStructFieldnames(st);
  long bad = 0;
  for (int j = 0; j < ncols; ++j) {
    if (exact_names) CU_ASSERT_STRING_EQUAL(f[j], t->names[j]);
    char unit[64];
    text_of(Mat_VarGetStructFieldByIndex(units, (size_t)j, 0), unit, sizeof unit);
    CU_ASSERT_STRING_EQUAL(unit, t->units[j]);
    matvar_t *v = Mat_VarGetStructFieldByIndex(st, (size_t)j, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL((long)(v->rank == 2 ? v->dims[0] : 0), t->nrows);
    if (v->class_type == MAT_C_CELL) {
      for (long r = 0; r < t->nrows; ++r) {
        char buf[256];
        text_of(Mat_VarGetCell(v, (int)r), buf, sizeof buf);
        if (strcmp(buf, t->cells[r * t->ncols + j]) != 0) ++bad;
      }
      continue;
    }
    size_t n;
    const double *d = doubles(v, &n);
    CU_ASSERT_EQUAL_FATAL((long)n, t->nrows);
    for (long r = 0; r < t->nrows; ++r) {
      char buf[64];
      if (isnan(d[r])) buf[0] = '\0'; /* an absent value: an empty CSV field */
      else snprintf(buf, sizeof buf, "%.15g", d[r]);
      if (strcmp(buf, t->cells[r * t->ncols + j]) != 0) {
        if (bad < 3) printf("\n  column %s row %ld: mat %s, csv %s\n", t->names[j], r, buf,
                            t->cells[r * t->ncols + j]);
        ++bad;
      }
    }
  }
  CU_ASSERT_EQUAL(bad, 0);
}

/* series.csv's row_kind column against results.mat's row_kind (0 sample,
 * 1 pre-event, 2 post-event) and row_kind_names. */
static void check_row_kind(mat_t *mat, const csv_table *t) {
  CU_ASSERT_FATAL(t->ncols > 1);
  CU_ASSERT_STRING_EQUAL_FATAL(t->names[t->ncols - 1], "row_kind");
  matvar_t *k = Mat_VarRead(mat, "row_kind"), *names = Mat_VarRead(mat, "row_kind_names");
  CU_ASSERT_PTR_NOT_NULL_FATAL(k);
  CU_ASSERT_PTR_NOT_NULL_FATAL(names);
  size_t n;
  const double *d = doubles(k, &n);
  CU_ASSERT_EQUAL_FATAL((long)n, t->nrows);
  long bad = 0, pre = 0;
  for (long r = 0; r < t->nrows; ++r) {
    char buf[64] = "";
    int i = (int)d[r];
    CU_ASSERT_FATAL(i >= 0 && i <= 2 && d[r] == i);
    text_of(Mat_VarGetCell(names, i), buf, sizeof buf);
    bad += strcmp(buf, t->cells[r * t->ncols + t->ncols - 1]) != 0;
    pre += i == 1;
  }
  CU_ASSERT_EQUAL(bad, 0);
  CU_ASSERT(pre > 0);
  Mat_VarFree(k);
  Mat_VarFree(names);
}

/* A number from summary.json: "key": value (first occurrence). */
static double json_number_of(const char *json, const char *key) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = strstr(json, pat);
  return p ? strtod(p + strlen(pat), NULL) : NAN;
}

/* ---- the shipped ball scenario through the CLI ---------------------------------- */

static char ball_mat[4096], ball_csv[4096];

static void run_ball(void) {
  if (ball_mat[0]) return;
  const char *dir = mbdae_test_tmpdir("mat-ball");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  const char *scen = mbdae_test_source_path("scenarios/ball.yaml");
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=1.5 --format mat --out mat -q", scen);
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, args), 0);
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=1.5 --out csv -q --no-plots", scen);
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, args), 0);
  snprintf(ball_mat, sizeof ball_mat, "%s/mat", cwd);
  snprintf(ball_csv, sizeof ball_csv, "%s/csv", cwd);
}

static void test_ball_files(void) {
  run_ball();
  CU_ASSERT(path_exists(ball_mat, "results.mat"));
  CU_ASSERT(path_exists(ball_mat, "summary.json"));
  CU_ASSERT(!path_exists(ball_mat, "series.csv")); /* format mat: no CSV files */
  CU_ASSERT(!path_exists(ball_mat, "events.csv"));
  CU_ASSERT(!path_exists(ball_mat, ".results.mat.tmp"));
  char *csv = slurp(ball_csv, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT(csv_check(csv, 7) > 750); /* complete lines of t, height, ..., row_kind */
  free(csv);
  CU_ASSERT(!path_exists(ball_csv, "results.mat")); /* format csv (default): no .mat */
  char *sum = slurp(ball_mat, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(strstr(sum, "no plots: they are drawn from series.csv") != NULL);
  free(sum);
}

static void test_ball_series_and_events_match_csv(void) {
  run_ball();
  char path[4200];
  snprintf(path, sizeof path, "%s/results.mat", ball_mat);
  mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mat);
  CU_ASSERT_EQUAL(Mat_GetVersion(mat), MAT_FT_MAT5);
  csv_table s, e;
  CU_ASSERT_EQUAL_FATAL(csv_read(ball_csv, "series.csv", &s), 0);
  CU_ASSERT_EQUAL_FATAL(csv_read(ball_csv, "events.csv", &e), 0);
  CU_ASSERT(s.nrows > 750); /* t = 0 .. 1.5 every 2 ms, plus event rows */
  matvar_t *series = Mat_VarRead(mat, "series"), *su = Mat_VarRead(mat, "series_units");
  compare_with_csv(series, su, &s, 1);
  check_row_kind(mat, &s);
  matvar_t *cols = Mat_VarRead(mat, "series_columns");
  CU_ASSERT_PTR_NOT_NULL_FATAL(cols);
  CU_ASSERT_EQUAL(cols->class_type, MAT_C_CELL);
  for (int j = 0; j < s.ncols - 1; ++j) {
    char buf[128];
    text_of(Mat_VarGetCell(cols, j), buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, s.names[j]);
  }
  matvar_t *events = Mat_VarRead(mat, "events"), *eu = Mat_VarRead(mat, "events_units");
  compare_with_csv(events, eu, &e, 1);
  /* the impacts before t = 1.5 at the closed-form times (ball.yaml: h0 = 1,
   * g = 9.81, e = 0.7): t1 = sqrt(2 h0 / g), t2 = t1 + 2 e V1 / g, V1 = g t1 */
  const double g = 9.81, t1 = sqrt(2.0 / g), t2 = t1 + 2 * 0.7 * g * t1 / g;
  size_t n;
  const double *t = doubles(field(events, "t"), &n);
  matvar_t *label = field(events, "label");
  int impacts = 0;
  for (size_t i = 0; t && label && i < n; ++i) {
    char buf[64];
    if (strcmp(text_of(Mat_VarGetCell(label, (int)i), buf, sizeof buf), "impact")) continue;
    MBDAE_ASSERT_REL(t[i], impacts ? t2 : t1, 1e-8);
    ++impacts;
  }
  CU_ASSERT_EQUAL(impacts, 2);
  Mat_VarFree(series);
  Mat_VarFree(su);
  Mat_VarFree(cols);
  Mat_VarFree(events);
  Mat_VarFree(eu);
  csv_free(&s);
  csv_free(&e);
  Mat_Close(mat);
}

static void test_ball_parameters_solver_stats(void) {
  run_ball();
  char path[4200], buf[512];
  snprintf(path, sizeof path, "%s/results.mat", ball_mat);
  mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mat);
  /* the scenario as the loader reads it, with the same override */
  const char *sets[] = {"solver.t_end=1.5"};
  mbdae_scenario sc;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load(mbdae_test_source_path("scenarios/ball.yaml"), sets,
                                            1, &sc, err, sizeof err), 0);
  matvar_t *v = Mat_VarRead(mat, "model");
  CU_ASSERT_STRING_EQUAL(text_of(v, buf, sizeof buf), "bouncing_ball");
  Mat_VarFree(v);
  v = Mat_VarRead(mat, "scenario");
  text_of(v, buf, sizeof buf);
  CU_ASSERT(strlen(buf) > 9 && strcmp(buf + strlen(buf) - 9, "ball.yaml") == 0);
  Mat_VarFree(v);
  v = Mat_VarRead(mat, "description");
  CU_ASSERT_STRING_EQUAL(text_of(v, buf, sizeof buf), sc.description);
  Mat_VarFree(v);

  matvar_t *p = Mat_VarRead(mat, "parameters"), *pu = Mat_VarRead(mat, "parameter_units");
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pu);
  CU_ASSERT_EQUAL((int)Mat_VarGetNumberOfFields(p), sc.kind->nparams);
  for (int i = 0; i < sc.kind->nparams; ++i) {
    const mbdae_param_spec *ps = &sc.kind->params[i];
    CU_ASSERT_PTR_NOT_NULL(field(p, ps->key));
    text_of(field(pu, ps->key), buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, ps->unit ? ps->unit : "");
    if (ps->type == MBDAE_PARAM_DOUBLE) {
      double want;
      memcpy(&want, (const char *)sc.params + ps->offset, sizeof want);
      CU_ASSERT_EQUAL(scalar(p, ps->key), want);
    }
  }
  CU_ASSERT_EQUAL(scalar(p, "e"), 0.7); /* ball.yaml */
  CU_ASSERT_EQUAL(scalar(p, "h0"), 1.0);

  matvar_t *so = Mat_VarRead(mat, "solver");
  CU_ASSERT_PTR_NOT_NULL_FATAL(so);
  CU_ASSERT_EQUAL(scalar(so, "t_end"), 1.5); /* the override */
  CU_ASSERT_EQUAL(scalar(so, "dt_out"), 0.002);
  CU_ASSERT_EQUAL(scalar(so, "rtol"), 1e-10);
  CU_ASSERT_STRING_EQUAL(text_of(field(so, "method"), buf, sizeof buf), "ida");
  CU_ASSERT_STRING_EQUAL(text_of(field(so, "linear_solver"), buf, sizeof buf), "dense");
  matvar_t *cf = field(so, "calcic_fallback");
  CU_ASSERT(cf && cf->class_type == MAT_C_UINT8 && cf->isLogical);

  /* statistics and counts as summary.json has them */
  char *sum = slurp(ball_mat, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  matvar_t *st = Mat_VarRead(mat, "stats");
  CU_ASSERT_PTR_NOT_NULL_FATAL(st);
  static const char *const keys[] = {"steps", "rhs_evals", "jac_evals", "newton_iters",
                                     "err_test_fails", "root_evals", "calcic_fallbacks"};
  for (int i = 0; i < 7; ++i) {
    CU_ASSERT(scalar(st, keys[i]) == json_number_of(sum, keys[i]));
    CU_ASSERT(scalar(st, keys[i]) >= 0);
  }
  CU_ASSERT(scalar(st, "steps") > 10);
  CU_ASSERT_EQUAL(scalar(st, "t_reached"), 1.5);
  matvar_t *run = Mat_VarRead(mat, "run");
  CU_ASSERT_STRING_EQUAL(text_of(field(run, "status"), buf, sizeof buf), "ok");
  CU_ASSERT_STRING_EQUAL(text_of(field(run, "status_code"), buf, sizeof buf), "MBDAE_OK");
  CU_ASSERT_EQUAL(scalar(run, "events"), json_number_of(sum, "events"));
  CU_ASSERT_EQUAL(scalar(run, "rows"), json_number_of(sum, "rows_written"));
  matvar_t *inv = Mat_VarRead(mat, "invariants");
  CU_ASSERT_PTR_NOT_NULL_FATAL(inv);
  matvar_t *energy = field(inv, "energy");
  CU_ASSERT_PTR_NOT_NULL_FATAL(energy);
  /* E(0) = m g h0 = 9.81 J (v0 = 0, the plane at height 0) */
  MBDAE_ASSERT_REL(scalar(energy, "start"), 9.81, 1e-12);
  CU_ASSERT(scalar(energy, "max_drift") >= 0);
  matvar_t *oc = Mat_VarRead(mat, "outcomes"), *ou = Mat_VarRead(mat, "outcome_units");
  CU_ASSERT_PTR_NOT_NULL(oc);
  CU_ASSERT_PTR_NOT_NULL(ou);
  if (oc) CU_ASSERT(Mat_VarGetNumberOfFields(oc) > 0);
  free(sum);
  Mat_VarFree(oc);
  Mat_VarFree(ou);
  Mat_VarFree(inv);
  Mat_VarFree(run);
  Mat_VarFree(st);
  Mat_VarFree(so);
  Mat_VarFree(p);
  Mat_VarFree(pu);
  mbdae_scenario_free(&sc);
  Mat_Close(mat);
}

/* ---- the toy kind through the API: every parameter type, a failed run ---- */

/* Columns whose names are not MATLAB identifiers, two of them equal once
 * made valid, and one beyond 63 characters. */
static int odd_columns(mbdae_model *m, mbdae_column *cols, int max) {
  (void)m;
  /* 63 characters each (mbdae_column's limit); "x" in front makes 64 */
  static const char *const names[] = {
    "1st level", "1st-level", "9_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "9-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
  if (!cols) return 4;
  for (int i = 0; i < 4 && i < max; ++i) {
    snprintf(cols[i].name, sizeof cols[i].name, "%s", names[i]);
    snprintf(cols[i].unit, sizeof cols[i].unit, "m");
  }
  return 4;
}
static int odd_row(mbdae_model *m, double t, const double *y, const double *yp, double *row) {
  (void)m, (void)yp;
  row[0] = y[0];
  row[1] = 2 * y[0];
  row[2] = t;
  row[3] = -t;
  return 0;
}

static const char toy_mat_text[] =
  "model: toy\n"
  "solver:\n"
  "  method: cvode-bdf\n"
  "  t_end: 3.0\n"
  "  dt_out: 0.05\n"
  "  rtol: 1.0e-9\n"
  "  atol: 1.0e-12\n"
  "parameters:\n"
  "  k: 1.0\n"
  "  e: 0.5\n"
  "  y0: 1.0\n"
  "  fail_at: 2.0\n"
  "  n: 7\n"
  "  flag: true\n"
  "  mode: exact\n"
  "  v: [1.5, -2.5, 3.5]\n"
  "  tab: [[0, 1], [2, 3], [4, 5]]\n"
  "output:\n"
  "  format: both\n";

static void test_failed_run_keeps_complete_mat(void) {
  mbdae_model_kind odd = toy_kind;
  odd.columns = odd_columns;
  odd.output_row = odd_row;
  const mbdae_model_kind *reg[] = {&odd, NULL};
  mbdae_scenario s;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load_string(reg, "toy.yaml", toy_mat_text, NULL, 0, &s,
                                                   err, sizeof err), 0);
  CU_ASSERT_EQUAL(s.format, 2);
  const char *dir = mbdae_test_tmpdir("mat-toy");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  cfg.plots = 0;
  mbdae_run_result *res = malloc(sizeof *res);
  CU_ASSERT_PTR_NOT_NULL_FATAL(res);
  int rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
  CU_ASSERT(rc < 0); /* the rhs fails after t = 2 */
  CU_ASSERT(res->status < 0);
  CU_ASSERT(path_exists(dir, "results.mat"));
  CU_ASSERT(path_exists(dir, "series.csv"));
  CU_ASSERT(!path_exists(dir, ".results.mat.tmp"));
  char path[4200], buf[256];
  snprintf(path, sizeof path, "%s/results.mat", dir);
  mat_t *mat = Mat_Open(path, MAT_ACC_RDONLY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(mat);
  csv_table t, e;
  CU_ASSERT_EQUAL_FATAL(csv_read(dir, "series.csv", &t), 0);
  CU_ASSERT_EQUAL_FATAL(csv_read(dir, "events.csv", &e), 0);
  CU_ASSERT(t.nrows > 30); /* up to t ~ 2 */
  matvar_t *series = Mat_VarRead(mat, "series"), *su = Mat_VarRead(mat, "series_units");
  compare_with_csv(series, su, &t, 0);
  check_row_kind(mat, &t);
  char *const *f = Mat_VarGetStructFieldnames(series);
  CU_ASSERT_STRING_EQUAL(f[0], "t");
  CU_ASSERT_STRING_EQUAL(f[1], "x1st_level");
  CU_ASSERT_STRING_EQUAL(f[2], "x1st_level_2");
  CU_ASSERT_EQUAL(strlen(f[3]), 63);
  CU_ASSERT(strncmp(f[3], "x9_aaaa", 7) == 0 && f[3][62] == 'a');
  CU_ASSERT_EQUAL(strlen(f[4]), 63);
  CU_ASSERT(strncmp(f[4], "x9_aaaa", 7) == 0 && strcmp(f[4] + 61, "_2") == 0);
  matvar_t *events = Mat_VarRead(mat, "events"), *eu = Mat_VarRead(mat, "events_units");
  compare_with_csv(events, eu, &e, 0);
  /* refills at ln 2 and ln 2 + ln 3 (toy_kind.h's closed form) */
  CU_ASSERT_EQUAL_FATAL(e.nrows, 2);
  size_t n;
  const double *et = doubles(field(events, "t"), &n);
  CU_ASSERT_FATAL(et && n == 2);
  MBDAE_ASSERT_REL(et[0], log(2.0), 1e-7);
  MBDAE_ASSERT_REL(et[1], log(2.0) + log(3.0), 1e-7);
  matvar_t *run = Mat_VarRead(mat, "run");
  CU_ASSERT_STRING_EQUAL(text_of(field(run, "status"), buf, sizeof buf), "failed");
  text_of(field(run, "message"), buf, sizeof buf);
  CU_ASSERT(buf[0] != '\0');
  /* every parameter type */
  matvar_t *p = Mat_VarRead(mat, "parameters");
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_EQUAL(scalar(p, "k"), 1.0);
  CU_ASSERT_EQUAL(scalar(p, "fail_at"), 2.0);
  CU_ASSERT_EQUAL(scalar(p, "n"), 7.0);
  matvar_t *flag = field(p, "flag");
  CU_ASSERT_FATAL(flag && flag->isLogical && flag->class_type == MAT_C_UINT8);
  CU_ASSERT_EQUAL(((const unsigned char *)flag->data)[0], 1);
  CU_ASSERT_STRING_EQUAL(text_of(field(p, "mode"), buf, sizeof buf), "exact");
  matvar_t *vv = field(p, "v");
  const double *vd = doubles(vv, &n);
  CU_ASSERT_FATAL(vd && n == 3 && vv->dims[0] == 1 && vv->dims[1] == 3);
  CU_ASSERT(vd[0] == 1.5 && vd[1] == -2.5 && vd[2] == 3.5);
  matvar_t *tab = field(p, "tab");
  const double *td = doubles(tab, &n);
  CU_ASSERT_FATAL(td && n == 6 && tab->dims[0] == 3 && tab->dims[1] == 2);
  for (int i = 0; i < 3; ++i) /* column-major: tab(i, j) = 2 i + j */
    for (int j = 0; j < 2; ++j) CU_ASSERT_EQUAL(td[j * 3 + i], 2.0 * i + j);
  matvar_t *oc = Mat_VarRead(mat, "outcomes");
  CU_ASSERT_EQUAL(scalar(oc, "refills"), 2.0);
  matvar_t *inv = Mat_VarRead(mat, "invariants");
  CU_ASSERT_EQUAL(scalar(field(inv, "level"), "start"), 1.0);
  Mat_VarFree(inv);
  Mat_VarFree(oc);
  Mat_VarFree(p);
  Mat_VarFree(run);
  Mat_VarFree(events);
  Mat_VarFree(eu);
  Mat_VarFree(series);
  Mat_VarFree(su);
  Mat_Close(mat);
  csv_free(&t);
  csv_free(&e);
  free(res);
  mbdae_scenario_free(&s);
}

/* ---- bad format values: exit 2, one line naming the place and the key ---- */

static void test_bad_format_rejected(void) {
  const char *dir = mbdae_test_tmpdir("mat-bad");
  char cwd[1024], args[8192], want[4200];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  const char *scen = mbdae_test_source_path("scenarios/ball.yaml");
  snprintf(args, sizeof args, "run '%s' --format xml --out res", scen);
  CU_ASSERT_EQUAL(mbdae(cwd, args), 2);
  snprintf(want, sizeof want, "%s: --set output.format=xml: key 'output.format': ", scen);
  if (strncmp(err_text, want, strlen(want)) != 0) printf("\n  stderr: %s\n", err_text);
  CU_ASSERT(strncmp(err_text, want, strlen(want)) == 0);
  CU_ASSERT(strstr(err_text, "csv") && strstr(err_text, "mat") && strstr(err_text, "both"));
  CU_ASSERT(!path_exists(cwd, "res"));
  /* in the file: FILE:LINE */
  char yaml[4200];
  snprintf(yaml, sizeof yaml, "%s/bad_format.yaml", cwd);
  FILE *fp = fopen(yaml, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs("model: bouncing_ball\nsolver:\n  t_end: 0.1\noutput:\n  plots: false\n  format: hdf\n",
        fp);
  fclose(fp);
  CU_ASSERT_EQUAL(mbdae(cwd, "run bad_format.yaml --out res"), 2);
  CU_ASSERT(strncmp(err_text, "bad_format.yaml:6: key 'output.format': ", 40) == 0);
  CU_ASSERT(!path_exists(cwd, "res"));
}

/* ---- one directory holds one run: the files of the other format go ---- */

static void test_format_switch_removes_stale_files(void) {
  const char *dir = mbdae_test_tmpdir("mat-switch");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  const char *scen = mbdae_test_source_path("scenarios/ball.yaml");
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=0.2 --out res -q --no-plots", scen);
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, args), 0);
  CU_ASSERT(path_exists(cwd, "res/series.csv") && path_exists(cwd, "res/events.csv"));
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=0.2 --out res -q -f mat", scen);
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, args), 0);
  CU_ASSERT(path_exists(cwd, "res/results.mat"));
  CU_ASSERT(!path_exists(cwd, "res/series.csv"));
  CU_ASSERT(!path_exists(cwd, "res/events.csv"));
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=0.2 --out res -q --no-plots", scen);
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, args), 0);
  CU_ASSERT(!path_exists(cwd, "res/results.mat"));
  CU_ASSERT(path_exists(cwd, "res/series.csv"));
}

/* ---- results.mat that cannot be written: exit 1, no temporary left ---- */

static void test_unwritable_results_mat(void) {
  const char *dir = mbdae_test_tmpdir("mat-unwritable");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  CU_ASSERT_EQUAL_FATAL(shell(cwd, "mkdir -p res/results.mat/blocker"), 0); /* a directory */
  const char *scen = mbdae_test_source_path("scenarios/ball.yaml");
  snprintf(args, sizeof args, "run '%s' --set solver.t_end=0.2 --out res -q -f mat", scen);
  CU_ASSERT_EQUAL(mbdae(cwd, args), 1);
  CU_ASSERT(strstr(err_text, "cannot write") != NULL && strstr(err_text, "results.mat") != NULL);
  CU_ASSERT(!path_exists(cwd, "res/.results.mat.tmp"));
  CU_ASSERT(path_exists(cwd, "res/summary.json")); /* the other files are still written */
}

/* ---- checkpoints: killed after the first one, resumed, same results.mat ---- */

/* The series and the numeric event columns of two results.mat files,
 * bit for bit; the number of samples of a. */
static long same_mat_data(const char *a, const char *b) {
  mat_t *fa = Mat_Open(a, MAT_ACC_RDONLY), *fb = Mat_Open(b, MAT_ACC_RDONLY);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fa);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fb);
  long rows = -1;
  static const char *const vars[] = {"series", "events"};
  for (int v = 0; v < 2; ++v) {
    matvar_t *x = Mat_VarRead(fa, vars[v]), *y = Mat_VarRead(fb, vars[v]);
    CU_ASSERT_FATAL(x && y);
    unsigned nf = Mat_VarGetNumberOfFields(x);
    CU_ASSERT_EQUAL(nf, Mat_VarGetNumberOfFields(y));
    for (unsigned j = 0; j < nf; ++j) {
      matvar_t *fx = Mat_VarGetStructFieldByIndex(x, j, 0);
      matvar_t *fy = Mat_VarGetStructFieldByIndex(y, j, 0);
      CU_ASSERT_FATAL(fx && fy);
      if (fx->class_type != MAT_C_DOUBLE) continue; /* text columns: cells */
      CU_ASSERT_EQUAL_FATAL(fx->nbytes, fy->nbytes);
      CU_ASSERT(fx->nbytes == 0 || memcmp(fx->data, fy->data, fx->nbytes) == 0);
      if (v == 0 && j == 0) rows = (long)(fx->nbytes / sizeof(double));
    }
    Mat_VarFree(x);
    Mat_VarFree(y);
  }
  Mat_Close(fa);
  Mat_Close(fb);
  return rows;
}

static void test_checkpoint_kill_resume(void) {
  const char *bin = getenv("MBDAE_BINARY");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  char base[1000]; /* a copy: mbdae_test_tmpdir's buffer is reused */
  snprintf(base, sizeof base, "%.990s", mbdae_test_tmpdir("mat-resume"));
  char ref[1200], dir[1200], scen[4096], args[8192];
  snprintf(ref, sizeof ref, "%.1000s/ref", base);
  snprintf(dir, sizeof dir, "%.1000s/killed", base);
  snprintf(scen, sizeof scen, "%s", mbdae_test_source_path("scenarios/ball.yaml"));
  /* about 35 000 samples: the run lasts long enough to be killed */
  const char *opts = "--set solver.dt_out=1e-4 --checkpoint-every 0.5 --format both -q --no-plots";
  snprintf(args, sizeof args, "run '%s' --out '%s' %s", scen, ref, opts);
  CU_ASSERT_EQUAL_FATAL(mbdae("/", args), 0);
  CU_ASSERT(!path_exists(ref, ".results.mat.part")); /* finished: no buffer left */
  pid_t pid = fork();
  CU_ASSERT_FATAL(pid >= 0);
  if (pid == 0) {
    execl(bin, bin, "run", scen, "--out", dir, "--set", "solver.dt_out=1e-4",
          "--checkpoint-every", "0.5", "--format", "both", "-q", "--no-plots", (char *)NULL);
    _exit(127);
  }
  /* SIGKILL right after the first checkpoint (t = 0.5 of 3.5) */
  struct timespec ms = {0, 1000000};
  for (int i = 0; i < 60000 && !path_exists(dir, "checkpoint.bin"); ++i) nanosleep(&ms, NULL);
  kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  int killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
  if (!killed) printf("\n  the run finished before it could be killed\n");
  CU_ASSERT_FATAL(killed);
  CU_ASSERT(path_exists(dir, ".results.mat.part"));
  CU_ASSERT(!path_exists(dir, "results.mat"));
  /* a copy whose part file lost its last byte cannot be resumed: exit 1 */
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "cp -r '%s' '%s-short' && truncate -s -1 '%s-short/.results.mat.part'",
           dir, dir, dir);
  CU_ASSERT_EQUAL_FATAL(shell("/", cmd), 0);
  snprintf(args, sizeof args, "resume '%s-short' --quiet", dir);
  CU_ASSERT_EQUAL(mbdae("/", args), 1);
  if (!strstr(err_text, ".results.mat.part")) printf("\n  stderr: %s\n", err_text);
  CU_ASSERT(strstr(err_text, ".results.mat.part") != NULL);
  snprintf(args, sizeof args, "resume '%s' --quiet", dir);
  CU_ASSERT_EQUAL_FATAL(mbdae("/", args), 0);
  CU_ASSERT(!path_exists(dir, ".results.mat.part"));
  CU_ASSERT(!path_exists(dir, "checkpoint.bin"));
  char a[1300], b[1300];
  snprintf(a, sizeof a, "%s/results.mat", ref);
  snprintf(b, sizeof b, "%s/results.mat", dir);
  long rows = same_mat_data(a, b);
  CU_ASSERT(rows > 35000);
  csv_table t;
  CU_ASSERT_EQUAL_FATAL(csv_read(dir, "series.csv", &t), 0);
  CU_ASSERT_EQUAL(t.nrows, rows);
  csv_free(&t);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", base); /* 16 MB of frames and files */
  shell("/", cmd);
}

/* ---- Octave, when installed ------------------------------------------------ */

static void test_octave_loads_results(void) {
  if (shell("/", "command -v octave-cli") != 0) {
    printf("\n  octave-cli not installed: skipping the Octave load check\n");
    return;
  }
  run_ball();
  csv_table s;
  CU_ASSERT_EQUAL_FATAL(csv_read(ball_csv, "series.csv", &s), 0);
  int hcol = -1;
  for (int j = 0; j < s.ncols; ++j)
    if (!strcmp(s.names[j], "height")) hcol = j;
  CU_ASSERT_FATAL(hcol > 0);
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "octave-cli --no-gui --norc --eval \"s = load('%s/results.mat'); "
           "printf('%%d %%.15g %%.15g %%s %%s\\n', numel(s.series.t), s.series.height(end), "
           "s.parameters.e, s.model, s.events.label{1});\"",
           ball_mat);
  int code = shell("/", cmd);
  if (code != 0) printf("\n  octave-cli failed (%d): %s\n", code, err_text);
  CU_ASSERT_EQUAL_FATAL(code, 0);
  char want[512];
  snprintf(want, sizeof want, "%ld %s 0.7 bouncing_ball impact\n", s.nrows,
           s.cells[(s.nrows - 1) * s.ncols + hcol]);
  if (strcmp(out_text, want) != 0) printf("\n  octave: '%s', want '%s'\n", out_text, want);
  CU_ASSERT_STRING_EQUAL(out_text, want);
  csv_free(&s);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"ball: --format mat writes results.mat and summary.json only", test_ball_files},
    {"ball: every series and event column equals the CSV", test_ball_series_and_events_match_csv},
    {"ball: parameters, solver, stats, run, invariants", test_ball_parameters_solver_stats},
    {"toy: failed run, every parameter type, odd column names", test_failed_run_keeps_complete_mat},
    {"bad output.format: exit 2, place and key", test_bad_format_rejected},
    {"switching the format removes the other format's files", test_format_switch_removes_stale_files},
    {"results.mat that cannot be written: exit 1, no temporary", test_unwritable_results_mat},
    {"checkpointed run killed and resumed: the same results.mat", test_checkpoint_kill_resume},
    {"octave-cli loads results.mat (when installed)", test_octave_loads_results},
    {NULL, NULL}};
  return mbdae_test_main("mat_output", tests);
}
