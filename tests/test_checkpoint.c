/* test_checkpoint.c - checkpoint, resume and interruption through the real
 * `mbdae` executable (MBDAE_BINARY), doc/checkpoint.md:
 *   - a run with --checkpoint-every killed with SIGKILL at pseudo-random
 *     moments (when its events.csv, flushed per event, reaches random
 *     fractions of the final size: independent of the machine's load) and
 *     resumed with `mbdae resume` writes byte for byte the series.csv /
 *     events.csv (and animation.pvd) of the uninterrupted run with the same
 *     option: the net capture and the billiard, shortened;
 *   - SIGTERM: exit 143, summary.json "interrupted", a checkpoint, and the
 *     resumed run identical again (also for a DAE string net, where IDA
 *     restarts need IDACalcIC); SIGINT without --checkpoint-every: exit
 *     130, a checkpoint at the interruption, a resume that finishes;
 *   - a missing, corrupt, truncated or foreign checkpoint, output files
 *     shorter than recorded, and a kind without state ops give one clear
 *     error each, never a crash. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "file_util.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"
#include "toy_kind.h"

static const char *binary(void) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
  return bin;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_seconds(double s) {
  struct timespec ts;
  ts.tv_sec = (time_t)s;
  ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* Start `mbdae ARGS...` (NULL-terminated, without the program) with stdout
 * and stderr to log. */
static pid_t spawn(const char *const *args, const char *log) {
  const char *bin = binary();
  if (!bin) return -1;
  const char *argv[32];
  int n = 0;
  argv[n++] = bin;
  for (int i = 0; args[i] && n < 31; ++i) argv[n++] = args[i];
  argv[n] = NULL;
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(bin, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

/* Exit code, or 1000 + signal when killed. */
static int wait_code(pid_t pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 1000 + WTERMSIG(st);
  return -1;
}

static char logpath[4200];

static int run(const char *const *args) {
  pid_t pid = spawn(args, logpath);
  return pid < 0 ? -1 : wait_code(pid);
}

static char *log_text(void) { return slurp(logpath, NULL); }

static int log_has(const char *s) {
  char *t = log_text();
  int ok = t && strstr(t, s) != NULL;
  if (!ok) printf("\n  log lacks '%s':\n%s\n", s, t ? t : "(none)");
  free(t);
  return ok;
}

static int same_file(const char *a, const char *b, const char *name) {
  char *x = slurp(a, name), *y = slurp(b, name);
  int same = x && y && strlen(x) == strlen(y) && memcmp(x, y, strlen(x)) == 0;
  if (!same)
    printf("\n  %s differs: %s (%zu bytes) vs %s (%zu bytes)\n", name, a, x ? strlen(x) : 0, b,
           y ? strlen(y) : 0);
  free(x);
  free(y);
  return same;
}

static void join(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%.2000s/%.200s", dir, name);
}

/* pseudo-random numbers in [0, 1): a fixed LCG, so the kill points repeat */
static double uniform(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return (double)((*s >> 11) & ((1UL << 53) - 1)) / 9007199254740992.0;
}

typedef struct shortened {
  const char *tag;
  const char *scenario; /* relative to the source tree */
  const char *t_end;    /* solver.t_end=... */
  const char *every;    /* --checkpoint-every */
  const char *const *extra;
  int nkills;
  int has_pvd;
  const char *progress; /* the file whose growth times the kills */
} shortened;

static void args_for(const shortened *c, const char *out, const char **a, int checkpoints) {
  static char scen[4096];
  snprintf(scen, sizeof scen, "%s", mbdae_test_source_path(c->scenario));
  int n = 0;
  a[n++] = "run";
  a[n++] = scen;
  a[n++] = "--out";
  a[n++] = out;
  a[n++] = "--no-plots";
  a[n++] = "--quiet";
  a[n++] = "--set";
  a[n++] = c->t_end;
  for (int i = 0; c->extra && c->extra[i]; ++i) a[n++] = c->extra[i];
  if (checkpoints) {
    a[n++] = "--checkpoint-every";
    a[n++] = c->every;
  }
  a[n] = NULL;
}

static long long file_size(const char *dir, const char *name) {
  char path[4200];
  join(path, sizeof path, dir, name);
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Wait until the run writing dir has put `bytes` bytes into its file
 * `name` (events.csv is flushed event by event, series.csv in 64 KiB
 * blocks: measures of progress that a loaded machine cannot skew), or has
 * exited (then *code is its status and 0 is returned). 1: reached, the run
 * still going. */
static int wait_progress(pid_t pid, const char *dir, const char *name, long long bytes,
                         int *code) {
  double t0 = now();
  for (;;) {
    int st = 0;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      *code = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 1000 + WTERMSIG(st) : -1;
      return 0;
    }
    if (file_size(dir, name) >= bytes) return 1;
    if (now() - t0 > 120.0) return 1; /* never hang the suite */
    sleep_seconds(2e-4);
  }
}

/* The uninterrupted run, then nkills runs killed with SIGKILL when their
 * events.csv has reached pseudo-random fractions of the reference's (one
 * in each of nkills equal parts of [0.1, 0.9]), then resumed: same bytes.
 * MBDAE_CHECKPOINT_KILLS sets nkills (validation/RELIABILITY.md used 20). */
static void kill_and_resume(const shortened *c, unsigned long seed) {
  int nkills = c->nkills;
  const char *env = getenv("MBDAE_CHECKPOINT_KILLS");
  if (env && atoi(env) > 0) nkills = atoi(env);
  const char *base = mbdae_test_tmpdir(c->tag);
  char ref[4200], dir[4200];
  join(ref, sizeof ref, base, "ref");
  join(logpath, sizeof logpath, base, "log");
  const char *a[32];
  args_for(c, ref, a, 1);
  CU_ASSERT_EQUAL_FATAL(run(a), 0);
  long long total = file_size(ref, c->progress);
  CU_ASSERT(!path_exists(ref, "checkpoint.bin")); /* a finished run leaves none */
  int interrupted = 0;
  for (int k = 0; k < nkills; ++k) {
    char name[32];
    snprintf(name, sizeof name, "kill%d", k);
    join(dir, sizeof dir, base, name);
    args_for(c, dir, a, 1);
    double frac = 0.1 + 0.8 * ((double)k + uniform(&seed)) / (double)nkills;
    pid_t pid = spawn(a, logpath);
    CU_ASSERT_FATAL(pid > 0);
    double t0 = now();
    int code = 0;
    if (wait_progress(pid, dir, c->progress, (long long)(frac * (double)total), &code)) {
      kill(pid, SIGKILL);
      code = wait_code(pid);
    }
    double when = now() - t0;
    int killed = code == 1000 + SIGKILL;
    int has_cp = path_exists(dir, "checkpoint.bin");
    /* no checkpoint: killed before the first one, or after the finished
     * run removed it (its summary.json is there then) */
    int done = !has_cp && path_exists(dir, "summary.json");
    printf("\n  %s: SIGKILL at %.0f %% of %s (%lld of %lld bytes), after %.0f ms: %s",
           c->tag, 100.0 * frac, c->progress, file_size(dir, c->progress), total, 1e3 * when,
           !killed ? "had finished"
           : has_cp ? "killed, resuming"
           : done   ? "killed after the run had finished"
                    : "killed before the first checkpoint, running again");
    if (killed && done) {
      /* nothing to do: the files are complete */
    } else if (killed && has_cp) {
      interrupted++;
      const char *r[] = {"resume", dir, "--quiet", NULL};
      CU_ASSERT_EQUAL(run(r), 0);
    } else if (killed) {
      args_for(c, dir, a, 1); /* nothing to resume: run it again */
      CU_ASSERT_EQUAL(run(a), 0);
    } else {
      CU_ASSERT_EQUAL(code, 0);
    }
    CU_ASSERT(same_file(ref, dir, "series.csv"));
    CU_ASSERT(same_file(ref, dir, "events.csv"));
    if (c->has_pvd) CU_ASSERT(same_file(ref, dir, "animation.pvd"));
    CU_ASSERT(!path_exists(dir, "checkpoint.bin"));
    char *sum = slurp(dir, "summary.json");
    CU_ASSERT(sum && strstr(sum, "\"status\": \"ok\""));
    free(sum);
  }
  printf("\n  %s: %d of %d kills hit the run between checkpoints\n", c->tag, interrupted,
         nkills);
  CU_ASSERT(interrupted >= 1);
}

static const char *const capture_extra[] = {NULL};
static const shortened capture = {"ckpt-capture", "scenarios/capture_demo.yaml",
                                  "solver.t_end=1.4", "0.2", capture_extra, 3, 1,
                                  "series.csv"};
static const shortened billiard = {"ckpt-billiard", "scenarios/billiard_parabola_4p5.yaml",
                                   "solver.t_end=40", "4", NULL, 3, 0, "events.csv"};

static void test_capture_kill_resume(void) { kill_and_resume(&capture, 20261123UL); }
static void test_billiard_kill_resume(void) { kill_and_resume(&billiard, 4242UL); }

/* Signal a run when its progress file has 40 % of the reference's bytes
 * (ref: the reference run's directory). */
static int signal_run(const shortened *c, const char *dir, int checkpoints, int sig,
                      const char *ref) {
  const char *a[32];
  args_for(c, dir, a, checkpoints);
  pid_t pid = spawn(a, logpath);
  if (pid < 0) return -1;
  int code = 0;
  if (wait_progress(pid, dir, c->progress, (long long)(0.4 * (double)file_size(ref, c->progress)),
                    &code)) {
    kill(pid, sig);
    code = wait_code(pid);
  }
  return code;
}

static void sigterm_resume(const shortened *c) {
  const char *base = mbdae_test_tmpdir(c->tag);
  char ref[4200], dir[4200];
  join(ref, sizeof ref, base, "ref");
  join(dir, sizeof dir, base, "term");
  join(logpath, sizeof logpath, base, "log");
  const char *a[32];
  args_for(c, ref, a, 1);
  CU_ASSERT_EQUAL_FATAL(run(a), 0);
  int code = signal_run(c, dir, 1, SIGTERM, ref);
  CU_ASSERT_EQUAL_FATAL(code, 143);
  CU_ASSERT(log_has("interrupted by a signal at t = "));
  CU_ASSERT(log_has("mbdae resume"));
  CU_ASSERT(path_exists(dir, "checkpoint.bin"));
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"interrupted\""));
  free(sum);
  /* the interrupted run's files are whole: complete rows of the header's width */
  char *series = slurp(dir, "series.csv");
  CU_ASSERT_FATAL(series && strchr(series, '\n'));
  int ncols = 1;
  for (const char *q = series; *q != '\n'; ++q) ncols += *q == ',';
  CU_ASSERT(csv_check(series, ncols) > 0);
  free(series);
  const char *r[] = {"resume", dir, "--quiet", NULL};
  CU_ASSERT_EQUAL(run(r), 0);
  CU_ASSERT(same_file(ref, dir, "series.csv"));
  CU_ASSERT(same_file(ref, dir, "events.csv"));
  sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"ok\""));
  free(sum);
  CU_ASSERT(!path_exists(dir, "checkpoint.bin"));
}

static void test_sigterm_checkpoints_and_resumes(void) {
  shortened c = billiard;
  c.tag = "ckpt-term";
  sigterm_resume(&c);
}

/* A DAE (IDA) string net: segment ends are step ends and a boundary needs
 * an IDACalcIC repair of the multipliers (doc/checkpoint.md, "DAE
 * restarts"); the resumed run takes the same repair. */
static void test_dae_sigterm_resumes(void) {
  static const shortened net = {"ckpt-dae", "scenarios/net_deploy.yaml", "solver.t_end=1.0",
                                "0.2", NULL, 0, 0, "events.csv"};
  sigterm_resume(&net);
}

/* The numbers of the last row of a series.csv (its trailing text column
 * ends the parse); returns how many. */
static int last_row(const char *csv, double *v, int max) {
  const char *end = csv + strlen(csv);
  while (end > csv && end[-1] == '\n') --end;
  const char *q = end;
  while (q > csv && q[-1] != '\n') --q;
  int n = 0;
  while (n < max && q < end) {
    char *e;
    v[n] = strtod(q, &e);
    if (e == q) break;
    ++n;
    q = *e == ',' ? e + 1 : end;
  }
  return n;
}

/* Formulation ggl (index 2) across segment boundaries in taut phases: each
 * segment starts from the model's restart completion (lambda from the
 * multiplier solve, mu = 0, y' = [V, V', 0, 0]), as after an event; IDACalcIC
 * cannot solve the index-2 system. The bola (taut from t = 1.35 s) in
 * segments of 0.04 s (41 taut boundaries) finishes, agrees with the
 * unsegmented run, and a SIGTERM + resume writes the segmented run's bytes. */
static void test_ggl_segments_resume(void) {
  static const char *const ggl_extra[] = {"--set", "parameters.formulation=ggl", "--set",
                                          "solver.rtol=1e-8", "--set", "solver.atol=1e-10",
                                          NULL};
  static const shortened bola = {"ckpt-ggl", "scenarios/bola_event.yaml", "solver.t_end=3.0",
                                 "0.04", ggl_extra, 0, 0, "series.csv"};
  const char *base = mbdae_test_tmpdir(bola.tag);
  char one[4200];
  join(one, sizeof one, base, "one");
  join(logpath, sizeof logpath, base, "log");
  const char *a[32];
  args_for(&bola, one, a, 0);
  CU_ASSERT_EQUAL_FATAL(run(a), 0);
  char ref[4200];
  join(ref, sizeof ref, base, "ref");
  args_for(&bola, ref, a, 1);
  CU_ASSERT_EQUAL_FATAL(run(a), 0);
  /* Both runs' global errors are of the order of rtol times the growth of
   * errors over the run (6 impacts, then 41 restarts at order 1): agreement
   * within 1e3 rtol (1e-5) relative to 1 + |x| on every column of the last
   * row but the tensions (t = 3 s; positions ~ 40 m, speeds ~ 30 m/s,
   * energy 120 J; measured 3.0e-7). */
  char *s1 = slurp(one, "series.csv"), *s2 = slurp(ref, "series.csv");
  CU_ASSERT_FATAL(s1 && s2);
  double v1[64], v2[64];
  int n1 = last_row(s1, v1, 64), n2 = last_row(s2, v2, 64);
  CU_ASSERT(n1 == n2 && n1 > 10);
  CU_ASSERT_DOUBLE_EQUAL(v1[0], 3.0, 1e-12);
  /* tensions (lambda, outside the error test, columns in N): 1e-4; the one
   * run's is 6.2e-6 off a run at rtol 1e-10, the segmented run's 2.4e-7 */
  double worst = 0.0, worst_n = 0.0;
  const char *h = s1;
  for (int i = 0; i < n1 && i < n2; ++i) {
    const char *comma = strchr(h, ',');
    const char *nl = strchr(h, '\n');
    const char *stop = comma && comma < nl ? comma : nl;
    int newton = 0;
    for (const char *q = h; q + 2 < stop; ++q) newton |= q[0] == '[' && q[1] == 'N' && q[2] == ']';
    double d = fabs(v1[i] - v2[i]) / (1.0 + fabs(v1[i]));
    if (newton) worst_n = fmax(worst_n, d);
    else worst = fmax(worst, d);
    h = stop + 1;
  }
  printf("\n  bola ggl rtol 1e-8, segments of 0.04 s vs one run at t = 3: worst relative "
         "difference %.2e (allowed 1e-5), tensions %.2e (allowed 1e-4)", worst, worst_n);
  CU_ASSERT(worst <= 1e-5);
  CU_ASSERT(worst_n <= 1e-4);
  free(s1);
  free(s2);
  /* interrupted mid-run (SIGTERM, a checkpoint), resumed: the same bytes;
   * a run that finished before the signal is tried again (at most 3) */
  char dir[4200];
  int code = 0;
  for (int k = 0; k < 3 && code != 143; ++k) {
    char name[32];
    snprintf(name, sizeof name, "term%d", k);
    join(dir, sizeof dir, base, name);
    code = signal_run(&bola, dir, 1, SIGTERM, ref);
  }
  CU_ASSERT_EQUAL_FATAL(code, 143);
  CU_ASSERT(path_exists(dir, "checkpoint.bin"));
  const char *r[] = {"resume", dir, "--quiet", NULL};
  CU_ASSERT_EQUAL(run(r), 0);
  CU_ASSERT(same_file(ref, dir, "series.csv"));
  CU_ASSERT(same_file(ref, dir, "events.csv"));
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"ok\""));
  free(sum);
}

/* Without --checkpoint-every the interruption time is the restart point:
 * the continuation restarts the integrator there (not byte-identical to an
 * uninterrupted run, see doc/checkpoint.md), and finishes the run. */
static void test_sigint_without_segments(void) {
  const char *base = mbdae_test_tmpdir("ckpt-int");
  char ref[4200], dir[4200];
  join(ref, sizeof ref, base, "ref");
  join(dir, sizeof dir, base, "int");
  join(logpath, sizeof logpath, base, "log");
  const char *a[32];
  args_for(&billiard, ref, a, 0);
  CU_ASSERT_EQUAL_FATAL(run(a), 0);
  CU_ASSERT(!path_exists(ref, "checkpoint.bin"));
  int code = signal_run(&billiard, dir, 0, SIGINT, ref);
  CU_ASSERT_EQUAL_FATAL(code, 130);
  CU_ASSERT(path_exists(dir, "checkpoint.bin"));
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"interrupted\""));
  free(sum);
  const char *r[] = {"resume", dir, "--quiet", NULL};
  CU_ASSERT_EQUAL(run(r), 0);
  sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"ok\"") && strstr(sum, "\"t_reached\": 40"));
  free(sum);
  /* the header and the first rows up to the interruption are the
   * uninterrupted run's: same first line */
  char *x = slurp(ref, "series.csv"), *y = slurp(dir, "series.csv");
  CU_ASSERT(x && y && strchr(x, '\n') && strncmp(x, y, (size_t)(strchr(x, '\n') - x)) == 0);
  free(x);
  free(y);
}

static void write_bytes(const char *dir, const char *name, const char *bytes, size_t n) {
  char path[4200];
  join(path, sizeof path, dir, name);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT(fwrite(bytes, 1, n, f) == n);
  fclose(f);
}

static void copy_file(const char *from, const char *to, const char *name) {
  char src[4200];
  join(src, sizeof src, from, name);
  FILE *f = fopen(src, "rb");
  CU_ASSERT_FATAL(f != NULL);
  static char buf[1 << 22];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  write_bytes(to, name, buf, n);
}

static void test_bad_checkpoints(void) {
  const char *base = mbdae_test_tmpdir("ckpt-bad");
  char dir[4200], bad[4200];
  join(dir, sizeof dir, base, "failed");
  join(logpath, sizeof logpath, base, "log");
  /* a run that fails (the event limit) keeps its last checkpoint, and its
   * summary says why it failed */
  const char *a[32];
  const char *const extra[] = {"--set", "solver.max_events=300", NULL};
  shortened c = billiard;
  c.extra = extra;
  args_for(&c, dir, a, 1);
  CU_ASSERT_EQUAL_FATAL(run(a), 1);
  CU_ASSERT_FATAL(path_exists(dir, "checkpoint.bin"));
  char *sum = slurp(dir, "summary.json");
  CU_ASSERT(sum && strstr(sum, "\"status\": \"failed\"") && strstr(sum, "too many events"));
  free(sum);
  char *cp = slurp(dir, "checkpoint.bin");
  struct stat st;
  char path[4200];
  join(path, sizeof path, dir, "checkpoint.bin");
  CU_ASSERT_FATAL(cp && stat(path, &st) == 0 && st.st_size > 64);
  size_t n = (size_t)st.st_size;
  free(cp);
  FILE *f = fopen(path, "rb");
  char *bytes = malloc(n);
  CU_ASSERT_FATAL(f && bytes && fread(bytes, 1, n, f) == n);
  fclose(f);

  struct {
    const char *tag;
    size_t len;
    int flip; /* byte to flip, -1 none */
    const char *expect;
  } cases[] = {
    {"flipped", n, (int)(n / 2), "corrupt (checksum mismatch)"},
    {"truncated", n / 2, -1, "corrupt (checksum mismatch)"},
    {"tiny", 5, -1, "not an mbdae checkpoint"},
  };
  for (int i = 0; i < 3; ++i) {
    join(bad, sizeof bad, base, cases[i].tag);
    CU_ASSERT_FATAL(mkdir(bad, 0777) == 0);
    copy_file(dir, bad, "series.csv");
    copy_file(dir, bad, "events.csv");
    if (cases[i].flip >= 0) bytes[cases[i].flip] ^= 0x5a;
    write_bytes(bad, "checkpoint.bin", bytes, cases[i].len);
    if (cases[i].flip >= 0) bytes[cases[i].flip] ^= 0x5a;
    const char *r[] = {"resume", bad, NULL};
    CU_ASSERT_EQUAL(run(r), 1);
    CU_ASSERT(log_has(cases[i].expect));
    CU_ASSERT(log_has("cannot resume"));
  }
  /* a valid checkpoint whose series.csv was cut shorter than recorded */
  join(bad, sizeof bad, base, "short");
  CU_ASSERT_FATAL(mkdir(bad, 0777) == 0);
  copy_file(dir, bad, "events.csv");
  write_bytes(bad, "checkpoint.bin", bytes, n);
  write_bytes(bad, "series.csv", "t\n", 2);
  const char *r1[] = {"resume", bad, NULL};
  CU_ASSERT_EQUAL(run(r1), 1);
  CU_ASSERT(log_has("shorter than at the checkpoint"));
  free(bytes);
  /* no checkpoint at all; no such directory */
  const char *r2[] = {"resume", base, NULL};
  CU_ASSERT_EQUAL(run(r2), 1);
  CU_ASSERT(log_has("no checkpoint"));
  join(bad, sizeof bad, base, "nowhere");
  const char *r3[] = {"resume", bad, NULL};
  CU_ASSERT_EQUAL(run(r3), 1);
  const char *r4[] = {"resume", NULL};
  CU_ASSERT_EQUAL(run(r4), 2);
  char scen[4096];
  snprintf(scen, sizeof scen, "%s", mbdae_test_source_path("scenarios/ball.yaml"));
  const char *q[] = {"run", scen, "--checkpoint-every", "-1", NULL};
  CU_ASSERT_EQUAL(run(q), 2);
  CU_ASSERT(log_has("--checkpoint-every needs a positive time"));
}

/* A kind without state ops (the test-only toy kind) refuses
 * --checkpoint-every before anything is written, naming the kind. */
static void test_kind_without_state_ops(void) {
  static const char toy_text[] = "model: toy\nsolver:\n  method: cvode-bdf\n  t_end: 1\n"
                                 "  dt_out: 0.1\nparameters:\n  k: 1\n";
  char err[1024];
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load_string(toy_registry, "toy.yaml", toy_text, NULL, 0,
                                                   &s, err, sizeof err),
                        MBDAE_OK);
  const char *base = mbdae_test_tmpdir("ckpt-toy");
  char out[4200];
  join(out, sizeof out, base, "out");
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  cfg.plots = 0;
  cfg.checkpoint_every = 0.5;
  mbdae_run_result *res = malloc(sizeof *res);
  CU_ASSERT_FATAL(res != NULL);
  CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, res, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(strstr(err, "model kind 'toy' cannot be checkpointed") != NULL);
  CU_ASSERT(!path_exists(out, NULL));
  /* without the option it runs */
  cfg.checkpoint_every = 0.0;
  CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, res, err, sizeof err), MBDAE_OK);
  CU_ASSERT(path_exists(out, "series.csv"));
  free(res);
  mbdae_scenario_free(&s);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"net capture: SIGKILL + resume = uninterrupted, byte for byte", test_capture_kill_resume},
    {"billiard: SIGKILL + resume = uninterrupted, byte for byte", test_billiard_kill_resume},
    {"SIGTERM: exit 143, interrupted, checkpoint, identical resume",
     test_sigterm_checkpoints_and_resumes},
    {"DAE string net: SIGTERM + resume identical (IDA restarts)", test_dae_sigterm_resumes},
    {"ggl (index 2): segments and resume complete, agree with one run",
     test_ggl_segments_resume},
    {"SIGINT without segments: exit 130, checkpoint, resume finishes",
     test_sigint_without_segments},
    {"missing, corrupt, truncated checkpoints; bad option", test_bad_checkpoints},
    {"a kind without state ops refuses --checkpoint-every", test_kind_without_state_ops},
    {NULL, NULL}};
  return mbdae_test_main("checkpoint", tests);
}
