/* bench_factor_reduced.c - the factorisation of an active-set iterate's
 * reduced system (solver/nonsmooth.c, file comment) by KLU and by CHOLMOD,
 * on one-step problems saved by bench_onestep_dump.
 *
 *   bench_factor_reduced FILE... [--repeat R]
 *
 * Each file's problem is solved by solver/nonsmooth.c; the reduced system
 * it factorised last (ns_last_reduced: the Delassus block D of the na
 * active rows with its regularising diagonal, bordered by the nk kept
 * velocities, [D G; G^T -W_KK]) is then factorised and solved by
 *   klu-amd     KLU as nonsmooth.c calls it (klu_defaults: AMD, BTF),
 *   klu-metis   KLU with METIS nested dissection (klu_ordering.c's),
 *   chol-*      CHOLMOD supernodal LL^T of the Schur complement
 *               S = D + G W_KK^-1 G^T (symmetric positive definite; the
 *               velocities are recovered as v = W_KK^-1 (G^T P - g)),
 *               ordered by AMD, METIS or NESDIS,
 *   ldl-*       CHOLMOD simplicial LDL^T of the quasi-definite system
 *               itself (no pivoting: any symmetric order is stable for a
 *               quasi-definite matrix), AMD or METIS,
 *   ns-ldl      solver/ns_factor.c's LDL^T (SuiteSparse LDL, AMD order), as
 *   ns-klu      nonsmooth.c uses it now, and its KLU (no factor size:
 *               nnz(L) printed as 0).
 * Printed per method, CPU ms as medians of R repeats: the symbolic
 * analysis, the numeric factorisation (refactorisation for KLU, the form
 * of S included for chol-*), one solve, block solves of 32 and 128
 * right-hand sides, nnz of the factor, and the largest relative residual
 * |M x - b| / (|M| |x| + |b|) of the solves on the full system M. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cholmod.h>
#include <klu.h>

#include "engine_impl.h"
#include "ns_factor.h"
#include "onestep_solver.h"
#include "bench_timing.h"

#define MAX_RHS 128

static double median(double *t, int r) {
  qsort(t, (size_t)r, sizeof *t, cmp_double);
  return t[r / 2];
}

/* the reduced system M (CSC, both triangles) */
typedef struct sysm {
  int n, na, nk;
  const int *p, *i;
  const double *x;
} sysm;

/* max over the columns of x (n x nrhs) of |M x - b|_inf / (|M|_inf |x|_inf + |b|_inf) */
static double rel_residual(const sysm *m, int nrhs, const double *x, const double *b) {
  double worst = 0.0, mnorm = 0.0;
  double *r = malloc((size_t)m->n * sizeof *r), *rs = calloc((size_t)m->n, sizeof *rs);
  if (!r || !rs) {
    free(r), free(rs);
    return NAN;
  }
  for (int j = 0; j < m->n; ++j)
    for (int k = m->p[j]; k < m->p[j + 1]; ++k) rs[m->i[k]] += fabs(m->x[k]);
  for (int j = 0; j < m->n; ++j) mnorm = fmax(mnorm, rs[j]);
  for (int c = 0; c < nrhs; ++c) {
    const double *xc = x + (size_t)c * (size_t)m->n, *bc = b + (size_t)c * (size_t)m->n;
    double xn = 0.0, bn = 0.0, rn = 0.0;
    for (int j = 0; j < m->n; ++j) r[j] = -bc[j];
    for (int j = 0; j < m->n; ++j)
      for (int k = m->p[j]; k < m->p[j + 1]; ++k) r[m->i[k]] += m->x[k] * xc[j];
    for (int j = 0; j < m->n; ++j)
      xn = fmax(xn, fabs(xc[j])), bn = fmax(bn, fabs(bc[j])), rn = fmax(rn, fabs(r[j]));
    worst = fmax(worst, rn / (mnorm * xn + bn));
  }
  free(r), free(rs);
  return worst;
}

typedef struct timing {
  double analyse, factor, solve1, solve32, solve128, lnz, res;
} timing;

static void print_timing(const char *name, const timing *t) {
  printf("  %-10s analyse %9.4f  factor %9.4f  solve %8.4f  x32 %9.4f  x128 %9.4f ms  "
         "nnz(L) %9.0f  res %.1e\n",
         name, 1e3 * t->analyse, 1e3 * t->factor, 1e3 * t->solve1, 1e3 * t->solve32,
         1e3 * t->solve128, t->lnz, t->res);
}

static int metis_hook(int n, int *Ap, int *Ai, int *Perm, klu_common *c) {
  (void)c;
  long *lp = malloc(((size_t)n + 1) * sizeof *lp), *li = malloc(((size_t)Ap[n] + 1) * sizeof *li);
  long *lperm = malloc(((size_t)n + 1) * sizeof *lperm);
  long est = 0;
  if (lp && li && lperm) {
    for (int j = 0; j <= n; ++j) lp[j] = Ap[j];
    for (int k = 0; k < Ap[n]; ++k) li[k] = Ai[k];
    est = mbdae_klu_metis_order(n, lp, li, lperm, NULL);
    for (int j = 0; j < n; ++j) Perm[j] = (int)lperm[j];
  }
  free(lp), free(li), free(lperm);
  return (int)est;
}

/* KLU as nonsmooth.c uses it; metis: METIS ordering instead of AMD */
static int bench_klu(const sysm *m, int metis, int repeat, const double *B, double *X,
                     timing *out) {
  klu_common c;
  klu_defaults(&c);
  if (metis) {
    c.ordering = 3;
    c.user_order = metis_hook;
  }
  double *ta = malloc((size_t)repeat * 5 * sizeof *ta);
  if (!ta) return -1;
  double *tf = ta + repeat, *t1 = tf + repeat, *t32 = t1 + repeat, *t128 = t32 + repeat;
  klu_symbolic *sym = NULL;
  klu_numeric *num = NULL;
  int ok = 1;
  for (int r = 0; r < repeat && ok; ++r) {
    if (sym) klu_free_symbolic(&sym, &c);
    double t0 = cpu_now();
    sym = klu_analyze(m->n, (int *)m->p, (int *)m->i, &c);
    ta[r] = cpu_now() - t0;
    if (!sym) ok = 0;
  }
  /* first factorisation, then the refactorisations timed (same pattern) */
  if (ok) num = klu_factor((int *)m->p, (int *)m->i, (double *)m->x, sym, &c);
  if (!num) ok = 0;
  for (int r = 0; r < repeat && ok; ++r) {
    klu_free_numeric(&num, &c);
    double t0 = cpu_now();
    num = klu_factor((int *)m->p, (int *)m->i, (double *)m->x, sym, &c);
    tf[r] = cpu_now() - t0;
    if (!num) ok = 0;
  }
  const int nrhs[3] = {1, 32, MAX_RHS};
  double *tt[3] = {t1, t32, t128};
  double res = 0.0;
  for (int q = 0; q < 3 && ok; ++q)
    for (int r = 0; r < repeat && ok; ++r) {
      memcpy(X, B, (size_t)nrhs[q] * (size_t)m->n * sizeof *X);
      double t0 = cpu_now();
      ok = klu_solve(sym, num, m->n, nrhs[q], X, &c);
      tt[q][r] = cpu_now() - t0;
      if (r == 0) res = fmax(res, rel_residual(m, nrhs[q], X, B));
    }
  if (ok) {
    out->analyse = median(ta, repeat), out->factor = median(tf, repeat);
    out->solve1 = median(t1, repeat), out->solve32 = median(t32, repeat);
    out->solve128 = median(t128, repeat);
    out->lnz = (double)(num->lnz + num->unz + m->n);
    out->res = res;
  }
  if (num) klu_free_numeric(&num, &c);
  if (sym) klu_free_symbolic(&sym, &c);
  free(ta);
  return ok ? 0 : -1;
}

/* The lower triangle of S = D + G W^-1 G^T over the na rows (schur) or of
 * M itself (CHOLMOD stype -1); winv: W_KK^-1 dense nk x nk. */
static cholmod_sparse *lower_of(const sysm *m, int schur, const double *winv, cholmod_common *c) {
  const int na = m->na, nk = m->nk, n = schur ? na : m->n;
  /* rows touching K: G (na x nk) dense rows, listed */
  int *touch = malloc((size_t)(na > 0 ? na : 1) * sizeof *touch);
  int *tpos = malloc((size_t)(na > 0 ? na : 1) * sizeof *tpos);
  double *g = NULL, *gw = NULL;
  int nt = 0;
  if (!touch || !tpos) goto fail;
  for (int a = 0; a < na; ++a) tpos[a] = -1;
  for (int kc = 0; kc < nk; ++kc)
    for (int k = m->p[na + kc]; k < m->p[na + kc + 1]; ++k)
      if (m->i[k] < na && tpos[m->i[k]] < 0) tpos[m->i[k]] = nt, touch[nt++] = m->i[k];
  size_t nnz = 0;
  for (int j = 0; j < n; ++j) nnz += (size_t)(m->p[j + 1] - m->p[j]);
  if (schur) nnz += (size_t)nt * (size_t)nt;
  g = calloc((size_t)(nt > 0 ? nt : 1) * (size_t)(nk > 0 ? nk : 1), sizeof *g);
  gw = calloc((size_t)(nt > 0 ? nt : 1) * (size_t)(nk > 0 ? nk : 1), sizeof *gw);
  if (!g || !gw) goto fail;
  if (schur) {
    for (int kc = 0; kc < nk; ++kc)
      for (int k = m->p[na + kc]; k < m->p[na + kc + 1]; ++k)
        if (m->i[k] < na) g[tpos[m->i[k]] * nk + kc] = m->x[k];
    for (int t = 0; t < nt; ++t)
      for (int a = 0; a < nk; ++a) {
        double acc = 0.0;
        for (int b = 0; b < nk; ++b) acc += winv[a * nk + b] * g[t * nk + b];
        gw[t * nk + a] = acc;
      }
  }
  cholmod_sparse *L = cholmod_allocate_sparse((size_t)n, (size_t)n, nnz, 1, 1, -1, CHOLMOD_REAL, c);
  if (!L) goto fail;
  int *Lp = L->p, *Li = L->i;
  double *Lx = L->x;
  int pos = 0;
  double *col = calloc((size_t)n, sizeof *col);
  int *mark = malloc((size_t)n * sizeof *mark), *list = malloc((size_t)n * sizeof *list);
  if (!col || !mark || !list) {
    free(col), free(mark), free(list);
    cholmod_free_sparse(&L, c);
    goto fail;
  }
  for (int j = 0; j < n; ++j) mark[j] = -1;
  for (int j = 0; j < n; ++j) {
    int cnt = 0;
    Lp[j] = pos;
    for (int k = m->p[j]; k < m->p[j + 1]; ++k) {
      const int i = m->i[k];
      if (i < j || i >= n) continue;
      if (mark[i] != j) mark[i] = j, list[cnt++] = i, col[i] = 0.0;
      col[i] += m->x[k];
    }
    if (schur && j < na && tpos[j] >= 0) {
      const int tj = tpos[j];
      for (int t = 0; t < nt; ++t) {
        const int i = touch[t];
        if (i < j) continue;
        double acc = 0.0;
        for (int a = 0; a < nk; ++a) acc += g[t * nk + a] * gw[tj * nk + a];
        if (mark[i] != j) mark[i] = j, list[cnt++] = i, col[i] = 0.0;
        col[i] += acc;
      }
    }
    /* sorted rows */
    for (int u = 1; u < cnt; ++u)
      for (int v = u; v > 0 && list[v - 1] > list[v]; --v) {
        int tmp = list[v];
        list[v] = list[v - 1];
        list[v - 1] = tmp;
      }
    for (int u = 0; u < cnt; ++u) Li[pos] = list[u], Lx[pos++] = col[list[u]];
  }
  Lp[n] = pos;
  free(col), free(mark), free(list);
  free(touch), free(tpos), free(g), free(gw);
  return L;
fail:
  free(touch), free(tpos), free(g), free(gw);
  return NULL;
}

/* W_KK^-1 (dense, Gauss-Jordan with partial pivoting); W_KK = -(M's K block) */
static int kk_inverse(const sysm *m, double *winv) {
  const int nk = m->nk, na = m->na;
  double *a = calloc((size_t)nk * (size_t)nk, sizeof *a);
  if (!a) return -1;
  for (int kc = 0; kc < nk; ++kc)
    for (int k = m->p[na + kc]; k < m->p[na + kc + 1]; ++k)
      if (m->i[k] >= na) a[(m->i[k] - na) * nk + kc] -= m->x[k];
  for (int i = 0; i < nk * nk; ++i) winv[i] = 0.0;
  for (int i = 0; i < nk; ++i) winv[i * nk + i] = 1.0;
  for (int c = 0; c < nk; ++c) {
    int p = c;
    for (int r = c + 1; r < nk; ++r)
      if (fabs(a[r * nk + c]) > fabs(a[p * nk + c])) p = r;
    if (a[p * nk + c] == 0.0) {
      free(a);
      return -1;
    }
    for (int j = 0; j < nk; ++j) {
      double t = a[c * nk + j];
      a[c * nk + j] = a[p * nk + j], a[p * nk + j] = t;
      t = winv[c * nk + j];
      winv[c * nk + j] = winv[p * nk + j], winv[p * nk + j] = t;
    }
    const double d = a[c * nk + c];
    for (int j = 0; j < nk; ++j) a[c * nk + j] /= d, winv[c * nk + j] /= d;
    for (int r = 0; r < nk; ++r) {
      if (r == c) continue;
      const double f = a[r * nk + c];
      for (int j = 0; j < nk; ++j) a[r * nk + j] -= f * a[c * nk + j], winv[r * nk + j] -= f * winv[c * nk + j];
    }
  }
  free(a);
  return 0;
}

/* CHOLMOD: schur = 1 supernodal LL^T of S, 0 simplicial LDL^T of M */
static int bench_cholmod(const sysm *m, int schur, int ordering, int repeat, const double *B,
                         double *X, timing *out) {
  cholmod_common c;
  cholmod_start(&c);
  c.nmethods = 1;
  c.method[0].ordering = ordering;
  c.postorder = 1;
  if (schur) {
    c.supernodal = CHOLMOD_SUPERNODAL;
  } else {
    c.supernodal = CHOLMOD_SIMPLICIAL;
    c.final_ll = 0;
  }
  const int na = m->na, nk = m->nk, n = schur ? na : m->n;
  double *winv = calloc((size_t)(nk > 0 ? nk * nk : 1), sizeof *winv);
  double *ta = malloc((size_t)repeat * 5 * sizeof *ta);
  cholmod_sparse *A = NULL;
  cholmod_factor *L = NULL;
  cholmod_dense *Bd = NULL, *Xd = NULL, *Y = NULL, *E = NULL;
  int ok = winv && ta && (!schur || kk_inverse(m, winv) == 0);
  double *tf = ta + repeat, *t1 = tf + repeat, *t32 = t1 + repeat, *t128 = t32 + repeat;
  if (ok) A = lower_of(m, schur, winv, &c);
  ok = ok && A;
  for (int r = 0; r < repeat && ok; ++r) {
    if (L) cholmod_free_factor(&L, &c);
    double t0 = cpu_now();
    L = cholmod_analyze(A, &c);
    ta[r] = cpu_now() - t0;
    ok = L != NULL;
  }
  for (int r = 0; r < repeat && ok; ++r) {
    double t0 = cpu_now();
    if (schur) { /* the form of S is part of each factorisation */
      cholmod_sparse *A2 = lower_of(m, schur, winv, &c);
      ok = A2 != NULL;
      if (ok) cholmod_free_sparse(&A2, &c);
    }
    ok = ok && cholmod_factorize(A, L, &c) && c.status == CHOLMOD_OK;
    tf[r] = cpu_now() - t0;
  }
  if (ok) Bd = cholmod_allocate_dense((size_t)n, MAX_RHS, (size_t)n, CHOLMOD_REAL, &c);
  ok = ok && Bd;
  const int nrhs[3] = {1, 32, MAX_RHS};
  double *tt[3] = {t1, t32, t128};
  double res = 0.0;
  double *gk = malloc((size_t)(nk > 0 ? nk : 1) * MAX_RHS * sizeof *gk);
  ok = ok && gk;
  for (int q = 0; q < 3 && ok; ++q)
    for (int r = 0; r < repeat && ok; ++r) {
      const int nr = nrhs[q];
      Bd->ncol = (size_t)nr;
      double *bx = Bd->x;
      double t0 = cpu_now();
      /* right-hand side of S: f + G W^-1 g */
      for (int cc = 0; cc < nr; ++cc) {
        const double *bc = B + (size_t)cc * (size_t)m->n;
        memcpy(bx + (size_t)cc * (size_t)n, bc, (size_t)n * sizeof *bx);
        if (!schur) continue;
        double *w = gk + (size_t)cc * (size_t)nk;
        for (int a = 0; a < nk; ++a) {
          double acc = 0.0;
          for (int b2 = 0; b2 < nk; ++b2) acc += winv[a * nk + b2] * bc[na + b2];
          w[a] = acc;
        }
        for (int kc = 0; kc < nk; ++kc)
          for (int k = m->p[na + kc]; k < m->p[na + kc + 1]; ++k)
            if (m->i[k] < na) bx[(size_t)cc * (size_t)n + m->i[k]] += m->x[k] * w[kc];
      }
      ok = cholmod_solve2(CHOLMOD_A, L, Bd, NULL, &Xd, NULL, &Y, &E, &c) && c.status == CHOLMOD_OK;
      if (!ok) break;
      const double *xx = Xd->x;
      for (int cc = 0; cc < nr; ++cc) {
        double *xc = X + (size_t)cc * (size_t)m->n;
        memcpy(xc, xx + (size_t)cc * (size_t)n, (size_t)n * sizeof *xc);
        if (!schur) continue;
        /* v = W^-1 (G^T P - g) */
        const double *bc = B + (size_t)cc * (size_t)m->n;
        double *w = gk + (size_t)cc * (size_t)nk;
        for (int kc = 0; kc < nk; ++kc) {
          double acc = -bc[na + kc];
          for (int k = m->p[na + kc]; k < m->p[na + kc + 1]; ++k)
            if (m->i[k] < na) acc += m->x[k] * xc[m->i[k]];
          w[kc] = acc;
        }
        for (int a = 0; a < nk; ++a) {
          double acc = 0.0;
          for (int b2 = 0; b2 < nk; ++b2) acc += winv[a * nk + b2] * w[b2];
          xc[na + a] = acc;
        }
      }
      tt[q][r] = cpu_now() - t0;
      if (r == 0) res = fmax(res, rel_residual(m, nr, X, B));
    }
  if (ok) {
    out->analyse = median(ta, repeat), out->factor = median(tf, repeat);
    out->solve1 = median(t1, repeat), out->solve32 = median(t32, repeat);
    out->solve128 = median(t128, repeat);
    if (L->is_super) {
      /* supernodal: the stored entries of the supernodes */
      out->lnz = (double)L->xsize;
    } else {
      const int *Lnz = L->nz;
      double s = 0.0;
      for (size_t j = 0; j < L->n; ++j) s += Lnz[j];
      out->lnz = s;
    }
    out->res = res;
  }
  free(gk);
  if (Bd) Bd->ncol = MAX_RHS;
  cholmod_free_dense(&Bd, &c);
  cholmod_free_dense(&Xd, &c);
  cholmod_free_dense(&Y, &c);
  cholmod_free_dense(&E, &c);
  cholmod_free_factor(&L, &c);
  cholmod_free_sparse(&A, &c);
  cholmod_finish(&c);
  free(winv), free(ta);
  return ok ? 0 : -1;
}

/* solver/ns_factor.c: analysis = first factorisation minus a refactorisation */
static int bench_nsf(const sysm *m, ns_factor_kind kind, int repeat, const double *B, double *X,
                     timing *out) {
  ns_factor *f = ns_factor_create(kind);
  double *ta = malloc((size_t)repeat * 5 * sizeof *ta);
  int ok = f && ta;
  double *tf = ok ? ta + repeat : NULL, *t1 = tf + repeat, *t32 = t1 + repeat, *t128 = t32 + repeat;
  for (int r = 0; r < repeat && ok; ++r) {
    double t0 = cpu_now();
    ok = ns_factor_factor(f, m->n, m->na, m->p, m->i, m->x, 0) == 0;
    ta[r] = cpu_now() - t0;
    t0 = cpu_now();
    ok = ok && ns_factor_refactor(f, m->p, m->i, m->x) == 0;
    tf[r] = cpu_now() - t0;
    ta[r] -= tf[r];
  }
  ok = ok && ns_factor_current(f) == kind;
  const int nrhs[3] = {1, 32, MAX_RHS};
  double *tt[3] = {t1, t32, t128};
  double res = 0.0;
  for (int q = 0; q < 3 && ok; ++q)
    for (int r = 0; r < repeat && ok; ++r) {
      memcpy(X, B, (size_t)nrhs[q] * (size_t)m->n * sizeof *X);
      double t0 = cpu_now();
      ok = ns_factor_solve(f, nrhs[q], X) == 0;
      tt[q][r] = cpu_now() - t0;
      if (r == 0) res = fmax(res, rel_residual(m, nrhs[q], X, B));
    }
  if (ok) {
    out->analyse = median(ta, repeat), out->factor = median(tf, repeat);
    out->solve1 = median(t1, repeat), out->solve32 = median(t32, repeat);
    out->solve128 = median(t128, repeat);
    out->lnz = 0.0;
    out->res = res;
  }
  ns_factor_free(&f);
  free(ta);
  return ok ? 0 : -1;
}

static int bench_file(const char *path, int repeat) {
  onestep s;
  if (onestep_read(path, &s)) {
    fprintf(stderr, "%s: not a readable mbdae-onestep file\n", path);
    return 1;
  }
  char msg[512] = "";
  int fail = 1;
  double *v = malloc((size_t)s.nv * sizeof *v), *P = malloc(((size_t)s.nc + 1) * sizeof *P);
  double *B = NULL, *X = NULL;
  ns_solver *ns = v && P ? onestep_solver(&s, msg, sizeof msg) : NULL;
  if (ns) {
    ns_input in = {.Wx = s.wx, .w_changed = 1, .Gx = s.gx, .r = s.r, .b = s.b,
                   .in_set = s.in_set, .tol = 1e-10, .max_iter = 50};
    ns_result res;
    memcpy(P, s.P0, (size_t)s.nc * sizeof *P);
    const int rc = ns_solve(ns, &in, v, P, &res, msg, sizeof msg);
    sysm m = {0};
    m.n = ns_last_reduced(ns, &m.na, &m.p, &m.i, &m.x);
    m.nk = m.n - m.na;
    if (rc == 0 && m.n > 0) {
      B = malloc((size_t)m.n * MAX_RHS * sizeof *B);
      X = malloc((size_t)m.n * MAX_RHS * sizeof *X);
    }
    if (B && X) {
      /* right-hand sides of the scale of the system's own: pseudo-random */
      unsigned long seed = 12345;
      for (size_t k = 0; k < (size_t)m.n * MAX_RHS; ++k) {
        seed = seed * 6364136223846793005ul + 1442695040888963407ul;
        B[k] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
      }
      printf("%s: t %.6g, %d rows in the set, %d iterations; reduced system n %d (%d rows, %d "
             "velocities), nnz %d\n",
             path, s.t, res.index_set, res.iterations, m.n, m.na, m.nk, m.p[m.n]);
      timing t;
      fail = 0;
      struct {
        const char *name;
        int kind, ord;
      } meth[] = {{"klu-amd", 0, 0},
                  {"klu-metis", 0, 1},
                  {"chol-amd", 1, CHOLMOD_AMD},
                  {"chol-metis", 1, CHOLMOD_METIS},
                  {"chol-nesd", 1, CHOLMOD_NESDIS},
                  {"ldl-amd", 2, CHOLMOD_AMD},
                  {"ldl-metis", 2, CHOLMOD_METIS},
                  {"ns-ldl", 3, NS_FACTOR_LDL},
                  {"ns-klu", 3, NS_FACTOR_KLU}};
      for (size_t q = 0; q < sizeof meth / sizeof meth[0]; ++q) {
        int e = meth[q].kind == 0   ? bench_klu(&m, meth[q].ord, repeat, B, X, &t)
                : meth[q].kind == 3 ? bench_nsf(&m, (ns_factor_kind)meth[q].ord, repeat, B, X, &t)
                                    : bench_cholmod(&m, meth[q].kind == 1, meth[q].ord, repeat, B, X, &t);
        if (e) {
          printf("  %-10s failed\n", meth[q].name);
          fail = 1;
        } else {
          print_timing(meth[q].name, &t);
        }
      }
      fflush(stdout);
    } else {
      fprintf(stderr, "%s: %s\n", path, rc ? msg : "nothing factorised or out of memory");
    }
  } else {
    fprintf(stderr, "%s: %s\n", path, msg[0] ? msg : "out of memory");
  }
  ns_free(&ns);
  free(v), free(P), free(B), free(X);
  onestep_free(&s);
  return fail;
}

int main(int argc, char **argv) {
  int repeat = 3, nfiles = 0, fails = 0;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--repeat") && a + 1 < argc)
      repeat = atoi(argv[++a]);
    else if (argv[a][0] == '-') {
      fprintf(stderr, "%s: unknown option %s\n", argv[0], argv[a]);
      return 2;
    } else
      nfiles++;
  }
  if (nfiles == 0 || repeat < 1) {
    fprintf(stderr, "usage: %s FILE... [--repeat R]\n", argv[0]);
    return 2;
  }
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--repeat")) {
      ++a;
      continue;
    }
    fails += bench_file(argv[a], repeat);
  }
  return fails ? 1 : 0;
}
