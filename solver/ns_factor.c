/* ns_factor.c - LDL^T (SuiteSparse LDL, AMD order) or LU (KLU) of a
 * quasi-definite reduced system (ns_factor.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <amd.h>
#include <klu.h>
#include <ldl.h>

#include "ns_factor.h"

/* NS_FACTOR_AUTO uses LDL^T from this many unknowns. Measured on the net
 * captures' reduced systems (bench_factor_reduced, analysis +
 * factorisation, medians): 35 unknowns (5 x 5 net) KLU 19 us, LDL^T 10 us;
 * 170 (10 x 10) 0.10 against 0.048 ms; 1,746 (30 x 30) 2.2 against 1.0 ms;
 * 19,803 (100 x 100) 56 against 19 ms. Below, the systems are a few rows (a
 * ball, a chain's contacts) where either costs microseconds and KLU's
 * pivoting is kept. */
#define NS_FACTOR_LDL_MIN 32
/* LDL^T solves of several right-hand sides sweep L once for blocks of this
 * many (interleaved, so one entry of L updates them all): 32 right-hand
 * sides on the 100 x 100 reduced system took 54 ms one by one (LDL's own
 * solves), 48 ms with KLU (four at a time); see ldl_solve_block. */
#define NS_FACTOR_BLOCK 4
/* KLU refactorisation with the old pivot order is kept while its
 * reciprocal pivot growth estimate stays above this (else fresh pivoting). */
#define NS_FACTOR_KLU_RCOND 1e-12

struct ns_factor {
  ns_factor_kind kind;
  ns_factor_kind cur; /* the implementation holding the current factor */
  int n, npos;
  /* KLU */
  klu_common kc;
  klu_symbolic *ksym;
  klu_numeric *knum;
  int klu_pattern; /* ksym belongs to the current pattern */
  /* LDL: the AMD permutation, the elimination tree, L (CSC, unit diagonal
   * not stored) and D; arrays of n (cap_n) and of nnz(L) (cap_l) */
  int *perm, *pinv, *parent, *lnz, *flag, *pattern, *lp, *li;
  double *lx, *d, *y, *work;
  int cap_n, cap_l;
  int ldl_pattern; /* the analysis belongs to the current pattern */
  int ldl_refused; /* the current values gave no valid LDL^T: KLU next */
};

ns_factor *ns_factor_create(ns_factor_kind kind) {
  ns_factor *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->kind = kind;
  f->cur = NS_FACTOR_AUTO;
  klu_defaults(&f->kc);
  return f;
}

void ns_factor_free(ns_factor **fp) {
  if (!fp || !*fp) return;
  ns_factor *f = *fp;
  if (f->knum) klu_free_numeric(&f->knum, &f->kc);
  if (f->ksym) klu_free_symbolic(&f->ksym, &f->kc);
  free(f->perm), free(f->pinv), free(f->parent), free(f->lnz), free(f->flag);
  free(f->pattern), free(f->lp), free(f->li), free(f->lx), free(f->d), free(f->y), free(f->work);
  free(f);
  *fp = NULL;
}

ns_factor_kind ns_factor_current(const ns_factor *f) { return f->cur; }

/* Room for n unknowns in the LDL arrays: 0, or -3 when out of memory. */
static int ldl_room(ns_factor *f, int n) {
  if (n <= f->cap_n) return 0;
  int **iv[8] = {&f->perm, &f->pinv, &f->parent, &f->lnz, &f->flag, &f->pattern, &f->lp, NULL};
  for (int k = 0; iv[k]; ++k) {
    int *t = realloc(*iv[k], ((size_t)n + 1) * sizeof *t);
    if (!t) return -3;
    *iv[k] = t;
  }
  double **dv[4] = {&f->d, &f->y, &f->work, NULL};
  for (int k = 0; dv[k]; ++k) {
    /* work: NS_FACTOR_BLOCK right-hand sides interleaved */
    const size_t len = (size_t)n * (dv[k] == &f->work ? NS_FACTOR_BLOCK : 1);
    double *t = realloc(*dv[k], len * sizeof *t);
    if (!t) return -3;
    *dv[k] = t;
  }
  f->cap_n = n;
  return 0;
}

/* LDL^T with the quasi-definite signs: 0, 1 invalid (zero, non-finite or
 * wrong-signed pivot), -3 out of memory. LDL reads the upper triangle of
 * P M P^T from the given CSC (the rest is ignored, rows in any order). */
static int ldl_factor(ns_factor *f, const int *p, const int *i, const double *x) {
  const int n = f->n;
  if (!f->ldl_pattern) {
    if (ldl_room(f, n)) return -3;
    double info[AMD_INFO];
    const int st = amd_order(n, p, i, f->perm, NULL, info);
    if (st == AMD_OUT_OF_MEMORY) return -3;
    if (st != AMD_OK && st != AMD_OK_BUT_JUMBLED) return 1;
    ldl_symbolic(n, (int *)p, (int *)i, f->lp, f->parent, f->lnz, f->flag, f->perm, f->pinv);
    const int nl = f->lp[n];
    if (nl > f->cap_l) {
      int *li = realloc(f->li, ((size_t)nl + 1) * sizeof *li);
      if (li) f->li = li;
      double *lx = li ? realloc(f->lx, ((size_t)nl + 1) * sizeof *lx) : NULL;
      if (!lx) return -3;
      f->lx = lx;
      f->cap_l = nl;
    }
    f->ldl_pattern = 1;
  }
  if (ldl_numeric(n, (int *)p, (int *)i, (double *)x, f->lp, f->parent, f->lnz, f->li, f->lx, f->d,
                  f->y, f->pattern, f->flag, f->perm, f->pinv) != n)
    return 1;
  for (int k = 0; k < n; ++k)
    if (!isfinite(f->d[k]) || !(f->perm[k] < f->npos ? f->d[k] > 0.0 : f->d[k] < 0.0)) return 1;
  return 0;
}

/* KLU: 0, -2 singular, -3 out of memory. */
static int klu_full(ns_factor *f, const int *p, const int *i, const double *x) {
  if (f->knum) klu_free_numeric(&f->knum, &f->kc);
  if (!f->klu_pattern) {
    if (f->ksym) klu_free_symbolic(&f->ksym, &f->kc);
    f->ksym = klu_analyze(f->n, (int *)p, (int *)i, &f->kc);
    if (!f->ksym) return f->kc.status == KLU_OUT_OF_MEMORY ? -3 : -2;
    f->klu_pattern = 1;
  }
  f->knum = klu_factor((int *)p, (int *)i, (double *)x, f->ksym, &f->kc);
  if (!f->knum || f->kc.status != KLU_OK) return f->kc.status == KLU_OUT_OF_MEMORY ? -3 : -2;
  return 0;
}

int ns_factor_factor(ns_factor *f, int n, int npos, const int *colptr, const int *rowind,
                     const double *values, int same_pattern) {
  if (!same_pattern || n != f->n || npos != f->npos) {
    f->n = n;
    f->npos = npos;
    f->klu_pattern = f->ldl_pattern = 0;
  }
  f->cur = NS_FACTOR_AUTO;
  const int try_ldl = !f->ldl_refused && (f->kind == NS_FACTOR_LDL ||
                                          (f->kind == NS_FACTOR_AUTO && n >= NS_FACTOR_LDL_MIN));
  f->ldl_refused = 0;
  if (try_ldl) {
    const int rc = ldl_factor(f, colptr, rowind, values);
    if (rc < 0) return rc;
    if (rc == 0) {
      f->cur = NS_FACTOR_LDL;
      return 0;
    }
  }
  const int rc = klu_full(f, colptr, rowind, values);
  if (rc == 0) f->cur = NS_FACTOR_KLU;
  return rc;
}

int ns_factor_refactor(ns_factor *f, const int *colptr, const int *rowind, const double *values) {
  if (f->cur == NS_FACTOR_LDL) {
    if (ldl_factor(f, colptr, rowind, values) == 0) return 0;
    f->cur = NS_FACTOR_AUTO;
    f->ldl_refused = 1;
    return 1;
  }
  if (f->cur == NS_FACTOR_KLU && f->knum &&
      klu_refactor((int *)colptr, (int *)rowind, (double *)values, f->ksym, f->knum, &f->kc) &&
      klu_rcond(f->ksym, f->knum, &f->kc) && f->kc.rcond > NS_FACTOR_KLU_RCOND)
    return 0;
  f->cur = NS_FACTOR_AUTO;
  return 1;
}

/* LDL's permute / L / D / L^T / permute-back solve (ldl_perm ... ldl_permt)
 * for w <= NS_FACTOR_BLOCK columns of b at once, interleaved in work (the
 * unused columns of a block carry zeros). */
static void ldl_solve_block(ns_factor *f, int w, double *b) {
  enum { B = NS_FACTOR_BLOCK };
  const int n = f->n, *lp = f->lp, *li = f->li, *perm = f->perm;
  const double *lx = f->lx, *d = f->d;
  double *x = f->work;
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < B; ++c) x[k * B + c] = c < w ? b[(size_t)c * (size_t)n + perm[k]] : 0.0;
  /* the block of row j held in t: rows i > j of L never alias it */
  double t[B];
  for (int j = 0; j < n; ++j) {
    for (int c = 0; c < B; ++c) t[c] = x[(size_t)j * B + c];
    for (int p = lp[j]; p < lp[j + 1]; ++p) {
      double *xi = x + (size_t)li[p] * B;
      const double l = lx[p];
      for (int c = 0; c < B; ++c) xi[c] -= l * t[c];
    }
    for (int c = 0; c < B; ++c) x[(size_t)j * B + c] = t[c] / d[j];
  }
  for (int j = n - 1; j >= 0; --j) {
    for (int c = 0; c < B; ++c) t[c] = x[(size_t)j * B + c];
    for (int p = lp[j]; p < lp[j + 1]; ++p) {
      const double *xi = x + (size_t)li[p] * B;
      const double l = lx[p];
      for (int c = 0; c < B; ++c) t[c] -= l * xi[c];
    }
    for (int c = 0; c < B; ++c) x[(size_t)j * B + c] = t[c];
  }
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < w; ++c) b[(size_t)c * (size_t)n + perm[k]] = x[k * B + c];
}

int ns_factor_solve(ns_factor *f, int nrhs, double *b) {
  if (nrhs < 1 || f->n == 0) return 0;
  if (f->cur == NS_FACTOR_KLU) return klu_solve(f->ksym, f->knum, f->n, nrhs, b, &f->kc) ? 0 : -2;
  if (f->cur != NS_FACTOR_LDL) return -2;
  const int n = f->n;
  int c = 0;
  for (; nrhs - c >= 2; c += NS_FACTOR_BLOCK)
    ldl_solve_block(f, nrhs - c < NS_FACTOR_BLOCK ? nrhs - c : NS_FACTOR_BLOCK,
                    b + (size_t)c * (size_t)n);
  for (; c < nrhs; ++c) {
    double *bc = b + (size_t)c * (size_t)n;
    ldl_perm(n, f->work, bc, f->perm);
    ldl_lsolve(n, f->work, f->lp, f->li, f->lx);
    ldl_dsolve(n, f->work, f->d);
    ldl_ltsolve(n, f->work, f->lp, f->li, f->lx);
    ldl_permt(n, bc, f->work, f->perm);
  }
  return 0;
}
