/* bench_lcp_net_scan.c - which random nets does the one-step solver
 * (solver/nonsmooth.c) solve, and by which of its stages; are the others
 * solvable at all? The nets are those of tests/test_nonsmooth.c
 * (random_net, the same generator): N x N unit masses (W = I) on a
 * jittered unit grid, a unilateral string to the right, upper and
 * upper-right neighbour of each point, free velocities uniform in [-1, 1],
 * b = 0 (so v = 0 is feasible and every net has a solution). Each seed is
 * solved cold by ns_solve (tolerance 1e-10, 50 iterates, the defaults of
 * method moreau) and, independently, by Siconos Numerics' lexicographic
 * Lemke (lcp_lexicolemke) on M = G G^T, q = G r; both answers are checked
 * against the LCP itself (max over rows of P < 0, w < 0, min(P, w), and
 * |v - (r + G^T P)|). Built only when CMake finds Siconos Numerics.
 *
 *   bench_lcp_net_scan [--size N] [--time] FIRST_SEED LAST_SEED
 *   one line per seed whose solve needed the Lemke fallback or failed, then
 *   a summary line: seeds, solved by the active-set iteration, by
 *   Gauss-Seidel, by the Lemke fallback, failed, and Siconos' verdicts.
 *   --time: also CPU seconds of ns_solve and of Siconos per seed (median
 *   not taken: one run each; slow above N = 20, O(rows^3)). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>

#include "nonsmooth.h"
#include "random_string_net.h"
#include "../bench_timing.h"

typedef struct net {
  int n, np, nv, nc;
  double *r, *Wx, *Gx, *b, *v, *P;
  mbdae_index *wp, *wi, *gp, *gi;
  unsigned char *in_set;
} net;

static int net_alloc(net *t, int n) {
  memset(t, 0, sizeof *t);
  t->n = n, t->np = n * n, t->nv = 2 * t->np;
  const size_t nv = (size_t)t->nv, nc = 3 * (size_t)t->np;
  t->r = malloc(nv * sizeof *t->r), t->Wx = malloc(nv * sizeof *t->Wx);
  t->v = malloc(nv * sizeof *t->v), t->P = malloc(nc * sizeof *t->P);
  t->Gx = malloc(4 * nc * sizeof *t->Gx), t->b = calloc(nc, sizeof *t->b);
  t->wp = malloc((nv + 1) * sizeof *t->wp), t->wi = malloc(nv * sizeof *t->wi);
  t->gp = malloc((nc + 1) * sizeof *t->gp), t->gi = malloc(4 * nc * sizeof *t->gi);
  t->in_set = malloc(nc);
  return t->r && t->Wx && t->v && t->P && t->Gx && t->b && t->wp && t->wi && t->gp && t->gi &&
         t->in_set ? 0 : -1;
}

static void net_free(net *t) {
  free(t->r), free(t->Wx), free(t->v), free(t->P), free(t->Gx), free(t->b);
  free(t->wp), free(t->wi), free(t->gp), free(t->gi), free(t->in_set);
}

/* tests/random_string_net.h's net of N x N points */
static int net_build(net *t, unsigned seed) {
  double *x = malloc((size_t)t->nv * sizeof *x);
  if (!x) return -1;
  t->nc = random_string_net(t->n, seed, x, t->wp, t->wi, t->Wx, t->r, t->gp, t->gi, t->Gx, t->b,
                            t->in_set);
  free(x);
  return 0;
}

/* The LCP's own conditions for (v, P), W = I: the largest of -P_i, -w_i,
 * |min(P_i, w_i)| and |v - r - G^T P|. vr: nv doubles of work. */
static double lcp_violation(const net *t, const double *v, const double *P, double *vr) {
  double e = 0.0;
  memcpy(vr, t->r, (size_t)t->nv * sizeof *vr);
  for (int i = 0; i < t->nc; ++i)
    for (mbdae_index k = t->gp[i]; k < t->gp[i + 1]; ++k) vr[t->gi[k]] += t->Gx[k] * P[i];
  for (int j = 0; j < t->nv; ++j) e = fmax(e, fabs(vr[j] - v[j]));
  for (int i = 0; i < t->nc; ++i) {
    double w = t->b[i];
    for (mbdae_index k = t->gp[i]; k < t->gp[i + 1]; ++k) w += t->Gx[k] * v[t->gi[k]];
    e = fmax(e, fmax(fmax(-P[i], -w), fabs(fmin(P[i], w))));
  }
  return e;
}

/* Siconos' lexicographic Lemke on the Delassus form; z: nc impulses.
 * Returns its info (0: solved). */
static int siconos_lemke(const net *t, double *z, double *w, double *q, double *cpu) {
  const size_t nc = (size_t)t->nc;
  double *M = calloc(nc * nc, sizeof *M);
  if (!M) return -3;
  for (int i = 0; i < t->nc; ++i) {
    q[i] = t->b[i];
    for (mbdae_index k = t->gp[i]; k < t->gp[i + 1]; ++k) q[i] += t->Gx[k] * t->r[t->gi[k]];
  }
  /* G G^T: rows sharing a velocity */
  for (int i = 0; i < t->nc; ++i)
    for (int j = 0; j < t->nc; ++j) {
      double a = 0.0;
      for (mbdae_index k = t->gp[i]; k < t->gp[i + 1]; ++k)
        for (mbdae_index l = t->gp[j]; l < t->gp[j + 1]; ++l)
          if (t->gi[k] == t->gi[l]) a += t->Gx[k] * t->Gx[l];
      M[(size_t)i + (size_t)j * nc] = a;
    }
  LinearComplementarityProblem p;
  memset(&p, 0, sizeof p);
  p.size = t->nc;
  p.M = NM_create_from_data(NM_DENSE, t->nc, t->nc, M);
  p.q = q;
  SolverOptions *o = solver_options_create(SICONOS_LCP_LEMKE);
  o->iparam[SICONOS_IPARAM_MAX_ITER] = 100 * t->nc;
  memset(z, 0, nc * sizeof *z);
  memset(w, 0, nc * sizeof *w);
  const double c0 = cpu_now();
  const int info = linearComplementarity_driver(&p, z, w, o);
  *cpu = cpu_now() - c0;
  solver_options_delete(o);
  NM_clear(p.M); /* frees M */
  free(p.M);
  return info;
}

int main(int argc, char **argv) {
  int size = 8, timing = 0, a = 1;
  for (; a < argc && argv[a][0] == '-'; ++a) {
    if (!strcmp(argv[a], "--size") && a + 1 < argc) size = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--time")) timing = 1;
    else break;
  }
  if (argc - a != 2 || size < 2) {
    fprintf(stderr, "usage: bench_lcp_net_scan [--size N] [--time] FIRST_SEED LAST_SEED\n");
    return 2;
  }
  const long first = atol(argv[a]), last = atol(argv[a + 1]);
  net t;
  if (net_alloc(&t, size)) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  const size_t nc = 3 * (size_t)t.np;
  double *z = malloc(nc * sizeof *z), *w = malloc(nc * sizeof *w), *q = malloc(nc * sizeof *q);
  double *vz = malloc((size_t)t.nv * sizeof *vz), *vr = malloc((size_t)t.nv * sizeof *vr);
  if (!z || !w || !q || !vz || !vr) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  long seeds = 0, by_newton = 0, by_pgs = 0, by_lemke = 0, failed = 0, sic_solved = 0;
  double worst_ours = 0.0, worst_sic = 0.0;
  printf("# seed rows rc iterations sweeps lemke_pivots residual lcp_violation "
         "siconos_info siconos_lcp_violation max_dv%s\n", timing ? " cpu_ns_solve cpu_siconos" : "");
  for (long seed = first; seed <= last; ++seed) {
    if (net_build(&t, (unsigned)seed)) return 1;
    char msg[512];
    ns_solver *s = ns_create(t.nv, t.wp, t.wi, t.nc, t.nc, t.gp, t.gi, msg, sizeof msg);
    if (!s) {
      fprintf(stderr, "%s\n", msg);
      return 1;
    }
    ns_input in = {.Wx = t.Wx, .w_changed = 1, .Gx = t.Gx, .r = t.r, .b = t.b,
                   .in_set = t.in_set, .tol = 1e-10, .max_iter = 50};
    ns_result res;
    memset(t.P, 0, nc * sizeof *t.P);
    double c0 = cpu_now();
    const int rc = ns_solve(s, &in, t.v, t.P, &res, msg, sizeof msg);
    const double cpu_ns = cpu_now() - c0;
    ns_free(&s);
    const double ours = lcp_violation(&t, t.v, t.P, vr);
    double cpu_sic = 0.0;
    const int info = siconos_lemke(&t, z, w, q, &cpu_sic);
    memcpy(vz, t.r, (size_t)t.nv * sizeof *vz);
    for (int i = 0; i < t.nc; ++i)
      for (mbdae_index k = t.gp[i]; k < t.gp[i + 1]; ++k) vz[t.gi[k]] += t.Gx[k] * z[i];
    const double sic = lcp_violation(&t, vz, z, vr);
    double dv = 0.0;
    for (int j = 0; j < t.nv; ++j) dv = fmax(dv, fabs(vz[j] - t.v[j]));
    seeds++;
    if (rc) failed++;
    else if (res.lemke_pivots > 0) by_lemke++;
    else if (res.sweeps > 0) by_pgs++;
    else by_newton++;
    if (info == 0) sic_solved++;
    if (rc == 0) worst_ours = fmax(worst_ours, ours);
    if (info == 0) worst_sic = fmax(worst_sic, sic);
    if (rc || res.lemke_pivots > 0 || timing) {
      printf("%ld %d %d %d %d %d %.3e %.3e %d %.3e %.3e", seed, t.nc, rc, res.iterations,
             res.sweeps, res.lemke_pivots, res.residual, ours, info, sic, dv);
      if (timing) printf(" %.4f %.4f", cpu_ns, cpu_sic);
      printf("\n");
      if (rc) printf("#   %s\n", msg);
    }
  }
  printf("# %dx%d nets, seeds %ld..%ld: %ld solves; active-set iteration %ld, Gauss-Seidel %ld, "
         "Lemke fallback %ld, failed %ld; worst LCP violation of ours %.2e; Siconos "
         "lexicographic Lemke solved %ld (worst LCP violation %.2e)\n",
         size, size, first, last, seeds, by_newton, by_pgs, by_lemke, failed, worst_ours,
         sic_solved, worst_sic);
  net_free(&t);
  free(z), free(w), free(q), free(vz), free(vr);
  return 0;
}
