/* test_reliability_setup_interrupt.c - SIGINT/SIGTERM before a run's first
 * sample (validation/RELIABILITY.md, "a signal during set-up"): the YAML
 * parse of a large file and a large net's creation used to run to their end
 * (a minute for a 256 MiB file, seconds for a 300,000-point chain) before
 * the flag was looked at. Now:
 *  - deterministically: the driver's poll (interrupt_poll.h) answers
 *    "interrupted" at its k-th call, for every k through the loading, the
 *    model's creation and initial state and the first samples: each ends
 *    at once, as MBDAE_STOPPED, with nothing written (set-up) or a valid
 *    interrupted run directory (run), nothing leaked (ASan);
 *  - end to end: the real `mbdae run` on a generated scenario whose set-up
 *    takes seconds, SIGTERM/SIGINT shortly after the start: exit 143/130
 *    within a bound, the message, no output directory (or a valid one);
 *  - a checkpoint temporary left by a killed write is removed by the next
 *    run or resume. */
#include "cli_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checkpoint.h"
#include "interrupt_poll.h"
#include "json_check.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"

static long polls, stop_at;

/* "interrupted" from the stop_at-th poll on (as a signal's flag stays set) */
static int kth_poll(void *data) {
  (void)data;
  return ++polls >= stop_at;
}

/* A scenario text with n unknown keys under `solver` (8 events a key pair
 * at most: n = 20,000 gives several polls, one per 4096 events). */
static char *many_keys(int n) {
  size_t cap = 64 + (size_t)n * 24;
  char *t = malloc(cap);
  if (!t) return NULL;
  size_t k = (size_t)snprintf(t, cap, "model: bouncing_ball\nsolver:\n");
  for (int i = 0; i < n; ++i) k += (size_t)snprintf(t + k, cap - k, "  k%d: %d\n", i, i);
  return t;
}

/* The loader, stopped at its k-th poll: MBDAE_STOPPED with the message,
 * for every poll it makes; without a stop, the unknown key. */
static void test_load_stopped_at_every_poll(void) {
  char *text = many_keys(20000);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  mbdae_interrupt_poll_set(kth_poll, NULL);
  char err[1024];
  mbdae_scenario s;
  polls = 0;
  stop_at = 1L << 40;
  CU_ASSERT_EQUAL(mbdae_scenario_load_string(NULL, "many.yaml", text, NULL, 0, &s, err,
                                             sizeof err),
                  MBDAE_ERR_SCENARIO);
  long total = polls;
  CU_ASSERT(total >= 5); /* 20,000 pairs: ~40,000 events */
  for (long k = 1; k <= total; ++k) {
    polls = 0;
    stop_at = k;
    memset(&s, 0, sizeof s);
    int rc = mbdae_scenario_load_string(NULL, "many.yaml", text, NULL, 0, &s, err, sizeof err);
    CU_ASSERT_EQUAL(rc, MBDAE_STOPPED);
    CU_ASSERT_EQUAL(polls, k); /* stopped at that poll, not later */
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "many.yaml: interrupted by a signal while loading"));
  }
  mbdae_interrupt_poll_set(NULL, NULL);
  free(text);
}

/* A 3,000-point chain (string_net, DAE form, KLU) run through
 * mbdae_scenario_run with the poll answering "interrupted" at its k-th call:
 * every k inside the set-up (before the first sample) ends it with
 * setup_interrupted and no output directory; the first k after it gives an
 * interrupted run directory with summary.json "interrupted", a checkpoint
 * and no lock held. */
static void test_run_stopped_at_every_setup_poll(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s", mbdae_test_source_path("scenarios/bola_event.yaml"));
  static const char *sets[] = {"parameters.topology=chain", "parameters.chain_points=3000",
                               "solver.t_end=1e-4", "solver.dt_out=1e-4"};
  char err[1024];
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load(path, sets, 4, &s, err, sizeof err), MBDAE_OK);
  const char *base = mbdae_test_tmpdir("rel-setup-kth");
  mbdae_run_result *res = malloc(sizeof *res);
  CU_ASSERT_PTR_NOT_NULL_FATAL(res);
  static volatile sig_atomic_t never = 0;
  mbdae_interrupt_poll_set(kth_poll, NULL);
  int setup_stops = 0, run_stop = 0;
  for (long k = 1; k <= 200 && !run_stop; ++k) {
    char out[4200];
    snprintf(out, sizeof out, "%s/o%ld", base, k);
    mbdae_run_config cfg;
    mbdae_run_config_default(&cfg, &s);
    cfg.out_dir = out;
    cfg.plots = 0;
    cfg.interrupt = &never;
    polls = 0;
    stop_at = k;
    int rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
    CU_ASSERT_EQUAL(rc, MBDAE_STOPPED);
    CU_ASSERT(res->interrupted);
    if (rc != MBDAE_STOPPED || !res->interrupted) break;
    if (res->setup_interrupted) {
      ++setup_stops;
      CU_ASSERT(polls >= k && polls <= k + 2); /* stopped there (and asked once more) */
      CU_ASSERT(!path_exists(out, NULL));
      CU_ASSERT_PTR_NOT_NULL(strstr(res->message, "during the set-up ("));
      CU_ASSERT_PTR_NOT_NULL(strstr(res->message, "nothing written"));
      continue;
    }
    run_stop = 1; /* the first sample: a run directory to resume from */
    char *sum = slurp(out, "summary.json");
    CU_ASSERT(sum && json_valid(sum));
    CU_ASSERT(sum && strstr(sum, "\"status\": \"interrupted\""));
    CU_ASSERT(path_exists(out, "checkpoint.bin"));
    CU_ASSERT(!path_exists(out, ".checkpoint.bin.tmp"));
    char *csv = slurp(out, "series.csv");
    CU_ASSERT(csv && csv_check(csv, csv_header_columns(csv)) >= 1); /* whole rows, t0's */
    CU_ASSERT(sum && json_number_of(sum, "t_reached") == 0.0);
    char lock[4300];
    snprintf(lock, sizeof lock, "%s/.mbdae.lock", out);
    int fd = open(lock, O_RDONLY | O_CLOEXEC);
    CU_ASSERT(fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0); /* released */
    if (fd >= 0) close(fd);
    /* a resume of it stopped in its set-up changes nothing */
    mbdae_checkpoint cp;
    CU_ASSERT_EQUAL_FATAL(mbdae_checkpoint_read(out, &cp, err, sizeof err), MBDAE_OK);
    char *ckpt = slurp(out, "checkpoint.bin");
    char ckpt_path[4300];
    snprintf(ckpt_path, sizeof ckpt_path, "%s/checkpoint.bin", out);
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(ckpt_path, &st), 0);
    long long ckpt_size = (long long)st.st_size;
    cfg.resume = &cp;
    for (long r = 1; r <= 3; ++r) {
      polls = 0;
      stop_at = r;
      CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, res, err, sizeof err), MBDAE_STOPPED);
      CU_ASSERT(res->setup_interrupted);
      char *csv2 = slurp(out, "series.csv"), *ckpt2 = slurp(out, "checkpoint.bin");
      struct stat st2;
      CU_ASSERT(stat(ckpt_path, &st2) == 0 && st2.st_size == st.st_size);
      CU_ASSERT(csv && csv2 && !strcmp(csv, csv2));
      CU_ASSERT(ckpt && ckpt2 && !memcmp(ckpt, ckpt2, (size_t)ckpt_size));
      free(csv2);
      free(ckpt2);
    }
    mbdae_checkpoint_free(&cp);
    free(ckpt);
    free(sum);
    free(csv);
  }
  mbdae_interrupt_poll_set(NULL, NULL);
  /* the run's own poll before create, the model's (after describe, before
   * and after the rank check, around the pattern's sort), after create and
   * after the initial state */
  printf("\n  %d interruption points before the first sample\n", setup_stops);
  CU_ASSERT(setup_stops >= 6);
  CU_ASSERT(run_stop);
  free(res);
  mbdae_scenario_free(&s);
}

/* `mbdae ARGS` in dir, a signal after delay s; exit code, seconds from the
 * signal to the exit (-1 if it ended before the signal). */
static int signal_during(const char *dir, const char *args, const char *sig, double delay,
                         double *after) {
  const char *bin = getenv("MBDAE_BINARY");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  char cmd[16384];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && ('%s' %s 2>err.txt >/dev/null & p=$!; sleep %g; "
           "if kill -0 $p 2>/dev/null; then kill -%s $p; s=$(date +%%s.%%N); wait $p; r=$?; "
           "echo \"$r $(date +%%s.%%N) $s\" > rc.txt; else wait $p; echo \"$? -1 0\" > rc.txt; fi)",
           dir, bin, args, delay, sig);
  *after = -1;
  if (system(cmd) != 0) return -1;
  char *rc = slurp(dir, "rc.txt");
  int code = -1;
  double end = 0, start = 0;
  if (rc && sscanf(rc, "%d %lf %lf", &code, &end, &start) == 3 && end > 0) *after = end - start;
  free(rc);
  char *e = slurp(dir, "err.txt");
  snprintf(cli_err, sizeof cli_err, "%s", e ? e : "");
  free(e);
  return code;
}

/* A 2,000,000-key scenario (37 MB: its parse takes seconds), SIGTERM 0.5 s
 * after the start: exit 143 within seconds, "interrupted ... while loading",
 * no output directory. */
static void test_sigterm_while_loading(void) {
  const char *dir = mbdae_test_tmpdir("rel-setup-load");
  char path[4200];
  snprintf(path, sizeof path, "%s/huge.yaml", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fprintf(f, "model: bouncing_ball\nsolver:\n");
  for (int i = 0; i < 2000000; ++i) fprintf(f, "  k%d: %d\n", i, i);
  fclose(f);
  double after;
  int rc = signal_during(dir, "run huge.yaml --out o -q", "TERM", 0.5, &after);
  unlink(path);
  if (after < 0) {
    printf("\n  skipped: the 2,000,000-key file loaded in under 0.5 s (exit %d), before "
           "the signal\n", rc);
    return;
  }
  printf("\n  exit %d, %.2f s after SIGTERM\n", rc, after);
  CU_ASSERT_EQUAL(rc, 143);
  CU_ASSERT(after < 5.0);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "interrupted by a signal while loading"));
  CU_ASSERT(!path_exists(dir, "o"));
}

/* A 300,000-point chain (creation takes seconds: 2.1 million unknowns),
 * SIGINT 0.3 s after the start: exit 130 within seconds; stopped in the
 * set-up, no output directory; stopped after it (a fast machine), a valid
 * interrupted run directory. */
static void test_sigint_during_model_creation(void) {
  const char *dir = mbdae_test_tmpdir("rel-setup-create");
  char args[8192];
  snprintf(args, sizeof args,
           "run '%s' --set parameters.topology=chain --set parameters.chain_points=300000 "
           "--set solver.t_end=1e-6 --set solver.dt_out=1e-6 --out o -q --no-plots",
           mbdae_test_source_path("scenarios/bola_event.yaml"));
  double after;
  int rc = signal_during(dir, args, "INT", 0.3, &after);
  if (after < 0) {
    printf("\n  skipped: the run ended (exit %d) before the signal at 0.3 s\n", rc);
    return;
  }
  printf("\n  exit %d, %.2f s after SIGINT: %s", rc, after, cli_err);
  CU_ASSERT_EQUAL(rc, 130);
  CU_ASSERT(after < 5.0);
  char out[4200];
  snprintf(out, sizeof out, "%s/o", dir);
  if (strstr(cli_err, "during the set-up")) {
    CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "nothing written"));
    CU_ASSERT(!path_exists(out, NULL));
  } else {
    char *sum = slurp(out, "summary.json");
    CU_ASSERT(sum && json_valid(sum) && strstr(sum, "\"status\": \"interrupted\""));
    CU_ASSERT(!path_exists(out, ".checkpoint.bin.tmp"));
    free(sum);
  }
}

/* A checkpoint's temporary left by a write that was killed (a second
 * signal or SIGKILL between its creation and its rename): the next resume
 * and the next run into the directory remove it. */
static void test_partial_checkpoint_removed(void) {
  const char *dir = mbdae_test_tmpdir("rel-ckpt-tmp");
  char args[8192];
  snprintf(args, sizeof args,
           "run '%s' --checkpoint-every 0.5 --set solver.max_events=3 --out o -q --no-plots",
           mbdae_test_source_path("scenarios/ball.yaml"));
  CU_ASSERT_EQUAL_FATAL(cli_run(dir, NULL, args), 1); /* failed at max_events: a checkpoint */
  char out[4200];
  snprintf(out, sizeof out, "%s/o", dir);
  CU_ASSERT_FATAL(path_exists(out, "checkpoint.bin"));
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s/.checkpoint.bin.tmp", out);
  FILE *f = fopen(tmp, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("half a checkpoint", f);
  fclose(f);
  cli_run(dir, NULL, "resume o -q"); /* fails at max_events again, or finishes */
  CU_ASSERT(!path_exists(out, ".checkpoint.bin.tmp"));
  f = fopen(tmp, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fclose(f);
  cli_run(dir, NULL, args);
  CU_ASSERT(!path_exists(out, ".checkpoint.bin.tmp"));
}

int main(void) {
  static const mbdae_test tests[] = {
    {"loading stopped at each of its polls: MBDAE_STOPPED", test_load_stopped_at_every_poll},
    {"set-up stopped at each poll: nothing written; then a valid run directory",
     test_run_stopped_at_every_setup_poll},
    {"SIGTERM while a 2,000,000-key file loads: exit 143 at once", test_sigterm_while_loading},
    {"SIGINT while a 300,000-point chain is built: exit 130 at once",
     test_sigint_during_model_creation},
    {"a killed checkpoint write's temporary is removed", test_partial_checkpoint_removed},
    {NULL, NULL},
  };
  return mbdae_test_main("reliability_setup_interrupt", tests);
}
