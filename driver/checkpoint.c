/* checkpoint.c - the checkpoint file: one field list (walk) serves both
 * writing and reading, so the two can never disagree on the layout. */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fnv1a.h"
#include "mbdae/status.h"

static const char magic[8] = {'M', 'B', 'D', 'A', 'E', 'C', 'K', '\n'};
enum { FORMAT_VERSION = 1 };

typedef struct ck_io {
  unsigned char *buf;
  size_t size, pos, cap;
  int reading;
  int failed; /* 1 memory, 2 truncated or inconsistent */
} ck_io;

static void raw(ck_io *io, void *p, size_t n) {
  if (io->failed) return;
  if (io->reading) {
    if (n > io->size - io->pos) {
      io->failed = 2;
      return;
    }
    if (n) memcpy(p, io->buf + io->pos, n);
    io->pos += n;
    return;
  }
  if (io->pos + n > io->cap) {
    size_t cap = io->cap ? io->cap : 4096;
    while (cap < io->pos + n) cap *= 2;
    unsigned char *b = realloc(io->buf, cap);
    if (!b) {
      io->failed = 1;
      return;
    }
    io->buf = b;
    io->cap = cap;
  }
  if (n) memcpy(io->buf + io->pos, p, n);
  io->pos += n;
}

/* count elements of elem bytes at p; when reading, p is allocated here.
 * Returns the array (p itself when writing). */
static void *arr(ck_io *io, void *p, size_t elem, size_t count) {
  if (io->failed || count == 0) return p;
  if (io->reading) {
    if (count > (io->size - io->pos) / elem) {
      io->failed = 2;
      return p;
    }
    p = malloc(count * elem);
    if (!p) {
      io->failed = 1;
      return p;
    }
  }
  raw(io, p, count * elem);
  return p;
}

/* a count that sizes a later array: non-negative and bounded when reading */
static void count_int(ck_io *io, int *v, int max) {
  raw(io, v, sizeof *v);
  if (io->reading && !io->failed && (*v < 0 || *v > max)) io->failed = 2;
}

static void string(ck_io *io, char **s) {
  uint64_t n = (!io->reading && *s) ? (uint64_t)strlen(*s) : 0;
  raw(io, &n, sizeof n);
  if (io->failed) return;
  if (io->reading) {
    if (n > io->size - io->pos) {
      io->failed = 2;
      return;
    }
    *s = malloc((size_t)n + 1);
    if (!*s) {
      io->failed = 1;
      return;
    }
    raw(io, *s, (size_t)n);
    (*s)[n] = '\0';
    if (strlen(*s) != (size_t)n) io->failed = 2; /* an embedded NUL */
    return;
  }
  raw(io, *s, (size_t)n);
}

static void walk(ck_io *io, mbdae_checkpoint *cp) {
  /* layout guard: a checkpoint of another build with other type sizes is refused */
  uint32_t sizes[6] = {(uint32_t)sizeof(long), (uint32_t)sizeof(int), (uint32_t)sizeof(double),
                       (uint32_t)sizeof(mbdae_stats), (uint32_t)sizeof(mbdae_root_mask_state),
                       (uint32_t)sizeof(mbdae_run_invariant)};
  uint32_t got[6];
  memcpy(got, sizes, sizeof got);
  raw(io, got, sizeof got);
  if (io->reading && !io->failed && memcmp(got, sizes, sizeof got) != 0) io->failed = 3;

  string(io, &cp->scenario_name);
  /* the name is quoted in one-line messages (file:line: key): a control
   * character in it is a tampered checkpoint, not a path mbdae run wrote */
  if (io->reading && !io->failed)
    for (const unsigned char *c = (const unsigned char *)cp->scenario_name; *c; ++c)
      if (*c < 0x20 || *c == 0x7f) io->failed = 2;
  string(io, &cp->scenario_text);
  count_int(io, &cp->nsets, 1 << 20);
  if (io->reading && !io->failed && cp->nsets > 0) {
    cp->sets = calloc((size_t)cp->nsets, sizeof *cp->sets);
    if (!cp->sets) io->failed = 1;
  }
  for (int i = 0; !io->failed && i < cp->nsets; ++i) string(io, &cp->sets[i]);
  raw(io, &cp->every_t, sizeof cp->every_t);
  raw(io, &cp->plots, sizeof cp->plots);
  raw(io, &cp->every, sizeof cp->every);
  raw(io, &cp->event_rows, sizeof cp->event_rows);

  raw(io, &cp->segment, sizeof cp->segment);
  raw(io, &cp->skip_first, sizeof cp->skip_first);
  raw(io, &cp->t, sizeof cp->t);
  count_int(io, &cp->n, 1 << 28);
  cp->y = arr(io, cp->y, sizeof *cp->y, (size_t)cp->n);
  cp->yp = arr(io, cp->yp, sizeof *cp->yp, (size_t)cp->n);
  uint64_t ms = cp->model_size;
  raw(io, &ms, sizeof ms);
  if (io->reading && !io->failed) {
    if (ms > io->size - io->pos) io->failed = 2;
    else cp->model_size = (size_t)ms;
  }
  cp->model_state = arr(io, cp->model_state, 1, cp->model_size);

  raw(io, &cp->events, sizeof cp->events);
  count_int(io, &cp->window_n, 1 << 28);
  cp->window = arr(io, cp->window, sizeof *cp->window, (size_t)cp->window_n);
  count_int(io, &cp->nroots, 1 << 28);
  cp->masks = arr(io, cp->masks, sizeof *cp->masks, (size_t)cp->nroots);
  raw(io, &cp->grid_t0, sizeof cp->grid_t0);
  raw(io, &cp->stats, sizeof cp->stats);

  raw(io, &cp->samples, sizeof cp->samples);
  raw(io, &cp->rows, sizeof cp->rows);
  raw(io, &cp->grid_k, sizeof cp->grid_k);
  raw(io, &cp->last_t, sizeof cp->last_t);
  raw(io, &cp->last_was_sample, sizeof cp->last_was_sample);
  raw(io, &cp->has_held, sizeof cp->has_held);
  raw(io, &cp->held_t, sizeof cp->held_t);
  count_int(io, &cp->nrow, 1 << 28);
  cp->held = arr(io, cp->held, sizeof *cp->held, (size_t)cp->nrow);
  count_int(io, &cp->ninv, MBDAE_RUN_MAX_INVARIANTS);
  raw(io, cp->inv, sizeof cp->inv);
  raw(io, cp->inv_seg, sizeof cp->inv_seg);

  count_int(io, &cp->nfiles, MBDAE_CHECKPOINT_MAX_FILES);
  raw(io, cp->file_name, sizeof cp->file_name);
  raw(io, cp->file_length, sizeof cp->file_length);
  for (int i = 0; io->reading && !io->failed && i < MBDAE_CHECKPOINT_MAX_FILES; ++i)
    cp->file_name[i][sizeof cp->file_name[i] - 1] = '\0';
  raw(io, &cp->nframes, sizeof cp->nframes);
  if (io->reading && !io->failed && (cp->nframes < 0 || cp->nframes > (1L << 40)))
    io->failed = 2;
  cp->frame_times = arr(io, cp->frame_times, sizeof *cp->frame_times, (size_t)cp->nframes);
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  return mbdae_fnv1a(MBDAE_FNV1A_SEED, p, n);
}

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

int mbdae_checkpoint_write(const char *dir, const mbdae_checkpoint *cp, char *err,
                           size_t errlen) {
  ck_io io;
  memset(&io, 0, sizeof io);
  char m[sizeof magic];
  memcpy(m, magic, sizeof m);
  uint32_t version = FORMAT_VERSION;
  raw(&io, m, sizeof m);
  raw(&io, &version, sizeof version);
  walk(&io, (mbdae_checkpoint *)cp);
  uint64_t sum = io.failed ? 0 : fnv1a(io.buf, io.pos);
  raw(&io, &sum, sizeof sum);
  char *tmp = join(dir, "." MBDAE_CHECKPOINT_FILE ".tmp");
  char *fin = join(dir, MBDAE_CHECKPOINT_FILE);
  int rc = MBDAE_OK, masked = 0;
  sigset_t old;
  if (io.failed || !tmp || !fin) {
    rc = MBDAE_ERR_MEMORY;
    if (err && errlen) snprintf(err, errlen, "out of memory writing the checkpoint");
    goto out;
  }
  /* SIGINT/SIGTERM wait for the rename: a second one (which kills) would
   * otherwise leave the temporary behind (a SIGKILL still can: the next
   * run or resume removes it, mbdae_checkpoint_remove_partial) */
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  masked = pthread_sigmask(SIG_BLOCK, &stop, &old) == 0;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    rc = MBDAE_ERR_IO;
    if (err && errlen) snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    goto out;
  }
  size_t done = 0;
  while (done < io.pos) {
    ssize_t k = write(fd, io.buf + done, io.pos - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    done += (size_t)k;
  }
  int bad = done != io.pos;
  bad |= fsync(fd) != 0;
  bad |= close(fd) != 0;
  if (bad || rename(tmp, fin) != 0) {
    rc = MBDAE_ERR_IO;
    if (err && errlen) snprintf(err, errlen, "cannot write %s: %s", fin, strerror(errno));
    unlink(tmp);
    goto out;
  }
  /* the rename itself on disk */
  int dfd = open(dir, O_RDONLY);
  if (dfd >= 0) {
    (void)fsync(dfd);
    close(dfd);
  }
out:
  if (masked) pthread_sigmask(SIG_SETMASK, &old, NULL);
  free(io.buf);
  free(tmp);
  free(fin);
  return rc;
}

int mbdae_checkpoint_read(const char *dir, mbdae_checkpoint *cp, char *err, size_t errlen) {
  memset(cp, 0, sizeof *cp);
  char *path = join(dir, MBDAE_CHECKPOINT_FILE);
  if (!path) return MBDAE_ERR_MEMORY;
  int rc = MBDAE_OK;
  ck_io io;
  memset(&io, 0, sizeof io);
  io.reading = 1;
  /* O_NONBLOCK: a FIFO planted as checkpoint.bin is refused, not waited on */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (fd >= 0 && !f) close(fd);
  if (!f) {
    rc = errno == ENOENT ? MBDAE_ERR_NOT_FOUND : MBDAE_ERR_IO;
    if (err && errlen)
      snprintf(err, errlen, "%s: %s", path,
               rc == MBDAE_ERR_NOT_FOUND
                   ? "no checkpoint (the run was not started with --checkpoint-every, was "
                     "not interrupted, or finished)"
                   : strerror(errno));
    free(path);
    return rc;
  }
  struct stat st;
  const char *why = NULL;
  if (fstat(fileno(f), &st) != 0 || st.st_size < 0) {
    rc = MBDAE_ERR_IO;
  } else if (!S_ISREG(st.st_mode)) {
    rc = MBDAE_ERR_IO;
    why = "not a regular file";
  } else if ((uint64_t)st.st_size > MBDAE_CHECKPOINT_MAX_BYTES) {
    rc = MBDAE_ERR_IO;
    why = "larger than 1 GiB: not a checkpoint of this program";
  } else {
    io.size = (size_t)st.st_size;
    io.buf = malloc(io.size ? io.size : 1);
    if (!io.buf) rc = MBDAE_ERR_MEMORY;
    else if (fread(io.buf, 1, io.size, f) != io.size) rc = MBDAE_ERR_IO;
  }
  fclose(f);
  uint64_t sum = 0;
  if (rc == MBDAE_OK) {
    if (io.size < sizeof magic + sizeof(uint32_t) + sizeof sum ||
        memcmp(io.buf, magic, sizeof magic) != 0) {
      why = "not an mbdae checkpoint";
    } else {
      uint32_t version;
      memcpy(&version, io.buf + sizeof magic, sizeof version);
      memcpy(&sum, io.buf + io.size - sizeof sum, sizeof sum);
      if (version != FORMAT_VERSION) why = "written by another format version";
      else if (fnv1a(io.buf, io.size - sizeof sum) != sum)
        why = "corrupt (checksum mismatch)";
    }
  }
  if (rc == MBDAE_OK && !why) {
    io.pos = sizeof magic + sizeof(uint32_t);
    io.size -= sizeof sum;
    walk(&io, cp);
    if (io.failed == 1) rc = MBDAE_ERR_MEMORY;
    else if (io.failed == 3) why = "written by a build with another data layout";
    else if (io.failed || io.pos != io.size) why = "corrupt (inconsistent contents)";
  }
  if (rc == MBDAE_OK && why) rc = MBDAE_ERR_IO;
  if (rc != MBDAE_OK) {
    if (err && errlen)
      snprintf(err, errlen, "%s: %s", path,
               why ? why : rc == MBDAE_ERR_MEMORY ? "out of memory" : "cannot read");
    mbdae_checkpoint_free(cp);
  }
  free(io.buf);
  free(path);
  return rc;
}

/* ---- validation: a checkpoint is trusted only past its checksum --------- */

static int all_finite(const double *v, long n) {
  for (long i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

int mbdae_checkpoint_validate(const mbdae_checkpoint *cp, const mbdae_options *o, char *err,
                              size_t errlen) {
#define BAD(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); \
                      return MBDAE_ERR_IO; } while (0)
  const double span = o->t_end - o->t0;
  const double nint = span / o->dt_out + 2.0; /* output intervals, bounded by the engine */
  if (!(isfinite(cp->t) && cp->t >= o->t0 && cp->t <= o->t_end))
    BAD("time %g outside [t0, t_end] = [%g, %g]", cp->t, o->t0, o->t_end);
  if (!(cp->every_t >= 0.0 && isfinite(cp->every_t))) BAD("bad --checkpoint-every %g", cp->every_t);
  if (cp->segment < 0 || (double)cp->segment > nint) BAD("segment %ld out of range", cp->segment);
  if ((cp->skip_first | 1) != 1 || (cp->plots | 1) != 1 || (cp->event_rows | 1) != 1 ||
      cp->every < 1 || (cp->last_was_sample | 1) != 1 || (cp->has_held | 1) != 1)
    BAD("a flag or count out of range");
  if (!all_finite(cp->y, cp->n) || !all_finite(cp->yp, cp->n)) BAD("a non-finite state");
  if (cp->events < 0 || cp->samples < 0 || cp->rows < 0 || cp->grid_k < 0 ||
      (double)cp->grid_k > nint + (double)cp->events + 1.0)
    BAD("a negative or impossible event or row count");
  if (cp->grid_t0 != o->t0) BAD("output grid origin %g, not t0 = %g", cp->grid_t0, o->t0);
  for (int i = 0; i < cp->window_n; ++i)
    if (!(isfinite(cp->window[i]) && cp->window[i] <= cp->t)) BAD("a bad Zeno window time");
  for (int i = 0; i < cp->nroots; ++i) {
    const mbdae_root_mask_state *m = &cp->masks[i];
    if ((m->active | 1) != 1 || m->dir < -1 || m->dir > 1 || !(m->band >= 0.0) ||
        !isfinite(m->band) || m->refires < 0)
      BAD("a bad root mask (root %d)", i);
  }
  const mbdae_stats *st = &cp->stats;
  if (st->steps < 0 || st->rhs_evals < 0 || st->jac_evals < 0 || st->lin_setups < 0 ||
      st->newton_iters < 0 || st->newton_fails < 0 || st->err_test_fails < 0 ||
      st->root_evals < 0 || st->events < 0 || st->calcic_fallbacks < 0)
    BAD("negative statistics");
  if (!isfinite(cp->last_t) || !isfinite(cp->held_t) || !all_finite(cp->held, cp->nrow))
    BAD("a non-finite held row");
  for (int i = 0; i < cp->ninv; ++i) {
    const mbdae_run_invariant *v = &cp->inv[i];
    double x[5] = {v->start, v->end, v->max_drift, v->max_flow_drift, cp->inv_seg[i]};
    if (!all_finite(x, 5) || memchr(v->name, '\0', sizeof v->name) == NULL)
      BAD("a bad invariant record");
  }
  for (int i = 0; i < cp->nfiles; ++i)
    if (cp->file_length[i] < 0 || strchr(cp->file_name[i], '/') || !cp->file_name[i][0])
      BAD("a bad output file record");
  for (long i = 0; i < cp->nframes; ++i)
    if (!(isfinite(cp->frame_times[i]) && cp->frame_times[i] <= cp->t &&
          (i == 0 || cp->frame_times[i] > cp->frame_times[i - 1])))
      BAD("bad VTK frame times");
#undef BAD
  return MBDAE_OK;
}

void mbdae_checkpoint_remove_partial(const char *dir) {
  char *path = join(dir, "." MBDAE_CHECKPOINT_FILE ".tmp");
  if (path) unlink(path);
  free(path);
}

void mbdae_checkpoint_remove(const char *dir) {
  char *path = join(dir, MBDAE_CHECKPOINT_FILE);
  if (path) unlink(path);
  free(path);
}

void mbdae_checkpoint_free(mbdae_checkpoint *cp) {
  if (!cp) return;
  free(cp->scenario_name);
  free(cp->scenario_text);
  for (int i = 0; cp->sets && i < cp->nsets; ++i) free(cp->sets[i]);
  free(cp->sets);
  free(cp->y);
  free(cp->yp);
  free(cp->model_state);
  free(cp->window);
  free(cp->masks);
  free(cp->held);
  free(cp->frame_times);
  memset(cp, 0, sizeof *cp);
}
