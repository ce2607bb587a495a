/* writer_mat.c - results.mat for MATLAB/Octave (libmatio): the series, the
 * events, the scenario's parameters and solver options, the solver
 * statistics, invariants and outcomes, each under a self-explaining name:
 *
 *   model, scenario, description     char
 *   run                              struct: status, status_code, message,
 *                                    final_mode, samples, rows, events
 *   series, series_units             struct: one field per series.csv column
 *                                    (N x 1 double / unit text)
 *   series_columns                   cell: the columns' original names, in order
 *   row_kind                         N x 1 double: 0 sample, 1 pre-event, 2
 *                                    post-event (series.csv's row_kind column)
 *   row_kind_names                   cell: 'sample', 'pre-event', 'post-event'
 *   events, events_units             struct: one field per events.csv column
 *                                    (numbers N x 1 double, text N x 1 cell)
 *   parameters, parameter_units      struct: the model's schema keys
 *   solver, stats                    struct: solver options / statistics
 *   invariants                       struct of struct(start, end, max_drift,
 *                                    max_flow_drift)
 *   outcomes, outcome_units          struct
 *
 * Field names are the original names made valid MATLAB identifiers (letters,
 * digits, '_', a letter first, at most 63 characters, unique: "_2", "_3"...).
 * Samples and events are kept in memory (and appended to a part file at
 * checkpoints, for `mbdae resume`); finish() (called for failed runs too)
 * writes the file under a temporary name and renames it, so the directory
 * holds either a complete results.mat or none. Format MAT5,
 * uncompressed: MATLAB, Octave and scipy.io.loadmat read all of it (Octave
 * 7.3 rejects the zlib-compressed cells and structs with text libmatio
 * 1.5.23 writes, and reads no cell arrays from its MAT 7.3 files). MAT 7.3
 * (HDF5; MATLAB, h5py) only when the series is too large for MAT5's 32-bit
 * element sizes. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <matio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mbdae/problem.h"
#include "mbdae/status.h"
#include "solver_schema.h"
#include "output_dir.h"
#include "writer.h"
#include "writer_events_columns.h"

enum { IDENT_MAX = 63 }; /* MATLAB's namelengthmax */

/* MAT5 element sizes are 32-bit: beyond this many series bytes, MAT 7.3. */
#define MAT5_SERIES_LIMIT ((size_t)1 << 31)

typedef struct mat_state {
  int ncols;        /* series columns + 1: the row kind last */
  double *rows;     /* series, row-major nrows x ncols */
  size_t nrows, cap_rows;
  int nevc;         /* events.csv columns */
  double *evnum;    /* events, row-major nev x nevc (NaN: text or absent) */
  char **evtext;    /* events, row-major nev x nevc (NULL: a number) */
  size_t nev, cap_ev;
  char *part;       /* DIR/.results.mat.part: the buffer at checkpoints */
  FILE *spill;      /* open once a checkpoint wrote it */
  size_t spilled_rows, spilled_ev; /* already in the part file */
} mat_state;

/* ---- growable arrays ------------------------------------------------------ */

/* Make room for need elements of size el in *p (capacity *cap, doubled). */
static int grow(void **p, size_t *cap, size_t need, size_t el) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 64;
  while (c < need) {
    if (c > SIZE_MAX / 2) return -1;
    c *= 2;
  }
  if (c > SIZE_MAX / el) return -1;
  void *q = realloc(*p, c * el);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

static char *dup_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* ---- writer ops ------------------------------------------------------------ */

static mat_state *state_new(const mbdae_output_ctx *c) {
  mat_state *m = calloc(1, sizeof *m);
  size_t n = strlen(c->dir) + 32;
  char *part = malloc(n);
  if (!m || !part) {
    free(m);
    free(part);
    return NULL;
  }
  snprintf(part, n, "%s/.results.mat.part", c->dir);
  m->part = part;
  m->ncols = c->ncols + 1;
  m->nevc = mbdae_events_ncolumns(c);
  return m;
}

static int mat_open(const mbdae_output_ctx *c, void **state, char *err, size_t errlen) {
  (void)err, (void)errlen;
  mat_state *m = state_new(c);
  if (!m) return MBDAE_ERR_MEMORY;
  remove(m->part); /* a stale one from an earlier run */
  *state = m;
  return MBDAE_OK;
}

/* One series row: from the run (c set: its values, then c->row_kind), or a
 * stored one (c NULL: ncols values, the kind included). */
static int mat_sample(void *state, const mbdae_output_ctx *c, const double *row) {
  mat_state *m = state;
  size_t nc = (size_t)m->ncols, cap = m->cap_rows * nc;
  if (nc && m->nrows + 1 > SIZE_MAX / nc) return MBDAE_ERR_MEMORY;
  void *p = m->rows;
  if (grow(&p, &cap, (m->nrows + 1) * nc, sizeof *m->rows)) return MBDAE_ERR_MEMORY;
  m->rows = p;
  if (nc) m->cap_rows = cap / nc;
  if (c) {
    memcpy(m->rows + m->nrows * nc, row, (nc - 1) * sizeof *row);
    m->rows[m->nrows * nc + nc - 1] = (double)c->row_kind;
  } else {
    memcpy(m->rows + m->nrows * nc, row, nc * sizeof *row);
  }
  m->nrows++;
  return MBDAE_OK;
}

static const char *action_name(int a) {
  switch (a) {
  case MBDAE_EVENT_CONTINUE: return "continue";
  case MBDAE_EVENT_STOP: return "stop";
  case MBDAE_EVENT_NOCHANGE: return "nochange";
  }
  return "?";
}

/* The fired roots as in events.csv: "0+;2-". */
static char *roots_text(const mbdae_event_record *ev) {
  size_t n = 1;
  for (int i = 0; ev->dirs && i < ev->nroots; ++i)
    if (ev->dirs[i]) n += 16;
  char *s = malloc(n);
  if (!s) return NULL;
  size_t k = 0;
  s[0] = '\0';
  for (int i = 0; ev->dirs && i < ev->nroots; ++i)
    if (ev->dirs[i])
      k += (size_t)snprintf(s + k, n - k, "%s%d%c", k ? ";" : "", i, ev->dirs[i] > 0 ? '+' : '-');
  return s;
}

/* A new event row (numbers NaN, texts NULL), owned by the state. */
static int event_row(mat_state *m, double **num, char ***txt) {
  size_t nc = (size_t)m->nevc;
  size_t capn = m->cap_ev * nc, capt = m->cap_ev * nc;
  void *pn = m->evnum, *pt = m->evtext;
  if (m->nev + 1 > SIZE_MAX / nc) return MBDAE_ERR_MEMORY;
  int bad = grow(&pn, &capn, (m->nev + 1) * nc, sizeof *m->evnum);
  m->evnum = pn;
  bad = bad || grow(&pt, &capt, (m->nev + 1) * nc, sizeof *m->evtext);
  m->evtext = pt;
  if (bad) return MBDAE_ERR_MEMORY;
  m->cap_ev = (capn < capt ? capn : capt) / nc;
  *num = m->evnum + m->nev * nc;
  *txt = m->evtext + m->nev * nc;
  for (size_t i = 0; i < nc; ++i) {
    (*num)[i] = NAN;
    (*txt)[i] = NULL;
  }
  m->nev++;
  return MBDAE_OK;
}

static int mat_event(void *state, const mbdae_output_ctx *c, const mbdae_event_record *ev) {
  mat_state *m = state;
  double *num;
  char **txt;
  if (event_row(m, &num, &txt)) return MBDAE_ERR_MEMORY;
  num[0] = (double)ev->index;
  num[1] = ev->t;
  txt[2] = dup_text(ev->label ? ev->label : "root");
  txt[3] = dup_text(ev->mode_before ? ev->mode_before : "-");
  txt[4] = dup_text(ev->mode_after ? ev->mode_after : "-");
  txt[5] = roots_text(ev);
  txt[6] = dup_text(action_name(ev->action));
  for (int i = 2; i < MBDAE_EVENTS_FIXED_COLUMNS; ++i)
    if (!txt[i]) return MBDAE_ERR_MEMORY;
  double *v = num + MBDAE_EVENTS_FIXED_COLUMNS;
  for (int i = 0; i < c->ninv; ++i) {
    if (ev->inv_before && i < ev->ninv) v[2 * i] = ev->inv_before[i];
    if (ev->inv_after && i < ev->ninv) v[2 * i + 1] = ev->inv_after[i];
  }
  v += 2 * c->ninv;
  for (int i = 0; i < c->nevcols; ++i)
    if (ev->data && i < ev->ndata) v[i] = ev->data[i];
  return MBDAE_OK;
}

static void mat_close(void *state) {
  mat_state *m = state;
  if (!m) return;
  for (size_t i = 0; m->evtext && i < m->nev * (size_t)m->nevc; ++i) free(m->evtext[i]);
  if (m->spill) fclose(m->spill);
  free(m->part);
  free(m->evtext);
  free(m->evnum);
  free(m->rows);
  free(m);
}

/* ---- checkpoints: the buffer on disk ---------------------------------------
 * At a checkpoint (sync) the samples and events buffered since the previous
 * one are appended to DIR/.results.mat.part and fsync'ed; `mbdae resume`
 * (reopen) reads its first `length` bytes back, cuts the rest and goes on.
 * Records, native byte order (a checkpoint is for the same binary):
 *   'S', ncols doubles                         a series row (its kind last)
 *   'E', nevc doubles, nevc x (uint32 n, text)  an event (n = UINT32_MAX: no text)
 * The part file goes when results.mat is complete and the run finished. */

static int mat_sync(void *state, long long *length) {
  mat_state *m = state;
  if (!m->spill && !(m->spill = mbdae_fopen_out(m->part, "wb"))) return MBDAE_ERR_IO;
  FILE *f = m->spill;
  size_t nc = (size_t)m->ncols, ne = (size_t)m->nevc;
  for (; m->spilled_rows < m->nrows; ++m->spilled_rows) {
    fputc('S', f);
    if (nc) fwrite(m->rows + m->spilled_rows * nc, sizeof *m->rows, nc, f);
  }
  for (; m->spilled_ev < m->nev; ++m->spilled_ev) {
    fputc('E', f);
    fwrite(m->evnum + m->spilled_ev * ne, sizeof *m->evnum, ne, f);
    for (size_t j = 0; j < ne; ++j) {
      const char *t = m->evtext[m->spilled_ev * ne + j];
      uint32_t n = t ? (uint32_t)strlen(t) : UINT32_MAX;
      fwrite(&n, sizeof n, 1, f);
      if (t) fwrite(t, 1, n, f);
    }
  }
  if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) return MBDAE_ERR_IO;
  long pos = ftell(f);
  if (pos < 0) return MBDAE_ERR_IO;
  *length = pos;
  return MBDAE_OK;
}

/* Take n bytes at *pos of buf (len bytes) into dst; -1 past the end. */
static int take(const unsigned char *buf, size_t len, size_t *pos, void *dst, size_t n) {
  if (n > len - *pos) return -1;
  memcpy(dst, buf + *pos, n);
  *pos += n;
  return 0;
}

/* The records of buf back into the state. */
static int parse_part(mat_state *m, const unsigned char *buf, size_t len) {
  size_t nc = (size_t)m->ncols, ne = (size_t)m->nevc, pos = 0;
  double *row = malloc((nc > ne ? nc : ne) * sizeof *row + 1);
  int rc = row ? MBDAE_OK : MBDAE_ERR_MEMORY;
  while (!rc && pos < len) {
    unsigned char type = buf[pos++];
    if (type == 'S') {
      rc = take(buf, len, &pos, row, nc * sizeof *row) ? MBDAE_ERR_IO
                                                       : mat_sample(m, NULL, row);
    } else if (type == 'E') {
      double *num;
      char **txt;
      if (take(buf, len, &pos, row, ne * sizeof *row)) rc = MBDAE_ERR_IO;
      else rc = event_row(m, &num, &txt);
      if (!rc) memcpy(num, row, ne * sizeof *row);
      for (size_t j = 0; !rc && j < ne; ++j) {
        uint32_t n;
        if (take(buf, len, &pos, &n, sizeof n)) rc = MBDAE_ERR_IO;
        else if (n == UINT32_MAX) continue;
        else if (n > len - pos) rc = MBDAE_ERR_IO;
        else if (!(txt[j] = malloc((size_t)n + 1))) rc = MBDAE_ERR_MEMORY;
        else {
          memcpy(txt[j], buf + pos, n);
          txt[j][n] = '\0';
          pos += n;
        }
      }
    } else {
      rc = MBDAE_ERR_IO;
    }
  }
  free(row);
  return rc;
}

static int mat_reopen(const mbdae_output_ctx *c, void **state, long long length, char *err,
                      size_t errlen) {
  mat_state *m = state_new(c);
  if (!m) return MBDAE_ERR_MEMORY;
  FILE *f = length >= 0 ? mbdae_fopen_out(m->part, "r+b") : NULL;
  unsigned char *buf = f ? malloc((size_t)length + 1) : NULL;
  int rc = !f ? MBDAE_ERR_IO : !buf ? MBDAE_ERR_MEMORY : MBDAE_OK;
  if (!rc && fread(buf, 1, (size_t)length, f) != (size_t)length) rc = MBDAE_ERR_IO;
  if (!rc) rc = parse_part(m, buf, (size_t)length);
  if (!rc && (fflush(f) != 0 || ftruncate(fileno(f), (off_t)length) != 0 ||
              fseek(f, 0, SEEK_END) != 0))
    rc = MBDAE_ERR_IO;
  free(buf);
  if (rc) {
    if (err && errlen)
      snprintf(err, errlen, "%s is missing, shorter than recorded or corrupt", m->part);
    if (f) fclose(f);
    mat_close(m);
    return rc;
  }
  m->spill = f;
  m->spilled_rows = m->nrows;
  m->spilled_ev = m->nev;
  *state = m;
  return MBDAE_OK;
}

/* ---- names ----------------------------------------------------------------- */

/* A set of unique MATLAB identifiers made from arbitrary names. */
typedef struct ident_set {
  int n;
  char (*v)[IDENT_MAX + 1];
  const char **ptr; /* v[i] as the char** matio wants */
} ident_set;

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_alnum(char c) { return is_alpha(c) || (c >= '0' && c <= '9') || c == '_'; }

/* Every character outside [A-Za-z0-9_] becomes '_' (runs of them one),
 * trailing ones are dropped, and a name not starting with a letter gets an
 * "x" in front (as MATLAB's matlab.lang.makeValidName does). */
static void make_ident(const char *in, char *out, size_t len) {
  size_t k = 0;
  int sep = 0;
  if (!is_alpha(in[0])) out[k++] = 'x';
  for (; *in && k + 1 < len; ++in) {
    if (!is_alnum(*in)) {
      sep = 1;
      continue;
    }
    if (sep && out[k - 1] != '_' && k + 2 < len) out[k++] = '_';
    sep = 0;
    out[k++] = *in;
  }
  out[k] = '\0';
}

static int ident_taken(const ident_set *s, int upto, const char *name) {
  for (int i = 0; i < upto; ++i)
    if (!strcmp(s->v[i], name)) return 1;
  return 0;
}

/* name(i) gives the i-th original name. */
static int ident_set_make(ident_set *s, int n, const char *(*name)(const void *, int, char *, size_t),
                          const void *ctx) {
  s->n = n;
  s->v = calloc((size_t)n + 1, sizeof *s->v);
  s->ptr = calloc((size_t)n + 1, sizeof *s->ptr);
  if (!s->v || !s->ptr) return -1;
  for (int i = 0; i < n; ++i) {
    char buf[160], base[IDENT_MAX + 1];
    make_ident(name(ctx, i, buf, sizeof buf), base, sizeof base);
    snprintf(s->v[i], sizeof s->v[i], "%s", base);
    for (int k = 2; ident_taken(s, i, s->v[i]); ++k) {
      char suf[16];
      int sl = snprintf(suf, sizeof suf, "_%d", k);
      int keep = (int)strlen(base);
      if (keep + sl > IDENT_MAX) keep = IDENT_MAX - sl;
      snprintf(s->v[i], sizeof s->v[i], "%.*s%s", keep, base, suf);
    }
    s->ptr[i] = s->v[i];
  }
  return 0;
}

static void ident_set_free(ident_set *s) {
  free(s->v);
  free(s->ptr);
  s->v = NULL;
  s->ptr = NULL;
}

/* ---- matio values ---------------------------------------------------------- */

static matvar_t *mv_double(double v) {
  size_t dims[2] = {1, 1};
  return Mat_VarCreate(NULL, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &v, 0);
}

static matvar_t *mv_logical(int v) {
  size_t dims[2] = {1, 1};
  uint8_t b = v != 0;
  return Mat_VarCreate(NULL, MAT_C_UINT8, MAT_T_UINT8, 2, dims, &b, MAT_F_LOGICAL);
}

/* rows x cols doubles, column-major (copied). */
static matvar_t *mv_matrix(const char *name, size_t rows, size_t cols, const double *v) {
  size_t dims[2] = {rows, cols};
  return Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, (void *)v, 0);
}

static matvar_t *mv_text(const char *name, const char *s) {
  size_t n = strlen(s);
  size_t dims[2] = {n ? 1 : 0, n};
  return Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UINT8, 2, dims, (void *)s, 0);
}

/* An n x 1 cell of texts (NULL entries: ""). */
static matvar_t *mv_cellstr(const char *name, size_t n, const char *(*get)(const void *, size_t),
                            const void *ctx) {
  size_t dims[2] = {n, 1};
  matvar_t *cell = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
  if (!cell) return NULL;
  for (size_t i = 0; i < n; ++i) {
    const char *t = get(ctx, i);
    matvar_t *e = mv_text(NULL, t ? t : "");
    if (!e) {
      Mat_VarFree(cell);
      return NULL;
    }
    Mat_VarSetCell(cell, (int)i, e);
  }
  return cell;
}

/* A 1 x 1 struct with the given fields, all empty. */
static matvar_t *mv_struct(const char *name, const ident_set *f) {
  size_t dims[2] = {1, 1};
  return Mat_VarCreateStruct2(name, 2, dims, f->ptr);
}

/* Put value as field i of st, which then owns it (freed here on failure). */
static int set_field(matvar_t *st, int i, matvar_t *value) {
  if (!value) return -1;
  Mat_VarFree(Mat_VarSetStructFieldByIndex(st, (size_t)i, 0, value));
  if (Mat_VarGetStructFieldByIndex(st, (size_t)i, 0) != value) {
    Mat_VarFree(value);
    return -1;
  }
  return 0;
}

/* Write (and free) var; o->failed on error. Uncompressed: see the top. */
typedef struct mat_out {
  mat_t *mat;
  int failed;
} mat_out;

static void put_var(mat_out *o, matvar_t *var) {
  if (!var) {
    o->failed = 1;
    return;
  }
  if (!o->failed && Mat_VarWrite(o->mat, var, MAT_COMPRESSION_NONE) != 0) o->failed = 1;
  Mat_VarFree(var);
}

/* Write a and then b (b may be NULL); when building them failed (bad), free
 * both instead and mark the output failed. 0 when written. */
static int put_built(mat_out *o, int bad, matvar_t *a, matvar_t *b) {
  if (bad) {
    Mat_VarFree(a);
    Mat_VarFree(b);
    o->failed = 1;
    return -1;
  }
  put_var(o, a);
  if (b) put_var(o, b);
  return 0;
}

/* ---- the variables --------------------------------------------------------- */

static const char *col_name(const void *ctx, int i, char *buf, size_t len) {
  const mbdae_output_ctx *c = ctx;
  snprintf(buf, len, "%s", c->cols[i].name);
  return buf;
}

static const char *series_column_text(const void *ctx, size_t i) {
  const mbdae_output_ctx *c = ctx;
  return c->cols[i].name;
}

static const char *row_kind_text(const void *ctx, size_t i) {
  static const char *const names[] = {"sample", "pre-event", "post-event"};
  (void)ctx;
  return names[i];
}

static void put_series(mat_out *o, const mbdae_output_ctx *c, const mat_state *m) {
  ident_set f = {0, NULL, NULL};
  matvar_t *st = NULL, *units = NULL;
  double *col = malloc((m->nrows ? m->nrows : 1) * sizeof *col);
  int bad = !col || ident_set_make(&f, c->ncols, col_name, c);
  if (!bad) {
    st = mv_struct("series", &f);
    units = mv_struct("series_units", &f);
    bad = !st || !units;
  }
  const size_t stride = (size_t)m->ncols;
  for (int j = 0; !bad && j < c->ncols; ++j) {
    for (size_t r = 0; r < m->nrows; ++r) col[r] = m->rows[r * stride + (size_t)j];
    bad = set_field(st, j, mv_matrix(NULL, m->nrows, 1, col)) ||
          set_field(units, j, mv_text(NULL, c->cols[j].unit));
  }
  if (!bad)
    for (size_t r = 0; r < m->nrows; ++r) col[r] = m->rows[r * stride + stride - 1];
  matvar_t *kinds = bad ? NULL : mv_matrix("row_kind", m->nrows, 1, col);
  free(col);
  ident_set_free(&f);
  if (put_built(o, bad, st, units) == 0) {
    put_var(o, mv_cellstr("series_columns", (size_t)c->ncols, series_column_text, c));
    put_var(o, kinds);
    put_var(o, mv_cellstr("row_kind_names", 3, row_kind_text, NULL));
  } else if (kinds) {
    Mat_VarFree(kinds);
  }
}

static const char *ev_col_name(const void *ctx, int i, char *buf, size_t len) {
  char unit[24];
  mbdae_events_column(ctx, i, buf, len, unit, sizeof unit);
  return buf;
}

typedef struct ev_col_ctx {
  const mat_state *m;
  size_t col;
} ev_col_ctx;

static const char *ev_text(const void *ctx, size_t i) {
  const ev_col_ctx *e = ctx;
  return e->m->evtext[i * (size_t)e->m->nevc + e->col];
}

static void put_events(mat_out *o, const mbdae_output_ctx *c, const mat_state *m) {
  ident_set f = {0, NULL, NULL};
  matvar_t *st = NULL, *units = NULL;
  double *col = malloc((m->nev ? m->nev : 1) * sizeof *col);
  int bad = !col || ident_set_make(&f, m->nevc, ev_col_name, c);
  if (!bad) {
    st = mv_struct("events", &f);
    units = mv_struct("events_units", &f);
    bad = !st || !units;
  }
  for (int j = 0; !bad && j < m->nevc; ++j) {
    char name[96], unit[24];
    int numeric = mbdae_events_column(c, j, name, sizeof name, unit, sizeof unit);
    matvar_t *v;
    if (numeric) {
      for (size_t r = 0; r < m->nev; ++r) col[r] = m->evnum[r * (size_t)m->nevc + (size_t)j];
      v = mv_matrix(NULL, m->nev, 1, col);
    } else {
      ev_col_ctx e = {m, (size_t)j};
      v = mv_cellstr(NULL, m->nev, ev_text, &e);
    }
    bad = set_field(st, j, v) || set_field(units, j, mv_text(NULL, unit));
  }
  free(col);
  ident_set_free(&f);
  put_built(o, bad, st, units);
}

static const char *spec_name(const void *ctx, int i, char *buf, size_t len) {
  const mbdae_param_spec *specs = ctx;
  snprintf(buf, len, "%s", specs[i].key);
  return buf;
}

/* One schema value at spec->offset of base, as MATLAB would hold it. */
static matvar_t *spec_value(const mbdae_param_spec *spec, const void *base) {
  const char *p = (const char *)base + spec->offset;
  int iv;
  switch (spec->type) {
  case MBDAE_PARAM_DOUBLE: {
    double d;
    memcpy(&d, p, sizeof d);
    return mv_double(d);
  }
  case MBDAE_PARAM_INT:
    memcpy(&iv, p, sizeof iv);
    return mv_double(iv);
  case MBDAE_PARAM_BOOL:
    memcpy(&iv, p, sizeof iv);
    return mv_logical(iv);
  case MBDAE_PARAM_ENUM:
    memcpy(&iv, p, sizeof iv);
    for (int j = 0; spec->choices && spec->choices[j]; ++j)
      if (j == iv) return mv_text(NULL, spec->choices[j]);
    return mv_text(NULL, "?");
  case MBDAE_PARAM_VEC: {
    double *v = malloc((size_t)(spec->len > 0 ? spec->len : 1) * sizeof *v);
    if (!v) return NULL;
    memcpy(v, p, (size_t)(spec->len > 0 ? spec->len : 0) * sizeof *v);
    matvar_t *m = mv_matrix(NULL, 1, (size_t)(spec->len > 0 ? spec->len : 0), v);
    free(v);
    return m;
  }
  case MBDAE_PARAM_TABLE: {
    double *tab;
    int nrows;
    memcpy(&tab, p, sizeof tab);
    memcpy(&nrows, (const char *)base + spec->count_offset, sizeof nrows);
    size_t r = nrows > 0 && tab ? (size_t)nrows : 0, k = spec->len > 0 ? (size_t)spec->len : 0;
    double *cm = malloc((r * k > 0 ? r * k : 1) * sizeof *cm);
    if (!cm) return NULL;
    for (size_t i = 0; i < r; ++i) /* row-major -> MATLAB's column-major */
      for (size_t j = 0; j < k; ++j) cm[j * r + i] = tab[i * k + j];
    matvar_t *m = mv_matrix(NULL, r, k, cm);
    free(cm);
    return m;
  }
  }
  return NULL;
}

/* struct NAME {key: value} and, when units_name, struct UNITS_NAME {key: unit}. */
static void put_specs(mat_out *o, const char *name, const char *units_name,
                      const mbdae_param_spec *specs, int n, const void *base) {
  ident_set f = {0, NULL, NULL};
  matvar_t *st = NULL, *units = NULL;
  int bad = ident_set_make(&f, n, spec_name, specs);
  if (!bad) {
    st = mv_struct(name, &f);
    units = units_name ? mv_struct(units_name, &f) : NULL;
    bad = !st || (units_name && !units);
  }
  for (int i = 0; !bad && i < n; ++i)
    bad = set_field(st, i, spec_value(&specs[i], base)) ||
          (units && set_field(units, i, mv_text(NULL, specs[i].unit ? specs[i].unit : "")));
  ident_set_free(&f);
  put_built(o, bad, st, units);
}

/* A struct of named scalars (stats, run): names[i] -> values[i]. */
static const char *plain_name(const void *ctx, int i, char *buf, size_t len) {
  snprintf(buf, len, "%s", ((const char *const *)ctx)[i]);
  return buf;
}

static void put_stats(mat_out *o, const mbdae_stats *st) {
  static const char *const names[] = {
    "steps", "rhs_evals", "jac_evals", "lin_setups", "newton_iters", "newton_fails",
    "err_test_fails", "root_evals", "events", "calcic_fallbacks", "last_step", "t_reached",
    "solver_wall_time"};
  const double v[] = {
    (double)st->steps, (double)st->rhs_evals, (double)st->jac_evals, (double)st->lin_setups,
    (double)st->newton_iters, (double)st->newton_fails, (double)st->err_test_fails,
    (double)st->root_evals, (double)st->events, (double)st->calcic_fallbacks, st->last_step,
    st->t_reached, st->wall_time};
  enum { N = (int)(sizeof names / sizeof names[0]) };
  ident_set f = {0, NULL, NULL};
  matvar_t *s = NULL;
  int bad = ident_set_make(&f, N, plain_name, names) || !(s = mv_struct("stats", &f));
  for (int i = 0; !bad && i < N; ++i) bad = set_field(s, i, mv_double(v[i]));
  ident_set_free(&f);
  put_built(o, bad, s, NULL);
}

static void put_run(mat_out *o, const mbdae_run_result *res) {
  static const char *const names[] = {"status", "status_code", "message", "final_mode",
                                      "samples", "rows", "events"};
  enum { N = (int)(sizeof names / sizeof names[0]) };
  ident_set f = {0, NULL, NULL};
  matvar_t *s = NULL;
  int bad = ident_set_make(&f, N, plain_name, names) || !(s = mv_struct("run", &f));
  const char *word = res->interrupted ? "interrupted" : mbdae_run_status_word(res->status);
  bad = bad || set_field(s, 0, mv_text(NULL, word)) ||
        set_field(s, 1, mv_text(NULL, mbdae_status_name(res->status))) ||
        set_field(s, 2, mv_text(NULL, res->message)) ||
        set_field(s, 3, mv_text(NULL, res->final_mode)) ||
        set_field(s, 4, mv_double((double)res->samples)) ||
        set_field(s, 5, mv_double((double)res->rows)) ||
        set_field(s, 6, mv_double((double)res->events));
  ident_set_free(&f);
  put_built(o, bad, s, NULL);
}

static const char *inv_name(const void *ctx, int i, char *buf, size_t len) {
  snprintf(buf, len, "%s", ((const mbdae_run_result *)ctx)->inv[i].name);
  return buf;
}

static void put_invariants(mat_out *o, const mbdae_run_result *res) {
  static const char *const names[] = {"start", "end", "max_drift", "max_flow_drift"};
  ident_set f = {0, NULL, NULL}, g = {0, NULL, NULL};
  matvar_t *s = NULL;
  int bad = ident_set_make(&f, res->ninv, inv_name, res) || ident_set_make(&g, 4, plain_name, names) ||
            !(s = mv_struct("invariants", &f));
  for (int i = 0; !bad && i < res->ninv; ++i) {
    const mbdae_run_invariant *v = &res->inv[i];
    matvar_t *e = mv_struct(NULL, &g);
    bad = !e || set_field(e, 0, mv_double(v->start)) || set_field(e, 1, mv_double(v->end)) ||
          set_field(e, 2, mv_double(v->max_drift)) ||
          set_field(e, 3, mv_double(v->max_flow_drift));
    if (bad) Mat_VarFree(e);
    else bad = set_field(s, i, e);
  }
  ident_set_free(&f);
  ident_set_free(&g);
  put_built(o, bad, s, NULL);
}

static const char *outcome_name(const void *ctx, int i, char *buf, size_t len) {
  snprintf(buf, len, "%s", ((const mbdae_run_result *)ctx)->outcomes[i].name);
  return buf;
}

static void put_outcomes(mat_out *o, const mbdae_run_result *res) {
  ident_set f = {0, NULL, NULL};
  matvar_t *s = NULL, *u = NULL;
  int bad = ident_set_make(&f, res->noutcomes, outcome_name, res) ||
            !(s = mv_struct("outcomes", &f)) || !(u = mv_struct("outcome_units", &f));
  for (int i = 0; !bad && i < res->noutcomes; ++i)
    bad = set_field(s, i, mv_double(res->outcomes[i].value)) ||
          set_field(u, i, mv_text(NULL, res->outcomes[i].unit));
  ident_set_free(&f);
  put_built(o, bad, s, u);
}

/* ---- finish ---------------------------------------------------------------- */

static int mat_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res, char *err,
                      size_t errlen) {
  mat_state *m = state;
  const mbdae_scenario *s = c->scenario;
  size_t n = strlen(c->dir) + 32;
  char *tmp = malloc(n), *fin = malloc(n);
  if (!m || !tmp || !fin) {
    free(tmp);
    free(fin);
    if (err && errlen) snprintf(err, errlen, "out of memory writing %s/results.mat", c->dir);
    return MBDAE_ERR_MEMORY;
  }
  snprintf(tmp, n, "%s/.results.mat.tmp", c->dir);
  snprintf(fin, n, "%s/results.mat", c->dir);
  size_t bytes = m->nrows * (size_t)m->ncols * sizeof(double);
  enum mat_ft ver = bytes >= MAT5_SERIES_LIMIT ? MAT_FT_MAT73 : MAT_FT_MAT5;
  /* readers (Octave) recognise the file by the "MATLAB x.y MAT-file" start */
  char header[116];
  snprintf(header, sizeof header, "MATLAB %s MAT-file, written by mbdae: model %s, scenario %s",
           ver == MAT_FT_MAT73 ? "7.3" : "5.0", s->kind->name, s->stem);
  remove(tmp);
  mat_out o = {Mat_CreateVer(tmp, header, ver), 0};
  if (!o.mat) {
    if (err && errlen)
      snprintf(err, errlen, "cannot create %s%s", tmp,
               ver == MAT_FT_MAT73 ? " (MAT 7.3: libmatio without HDF5?)" : "");
    free(tmp);
    free(fin);
    return MBDAE_ERR_IO;
  }
  put_var(&o, mv_text("model", s->kind->name));
  put_var(&o, mv_text("scenario", s->path));
  put_var(&o, mv_text("description", s->description));
  put_run(&o, res);
  put_series(&o, c, m);
  put_events(&o, c, m);
  put_specs(&o, "parameters", "parameter_units", s->kind->params, s->kind->nparams, s->params);
  mbdae_solver_fields sf;
  mbdae_solver_fields_from_options(&sf, &s->options);
  put_specs(&o, "solver", NULL, mbdae_solver_specs, mbdae_solver_nspecs, &sf);
  put_stats(&o, &res->stats);
  put_invariants(&o, res);
  put_outcomes(&o, res);
  int closed = Mat_Close(o.mat);
  int rc = mbdae_commit_file(tmp, fin, !o.failed && closed == 0, err, errlen);
  if (rc) return rc;
  /* a run that may still be resumed (failed, interrupted) keeps its part */
  if (m->spill && res->status >= 0 && !res->interrupted) {
    fclose(m->spill);
    m->spill = NULL;
    remove(m->part);
  }
  return MBDAE_OK;
}

const mbdae_writer_ops mbdae_writer_mat = {
  "results.mat", mat_open, mat_sample, mat_event, mat_finish, mat_close, mat_sync, mat_reopen
};
