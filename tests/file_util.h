/* file_util.h - small file utilities for the driver tests (header-only). */
#ifndef MBDAE_TEST_FILE_UTIL_H
#define MBDAE_TEST_FILE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The whole file as a malloc'd string, or NULL. */
static char *slurp(const char *dir, const char *name) {
  char path[8200];
  if (name) snprintf(path, sizeof path, "%.4000s/%.4000s", dir, name);
  else snprintf(path, sizeof path, "%s", dir);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (cap - n < 2) {
      char *b = realloc(buf, cap * 2);
      if (!b) { free(buf); buf = NULL; break; }
      buf = b;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  return buf;
}

static int path_exists(const char *dir, const char *name) {
  char path[8200];
  struct stat st;
  if (name) snprintf(path, sizeof path, "%.4000s/%.4000s", dir, name);
  else snprintf(path, sizeof path, "%s", dir);
  return stat(path, &st) == 0;
}

/* CSV check: every line ends with '\n' and has ncols fields (no quoting in
 * numeric files); returns the number of data lines, -1 if malformed. */
static long csv_check(const char *text, int ncols) {
  long lines = 0;
  const char *p = text;
  if (!*p) return -1;
  while (*p) {
    const char *nl = strchr(p, '\n');
    if (!nl) return -1; /* an incomplete last line */
    int fields = 1;
    for (const char *q = p; q < nl; ++q) fields += *q == ',';
    if (fields != ncols) return -1;
    ++lines;
    p = nl + 1;
  }
  return lines - 1;
}

#endif
