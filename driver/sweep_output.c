/* sweep_output.c - the files of a sweep: runs.csv (one row per run, in run
 * order), sets.csv (statistics per design set over the group_over key),
 * critical.csv (where each aggregated curve reaches its plateau) and the
 * PNG plots (gnuplot, like hartl figs. 5.1-5.32). Deterministic text only:
 * the same records give byte-identical files. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mbdae/status.h"
#include "output_dir.h"
#include "sweep.h"

static void put_num(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.10g", v);
  else fputs("nan", f);
}

/* Index of the design set of run i: its axis indices without group_axis. */
static long set_of(const mbdae_sweep_study *st, const int *idx) {
  long s = 0;
  for (int a = 0; a < st->naxes; ++a) {
    if (a == st->group_axis) continue;
    s = s * st->axes[a].n + idx[a];
  }
  return s;
}

typedef struct set_stats {
  long runs, failed;
  long n[MBDAE_SWEEP_MAX_OUTCOMES];
  double sum[MBDAE_SWEEP_MAX_OUTCOMES], sum2[MBDAE_SWEEP_MAX_OUTCOMES];
  double lo[MBDAE_SWEEP_MAX_OUTCOMES], hi[MBDAE_SWEEP_MAX_OUTCOMES];
  int idx[MBDAE_SWEEP_MAX_KEYS];
} set_stats;

static double mean_of(const set_stats *s, int k) { return s->n[k] ? s->sum[k] / s->n[k] : NAN; }
static double std_of(const set_stats *s, int k) {
  if (!s->n[k]) return NAN;
  double m = s->sum[k] / s->n[k];
  double v = s->sum2[k] / s->n[k] - m * m; /* population standard deviation */
  return v > 0.0 ? sqrt(v) : 0.0;
}

static FILE *open_in(const char *dir, const char *name, char *err, size_t errlen) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = mbdae_fopen_out(path, "w");
  if (!f && err) snprintf(err, errlen, "cannot write %s", path);
  return f;
}

static int write_runs(const mbdae_sweep_study *st, const mbdae_sweep_record *recs,
                      char *err, size_t errlen) {
  FILE *f = open_in(st->out_dir, "runs.csv", err, errlen);
  if (!f) return MBDAE_ERR_IO;
  fputs("run", f);
  for (int a = 0; a < st->naxes; ++a) fprintf(f, ",%s", st->axes[a].key);
  fputs(",status", f);
  for (int k = 0; k < st->noutcomes; ++k) fprintf(f, ",%s", st->outcomes[k].name);
  fputc('\n', f);
  int idx[MBDAE_SWEEP_MAX_KEYS];
  for (long i = 0; i < st->nruns; ++i) {
    mbdae_sweep_run_indices(st, i, idx);
    fprintf(f, "%ld", i);
    for (int a = 0; a < st->naxes; ++a) {
      fputc(',', f);
      put_num(f, st->axes[a].values[idx[a]]);
    }
    fprintf(f, ",%s", recs[i].status >= 0 ? (recs[i].status == MBDAE_STOPPED ? "stopped" : "ok")
                                          : mbdae_status_name(recs[i].status));
    for (int k = 0; k < st->noutcomes; ++k) {
      fputc(',', f);
      put_num(f, recs[i].v[k]);
    }
    fputc('\n', f);
  }
  return fclose(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static set_stats *compute_sets(const mbdae_sweep_study *st, const mbdae_sweep_record *recs,
                               long *nsets) {
  long ng = st->group_axis >= 0 ? st->axes[st->group_axis].n : 1;
  *nsets = st->nruns / ng;
  set_stats *S = calloc((size_t)*nsets, sizeof *S);
  if (!S) return NULL;
  int idx[MBDAE_SWEEP_MAX_KEYS];
  for (long i = 0; i < st->nruns; ++i) {
    mbdae_sweep_run_indices(st, i, idx);
    set_stats *s = &S[set_of(st, idx)];
    memcpy(s->idx, idx, sizeof idx);
    s->runs++;
    if (recs[i].status < 0) { s->failed++; continue; }
    for (int k = 0; k < st->noutcomes; ++k) {
      double v = st->outcomes[k].scale * recs[i].v[k];
      if (!isfinite(v)) continue;
      if (!s->n[k] || v < s->lo[k]) s->lo[k] = v;
      if (!s->n[k] || v > s->hi[k]) s->hi[k] = v;
      s->n[k]++;
      s->sum[k] += v;
      s->sum2[k] += v * v;
    }
  }
  return S;
}

static int write_sets(const mbdae_sweep_study *st, const set_stats *S, long nsets,
                      char *err, size_t errlen) {
  FILE *f = open_in(st->out_dir, "sets.csv", err, errlen);
  if (!f) return MBDAE_ERR_IO;
  int first = 1;
  for (int a = 0; a < st->naxes; ++a) {
    if (a == st->group_axis) continue;
    fprintf(f, "%s%s", first ? "" : ",", st->axes[a].key);
    first = 0;
  }
  fprintf(f, "%sruns,failed", first ? "" : ",");
  for (int k = 0; k < st->noutcomes; ++k) {
    const char *n = st->outcomes[k].name;
    fprintf(f, ",%s_mean,%s_std,%s_min,%s_max", n, n, n, n);
  }
  fputc('\n', f);
  for (long s = 0; s < nsets; ++s) {
    first = 1;
    for (int a = 0; a < st->naxes; ++a) {
      if (a == st->group_axis) continue;
      if (!first) fputc(',', f);
      put_num(f, st->axes[a].values[S[s].idx[a]]);
      first = 0;
    }
    fprintf(f, "%s%ld,%ld", first ? "" : ",", S[s].runs, S[s].failed);
    for (int k = 0; k < st->noutcomes; ++k) {
      double q[4] = {mean_of(&S[s], k), std_of(&S[s], k), S[s].n[k] ? S[s].lo[k] : NAN,
                     S[s].n[k] ? S[s].hi[k] : NAN};
      for (int j = 0; j < 4; ++j) { fputc(',', f); put_num(f, q[j]); }
    }
    fputc('\n', f);
  }
  return fclose(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

/* Set index with axis `a` at value j, the others as in idx. */
static long set_with(const mbdae_sweep_study *st, const int *idx, int a, int j) {
  int t[MBDAE_SWEEP_MAX_KEYS];
  memcpy(t, idx, sizeof t);
  t[a] = j;
  return set_of(st, t);
}

/* critical value: the smallest x_j of the critical axis from which the mean
 * stays within tol * (max - min) of its maximum (the start of the plateau,
 * hartl's e_crit, sec. 5.1-5.2) */
static int write_critical(const mbdae_sweep_study *st, const set_stats *S, long nsets,
                          char *err, size_t errlen) {
  FILE *f = open_in(st->out_dir, "critical.csv", err, errlen);
  if (!f) return MBDAE_ERR_IO;
  const int ca = st->crit_axis, ko = st->crit_outcome;
  for (int a = 0; a < st->naxes; ++a)
    if (a != st->group_axis && a != ca) fprintf(f, "%s,", st->axes[a].key);
  fprintf(f, "%s_crit,%s_plateau,%s_min\n", st->axes[ca].key, st->outcomes[ko].name,
          st->outcomes[ko].name);
  const int nc = st->axes[ca].n;
  for (long s = 0; s < nsets; ++s) {
    if (S[s].idx[ca] != 0) continue; /* one line per group: its first member */
    double hi = -HUGE_VAL, lo = HUGE_VAL;
    for (int j = 0; j < nc; ++j) {
      double m = mean_of(&S[set_with(st, S[s].idx, ca, j)], ko);
      if (!isfinite(m)) continue;
      if (m > hi) hi = m;
      if (m < lo) lo = m;
    }
    double xc = NAN;
    if (hi >= lo) {
      double thr = hi - st->crit_tol * (hi - lo);
      for (int j = nc - 1; j >= 0; --j) {
        double m = mean_of(&S[set_with(st, S[s].idx, ca, j)], ko);
        if (!(m >= thr)) break;
        xc = st->axes[ca].values[j];
      }
    }
    for (int a = 0; a < st->naxes; ++a)
      if (a != st->group_axis && a != ca) {
        put_num(f, st->axes[a].values[S[s].idx[a]]);
        fputc(',', f);
      }
    put_num(f, xc);
    fputc(',', f);
    put_num(f, hi >= lo ? hi : NAN);
    fputc(',', f);
    put_num(f, hi >= lo ? lo : NAN);
    fputc('\n', f);
  }
  return fclose(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static void short_key(const char *key, char *buf, size_t len) {
  const char *d = strrchr(key, '.');
  snprintf(buf, len, "%s", d ? d + 1 : key);
}

/* One data file + one PNG per outcome and panel value: x = plot_x, one curve
 * per series value, y = mean (+- std). Other axes are held at their first
 * value (a note in the title says so). */
static int write_plots(const mbdae_sweep_study *st, const set_stats *S, char *err,
                       size_t errlen) {
  FILE *gp = open_in(st->out_dir, "plots.gp", err, errlen);
  if (!gp) return MBDAE_ERR_IO;
  fprintf(gp, "# plots.gp - written by mbdae sweep; rerun with `gnuplot plots.gp` here\n"
              "set terminal pngcairo size 1000,650 noenhanced\nset grid\nset key outside right\n");
  const int px = st->plot_x, ps = st->plot_series, pp = st->plot_panel;
  int npanel = pp >= 0 ? st->axes[pp].n : 1, nser = ps >= 0 ? st->axes[ps].n : 1;
  char xs[64], ss[64], ps_name[64];
  short_key(st->axes[px].key, xs, sizeof xs);
  if (ps >= 0) short_key(st->axes[ps].key, ss, sizeof ss);
  if (pp >= 0) short_key(st->axes[pp].key, ps_name, sizeof ps_name);
  for (int k = 0; k < st->noutcomes; ++k) {
    for (int p = 0; p < npanel; ++p) {
      char dat[128], png[128];
      if (pp >= 0) {
        snprintf(dat, sizeof dat, "%s_%s_%d.dat", st->outcomes[k].name, ps_name, p);
        snprintf(png, sizeof png, "%s_%s_%d.png", st->outcomes[k].name, ps_name, p);
      } else {
        snprintf(dat, sizeof dat, "%s.dat", st->outcomes[k].name);
        snprintf(png, sizeof png, "%s.png", st->outcomes[k].name);
      }
      FILE *f = open_in(st->out_dir, dat, err, errlen);
      if (!f) { fclose(gp); return MBDAE_ERR_IO; }
      int idx[MBDAE_SWEEP_MAX_KEYS] = {0};
      for (int s = 0; s < nser; ++s) {
        fprintf(f, "# series %d\n", s);
        for (int j = 0; j < st->axes[px].n; ++j) {
          idx[px] = j;
          if (ps >= 0) idx[ps] = s;
          if (pp >= 0) idx[pp] = p;
          const set_stats *q = &S[set_of(st, idx)];
          put_num(f, st->axes[px].values[j]);
          fputc(' ', f);
          put_num(f, mean_of(q, k));
          fputc(' ', f);
          put_num(f, std_of(q, k));
          fputc('\n', f);
        }
        fputs("\n\n", f);
      }
      fclose(f);
      fprintf(gp, "set output '%s'\nset xlabel '%s'\nset ylabel '%s'\n", png, xs,
              st->outcomes[k].label);
      fprintf(gp, "set title '%s", st->stem);
      if (pp >= 0) fprintf(gp, ", %s = %.6g", ps_name, st->axes[pp].values[p]);
      fprintf(gp, "%s'\n", st->group_axis >= 0 ? " (mean over the group)" : "");
      fputs("plot ", gp);
      for (int s = 0; s < nser; ++s) {
        char title[96];
        if (ps >= 0) snprintf(title, sizeof title, "%s = %.6g", ss, st->axes[ps].values[s]);
        else snprintf(title, sizeof title, "%s", st->outcomes[k].name);
        fprintf(gp, "%s'%s' index %d using 1:2%s with %s title '%s'", s ? ", \\\n     " : "",
                dat, s, st->outcomes[k].errorbars ? ":3" : "",
                st->outcomes[k].errorbars ? "yerrorlines" : "linespoints", title);
      }
      fputc('\n', gp);
    }
  }
  if (fclose(gp)) return MBDAE_ERR_IO;
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(st->out_dir) == 0) {
      FILE *log = freopen("gnuplot.log", "w", stderr);
      (void)log;
      execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
    }
    _exit(127);
  }
  if (pid > 0) {
    int wst = 0;
    waitpid(pid, &wst, 0);
  }
  return MBDAE_OK; /* no gnuplot: the CSV files are complete anyway */
}

int mbdae_sweep_write(const mbdae_sweep_study *st, const mbdae_sweep_record *recs,
                      int plots, char *err, size_t errlen) {
  int rc = mbdae_mkdir_p(st->out_dir, err, errlen);
  if (rc) return MBDAE_ERR_IO;
  rc = write_runs(st, recs, err, errlen);
  if (rc) return rc;
  long nsets = 0;
  set_stats *S = compute_sets(st, recs, &nsets);
  if (!S) return MBDAE_ERR_MEMORY;
  rc = write_sets(st, S, nsets, err, errlen);
  if (!rc && st->crit_axis >= 0) rc = write_critical(st, S, nsets, err, errlen);
  if (!rc && plots && st->plot_x >= 0) rc = write_plots(st, S, err, errlen);
  free(S);
  return rc;
}
