/* test_determinism.c - the same input gives the same bytes (issue 10):
 *  - a scenario run twice through the CLI (MBDAE_BINARY) writes identical
 *    files: series.csv, events.csv, the VTK frames, and summary.json except
 *    its two timing fields, "solver_wall_time" (stats) and "wall_time" (the
 *    whole run); for the IDA bouncing ball and the event-dense CVODE net
 *    capture;
 *  - a sweep (a short rover study) writes identical runs.csv and sets.csv
 *    in one process and under `mpirun -np 2` (skipped, and said so, when
 *    mpirun is absent or the binary is not an MPI build). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "testutil.h"

static const char *binary(void) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
  return bin;
}

/* summary.json without the lines holding a timing field. */
static char *summary_without_timings(const char *dir) {
  char *s = slurp(dir, "summary.json");
  if (!s) return NULL;
  char *w = s;
  for (char *line = s; *line;) {
    char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
    const char *key = line + strspn(line, " ");
    int timing = !strncmp(key, "\"solver_wall_time\":", 19) || !strncmp(key, "\"wall_time\":", 12);
    if (!timing) {
      memmove(w, line, len);
      w += len;
    }
    line += len;
  }
  *w = '\0';
  return s;
}

static void same_file(const char *d1, const char *d2, const char *name) {
  char *a = slurp(d1, name), *b = slurp(d2, name);
  CU_ASSERT_PTR_NOT_NULL(a);
  CU_ASSERT_PTR_NOT_NULL(b);
  if (a && b) {
    if (strcmp(a, b)) printf("\n  %s differs between %s and %s\n", name, d1, d2);
    CU_ASSERT_STRING_EQUAL(a, b);
  }
  free(a);
  free(b);
}

static void run_twice(const char *scenario, const char *sets) {
  const char *bin = binary();
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  char dirs[2][4096], cmd[16384];
  for (int k = 0; k < 2; ++k) {
    snprintf(dirs[k], sizeof dirs[k], "%s", mbdae_test_tmpdir("determinism"));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' run '%s' --out res --quiet --no-plots %s",
             dirs[k], bin, mbdae_test_source_path(scenario), sets);
    CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
    strncat(dirs[k], "/res", sizeof dirs[k] - strlen(dirs[k]) - 1);
    CU_ASSERT(path_exists(dirs[k], "series.csv"));
  }
  same_file(dirs[0], dirs[1], "series.csv");
  same_file(dirs[0], dirs[1], "events.csv");
  char *a = summary_without_timings(dirs[0]), *b = summary_without_timings(dirs[1]);
  CU_ASSERT_PTR_NOT_NULL_FATAL(a);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b);
  CU_ASSERT_STRING_EQUAL(a, b);
  CU_ASSERT_PTR_NULL(strstr(a, "wall_time")); /* both timing lines gone ... */
  CU_ASSERT_PTR_NOT_NULL(strstr(a, "\"steps\":")); /* ... and nothing else */
  free(a);
  free(b);
  /* everything else in the directory (VTK frames, animation index) */
  snprintf(cmd, sizeof cmd, "diff -r -q --exclude=summary.json '%s' '%s'", dirs[0], dirs[1]);
  CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_ball_twice(void) { run_twice("scenarios/ball.yaml", ""); }

static void test_capture_twice(void) {
  run_twice("scenarios/capture_demo.yaml", "--set solver.t_end=1.5");
}

static void test_sweep_one_and_two_ranks(void) {
  const char *bin = binary();
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  char dir[4096], study[4200], cmd[16384];
  snprintf(dir, sizeof dir, "%s", mbdae_test_tmpdir("determinism-sweep"));
  snprintf(study, sizeof study, "%s/study.yaml", dir);
  FILE *f = fopen(study, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f,
          "study: rover_short\n"
          "base: %s\n"
          "set:\n  - solver.t_end=20\n"
          "vary:\n  - key: parameters.wind_speed\n    values: [2.5, 5.0, 7.5, 10.0, 12.5]\n"
          "outcomes:\n  - name: final_speed\n  - name: energy_generated\n",
          mbdae_test_source_path("scenarios/rover_sim1_consistent.yaml"));
  fclose(f);
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s' sweep study.yaml --no-plots --out one > /dev/null",
           dir, bin);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  char one[4200], two[4200];
  snprintf(one, sizeof one, "%s/one", dir);
  snprintf(two, sizeof two, "%s/two", dir);
  char *runs = slurp(one, "runs.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
  CU_ASSERT(csv_check(runs, 1 + 1 + 1 + 2) == 5); /* index, wind_speed, status, 2 outcomes */
  free(runs);
  if (system("command -v mpirun > /dev/null 2>&1") != 0) {
    printf("\n  mpirun not found: the 2-rank comparison is skipped\n");
    return;
  }
  snprintf(cmd, sizeof cmd, "ldd '%s' 2> /dev/null | grep -q libmpi", bin);
  if (system(cmd) != 0) {
    printf("\n  %s is not an MPI build: the 2-rank comparison is skipped\n", bin);
    return;
  }
  /* Open MPI's own allocations are not this program's leaks */
  snprintf(cmd, sizeof cmd,
           "cd '%s' && ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe "
           "-np 2 '%s' sweep study.yaml --no-plots --out two > /dev/null 2>&1",
           dir, bin);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  same_file(one, two, "runs.csv");
  same_file(one, two, "sets.csv");
}

int main(void) {
  static const mbdae_test tests[] = {
    {"bouncing ball (IDA): two runs, same bytes", test_ball_twice},
    {"net capture (CVODE, 170 events): two runs, same bytes", test_capture_twice},
    {"rover sweep: 1 process and mpirun -np 2, same files", test_sweep_one_and_two_ranks},
    {NULL, NULL}};
  return mbdae_test_main("determinism", tests);
}
