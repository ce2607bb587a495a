/* bench_lcp_siconos.c - the one-step problems of real moreau steps (files of
 * benchmarks/onestep_io.h, written by `bench_moreau_peers dump ...` or by any
 * tool with onestep_write) solved by mbdae's solver (solver/nonsmooth.c:
 * active-set Newton on the sparse KKT system with KLU, Gauss-Seidel fallback)
 * and by Siconos Numerics' LCP solvers on the same LCP in Delassus form,
 *     w = M z + q,  M = G_A W^-1 G_A^T,  q = G_A W^-1 r + b_A   (A: the index set),
 * the form Siconos' kernel builds every step. Built only when CMake finds
 * Siconos Numerics (Debian libsiconos-numerics-dev); not part of CI.
 *
 *   bench_lcp_siconos FILE...       one line per file and solver:
 *   file n solver cpu_per_solve_s iterations lcp_error info
 *
 * cpu: the smallest per-solve CPU time over repeats (each solver repeated
 * until 0.3 s, at most 50 times, at least once); for Siconos the solve only,
 * the formation of M is printed apart (`delassus`); for mbdae the whole
 * one-step solve from (W, G, r, b). lcp_error: Siconos' lcp_compute_error on
 * each solution (the normalised residual Siconos checks against tol), the
 * same measure for every solver. Each Siconos solver runs in a child process
 * stopped after 120 s (info -99). Run with OPENBLAS_NUM_THREADS=1. */
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

#include "nonsmooth.h"
#include "onestep_io.h"

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct delassus {
  int n;          /* rows of the index set */
  int *rows;      /* their indices */
  double *dense;  /* column-major n x n */
  long nnz;
  double *q;
} delassus;

/* M = G_A W^-1 G_A^T and q for a diagonal W (point masses; the nets). */
static int form_delassus(const onestep *s, delassus *d) {
  for (int j = 0; j < s->nv; ++j)
    if (s->wp[j + 1] - s->wp[j] != 1 || s->wi[s->wp[j]] != j) return -1; /* not diagonal */
  d->n = 0;
  d->rows = malloc((size_t)(s->nc + 1) * sizeof *d->rows);
  for (int i = 0; i < s->nc; ++i)
    if (s->in_set[i]) d->rows[d->n++] = i;
  const int n = d->n;
  d->dense = calloc((size_t)n * (size_t)n + 1, sizeof *d->dense);
  d->q = calloc((size_t)n + 1, sizeof *d->q);
  /* rows touching each velocity, to form only the structural non-zeros */
  int *cnt = calloc((size_t)s->nv + 1, sizeof *cnt);
  for (int a = 0; a < n; ++a)
    for (long k = s->gp[d->rows[a]]; k < s->gp[d->rows[a] + 1]; ++k) cnt[s->gi[k] + 1]++;
  for (int j = 0; j < s->nv; ++j) cnt[j + 1] += cnt[j];
  int *at = malloc((size_t)(cnt[s->nv] + 1) * sizeof *at), *next = malloc((size_t)(s->nv + 1) * sizeof *next);
  double *gv = malloc((size_t)(cnt[s->nv] + 1) * sizeof *gv);
  memcpy(next, cnt, (size_t)s->nv * sizeof *next);
  for (int a = 0; a < n; ++a)
    for (long k = s->gp[d->rows[a]]; k < s->gp[d->rows[a] + 1]; ++k) {
      int c = next[s->gi[k]]++;
      at[c] = a;
      gv[c] = s->gx[k];
    }
  for (int j = 0; j < s->nv; ++j) {
    const double winv = 1.0 / s->wx[s->wp[j]];
    for (int c1 = cnt[j]; c1 < cnt[j + 1]; ++c1) {
      d->q[at[c1]] += gv[c1] * winv * s->r[j];
      for (int c2 = cnt[j]; c2 < cnt[j + 1]; ++c2)
        d->dense[(size_t)at[c2] * (size_t)n + (size_t)at[c1]] += gv[c1] * winv * gv[c2];
    }
  }
  for (int a = 0; a < n; ++a) d->q[a] += s->b[d->rows[a]];
  d->nnz = 0;
  for (size_t k = 0; k < (size_t)n * (size_t)n; ++k) d->nnz += d->dense[k] != 0.0;
  free(cnt), free(at), free(next), free(gv);
  return 0;
}

static NumericsMatrix *sbm_of(const delassus *d) {
  const int n = d->n;
  NumericsMatrix *A = NM_create(NM_SPARSE, n, n);
  NM_csc_alloc(A, d->nnz);
  A->matrix2->origin = NSM_CSC;
  CSparseMatrix *c = A->matrix2->csc;
  long pos = 0;
  for (int j = 0; j < n; ++j) {
    c->p[j] = (CS_INT)pos;
    for (int i = 0; i < n; ++i) {
      double v = d->dense[(size_t)j * (size_t)n + (size_t)i];
      if (v == 0.0) continue;
      c->i[pos] = (CS_INT)i;
      c->x[pos++] = v;
    }
  }
  c->p[n] = (CS_INT)pos;
  SparseBlockStructuredMatrix *sbm = SBM_new();
  SBM_from_csparse(1, c, sbm);
  NumericsMatrix *B = NM_new_SBM(n, n, sbm);
  NM_free(A);
  return B;
}

typedef struct result {
  double cpu, err;
  int iters, info;
} result;

static double lcp_err(LinearComplementarityProblem *p, double *z, double *w) {
  double e = NAN;
  NM_gemv(1.0, p->M, z, 0.0, w);
  for (int i = 0; i < p->size; ++i) w[i] += p->q[i];
  lcp_compute_error(p, z, w, 1e-10, &e);
  return e;
}

static result run_siconos(LinearComplementarityProblem *p, int solver, double *z, double *w) {
  result r = {INFINITY, NAN, 0, 0};
  double spent = 0.0;
  for (int rep = 0; rep < 50 && (rep == 0 || spent < 0.3); ++rep) {
    SolverOptions *o = solver_options_create(solver);
    o->iparam[SICONOS_IPARAM_MAX_ITER] = 10000;
    o->dparam[SICONOS_DPARAM_TOL] = 1e-10;
    memset(z, 0, (size_t)p->size * sizeof *z);
    memset(w, 0, (size_t)p->size * sizeof *w);
    double c0 = cpu_now();
    r.info = linearComplementarity_driver(p, z, w, o);
    double c = cpu_now() - c0;
    spent += c;
    if (c < r.cpu) r.cpu = c;
    r.iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(o);
  }
  r.err = lcp_err(p, z, w);
  return r;
}

/* run_siconos in a child process killed after `limit` CPU-ish seconds (a
 * dense Newton solver can take minutes on a 1740-row LCP): info -99 then. */
static result run_siconos_limited(LinearComplementarityProblem *p, int solver, double *z,
                                  double *w, unsigned limit) {
  result r = {NAN, NAN, 0, -99};
  int fd[2];
  if (pipe(fd)) return r;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    alarm(limit);
    result c = run_siconos(p, solver, z, w);
    if (write(fd[1], &c, sizeof c) != (ssize_t)sizeof c) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  if (pid > 0 && read(fd[0], &r, sizeof r) != (ssize_t)sizeof r) r.info = -99;
  close(fd[0]);
  if (pid > 0) waitpid(pid, NULL, 0);
  return r;
}

static result run_mbdae(const onestep *s, const delassus *d, LinearComplementarityProblem *p,
                        int warm, double *z, double *w) {
  result r = {INFINITY, NAN, 0, 0};
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
                 .in_set = s->in_set, .tol = 1e-10, .max_iter = 50};
  double spent = 0.0;
  for (int rep = 0; ns && rep < 50 && (rep == 0 || spent < 0.3); ++rep) {
    for (int i = 0; i < s->nc; ++i) P[i] = warm ? s->P0[i] : 0.0;
    ns_result res;
    double c0 = cpu_now();
    r.info = ns_solve(ns, &in, v, P, &res, msg, sizeof msg);
    double c = cpu_now() - c0;
    spent += c;
    if (c < r.cpu) r.cpu = c;
    r.iters = res.iterations + res.sweeps;
  }
  for (int a = 0; a < d->n; ++a) z[a] = P[d->rows[a]];
  r.err = lcp_err(p, z, w);
  ns_free(&ns);
  free(v), free(P), free(wp), free(wi), free(gp), free(gi);
  return r;
}

static void line(const char *file, int n, const char *solver, result r) {
  printf("%s %d %s %.4g %d %.3e %d\n", file, n, solver, r.cpu, r.iters, r.err, r.info);
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_lcp_siconos FILE...\n");
    return 2;
  }
  printf("file n solver cpu_per_solve_s iterations lcp_error info\n");
  for (int a = 1; a < argc; ++a) {
    onestep s;
    if (onestep_read(argv[a], &s)) {
      fprintf(stderr, "%s: not a readable mbdae-onestep file\n", argv[a]);
      return 2;
    }
    delassus d;
    memset(&d, 0, sizeof d);
    double c0 = cpu_now();
    if (form_delassus(&s, &d)) {
      fprintf(stderr, "%s: W is not diagonal (only point masses are supported)\n", argv[a]);
      return 2;
    }
    result form = {cpu_now() - c0, 0.0, 0, 0};
    const char *name = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
    line(name, d.n, "delassus-formation", form);
    LinearComplementarityProblem dense = {d.n, NM_create_from_data(NM_DENSE, d.n, d.n, d.dense),
                                          d.q};
    LinearComplementarityProblem sbm = {d.n, sbm_of(&d), d.q};
    double *z = calloc((size_t)d.n + 1, sizeof *z), *w = calloc((size_t)d.n + 1, sizeof *w);
    line(name, d.n, "mbdae-activeset-cold", run_mbdae(&s, &d, &dense, 0, z, w));
    line(name, d.n, "mbdae-activeset-warm", run_mbdae(&s, &d, &dense, 1, z, w));
    const unsigned lim = 120; /* seconds per solver; info -99: stopped there */
    line(name, d.n, "siconos-nsgs-sbm", run_siconos_limited(&sbm, SICONOS_LCP_NSGS_SBM, z, w, lim));
    line(name, d.n, "siconos-pgs", run_siconos_limited(&dense, SICONOS_LCP_PGS, z, w, lim));
    line(name, d.n, "siconos-newton-min",
         run_siconos_limited(&dense, SICONOS_LCP_NEWTONMIN, z, w, lim));
    line(name, d.n, "siconos-newton-fb",
         run_siconos_limited(&dense, SICONOS_LCP_NEWTON_FB_FBLSA, z, w, lim));
    line(name, d.n, "siconos-lemke", run_siconos_limited(&dense, SICONOS_LCP_LEMKE, z, w, lim));
    free(z), free(w);
    onestep_free(&s);
  }
  return 0;
}
