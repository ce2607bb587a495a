/* bench_capture_lcp.c - the one-step nonsmooth problems of the n x n net
 * capture under moreau (the bench_capture set-up), taken from a real run
 * and solved by mbdae's sparse active-set solver (solver/nonsmooth.c) and by
 * Siconos Numerics' LCP solvers on the Delassus form, side by side.
 *
 * The run (bench_capture's scenario, h, theta 1/2, activation 1/2) stops at
 * each listed time t; the step that starts there is rebuilt exactly as
 * solver/backend_moreau.c builds it: W = M, r = M v + h f_theta, the index
 * set g + h/2 G v <= 0, b = e G v, the Jacobian Gp at q (+) h v, and the
 * warm start P = the previous step's impulses. Then
 *   mbdae     : ns_solve on [W -Gp^T; Gp E] (KLU), warm and cold start;
 *   siconos-* : LCP  w = D z + qv, 0 <= z _|_ w >= 0 over the index set,
 *               D = Gp W^-1 Gp^T (dense, column-major), qv = Gp W^-1 r + b,
 *               by lcp_driver_DenseMatrix with Lemke, PGS, Newton-min
 *               (FB line search) and NSGS; the assembly of D is timed apart.
 * Every solution is checked with one measure: v = W^-1 (r + Gp^T z),
 * w = Gp v + b, residual = max over the set |min(D_ii z_i, w_i)|, relative
 * to the free velocities' scale (nonsmooth.c's tolerance scale).
 *
 * Then, to say what a faster one-step solve would need, the factorisation
 * that dominates mbdae's (one per active-set iteration) is timed in three
 * forms, on the final active set A of the problem (rows with P > 0):
 *   kkt-klu-factor / kkt-klu-refactor: the KKT [W G^T; G -E] (E = 1e-12 D_ii
 *     on A, 1 elsewhere: quasi-definite) by KLU with partial pivoting (as
 *     nonsmooth.c), and numerically only with the same pivots;
 *   kkt-cholmod-ldl: the same matrix by CHOLMOD's LDL^T without pivoting
 *     (a quasi-definite matrix has one for every symmetric ordering);
 *   schur-cholmod: the Delassus matrix D_AA + 1e-12 diag by CHOLMOD (LL^T).
 * fill = nnz of the factors.
 *
 * With --gs-caps K1,K2,... Siconos' projected Gauss-Seidel (PGS, dense D)
 * and its nonsmooth Gauss-Seidel on D in sparse 1 x 1 blocks (NSGS-SBM)
 * run again with their iteration count capped at each Ki, from the warm
 * start and from 0: the residual each reaches for its CPU (the sweeps of
 * these solvers stall on the long chains of taut strings, so that an
 * uncapped run to 1e-12 does not finish in minutes). Each capped solve runs
 * once (repeat R only below 0.1 s), and PGS with 100,000 iterations is
 * then left out.
 *
 * Usage: bench_capture_lcp N H T1 [T2 ...] [--repeat R] [--dump DIR] [--no-siconos]
 *                          [--gs-caps K1,K2,...]
 *   --dump DIR writes each problem as DIR/lcp_N_T.txt (size, D column-major,
 *   qv; the LCP a Siconos script can load). One line per problem and solver:
 *   t, set size, nnz(D), solver, info, CPU ms per solve (median of R), the
 *   assembly ms, iterations, residual, |z - z_mbdae|_inf. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>

#include <suitesparse/cholmod.h>
#include <suitesparse/klu.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "capture/capture_mechanics.h"
#include "mbdae/mbdae.h"
#include "nonsmooth.h"
#include "siconos/siconos_sbm.h"
#include "bench_timing.h"

extern const mbdae_model_kind mbdae_model_net_capture;

typedef struct lcp_problem {
  double t;
  int nset;
  double *Wx, *r, *b, *Gx, *P0; /* the step's data (full rows) */
  unsigned char *in_set;
} lcp_problem;

typedef struct collect {
  capture_model *m;
  const mbdae_options *o;
  const double *times;
  int ntimes, next;
  lcp_problem *probs;
} collect;

/* The step starting at the record's state, as backend_moreau.c builds it. */
static int build(collect *c, const double *y, double t, lcp_problem *pb) {
  capture_model *m = c->m;
  capture_mech *me = m->mech;
  double h = c->o->moreau_step, th = c->o->theta;
  int nv = me->nv, nq = me->nq, nc = me->nrows;
  double *q = malloc((size_t)nq * sizeof *q), *v = malloc((size_t)nv * sizeof *v);
  double *f0 = malloc((size_t)nv * sizeof *f0), *f1 = malloc((size_t)nv * sizeof *f1);
  double *qp = malloc((size_t)nq * sizeof *qp), *g = malloc((size_t)nc * sizeof *g);
  double *G = malloc((size_t)me->gnnz * sizeof *G);
  pb->t = t;
  pb->Wx = malloc((size_t)me->mnnz * sizeof *pb->Wx);
  pb->r = calloc((size_t)nv, sizeof *pb->r);
  pb->b = calloc((size_t)nc, sizeof *pb->b);
  pb->Gx = malloc((size_t)me->gnnz * sizeof *pb->Gx);
  pb->P0 = calloc((size_t)nc, sizeof *pb->P0);
  pb->in_set = calloc((size_t)nc, 1);
  if (!q || !v || !f0 || !f1 || !qp || !g || !G || !pb->Wx || !pb->r || !pb->b || !pb->Gx ||
      !pb->P0 || !pb->in_set)
    return -1;
  capture_mech_pack(m, me, y, q, v);
  capture_mech_mass(t, q, pb->Wx, m);
  capture_mech_forces(t, q, v, f0, m);
  capture_mech_forces(t + h, q, v, f1, m);
  for (int j = 0; j < nv; ++j)
    for (mbdae_index k = me->mcolptr[j]; k < me->mcolptr[j + 1]; ++k)
      pb->r[me->mrowind[k]] += pb->Wx[k] * v[j];
  for (int j = 0; j < nv; ++j) pb->r[j] += h * (th * f1[j] + (1.0 - th) * f0[j]);
  capture_mech_gap(t, q, g, m);
  capture_mech_gap_jacobian(t, q, G, m);
  pb->nset = 0;
  for (int i = 0; i < nc; ++i) {
    double U = 0.0;
    for (mbdae_index k = me->growptr[i]; k < me->growptr[i + 1]; ++k) U += G[k] * v[me->gcolind[k]];
    pb->in_set[i] = g[i] + c->o->activation * h * U <= 0.0;
    pb->b[i] = me->restitution[i] * U;
    pb->P0[i] = m->lambda[i] * h; /* the last step's impulse (impulse observer) */
    pb->nset += pb->in_set[i];
  }
  capture_mech_position_update(h, q, v, qp, m);
  capture_mech_gap_jacobian(t + h, qp, pb->Gx, m);
  free(q), free(v), free(f0), free(f1), free(qp), free(g), free(G);
  return 0;
}

static int on_step(const mbdae_step_record *r, void *ud) {
  collect *c = ud;
  if (c->next >= c->ntimes) return 1;
  if (fabs(r->t - c->times[c->next]) < 0.5 * r->h) {
    if (build(c, r->y, r->t, &c->probs[c->next])) return -1;
    c->next++;
    if (c->next >= c->ntimes) return 1; /* stop the run */
  }
  return 0;
}

/* W^-1 x for the capture's W = diag(m_i I3, m_P I3, J). */
static void winv(const capture_model *m, const double *x, double *out) {
  int n3 = 3 * m->np + 3;
  for (int i = 0; i < 3 * m->np; ++i) out[i] = x[i] * m->minv[i / 3];
  for (int c = 0; c < 3; ++c) out[3 * m->np + c] = x[3 * m->np + c] / m->body->mass;
  const double *Ji = m->body->Jinv;
  for (int r = 0; r < 3; ++r)
    out[n3 + r] = Ji[3 * r] * x[n3] + Ji[3 * r + 1] * x[n3 + 1] + Ji[3 * r + 2] * x[n3 + 2];
}

typedef struct delassus {
  int n;        /* set size */
  int *rows;    /* n: constraint rows of the set */
  double *D;    /* n x n column-major */
  double *qv;   /* n */
  long nnz;
} delassus;

static int assemble(const capture_model *m, const lcp_problem *pb, delassus *d) {
  const capture_mech *me = m->mech;
  int nv = me->nv, nc = me->nrows, n = pb->nset;
  d->n = n;
  d->rows = malloc((size_t)(n > 0 ? n : 1) * sizeof *d->rows);
  d->D = calloc((size_t)n * (size_t)n + 1, sizeof *d->D);
  d->qv = malloc((size_t)(n > 0 ? n : 1) * sizeof *d->qv);
  double *e = calloc((size_t)nv, sizeof *e), *z = calloc((size_t)nv, sizeof *z);
  if (!d->rows || !d->D || !d->qv || !e || !z) return -1;
  int k = 0;
  for (int i = 0; i < nc; ++i)
    if (pb->in_set[i]) d->rows[k++] = i;
  /* qv = Gp W^-1 r + b */
  winv(m, pb->r, z);
  for (int a = 0; a < n; ++a) {
    int i = d->rows[a];
    double s = pb->b[i];
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) s += pb->Gx[p] * z[me->gcolind[p]];
    d->qv[a] = s;
  }
  /* column b of D: Gp W^-1 Gp_b^T */
  d->nnz = 0;
  for (int bb = 0; bb < n; ++bb) {
    int j = d->rows[bb];
    memset(e, 0, (size_t)nv * sizeof *e);
    for (mbdae_index p = me->growptr[j]; p < me->growptr[j + 1]; ++p) e[me->gcolind[p]] = pb->Gx[p];
    winv(m, e, z);
    for (int a = 0; a < n; ++a) {
      int i = d->rows[a];
      double s = 0.0;
      for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) s += pb->Gx[p] * z[me->gcolind[p]];
      d->D[(size_t)bb * n + a] = s;
      d->nnz += s != 0.0;
    }
  }
  free(e), free(z);
  return 0;
}

/* The common measure: v = W^-1 (r + Gp^T P), w = Gp v + b over the set. */
static double residual(const capture_model *m, const lcp_problem *pb, const double *P,
                       double *vref_out) {
  const capture_mech *me = m->mech;
  int nv = me->nv, nc = me->nrows;
  double *x = malloc((size_t)nv * sizeof *x), *v = malloc((size_t)nv * sizeof *v);
  double *vf = malloc((size_t)nv * sizeof *vf), *z = calloc((size_t)nv, sizeof *z);
  memcpy(x, pb->r, (size_t)nv * sizeof *x);
  for (int i = 0; i < nc; ++i)
    if (pb->in_set[i] && P[i] != 0.0)
      for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) x[me->gcolind[p]] += pb->Gx[p] * P[i];
  winv(m, x, v);
  winv(m, pb->r, vf);
  double res = 0.0, vref = 0.0;
  for (int i = 0; i < nc; ++i) {
    if (!pb->in_set[i]) continue;
    double w = pb->b[i], wf = pb->b[i], terms = fabs(pb->b[i]), dii = 0.0;
    memset(z, 0, (size_t)nv * sizeof *z);
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) {
      int c = (int)me->gcolind[p];
      w += pb->Gx[p] * v[c];
      wf += pb->Gx[p] * vf[c];
      terms += fabs(pb->Gx[p] * vf[c]);
      z[c] = pb->Gx[p];
    }
    winv(m, z, x); /* D_ii = G_i W^-1 G_i^T */
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) dii += pb->Gx[p] * x[me->gcolind[p]];
    res = fmax(res, fabs(fmin(dii * P[i], w)));
    vref = fmax(vref, fmax(fabs(wf), terms));
  }
  free(x), free(v), free(vf), free(z);
  *vref_out = vref;
  return res;
}

static double median(double *x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  return x[n / 2];
}

/* The factorisation forms on the final active set (rows with P > 0). */
static void factor_forms(const capture_model *m, const lcp_problem *pb, const double *P,
                         int repeat) {
  const capture_mech *me = m->mech;
  int nv = me->nv, nc = me->nrows, n = nv + nc;
  double *dii = calloc((size_t)nc, sizeof *dii), *z = calloc((size_t)nv, sizeof *z);
  double *x = calloc((size_t)nv, sizeof *x), *tm = malloc((size_t)repeat * sizeof *tm);
  int na = 0;
  for (int i = 0; i < nc; ++i) {
    memset(z, 0, (size_t)nv * sizeof *z);
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) z[me->gcolind[p]] = pb->Gx[p];
    winv(m, z, x);
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) dii[i] += pb->Gx[p] * x[me->gcolind[p]];
    na += P[i] > 0.0;
  }
  cholmod_common cc;
  cholmod_start(&cc);
  /* the KKT, both triangles (KLU) and the upper one (CHOLMOD) */
  size_t cap = (size_t)me->mnnz + 2 * (size_t)me->gnnz + (size_t)nc;
  cholmod_triplet *Tf = cholmod_allocate_triplet(n, n, cap, 0, CHOLMOD_REAL, &cc);
  cholmod_triplet *Tu = cholmod_allocate_triplet(n, n, cap, 1, CHOLMOD_REAL, &cc);
  if (!Tf || !Tu) return;
#define PUT(T, r, c, v) do { int *ti = (T)->i, *tj = (T)->j; double *tx = (T)->x; \
    ti[(T)->nnz] = (r); tj[(T)->nnz] = (c); tx[(T)->nnz] = (v); (T)->nnz++; } while (0)
  for (int j = 0; j < nv; ++j)
    for (mbdae_index p = me->mcolptr[j]; p < me->mcolptr[j + 1]; ++p) {
      int r = (int)me->mrowind[p];
      PUT(Tf, r, j, pb->Wx[p]);
      if (r <= j) PUT(Tu, r, j, pb->Wx[p]);
    }
  for (int i = 0; i < nc; ++i) {
    int on = P[i] > 0.0;
    for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) {
      int c = (int)me->gcolind[p];
      double g = on ? pb->Gx[p] : 0.0; /* the pattern stays, as in nonsmooth.c */
      PUT(Tf, nv + i, c, g);
      PUT(Tf, c, nv + i, g);
      PUT(Tu, c, nv + i, g);
    }
    double e = on ? 1e-12 * dii[i] : 1.0;
    PUT(Tf, nv + i, nv + i, -e);
    PUT(Tu, nv + i, nv + i, -e);
  }
  cholmod_sparse *Kf = cholmod_triplet_to_sparse(Tf, 0, &cc);
  cholmod_sparse *Ku = cholmod_triplet_to_sparse(Tu, 0, &cc);
  /* KLU as nonsmooth.c: analyse once, factor with pivoting, refactor */
  klu_common kc;
  klu_defaults(&kc);
  klu_symbolic *sym = klu_analyze(n, Kf->p, Kf->i, &kc);
  klu_numeric *num = NULL;
  for (int r = 0; r < repeat; ++r) {
    if (num) klu_free_numeric(&num, &kc);
    double t0 = cpu_now();
    num = klu_factor(Kf->p, Kf->i, Kf->x, sym, &kc);
    tm[r] = cpu_now() - t0;
  }
  long fill = num ? (long)(num->lnz + num->unz) : -1;
  printf("t=%.4f active=%d form=kkt-klu-factor n=%d ms=%.3f fill=%ld\n", pb->t, na, n,
         1e3 * median(tm, repeat), fill);
  for (int r = 0; r < repeat && num; ++r) {
    double t0 = cpu_now();
    klu_refactor(Kf->p, Kf->i, Kf->x, sym, num, &kc);
    tm[r] = cpu_now() - t0;
  }
  printf("t=%.4f active=%d form=kkt-klu-refactor n=%d ms=%.3f fill=%ld\n", pb->t, na, n,
         1e3 * median(tm, repeat), fill);
  if (num) klu_free_numeric(&num, &kc);
  klu_free_symbolic(&sym, &kc);
  /* CHOLMOD LDL^T, simplicial, no pivoting */
  cc.supernodal = CHOLMOD_SIMPLICIAL;
  cc.final_ll = 0;
  cholmod_factor *L = cholmod_analyze(Ku, &cc);
  for (int r = 0; r < repeat && L; ++r) {
    double t0 = cpu_now();
    cholmod_factorize(Ku, L, &cc);
    tm[r] = cpu_now() - t0;
  }
  printf("t=%.4f active=%d form=kkt-cholmod-ldl n=%d ms=%.3f fill=%.0f status=%d\n", pb->t, na,
         n, 1e3 * median(tm, repeat), cc.lnz, cc.status);
  cholmod_free_factor(&L, &cc);
  /* Schur complement on the active set: D_AA (dense assembly, sparse factor) */
  int *act = malloc((size_t)(na > 0 ? na : 1) * sizeof *act);
  int k = 0;
  for (int i = 0; i < nc; ++i)
    if (P[i] > 0.0) act[k++] = i;
  double *col = calloc((size_t)na + 1, sizeof *col);
  cholmod_triplet *Td = cholmod_allocate_triplet(na, na, (size_t)na * 64 + 1, 1, CHOLMOD_REAL, &cc);
  for (int b = 0; b < na && Td; ++b) {
    memset(z, 0, (size_t)nv * sizeof *z);
    int j = act[b];
    for (mbdae_index p = me->growptr[j]; p < me->growptr[j + 1]; ++p) z[me->gcolind[p]] = pb->Gx[p];
    winv(m, z, x);
    for (int a = 0; a <= b; ++a) {
      int i = act[a];
      double sd = a == b ? 1e-12 * dii[i] : 0.0;
      for (mbdae_index p = me->growptr[i]; p < me->growptr[i + 1]; ++p) sd += pb->Gx[p] * x[me->gcolind[p]];
      if (sd == 0.0) continue;
      if (Td->nnz == Td->nzmax) cholmod_reallocate_triplet(2 * Td->nzmax, Td, &cc);
      PUT(Td, a, b, sd);
    }
  }
#undef PUT
  cholmod_sparse *D = Td ? cholmod_triplet_to_sparse(Td, 0, &cc) : NULL;
  cc.supernodal = CHOLMOD_AUTO;
  cc.final_ll = 1;
  cholmod_factor *LD = D ? cholmod_analyze(D, &cc) : NULL;
  for (int r = 0; r < repeat && LD; ++r) {
    double t0 = cpu_now();
    cholmod_factorize(D, LD, &cc);
    tm[r] = cpu_now() - t0;
  }
  printf("t=%.4f active=%d form=schur-cholmod nnzD=%ld ms=%.3f fill=%.0f status=%d\n", pb->t, na,
         D ? (long)cholmod_nnz(D, &cc) : -1L, 1e3 * median(tm, repeat), cc.lnz, cc.status);
  cholmod_free_factor(&LD, &cc);
  cholmod_free_sparse(&D, &cc);
  cholmod_free_triplet(&Td, &cc);
  cholmod_free_sparse(&Kf, &cc);
  cholmod_free_sparse(&Ku, &cc);
  cholmod_free_triplet(&Tf, &cc);
  cholmod_free_triplet(&Tu, &cc);
  cholmod_finish(&cc);
  free(dii), free(z), free(x), free(tm), free(act), free(col);
}

/* Siconos' PGS (dense) and NSGS-SBM with their iterations capped at each of
 * caps, warm and cold; one line per solve as main's. */
static int gs_capped(const capture_model *m, const lcp_problem *pb, const delassus *d,
                     const int *caps, int ncaps, int repeat, const double *Pm, double asm_ms) {
  static const struct { int id, sbm; const char *name; } gs[] = {
    {SICONOS_LCP_PGS, 0, "siconos-pgs"}, {SICONOS_LCP_NSGS_SBM, 1, "siconos-nsgs-sbm"}};
  const int nc = m->mech->nrows;
  double *z = calloc((size_t)d->n + 1, sizeof *z), *w = calloc((size_t)d->n + 1, sizeof *w);
  double *Dc = malloc(((size_t)d->n * d->n + 1) * sizeof *Dc), *P = calloc((size_t)nc, sizeof *P);
  double *tms = malloc((size_t)repeat * sizeof *tms);
  if (!z || !w || !Dc || !P || !tms) return -1;
  for (size_t s = 0; s < sizeof gs / sizeof gs[0]; ++s)
    for (int warm = 1; warm >= 0; --warm)
      for (int k = 0; k < ncaps; ++k) {
        int info = -1, iters = -1, r = 0;
        for (double spent = 0.0; r < repeat && (r == 0 || spent < 0.1); ++r) {
          NumericsMatrix *M;
          if (gs[s].sbm) M = siconos_sbm_of_dense(d->n, d->D, d->nnz);
          else {
            memcpy(Dc, d->D, (size_t)d->n * d->n * sizeof *Dc);
            M = NM_create_from_data(NM_DENSE, d->n, d->n, Dc);
          }
          LinearComplementarityProblem lcp = {d->n, M, d->qv};
          SolverOptions *opt = solver_options_create(gs[s].id);
          opt->dparam[SICONOS_DPARAM_TOL] = 1e-12;
          opt->iparam[SICONOS_IPARAM_MAX_ITER] = caps[k];
          for (int a = 0; a < d->n; ++a) z[a] = warm ? pb->P0[d->rows[a]] : 0.0;
          memset(w, 0, (size_t)d->n * sizeof *w);
          double t0 = cpu_now();
          info = linearComplementarity_driver(&lcp, z, w, opt);
          tms[r] = cpu_now() - t0;
          spent += tms[r];
          iters = opt->iparam[SICONOS_IPARAM_ITER_DONE];
          solver_options_delete(opt);
          if (!gs[s].sbm) M->matrix0 = NULL; /* Dc is ours */
          NM_free(M);
        }
        qsort(tms, (size_t)r, sizeof *tms, cmp_double);
        memset(P, 0, (size_t)nc * sizeof *P);
        double dz = 0.0;
        for (int a = 0; a < d->n; ++a) {
          P[d->rows[a]] = z[a];
          dz = fmax(dz, fabs(z[a] - Pm[d->rows[a]]));
        }
        double vref, resid = residual(m, pb, P, &vref);
        printf("t=%.4f set=%d nnzD=%ld solver=%s-%s-cap%d info=%d ms=%.3f assembly_ms=%.3f "
               "iters=%d residual=%.2e dz=%.2e\n",
               pb->t, pb->nset, d->nnz, gs[s].name, warm ? "warm" : "cold", caps[k], info,
               1e3 * tms[r / 2], asm_ms, iters, resid / vref, dz);
        fflush(stdout);
      }
  free(z), free(w), free(Dc), free(P), free(tms);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s N H T1 [T2 ...] [--repeat R] [--dump DIR] [--no-siconos] "
                    "[--gs-caps K1,K2,...]\n", argv[0]);
    return 2;
  }
  int n = atoi(argv[1]), repeat = 3, skip_siconos = 0;
  double h = atof(argv[2]);
  const char *dump = NULL;
  int caps[32], ncaps = 0;
  double times[64];
  int ntimes = 0;
  for (int a = 3; a < argc; ++a) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc) repeat = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--dump") && a + 1 < argc) dump = argv[++a];
    else if (!strcmp(argv[a], "--no-siconos")) skip_siconos = 1;
    else if (!strcmp(argv[a], "--gs-caps") && a + 1 < argc) {
      for (char *c = argv[++a]; *c && ncaps < 32;) {
        caps[ncaps++] = (int)strtol(c, &c, 10);
        if (*c == ',') ++c;
        else if (*c) {
          ncaps = -1;
          break;
        }
      }
    }
    else if (ntimes < 64) times[ntimes++] = atof(argv[a]);
  }
  int caps_ok = ncaps >= 0;
  for (int k = 0; k < ncaps; ++k) caps_ok = caps_ok && caps[k] > 0;
  if (n < 2 || n > 100 || !(h > 0.0) || ntimes == 0 || repeat < 1 || !caps_ok) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  capture_params p;
  capture_params_default(&p);
  p.rows = p.cols = n;
  p.spacing = 0.45 * 9.0 / (n - 1);
  p.point_mass = 1.0 / ((double)n * n);
  p.launch_point[2] = -5.0;
  p.launch_velocity[2] = 3.0;
  p.deploy_time = 1.0;
  p.shape = CAPTURE_SHAPE_PRISM;
  p.prism_sides = 8;
  p.prism_radius = 1.0;
  p.prism_length = 2.0;
  p.body_mass = 10.0;
  p.body_attitude[0] = p.body_attitude[2] = sqrt(0.5);
  p.body_omega[1] = 0.3;
  p.body_omega[2] = 0.2;
  p.e_string = 0.0;
  p.e_body = 0.3;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  o.moreau_step = h;
  o.t_end = times[ntimes - 1] + 2 * h;
  o.dt_out = o.t_end;
  o.max_steps = 100000000;
  mbdae_model *mk = NULL;
  mbdae_param_error err;
  memset(&err, 0, sizeof err);
  if (mbdae_model_net_capture.create(&p, &o, &mk, &err)) {
    fprintf(stderr, "create: %s\n", err.msg);
    return 1;
  }
  capture_model *m = (capture_model *)mk;
  mbdae_problem *pr = mbdae_model_net_capture.problem(mk);
  int nsz = mbdae_problem_size(pr);
  double *y = calloc((size_t)nsz, sizeof *y), *yp = calloc((size_t)nsz, sizeof *yp);
  collect c = {m, &o, times, ntimes, 0, calloc((size_t)ntimes, sizeof(lcp_problem))};
  if (!y || !yp || !c.probs) return 1;
  mbdae_model_net_capture.initial_state(mk, 0.0, y, yp);
  o.step_observer = on_step;
  o.step_data = &c;
  mbdae_stats st;
  char msg[512] = "";
  int rc = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  if (rc && rc != MBDAE_STOPPED) {
    fprintf(stderr, "run: %s\n", msg);
    return 1;
  }
  capture_mech *me = m->mech;
  int nv = me->nv, nc = me->nrows;
  printf("# capture %d x %d, h %g: %d unknowns v, %d rows; residual relative to the free "
         "velocities' scale\n", n, n, h, nv, nc);
  double *v = malloc((size_t)nv * sizeof *v), *P = malloc((size_t)nc * sizeof *P);
  double *Pm = malloc((size_t)nc * sizeof *Pm), *tms = malloc((size_t)repeat * sizeof *tms);
  char why[512];
  for (int k = 0; k < c.next; ++k) {
    lcp_problem *pb = &c.probs[k];
    /* mbdae: a fresh solver per problem (the run's analysis is once per run) */
    for (int warm = 1; warm >= 0; --warm) {
      ns_result res;
      int nrc = 0;
      for (int r = 0; r < repeat; ++r) {
        ns_solver *ns = ns_create(nv, me->mcolptr, me->mrowind, nc, nc, me->growptr, me->gcolind,
                                  why, sizeof why);
        if (!ns) return 1;
        ns_input in = {.Wx = pb->Wx, .w_changed = 1, .Gx = pb->Gx, .r = pb->r, .b = pb->b,
                       .in_set = pb->in_set, .tol = 1e-10, .max_iter = 50};
        /* the first solve factors W and analyses the KKT once, as in a run */
        unsigned char *none = calloc((size_t)nc, 1);
        ns_input in0 = in;
        in0.in_set = none;
        memset(P, 0, (size_t)nc * sizeof *P);
        ns_solve(ns, &in0, v, P, &res, why, sizeof why);
        free(none);
        in.w_changed = 0;
        for (int i = 0; i < nc; ++i) P[i] = warm ? pb->P0[i] : 0.0;
        double t0 = cpu_now();
        nrc = ns_solve(ns, &in, v, P, &res, why, sizeof why);
        tms[r] = cpu_now() - t0;
        ns_free(&ns);
      }
      median(tms, repeat);
      double vref, resid = residual(m, pb, P, &vref);
      if (warm) memcpy(Pm, P, (size_t)nc * sizeof *P);
      printf("t=%.4f set=%d solver=mbdae-%s info=%d ms=%.3f assembly_ms=0 iters=%d sweeps=%d "
             "residual=%.2e dz=0\n",
             pb->t, pb->nset, warm ? "warm" : "cold", nrc, 1e3 * tms[repeat / 2],
             res.iterations, res.sweeps, resid / vref);
    }
    factor_forms(m, pb, Pm, repeat);
    if (skip_siconos) continue;
    /* Siconos Numerics on the Delassus LCP */
    delassus d;
    double ta = cpu_now();
    if (assemble(m, pb, &d)) return 1;
    double asm_ms = 1e3 * (cpu_now() - ta);
    if (dump) {
      char path[4096];
      snprintf(path, sizeof path, "%s/lcp_%d_%.4f.txt", dump, n, pb->t);
      FILE *f = fopen(path, "w");
      if (f) {
        fprintf(f, "%d\n", d.n);
        for (size_t i = 0; i < (size_t)d.n * d.n; ++i) fprintf(f, "%.17g\n", d.D[i]);
        for (int i = 0; i < d.n; ++i) fprintf(f, "%.17g\n", d.qv[i]);
        fclose(f);
      }
    }
    static const struct { int id; const char *name; } sol[] = {
      {SICONOS_LCP_LEMKE, "siconos-lemke"},
      {SICONOS_LCP_NEWTON_FB_FBLSA, "siconos-newton-fb"},
      {SICONOS_LCP_PGS, "siconos-pgs"}};
    for (size_t s = 0; s < sizeof sol / sizeof sol[0]; ++s) {
      if (ncaps > 0 && sol[s].id == SICONOS_LCP_PGS) continue; /* capped below instead */
      double *z = calloc((size_t)d.n + 1, sizeof *z), *w = calloc((size_t)d.n + 1, sizeof *w);
      double *Dc = malloc(((size_t)d.n * d.n + 1) * sizeof *Dc);
      int info = -1, iters = -1;
      for (int r = 0; r < repeat; ++r) {
        memcpy(Dc, d.D, (size_t)d.n * d.n * sizeof *Dc); /* solvers may pivot in place */
        NumericsMatrix *M = NM_create_from_data(NM_DENSE, d.n, d.n, Dc);
        LinearComplementarityProblem lcp = {d.n, M, d.qv};
        SolverOptions *opt = solver_options_create(sol[s].id);
        opt->dparam[SICONOS_DPARAM_TOL] = 1e-12;
        opt->iparam[SICONOS_IPARAM_MAX_ITER] = 100000;
        memset(z, 0, (size_t)d.n * sizeof *z);
        memset(w, 0, (size_t)d.n * sizeof *w);
        double t0 = cpu_now();
        info = lcp_driver_DenseMatrix(&lcp, z, w, opt);
        tms[r] = cpu_now() - t0;
        iters = opt->iparam[SICONOS_IPARAM_ITER_DONE];
        solver_options_delete(opt);
        M->matrix0 = NULL; /* Dc is ours */
        NM_free(M);
      }
      qsort(tms, (size_t)repeat, sizeof *tms, cmp_double);
      memset(P, 0, (size_t)nc * sizeof *P);
      double dz = 0.0;
      for (int a = 0; a < d.n; ++a) {
        P[d.rows[a]] = z[a];
        dz = fmax(dz, fabs(z[a] - Pm[d.rows[a]]));
      }
      double vref, resid = residual(m, pb, P, &vref);
      printf("t=%.4f set=%d nnzD=%ld solver=%s info=%d ms=%.3f assembly_ms=%.3f iters=%d "
             "residual=%.2e dz=%.2e\n",
             pb->t, pb->nset, d.nnz, sol[s].name, info, 1e3 * tms[repeat / 2], asm_ms, iters,
             resid / vref, dz);
      free(z), free(w), free(Dc);
    }
    if (gs_capped(m, pb, &d, caps, ncaps, repeat, Pm, asm_ms)) return 1;
    free(d.rows), free(d.D), free(d.qv);
  }
  return 0;
}
