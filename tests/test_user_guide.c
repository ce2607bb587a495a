/* test_user_guide.c - the documentation cannot drift from the code:
 * doc/scenario-reference.md equals `mbdae list --markdown` (the schemas
 * rendered by the program); each of its sections lists exactly the schema's
 * keys (read back from the Markdown tables, against the schema tables in the
 * code); doc/user-guide.md names every model kind, and every relative link
 * in it and in the reference points to an existing file. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "file_util.h"
#include "mbdae/model.h"
#include "solver_schema.h"
#include "testutil.h"

/* stdout of `mbdae ARGS` (malloc'd), NULL on failure. */
static char *mbdae_output(const char *args) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    return NULL;
  }
  const char *dir = mbdae_test_tmpdir("guide");
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out' < /dev/null", bin, args, dir);
  int st = system(cmd);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) return NULL;
  return slurp(dir, "out");
}

static char *doc(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "doc/%s", name);
  return slurp(mbdae_test_source_path(rel), NULL);
}

static void test_reference_is_generated_text(void) {
  char *gen = mbdae_output("list --markdown");
  char *com = doc("scenario-reference.md");
  CU_ASSERT_PTR_NOT_NULL_FATAL(gen);
  CU_ASSERT_PTR_NOT_NULL_FATAL(com);
  if (strcmp(gen, com) != 0) {
    /* the first differing line, and how to fix it */
    const char *a = gen, *b = com;
    int line = 1;
    while (*a && *a == *b) {
      line += *a == '\n';
      ++a, ++b;
    }
    printf("\n  doc/scenario-reference.md differs from `mbdae list --markdown` at line %d;\n"
           "  regenerate: build/mbdae list --markdown > doc/scenario-reference.md\n", line);
  }
  CU_ASSERT_STRING_EQUAL(gen, com);
  free(gen);
  free(com);
}

/* The keys of the Markdown table that follows heading (a line equal to it)
 * in text: rows "| `key` | ...", up to the next heading. Returns how many
 * (keys[i] malloc'd), -1 if the heading is missing. */
static int table_keys(const char *text, const char *heading, char **keys, int max) {
  size_t hl = strlen(heading);
  const char *p = text;
  for (;;) {
    p = strstr(p, heading);
    if (!p) return -1;
    if ((p == text || p[-1] == '\n') && (p[hl] == '\n' || p[hl] == '\0')) break;
    p += hl;
  }
  p += hl;
  int n = 0;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len > 0 && p[0] == '#') break;
    if (len > 4 && !strncmp(p, "| `", 3)) {
      const char *end = strchr(p + 3, '`');
      if (end && end < p + len && n < max) {
        keys[n] = calloc((size_t)(end - p - 3) + 1, 1);
        if (keys[n]) memcpy(keys[n], p + 3, (size_t)(end - p - 3));
        ++n;
      }
    }
    if (!nl) break;
    p = nl + 1;
  }
  return n;
}

/* The table under heading lists exactly the keys of specs (plus extra). */
static void check_section(const char *text, const char *heading, const mbdae_param_spec *specs,
                          int n, const char *extra) {
  char *keys[512];
  int nk = table_keys(text, heading, keys, 512);
  if (nk < 0) printf("\n  doc/scenario-reference.md: no heading '%s'\n", heading);
  CU_ASSERT_FATAL(nk >= 0);
  for (int i = 0; i < n; ++i) { /* every schema key is documented */
    int found = 0;
    for (int k = 0; k < nk; ++k) found |= keys[k] && !strcmp(keys[k], specs[i].key);
    if (!found) printf("\n  %s: key '%s' is not documented\n", heading, specs[i].key);
    CU_ASSERT(found);
  }
  for (int k = 0; k < nk; ++k) { /* every documented key exists */
    int found = extra && keys[k] && !strcmp(keys[k], extra);
    for (int i = 0; i < n && !found; ++i) found = keys[k] && !strcmp(keys[k], specs[i].key);
    if (!found) printf("\n  %s: documented key '%s' is not in the schema\n", heading, keys[k]);
    CU_ASSERT(found);
    free(keys[k]);
  }
  CU_ASSERT_EQUAL(nk, n + (extra ? 1 : 0));
}

static void test_reference_lists_every_schema_key(void) {
  char *com = doc("scenario-reference.md");
  CU_ASSERT_PTR_NOT_NULL_FATAL(com);
  check_section(com, "## `solver:`", mbdae_solver_specs, mbdae_solver_nspecs, NULL);
  check_section(com, "## `output:`", mbdae_output_specs, mbdae_output_nspecs, "dir");
  int nk = 0;
  for (int i = 0; mbdae_model_kinds[i]; ++i, ++nk) {
    const mbdae_model_kind *k = mbdae_model_kinds[i];
    char heading[128];
    snprintf(heading, sizeof heading, "### `model: %s`", k->name);
    check_section(com, heading, k->params, k->nparams, NULL);
  }
  /* and no section for a kind that does not exist */
  int sections = 0;
  for (const char *p = com; (p = strstr(p, "### `model: ")); ++p) ++sections;
  CU_ASSERT_EQUAL(sections, nk);
  free(com);
}

static void test_guide_names_every_model(void) {
  char *g = doc("user-guide.md");
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  for (int i = 0; mbdae_model_kinds[i]; ++i) {
    char row[96];
    snprintf(row, sizeof row, "| `%s` |", mbdae_model_kinds[i]->name);
    if (!strstr(g, row)) printf("\n  user-guide.md: model '%s' is missing\n", mbdae_model_kinds[i]->name);
    CU_ASSERT(strstr(g, row) != NULL);
  }
  free(g);
}

/* Every "](target)" link that is not a URL or an anchor names a file that
 * exists, relative to doc/. */
static void check_links(const char *name) {
  char *g = doc(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(g);
  int links = 0;
  for (const char *p = g; (p = strstr(p, "](")); ++p) {
    const char *t = p + 2, *end = strchr(t, ')');
    if (!end) break;
    char target[512];
    snprintf(target, sizeof target, "%.*s", (int)(end - t), t);
    target[strcspn(target, "#")] = '\0';
    if (!target[0] || strstr(target, "://")) continue;
    char rel[640];
    snprintf(rel, sizeof rel, "doc/%s", target);
    int ok = path_exists(mbdae_test_source_path(rel), NULL);
    if (!ok) printf("\n  %s: broken link '%s'\n", name, target);
    CU_ASSERT(ok);
    ++links;
  }
  CU_ASSERT(links > 0);
  free(g);
}

static void test_links_resolve(void) {
  check_links("user-guide.md");
  check_links("scenario-reference.md");
}

int main(void) {
  (void)csv_check; /* file_util.h's CSV check, not needed here */
  static const mbdae_test tests[] = {
    {"scenario-reference.md is `mbdae list --markdown`", test_reference_is_generated_text},
    {"scenario-reference.md lists every schema key, no other", test_reference_lists_every_schema_key},
    {"user-guide.md names every model kind", test_guide_names_every_model},
    {"relative links in the guide and the reference resolve", test_links_resolve},
    {NULL, NULL}};
  return mbdae_test_main("user_guide", tests);
}
