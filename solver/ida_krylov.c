/* ida_krylov.c - IDA's Newton systems (dF/dy + cj dF/dy') by SPGMR
 * (SUNDIALS' restarted GMRES) on IDA's difference-quotient products, left
 * preconditioned (doc/engine.md, "Krylov"):
 * - spgmr: by a KLU factorisation of the model's sparse iteration matrix,
 *   kept across set-ups while GMRES converges quickly. The products are
 *   always current, so a stale preconditioner costs Krylov iterations, not
 *   Newton failures: it is evaluated and refactored only at the first
 *   set-up after a (re)start, after a linear or Newton convergence failure,
 *   or when the iterations per linear solve since the last set-up exceed
 *   KRYLOV_REFACTOR_ITERS. The factorisations are what the KLU path pays
 *   for at every set-up (84 % of a 100 x 100 net's profile).
 * - spgmr-jacobi: by the diagonal of the iteration matrix, re-evaluated at
 *   every set-up (cheap: one Jacobian evaluation, no factorisation). */
#include "ida_krylov.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "mbdae/status.h"
#include "sundials_util.h"

/* Krylov dimension (SPGMR's maxl; IDA's default is 5) */
#define KRYLOV_MAXL 20
/* the iterations per linear solve above which a kept factorisation is
 * renewed: a factorisation of a 100 x 100 net costs about 60 solves with
 * its factors, and one GMRES iteration a solve and a residual */
#define KRYLOV_REFACTOR_ITERS 4.0

struct mbdae_ida_krylov {
  mbdae_engine *e;
  void *mem;
  int jacobi;          /* 1: diagonal; 0: KLU factors */
  SUNMatrix A;         /* the iteration matrix (the problem's pattern) */
  SUNLinearSolver klu; /* its factorisation (spgmr) */
  N_Vector dinv;       /* inverse diagonal (spgmr-jacobi) */
  int current;         /* 1: a factorisation exists since the last (re)start */
  long nli, nni, ncfl, ncfn; /* IDA's counters at the last set-up */
  long evals;          /* Jacobian evaluations (and factorisations) */
};

static int evaluate(mbdae_ida_krylov *k, double t, N_Vector y, N_Vector yp, double cj) {
  const mbdae_problem *p = k->e->p;
  mbdae_sparse_load_pattern(p, k->A);
  double *v = SUNSparseMatrix_Data(k->A);
  int rc = p->jac_sparse(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), v,
                         p->user_data);
  if (rc != 0) return rc;
  k->evals++;
  if (!k->jacobi) {
    int flag = SUNLinSolSetup(k->klu, k->A);
    return flag == 0 ? 0 : flag > 0 ? 1 : -1; /* > 0: a zero pivot, IDA may retry */
  }
  double *dinv = N_VGetArrayPointer(k->dinv);
  for (int j = 0; j < p->n; ++j) {
    double d = 0.0;
    for (mbdae_index q = p->colptr[j]; q < p->colptr[j + 1]; ++q)
      if (p->rowind[q] == j) d = v[q];
    /* a structurally or numerically zero diagonal (an algebraic row)
     * is left unscaled */
    dinv[j] = d != 0.0 && isfinite(d) ? 1.0 / d : 1.0;
  }
  return 0;
}

static int psetup(realtype t, N_Vector y, N_Vector yp, N_Vector r, realtype cj, void *ud) {
  (void)r;
  mbdae_ida_krylov *k = mbdae_ida_krylov_of(ud);
  if (!k) return -1;
  long nli = 0, nni = 0, ncfl = 0, ncfn = 0;
  if (IDAGetNumLinIters(k->mem, &nli) != IDA_SUCCESS ||
      IDAGetNumNonlinSolvIters(k->mem, &nni) != IDA_SUCCESS ||
      IDAGetNumLinConvFails(k->mem, &ncfl) != IDA_SUCCESS ||
      IDAGetNumNonlinSolvConvFails(k->mem, &ncfn) != IDA_SUCCESS)
    return -1;
  int renew = k->jacobi || !k->current || ncfl > k->ncfl || ncfn > k->ncfn ||
              (double)(nli - k->nli) > KRYLOV_REFACTOR_ITERS * (double)(nni - k->nni);
  k->nli = nli, k->nni = nni, k->ncfl = ncfl, k->ncfn = ncfn;
  if (!renew) return 0;
  int rc = evaluate(k, t, y, yp, cj);
  k->current = rc == 0;
  return rc;
}

static int psolve(realtype t, N_Vector y, N_Vector yp, N_Vector r, N_Vector rvec,
                  N_Vector zvec, realtype cj, realtype delta, void *ud) {
  (void)t, (void)y, (void)yp, (void)r, (void)cj, (void)delta;
  mbdae_ida_krylov *k = mbdae_ida_krylov_of(ud);
  if (!k || !k->current) return -1;
  if (k->jacobi) {
    N_VProd(k->dinv, rvec, zvec);
    return 0;
  }
  int flag = SUNLinSolSolve(k->klu, k->A, zvec, rvec, 0.0);
  return flag == 0 ? 0 : flag > 0 ? 1 : -1;
}

int mbdae_ida_krylov_create(mbdae_engine *e, SUNContext ctx, N_Vector y, void *mem,
                            SUNLinearSolver *LS, mbdae_ida_krylov **out) {
  const mbdae_problem *p = e->p;
  if (!p->jac_sparse) {
    snprintf(e->msg, sizeof e->msg, "linear_solver %s needs the model's sparse Jacobian",
             e->o->linsol == MBDAE_LINSOL_SPGMR ? "spgmr" : "spgmr-jacobi");
    return MBDAE_ERR_UNSUPPORTED;
  }
  mbdae_ida_krylov *k = calloc(1, sizeof *k);
  if (!k) return MBDAE_ERR_MEMORY;
  *out = k;
  k->e = e;
  k->mem = mem;
  k->jacobi = e->o->linsol == MBDAE_LINSOL_SPGMR_JACOBI;
  if (k->jacobi) {
    k->A = SUNSparseMatrix(e->n, e->n, p->nnz, CSC_MAT, ctx);
    k->dinv = N_VClone(y);
    if (!k->A || !k->dinv) return MBDAE_ERR_MEMORY;
  } else {
    int rc = mbdae_sundials_klu(e, ctx, y, &k->A, &k->klu);
    if (rc != MBDAE_OK) return rc;
    if (SUNLinSolInitialize(k->klu) != 0) {
      snprintf(e->msg, sizeof e->msg, "SUNLinSolInitialize (KLU preconditioner) failed");
      return MBDAE_ERR_SUNDIALS;
    }
  }
  *LS = SUNLinSol_SPGMR(y, SUN_PREC_LEFT, KRYLOV_MAXL, ctx);
  if (!*LS) {
    snprintf(e->msg, sizeof e->msg, "SUNLinSol_SPGMR failed");
    return MBDAE_ERR_SUNDIALS;
  }
  if (IDASetLinearSolver(mem, *LS, NULL) != IDA_SUCCESS ||
      IDASetPreconditioner(mem, psetup, psolve) != IDA_SUCCESS) {
    snprintf(e->msg, sizeof e->msg, "IDA: cannot attach SPGMR and its preconditioner");
    return MBDAE_ERR_SUNDIALS;
  }
  return MBDAE_OK;
}

void mbdae_ida_krylov_reset(mbdae_ida_krylov *k) {
  if (!k) return;
  k->current = 0;
  k->nli = k->nni = k->ncfl = k->ncfn = 0; /* IDAReInit zeroes IDA's counters */
}

void mbdae_ida_krylov_stats(const mbdae_ida_krylov *k, mbdae_stats *s) {
  if (k) s->prec_factors = k->evals;
}

void mbdae_ida_krylov_free(mbdae_ida_krylov **k) {
  if (!k || !*k) return;
  if ((*k)->klu) SUNLinSolFree((*k)->klu);
  if ((*k)->A) SUNMatDestroy((*k)->A);
  if ((*k)->dinv) N_VDestroy((*k)->dinv);
  free(*k);
  *k = NULL;
}
