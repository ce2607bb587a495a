/* test_exports.c - libmbdae.so exports exactly the public API: every
 * dynamic symbol it defines is named mbdae_* and is declared MBDAE_EXPORT in
 * a public header (include/mbdae/), and every such declaration is exported.
 * Internal functions of the engine and the models (ball_rhs, geo_line, sn_*)
 * stay hidden, so a user's own functions cannot clash with them. */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_NAMES 1024

typedef struct name_set {
  char *names[MAX_NAMES];
  int n;
} name_set;

static int set_has(const name_set *s, const char *name) {
  for (int i = 0; i < s->n; ++i)
    if (!strcmp(s->names[i], name)) return 1;
  return 0;
}

static void set_add(name_set *s, const char *name, size_t len) {
  CU_ASSERT_FATAL(s->n < MAX_NAMES);
  char *copy = malloc(len + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
  memcpy(copy, name, len);
  copy[len] = '\0';
  if (set_has(s, copy)) {
    free(copy);
    return;
  }
  s->names[s->n++] = copy;
}

static void set_free(name_set *s) {
  for (int i = 0; i < s->n; ++i) free(s->names[i]);
  s->n = 0;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (n + 1 == cap) {
      char *more = realloc(buf, cap *= 2);
      if (!more) free(buf);
      buf = more;
    }
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  return buf;
}

/* Blank out the comments of a C header (in place). */
static void strip_comments(char *s) {
  for (char *p = s; *p; ++p) {
    if (p[0] == '/' && p[1] == '*') {
      char *end = strstr(p + 2, "*/");
      char *stop = end ? end + 2 : p + strlen(p);
      memset(p, ' ', (size_t)(stop - p));
      p = stop - 1;
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n') *p++ = ' ';
      if (!*p) break;
    }
  }
}

/* The name each MBDAE_EXPORT declaration declares: the identifier just
 * before the first '(' (a function) or '[' / ';' (data) after the macro. */
static void declared_names(const char *text, name_set *out) {
  const char *p = text;
  while ((p = strstr(p, "MBDAE_EXPORT")) != NULL) {
    p += strlen("MBDAE_EXPORT");
    if (*p == '_' || isalnum((unsigned char)*p)) continue; /* MBDAE_EXPORT_H */
    const char *stop = p + strcspn(p, "([;");
    if (!*stop) break;
    const char *end = stop;
    while (end > p && isspace((unsigned char)end[-1])) --end;
    const char *start = end;
    while (start > p && (isalnum((unsigned char)start[-1]) || start[-1] == '_')) --start;
    if (end > start) set_add(out, start, (size_t)(end - start));
    p = stop;
  }
}

static void test_exports_match_headers(void) {
  name_set declared = {0}, exported = {0};
  const char *inc = mbdae_test_source_path("include/mbdae");
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", inc);
  DIR *d = opendir(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 3 || strcmp(e->d_name + len - 2, ".h")) continue;
    if (!strcmp(e->d_name, "export.h")) continue; /* defines the macro */
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char *text = slurp(path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    strip_comments(text);
    declared_names(text, &declared);
    free(text);
  }
  closedir(d);
  CU_ASSERT(declared.n > 40); /* the engine, problem, model and validation APIs */

  char cmd[2048], line[1024];
  snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", MBDAE_TEST_SHARED_LIBRARY);
  FILE *f = popen(cmd, "r");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    char addr[64], type[8], name[512];
    if (sscanf(line, "%63s %7s %511s", addr, type, name) != 3) continue;
    char *at = strchr(name, '@'); /* versioned names */
    if (at) *at = '\0';
    if (!strncmp(name, "__odr_asan", 10) || !strncmp(name, "__asan", 6))
      continue; /* AddressSanitizer's own (-DMBDAE_SANITIZE=ON) */
    set_add(&exported, name, strlen(name));
    if (strncmp(name, "mbdae_", 6) != 0) {
      if (bad++ < 20) printf("\n  exported without the mbdae_ prefix: %s", name);
      CU_FAIL("a symbol without the mbdae_ prefix is exported");
    } else if (!set_has(&declared, name)) {
      printf("\n  exported but not declared MBDAE_EXPORT in include/mbdae/: %s", name);
      CU_FAIL("an exported symbol is not in a public header");
    }
  }
  CU_ASSERT_EQUAL(pclose(f), 0);
  for (int i = 0; i < declared.n; ++i)
    if (!set_has(&exported, declared.names[i])) {
      printf("\n  declared MBDAE_EXPORT but not exported: %s", declared.names[i]);
      CU_FAIL("a public declaration is not exported");
    }
  CU_ASSERT(set_has(&exported, "mbdae_run"));
  CU_ASSERT(set_has(&exported, "mbdae_problem_create"));
  CU_ASSERT(!set_has(&exported, "ball_rhs"));
  set_free(&declared);
  set_free(&exported);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"libmbdae.so exports exactly the MBDAE_EXPORT declarations, all mbdae_*",
     test_exports_match_headers},
    {NULL, NULL}};
  return mbdae_test_main("exports", tests);
}
