/* backend_ida.c - the IDA backend: DAE residual, dense or KLU sparse
 * Jacobian (analytic, or IDA's finite differences for dense), root finding
 * and re-initialisation after events. Modelled on SUNDIALS'
 * examples/ida/serial (IDAInit, IDARootInit, IDAReInit after a root). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "engine_impl.h"
#include "ida_krylov.h"
#include "mbdae/status.h"
#include "sundials_util.h"

typedef struct ida_backend {
  SUNContext ctx;
  void *mem;
  N_Vector y, yp, id, atol;
  SUNMatrix A;
  SUNLinearSolver LS;
  mbdae_ida_krylov *krylov; /* linear_solver spgmr*: the preconditioner */
  SUNNonlinearSolver NLS; /* IDA's Newton, with ida_nls_setup before each solve */
  SUNNonlinSolConvTestFn ida_ctest; /* IDA's convergence test, wrapped by ida_nls_ctest */
  SUNNonlinSolLSetupFn ida_lsetup; /* IDA's linear setup, wrapped by ida_nls_lsetup */
  double first_norm;       /* the first Newton correction of the current attempt */
  long reuse_refactors;    /* Newton failures of a reused matrix, retried refactored */
  mbdae_stats acc; /* totals of earlier re-inits (IDAReInit zeroes counters) */
  long nst_seen;   /* steps already reported to the engine since the last re-init */
  double h0;       /* the engine's first step after the last re-init (0: IDA's) */
  N_Vector y_r, yp_r; /* the state of the last re-init with h0 > 0 */
  double t_r;
} ida_backend;

/* Report steps taken since the last look, with the order and size of the
 * last: called from the residual (once per step at least) and after advance. */
static void ida_probe(mbdae_engine *e) {
  ida_backend *b = e->backend;
  long nst = 0;
  if (!b || !b->mem || IDAGetNumSteps(b->mem, &nst) != IDA_SUCCESS || nst <= b->nst_seen)
    return;
  realtype h = 0;
  int q = 1;
  IDAGetLastStep(b->mem, &h);
  IDAGetLastOrder(b->mem, &q);
  mbdae_engine_note_steps(e, nst - b->nst_seen, h, q);
  b->nst_seen = nst;
}

static int ida_res(realtype t, N_Vector y, N_Vector yp, N_Vector r, void *ud) {
  mbdae_engine *e = ud;
  ida_probe(e);
  return mbdae_engine_check_finite(
      e, "residual", "F", t, N_VGetArrayPointer(r),
      e->p->residual(t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), N_VGetArrayPointer(r),
                     e->p->user_data));
}

static int ida_root(realtype t, N_Vector y, N_Vector yp, realtype *g, void *ud) {
  mbdae_engine *e = ud;
  return mbdae_engine_roots(e, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), g);
}

static int ida_jac_dense(realtype t, realtype cj, N_Vector y, N_Vector yp,
                         N_Vector r, SUNMatrix J, void *ud, N_Vector t1,
                         N_Vector t2, N_Vector t3) {
  (void)r, (void)t1, (void)t2, (void)t3;
  mbdae_engine *e = ud;
  SUNMatZero(J);
  return e->p->jac_dense(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                         SUNDenseMatrix_Data(J), e->p->user_data);
}

static int ida_jac_sparse(realtype t, realtype cj, N_Vector y, N_Vector yp,
                          N_Vector r, SUNMatrix J, void *ud, N_Vector t1,
                          N_Vector t2, N_Vector t3) {
  (void)r, (void)t1, (void)t2, (void)t3;
  mbdae_engine *e = ud;
  mbdae_sparse_load_pattern(e->p, J);
  return e->p->jac_sparse(t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                          SUNSparseMatrix_Data(J), e->p->user_data);
}

/* Jacobian reuse (doc/engine.md, "Jacobian reuse"). IDA keeps its factorised
 * matrix while cj moves by less than jac_reuse_cj; SUNDIALS' Newton retries a
 * failed solve at once with a fresh factorisation when its matrix is flagged
 * stale, and fails the step (cut by 4) when it is flagged current. Two gaps:
 * - IDA leaves the flag "current" after any setup, so a matrix reused over
 *   later steps counted as current: its failure cut the step instead of
 *   refactoring. Every solve starts "stale" here (ida_nls_setup, called by
 *   IDA before every Newton solve); a setup within it marks it current.
 * - A reused matrix that cannot converge within Newton's iterations at the
 *   observed rate fails at once (the rate after the second iterate, as
 *   RADAU5's test), not after all of them: the refactorisation comes sooner.
 * ida_nls_lsetup counts the retries (mbdae_stats::reuse_refactors). */
static ida_backend *ida_of(void *ida_mem) {
  void *ud = NULL;
  if (IDAGetUserData(ida_mem, &ud) != IDA_SUCCESS || !ud) return NULL;
  return ((mbdae_engine *)ud)->backend;
}

static int ida_nls_lsetup(booleantype jbad, booleantype *jcur, void *mem) {
  ida_backend *b = ida_of(mem);
  if (!b || !b->ida_lsetup) return -1;
  if (jbad) b->reuse_refactors++; /* the Newton's retry after a stale matrix failed */
  return b->ida_lsetup(jbad, jcur, mem);
}

static int ida_nls_setup(SUNNonlinearSolver NLS, N_Vector y, void *mem) {
  (void)y;
  SUNNonlinearSolverContent_Newton c = NLS->content;
  if (c->LSetup && c->LSetup != ida_nls_lsetup) { /* IDA (re)attached its setup */
    ida_backend *b = ida_of(mem);
    if (!b) return SUN_NLS_MEM_NULL;
    b->ida_lsetup = c->LSetup;
    c->LSetup = ida_nls_lsetup;
  }
  c->jcur = SUNFALSE;
  return SUN_NLS_SUCCESS;
}

static int ida_nls_ctest(SUNNonlinearSolver NLS, N_Vector ycor, N_Vector del, realtype tol,
                         N_Vector ewt, void *data) {
  ida_backend *b = data;
  int rc = b->ida_ctest(NLS, ycor, del, tol, ewt, b->mem);
  SUNNonlinearSolverContent_Newton c = NLS->content;
  if (rc != SUN_NLS_CONTINUE || c->jcur) return rc;
  double d = N_VWrmsNorm(del, ewt);
  int m = c->curiter;
  if (m == 0) {
    b->first_norm = d;
    return rc;
  }
  if (!(b->first_norm > 0.0)) return rc;
  double rate = pow(d / b->first_norm, 1.0 / m);
  int left = c->maxiters - 1 - m; /* iterations still allowed after this one */
  if (rate < 1.0 && rate / (1.0 - rate) * d * pow(rate, left) <= tol) return rc;
  return SUN_NLS_CONV_RECVR;
}

#define IDA_CHECK(call)                                                       \
  do {                                                                        \
    int flag_ = (call);                                                       \
    if (flag_ < 0) {                                                          \
      char fb_[64];                                                           \
      snprintf(e->msg, sizeof e->msg, "%s failed: %s", #call,                 \
               mbdae_flag_text(IDAGetReturnFlagName, flag_, fb_, sizeof fb_)); \
      return MBDAE_ERR_SUNDIALS;                                              \
    }                                                                         \
  } while (0)

static int ida_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                     double *t1);

static int ida_create(mbdae_engine *e) {
  const mbdae_problem *p = e->p;
  const mbdae_options *o = e->o;
  ida_backend *b = calloc(1, sizeof *b);
  if (!b) return MBDAE_ERR_MEMORY;
  e->backend = b;
  e->step_dense = ida_dense;
  if (SUNContext_Create(NULL, &b->ctx) != 0) return MBDAE_ERR_SUNDIALS;
  b->y = N_VMake_Serial(e->n, e->y, b->ctx);
  b->yp = N_VMake_Serial(e->n, e->yp, b->ctx);
  if (!b->y || !b->yp) return MBDAE_ERR_MEMORY;
  b->mem = IDACreate(b->ctx);
  if (!b->mem) return MBDAE_ERR_MEMORY;
  IDA_CHECK(IDAInit(b->mem, ida_res, e->t, b->y, b->yp));
  IDA_CHECK(IDASetUserData(b->mem, e));
  IDA_CHECK(IDASetErrHandlerFn(b->mem, mbdae_sundials_error_handler, e));
  b->NLS = SUNNonlinSol_Newton(b->y, b->ctx);
  if (!b->NLS) return MBDAE_ERR_MEMORY;
  b->NLS->ops->setup = ida_nls_setup;
  IDA_CHECK(IDASetNonlinearSolver(b->mem, b->NLS));
  b->ida_ctest = ((SUNNonlinearSolverContent_Newton)b->NLS->content)->CTest;
  if (!b->ida_ctest || SUNNonlinSolSetConvTestFn(b->NLS, ida_nls_ctest, b) != SUN_NLS_SUCCESS) {
    snprintf(e->msg, sizeof e->msg, "IDA: cannot wrap the Newton convergence test");
    return MBDAE_ERR_SUNDIALS;
  }
  if (p->weights) {
    IDA_CHECK(IDAWFtolerances(b->mem, mbdae_sundials_error_weights));
  } else if (o->atol_vec) {
    b->atol = N_VNew_Serial(e->n, b->ctx);
    if (!b->atol) return MBDAE_ERR_MEMORY;
    memcpy(N_VGetArrayPointer(b->atol), o->atol_vec, (size_t)e->n * sizeof(double));
    IDA_CHECK(IDASVtolerances(b->mem, o->rtol, b->atol));
  } else {
    IDA_CHECK(IDASStolerances(b->mem, o->rtol, o->atol));
  }
  if (p->id) {
    b->id = N_VNew_Serial(e->n, b->ctx);
    if (!b->id) return MBDAE_ERR_MEMORY;
    memcpy(N_VGetArrayPointer(b->id), p->id, (size_t)e->n * sizeof(double));
    IDA_CHECK(IDASetId(b->mem, b->id));
    if (o->suppress_alg) IDA_CHECK(IDASetSuppressAlg(b->mem, SUNTRUE));
  }
  IDA_CHECK(IDASetMaxNumSteps(b->mem, o->max_steps));
  if (o->jac_reuse_cj > 0) IDA_CHECK(IDASetDeltaCjLSetup(b->mem, o->jac_reuse_cj));
  IDA_CHECK(IDASetStopTime(b->mem, o->t_end));
  if (o->h_max > 0) IDA_CHECK(IDASetMaxStep(b->mem, o->h_max));
  if (o->h_init > 0) IDA_CHECK(IDASetInitStep(b->mem, o->h_init));
  if (o->max_order > 0) IDA_CHECK(IDASetMaxOrd(b->mem, o->max_order));
  if (p->nroots > 0) {
    IDA_CHECK(IDARootInit(b->mem, p->nroots, ida_root));
    IDA_CHECK(IDASetNoInactiveRootWarn(b->mem));
  }
  if (o->linsol == MBDAE_LINSOL_SPGMR || o->linsol == MBDAE_LINSOL_SPGMR_JACOBI)
    return mbdae_ida_krylov_create(e, b->ctx, b->y, b->mem, &b->LS, &b->krylov);
  int rc = mbdae_sundials_linear_solver(e, b->ctx, b->y, &b->A, &b->LS);
  if (rc != MBDAE_OK) return rc;
  IDA_CHECK(IDASetLinearSolver(b->mem, b->LS, b->A));
  if (o->linsol == MBDAE_LINSOL_KLU)
    IDA_CHECK(IDASetJacFn(b->mem, ida_jac_sparse));
  else if (p->jac_dense)
    IDA_CHECK(IDASetJacFn(b->mem, ida_jac_dense));
  return MBDAE_OK;
}

/* Describe a failure: time, mode, the largest residual at the current
 * Newton iterate and the component with the largest weighted local error. */
static void ida_describe_failure(mbdae_engine *e, int flag) {
  ida_backend *b = e->backend;
  realtype tcur = e->t;
  char fb[64];
  IDAGetCurrentTime(b->mem, &tcur);
  char extra[200] = "";
  N_Vector ycur = NULL, ypcur = NULL;
  if (IDAGetCurrentY(b->mem, &ycur) == IDA_SUCCESS &&
      IDAGetCurrentYp(b->mem, &ypcur) == IDA_SUCCESS && ycur && ypcur) {
    double v = 0;
    int i = mbdae_engine_worst_residual(e, tcur, N_VGetArrayPointer(ycur),
                                        N_VGetArrayPointer(ypcur), &v);
    if (i >= 0) snprintf(extra, sizeof extra, "; worst residual F[%d] = %.3e", i, v);
  }
  char ele[120] = "";
  mbdae_sundials_local_error_note(b->mem, b->y, IDAGetNumSteps, IDAGetErrWeights,
                                  IDAGetEstLocalErrors, ele, sizeof ele);
  long ncf = 0, netf = 0; /* what the corrector and the error test did since the last restart */
  if (IDAGetNumNonlinSolvConvFails(b->mem, &ncf) != IDA_SUCCESS) ncf = -1;
  if (IDAGetNumErrTestFails(b->mem, &netf) != IDA_SUCCESS) netf = -1;
  snprintf(e->msg, sizeof e->msg,
           "IDA failed at t=%.12g in mode '%s': %s%s%s; %ld Newton convergence failures, %ld "
           "error test failures since the last restart (%s)",
           tcur, mbdae_engine_mode(e), mbdae_flag_text(IDAGetReturnFlagName, flag, fb, sizeof fb), extra, ele,
           ncf, netf, e->sundials_msg);
}

static int ida_restart(mbdae_engine *e, double h0);

/* The last step's interval [tn - hu, tn] and IDA's interpolant in it
 * (IDAGetDky, orders 0 and 1): the engine's event window (event_group.c). */
static int ida_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                     double *t1) {
  ida_backend *b = e->backend;
  realtype tn = 0, hu = 0;
  IDA_CHECK(IDAGetCurrentTime(b->mem, &tn));
  IDA_CHECK(IDAGetLastStep(b->mem, &hu));
  *t0 = tn - hu;
  *t1 = tn;
  if (!y) return MBDAE_OK;
  N_Vector vy = N_VMake_Serial(e->n, y, b->ctx), vyp = N_VMake_Serial(e->n, yp, b->ctx);
  int flag = vy && vyp ? IDAGetDky(b->mem, t, 0, vy) : IDA_MEM_FAIL;
  if (flag == IDA_SUCCESS) flag = IDAGetDky(b->mem, t, 1, vyp);
  if (vy) N_VDestroy(vy);
  if (vyp) N_VDestroy(vyp);
  if (flag == IDA_SUCCESS) return MBDAE_OK;
  snprintf(e->msg, sizeof e->msg, "IDAGetDky at t=%.12g (step [%.12g, %.12g]) failed: %d", t,
           *t0, *t1, flag);
  return MBDAE_ERR_SUNDIALS;
}

static int ida_advance(mbdae_engine *e, double tout, int *root) {
  ida_backend *b = e->backend;
  realtype tret = e->t;
  *root = 0;
  /* a segment of a checkpointed run ends on a step, not on the interpolant */
  if (e->o->carry && e->o->carry->stop_at_end &&
      IDASetStopTime(b->mem, e->o->t_end) != IDA_SUCCESS) {
    snprintf(e->msg, sizeof e->msg, "IDA: cannot set the stop time %.12g at t=%.12g",
             e->o->t_end, e->t);
    return MBDAE_ERR_SOLVER;
  }
  e->nonfinite[0] = '\0';
  int flag = IDASolve(b->mem, tout, &tret, b->y, b->yp, IDA_NORMAL);
  e->t = tret;
  ida_probe(e);
  long nst = 0;
  if ((flag == IDA_ERR_FAIL || flag == IDA_CONV_FAIL) && b->h0 > 0.0 && !e->nonfinite[0] &&
      IDAGetNumSteps(b->mem, &nst) == IDA_SUCCESS && nst == 0) {
    /* the engine's restart step failed before any step was taken (the state
     * is the restart's): once more from IDA's own initial-step estimate */
    N_VScale(1.0, b->y_r, b->y);
    N_VScale(1.0, b->yp_r, b->yp);
    e->t = b->t_r;
    int rc = ida_restart(e, 0.0);
    if (rc != MBDAE_OK) return rc;
    tret = e->t;
    flag = IDASolve(b->mem, tout, &tret, b->y, b->yp, IDA_NORMAL);
    e->t = tret;
    ida_probe(e);
  }
  if (flag == IDA_ROOT_RETURN) {
    *root = 1;
    return MBDAE_OK;
  }
  if (flag >= 0) return MBDAE_OK;
  ida_describe_failure(e, flag);
  if (e->nonfinite[0] && flag != IDA_RES_FAIL && flag != IDA_RTFUNC_FAIL)
    return mbdae_engine_nonfinite_failure(e, MBDAE_ERR_SOLVER);
  switch (flag) {
  case IDA_TOO_MUCH_WORK: return MBDAE_ERR_TOO_MUCH_WORK;
  case IDA_RES_FAIL:
  case IDA_RTFUNC_FAIL:
  case IDA_LSETUP_FAIL:
  case IDA_LSOLVE_FAIL: return flag == IDA_RES_FAIL || flag == IDA_RTFUNC_FAIL
                                   ? MBDAE_ERR_CALLBACK : MBDAE_ERR_SOLVER;
  default: return MBDAE_ERR_SOLVER;
  }
}

static int ida_root_info(mbdae_engine *e, int *dirs) {
  ida_backend *b = e->backend;
  if (e->p->nroots == 0) return MBDAE_OK;
  IDA_CHECK(IDAGetRootInfo(b->mem, dirs));
  return MBDAE_OK;
}

static void ida_harvest(ida_backend *b, mbdae_stats *s) {
  long v;
  if (IDAGetNumSteps(b->mem, &v) == 0) s->steps += v;
  if (IDAGetNumResEvals(b->mem, &v) == 0) s->rhs_evals += v;
  if (IDAGetNumLinResEvals(b->mem, &v) == 0) s->rhs_evals += v;
  if (IDAGetNumJacEvals(b->mem, &v) == 0) s->jac_evals += v;
  if (IDAGetNumLinSolvSetups(b->mem, &v) == 0) s->lin_setups += v;
  if (IDAGetNumNonlinSolvIters(b->mem, &v) == 0) s->newton_iters += v;
  if (IDAGetNumNonlinSolvConvFails(b->mem, &v) == 0) s->newton_fails += v;
  if (IDAGetNumErrTestFails(b->mem, &v) == 0) s->err_test_fails += v;
  if (IDAGetNumGEvals(b->mem, &v) == 0) s->root_evals += v;
  if (b->krylov && IDAGetNumLinIters(b->mem, &v) == 0) s->krylov_iters += v;
  realtype h;
  if (IDAGetLastStep(b->mem, &h) == 0 && h != 0) s->last_step = h;
}

static int ida_restart(mbdae_engine *e, double h0) {
  ida_backend *b = e->backend;
  ida_probe(e);
  ida_harvest(b, &b->acc);
  IDA_CHECK(IDAReInit(b->mem, e->t, b->y, b->yp));
  mbdae_ida_krylov_reset(b->krylov);
  b->nst_seen = 0;
  b->h0 = h0;
  if (h0 > 0.0) {
    if (!b->y_r) b->y_r = N_VClone(b->y);
    if (!b->yp_r) b->yp_r = N_VClone(b->y);
    if (!b->y_r || !b->yp_r) return MBDAE_ERR_MEMORY;
    N_VScale(1.0, b->y, b->y_r);
    N_VScale(1.0, b->yp, b->yp_r);
    b->t_r = e->t;
  }
  IDA_CHECK(IDASetInitStep(b->mem, h0));
  IDA_CHECK(IDASetStopTime(b->mem, e->o->t_end));
  return MBDAE_OK;
}

/* IDA's own first step after IDAReInit is tiny (h0 from ||y'||, ~1e-11 s
 * on the capture) and it climbs back through order 1 by doubling; the
 * engine's restart step starts order 1 at the pace of the last step
 * (doc/engine.md, "Restarts"; 0 keeps IDA's estimate) */
static int ida_reinit(mbdae_engine *e) { return ida_restart(e, mbdae_engine_restart_step(e, 1)); }

static int ida_calcic(mbdae_engine *e) {
  ida_backend *b = e->backend;
  if (!e->p->id) {
    snprintf(e->msg, sizeof e->msg, "IDACalcIC fallback needs the id vector");
    return MBDAE_ERR_INCONSISTENT;
  }
  double tout1 = e->t + (e->o->t_end - e->t) * 1e-3;
  int flag = IDACalcIC(b->mem, IDA_YA_YDP_INIT, tout1);
  if (flag < 0) {
    char fb[64];
    snprintf(e->msg, sizeof e->msg, "IDACalcIC fallback failed at t=%.12g in mode '%s': %s",
             e->t, mbdae_engine_mode(e), mbdae_flag_text(IDAGetReturnFlagName, flag, fb, sizeof fb));
    return MBDAE_ERR_INCONSISTENT;
  }
  IDA_CHECK(IDAGetConsistentIC(b->mem, b->y, b->yp));
  return MBDAE_OK;
}

static void ida_stats(mbdae_engine *e, mbdae_stats *s) {
  ida_backend *b = e->backend;
  ida_probe(e);
  *s = b->acc;
  s->last_step = 0;
  ida_harvest(b, s);
  s->reuse_refactors = b->reuse_refactors;
  mbdae_ida_krylov_stats(b->krylov, s);
}

mbdae_ida_krylov *mbdae_ida_krylov_of(mbdae_engine *e) {
  ida_backend *b = e ? e->backend : NULL;
  return b ? b->krylov : NULL;
}

static void ida_destroy(mbdae_engine *e) {
  ida_backend *b = e->backend;
  if (!b) return;
  if (b->mem) IDAFree(&b->mem);
  if (b->LS) SUNLinSolFree(b->LS);
  mbdae_ida_krylov_free(&b->krylov);
  if (b->NLS) SUNNonlinSolFree(b->NLS);
  if (b->A) SUNMatDestroy(b->A);
  if (b->y) N_VDestroy(b->y);
  if (b->yp) N_VDestroy(b->yp);
  if (b->y_r) N_VDestroy(b->y_r);
  if (b->yp_r) N_VDestroy(b->yp_r);
  if (b->id) N_VDestroy(b->id);
  if (b->atol) N_VDestroy(b->atol);
  if (b->ctx) SUNContext_Free(&b->ctx);
  free(b);
  e->backend = NULL;
  e->step_dense = NULL;
}

const mbdae_backend_ops mbdae_backend_ida = {
  "ida", ida_create, ida_advance, ida_root_info, ida_reinit, ida_calcic,
  ida_stats, ida_destroy};
