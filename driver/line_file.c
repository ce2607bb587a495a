/* line_file.c - rows built in memory, written whole (see line_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "line_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "mbdae/status.h"
#include "output_dir.h"

enum { STDIO_BUFFER = 1 << 16 };

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* length < 0: create (truncate) the file; else keep its first length bytes
 * and append (resume from a checkpoint). */
static int open_at(mbdae_line_file *lf, const char *dir, const char *name, long long length,
                   char *err, size_t errlen) {
  memset(lf, 0, sizeof *lf);
  size_t n = strlen(dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (!path) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return MBDAE_ERR_MEMORY;
  }
  snprintf(path, n, "%s/%s", dir, name);
  /* never through a planted symbolic link (mbdae_fopen_out) */
  /* readable: a failed write is cut back to its last whole row (pread) */
  lf->f = mbdae_fopen_out(path, length >= 0 ? "a+" : "w+");
  if (!lf->f) {
    if (err && errlen)
      snprintf(err, errlen, "cannot %s %s: %s", length >= 0 ? "resume" : "write", path,
               errno == ELOOP ? "a symbolic link (not followed)" : strerror(errno));
    free(path);
    return MBDAE_ERR_IO;
  }
  if (length >= 0) { /* cut back to the checkpoint's length, on this descriptor */
    struct stat st;
    int bad = fstat(fileno(lf->f), &st) != 0 || (long long)st.st_size < length;
    if (bad && err && errlen)
      snprintf(err, errlen, "cannot resume %s: shorter than at the checkpoint (%lld bytes)",
               path, length);
    if (!bad && ftruncate(fileno(lf->f), (off_t)length) != 0) {
      bad = 1;
      if (err && errlen) snprintf(err, errlen, "cannot truncate %s: %s", path, strerror(errno));
    }
    if (bad) {
      fclose(lf->f);
      memset(lf, 0, sizeof *lf);
      free(path);
      return MBDAE_ERR_IO;
    }
    lf->committed = length;
  }
  free(path);
  lf->iobuf = malloc(STDIO_BUFFER);
  if (!lf->iobuf || setvbuf(lf->f, lf->iobuf, _IOFBF, STDIO_BUFFER) != 0) {
    fclose(lf->f);
    free(lf->iobuf);
    memset(lf, 0, sizeof *lf);
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return MBDAE_ERR_MEMORY;
  }
  lf->last_flush = now();
  return MBDAE_OK;
}

int mbdae_line_file_open(mbdae_line_file *lf, const char *dir, const char *name,
                         char *err, size_t errlen) {
  return open_at(lf, dir, name, -1, err, errlen);
}

int mbdae_line_file_reopen(mbdae_line_file *lf, const char *dir, const char *name,
                           long long length, char *err, size_t errlen) {
  if (length < 0) {
    if (err && errlen) snprintf(err, errlen, "negative length for %s/%s", dir, name);
    return MBDAE_ERR_ARGUMENT;
  }
  errno = 0;
  return open_at(lf, dir, name, length, err, errlen);
}

int mbdae_line_file_sync(mbdae_line_file *lf, long long *length) {
  if (mbdae_line_file_flush(lf)) return MBDAE_ERR_IO;
  if (fsync(fileno(lf->f)) != 0) return MBDAE_ERR_IO;
  off_t pos = lseek(fileno(lf->f), 0, SEEK_END);
  if (pos < 0) return MBDAE_ERR_IO;
  *length = (long long)pos;
  return MBDAE_OK;
}

static int reserve(mbdae_line_file *lf, size_t extra) {
  if (lf->n + extra + 1 <= lf->cap) return 0;
  size_t cap = lf->cap ? lf->cap : 256;
  while (cap < lf->n + extra + 1) cap *= 2;
  char *p = realloc(lf->line, cap);
  if (!p) {
    lf->failed = 1;
    return -1;
  }
  lf->line = p;
  lf->cap = cap;
  return 0;
}

void mbdae_line_file_puts(mbdae_line_file *lf, const char *s) {
  size_t k = strlen(s);
  if (reserve(lf, k)) return;
  memcpy(lf->line + lf->n, s, k + 1);
  lf->n += k;
}

void mbdae_line_file_printf(mbdae_line_file *lf, const char *fmt, ...) {
  char small[128];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (k < 0) {
    lf->failed = 1;
    return;
  }
  if ((size_t)k < sizeof small) {
    mbdae_line_file_puts(lf, small);
    return;
  }
  if (reserve(lf, (size_t)k)) return;
  va_start(ap, fmt);
  vsnprintf(lf->line + lf->n, (size_t)k + 1, fmt, ap);
  va_end(ap);
  lf->n += (size_t)k;
}

void mbdae_line_file_csv_field(mbdae_line_file *lf, const char *s) {
  if (!s) s = "";
  if (!strpbrk(s, ",\"\n\r")) {
    mbdae_line_file_puts(lf, s);
    return;
  }
  if (reserve(lf, 2 * strlen(s) + 2)) return;
  lf->line[lf->n++] = '"';
  for (; *s; ++s) {
    if (*s == '"') lf->line[lf->n++] = '"';
    lf->line[lf->n++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
  }
  lf->line[lf->n++] = '"';
  lf->line[lf->n] = '\0';
}

void mbdae_line_file_csv_number(mbdae_line_file *lf, double v) {
  mbdae_line_file_printf(lf, "%.15g", v);
}

void mbdae_line_file_csv_header(mbdae_line_file *lf, const char *name, const char *unit) {
  char buf[160];
  if (unit && *unit) snprintf(buf, sizeof buf, "%s [%s]", name, unit);
  else snprintf(buf, sizeof buf, "%s", name);
  mbdae_line_file_csv_field(lf, buf);
}

/* A write that failed (disk full, EFBIG) may have put part of a row in the
 * file: cut it back to the last whole row, so what was written stays valid,
 * and keep the errno for the message. */
static void write_failed(mbdae_line_file *lf) {
  int e = errno;
  if (!lf->failed) {
    lf->errnum = e;
    /* keep every whole row that reached the file: cut after its last '\n'
     * (rows flushed before are whole: never before `committed`) */
    int fd = fileno(lf->f);
    struct stat st;
    off_t end = fstat(fd, &st) == 0 ? st.st_size : (off_t)lf->committed, keep = lf->committed;
    char buf[4096];
    while (end > keep) {
      off_t from = end - (off_t)sizeof buf > keep ? end - (off_t)sizeof buf : keep;
      ssize_t k = pread(fd, buf, (size_t)(end - from), from);
      if (k <= 0) break;
      const char *nl = NULL;
      for (ssize_t i = k - 1; i >= 0 && !nl; --i)
        if (buf[i] == '\n') nl = buf + i;
      if (nl) {
        keep = from + (off_t)(nl - buf) + 1;
        break;
      }
      end = from;
    }
    if (ftruncate(fd, keep) != 0) { /* nothing more can be done */ }
  }
  lf->failed = 1;
  errno = e;
}

int mbdae_line_file_flush(mbdae_line_file *lf) {
  if (!lf->f) return MBDAE_ERR_IO;
  if (!lf->failed) {
    if (fflush(lf->f) != 0) write_failed(lf);
    else lf->committed += (long long)lf->pending;
  }
  lf->pending = 0;
  lf->last_flush = now();
  return lf->failed ? MBDAE_ERR_IO : MBDAE_OK;
}

int mbdae_line_file_end_line(mbdae_line_file *lf) {
  if (!lf->f) return MBDAE_ERR_IO;
  mbdae_line_file_puts(lf, "\n");
  if (lf->failed) {
    lf->n = 0;
    return MBDAE_ERR_IO;
  }
  /* stdio must never hold part of a row when it writes its buffer out */
  if (lf->pending + lf->n > STDIO_BUFFER) mbdae_line_file_flush(lf);
  if (fwrite(lf->line, 1, lf->n, lf->f) != lf->n) write_failed(lf);
  lf->pending += lf->n;
  lf->n = 0;
  if (lf->pending >= STDIO_BUFFER || now() - lf->last_flush > 1.0) mbdae_line_file_flush(lf);
  return lf->failed ? MBDAE_ERR_IO : MBDAE_OK;
}

int mbdae_line_file_close(mbdae_line_file *lf) {
  int rc = MBDAE_OK;
  if (lf->f) {
    if (!lf->failed && (fflush(lf->f) != 0 || ferror(lf->f))) write_failed(lf);
    if (fclose(lf->f) != 0 && !lf->failed) lf->errnum = errno, lf->failed = 1;
  }
  if (lf->failed) rc = MBDAE_ERR_IO;
  int e = lf->errnum;
  free(lf->iobuf); /* after fclose: stdio used it until then */
  free(lf->line);
  memset(lf, 0, sizeof *lf);
  errno = e;
  return rc;
}
