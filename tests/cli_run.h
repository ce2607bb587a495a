/* cli_run.h - run the real `mbdae` executable (MBDAE_BINARY, set by ctest)
 * in a directory and read what it wrote (header-only, for the CLI tests). */
#ifndef MBDAE_TEST_CLI_RUN_H
#define MBDAE_TEST_CLI_RUN_H

#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "file_util.h"

static char cli_err[1 << 16];

/* `cd dir && [env] mbdae ARGS` with stdout discarded and stderr kept in
 * cli_err; the exit code (128 + signal if killed, -1 if not run). */
static int cli_run(const char *dir, const char *env, const char *args) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    return -1;
  }
  char cmd[16384];
  snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s > /dev/null 2> cli_stderr.txt < /dev/null",
           dir, env ? env : "", bin, args);
  int st = system(cmd);
  char *e = slurp(dir, "cli_stderr.txt");
  snprintf(cli_err, sizeof cli_err, "%s", e ? e : "");
  free(e);
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
}

/* Number of columns of a CSV text's header line. */
static int csv_header_columns(const char *csv) {
  int n = 1;
  for (const char *p = csv; *p && *p != '\n'; ++p) n += *p == ',';
  return n;
}

/* The value of "key": {"value": V ...} or "key": V in a JSON text (NAN if absent). */
static double json_number_of(const char *json, const char *key) {
  char pat[256];
  snprintf(pat, sizeof pat, "\"%s\": ", key);
  const char *p = json ? strstr(json, pat) : NULL;
  if (!p) return 0.0 / 0.0;
  p += strlen(pat);
  if (strncmp(p, "{\"value\": ", 10) == 0) p += 10;
  char *end;
  double v = strtod(p, &end);
  return end == p ? 0.0 / 0.0 : v;
}

#endif
