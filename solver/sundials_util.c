/* sundials_util.c - matrices and linear solvers for the SUNDIALS backends.
 * The sparse pattern is a superset valid in every mode, so KLU's symbolic
 * analysis is done once and a mode switch costs a numeric refactorisation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <nvector/nvector_serial.h>

#include "mbdae/status.h"
#include "sundials_util.h"

void mbdae_sundials_error_handler(int code, const char *module,
                                  const char *function, char *msg, void *data) {
  mbdae_engine *e = data;
  (void)code;
  snprintf(e->sundials_msg, sizeof e->sundials_msg, "%s/%s: %s", module,
           function, msg);
}

const char *mbdae_flag_text(char *(*name_fn)(long int), long flag, char *buf,
                            size_t n) {
  char *s = name_fn(flag);
  snprintf(buf, n, "%s", s ? s : "unknown flag");
  free(s);
  return buf;
}

void mbdae_sparse_load_pattern(const mbdae_problem *p, SUNMatrix J) {
  sunindextype *cp = SUNSparseMatrix_IndexPointers(J);
  sunindextype *ri = SUNSparseMatrix_IndexValues(J);
  memcpy(cp, p->colptr, (size_t)(p->n + 1) * sizeof *cp);
  memcpy(ri, p->rowind, (size_t)p->nnz * sizeof *ri);
  memset(SUNSparseMatrix_Data(J), 0, (size_t)p->nnz * sizeof(realtype));
}

/* SUNLinSol_KLU's setup with the symbolic analysis kept across re-inits.
 * IDAReInit/CVodeReInit make SUNDIALS call the linear solver's initialize,
 * which asks for a first factorisation: a fresh ordering (AMD, or METIS at
 * several times the cost of a factorisation) and a numeric factorisation.
 * Our pattern never changes, so after an event only the numeric
 * factorisation (with partial pivoting, the values of a new mode may need
 * other pivots) is redone; the library's own setup does everything else. */
static int klu_setup_keep_symbolic(SUNLinearSolver S, SUNMatrix A) {
  SUNLinearSolverContent_KLU c = S->content;
  if (!c->first_factorize || !c->symbolic) {
    int rc = SUNLinSolSetup_KLU(S, A);
    if (rc == 0 || !c->symbolic || c->first_factorize) return rc;
    /* the refactorisation with the last pivots met a zero pivot: a mode
     * switch without a re-initialisation (ARKStepReset) can need other
     * pivots; factor afresh with partial pivoting, symbolic analysis kept */
    c->first_factorize = 1;
  }
  if (c->numeric) sun_klu_free_numeric(&c->numeric, &c->common);
  c->numeric = sun_klu_factor(SUNSparseMatrix_IndexPointers(A),
                              SUNSparseMatrix_IndexValues(A),
                              SUNSparseMatrix_Data(A), c->symbolic, &c->common);
  if (!c->numeric) return SUNLinSolSetup_KLU(S, A); /* analyse afresh */
  c->first_factorize = 0;
  c->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

/* KLU's user_order hook (klu_l_common.user_order) with the signature KLU
 * calls; common->user_data is the DAE's id vector or NULL. */
static SuiteSparse_long metis_hook(SuiteSparse_long n, SuiteSparse_long *Ap,
                                   SuiteSparse_long *Ai, SuiteSparse_long *Perm,
                                   klu_l_common *common) {
  return (SuiteSparse_long)mbdae_klu_metis_order((long)n, (long *)Ap, (long *)Ai,
                                                 (long *)Perm, common->user_data);
}

int mbdae_sundials_klu(mbdae_engine *e, SUNContext ctx, N_Vector y, SUNMatrix *A,
                       SUNLinearSolver *LS) {
  const mbdae_problem *p = e->p;
  if (!p->jac_sparse) {
    snprintf(e->msg, sizeof e->msg, "KLU needs the model's sparse Jacobian");
    return MBDAE_ERR_UNSUPPORTED;
  }
  *A = SUNSparseMatrix(e->n, e->n, p->nnz, CSC_MAT, ctx);
  if (!*A) return MBDAE_ERR_MEMORY;
  mbdae_sparse_load_pattern(p, *A);
  return mbdae_sundials_klu_on(e, ctx, y, *A, p->id, LS);
}

int mbdae_sundials_klu_on(mbdae_engine *e, SUNContext ctx, N_Vector y, SUNMatrix A,
                          const double *id, SUNLinearSolver *LS) {
  const mbdae_options *o = e->o;
  *LS = SUNLinSol_KLU(y, A, ctx);
  if (!*LS) {
    snprintf(e->msg, sizeof e->msg, "SUNLinSol_KLU failed");
    return MBDAE_ERR_SUNDIALS;
  }
  (*LS)->ops->setup = klu_setup_keep_symbolic;
  if (o->ordering == MBDAE_ORDERING_METIS) {
    sun_klu_common *c = SUNLinSol_KLUGetCommon(*LS);
    c->ordering = 3; /* KLU: 3 = user-supplied ordering */
    c->user_order = metis_hook;
    /* one block, so the hook's indices are the DAE's and the id vector
     * applies (the block-triangular split buys nothing for one
     * connected net) */
    c->btf = 0;
    c->user_data = (void *)id;
  } else if (SUNLinSol_KLUSetOrdering(*LS, (int)o->ordering) != 0) {
    snprintf(e->msg, sizeof e->msg, "SUNLinSol_KLUSetOrdering(%d) failed", (int)o->ordering);
    return MBDAE_ERR_SUNDIALS;
  }
  return MBDAE_OK;
}

int mbdae_sundials_linear_solver(mbdae_engine *e, SUNContext ctx, N_Vector y,
                                 SUNMatrix *A, SUNLinearSolver *LS) {
  if (e->o->linsol == MBDAE_LINSOL_KLU) return mbdae_sundials_klu(e, ctx, y, A, LS);
  *A = SUNDenseMatrix(e->n, e->n, ctx);
  if (!*A) return MBDAE_ERR_MEMORY;
  *LS = SUNLinSol_Dense(y, *A, ctx);
  if (!*LS) {
    snprintf(e->msg, sizeof e->msg, "SUNLinSol_Dense failed");
    return MBDAE_ERR_SUNDIALS;
  }
  return MBDAE_OK;
}

/* The right-hand side, roots and Jacobians of an ODE-form problem as CVODE
 * and ARKODE call them (CVRhsFn = ARKRhsFn, CVLsJacFn = ARKLsJacFn). */
int mbdae_sundials_ode_rhs(realtype t, N_Vector y, N_Vector ydot, void *ud) {
  mbdae_engine *e = ud;
  if (e->step_probe) e->step_probe(e);
  return mbdae_engine_check_finite(
      e, "rhs", "ydot", t, N_VGetArrayPointer(ydot),
      e->p->rhs(t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot), e->p->user_data));
}

int mbdae_sundials_error_weights(N_Vector y, N_Vector ewt, void *ud) {
  mbdae_engine *e = ud;
  const mbdae_options *o = e->o;
  const double *yy = N_VGetArrayPointer(y);
  double *w = N_VGetArrayPointer(ewt);
  for (int i = 0; i < e->n; ++i) {
    double tol = o->rtol * fabs(yy[i]) + (o->atol_vec ? o->atol_vec[i] : o->atol);
    if (!(tol > 0.0)) return -1;
    w[i] = 1.0 / tol;
  }
  if (e->p->weights(yy, w, e->p->user_data)) return -1;
  for (int i = 0; i < e->n; ++i)
    if (!(w[i] > 0.0 && isfinite(w[i]))) return -1;
  return 0;
}

int mbdae_sundials_ode_roots(realtype t, N_Vector y, realtype *g, void *ud) {
  mbdae_engine *e = ud;
  return mbdae_engine_roots(e, t, N_VGetArrayPointer(y), NULL, g);
}

int mbdae_sundials_ode_jac_dense(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                                 N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  mbdae_engine *e = ud;
  SUNMatZero(J);
  return e->p->jac_dense(t, 0.0, N_VGetArrayPointer(y), NULL,
                         SUNDenseMatrix_Data(J), e->p->user_data);
}

int mbdae_sundials_ode_jac_sparse(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                                  N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  mbdae_engine *e = ud;
  mbdae_sparse_load_pattern(e->p, J);
  return e->p->jac_sparse(t, 0.0, N_VGetArrayPointer(y), NULL,
                          SUNSparseMatrix_Data(J), e->p->user_data);
}

void mbdae_sundials_local_error_note(void *mem, N_Vector tmpl, int (*num_steps)(void *, long *),
                                     int (*weights)(void *, N_Vector),
                                     int (*errors)(void *, N_Vector), char *buf, size_t len) {
  buf[0] = '\0';
  N_Vector w = N_VClone(tmpl), el = N_VClone(tmpl);
  long nst = 0; /* before the first step the local error vector is unset (valgrind) */
  if (w && el && num_steps(mem, &nst) == 0 && nst > 0 && weights(mem, w) == 0 &&
      errors(mem, el) == 0) {
    const double *wa = N_VGetArrayPointer(w), *ea = N_VGetArrayPointer(el);
    int worst = -1;
    double big = -1;
    for (sunindextype i = 0; i < N_VGetLength(tmpl); ++i)
      if (fabs(wa[i] * ea[i]) > big) big = fabs(wa[i] * ea[i]), worst = (int)i;
    if (worst >= 0)
      snprintf(buf, len, "; largest weighted local error y[%d] = %.3e", worst, big);
  }
  if (w) N_VDestroy(w);
  if (el) N_VDestroy(el);
}
