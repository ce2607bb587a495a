/* test_sweep_resume.c - a sweep killed (SIGKILL, SIGTERM, or one MPI rank
 * killed) keeps the runs that finished in DIR/journal and `mbdae sweep
 * STUDY --resume` runs only the others: the files are byte-identical to an
 * uninterrupted sweep's, on 1 or 2 ranks (issue: killing one rank aborted
 * the whole sweep with nothing written). A journal of another study, or a
 * forged line, is refused; a line torn by the kill is not a record; a new
 * sweep clears the journal; a second sweep into a directory in use is
 * refused. The 2-rank cases need mpirun (skipped, and said so, without). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli_run.h"
#include "testutil.h"

enum { NRUNS = 8 };

static char study_dir[4096];

/* A study of NRUNS rover runs of ~0.1-0.3 s each (slow enough to be killed
 * in the middle, fast enough for the suite); its reference files once. */
static const char *setup(void) {
  if (study_dir[0]) return study_dir;
  snprintf(study_dir, sizeof study_dir, "%s", mbdae_test_tmpdir("sweep-resume"));
  char path[4300];
  snprintf(path, sizeof path, "%s/study.yaml", study_dir);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fprintf(f, "study: resume_test\nbase: %s\nset:\n  - solver.t_end=200\nvary:\n"
             "  - key: parameters.wind_speed\n    start: 2.0\n    stop: 9.0\n    step: 1.0\n"
             "outcomes:\n  - name: final_speed\n  - name: energy_generated\n",
          mbdae_test_source_path("scenarios/rover_sim1_consistent.yaml"));
  fclose(f);
  /* a changed study: another fixed override, the same runs otherwise */
  snprintf(path, sizeof path, "%s/changed.yaml", study_dir);
  f = fopen(path, "w");
  if (!f) return NULL;
  fprintf(f, "study: resume_test\nbase: %s\nset:\n  - solver.t_end=199\nvary:\n"
             "  - key: parameters.wind_speed\n    start: 2.0\n    stop: 9.0\n    step: 1.0\n"
             "outcomes:\n  - name: final_speed\n  - name: energy_generated\n",
          mbdae_test_source_path("scenarios/rover_sim1_consistent.yaml"));
  fclose(f);
  if (cli_run(study_dir, NULL, "sweep study.yaml --no-plots --out ref") != 0) return NULL;
  return study_dir;
}

static int have_mpirun(void) {
  return system("command -v mpirun > /dev/null 2>&1") == 0;
}

#define MPIRUN "ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 2 "

/* Run the shell command cmd, then read the integer it left in DIR/FILE
 * (-1 if the command or the file failed). */
static int shell_int(const char *dir, const char *cmd, const char *file) {
  if (system(cmd) != 0) return -1;
  char *text = slurp(dir, file);
  int v = text ? atoi(text) : -1;
  free(text);
  return v;
}

/* Start `[launcher] mbdae sweep study.yaml --out OUT` in the background,
 * wait until JOURNAL (under OUT/journal) holds `runs` runs, then send the
 * signal to the process `victim` picks (a shell expression printing a pid;
 * empty: the sweep itself); the sweep's exit code, or -1. */
static int kill_midway(const char *dir, const char *launcher, const char *out,
                       const char *journal, int runs, const char *sig, const char *victim) {
  const char *bin = getenv("MBDAE_BINARY");
  char cmd[16384];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && rm -rf '%s' && { %s '%s' sweep study.yaml --no-plots --out '%s' "
           "> '%s.out' 2> '%s.err' & p=$!; "
           "for i in $(seq 3000); do test -f '%s/journal/%s' && "
           "test $(wc -l < '%s/journal/%s') -ge %d && break; sleep 0.01; done; "
           "v=%s; kill -%s ${v:-$p}; wait $p; echo $? > '%s.rc'; } 2> /dev/null",
           dir, out, launcher, bin, out, out, out, out, journal, out, journal, runs + 2,
           victim[0] ? victim : "", sig, out);
  char name[256];
  snprintf(name, sizeof name, "%s.rc", out);
  return shell_int(dir, cmd, name);
}

/* Number of runs in OUT/journal/rank_*.csv (lines after the two header lines). */
static int journaled(const char *dir, const char *out) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "cd '%s' && for f in '%s'/journal/rank_*.csv; do tail -n +3 \"$f\"; "
           "done | wc -l > '%s.n'", dir, out, out);
  char name[256];
  snprintf(name, sizeof name, "%s.n", out);
  return shell_int(dir, cmd, name);
}

/* OUT's runs.csv and sets.csv are the reference's, byte for byte. */
static void assert_like_reference(const char *dir, const char *out) {
  const char *files[2] = {"runs.csv", "sets.csv"};
  for (int i = 0; i < 2; ++i) {
    char a[4300], b[4300];
    snprintf(a, sizeof a, "%s/ref", dir);
    snprintf(b, sizeof b, "%s/%s", dir, out);
    char *x = slurp(a, files[i]), *y = slurp(b, files[i]);
    CU_ASSERT_PTR_NOT_NULL(x);
    CU_ASSERT_PTR_NOT_NULL(y);
    if (x && y) CU_ASSERT_STRING_EQUAL(x, y);
    free(x);
    free(y);
  }
}

/* Resume OUT (with launcher, may be "") and read its summary line. */
static int resume(const char *dir, const char *launcher, const char *out, char *line,
                  size_t n) {
  const char *bin = getenv("MBDAE_BINARY");
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' sweep study.yaml --no-plots --out '%s' --resume "
           "> '%s.resumed' 2> '%s.resumed.err'", dir, launcher, bin, out, out, out);
  int st = system(cmd);
  char name[256];
  snprintf(name, sizeof name, "%s.resumed", out);
  char *s = slurp(dir, name);
  snprintf(line, n, "%s", s ? s : "");
  free(s);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* K runs of the summary line "... (0 failed, K from the journal) ...". */
static long from_journal(const char *line) {
  const char *p = strstr(line, "failed, ");
  return p ? strtol(p + 8, NULL, 10) : -1;
}

static void test_sigkill_then_resume(void) {
  const char *dir = setup();
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  int rc = kill_midway(dir, "", "k1", "rank_0.csv", 2, "KILL", "");
  CU_ASSERT_EQUAL(rc, 137);
  CU_ASSERT_FALSE(path_exists(dir, "k1/runs.csv")); /* nothing gathered yet ... */
  int k = journaled(dir, "k1");                /* ... but every finished run kept */
  CU_ASSERT(k >= 2 && k < NRUNS);
  char line[1024];
  CU_ASSERT_EQUAL(resume(dir, "", "k1", line, sizeof line), 0);
  CU_ASSERT_EQUAL(from_journal(line), k); /* only the others ran */
  assert_like_reference(dir, "k1");
}

static void test_sigterm_then_resume_on_two_ranks(void) {
  const char *dir = setup();
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  int rc = kill_midway(dir, "", "t1", "rank_0.csv", 2, "TERM", "");
  CU_ASSERT_EQUAL(rc, 143);
  char *err = slurp(dir, "t1.err");
  CU_ASSERT(err && strstr(err, "interrupted: ") && strstr(err, "--resume`"));
  if (err && !strstr(err, "interrupted: ")) printf("\n  %s", err);
  free(err);
  CU_ASSERT_FALSE(path_exists(dir, "t1/runs.csv"));
  int k = journaled(dir, "t1");
  CU_ASSERT(k >= 2 && k < NRUNS);
  char line[1024];
  int mpi = have_mpirun();
  if (!mpi) printf("\n  mpirun not found: resumed on 1 rank");
  CU_ASSERT_EQUAL(resume(dir, mpi ? MPIRUN : "", "t1", line, sizeof line), 0);
  CU_ASSERT_EQUAL(from_journal(line), k);
  if (mpi) CU_ASSERT_PTR_NOT_NULL(strstr(line, "on 2 ranks"));
  assert_like_reference(dir, "t1");
}

/* The case: one rank of an MPI sweep killed. */
static void test_one_rank_killed(void) {
  const char *dir = setup();
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  if (!have_mpirun()) {
    printf("\n  mpirun not found: the killed-rank case is skipped");
    return;
  }
  /* rank 1: the child of mpirun whose environment says so */
  const char *victim =
      "$(for c in $(ps -o pid= --ppid $p); do tr '\\0' '\\n' < /proc/$c/environ | "
      "grep -qx OMPI_COMM_WORLD_RANK=1 && echo $c; done)";
  int rc = kill_midway(dir, MPIRUN, "m2", "rank_1.csv", 1, "KILL", victim);
  CU_ASSERT_NOT_EQUAL(rc, 0);
  CU_ASSERT_FALSE(path_exists(dir, "m2/runs.csv"));
  CU_ASSERT(path_exists(dir, "m2/journal/rank_0.csv") && path_exists(dir, "m2/journal/rank_1.csv"));
  int k = journaled(dir, "m2");
  CU_ASSERT(k >= 1 && k <= NRUNS);
  char line[1024];
  CU_ASSERT_EQUAL(resume(dir, MPIRUN, "m2", line, sizeof line), 0);
  CU_ASSERT_EQUAL(from_journal(line), k);
  assert_like_reference(dir, "m2");
  /* resumed again on 1 rank: nothing left to run, the same files */
  CU_ASSERT_EQUAL(resume(dir, "", "m2", line, sizeof line), 0);
  CU_ASSERT_EQUAL(from_journal(line), NRUNS);
  if (from_journal(line) != NRUNS) printf("\n  %s", line);
  assert_like_reference(dir, "m2");
}

/* The reference's complete journal, copied to OUT without its runs.csv. */
static void copy_journal(const char *dir, const char *out) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "cd '%s' && rm -rf '%s' && mkdir -p '%s' && cp -r ref/journal '%s/'",
           dir, out, out, out);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
}

static void test_journal_checks(void) {
  const char *dir = setup();
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  char line[1024], cmd[8400];
  /* a line torn by a kill is no record: that run runs again */
  copy_journal(dir, "torn");
  snprintf(cmd, sizeof cmd, "cd '%s/torn/journal' && head -c -9 rank_0.csv > x && mv x rank_0.csv",
           dir);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  CU_ASSERT_EQUAL(resume(dir, "", "torn", line, sizeof line), 0);
  CU_ASSERT_EQUAL(from_journal(line), NRUNS - 1);
  assert_like_reference(dir, "torn");
  CU_ASSERT_EQUAL(journaled(dir, "torn"), NRUNS); /* cut off and written again, whole */
  /* the journal of a changed study */
  copy_journal(dir, "changed");
  CU_ASSERT_EQUAL(cli_run(dir, NULL, "sweep changed.yaml --no-plots --out changed --resume"), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "the journal of another study"));
  CU_ASSERT_FALSE(path_exists(dir, "changed/runs.csv"));
  /* a forged line: a run the study does not have */
  copy_journal(dir, "forged");
  snprintf(cmd, sizeof cmd, "cd '%s/forged/journal' && echo '99,2,0,1,1' >> rank_0.csv", dir);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  CU_ASSERT_EQUAL(cli_run(dir, NULL, "sweep study.yaml --no-plots --out forged --resume"), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "rank_0.csv:11: not a run of this study"));
  /* a new sweep (no --resume) starts afresh: the journal is cleared */
  copy_journal(dir, "fresh");
  snprintf(cmd, sizeof cmd, "cd '%s/fresh/journal' && cp rank_0.csv rank_7.csv", dir);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  CU_ASSERT_EQUAL(cli_run(dir, NULL, "sweep study.yaml --no-plots --out fresh"), 0);
  CU_ASSERT_FALSE(path_exists(dir, "fresh/journal/rank_7.csv"));
  CU_ASSERT_EQUAL(journaled(dir, "fresh"), NRUNS);
  assert_like_reference(dir, "fresh");
}

/* One sweep per directory: a second one is refused while the first runs. */
static void test_second_sweep_refused(void) {
  const char *dir = setup();
  CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
  const char *bin = getenv("MBDAE_BINARY");
  char cmd[16384];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && rm -rf busy && { '%s' sweep study.yaml --no-plots --out busy > /dev/null "
           "2>&1 & p=$!; for i in $(seq 3000); do test -s busy/.mbdae.lock && break; "
           "sleep 0.01; done; '%s' sweep study.yaml --no-plots --out busy > /dev/null "
           "2> busy.err; echo $? > busy.rc; kill -KILL $p; wait $p; true; } 2> /dev/null", dir, bin,
           bin);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
  char *rc = slurp(dir, "busy.rc"), *err = slurp(dir, "busy.err");
  CU_ASSERT(rc && atoi(rc) == 1);
  CU_ASSERT(err && strstr(err, "is in use by another mbdae run, resume or sweep"));
  free(rc);
  free(err);
}

int main(void) {
  (void)csv_check; /* cli_run.h's helpers not needed here */
  (void)csv_header_columns;
  (void)json_number_of;
  static const mbdae_test tests[] = {
    {"SIGKILL mid-sweep, --resume: only the other runs, same files", test_sigkill_then_resume},
    {"SIGTERM mid-sweep (exit 143), resumed on 2 ranks", test_sigterm_then_resume_on_two_ranks},
    {"one MPI rank killed: journals kept, resumed on 2 and 1 ranks", test_one_rank_killed},
    {"torn, changed, forged and fresh journals", test_journal_checks},
    {"a second sweep into a directory in use is refused", test_second_sweep_refused},
    {NULL, NULL}};
  return mbdae_test_main("sweep_resume", tests);
}
