/* backend_cvode.c - the CVODE backend for ODE-form problems: BDF with
 * Newton (dense or KLU sparse Jacobian, analytic or CVODE's finite
 * differences for dense) or Adams-Moulton with fixed-point iteration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "engine_impl.h"
#include "mbdae/status.h"
#include "sundials_util.h"

typedef struct cvode_backend {
  SUNContext ctx;
  void *mem;
  N_Vector y, atol;
  SUNMatrix A;
  SUNLinearSolver LS;
  SUNNonlinearSolver NLS;
  mbdae_stats acc;
  long nst_seen;   /* steps already reported to the engine since the last re-init */
  double h0;       /* the engine's first step after the last re-init (0: CVODE's) */
  N_Vector y_r;    /* the state of the last re-init with h0 > 0, at t_r */
  double t_r;
  double *jac;     /* KLU: the last Jacobian's values (the pattern's nnz) */
  mbdae_index *diag; /* KLU: slot of each diagonal entry */
} cvode_backend;

/* Report steps taken since the last look (called from the right-hand side,
 * at least once per step, and after advance). */
static void cv_probe(mbdae_engine *e) {
  cvode_backend *b = e->backend;
  long nst = 0;
  if (!b || !b->mem || CVodeGetNumSteps(b->mem, &nst) != CV_SUCCESS || nst <= b->nst_seen)
    return;
  realtype h = 0;
  int q = 1;
  CVodeGetLastStep(b->mem, &h);
  CVodeGetLastOrder(b->mem, &q);
  mbdae_engine_note_steps(e, nst - b->nst_seen, h, q);
  b->nst_seen = nst;
}

#define CV_CHECK(call)                                                        \
  do {                                                                        \
    int flag_ = (call);                                                       \
    if (flag_ < 0) {                                                          \
      char fb_[64];                                                           \
      snprintf(e->msg, sizeof e->msg, "%s failed: %s", #call,                 \
               mbdae_flag_text(CVodeGetReturnFlagName, flag_, fb_, sizeof fb_)); \
      return MBDAE_ERR_SUNDIALS;                                              \
    }                                                                         \
  } while (0)

static int cv_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                    double *t1);

/* The Newton matrix I - gamma J straight into A (CVLsLinSysFn), from the
 * Jacobian kept in b->jac, evaluated only when CVODE says it is stale. The
 * default path zeroes A, copies it to a saved J and back at every setup and
 * adds the identity: on the tow's 321 unknowns those copies cost more than
 * KLU's refactorisation (the tow over 40 s: 0.74x the CPU, same steps). */
static int cv_linsys(realtype t, N_Vector y, N_Vector fy, SUNMatrix A, booleantype jok,
                     booleantype *jcur, realtype gamma, void *ud, N_Vector t1, N_Vector t2,
                     N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  mbdae_engine *e = ud;
  const mbdae_problem *p = e->p;
  cvode_backend *b = e->backend;
  if (!jok) {
    memset(b->jac, 0, (size_t)p->nnz * sizeof *b->jac);
    int rc = p->jac_sparse(t, 0.0, N_VGetArrayPointer(y), NULL, b->jac, p->user_data);
    if (rc) return rc;
    *jcur = SUNTRUE;
  } else {
    *jcur = SUNFALSE;
  }
  mbdae_sparse_load_pattern(p, A);
  double *a = SUNSparseMatrix_Data(A);
  for (mbdae_index k = 0; k < p->nnz; ++k) a[k] = -gamma * b->jac[k];
  for (int i = 0; i < e->n; ++i) a[b->diag[i]] += 1.0;
  return 0;
}

/* Slots of the diagonal in the problem's pattern; 0 when one is missing (then
 * CVODE's own setup, which inserts it, is used). */
static int cv_diag_slots(const mbdae_problem *p, int n, mbdae_index *diag) {
  for (int j = 0; j < n; ++j) {
    diag[j] = -1;
    for (mbdae_index k = p->colptr[j]; k < p->colptr[j + 1]; ++k)
      if (p->rowind[k] == j) diag[j] = k;
    if (diag[j] < 0) return 0;
  }
  return 1;
}

static int cv_create(mbdae_engine *e) {
  const mbdae_problem *p = e->p;
  const mbdae_options *o = e->o;
  cvode_backend *b = calloc(1, sizeof *b);
  if (!b) return MBDAE_ERR_MEMORY;
  e->backend = b;
  e->step_probe = cv_probe;
  e->step_dense = cv_dense;
  if (SUNContext_Create(NULL, &b->ctx) != 0) return MBDAE_ERR_SUNDIALS;
  b->y = N_VMake_Serial(e->n, e->y, b->ctx);
  if (!b->y) return MBDAE_ERR_MEMORY;
  int adams = o->method == MBDAE_METHOD_CVODE_ADAMS;
  b->mem = CVodeCreate(adams ? CV_ADAMS : CV_BDF, b->ctx);
  if (!b->mem) return MBDAE_ERR_MEMORY;
  CV_CHECK(CVodeInit(b->mem, mbdae_sundials_ode_rhs, e->t, b->y));
  CV_CHECK(CVodeSetUserData(b->mem, e));
  CV_CHECK(CVodeSetErrHandlerFn(b->mem, mbdae_sundials_error_handler, e));
  if (p->weights) {
    CV_CHECK(CVodeWFtolerances(b->mem, mbdae_sundials_error_weights));
  } else if (o->atol_vec) {
    b->atol = N_VNew_Serial(e->n, b->ctx);
    if (!b->atol) return MBDAE_ERR_MEMORY;
    memcpy(N_VGetArrayPointer(b->atol), o->atol_vec, (size_t)e->n * sizeof(double));
    CV_CHECK(CVodeSVtolerances(b->mem, o->rtol, b->atol));
  } else {
    CV_CHECK(CVodeSStolerances(b->mem, o->rtol, o->atol));
  }
  CV_CHECK(CVodeSetMaxNumSteps(b->mem, o->max_steps));
  CV_CHECK(CVodeSetStopTime(b->mem, o->t_end));
  if (o->h_max > 0) CV_CHECK(CVodeSetMaxStep(b->mem, o->h_max));
  if (o->h_init > 0) CV_CHECK(CVodeSetInitStep(b->mem, o->h_init));
  if (o->max_order > 0) CV_CHECK(CVodeSetMaxOrd(b->mem, o->max_order));
  if (p->nroots > 0) {
    CV_CHECK(CVodeRootInit(b->mem, p->nroots, mbdae_sundials_ode_roots));
    CV_CHECK(CVodeSetNoInactiveRootWarn(b->mem));
  }
  if (adams) { /* non-stiff: no Jacobian, fixed-point iteration */
    b->NLS = SUNNonlinSol_FixedPoint(b->y, 0, b->ctx);
    if (!b->NLS) return MBDAE_ERR_MEMORY;
    CV_CHECK(CVodeSetNonlinearSolver(b->mem, b->NLS));
    return MBDAE_OK;
  }
  int rc = mbdae_sundials_linear_solver(e, b->ctx, b->y, &b->A, &b->LS);
  if (rc != MBDAE_OK) return rc;
  CV_CHECK(CVodeSetLinearSolver(b->mem, b->LS, b->A));
  if (o->linsol == MBDAE_LINSOL_KLU) {
    b->diag = malloc((size_t)e->n * sizeof *b->diag);
    if (!b->diag) return MBDAE_ERR_MEMORY;
    if (cv_diag_slots(p, e->n, b->diag)) {
      b->jac = malloc((size_t)(p->nnz > 0 ? p->nnz : 1) * sizeof *b->jac);
      if (!b->jac) return MBDAE_ERR_MEMORY;
      CV_CHECK(CVodeSetLinSysFn(b->mem, cv_linsys));
    } else {
      CV_CHECK(CVodeSetJacFn(b->mem, mbdae_sundials_ode_jac_sparse));
    }
  }
  else if (p->jac_dense)
    CV_CHECK(CVodeSetJacFn(b->mem, mbdae_sundials_ode_jac_dense));
  return MBDAE_OK;
}

static void cv_describe_failure(mbdae_engine *e, int flag) {
  cvode_backend *b = e->backend;
  realtype tcur = e->t;
  char fb[64];
  CVodeGetCurrentTime(b->mem, &tcur);
  char ele[160] = "";
  mbdae_sundials_local_error_note(b->mem, b->y, CVodeGetNumSteps, CVodeGetErrWeights,
                                  CVodeGetEstLocalErrors, ele, sizeof ele);
  long ncf = 0, netf = 0; /* what the corrector and the error test did since the last restart */
  if (CVodeGetNumNonlinSolvConvFails(b->mem, &ncf) != CV_SUCCESS) ncf = -1;
  if (CVodeGetNumErrTestFails(b->mem, &netf) != CV_SUCCESS) netf = -1;
  snprintf(e->msg, sizeof e->msg,
           "CVODE failed at t=%.12g in mode '%s': %s%s; %ld Newton convergence failures, %ld "
           "error test failures since the last restart (%s)",
           tcur, mbdae_engine_mode(e), mbdae_flag_text(CVodeGetReturnFlagName, flag, fb, sizeof fb), ele,
           ncf, netf, e->sundials_msg);
}

static int cv_restart(mbdae_engine *e, double h0);

/* The last step's interval [tn - hu, tn] and CVODE's interpolant in it
 * (CVodeGetDky): the engine's event window (event_group.c); ODE form, no yp. */
static int cv_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                    double *t1) {
  (void)yp;
  cvode_backend *b = e->backend;
  realtype tn = 0, hu = 0;
  CV_CHECK(CVodeGetCurrentTime(b->mem, &tn));
  CV_CHECK(CVodeGetLastStep(b->mem, &hu));
  *t0 = tn - hu;
  *t1 = tn;
  if (!y) return MBDAE_OK;
  N_Vector vy = N_VMake_Serial(e->n, y, b->ctx);
  if (!vy) return MBDAE_ERR_MEMORY;
  int flag = CVodeGetDky(b->mem, t, 0, vy);
  N_VDestroy(vy);
  if (flag == CV_SUCCESS) return MBDAE_OK;
  snprintf(e->msg, sizeof e->msg, "CVodeGetDky at t=%.12g (step [%.12g, %.12g]) failed: %d",
           t, *t0, *t1, flag);
  return MBDAE_ERR_SUNDIALS;
}

static int cv_advance(mbdae_engine *e, double tout, int *root) {
  cvode_backend *b = e->backend;
  realtype tret = e->t;
  *root = 0;
  e->nonfinite[0] = '\0';
  int flag = CVode(b->mem, tout, b->y, &tret, CV_NORMAL);
  e->t = tret;
  cv_probe(e);
  long nst = 0;
  if ((flag == CV_ERR_FAILURE || flag == CV_CONV_FAILURE) && b->h0 > 0.0 && !e->nonfinite[0] &&
      CVodeGetNumSteps(b->mem, &nst) == CV_SUCCESS && nst == 0) {
    /* the engine's restart step failed before any step was taken (the state
     * is the restart's): once more from CVODE's own initial-step estimate */
    N_VScale(1.0, b->y_r, b->y);
    e->t = b->t_r;
    int rc = cv_restart(e, 0.0);
    if (rc != MBDAE_OK) return rc;
    tret = e->t;
    flag = CVode(b->mem, tout, b->y, &tret, CV_NORMAL);
    e->t = tret;
    cv_probe(e);
  }
  if (flag == CV_ROOT_RETURN) {
    *root = 1;
    return MBDAE_OK;
  }
  if (flag >= 0) return MBDAE_OK;
  cv_describe_failure(e, flag);
  if (flag == CV_TOO_MUCH_WORK) return mbdae_engine_nonfinite_failure(e, MBDAE_ERR_TOO_MUCH_WORK);
  if (flag == CV_RHSFUNC_FAIL || flag == CV_RTFUNC_FAIL) return MBDAE_ERR_CALLBACK;
  return mbdae_engine_nonfinite_failure(e, MBDAE_ERR_SOLVER);
}

static int cv_root_info(mbdae_engine *e, int *dirs) {
  cvode_backend *b = e->backend;
  if (e->p->nroots == 0) return MBDAE_OK;
  CV_CHECK(CVodeGetRootInfo(b->mem, dirs));
  return MBDAE_OK;
}

static void cv_harvest(cvode_backend *b, mbdae_stats *s) {
  long v;
  if (CVodeGetNumSteps(b->mem, &v) == 0) s->steps += v;
  if (CVodeGetNumRhsEvals(b->mem, &v) == 0) s->rhs_evals += v;
  if (b->LS) {
    if (CVodeGetNumLinRhsEvals(b->mem, &v) == 0) s->rhs_evals += v;
    if (CVodeGetNumJacEvals(b->mem, &v) == 0) s->jac_evals += v;
  }
  if (CVodeGetNumLinSolvSetups(b->mem, &v) == 0) s->lin_setups += v;
  if (CVodeGetNumNonlinSolvIters(b->mem, &v) == 0) s->newton_iters += v;
  if (CVodeGetNumNonlinSolvConvFails(b->mem, &v) == 0) s->newton_fails += v;
  if (CVodeGetNumErrTestFails(b->mem, &v) == 0) s->err_test_fails += v;
  if (CVodeGetNumGEvals(b->mem, &v) == 0) s->root_evals += v;
  realtype h;
  if (CVodeGetLastStep(b->mem, &h) == 0 && h != 0) s->last_step = h;
}

static int cv_restart(mbdae_engine *e, double h0) {
  cvode_backend *b = e->backend;
  cv_probe(e);
  cv_harvest(b, &b->acc);
  CV_CHECK(CVodeReInit(b->mem, e->t, b->y));
  b->nst_seen = 0;
  b->h0 = h0;
  if (h0 > 0.0) {
    if (!b->y_r) b->y_r = N_VClone(b->y);
    if (!b->y_r) return MBDAE_ERR_MEMORY;
    N_VScale(1.0, b->y, b->y_r);
    b->t_r = e->t;
  }
  CV_CHECK(CVodeSetInitStep(b->mem, h0));
  CV_CHECK(CVodeSetStopTime(b->mem, e->o->t_end));
  return MBDAE_OK;
}

/* CVODE restarts at order 1 (BDF and Adams): the engine's restart step
 * (doc/engine.md, "Restarts"; 0 keeps CVODE's estimate) */
static int cv_reinit(mbdae_engine *e) { return cv_restart(e, mbdae_engine_restart_step(e, 1)); }

static void cv_stats(mbdae_engine *e, mbdae_stats *s) {
  cvode_backend *b = e->backend;
  cv_probe(e);
  *s = b->acc;
  s->last_step = 0;
  cv_harvest(b, s);
}

static void cv_destroy(mbdae_engine *e) {
  cvode_backend *b = e->backend;
  if (!b) return;
  if (b->mem) CVodeFree(&b->mem);
  if (b->LS) SUNLinSolFree(b->LS);
  if (b->NLS) SUNNonlinSolFree(b->NLS);
  if (b->A) SUNMatDestroy(b->A);
  free(b->jac);
  free(b->diag);
  if (b->y) N_VDestroy(b->y);
  if (b->y_r) N_VDestroy(b->y_r);
  if (b->atol) N_VDestroy(b->atol);
  if (b->ctx) SUNContext_Free(&b->ctx);
  free(b);
  e->backend = NULL;
  e->step_dense = NULL;
}

const mbdae_backend_ops mbdae_backend_cvode = {
  "cvode", cv_create, cv_advance, cv_root_info, cv_reinit, NULL,
  cv_stats, cv_destroy};
