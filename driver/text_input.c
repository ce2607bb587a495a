/* text_input.c - whole-file reads and the UTF-8 check of loader input. */
#define _POSIX_C_SOURCE 200809L
#include "text_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
  *text = NULL;
  *len = 0;
  char why[160];
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
   * below like any file that is not regular (/dev/zero, /dev/urandom would
   * otherwise be read until memory runs out) */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, sizeof why, "cannot open: %s", strerror(errno));
    return fail(err, errlen, MBDAE_ERR_IO, path, why);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return fail(err, errlen, MBDAE_ERR_IO, path,
                S_ISDIR(st.st_mode) ? "cannot open: is a directory"
                                    : "cannot open: not a regular file (a device, FIFO or "
                                      "socket is not read)");
  }
  if (st.st_size > (off_t)MBDAE_TEXT_MAX_BYTES) {
    close(fd);
    snprintf(why, sizeof why, "larger than 256 MiB (%lld bytes)", (long long)st.st_size);
    return fail(err, errlen, MBDAE_ERR_SCENARIO, path, why);
  }
  /* the size from fstat, and one byte more to notice a file still growing */
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap + 1);
  int rc = buf ? MBDAE_OK : fail(err, errlen, MBDAE_ERR_MEMORY, path, "out of memory");
  while (!rc) {
    if (n == cap) {
      if (cap > MBDAE_TEXT_MAX_BYTES) {
        rc = fail(err, errlen, MBDAE_ERR_SCENARIO, path, "larger than 256 MiB (still growing)");
        break;
      }
      size_t ncap = cap * 2 > MBDAE_TEXT_MAX_BYTES + 1 ? MBDAE_TEXT_MAX_BYTES + 1 : cap * 2;
      char *b = realloc(buf, ncap + 1);
      if (!b) {
        rc = fail(err, errlen, MBDAE_ERR_MEMORY, path, "out of memory");
        break;
      }
      buf = b, cap = ncap;
    }
    ssize_t got = read(fd, buf + n, cap - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      snprintf(why, sizeof why, "cannot read the file: %s", strerror(errno));
      rc = fail(err, errlen, MBDAE_ERR_IO, path, why);
    }
    if (got <= 0) break;
    n += (size_t)got;
  }
  close(fd);
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
