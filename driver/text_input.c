/* text_input.c - whole-file reads and the UTF-8 check of loader input. */
#include "text_input.h"

#include <stdio.h>
#include <stdlib.h>

#include "mbdae/status.h"
#include "utf8_check.h"

int mbdae_text_check(const char *name, const char *text, size_t len, char *err,
                     size_t errlen) {
  size_t bad = mbdae_utf8_check(text, len);
  if (bad == len) return MBDAE_OK;
  int line = 1;
  size_t bol = 0;
  for (size_t i = 0; i < bad; ++i)
    if (text[i] == '\n') ++line, bol = i + 1;
  if (err && errlen)
    snprintf(err, errlen, "%s:%d: not UTF-8 text (%s byte 0x%02x at column %zu)", name, line,
             text[bad] ? "malformed" : "NUL", (unsigned)(unsigned char)text[bad], bad - bol + 1);
  return MBDAE_ERR_SCENARIO;
}

static int fail(char *err, size_t errlen, int rc, const char *path, const char *why) {
  if (err && errlen) snprintf(err, errlen, "%s: %s", path, why);
  return rc;
}

int mbdae_text_file_read(const char *path, char **text, size_t *len, char *err,
                         size_t errlen) {
  enum { MAX_BYTES = 256 << 20 };
  *text = NULL;
  *len = 0;
  FILE *fp = fopen(path, "rb");
  if (!fp) return fail(err, errlen, MBDAE_ERR_IO, path, "cannot read the file");
  size_t n = 0, cap = 0;
  char *buf = NULL;
  int rc = MBDAE_OK;
  for (;;) {
    if (cap - n < 4096) {
      if (cap >= MAX_BYTES) {
        rc = fail(err, errlen, MBDAE_ERR_SCENARIO, path, "larger than 256 MiB");
        break;
      }
      size_t ncap = cap ? 2 * cap : 65536;
      char *b = realloc(buf, ncap + 1);
      if (!b) {
        rc = fail(err, errlen, MBDAE_ERR_MEMORY, path, "out of memory");
        break;
      }
      buf = b, cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, fp);
    n += got;
    if (got == 0) break;
  }
  if (!rc && ferror(fp)) rc = fail(err, errlen, MBDAE_ERR_IO, path, "cannot read the file");
  fclose(fp);
  if (!rc) {
    buf[n] = '\0';
    rc = mbdae_text_check(path, buf, n, err, errlen);
  }
  if (rc) {
    free(buf);
    return rc;
  }
  *text = buf;
  *len = n;
  return MBDAE_OK;
}
