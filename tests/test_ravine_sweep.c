/* test_ravine_sweep.c - the sweep runner on a 20-run study: grid and list
 * axes, gathered files identical for 1 process and for `mpirun -np 2` (when
 * mpirun exists), per-set statistics recomputed here from runs.csv, and a
 * malformed study rejected with its key. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "testutil.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
  if (b) b[n] = '\0';
  fclose(f);
  return b;
}

static void test_study_load(void) {
  mbdae_sweep_study st;
  char err[512];
  const char *path = mbdae_test_source_path("scenarios/studies/ravine_study_ci.yaml");
  CU_ASSERT_EQUAL_FATAL(mbdae_sweep_study_load(path, &st, err, sizeof err), 0);
  CU_ASSERT_EQUAL(st.naxes, 3);
  CU_ASSERT_EQUAL(st.nruns, 20);
  CU_ASSERT_EQUAL(st.axes[1].n, 5);
  static const double e[5] = {0.6, 0.7, 0.8, 0.9, 1.0};
  for (int i = 0; i < 5; ++i) CU_ASSERT_EQUAL(st.axes[1].values[i], e[i]);
  CU_ASSERT_EQUAL(st.group_axis, 2);
  int idx[MBDAE_SWEEP_MAX_KEYS];
  mbdae_sweep_run_indices(&st, 13, idx); /* 13 = (1 * 5 + 1) * 2 + 1 */
  CU_ASSERT(idx[0] == 1 && idx[1] == 1 && idx[2] == 1);
  mbdae_sweep_study_free(&st);
}

/* A bare name is a file here, else a shipped study (MBDAE_SCENARIO_DIR's
 * studies/, with or without .yaml; its base scenario relative to it); a
 * name that is nowhere says where it was looked for. */
static void test_study_by_name(void) {
  char scen[4096], cwd[4096], err[512];
  snprintf(scen, sizeof scen, "%s", mbdae_test_source_path("scenarios"));
  CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
  CU_ASSERT_EQUAL_FATAL(chdir(mbdae_test_tmpdir("ravine_sweep_by_name")), 0);
  setenv("MBDAE_SCENARIO_DIR", scen, 1);
  const char *names[2] = {"ravine_study_ci", "ravine_study_ci.yaml"};
  for (int i = 0; i < 2; ++i) {
    mbdae_sweep_study st;
    CU_ASSERT_EQUAL_FATAL(mbdae_sweep_study_load(names[i], &st, err, sizeof err), 0);
    CU_ASSERT_EQUAL(st.nruns, 20);
    CU_ASSERT_STRING_EQUAL(st.stem, "ravine_study_ci");
    CU_ASSERT_PTR_NOT_NULL(strstr(st.path, "/studies/ravine_study_ci.yaml"));
    CU_ASSERT_PTR_NOT_NULL(strstr(st.base_path, "ravine_shallow_valley.yaml"));
    mbdae_sweep_study_free(&st);
  }
  mbdae_sweep_study st;
  CU_ASSERT_NOT_EQUAL(mbdae_sweep_study_load("no_such_study", &st, err, sizeof err), 0);
  CU_ASSERT(strstr(err, "no_such_study: cannot open") == err);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "shipped studies"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "/studies"));
  unsetenv("MBDAE_SCENARIO_DIR");
  CU_ASSERT_EQUAL(chdir(cwd), 0);
}

static void test_bad_study(void) {
  const char *dir = mbdae_test_tmpdir("ravine_sweep_bad");
  char path[4096], err[512];
  snprintf(path, sizeof path, "%s/bad.yaml", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("base: x.yaml\nvary:\n  - key: parameters.e\n    start: 1\n    stop: 0\n    step: 0.1\n"
        "outcomes: [crossed]\n", f);
  fclose(f);
  mbdae_sweep_study st;
  CU_ASSERT_NOT_EQUAL(mbdae_sweep_study_load(path, &st, err, sizeof err), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "vary.step"));
}

/* runs.csv -> crossed mean per (b, e) set, compared with sets.csv */
static void check_sets(const char *dir) {
  char p[4200];
  snprintf(p, sizeof p, "%s/runs.csv", dir);
  FILE *f = fopen(p, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char line[1024];
  double sum[2][5] = {{0}}, cnt[2][5] = {{0}};
  CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
  int rows = 0;
  while (fgets(line, sizeof line, f)) {
    long run; double b, e, v, crossed, h; char status[64];
    if (sscanf(line, "%ld,%lf,%lf,%lf,%63[^,],%lf,%lf", &run, &b, &e, &v, status, &crossed, &h) != 7)
      continue;
    rows++;
    CU_ASSERT_STRING_EQUAL(status, "stopped");
    int ib = b > 2.0, ie = (int)lround((e - 0.6) / 0.1);
    sum[ib][ie] += 100.0 * crossed;
    cnt[ib][ie] += 1.0;
  }
  fclose(f);
  CU_ASSERT_EQUAL(rows, 20);
  snprintf(p, sizeof p, "%s/sets.csv", dir);
  f = fopen(p, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
  int sets = 0;
  while (fgets(line, sizeof line, f)) {
    double b, e, mean; long runs, failed;
    if (sscanf(line, "%lf,%lf,%ld,%ld,%lf", &b, &e, &runs, &failed, &mean) != 5) continue;
    int ib = b > 2.0, ie = (int)lround((e - 0.6) / 0.1);
    CU_ASSERT_EQUAL(runs, 2);
    CU_ASSERT_EQUAL(failed, 0);
    MBDAE_ASSERT_ABS(mean, sum[ib][ie] / cnt[ib][ie], 1e-9);
    sets++;
  }
  fclose(f);
  CU_ASSERT_EQUAL(sets, 10);
}

static void test_sweep_mpi_identical(void) {
  const char *bin = getenv("MBDAE_BINARY");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  const char *study = mbdae_test_source_path("scenarios/studies/ravine_study_ci.yaml");
  char d1[4096], d2[4096], cmd[20480];
  snprintf(d1, sizeof d1, "%s", mbdae_test_tmpdir("ravine_sweep_1"));
  snprintf(d2, sizeof d2, "%s", mbdae_test_tmpdir("ravine_sweep_2"));
  /* by its bare name from a directory without it (the shipped study) */
  char here[4096], scen[4096];
  snprintf(here, sizeof here, "%s", mbdae_test_tmpdir("ravine_sweep_cwd"));
  snprintf(scen, sizeof scen, "%s", mbdae_test_source_path("scenarios"));
  study = mbdae_test_source_path("scenarios/studies/ravine_study_ci.yaml"); /* same buffer */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && MBDAE_SCENARIO_DIR='%s' '%s' sweep ravine_study_ci --no-plots --out '%s' "
           "> /dev/null", here, scen, bin, d1);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  check_sets(d1);
  if (system("command -v mpirun > /dev/null 2>&1") != 0) {
    printf("\n  mpirun not found: 2-rank comparison skipped\n");
    return;
  }
  /* Open MPI's own allocations are not this program's leaks */
  snprintf(cmd, sizeof cmd,
           "ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 2 "
           "'%s' sweep '%s' --no-plots --out '%s' > /dev/null 2>&1", bin, study, d2);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  const char *files[3] = {"runs.csv", "sets.csv", "critical.csv"};
  for (int i = 0; i < 3; ++i) {
    char p1[4200], p2[4200];
    snprintf(p1, sizeof p1, "%s/%s", d1, files[i]);
    snprintf(p2, sizeof p2, "%s/%s", d2, files[i]);
    char *a = slurp(p1), *b = slurp(p2);
    CU_ASSERT_PTR_NOT_NULL(a);
    CU_ASSERT_PTR_NOT_NULL(b);
    if (a && b) CU_ASSERT_STRING_EQUAL(a, b);
    free(a);
    free(b);
  }
}

int main(void) {
  static const mbdae_test tests[] = {
    {"study file: axes, sizes, run indices", test_study_load},
    {"a study by its bare name: here, else shipped; nowhere: where it looked", test_study_by_name},
    {"malformed study names its key", test_bad_study},
    {"20-run sweep: sets recomputed, 1 rank = 2 ranks", test_sweep_mpi_identical},
    {NULL, NULL},
  };
  return mbdae_test_main("ravine_sweep", tests);
}
