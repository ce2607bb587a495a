/* fuzz_scenario.c - libFuzzer harness for the scenario loader: the full
 * load + check path the CLI takes before a run (YAML parse, top-level keys,
 * solver/parameters/output schemas, the model's cross-field check), then a
 * deep copy and `--set` overrides on the copy (the sweep's path). The model
 * is never built or run.
 *
 * Input: YAML text. Comment lines "#set KEY=VALUE" (invisible to YAML, so
 * the seeds stay valid scenarios) become overrides, up to MAX_SETS.
 * Invariants checked (abort = a finding): a failed load leaves the scenario
 * empty and a one-line, non-empty message; a successful one has a kind,
 * params, path and stem. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "scenario.h"

enum { MAX_SETS = 8 };

static void check_message(int rc, const char *err) {
  if (rc == MBDAE_OK) return;
  if (rc > 0 || !err[0] || strchr(err, '\n')) abort();
}

static int is_empty(const mbdae_scenario *s) {
  static const mbdae_scenario zero;
  return !memcmp(s, &zero, sizeof zero);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
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
