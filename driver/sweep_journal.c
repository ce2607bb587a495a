/* sweep_journal.c - the journal of a sweep's finished runs (doc/sweep.md,
 * "Interrupted sweeps"): DIR/journal/rank_<R>.csv, one whole line per run
 * written and flushed as the run finishes (index, varied values, status,
 * outcomes at full precision), so that a killed rank, or a killed sweep,
 * loses only the runs in progress; `mbdae sweep STUDY --resume` reads every
 * journal and runs only the runs none holds. The first line carries the
 * study's fingerprint: a journal of another study, or of a study whose
 * runs or base scenario changed since, is refused. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fnv1a.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "sweep.h"
#include "text_input.h"

#define JOURNAL_MAGIC "# mbdae sweep journal"

int mbdae_sweep_fingerprint(const mbdae_sweep_study *st, uint64_t *fp, char *err,
                            size_t errlen) {
  char *base = NULL;
  size_t len = 0;
  int rc = mbdae_text_file_read(st->base_path, &base, &len, err, errlen);
  if (rc) return rc;
  /* what decides the runs' results: the base scenario, the fixed
   * overrides, every run's values and the outcomes kept */
  uint64_t h = mbdae_fnv1a(MBDAE_FNV1A_SEED, base, len);
  free(base);
  for (int k = 0; k < st->nset; ++k) h = mbdae_fnv1a(h, st->set[k], strlen(st->set[k]) + 1);
  for (int a = 0; a < st->naxes; ++a) {
    const mbdae_sweep_axis *ax = &st->axes[a];
    h = mbdae_fnv1a(h, ax->key, strlen(ax->key) + 1);
    h = mbdae_fnv1a(h, &ax->n, sizeof ax->n);
    h = mbdae_fnv1a(h, ax->values, (size_t)ax->n * sizeof *ax->values);
  }
  for (int k = 0; k < st->noutcomes; ++k)
    h = mbdae_fnv1a(h, st->outcomes[k].name, strlen(st->outcomes[k].name) + 1);
  *fp = h;
  return MBDAE_OK;
}

static void journal_dir(const mbdae_sweep_study *st, char *path, size_t n) {
  snprintf(path, n, "%s/journal", st->out_dir);
}

void mbdae_sweep_journal_clear(const mbdae_sweep_study *st) {
  char dir[4200];
  journal_dir(st, dir, sizeof dir);
  mbdae_remove_matching(dir, "rank_*.csv");
  rmdir(dir); /* only if now empty */
}

/* Parse one journal line into run *i and *rec; 0 or -1 (malformed, or the
 * varied values are not those of run *i). */
static int parse_line(const mbdae_sweep_study *st, char *line, long *i,
                      mbdae_sweep_record *rec) {
  char *p = line, *end;
  errno = 0;
  long run = strtol(p, &end, 10);
  if (end == p || errno || run < 0 || run >= st->nruns || *end != ',') return -1;
  int idx[MBDAE_SWEEP_MAX_KEYS];
  mbdae_sweep_run_indices(st, run, idx);
  for (int a = 0; a < st->naxes; ++a) {
    p = end + 1;
    double v = strtod(p, &end);
    /* written with %.17g: read back exactly */
    if (end == p || *end != ',' || v != st->axes[a].values[idx[a]]) return -1;
  }
  p = end + 1;
  long status = strtol(p, &end, 10);
  if (end == p || status < -1000 || status > MBDAE_STOPPED) return -1;
  for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) rec->v[k] = NAN;
  for (int k = 0; k < st->noutcomes; ++k) {
    if (*end != ',') return -1;
    p = end + 1;
    rec->v[k] = strtod(p, &end); /* "nan" for a failed run or an undefined outcome */
    if (end == p) return -1;
  }
  if (*end != '\0') return -1;
  rec->status = (int)status;
  *i = run;
  return 0;
}

/* Read one journal file into recs/done. A last line without its newline
 * (the rank was killed while writing it) is not a record. */
static int read_one(const mbdae_sweep_study *st, const char *path, uint64_t fp,
                    mbdae_sweep_record *recs, unsigned char *done, long *ndone, char *err,
                    size_t errlen) {
  char *text = NULL;
  size_t len = 0;
  char why[512];
  int rc = mbdae_text_file_read(path, &text, &len, why, sizeof why);
  if (rc) {
    snprintf(err, errlen, "%s", why);
    return MBDAE_ERR_IO;
  }
  char want[96];
  snprintf(want, sizeof want, JOURNAL_MAGIC " %016" PRIx64 " ", fp);
  long lineno = 0;
  char *line = text;
  while (line < text + len) {
    char *nl = memchr(line, '\n', (size_t)(text + len - line));
    if (!nl) break; /* torn last line */
    *nl = '\0';
    ++lineno;
    if (lineno == 1) {
      if (strncmp(line, want, strlen(want)) != 0) {
        snprintf(err, errlen, "%s: the journal of another study, or the study or its base "
                 "scenario changed since (remove %s or run without --resume)", path, path);
        free(text);
        return MBDAE_ERR_IO;
      }
    } else if (lineno > 2) { /* line 2: the column names */
      long i;
      mbdae_sweep_record r;
      if (parse_line(st, line, &i, &r)) {
        snprintf(err, errlen, "%s:%ld: not a run of this study", path, lineno);
        free(text);
        return MBDAE_ERR_IO;
      }
      if (!done[i]) ++*ndone;
      done[i] = 1;
      recs[i] = r;
    }
    line = nl + 1;
  }
  free(text);
  return MBDAE_OK;
}

int mbdae_sweep_journal_read(const mbdae_sweep_study *st, mbdae_sweep_record *recs,
                             unsigned char *done, long *ndone, char *err, size_t errlen) {
  *ndone = 0;
  uint64_t fp;
  int rc = mbdae_sweep_fingerprint(st, &fp, err, errlen);
  if (rc) return rc;
  char dir[4200];
  journal_dir(st, dir, sizeof dir);
  DIR *d = opendir(dir);
  if (!d) return MBDAE_OK; /* nothing journaled yet: every run is to do */
  struct dirent *e;
  char path[4600];
  while (!rc && (e = readdir(d)) != NULL) {
    if (fnmatch("rank_*.csv", e->d_name, 0) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    rc = read_one(st, path, fp, recs, done, ndone, err, errlen);
  }
  closedir(d);
  return rc;
}

int mbdae_sweep_journal_open(const mbdae_sweep_study *st, int rank, mbdae_sweep_journal *j,
                             char *err, size_t errlen) {
  memset(j, 0, sizeof *j);
  uint64_t fp;
  int rc = mbdae_sweep_fingerprint(st, &fp, err, errlen);
  if (rc) return rc;
  char dir[4200];
  journal_dir(st, dir, sizeof dir);
  snprintf(j->path, sizeof j->path, "%s/rank_%d.csv", dir, rank);
  if (mbdae_subdir_make(dir)) {
    snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
    return MBDAE_ERR_IO;
  }
  j->f = mbdae_fopen_out(j->path, "a+");
  if (!j->f) {
    snprintf(err, errlen, "cannot write %s: %s", j->path,
             errno == ELOOP ? "a symbolic link (not followed)" : strerror(errno));
    return MBDAE_ERR_IO;
  }
  /* a line torn by a kill is cut off, so the next record starts a line */
  int fd = fileno(j->f);
  struct stat sb;
  off_t keep = 0;
  int bad = fstat(fd, &sb) != 0;
  if (!bad && sb.st_size > 0) {
    char c[4096];
    off_t end = sb.st_size;
    while (end > 0 && !keep && !bad) {
      off_t from = end > (off_t)sizeof c ? end - (off_t)sizeof c : 0;
      bad = pread(fd, c, (size_t)(end - from), from) != end - from;
      for (off_t x = end - from - 1; x >= 0 && !keep && !bad; --x)
        if (c[x] == '\n') keep = from + x + 1;
      end = from;
    }
    if (bad || (keep < sb.st_size && ftruncate(fd, keep) != 0)) {
      snprintf(err, errlen, "cannot truncate %s: %s", j->path, strerror(errno));
      mbdae_sweep_journal_close(j);
      return MBDAE_ERR_IO;
    }
  }
  if (keep == 0) { /* a new journal: fingerprint and column names */
    fprintf(j->f, JOURNAL_MAGIC " %016" PRIx64 " (%ld runs; do not edit)\nrun", fp,
            st->nruns);
    for (int a = 0; a < st->naxes; ++a) fprintf(j->f, ",%s", st->axes[a].key);
    fputs(",status", j->f);
    for (int k = 0; k < st->noutcomes; ++k) fprintf(j->f, ",%s", st->outcomes[k].name);
    fputc('\n', j->f);
  }
  if (fflush(j->f) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", j->path, strerror(errno));
    mbdae_sweep_journal_close(j);
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

int mbdae_sweep_journal_put(mbdae_sweep_journal *j, const mbdae_sweep_study *st, long i,
                            const mbdae_sweep_record *rec) {
  if (!j || !j->f || j->failed) return j && j->failed ? MBDAE_ERR_IO : MBDAE_OK;
  /* the line is built whole and written by one fflush: a kill leaves it
   * whole or torn at the end, never interleaved */
  char line[2048];
  int n = snprintf(line, sizeof line, "%ld", i);
  int idx[MBDAE_SWEEP_MAX_KEYS];
  mbdae_sweep_run_indices(st, i, idx);
  for (int a = 0; a < st->naxes && n > 0 && (size_t)n < sizeof line; ++a)
    n += snprintf(line + n, sizeof line - (size_t)n, ",%.17g", st->axes[a].values[idx[a]]);
  if (n > 0 && (size_t)n < sizeof line)
    n += snprintf(line + n, sizeof line - (size_t)n, ",%d", rec->status);
  for (int k = 0; k < st->noutcomes && n > 0 && (size_t)n < sizeof line; ++k)
    n += snprintf(line + n, sizeof line - (size_t)n, ",%.17g", rec->v[k]);
  if (n > 0 && (size_t)n + 1 < sizeof line) {
    line[n++] = '\n';
    if (fwrite(line, 1, (size_t)n, j->f) == (size_t)n && fflush(j->f) == 0) return MBDAE_OK;
  }
  j->failed = errno ? errno : EIO;
  return MBDAE_ERR_IO;
}

void mbdae_sweep_journal_close(mbdae_sweep_journal *j) {
  if (j->f) fclose(j->f);
  j->f = NULL;
}
