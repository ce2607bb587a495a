/* fuzz_scenario.c - libFuzzer harness for the scenario loader: the full
 * load + check path the CLI takes before a run (YAML parse, top-level keys,
 * solver/parameters/output schemas, the model's cross-field check), then a
 * deep copy and `--set` overrides on the copy (the sweep's path). The model
 * is never built or run.
 *
 * Input: YAML text, checked first as `mbdae run` reads a scenario file
 * (driver/cmd_run.c: mbdae_text_file_read = regular file, size limit,
 * UTF-8 without NULs): every input through mbdae_text_check, and one in 16
 * written to a file and read back by mbdae_text_file_read itself, which must
 * agree with the check and return the bytes unchanged. The loader then gets
 * the text even when the check refused it (other callers pass strings). Comment lines "#set KEY=VALUE" (invisible to YAML, so
 * the seeds stay valid scenarios) become overrides, up to MAX_SETS.
 * Invariants checked (abort = a finding): a failed load leaves the scenario
 * empty and a one-line, non-empty message; a successful one has a kind,
 * params, path and stem. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fnv1a.h"
#include "mbdae/status.h"
#include "scenario.h"
#include "text_input.h"

enum { MAX_SETS = 8 };

static void check_message(int rc, const char *err) {
  if (rc == MBDAE_OK) return;
  if (rc > 0 || !err[0] || strchr(err, '\n')) abort();
}

static int is_empty(const mbdae_scenario *s) {
  static const mbdae_scenario zero;
  return !memcmp(s, &zero, sizeof zero);
}

/* The scenario file of `mbdae run`: a path in a directory of this process. */
static char file_path[512];

static void remove_file(void) {
  unlink(file_path);
  *strrchr(file_path, '/') = '\0';
  rmdir(file_path);
}

static const char *scenario_file(void) {
  if (file_path[0]) return file_path;
  const char *tmp = getenv("TMPDIR");
  snprintf(file_path, sizeof file_path, "%s/mbdae_fuzz_XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(file_path)) abort();
  strcat(file_path, "/fuzz.yaml");
  atexit(remove_file);
  return file_path;
}

/* cmd_run's reading of the file: the check, and (one input in 16) the real
 * read, which must agree with it byte for byte. */
static void check_reading(const uint8_t *data, size_t size) {
  char err[512];
  int rc = mbdae_text_check("fuzz.yaml", (const char *)data, size, err, sizeof err);
  if (rc != MBDAE_OK && rc != MBDAE_ERR_SCENARIO) abort();
  check_message(rc, err);
  if (mbdae_fnv1a(MBDAE_FNV1A_SEED, data, size) % 16 != 0) return;
  const char *path = scenario_file();
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(data, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  char *text = NULL;
  size_t len = 0;
  int rc2 = mbdae_text_file_read(path, &text, &len, err, sizeof err);
  check_message(rc2, err);
  if (rc2 != rc) abort();
  if (rc == MBDAE_OK && (!text || len != size || text[len] != '\0' ||
                         (size && memcmp(text, data, size) != 0)))
    abort();
  if (rc != MBDAE_OK && text) abort();
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_reading(data, size);
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';

  /* overrides: "#set K=V" lines, cut out of a second copy */
  char *sets_buf = malloc(size + 1);
  const char *sets[MAX_SETS];
  int nsets = 0;
  if (!sets_buf) {
    free(text);
    return 0;
  }
  memcpy(sets_buf, text, size + 1);
  for (char *line = sets_buf; line && nsets < MAX_SETS;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = '\0';
    if (!strncmp(line, "#set ", 5)) sets[nsets++] = line + 5;
    line = nl ? nl + 1 : NULL;
  }

  mbdae_scenario s;
  char err[512];
  int rc = mbdae_scenario_load_string(NULL, "fuzz.yaml", text, NULL, 0, &s, err, sizeof err);
  check_message(rc, err);
  if (rc != MBDAE_OK) {
    if (!is_empty(&s)) abort();
  } else {
    if (!s.kind || !s.params || !s.path || !s.stem || !s.description || !s.priv) abort();
    mbdae_scenario c;
    if (mbdae_scenario_copy(&c, &s) == MBDAE_OK) {
      rc = mbdae_scenario_override(&c, sets, nsets, err, sizeof err);
      check_message(rc, err);
      mbdae_scenario_free(&c);
    }
  }
  mbdae_scenario_free(&s);
  free(sets_buf);
  free(text);
  return 0;
}
