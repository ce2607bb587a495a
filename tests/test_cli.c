/* test_cli.c - the real `mbdae` executable (MBDAE_BINARY), run in fresh
 * temporary directories: exit codes 0/1/2, one-line FILE:LINE messages for
 * bad scenarios with nothing written, overrides, the output directory of a
 * good run (complete CSV lines, parsable summary.json), a failing run, the
 * list and validate commands and --help everywhere. Uses the bouncing_ball
 * kind and the files in tests/data/cli/. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "file_util.h"
#include "json_check.h"
#include "mbdae/simulation.h"
#include "testutil.h"

static char out_text[1 << 16], err_text[1 << 16];

/* Run `mbdae ARGS` in cwd (env prefix allowed in env, may be ""); capture
 * stdout and stderr (outside cwd) and return the exit code. */
static int mbdae(const char *cwd, const char *env, const char *args) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    return -1;
  }
  static char logs[4096];
  if (!logs[0]) snprintf(logs, sizeof logs, "%s", mbdae_test_tmpdir("cli-logs"));
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s > '%s/out' 2> '%s/err' < /dev/null", cwd, env, bin,
           args, logs, logs);
  int st = system(cmd);
  char *o = slurp(logs, "out"), *e = slurp(logs, "err");
  snprintf(out_text, sizeof out_text, "%s", o ? o : "");
  snprintf(err_text, sizeof err_text, "%s", e ? e : "");
  free(o);
  free(e);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *data(const char *name) {
  static char buf[4096];
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/cli/%s", name);
  snprintf(buf, sizeof buf, "%s", mbdae_test_source_path(rel));
  return buf;
}

static int count_lines(const char *s) {
  int n = 0;
  for (; *s; ++s) n += *s == '\n';
  return n;
}

static void test_help_and_usage(void) {
  const char *dir = mbdae_test_tmpdir("cli-help");
  static const char *const helps[] = {"--help", "help", "run --help", "list --help",
                                      "validate --help", "run -h"};
  for (int i = 0; i < 6; ++i) {
    CU_ASSERT_EQUAL(mbdae(dir, "", helps[i]), 0);
    CU_ASSERT(strncmp(out_text, "usage: mbdae", 12) == 0);
  }
  CU_ASSERT_EQUAL(mbdae(dir, "", ""), 2);
  CU_ASSERT(strstr(err_text, "usage:") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "frobnicate"), 2);
  CU_ASSERT(strstr(err_text, "unknown command 'frobnicate'") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "run"), 2);
  CU_ASSERT(strstr(err_text, "missing SCENARIO") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "run a.yaml b.yaml"), 2);
  CU_ASSERT_EQUAL(mbdae(dir, "", "run --frob x.yaml"), 2);
  CU_ASSERT(strstr(err_text, "bad option '--frob'") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "list extra"), 2);
  CU_ASSERT_EQUAL(mbdae(dir, "", "validate --frob"), 2);

  /* `help COMMAND` is `COMMAND --help`, for every command; an unknown one: 2 */
  static const char *const cmds[] = {"run", "resume", "list", "validate", "sweep"};
  for (int i = 0; i < 5; ++i) {
    char args[64];
    snprintf(args, sizeof args, "%s --help", cmds[i]);
    CU_ASSERT_EQUAL_FATAL(mbdae(dir, "", args), 0);
    char *want = strdup(out_text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(want);
    snprintf(args, sizeof args, "usage: mbdae %s", cmds[i]);
    CU_ASSERT(strncmp(want, args, strlen(args)) == 0);
    snprintf(args, sizeof args, "help %s", cmds[i]);
    CU_ASSERT_EQUAL(mbdae(dir, "", args), 0);
    CU_ASSERT_STRING_EQUAL(out_text, want);
    free(want);
  }
  CU_ASSERT_EQUAL(mbdae(dir, "", "help nope"), 2);
  CU_ASSERT(strstr(err_text, "unknown command 'nope'") != NULL);

  /* --version: one line "mbdae X.Y.Z", the library's version */
  CU_ASSERT_EQUAL(mbdae(dir, "", "--version"), 0);
  char want[64];
  snprintf(want, sizeof want, "mbdae %s\n", mbdae_version());
  CU_ASSERT_STRING_EQUAL(out_text, want);
  int dots = 0;
  for (const char *c = mbdae_version(); *c; ++c) dots += *c == '.';
  CU_ASSERT_EQUAL(dots, 2);
}

typedef struct bad_file {
  const char *file;
  int line;
  const char *key; /* NULL: no key */
  const char *why;
} bad_file;

static void test_bad_scenarios_exit_2_write_nothing(void) {
  static const bad_file cases[] = {
    {"ball_bad_range.yaml", 4, "parameters.e", "must be in [0, 1] (got 1.5)"},
    {"ball_bad_nan.yaml", 3, "parameters.h0", "must be a finite number"},
    {"ball_bad_unknown.yaml", 5, "parameters.restitution", "unknown key for model"},
    {"ball_bad_type.yaml", 3, "parameters.g", "expected a number, got a sequence"},
    {"ball_bad_solver.yaml", 3, "solver.rtol", "must be in (0, 1)"},
    {"ball_bad_model.yaml", 1, "model", "unknown model kind 'bouncing-ball'"},
    {"ball_bad_theta.yaml", 4, "solver.theta", "must be in [0.5, 1] (got 0.4)"},
    {"ball_bad_theta_high.yaml", 4, "solver.theta", "must be in [0.5, 1] (got 1.5)"},
    {"ball_bad_moreau_step.yaml", 4, "solver.moreau_step", "must be in (0, inf) (got 0)"},
    {"ball_bad_moreau_step_negative.yaml", 4, "solver.moreau_step",
     "must be in (0, inf) (got -0.001)"},
    {"pendulum_moreau.yaml", 3, "solver.method", "does not supply the mechanical form"},
    {"capture_moreau_baumgarte.yaml", 6, "parameters.mode", "modes baumgarte and compliant are force laws"},
    {"capture_moreau_error_stab.yaml", 7, "parameters.control",
     "error_stabilization is a state feedback"},
    {"strings_elastic_bad_ea.yaml", 5, "parameters.EA", "must be in (0, inf) (got 0)"},
    {"strings_elastic_bad_damping.yaml", 4, "parameters.string_damping", "must be in [0, inf)"},
    {"capture_compliant_bad_restitution.yaml", 6, "parameters.contact_restitution",
     "must be in (0, 1] (got 1.5)"},
    {"capture_compliant_zero_restitution.yaml", 6, "parameters.contact_restitution",
     "must be in (0, 1] (got 0)"},
    {"capture_compliant_bad_ea.yaml", 6, "parameters.EA", "must be in (0, inf)"},
    {"tow_bad_nodes.yaml", 4, "parameters.tether_nodes", "must be in [2, 100000] (got 1)"},
    {"tow_bad_thrust.yaml", 5, "parameters.thrust[1][1]", "must be a finite number"},
    {"tow_bad_thrust_order.yaml", 6, "parameters.thrust[2]", "times must increase strictly"},
    {"tow_bad_damping.yaml", 3, "parameters.tether_damping", "must be in [0, inf)"},
    {"ball_bad_syntax.yaml", 0, NULL, "YAML syntax error"},
    {NULL, 0, NULL, NULL}};
  for (const bad_file *c = cases; c->file; ++c) {
    const char *dir = mbdae_test_tmpdir("cli-bad");
    char cwd[1024], args[8192], want[8192], path[2048];
    snprintf(cwd, sizeof cwd, "%.1000s", dir);
    snprintf(path, sizeof path, "%.2000s", data(c->file));
    /* once with the default output directory, once with --out */
    for (int pass = 0; pass < 2; ++pass) {
      snprintf(args, sizeof args, "run '%s'%s", path, pass ? " --out res --quiet" : "");
      int code = mbdae(cwd, "", args);
      if (c->key) snprintf(want, sizeof want, "%s:%d: key '%s': ", path, c->line, c->key);
      else snprintf(want, sizeof want, "%s:", path);
      int ok = code == 2 && strncmp(err_text, want, strlen(want)) == 0 &&
               strstr(err_text, c->why) && count_lines(err_text) == 1 && !out_text[0];
      if (!ok) printf("\n  %s: exit %d, stderr \"%s\", want \"%s...%s\"\n", c->file, code, err_text,
                      want, c->why);
      CU_ASSERT(ok);
      CU_ASSERT(!path_exists(cwd, "out"));
      CU_ASSERT(!path_exists(cwd, "res"));
    }
  }
  /* a file that does not exist */
  const char *dir = mbdae_test_tmpdir("cli-missing");
  CU_ASSERT_EQUAL(mbdae(dir, "", "run nonexistent.yaml"), 2);
  CU_ASSERT(strstr(err_text, "nonexistent.yaml: cannot open") == err_text);
  /* a bare name: it says where else it looked */
  CU_ASSERT_PTR_NOT_NULL(strstr(err_text, "nor among the shipped scenarios in "));
  CU_ASSERT(!path_exists(dir, "out"));
}

static void test_good_run(void) {
  const char *dir = mbdae_test_tmpdir("cli-good");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  snprintf(args, sizeof args, "run '%s' --no-plots", data("ball_good.yaml"));
  CU_ASSERT_EQUAL_FATAL(mbdae(cwd, "CI=true", args), 0);
  CU_ASSERT(strstr(out_text, "bouncing_ball: ok") == out_text);
  CU_ASSERT_EQUAL(err_text[0], '\0'); /* no progress bar: not a terminal, and CI */
  char out[4096];
  snprintf(out, sizeof out, "%s/out/ball_good", cwd); /* default: out/<stem> */
  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT(strncmp(series, "t [s],", 6) == 0);
  int ncols = 1;
  for (const char *p = series; *p != '\n' && *p; ++p) ncols += *p == ',';
  CU_ASSERT(ncols >= 3);
  CU_ASSERT(csv_check(series, ncols) >= 121);
  free(series);
  char *events = slurp(out, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  CU_ASSERT(strncmp(events, "index,t [s],label,", 18) == 0);
  CU_ASSERT(strstr(events, "impact") != NULL);
  free(events);
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "\"status\": \"ok\"") != NULL);
  CU_ASSERT(strstr(sum, "\"model\": \"bouncing_ball\"") != NULL);
  CU_ASSERT(strstr(sum, "\"method\": \"ida\"") != NULL);
  CU_ASSERT(strstr(sum, "\"t_end\": 1.2") != NULL);
  CU_ASSERT(strstr(sum, "\"description\": \"CLI test: three bounces\"") != NULL);
  free(sum);
  CU_ASSERT(!path_exists(out, "plots.gp"));

  /* overrides, --out, --quiet: silent on success */
  snprintf(args, sizeof args,
           "run '%s' --quiet --out res --set solver.t_end=0.5 --set solver.method=cvode-bdf "
           "--no-plots",
           data("ball_good.yaml"));
  CU_ASSERT_EQUAL(mbdae(cwd, "", args), 0);
  CU_ASSERT_EQUAL(out_text[0], '\0');
  CU_ASSERT_EQUAL(err_text[0], '\0');
  snprintf(out, sizeof out, "%s/res", cwd);
  sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(strstr(sum, "\"t_end\": 0.5") != NULL);
  CU_ASSERT(strstr(sum, "\"method\": \"cvode-bdf\"") != NULL);
  free(sum);

  /* a bad override: exit 2, one line naming it, nothing written */
  snprintf(args, sizeof args, "run '%s' --out bad --set parameters.e=2", data("ball_good.yaml"));
  CU_ASSERT_EQUAL(mbdae(cwd, "", args), 2);
  char want[8192];
  snprintf(want, sizeof want, "%s: --set parameters.e=2: key 'parameters.e': must be in [0, 1]",
           data("ball_good.yaml"));
  CU_ASSERT(strncmp(err_text, want, strlen(want)) == 0);
  CU_ASSERT_EQUAL(count_lines(err_text), 1);
  CU_ASSERT(!path_exists(cwd, "bad"));
}

static void test_no_gnuplot_is_a_note(void) {
  const char *dir = mbdae_test_tmpdir("cli-nognuplot");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  /* PATH without gnuplot (the binary is called by its absolute path) */
  snprintf(args, sizeof args, "run '%s' --out res", data("ball_good.yaml"));
  CU_ASSERT_EQUAL(mbdae(cwd, "PATH=/nonexistent", args), 0);
  CU_ASSERT(strstr(err_text, "mbdae: note: gnuplot not found in PATH") == err_text);
  char out[4096];
  snprintf(out, sizeof out, "%s/res", cwd);
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(strstr(sum, "\"plots\": {\"written\": 0, \"note\": \"gnuplot not found") != NULL);
  free(sum);
  snprintf(args, sizeof args, "run '%s' --out res2 --quiet", data("ball_good.yaml"));
  CU_ASSERT_EQUAL(mbdae(cwd, "PATH=/nonexistent", args), 0);
  CU_ASSERT_EQUAL(err_text[0], '\0');
}

static void test_failed_run_exit_1(void) {
  const char *dir = mbdae_test_tmpdir("cli-fail");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  snprintf(args, sizeof args, "run '%s' --out res --no-plots", data("ball_fail.yaml"));
  CU_ASSERT_EQUAL(mbdae(cwd, "", args), 1);
  CU_ASSERT(strstr(err_text, "run failed") != NULL);
  char out[4096];
  snprintf(out, sizeof out, "%s/res", cwd);
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT(json_valid(sum));
  CU_ASSERT(strstr(sum, "\"status\": \"failed\"") != NULL);
  CU_ASSERT(strstr(sum, "\"status_code\": \"MBDAE_ERR_TOO_MUCH_WORK\"") != NULL);
  free(sum);
  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  int ncols = 1;
  for (const char *p = series; *p != '\n' && *p; ++p) ncols += *p == ',';
  CU_ASSERT(csv_check(series, ncols) >= 1); /* the t0 row, complete */
  free(series);
}

/* SIGKILL in the middle of a long run: every file ends with a whole line. */
static void test_killed_run_leaves_whole_lines(void) {
  const char *dir = mbdae_test_tmpdir("cli-kill");
  char cwd[1024], args[8192];
  snprintf(cwd, sizeof cwd, "%.1000s", dir);
  const char *bin = getenv("MBDAE_BINARY");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  snprintf(args, sizeof args,
           "cd '%s' && timeout -s KILL 3 '%s' run '%s' --quiet --out res > /dev/null 2>&1", cwd,
           bin, data("ball_long.yaml"));
  int st = system(args);
  CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 137); /* killed, not finished */
  char out[4096];
  snprintf(out, sizeof out, "%s/res", cwd);
  static const char *const files[] = {"series.csv", "events.csv"};
  for (int i = 0; i < 2; ++i) {
    char *text = slurp(out, files[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    size_t n = strlen(text);
    CU_ASSERT(n > 0 && text[n - 1] == '\n'); /* at least the header */
    if (i == 0 && n > 0) {
      int ncols = 1;
      for (const char *p = text; *p != '\n' && *p; ++p) ncols += *p == ',';
      CU_ASSERT(csv_check(text, ncols) >= 0);
    }
    free(text);
  }
}

static void test_list(void) {
  const char *dir = mbdae_test_tmpdir("cli-list");
  CU_ASSERT_EQUAL(mbdae(dir, "", "list"), 0);
  CU_ASSERT(strstr(out_text, "Model kinds:") != NULL);
  CU_ASSERT(strstr(out_text, "bouncing_ball") != NULL);
  CU_ASSERT(strstr(out_text, "Scenarios in ") != NULL);
  CU_ASSERT(strstr(out_text, "INVALID") == NULL); /* every shipped scenario and study loads */
  CU_ASSERT(strstr(out_text, "/studies (mbdae sweep NAME):\n") != NULL);
  CU_ASSERT(strstr(out_text, "  ravine_study_ci.yaml ") != NULL);
  CU_ASSERT(strstr(out_text, " 20 runs ") != NULL); /* 2 b x 5 e x 2 speeds */
  CU_ASSERT_EQUAL(mbdae(dir, "", "list --params bouncing_ball"), 0);
  CU_ASSERT(strstr(out_text, "restitution") != NULL);
  CU_ASSERT(strstr(out_text, "[0, 1]") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "list --params no_such_model"), 2);
  CU_ASSERT(strstr(err_text, "unknown model kind 'no_such_model'") != NULL);
  CU_ASSERT_EQUAL(mbdae(dir, "", "list --solver"), 0);
  CU_ASSERT(strstr(out_text, "rtol") != NULL);
  CU_ASSERT(strstr(out_text, "every") != NULL);

  /* ./scenarios/studies of the current directory too; a study whose base
   * scenario is missing is INVALID, with the key */
  const char *here = mbdae_test_tmpdir("cli-list-studies");
  char path[4200];
  snprintf(path, sizeof path, "%s/scenarios", here);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
  snprintf(path, sizeof path, "%s/scenarios/studies", here);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0755), 0);
  snprintf(path, sizeof path, "%s/scenarios/studies/lost.yaml", here);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("base: ../gone.yaml\nvary:\n  - key: parameters.e\n    values: [0.5]\n"
        "outcomes: [impacts]\n", f);
  fclose(f);
  CU_ASSERT_EQUAL(mbdae(here, "", "list"), 0);
  CU_ASSERT(strstr(out_text, "Studies in scenarios/studies (mbdae sweep NAME):\n  lost.yaml") !=
            NULL);
  CU_ASSERT(strstr(out_text, "INVALID: scenarios/studies/lost.yaml: key 'base': cannot open "
                             "scenarios/studies/../gone.yaml") != NULL);
}

static void test_validate(void) {
  const char *dir = mbdae_test_tmpdir("cli-validate");
  CU_ASSERT_EQUAL(mbdae(dir, "", "validate --list"), 0);
  CU_ASSERT_EQUAL(mbdae(dir, "", "validate no_such_case"), 2);
  CU_ASSERT(strstr(err_text, "unknown case 'no_such_case'") != NULL);
  /* run the first listed case: the table and the tally are printed, and the
   * exit code is 0 exactly when no row fails */
  CU_ASSERT_EQUAL_FATAL(mbdae(dir, "", "validate --list"), 0);
  char name[128] = "";
  if (sscanf(out_text, "%127s", name) != 1) return; /* no case registered yet */
  char args[256];
  snprintf(args, sizeof args, "validate '%s'", name);
  int code = mbdae(dir, "", args);
  CU_ASSERT(strncmp(out_text, "case ", 5) == 0);
  CU_ASSERT(strstr(out_text, "1 cases,") != NULL);
  int failed = strstr(out_text, "FAIL") != NULL || strstr(out_text, "ERROR") != NULL;
  CU_ASSERT_EQUAL(code, failed ? 1 : 0);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"--help everywhere, usage errors exit 2", test_help_and_usage},
    {"bad scenarios: one line, exit 2, nothing written", test_bad_scenarios_exit_2_write_nothing},
    {"good run, overrides, --out, --quiet", test_good_run},
    {"no gnuplot: a note, not a failure", test_no_gnuplot_is_a_note},
    {"failed run: exit 1, valid files", test_failed_run_exit_1},
    {"killed run leaves whole lines", test_killed_run_leaves_whole_lines},
    {"list", test_list},
    {"validate", test_validate},
    {NULL, NULL}};
  return mbdae_test_main("cli", tests);
}
