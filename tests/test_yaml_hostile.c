/* test_yaml_hostile.c - hostile YAML through the scenario loader, the entry
 * point tests/fuzz/fuzz_scenario uses (mbdae_scenario_load_string with the
 * registered model kinds), a file, a --set value and a study file: each is a
 * clean MBDAE_ERR_SCENARIO naming FILE:LINE, the scenario left empty, no
 * crash and (under MBDAE_SANITIZE) no leak. Regressions: the two inputs on
 * which the YAML library used before libyaml segfaulted while destroying
 * its parser after the failed parse (CI's libFuzzer run). Expected lines are
 * counted by hand in the texts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "scenario.h"
#include "sweep.h"
#include "testutil.h"

static int is_empty(const mbdae_scenario *s) {
  static const mbdae_scenario zero;
  return !memcmp(s, &zero, sizeof zero);
}

/* Load text as the fuzzer does; the message must start "fuzz.yaml:LINE: "
 * and hold want. */
static void expect_rejected(const char *text, int line, const char *want) {
  mbdae_scenario s;
  char err[1024], prefix[64];
  int rc = mbdae_scenario_load_string(NULL, "fuzz.yaml", text, NULL, 0, &s, err, sizeof err);
  snprintf(prefix, sizeof prefix, "fuzz.yaml:%d: ", line);
  int ok = rc == MBDAE_ERR_SCENARIO && is_empty(&s) && !strchr(err, '\n') &&
           !strncmp(err, prefix, strlen(prefix)) && strstr(err, want);
  if (!ok) printf("\n  rc %d, got \"%s\", want \"%s...%s\"\n", rc, err, prefix, want);
  CU_ASSERT(ok);
  mbdae_scenario_free(&s);
}

static void test_crash_regressions(void) {
  /* 17 bytes found by fuzz_scenario, and its 10-byte reduction */
  expect_rejected("? ? :I?z :\t :\t? :", 1,
                  "YAML syntax error: mapping values are not allowed in this context");
  expect_rejected("? a :\t? :", 1,
                  "YAML syntax error: mapping keys are not allowed in this context");
  /* the same after a valid start, and as the tail of a real scenario */
  expect_rejected("model: bouncing_ball\n? a :\t? :", 2, "YAML syntax error: ");
  expect_rejected("model: bouncing_ball\nparameters:\n  e: 0.5\n? ? :I?z :\t :\t? :\n", 4,
                  "YAML syntax error: ");
}

static void test_alias_bomb(void) {
  /* billion laughs at the top level: refused at its first (unknown) key */
  char bomb[1024];
  size_t used = (size_t)snprintf(bomb, sizeof bomb, "a: &a [1,1]\n");
  for (char c = 'b'; c <= 'j'; ++c)
    used += (size_t)snprintf(bomb + used, sizeof bomb - used, "%c: &%c [*%c,*%c]\n", c, c,
                             c - 1, c - 1);
  expect_rejected(bomb, 1, "key 'a': unknown key");
  /* the bomb's last level used as a value the loader reads: solver is read
   * before output, so the alias on line 5 is what is refused */
  char text[2048];
  used = (size_t)snprintf(text, sizeof text, "model: bouncing_ball\noutput:\n  every: [&a [1,1]");
  for (char c = 'b'; c <= 'j'; ++c)
    used += (size_t)snprintf(text + used, sizeof text - used, ", &%c [*%c,*%c]", c, c - 1, c - 1);
  snprintf(text + used, sizeof text - used, "]\nsolver:\n  t_end: *j\n");
  expect_rejected(text, 5, "key 'solver.t_end': YAML aliases (*name) are not supported");
}

static void test_deep_nesting(void) {
  enum { N = 100000 };
  static const char head[] = "model: bouncing_ball\nparameters:\n  e: ";
  char *text = malloc(sizeof head + 2 * N + 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  memcpy(text, head, sizeof head - 1);
  size_t k = sizeof head - 1;
  memset(text + k, '[', N);
  k += N;
  memset(text + k, ']', N); /* closed or not, the bound is hit first */
  k += N;
  text[k++] = '\n';
  text[k] = '\0';
  expect_rejected(text, 3, "YAML nesting deeper than 64 levels");
  memset(text, '[', N); /* unclosed, from the first byte */
  text[N] = '\0';
  expect_rejected(text, 1, "YAML nesting deeper than 64 levels");
  free(text);
}

static void test_other_nasty_inputs(void) {
  expect_rejected("model: bouncing_ball\nparameters:\n\te: 0.5\n", 3,
                  "YAML syntax error: found character that cannot start any token");
  expect_rejected("model: bouncing_ball\ndescription: \"never closed\n", 3,
                  "YAML syntax error: found unexpected end of stream (while scanning a "
                  "quoted scalar, line 2)");
  expect_rejected("model: bouncing_ball\ndescription: 'never closed\nparameters:\n", 4,
                  "(while scanning a quoted scalar, line 2)");
  expect_rejected("model: bouncing_ball\n---\nmodel: bouncing_ball\n", 3,
                  "a scenario is one YAML document (found a second one)");
  expect_rejected("model: bouncing_ball\nparameters:\n  e: 0.5\n  e: 0.6\n", 4,
                  "duplicate key 'e'");
  /* a NUL written as an escape reaches the tree: refused where it is read */
  expect_rejected("model: bouncing_ball\ndescription: \"a\\0b\"\n", 2,
                  "key 'description': strings must not contain NUL characters");
  expect_rejected("model: bouncing_ball\n\"e\\0\": 1\n", 2, "keys must be plain strings");
  /* a raw NUL byte never reaches the parser: a file */
  const char *dir = mbdae_test_tmpdir("yaml-hostile");
  char path[4200];
  snprintf(path, sizeof path, "%s/nul.yaml", dir);
  static const char nul_text[] = "model: bouncing_ball\nparameters:\n  e: 0.5\0\n";
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fwrite(nul_text, 1, sizeof nul_text - 1, f);
  fclose(f);
  mbdae_scenario s;
  char err[1024], want[4300];
  CU_ASSERT_EQUAL(mbdae_scenario_load(path, NULL, 0, &s, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(is_empty(&s));
  snprintf(want, sizeof want, "%s:3: not UTF-8 text (NUL byte 0x00 at column 9)", path);
  CU_ASSERT_STRING_EQUAL(err, want);
}

static void test_other_entry_points(void) {
  const char *dir = mbdae_test_tmpdir("yaml-hostile-entry");
  char path[4200], err[1024], want[4300];
  /* a file holding the crash input */
  snprintf(path, sizeof path, "%s/crash.yaml", dir);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("? a :\t? :", f);
  fclose(f);
  mbdae_scenario s;
  CU_ASSERT_EQUAL(mbdae_scenario_load(path, NULL, 0, &s, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(is_empty(&s));
  snprintf(want, sizeof want, "%s:1: YAML syntax error: ", path);
  CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
  /* a --set value */
  const char *set[] = {"parameters.e=? ? :I?z :\t :\t? :"};
  CU_ASSERT_EQUAL(mbdae_scenario_load_string(NULL, "s.yaml", "model: bouncing_ball\n", set, 1,
                                             &s, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  CU_ASSERT(is_empty(&s));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "s.yaml: --set parameters.e=? ? :I?z :"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "cannot read the value"));
  /* a study file (mbdae sweep) */
  snprintf(path, sizeof path, "%s/study.yaml", dir);
  f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("study: s\nbase: x.yaml\n? ? :I?z :\t :\t? :", f);
  fclose(f);
  mbdae_sweep_study st;
  CU_ASSERT_EQUAL(mbdae_sweep_study_load(path, &st, err, sizeof err), MBDAE_ERR_SCENARIO);
  snprintf(want, sizeof want, "%s:3: YAML syntax error: ", path);
  CU_ASSERT_EQUAL(strncmp(err, want, strlen(want)), 0);
  f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("study: s\nbase: x.yaml\n---\nstudy: t\n", f);
  fclose(f);
  CU_ASSERT_EQUAL(mbdae_sweep_study_load(path, &st, err, sizeof err), MBDAE_ERR_SCENARIO);
  snprintf(want, sizeof want, "%s:4: a study file is one YAML document (found a second one)",
           path);
  CU_ASSERT_STRING_EQUAL(err, want);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"the two segfault inputs of the old YAML library", test_crash_regressions},
    {"an alias bomb is never expanded", test_alias_bomb},
    {"100000 nested brackets", test_deep_nesting},
    {"tabs, open quotes, two documents, duplicates, NULs", test_other_nasty_inputs},
    {"file, --set value and study file", test_other_entry_points},
    {NULL, NULL}};
  return mbdae_test_main("yaml_hostile", tests);
}
