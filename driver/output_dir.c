/* output_dir.c - mkdir -p for output directories, and opening a file of a
 * run inside one. */
#define _POSIX_C_SOURCE 200809L
#include "output_dir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "mbdae/status.h"
#include "writer.h"

static int make_one(const char *path) {
  if (mkdir(path, 0777) == 0) return 0;
  if (errno == EEXIST) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    errno = ENOTDIR;
  }
  return -1;
}

int mbdae_mkdir_p(const char *dir, char *err, size_t errlen) {
  if (!dir || !*dir) {
    if (err && errlen) snprintf(err, errlen, "empty output directory name");
    return MBDAE_ERR_IO;
  }
  size_t n = strlen(dir);
  char *p = malloc(n + 1);
  if (!p) return MBDAE_ERR_MEMORY;
  memcpy(p, dir, n + 1);
  int rc = 0;
  for (char *c = p + 1; *c && !rc; ++c)
    if (*c == '/') {
      *c = '\0';
      rc = make_one(p);
      *c = '/';
    }
  if (!rc) rc = make_one(p);
  if (rc && err && errlen)
    snprintf(err, errlen, "cannot create output directory %s: %s", dir, strerror(errno));
  free(p);
  return rc ? MBDAE_ERR_IO : MBDAE_OK;
}

FILE *mbdae_output_open(const mbdae_output_ctx *c, const char *name, char *err,
                        size_t errlen) {
  size_t n = strlen(c->dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (!path) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return NULL;
  }
  snprintf(path, n, "%s/%s", c->dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  }
  free(path);
  return f;
}

int mbdae_commit_file(char *tmp, char *fin, int ok, char *err, size_t errlen) {
  int rc = MBDAE_OK;
  if (!ok || rename(tmp, fin) != 0) {
    remove(tmp);
    if (err && errlen) snprintf(err, errlen, "cannot write %s", fin);
    rc = MBDAE_ERR_IO;
  }
  free(tmp);
  free(fin);
  return rc;
}
