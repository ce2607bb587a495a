/* arkode_dae.c - method arkode on a semi-explicit index-1 DAE.
 *
 * The DAE F(t, [z, w], [z', .]) = 0 (z = y[0..nd) differential, w the
 * algebraic unknowns, F affine in (z', w) at fixed z) is the ODE z' = f(t, z)
 * whose f the model's completion computes (w and z' from z). An ESDIRK stage
 * solves z = a + gamma f(t, z) by Newton: (I - gamma df/dz) dz = b. df/dz is
 * dense where f solves for multipliers, but the step is exact on the DAE's
 * sparse Jacobian: with K(cj) = dF/dy + cj dF/dyp at the completed state,
 * implicit differentiation of F(z, w(z), f(z)) = 0 gives
 *
 *     K(1/gamma) [dz; dw] = (K(1/gamma) - K(0)) [b; 0],
 *
 * whose dz part is (I - gamma df/dz)^-1 b. So each Newton setup evaluates the
 * model's Jacobian K(cj) = Fy + cj Fyp is linear in cj: a Jacobian update
 * evaluates the model's at cj = 0 and 1 (Fy and Fyp); each setup forms
 * K(1/gamma) = Fy + Fyp/gamma and factors it (KLU, with the engine's symbolic
 * analysis kept across events, or dense LU); each solve is one product with
 * Fyp/gamma and one back-substitution. ARKODE sees a matrix-based linear
 * solver with its own linear-system function (ARKStepSetLinSysFn) and an
 * opaque matrix: it decides when to update the Jacobian (jok) and to set up,
 * and scales a solution for the gamma moved since the setup, as for its own
 * matrices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arkode/arkode_arkstep.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "arkode_dae.h"
#include "kinematic_reduction.h"
#include "mbdae/status.h"
#include "sundials_util.h"

struct mbdae_arkode_dae {
  mbdae_engine *e;
  void *mem;              /* ARKODE */
  int n, nd;
  double *Y, *Yp;         /* completed state (scratch) */
  N_Vector Yv, W, R;      /* n: the template, the solution and right side of K x = r */
  SUNMatrix K;            /* K(1/gamma), then (dense) its factors */
  SUNLinearSolver inner;  /* dense LU or KLU on K */
  SUNMatrix outer_A;      /* what ARKODE is given: opaque */
  SUNLinearSolver outer;
  double *Fy, *Fyp;       /* K(0) and K(1) - K(0) at the last Jacobian update */
  double *D;              /* Fyp / gamma of the last linear system */
  size_t nvals;           /* nnz (KLU) or n * n (dense) */
  long jac_evals;
  SUNContext ctx;
  int red_tried;          /* 1: the kinematic rows were looked for */
  mbdae_kin_reduction *red; /* KLU: K solved through R (kinematic_reduction.c), or NULL */
  int use_red;            /* 1: the last setup factored R, 0: K */
};

/* w and yp from z: the completion, its output checked for NaN/inf */
static int complete(mbdae_arkode_dae *d, realtype t, const double *z) {
  mbdae_engine *e = d->e;
  if (z != d->Y) memcpy(d->Y, z, (size_t)d->nd * sizeof *d->Y);
  int rc = e->p->completion(t, d->Y, d->Yp, e->p->user_data);
  return mbdae_engine_check_finite(e, "completion", "yp", t, d->Yp, rc);
}

int mbdae_arkode_dae_rhs(realtype t, N_Vector z, N_Vector zdot, void *user_data) {
  mbdae_arkode_dae *d = user_data;
  if (d->e->step_probe) d->e->step_probe(d->e);
  int rc = complete(d, t, N_VGetArrayPointer(z));
  if (rc == 0) memcpy(N_VGetArrayPointer(zdot), d->Yp, (size_t)d->nd * sizeof *d->Yp);
  return rc;
}

int mbdae_arkode_dae_roots(realtype t, N_Vector z, realtype *g, void *user_data) {
  mbdae_arkode_dae *d = user_data;
  int rc = complete(d, t, N_VGetArrayPointer(z));
  if (rc != 0) return rc < 0 ? rc : -1; /* ARKODE's root functions have no recovery */
  return mbdae_engine_roots(d->e, t, d->Y, d->Yp, g);
}

int mbdae_arkode_dae_complete_state(mbdae_arkode_dae *d) {
  return mbdae_arkode_dae_complete_into(d, d->e->t, d->e->y, d->e->yp);
}

int mbdae_arkode_dae_complete_into(mbdae_arkode_dae *d, double t, double *y, double *yp) {
  mbdae_engine *e = d->e;
  int rc = complete(d, t, y);
  if (rc != 0) {
    snprintf(e->msg, sizeof e->msg, "the model's completion failed at t=%.12g in mode '%s' "
             "(status %d)%s%s", t, mbdae_engine_mode(e), rc, e->nonfinite[0] ? ": " : "",
             e->nonfinite);
    return MBDAE_ERR_CALLBACK;
  }
  memcpy(y, d->Y, (size_t)d->n * sizeof *d->Y);
  memcpy(yp, d->Yp, (size_t)d->n * sizeof *d->Yp);
  return MBDAE_OK;
}

long mbdae_arkode_dae_jac_evals(const mbdae_arkode_dae *d) { return d ? d->jac_evals : 0; }

/* K(cj) at the completed state into d->K */
static int eval_K(mbdae_arkode_dae *d, realtype t, double cj) {
  const mbdae_problem *p = d->e->p;
  d->jac_evals++;
  if (d->e->o->linsol == MBDAE_LINSOL_KLU) {
    mbdae_sparse_load_pattern(p, d->K);
    return p->jac_sparse(t, cj, d->Y, d->Yp, SUNSparseMatrix_Data(d->K), p->user_data);
  }
  SUNMatZero(d->K);
  return p->jac_dense(t, cj, d->Y, d->Yp, SUNDenseMatrix_Data(d->K), p->user_data);
}

static double *K_values(mbdae_arkode_dae *d) {
  return d->e->o->linsol == MBDAE_LINSOL_KLU ? SUNSparseMatrix_Data(d->K)
                                             : SUNDenseMatrix_Data(d->K);
}

static SUNLinearSolver_Type ls_type(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID ls_id(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

static SUNMatrix_ID mat_id(SUNMatrix A) {
  (void)A;
  return SUNMATRIX_CUSTOM;
}

/* ARKODE's linear system at (t, z, gamma): with jok the Jacobian of the
 * last update is kept, else Fy and Fyp are evaluated at the completed z. */
int mbdae_arkode_dae_linsys(realtype t, N_Vector z, N_Vector fz, SUNMatrix A, SUNMatrix M,
                            booleantype jok, booleantype *jcur, realtype gamma, void *user_data,
                            N_Vector t1, N_Vector t2, N_Vector t3) {
  (void)fz, (void)A, (void)M, (void)t1, (void)t2, (void)t3;
  mbdae_arkode_dae *d = user_data;
  if (!(gamma > 0)) return -1;
  double *v = K_values(d);
  *jcur = SUNFALSE;
  if (!jok) {
    int rc = complete(d, t, N_VGetArrayPointer(z));
    if (rc == 0) rc = eval_K(d, t, 0.0);
    if (rc == 0) memcpy(d->Fy, v, d->nvals * sizeof *v);
    if (rc == 0) rc = eval_K(d, t, 1.0);
    if (rc != 0) return rc < 0 ? -1 : 1;
    for (size_t k = 0; k < d->nvals; ++k) d->Fyp[k] = v[k] - d->Fy[k];
    *jcur = SUNTRUE;
    if (!d->red_tried && d->e->o->linsol == MBDAE_LINSOL_KLU &&
        d->e->o->arkode_reduce) {
      d->red_tried = 1; /* the pattern is fixed: once per run */
      int rrc = MBDAE_OK;
      d->red = mbdae_kin_reduction_create(d->e, d->ctx, d->nd, d->Fy, d->Fyp, &rrc);
      if (!d->red && rrc != MBDAE_OK) return -1;
      if (d->red && d->e->o->arkode_newton == MBDAE_ARKODE_NEWTON_MULTIPLIER &&
          mbdae_kin_reduction_multiplier_newton(d->red, d->e, d->ctx, d->nd) != MBDAE_OK)
        return -1;
    }
  }
  if (d->e->o->linsol == MBDAE_LINSOL_KLU) mbdae_sparse_load_pattern(d->e->p, d->K);
  for (size_t k = 0; k < d->nvals; ++k) {
    d->D[k] = d->Fyp[k] / gamma;
    v[k] = d->Fy[k] + d->D[k];
  }
  return 0;
}

/* factor K(1/gamma) */
static int ls_setup(SUNLinearSolver S, SUNMatrix unused) {
  (void)unused;
  mbdae_arkode_dae *d = S->content;
  if (d->red) {
    int rr = mbdae_kin_reduction_setup(d->red, K_values(d));
    if (rr < 0) return rr;
    d->use_red = rr == 0;
    if (d->use_red) return SUNLS_SUCCESS;
  }
  int rc = SUNLinSolSetup(d->inner, d->K);
  return rc == 0 ? SUNLS_SUCCESS : rc;
}

/* x = first nd entries of K^-1 D [b; 0] */
static int ls_solve(SUNLinearSolver S, SUNMatrix unused, N_Vector x, N_Vector b, realtype tol) {
  (void)unused, (void)tol;
  mbdae_arkode_dae *d = S->content;
  const double *bv = N_VGetArrayPointer(b);
  double *r = N_VGetArrayPointer(d->R);
  const int n = d->n, nd = d->nd;
  memset(r, 0, (size_t)n * sizeof *r);
  if (d->e->o->linsol == MBDAE_LINSOL_KLU) {
    const mbdae_index *cp = d->e->p->colptr, *ri = d->e->p->rowind;
    for (int j = 0; j < nd; ++j)
      for (mbdae_index k = cp[j]; k < cp[j + 1]; ++k) r[ri[k]] += d->D[k] * bv[j];
  } else {
    for (int j = 0; j < nd; ++j)
      for (int i = 0; i < n; ++i) r[i] += d->D[(size_t)j * (size_t)n + (size_t)i] * bv[j];
  }
  int rc = d->red && d->use_red
               ? mbdae_kin_reduction_solve(d->red, K_values(d), r, N_VGetArrayPointer(d->W))
               : SUNLinSolSolve(d->inner, d->K, d->W, d->R, 0.0);
  if (rc != 0) return rc;
  memcpy(N_VGetArrayPointer(x), N_VGetArrayPointer(d->W), (size_t)nd * sizeof(double));
  return SUNLS_SUCCESS;
}

static int ls_free(SUNLinearSolver S) {
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

static void mat_destroy(SUNMatrix A) { SUNMatFreeEmpty(A); }

mbdae_arkode_dae *mbdae_arkode_dae_create(mbdae_engine *e, SUNContext ctx, SUNLinearSolver *ls,
                                          SUNMatrix *A, int *rc) {
  const mbdae_problem *p = e->p;
  mbdae_arkode_dae *d = calloc(1, sizeof *d);
  *rc = MBDAE_ERR_MEMORY;
  if (!d) return NULL;
  d->e = e;
  d->ctx = ctx;
  d->n = e->n;
  d->nd = p->nd;
  d->Y = malloc((size_t)d->n * sizeof *d->Y);
  d->Yp = malloc((size_t)d->n * sizeof *d->Yp);
  if (!d->Y || !d->Yp) goto fail;
  memcpy(d->Y, e->y, (size_t)d->n * sizeof *d->Y);
  memcpy(d->Yp, e->yp, (size_t)d->n * sizeof *d->Yp);
  d->Yv = N_VMake_Serial(d->n, d->Y, ctx);
  d->W = N_VNew_Serial(d->n, ctx);
  d->R = N_VNew_Serial(d->n, ctx);
  if (!d->Yv || !d->W || !d->R) goto fail;
  *rc = mbdae_sundials_linear_solver(e, ctx, d->Yv, &d->K, &d->inner);
  if (*rc != MBDAE_OK) goto fail;
  *rc = MBDAE_ERR_MEMORY;
  d->nvals = e->o->linsol == MBDAE_LINSOL_KLU ? (size_t)p->nnz : (size_t)d->n * (size_t)d->n;
  d->D = malloc(d->nvals * sizeof *d->D);
  d->Fy = calloc(d->nvals, sizeof *d->Fy);
  d->Fyp = calloc(d->nvals, sizeof *d->Fyp);
  if (!d->D || !d->Fy || !d->Fyp) goto fail;
  d->outer_A = SUNMatNewEmpty(ctx);
  if (!d->outer_A) goto fail;
  d->outer_A->content = d;
  d->outer_A->ops->getid = mat_id;
  d->outer_A->ops->destroy = mat_destroy;
  d->outer = SUNLinSolNewEmpty(ctx);
  if (!d->outer) goto fail;
  d->outer->content = d;
  d->outer->ops->gettype = ls_type;
  d->outer->ops->getid = ls_id;
  d->outer->ops->setup = ls_setup;
  d->outer->ops->solve = ls_solve;
  d->outer->ops->free = ls_free;
  *ls = d->outer;
  *A = d->outer_A;
  *rc = MBDAE_OK;
  return d;
fail:
  mbdae_arkode_dae_free(&d);
  return NULL;
}

void mbdae_arkode_dae_attach(mbdae_arkode_dae *d, void *arkode_mem) { d->mem = arkode_mem; }

void mbdae_arkode_dae_free(mbdae_arkode_dae **pd) {
  mbdae_arkode_dae *d = pd ? *pd : NULL;
  if (!d) return;
  mbdae_kin_reduction_free(&d->red);
  if (d->outer) SUNLinSolFree(d->outer);
  if (d->outer_A) SUNMatDestroy(d->outer_A);
  if (d->inner) SUNLinSolFree(d->inner);
  if (d->K) SUNMatDestroy(d->K);
  if (d->Yv) N_VDestroy(d->Yv);
  if (d->W) N_VDestroy(d->W);
  if (d->R) N_VDestroy(d->R);
  free(d->D);
  free(d->Fy);
  free(d->Fyp);
  free(d->Y);
  free(d->Yp);
  free(d);
  *pd = NULL;
}
