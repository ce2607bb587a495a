/* ns_factor.c - LDL^T (CHOLMOD) or LU (KLU) of a quasi-definite reduced
 * system (ns_factor.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cholmod.h>
#include <klu.h>

#include "ns_factor.h"

/* NS_FACTOR_AUTO uses LDL^T from this many unknowns. Measured on the net
 * captures' reduced systems (bench_factor_reduced, analysis + factorisation,
 * medians): 30 and 35 unknowns (5 x 5 net) KLU 10 / 18 us, LDL^T 9 / 16 us;
 * 170 (10 x 10) 0.078 against 0.062 ms; 1,746 (30 x 30) 2.6 against 1.5 ms;
 * 19,803 (100 x 100) 82 against 23 ms. Below the tie the systems are a few
 * rows (a ball, a chain's contacts) and KLU's pivoting is kept. */
#define NS_FACTOR_LDL_MIN 32
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
  /* CHOLMOD */
  cholmod_common cc;
  int cc_started;
  cholmod_factor *L;
  int ldl_pattern; /* L's analysis belongs to the current pattern */
  int ldl_refused; /* the current values gave no valid LDL^T: KLU next */
  /* cholmod_solve2's result and workspaces for blocks of w = 1..4
   * right-hand sides: it reallocates them whenever their shape changes, so
   * each width keeps its own (reallocated only when n changes) */
  cholmod_dense *X[4], *Y[4], *E[4];
};

ns_factor *ns_factor_create(ns_factor_kind kind) {
  ns_factor *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->kind = kind;
  f->cur = NS_FACTOR_AUTO;
  klu_defaults(&f->kc);
  if (!cholmod_start(&f->cc)) {
    free(f);
    return NULL;
  }
  f->cc_started = 1;
  f->cc.print = 0; /* no I/O below the driver: failures are return codes */
  f->cc.nmethods = 1;
  f->cc.method[0].ordering = CHOLMOD_AMD;
  f->cc.postorder = 1;
  f->cc.supernodal = CHOLMOD_SIMPLICIAL;
  f->cc.final_ll = 0;
  return f;
}

void ns_factor_free(ns_factor **fp) {
  if (!fp || !*fp) return;
  ns_factor *f = *fp;
  if (f->knum) klu_free_numeric(&f->knum, &f->kc);
  if (f->ksym) klu_free_symbolic(&f->ksym, &f->kc);
  if (f->cc_started) {
    cholmod_free_factor(&f->L, &f->cc);
    for (int w = 0; w < 4; ++w) {
      cholmod_free_dense(&f->X[w], &f->cc);
      cholmod_free_dense(&f->Y[w], &f->cc);
      cholmod_free_dense(&f->E[w], &f->cc);
    }
    cholmod_finish(&f->cc);
  }
  free(f);
  *fp = NULL;
}

ns_factor_kind ns_factor_current(const ns_factor *f) { return f->cur; }

/* M as CHOLMOD sees it: the lower triangle of the given CSC (the upper is
 * ignored with stype -1), borrowed, not copied. */
static cholmod_sparse chol_view(const ns_factor *f, const int *p, const int *i, const double *x) {
  cholmod_sparse a;
  memset(&a, 0, sizeof a);
  a.nrow = a.ncol = (size_t)f->n;
  a.nzmax = (size_t)p[f->n];
  a.p = (void *)p;
  a.i = (void *)i;
  a.x = (void *)x;
  a.stype = -1;
  a.itype = CHOLMOD_INT;
  a.xtype = CHOLMOD_REAL;
  a.dtype = CHOLMOD_DOUBLE;
  a.sorted = 0;
  a.packed = 1;
  return a;
}

/* LDL^T with the quasi-definite signs: 0, 1 invalid (zero, non-finite or
 * wrong-signed pivot), -3 out of memory. */
static int ldl_factor(ns_factor *f, const int *p, const int *i, const double *x) {
  cholmod_sparse a = chol_view(f, p, i, x);
  if (!f->ldl_pattern) {
    cholmod_free_factor(&f->L, &f->cc);
    f->L = cholmod_analyze(&a, &f->cc);
    if (!f->L) return f->cc.status == CHOLMOD_OUT_OF_MEMORY ? -3 : 1;
    f->ldl_pattern = 1;
  }
  if (!cholmod_factorize(&a, f->L, &f->cc))
    return f->cc.status == CHOLMOD_OUT_OF_MEMORY ? -3 : 1;
  const cholmod_factor *L = f->L;
  if (f->cc.status != CHOLMOD_OK || L->minor < L->n || L->is_ll || L->is_super) return 1;
  const int *Lp = L->p, *perm = L->Perm;
  const double *Lx = L->x;
  for (int k = 0; k < f->n; ++k) {
    const double d = Lx[Lp[k]];
    if (!isfinite(d) || !(perm[k] < f->npos ? d > 0.0 : d < 0.0)) return 1;
  }
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

int ns_factor_solve(ns_factor *f, int nrhs, double *b) {
  if (nrhs < 1 || f->n == 0) return 0;
  if (f->cur == NS_FACTOR_KLU) return klu_solve(f->ksym, f->knum, f->n, nrhs, b, &f->kc) ? 0 : -2;
  if (f->cur != NS_FACTOR_LDL) return -2;
  /* blocks of four (CHOLMOD's simplicial solves sweep the factor once for
   * up to four columns), the remainder as one block */
  const size_t n = (size_t)f->n;
  for (int c = 0; c < nrhs; c += 4) {
    const int w = nrhs - c < 4 ? nrhs - c : 4;
    cholmod_dense bd;
    memset(&bd, 0, sizeof bd);
    bd.nrow = bd.d = n;
    bd.ncol = (size_t)w;
    bd.nzmax = n * (size_t)w;
    bd.x = b + (size_t)c * n;
    bd.xtype = CHOLMOD_REAL;
    bd.dtype = CHOLMOD_DOUBLE;
    if (!cholmod_solve2(CHOLMOD_A, f->L, &bd, NULL, &f->X[w - 1], NULL, &f->Y[w - 1], &f->E[w - 1],
                        &f->cc) ||
        !f->X[w - 1])
      return -2;
    memcpy(bd.x, f->X[w - 1]->x, bd.nzmax * sizeof *b);
  }
  return 0;
}
