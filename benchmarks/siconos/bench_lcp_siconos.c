/* bench_lcp_siconos.c - the one-step problems of real moreau steps (files of
 * benchmarks/onestep_io.h, written by `bench_onestep_dump SCENARIO ...` or
 * `bench_moreau_peers dump ...`) solved by mbdae's solver (solver/
 * nonsmooth.c: active-set Newton on the sparse KKT system with KLU,
 * Gauss-Seidel fallback) and by Siconos Numerics' LCP solvers on the same
 * LCP in Delassus form,
 *     w = M z + q,  M = G_A W^-1 G_A^T,  q = G_A W^-1 r + b_A   (A: the index set),
 * the form Siconos' kernel builds every step. Built only when CMake finds
 * Siconos Numerics (Debian libsiconos-numerics-dev); not part of CI.
 *
 *   bench_lcp_siconos [--tol T] [--limit S] FILE...
 *   one line per file and solver:
 *   file n nnz_M solver cpu_per_solve_s repeats iterations lcp_error max_dz info
 *
 * cpu: the median per-solve CPU time over the repeats (each solver repeated
 * until 0.3 s are spent, at most 50 times, at least once); for Siconos the
 * solve only, the formation of M printed apart (`delassus-formation`); for
 * mbdae the whole one-step solve from (W, G, r, b) (the KLU analysis of the
 * pattern, done once per run in the backend, left out). lcp_error: Siconos'
 * lcp_compute_error on each solution (the normalised residual Siconos checks
 * against its tol), the same measure for every solver; max_dz: the largest
 * difference of impulses with mbdae's cold-start solution. Siconos solvers
 * ask for tol 1e-10 on that measure, mbdae for nonsmooth_tol T (default
 * 1e-10) on its own scale. "-warm": started from the previous step's
 * impulses (as the backend and Siconos' kernel do); "-sbm": M in sparse
 * blocks, else dense. Each Siconos solver
 * runs in a child process stopped after S seconds (default 120; info -99).
 * Run with OPENBLAS_NUM_THREADS=1. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/CSparseMatrix_internal.h>
#include <siconos/numerics/NumericsSparseMatrix.h>
#include <siconos/numerics/SiconosNumerics.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/SparseBlockMatrix.h>
#include <siconos/numerics/lcp_cst.h>

#include <suitesparse/klu.h>

#include "nonsmooth.h"
#include "onestep_io.h"
#include "siconos_sbm.h"
#include "../bench_timing.h"

typedef struct delassus {
  int n;          /* rows of the index set */
  int *rows;      /* their indices */
  double *dense;  /* column-major n x n */
  long nnz;
  double *q;
} delassus;

/* M = G_A W^-1 G_A^T and q = G_A W^-1 r + b_A, W by KLU (diagonal for
 * point masses, with the body's inertia block on the capture): one solve per
 * row of the set; products with the structural zeros of W^-1 G_a^T stay 0. */
static int form_delassus(const onestep *s, delassus *d) {
  const int nv = s->nv;
  d->n = 0;
  d->rows = malloc((size_t)(s->nc + 1) * sizeof *d->rows);
  if (!d->rows) return -1;
  for (int i = 0; i < s->nc; ++i)
    if (s->in_set[i]) d->rows[d->n++] = i;
  const int n = d->n;
  d->dense = calloc((size_t)n * (size_t)n + 1, sizeof *d->dense);
  d->q = calloc((size_t)n + 1, sizeof *d->q);
  int32_t *wp = malloc((size_t)(nv + 1) * sizeof *wp), *wi = malloc((size_t)s->w_nnz * sizeof *wi);
  double *x = malloc((size_t)nv * sizeof *x);
  if (!d->dense || !d->q || !wp || !wi || !x) return -1;
  for (int j = 0; j <= nv; ++j) wp[j] = (int32_t)s->wp[j];
  for (long k = 0; k < s->w_nnz; ++k) wi[k] = (int32_t)s->wi[k];
  klu_common c;
  klu_defaults(&c);
  klu_symbolic *sym = klu_analyze(nv, wp, wi, &c);
  klu_numeric *num = sym ? klu_factor(wp, wi, s->wx, sym, &c) : NULL;
  int rc = num ? 0 : -1;
  /* q */
  if (!rc) {
    memcpy(x, s->r, (size_t)nv * sizeof *x);
    rc = klu_solve(sym, num, nv, 1, x, &c) ? 0 : -1;
  }
  for (int a = 0; !rc && a < n; ++a) {
    const int i = d->rows[a];
    double v = s->b[i];
    for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) v += s->gx[k] * x[s->gi[k]];
    d->q[a] = v;
  }
  /* column a of M: G_A (W^-1 G_a^T) */
  for (int a = 0; !rc && a < n; ++a) {
    const int j = d->rows[a];
    memset(x, 0, (size_t)nv * sizeof *x);
    for (long k = s->gp[j]; k < s->gp[j + 1]; ++k) x[s->gi[k]] = s->gx[k];
    if (!klu_solve(sym, num, nv, 1, x, &c)) rc = -1;
    double *col = d->dense + (size_t)a * (size_t)n;
    for (int b2 = 0; !rc && b2 < n; ++b2) {
      const int i = d->rows[b2];
      double v = 0.0;
      for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) v += s->gx[k] * x[s->gi[k]];
      col[b2] = v;
    }
  }
  d->nnz = 0;
  for (size_t k = 0; k < (size_t)n * (size_t)n; ++k) d->nnz += d->dense[k] != 0.0;
  if (num) klu_free_numeric(&num, &c);
  if (sym) klu_free_symbolic(&sym, &c);
  free(wp), free(wi), free(x);
  return rc;
}

#define MAX_REPEATS 50
typedef struct result {
  double cpu, err, dz;
  int iters, info, repeats;
} result;

/* Median of the repeats' CPU times. */
static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static double lcp_err(LinearComplementarityProblem *p, double *z, double *w) {
  double e = NAN;
  NM_gemv(1.0, p->M, z, 0.0, w);
  for (int i = 0; i < p->size; ++i) w[i] += p->q[i];
  lcp_compute_error(p, z, w, 1e-10, &e);
  return e;
}

/* Each solver repeated until 0.3 s are spent (at most MAX_REPEATS times, at
 * least once), the median CPU per solve. z0: the warm start (NULL: z = 0;
 * Lemke and the Newton solvers start from their own point anyway). */
static result run_siconos(LinearComplementarityProblem *p, int solver, const double *z0,
                          double *z, double *w) {
  result r = {NAN, NAN, NAN, 0, 0, 0};
  double t[MAX_REPEATS], spent = 0.0;
  for (int rep = 0; rep < MAX_REPEATS && (rep == 0 || spent < 0.3); ++rep) {
    SolverOptions *o = solver_options_create(solver);
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
    o->dparam[SICONOS_DPARAM_TOL] = 1e-10;
    if (z0) memcpy(z, z0, (size_t)p->size * sizeof *z);
    else memset(z, 0, (size_t)p->size * sizeof *z);
    memset(w, 0, (size_t)p->size * sizeof *w);
    double c0 = cpu_now();
    r.info = linearComplementarity_driver(p, z, w, o);
    t[rep] = cpu_now() - c0;
    spent += t[rep];
    r.repeats = rep + 1;
    r.iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(o);
  }
  r.cpu = median(t, r.repeats);
  r.err = lcp_err(p, z, w);
  return r;
}

/* run_siconos in a child process killed after `limit` seconds (a dense
 * Newton solver can take minutes on a 1740-row LCP): info -99 then. The
 * child sends its result and z back. */
static result run_siconos_limited(LinearComplementarityProblem *p, int solver, const double *z0,
                                  double *z, double *w, unsigned limit) {
  result r = {NAN, NAN, NAN, 0, -99, 0};
  int fd[2];
  if (pipe(fd)) return r;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    alarm(limit);
    result c = run_siconos(p, solver, z0, z, w);
    size_t zb = (size_t)p->size * sizeof *z;
    if (write(fd[1], &c, sizeof c) != (ssize_t)sizeof c) _exit(1);
    for (size_t off = 0; off < zb;) {
      ssize_t k = write(fd[1], (const char *)z + off, zb - off);
      if (k <= 0) _exit(1);
      off += (size_t)k;
    }
    _exit(0);
  }
  close(fd[1]);
  int ok = pid > 0 && read(fd[0], &r, sizeof r) == (ssize_t)sizeof r;
  size_t zb = (size_t)p->size * sizeof *z;
  for (size_t off = 0; ok && off < zb;) {
    ssize_t k = read(fd[0], (char *)z + off, zb - off);
    if (k <= 0) ok = 0;
    else off += (size_t)k;
  }
  if (!ok) {
    r.info = -99;
    r.err = NAN;
  }
  close(fd[0]);
  if (pid > 0) waitpid(pid, NULL, 0);
  return r;
}

/* mbdae's one-step solve from (W, G, r, b) with its own tolerance scale at
 * tol (the backend's nonsmooth_tol); z receives the impulses of the set. */
static result run_mbdae(const onestep *s, const delassus *d, LinearComplementarityProblem *p,
                        int warm, double tol, double *z, double *w) {
  result r = {NAN, NAN, NAN, 0, 0, 0};
  char msg[512];
  mbdae_index *wp = malloc((size_t)(s->nv + 1) * sizeof *wp), *wi = malloc((size_t)s->w_nnz * sizeof *wi);
  mbdae_index *gp = malloc((size_t)(s->nc + 1) * sizeof *gp), *gi = malloc((size_t)s->g_nnz * sizeof *gi);
  for (int j = 0; j <= s->nv; ++j) wp[j] = s->wp[j];
  for (long k = 0; k < s->w_nnz; ++k) wi[k] = s->wi[k];
  for (int i = 0; i <= s->nc; ++i) gp[i] = s->gp[i];
  for (long k = 0; k < s->g_nnz; ++k) gi[k] = s->gi[k];
  ns_solver *ns = ns_create(s->nv, wp, wi, s->nc, s->nu, gp, gi, msg, sizeof msg);
  double *v = malloc((size_t)s->nv * sizeof *v), *P = malloc((size_t)(s->nc + 1) * sizeof *P);
  ns_input in = {.Wx = s->wx, .w_changed = 1, .Gx = s->gx, .r = s->r, .b = s->b,
                 .in_set = s->in_set, .tol = tol, .max_iter = 50};
  double t[MAX_REPEATS], spent = 0.0;
  for (int rep = 0; ns && rep < MAX_REPEATS && (rep == 0 || spent < 0.3); ++rep) {
    for (int i = 0; i < s->nc; ++i) P[i] = warm ? s->P0[i] : 0.0;
    ns_result res;
    double c0 = cpu_now();
    r.info = ns_solve(ns, &in, v, P, &res, msg, sizeof msg);
    t[rep] = cpu_now() - c0;
    spent += t[rep];
    r.repeats = rep + 1;
    r.iters = res.iterations + res.sweeps;
  }
  if (r.repeats) r.cpu = median(t, r.repeats);
  for (int a = 0; a < d->n; ++a) z[a] = P[d->rows[a]];
  r.err = lcp_err(p, z, w);
  ns_free(&ns);
  free(v), free(P), free(wp), free(wi), free(gp), free(gi);
  return r;
}

static void line(const char *file, const delassus *d, const char *solver, result r,
                 const double *z, const double *zref) {
  if (z && zref) {
    r.dz = 0.0;
    for (int a = 0; a < d->n; ++a) r.dz = fmax(r.dz, fabs(z[a] - zref[a]));
  }
  printf("%s %d %ld %s %.4g %d %d %.3e %.2e %d\n", file, d->n, d->nnz, solver, r.cpu, r.repeats,
         r.iters, r.err, r.dz, r.info);
  fflush(stdout);
}

typedef struct sico_solver {
  const char *name;
  int id;
  int storage;  /* 0 dense, 1 sparse blocks (Siconos 4.4's Newton LCP solvers
                   assert a dense M: FB_compute_F_lcp needs M->matrix0) */
  int warm;
} sico_solver;

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_lcp_siconos [--tol T] [--limit S] FILE...\n");
    return 2;
  }
  double tol = 1e-10;
  unsigned lim = 120; /* seconds per Siconos solver; info -99: stopped there */
  static const sico_solver solvers[] = {
      {"siconos-nsgs-sbm", SICONOS_LCP_NSGS_SBM, 1, 0},
      {"siconos-nsgs-sbm-warm", SICONOS_LCP_NSGS_SBM, 1, 1},
      {"siconos-pgs", SICONOS_LCP_PGS, 0, 0},
      {"siconos-pgs-warm", SICONOS_LCP_PGS, 0, 1},
      {"siconos-newton-min", SICONOS_LCP_NEWTONMIN, 0, 0},
      {"siconos-newton-fb", SICONOS_LCP_NEWTON_FB_FBLSA, 0, 0},
      {"siconos-lemke", SICONOS_LCP_LEMKE, 0, 0},
      {NULL, 0, 0, 0}};
  printf("file n nnz_M solver cpu_per_solve_s repeats iterations lcp_error max_dz info\n");
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--tol") && a + 1 < argc) {
      tol = atof(argv[++a]);
      continue;
    }
    if (!strcmp(argv[a], "--limit") && a + 1 < argc) {
      lim = (unsigned)atoi(argv[++a]);
      continue;
    }
    onestep s;
    if (onestep_read(argv[a], &s)) {
      fprintf(stderr, "%s: not a readable mbdae-onestep file\n", argv[a]);
      return 2;
    }
    for (int i = s.nu; i < s.nc; ++i)
      if (s.in_set[i]) {
        fprintf(stderr, "%s: bilateral rows in the set (an MLCP): not compared\n", argv[a]);
        onestep_free(&s);
        s.nc = -1;
        break;
      }
    if (s.nc < 0) continue;
    delassus d;
    memset(&d, 0, sizeof d);
    double c0 = cpu_now();
    if (form_delassus(&s, &d)) {
      fprintf(stderr, "%s: cannot form the Delassus matrix (W singular?)\n", argv[a]);
      return 2;
    }
    result form = {cpu_now() - c0, 0.0, NAN, 0, 0, 1};
    const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    line(name, &d, "delassus-formation", form, NULL, NULL);
    LinearComplementarityProblem dense = {d.n, NM_create_from_data(NM_DENSE, d.n, d.n, d.dense),
                                          d.q};
    LinearComplementarityProblem sbm = {d.n, siconos_sbm_of_dense(d.n, d.dense, d.nnz), d.q};
    const size_t nb = (size_t)d.n + 1;
    double *z = calloc(nb, sizeof *z), *w = calloc(nb, sizeof *w);
    double *zref = calloc(nb, sizeof *zref), *z0 = calloc(nb, sizeof *z0);
    for (int k = 0; k < d.n; ++k) z0[k] = s.P0[d.rows[k]];
    result ref = run_mbdae(&s, &d, &dense, 0, tol, zref, w);
    line(name, &d, "mbdae-activeset-cold", ref, zref, zref);
    line(name, &d, "mbdae-activeset-warm", run_mbdae(&s, &d, &dense, 1, tol, z, w), z, zref);
    /* mbdae's tolerance is on its own scale: once more 100 times tighter,
     * to show what meeting Siconos' measure at 1e-10 costs where it did not */
    line(name, &d, "mbdae-activeset-warm-tol/100", run_mbdae(&s, &d, &dense, 1, tol / 100, z, w),
         z, zref);
    for (const sico_solver *v = solvers; v->name; ++v) {
      LinearComplementarityProblem *p = v->storage == 1 ? &sbm : &dense;
      result r = run_siconos_limited(p, v->id, v->warm ? z0 : NULL, z, w, lim);
      line(name, &d, v->name, r, r.info == -99 ? NULL : z, zref);
    }
    free(z), free(w), free(zref), free(z0);
    NM_free(sbm.M); /* frees the struct too */
    dense.M->matrix0 = NULL; /* d.dense, freed below */
    NM_free(dense.M);
    free(d.rows), free(d.dense), free(d.q);
    onestep_free(&s);
  }
  return 0;
}
