/* writer_plots.c - the model's plots (mbdae_plot_spec) as PNG files: writes
 * plots.gp into the output directory and runs gnuplot (found in PATH at run
 * time) on it there. No gnuplot, or a gnuplot error, is a note, never a
 * failure of the run. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot_run.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "writer.h"
#include "writer_events_columns.h"

static void note(const mbdae_output_ctx *c, mbdae_run_result *res, const char *msg) {
  if (!res->plot_note[0]) snprintf(res->plot_note, sizeof res->plot_note, "%s", msg);
  if (c->notes) fprintf(c->notes, "mbdae: note: %s\n", msg);
}

/* A gnuplot single-quoted string ('' escapes a quote). */
static void gp_string(FILE *f, const char *s) {
  fputc('\'', f);
  for (; s && *s; ++s) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('\'', f);
}

/* Plot file stem restricted to [A-Za-z0-9_.-]. */
static void safe_stem(const char *in, char *out, size_t len) {
  size_t k = 0;
  for (; in && *in && k + 1 < len; ++in) {
    int ok = (*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
             (*in >= '0' && *in <= '9') || *in == '_' || *in == '-' ||
             (*in == '.' && k > 0);
    out[k++] = ok ? *in : '_';
  }
  out[k] = '\0';
  if (!k) snprintf(out, len, "plot");
}

typedef struct table_view {
  const char *file;
  int n;
  const mbdae_output_ctx *c;
  int events;
} table_view;

static int col_info(const table_view *t, int i, char *name, size_t nlen, char *unit,
                    size_t ulen) {
  if (t->events) return mbdae_events_column(t->c, i, name, nlen, unit, ulen);
  snprintf(name, nlen, "%s", t->c->cols[i].name);
  snprintf(unit, ulen, "%s", t->c->cols[i].unit);
  return 1;
}

/* Write one plot command; returns 1 if written, 0 if skipped (note given). */
/* Does a column name match one of the comma-separated glob patterns? */
static int column_matches(const char *ycols, const char *name) {
  char pats[512];
  snprintf(pats, sizeof pats, "%s", ycols ? ycols : "");
  for (char *q = pats; *q;) {
    char *comma = strchr(q, ',');
    size_t n = comma ? (size_t)(comma - q) : strlen(q);
    char pat[128];
    while (n && *q == ' ') ++q, --n;
    while (n && q[n - 1] == ' ') --n;
    snprintf(pat, sizeof pat, "%.*s", (int)n, q);
    if (*pat && fnmatch(pat, name, 0) == 0) return 1;
    if (!comma) break;
    q = comma + 1;
  }
  return 0;
}

/* Plots of many curves (phi_k of every string, psi_j of every point) from a
 * wide series.csv: gnuplot re-reads and re-splits the whole file for every
 * curve (the 10 x 10 demo: 280 curves x 19 MB, 23 s). Instead the selected
 * columns are written once, curve after curve, to STEM.dat as "x y k" lines
 * with a blank line between curves, and drawn by one `plot` with
 * `lc variable`: one pass over the data. At most MAX_LONG_VALUES values are
 * kept; beyond that every stride-th row. */
#define MAX_LONG_VALUES 20000000L

static int write_long_table(const mbdae_output_ctx *c, const char *table, long rows, int ncols,
                            int xi, const int *sel, int nsel, const char *stem, char *dat,
                            size_t datlen) {
  /* slot[col]: where column col goes in a stored row (0: x, 1 + j: curve j) */
  int *slot = malloc((size_t)ncols * sizeof *slot);
  if (!slot) return -1;
  for (int i = 0; i < ncols; ++i) slot[i] = -1;
  slot[xi] = 0;
  for (int j = 0; j < nsel; ++j) slot[sel[j]] = 1 + j;
  char path[4200];
  snprintf(path, sizeof path, "%s/%s", c->dir, table);
  FILE *in = fopen(path, "r");
  if (!in) {
    free(slot);
    return -1;
  }
  long stride = 1;
  while ((rows / stride + 1) * (long)(nsel + 1) > MAX_LONG_VALUES) ++stride;
  long cap = rows / stride + 2;
  double *v = malloc((size_t)cap * (size_t)(nsel + 1) * sizeof *v);
  size_t linecap = 1 << 16;
  char *line = malloc(linecap);
  int rc = (v && line) ? 0 : -1;
  long n = 0, r = -1; /* r: data row index (the header is row -1) */
  size_t len = 0;
  while (!rc && n < cap) {
    /* one whole line, however long */
    len = 0;
    int ch = 0;
    while ((ch = fgetc(in)) != EOF && ch != '\n') {
      if (len + 1 >= linecap) {
        char *bigger = realloc(line, linecap * 2);
        if (!bigger) { rc = -1; break; }
        line = bigger;
        linecap *= 2;
      }
      line[len++] = (char)ch;
    }
    if (rc || (ch == EOF && len == 0)) break;
    line[len] = '\0';
    if (r++ < 0 || (r - 1) % stride) continue;
    double *row = &v[(size_t)n * (size_t)(nsel + 1)];
    for (int j = 0; j <= nsel; ++j) row[j] = NAN;
    int col = 0;
    for (char *q = line; col < ncols; ++col) {
      if (slot[col] >= 0) row[slot[col]] = strtod(q, NULL);
      char *comma = strchr(q, ',');
      if (!comma) break;
      q = comma + 1;
    }
    ++n;
  }
  if (ferror(in)) rc = -1;
  fclose(in);
  free(line);
  free(slot);
  snprintf(dat, datlen, "%s.dat", stem);
  snprintf(path, sizeof path, "%s/%s", c->dir, dat);
  FILE *out = rc ? NULL : mbdae_fopen_out(path, "w");
  if (!out) rc = -1;
  for (int j = 0; !rc && j < nsel; ++j) {
    for (long i = 0; i < n; ++i)
      fprintf(out, "%.9g %.9g %d\n", v[(size_t)i * (size_t)(nsel + 1)],
              v[(size_t)i * (size_t)(nsel + 1) + 1 + (size_t)j], j + 1);
    fputc('\n', out);
  }
  if (out && (ferror(out) | fclose(out))) rc = -1;
  free(v);
  return rc;
}

/* The key setting, output file STEM.png, title and axis labels of a plot. */
static void plot_header(FILE *gp, const char *key, const mbdae_plot_spec *p, const char *stem) {
  char png[160];
  snprintf(png, sizeof png, "%s.png", stem);
  fprintf(gp, "\n%s\nset output ", key);
  gp_string(gp, png);
  fprintf(gp, "\nset title ");
  gp_string(gp, p->title ? p->title : stem);
  fprintf(gp, "\nset xlabel ");
  gp_string(gp, p->xlabel ? p->xlabel : "");
  fprintf(gp, "\nset ylabel ");
  gp_string(gp, p->ylabel ? p->ylabel : "");
}

static int plot_one(FILE *gp, const mbdae_plot_spec *p, const mbdae_output_ctx *c,
                    mbdae_run_result *res, char *stem, size_t stemlen) {
  char msg[256], name[96], unit[24];
  table_view t = {"series.csv", c->ncols, c, 0};
  if (p->source && !strcmp(p->source, "events")) {
    t.file = "events.csv";
    t.n = mbdae_events_ncolumns(c);
    t.events = 1;
  }
  safe_stem(p->file, stem, stemlen);
  long rows = t.events ? res->events : res->rows;
  if (rows <= 0) {
    snprintf(msg, sizeof msg, "plot %s: no %s to plot", stem, t.events ? "events" : "samples");
    note(c, res, msg);
    return 0;
  }
  int xi = -1;
  for (int i = 0; i < t.n && xi < 0; ++i)
    if (col_info(&t, i, name, sizeof name, unit, sizeof unit) && p->xcol &&
        fnmatch(p->xcol, name, 0) == 0)
      xi = i;
  if (xi < 0) {
    snprintf(msg, sizeof msg, "plot %s: no column '%s' in %s", stem, p->xcol ? p->xcol : "",
             t.file);
    note(c, res, msg);
    return 0;
  }
  /* a legend with dozens of entries hides the curves: drop it past a dozen */
  int total = 0;
  for (int i = 0; i < t.n; ++i)
    if (i != xi && col_info(&t, i, name, sizeof name, unit, sizeof unit) &&
        column_matches(p->ycols, name))
      ++total;
  int count = 0;
  if (total > 12 && !t.events) {
    int *sel = malloc((size_t)total * sizeof *sel);
    int nsel = 0;
    for (int i = 0; sel && i < t.n; ++i)
      if (i != xi && col_info(&t, i, name, sizeof name, unit, sizeof unit) &&
          column_matches(p->ycols, name))
        sel[nsel++] = i;
    char dat[128];
    int ok = sel && write_long_table(c, t.file, rows, t.n, xi, sel, nsel, stem, dat, sizeof dat) == 0;
    free(sel);
    if (ok) {
      plot_header(gp, "unset key", p, stem);
      fprintf(gp, "\nset datafile separator whitespace\nplot ");
      gp_string(gp, dat);
      fprintf(gp, " using 1:2:3 with %s lc variable notitle\nset datafile separator ','\n",
              p->points ? "points pt 7 ps 0.6" : "lines lw 1.5");
      return 1;
    }
    /* could not write the table: fall back to one curve per column */
  }
  for (int i = 0; i < t.n; ++i) {
    if (i == xi || !col_info(&t, i, name, sizeof name, unit, sizeof unit)) continue;
    if (!column_matches(p->ycols, name)) continue;
    if (count == 0) {
      plot_header(gp, total > 12 ? "unset key" : "set key top right", p, stem);
      fprintf(gp, "\nplot ");
    } else {
      fprintf(gp, ", \\\n     ");
    }
    char title[140];
    if (*unit) snprintf(title, sizeof title, "%s [%s]", name, unit);
    else snprintf(title, sizeof title, "%s", name);
    gp_string(gp, t.file);
    fprintf(gp, " skip 1 using %d:%d with %s title ", xi + 1, i + 1,
            p->points ? "points pt 7 ps 0.6" : "lines lw 1.5");
    gp_string(gp, title);
    ++count;
  }
  if (!count) {
    snprintf(msg, sizeof msg, "plot %s: no column matches '%s' in %s", stem,
             p->ycols ? p->ycols : "", t.file);
    note(c, res, msg);
    return 0;
  }
  fprintf(gp, "\n");
  return 1;
}

static int plots_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                        char *err, size_t errlen) {
  (void)state, (void)err, (void)errlen;
  const mbdae_model_kind *k = c->scenario->kind;
  if (!c->plots || !k->plots || k->nplots <= 0) return MBDAE_OK;
  char gnuplot[4096];
  if (mbdae_gnuplot_find(gnuplot, sizeof gnuplot)) {
    note(c, res, "gnuplot not found in PATH: no plots rendered (CSV and summary.json are complete)");
    return MBDAE_OK;
  }
  char e2[256];
  FILE *gp = mbdae_output_open(c, "plots.gp", e2, sizeof e2);
  if (!gp) {
    note(c, res, e2);
    return MBDAE_OK;
  }
  fprintf(gp, "# plots.gp - written by mbdae; rerun with `gnuplot plots.gp` in this directory\n"
              "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
              "  set terminal pngcairo size 1000,650 noenhanced\n"
              "} else {\n"
              "  set terminal png size 1000,650 noenhanced\n"
              "}\n"
              "set datafile separator ','\nset grid\nset key top right\n");
  char (*stems)[96] = calloc((size_t)k->nplots, sizeof *stems);
  int *made = calloc((size_t)k->nplots, sizeof *made);
  if (!stems || !made) {
    free(stems);
    free(made);
    fclose(gp);
    return MBDAE_ERR_MEMORY;
  }
  int nscript = 0;
  for (int i = 0; i < k->nplots; ++i) {
    made[i] = plot_one(gp, &k->plots[i], c, res, stems[i], sizeof stems[i]);
    if (made[i]) {
      char png[4200];
      snprintf(png, sizeof png, "%s/%s.png", c->dir, stems[i]);
      remove(png); /* never report a stale picture of an earlier run */
      ++nscript;
    }
  }
  int bad = ferror(gp);
  fclose(gp);
  if (bad) {
    note(c, res, "cannot write plots.gp");
  } else if (nscript > 0) {
    int st = mbdae_gnuplot_run(gnuplot, c->dir, "plots.gp", "gnuplot.log");
    if (st != 0) note(c, res, "gnuplot reported an error (see gnuplot.log in the output directory)");
    for (int i = 0; i < k->nplots; ++i) {
      if (!made[i]) continue;
      char png[4200];
      struct stat sb;
      snprintf(png, sizeof png, "%s/%s.png", c->dir, stems[i]);
      if (stat(png, &sb) == 0 && sb.st_size > 0) res->plots_written++;
    }
  }
  free(stems);
  free(made);
  return MBDAE_OK;
}

const mbdae_writer_ops mbdae_writer_plots = {
  "plots", NULL, NULL, NULL, plots_finish, NULL, NULL, NULL
};
