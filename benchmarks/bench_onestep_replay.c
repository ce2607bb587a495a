/* bench_onestep_replay.c - solve one-step problems saved as files of
 * benchmarks/onestep_io.h (bench_capture --dump-onestep, bench_onestep_dump)
 * again with solver/nonsmooth.c, in seconds instead of the run that met
 * them: a step that stopped a long run is replayed, measured and debugged
 * offline.
 *
 *   bench_onestep_replay FILE... [--tol T] [--max-iter N] [--cold] [--repeat R]
 *
 * --tol, --max-iter: ns_input's tolerance and iteration count (the engine's
 * defaults 1e-10 and 50); --cold: start from P = 0 instead of the saved
 * warm start (the previous step's impulses); --repeat: CPU time as the
 * median of R solves. One line per file: rows in the set, the outcome,
 * active-set iterations, Gauss-Seidel sweeps, the residual against the
 * tolerance, rows with P > 0, CPU ms, and an independent check of the
 * answer: v = W^-1 (r + G^T P) by the solver's own v compared with
 * W v - r - G^T P, the least P and w over the set, and the largest
 * complementarity product P_i w_i. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onestep_solver.h"
#include "bench_timing.h"

/* max |W v - r - G^T P|, min P, min w, max |P w| over the set. */
static void check(const onestep *s, const double *v, const double *P, double out[4]) {
  double *e = calloc((size_t)s->nv, sizeof *e);
  if (!e) {
    out[0] = out[1] = out[2] = out[3] = NAN;
    return;
  }
  for (int j = 0; j < s->nv; ++j)
    for (long k = s->wp[j]; k < s->wp[j + 1]; ++k) e[s->wi[k]] += s->wx[k] * v[j];
  for (int j = 0; j < s->nv; ++j) e[j] -= s->r[j];
  for (int i = 0; i < s->nc; ++i)
    for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) e[s->gi[k]] -= s->gx[k] * P[i];
  double res = 0.0, pmin = INFINITY, wmin = INFINITY, comp = 0.0;
  for (int j = 0; j < s->nv; ++j) res = fmax(res, fabs(e[j]));
  for (int i = 0; i < s->nc; ++i) {
    if (!s->in_set[i]) continue;
    double w = s->b[i];
    for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) w += s->gx[k] * v[s->gi[k]];
    pmin = fmin(pmin, P[i]);
    wmin = fmin(wmin, w);
    comp = fmax(comp, fabs(P[i] * w));
  }
  out[0] = res, out[1] = pmin, out[2] = wmin, out[3] = comp;
  free(e);
}

static int replay(const char *path, double tol, int max_iter, int cold, int repeat) {
  onestep s;
  if (onestep_read(path, &s)) {
    fprintf(stderr, "%s: not a readable mbdae-onestep file\n", path);
    return 1;
  }
  char msg[512] = "";
  int fail = 1;
  double *v = malloc((size_t)s.nv * sizeof *v), *P = malloc(((size_t)s.nc + 1) * sizeof *P);
  double *times = malloc((size_t)repeat * sizeof *times);
  ns_solver *ns = v && P && times ? onestep_solver(&s, msg, sizeof msg) : NULL;
  if (ns) {
    ns_input in = {.Wx = s.wx, .w_changed = 1, .Gx = s.gx, .r = s.r, .b = s.b,
                   .in_set = s.in_set, .tol = tol, .max_iter = max_iter};
    ns_result res;
    int rc = 0;
    for (int k = 0; k < repeat; ++k) {
      if (cold)
        memset(P, 0, (size_t)s.nc * sizeof *P);
      else
        memcpy(P, s.P0, (size_t)s.nc * sizeof *P);
      msg[0] = '\0';
      double t0 = cpu_now();
      rc = ns_solve(ns, &in, v, P, &res, msg, sizeof msg);
      times[k] = cpu_now() - t0;
    }
    qsort(times, (size_t)repeat, sizeof *times, cmp_double);
    double c[4];
    check(&s, v, P, c);
    printf("%s: t %.6g, %d rows in the set: %s; %d iterations, %d sweeps, residual %.3e "
           "(tol %.3e), %d positive, %.1f ms; |Wv-r-G'P| %.1e, min P %.2e, min w %.2e, "
           "max |P w| %.1e\n",
           path, s.t, res.index_set, rc ? msg : "converged", res.iterations, res.sweeps,
           res.residual, tol * res.vref, res.positive, 1e3 * times[repeat / 2], c[0], c[1],
           c[2], c[3]);
    fail = rc != 0;
  } else {
    fprintf(stderr, "%s: %s\n", path, msg[0] ? msg : "out of memory");
  }
  ns_free(&ns);
  free(v), free(P), free(times);
  onestep_free(&s);
  return fail;
}

int main(int argc, char **argv) {
  double tol = 1e-10;
  int max_iter = 50, cold = 0, repeat = 1, nfiles = 0, fails = 0;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--tol") && a + 1 < argc) {
      tol = atof(argv[++a]);
    } else if (!strcmp(argv[a], "--max-iter") && a + 1 < argc) {
      max_iter = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--repeat") && a + 1 < argc) {
      repeat = atoi(argv[++a]);
    } else if (!strcmp(argv[a], "--cold")) {
      cold = 1;
    } else if (argv[a][0] == '-') {
      fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[a]);
      return 2;
    } else {
      nfiles++;
    }
  }
  if (nfiles == 0 || !(tol > 0.0 && tol < 1.0) || max_iter < 0 || repeat < 1) {
    fprintf(stderr,
            "usage: %s FILE... [--tol T] [--max-iter N] [--cold] [--repeat R]\n", argv[0]);
    return 2;
  }
  for (int a = 1; a < argc; ++a) {
    if (argv[a][0] == '-') {
      if (strcmp(argv[a], "--cold")) ++a;
      continue;
    }
    fails += replay(argv[a], tol, max_iter, cold, repeat);
  }
  return fails ? 1 : 0;
}
