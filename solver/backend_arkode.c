/* backend_arkode.c - the ARKODE backend for ODE-form problems: ARKStep with
 * an L-stable, stiffly accurate ESDIRK table (fully implicit, no explicit
 * part), Newton with dense or KLU sparse Jacobians (analytic, or ARKODE's
 * difference quotients for dense), root finding, and ARKStepReset after
 * events. A one-step method has no history to lose: after an event it
 * continues at full order (doc/arkode.md). Modelled on SUNDIALS'
 * examples/arkode/C_serial (ark_robertson_root.c, ark_brusselator1D_klu.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arkode/arkode_arkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "arkode_dae.h"
#include "engine_impl.h"
#include "mbdae/status.h"
#include "sundials_util.h"

typedef struct arkode_backend {
  SUNContext ctx;
  void *mem;
  N_Vector y, atol;
  SUNMatrix A;
  SUNLinearSolver LS;
  long nst_seen;   /* steps already reported to the engine (ARKStepReset keeps counters) */
  int order;       /* of the table */
  mbdae_arkode_dae *dae; /* a DAE form: its reduction to the differential unknowns */
  long root_evals; /* of earlier resets (ARKODE restarts that counter at each) */
} arkode_backend;

/* mbdae_arkode_table -> ARKODE's table, in the enum's order */
static const ARKODE_DIRKTableID arkode_tables[] = {
  ARKODE_ESDIRK324L2SA_4_2_3,  ARKODE_ESDIRK325L2SA_5_2_3,  ARKODE_ESDIRK32I5L2SA_5_2_3,
  ARKODE_ESDIRK436L2SA_6_3_4,  ARKODE_ESDIRK43I6L2SA_6_3_4, ARKODE_QESDIRK436L2SA_6_3_4,
  ARKODE_ESDIRK437L2SA_7_3_4,  ARKODE_ESDIRK547L2SA_7_4_5,  ARKODE_ESDIRK547L2SA2_7_4_5,
  ARKODE_ARK324L2SA_DIRK_4_2_3, ARKODE_ARK436L2SA_DIRK_6_3_4, ARKODE_ARK437L2SA_DIRK_7_3_4,
  ARKODE_ARK548L2SAb_DIRK_8_4_5, ARKODE_KVAERNO_4_2_3,     ARKODE_KVAERNO_5_3_4,
  ARKODE_KVAERNO_7_4_5,        ARKODE_TRBDF2_3_3_2};
enum { NTABLES = (int)(sizeof arkode_tables / sizeof arkode_tables[0]) };

/* Report steps taken since the last look (from the right-hand side, at
 * least once per step, and after advance): every step is at the table's order. */
static void ark_probe(mbdae_engine *e) {
  arkode_backend *b = e->backend;
  long nst = 0;
  if (!b || !b->mem || ARKStepGetNumSteps(b->mem, &nst) != ARK_SUCCESS || nst <= b->nst_seen)
    return;
  realtype h = 0;
  ARKStepGetLastStep(b->mem, &h);
  mbdae_engine_note_steps(e, nst - b->nst_seen, h, b->order);
  b->nst_seen = nst;
}

#define ARK_CHECK(call)                                                       \
  do {                                                                        \
    int flag_ = (call);                                                       \
    if (flag_ < 0) {                                                          \
      char fb_[64];                                                           \
      snprintf(e->msg, sizeof e->msg, "%s failed: %s", #call,                 \
               mbdae_flag_text(ARKStepGetReturnFlagName, flag_, fb_, sizeof fb_)); \
      return MBDAE_ERR_SUNDIALS;                                              \
    }                                                                         \
  } while (0)

static int ark_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                     double *t1);

static int ark_create(mbdae_engine *e) {
  const mbdae_problem *p = e->p;
  const mbdae_options *o = e->o;
  if ((int)o->arkode_table < 0 || (int)o->arkode_table >= NTABLES) {
    snprintf(e->msg, sizeof e->msg, "unknown arkode_table %d", (int)o->arkode_table);
    return MBDAE_ERR_ARGUMENT;
  }
  arkode_backend *b = calloc(1, sizeof *b);
  if (!b) return MBDAE_ERR_MEMORY;
  e->backend = b;
  e->step_probe = ark_probe;
  e->step_dense = ark_dense;
  if (SUNContext_Create(NULL, &b->ctx) != 0) return MBDAE_ERR_SUNDIALS;
  /* a DAE form is integrated in its differential unknowns, y[0..nd) */
  const int dae = p->form == MBDAE_FORM_DAE;
  b->y = N_VMake_Serial(dae ? p->nd : e->n, e->y, b->ctx);
  if (!b->y) return MBDAE_ERR_MEMORY;
  SUNLinearSolver dae_ls = NULL;
  SUNMatrix dae_A = NULL;
  if (dae) {
    int rc = MBDAE_OK;
    b->dae = mbdae_arkode_dae_create(e, b->ctx, &dae_ls, &dae_A, &rc);
    if (!b->dae) return rc;
  }
  /* fully implicit: the whole right-hand side is the implicit part fi */
  b->mem = ARKStepCreate(NULL, dae ? mbdae_arkode_dae_rhs : mbdae_sundials_ode_rhs, e->t, b->y,
                         b->ctx);
  if (!b->mem) return MBDAE_ERR_MEMORY;
  if (dae) mbdae_arkode_dae_attach(b->dae, b->mem);
  ARK_CHECK(ARKStepSetUserData(b->mem, dae ? (void *)b->dae : (void *)e));
  ARK_CHECK(ARKStepSetErrHandlerFn(b->mem, mbdae_sundials_error_handler, e));
  ARK_CHECK(ARKStepSetTableNum(b->mem, arkode_tables[o->arkode_table], ARKODE_ERK_NONE));
  ARKodeButcherTable Bi = NULL, Be = NULL;
  ARK_CHECK(ARKStepGetCurrentButcherTables(b->mem, &Bi, &Be));
  b->order = Bi ? Bi->q : 1;
  if (p->weights) {
    ARK_CHECK(ARKStepWFtolerances(b->mem, mbdae_sundials_error_weights));
  } else if (o->atol_vec) {
    b->atol = N_VNew_Serial(e->n, b->ctx);
    if (!b->atol) return MBDAE_ERR_MEMORY;
    memcpy(N_VGetArrayPointer(b->atol), o->atol_vec, (size_t)e->n * sizeof(double));
    ARK_CHECK(ARKStepSVtolerances(b->mem, o->rtol, b->atol));
  } else {
    ARK_CHECK(ARKStepSStolerances(b->mem, o->rtol, o->atol));
  }
  ARK_CHECK(ARKStepSetMaxNumSteps(b->mem, o->max_steps));
  ARK_CHECK(ARKStepSetStopTime(b->mem, o->t_end));
  if (o->h_max > 0) ARK_CHECK(ARKStepSetMaxStep(b->mem, o->h_max));
  if (o->h_init > 0) ARK_CHECK(ARKStepSetInitStep(b->mem, o->h_init));
  if (p->nroots > 0) {
    ARK_CHECK(ARKStepRootInit(b->mem, p->nroots,
                              dae ? mbdae_arkode_dae_roots : mbdae_sundials_ode_roots));
    ARK_CHECK(ARKStepSetNoInactiveRootWarn(b->mem));
  }
  /* Dense output for root finding and output times: the cubic Hermite
   * interpolant. Degrees 4-5 evaluate the right-hand side once or twice per
   * interpolation, ~10 times per step in root finding (ball: 4 236 against
   * 490 right-hand sides); the Lagrange interpolant, recommended for stiff
   * problems, restarts at low degree after every event and missed roots
   * (ball: 3 of 19 events). Event times stay at IDA's accuracy (validation
   * ball_arkode, strings_bola_event_arkode). */
  ARK_CHECK(ARKStepSetInterpolantDegree(b->mem, 3));
  /* Newton's first iterate from that interpolant, not the last state: on the
   * taut bola 144 -> 7 Newton failures, 5 813 -> 1 492 right-hand sides */
  ARK_CHECK(ARKStepSetPredictorMethod(b->mem, 1));
  if (dae) { /* Newton on the DAE's own Jacobian (arkode_dae.c) */
    ARK_CHECK(ARKStepSetLinearSolver(b->mem, dae_ls, dae_A));
    ARK_CHECK(ARKStepSetLinSysFn(b->mem, mbdae_arkode_dae_linsys));
  } else {
    int rc = mbdae_sundials_linear_solver(e, b->ctx, b->y, &b->A, &b->LS);
    if (rc != MBDAE_OK) return rc;
    ARK_CHECK(ARKStepSetLinearSolver(b->mem, b->LS, b->A));
    if (o->linsol == MBDAE_LINSOL_KLU)
      ARK_CHECK(ARKStepSetJacFn(b->mem, mbdae_sundials_ode_jac_sparse));
    else if (p->jac_dense)
      ARK_CHECK(ARKStepSetJacFn(b->mem, mbdae_sundials_ode_jac_dense));
  }
  /* Newton's budget and the reuse of its matrix (0: ARKODE's defaults); the
   * linear solver must be attached first (doc/arkode.md "Newton") */
  if (o->arkode_newton_iters > 0)
    ARK_CHECK(ARKStepSetMaxNonlinIters(b->mem, o->arkode_newton_iters));
  if (o->arkode_setup_every > 0)
    ARK_CHECK(ARKStepSetLSetupFrequency(b->mem, o->arkode_setup_every));
  if (o->arkode_jac_every > 0)
    ARK_CHECK(ARKStepSetJacEvalFrequency(b->mem, o->arkode_jac_every));
  return MBDAE_OK;
}

static void ark_describe_failure(mbdae_engine *e, int flag) {
  arkode_backend *b = e->backend;
  realtype tcur = e->t;
  char fb[64];
  ARKStepGetCurrentTime(b->mem, &tcur);
  char ele[160] = "";
  mbdae_sundials_local_error_note(b->mem, b->y, ARKStepGetNumSteps, ARKStepGetErrWeights,
                                  ARKStepGetEstLocalErrors, ele, sizeof ele);
  long ncf = 0, netf = 0;
  if (ARKStepGetNumNonlinSolvConvFails(b->mem, &ncf) != ARK_SUCCESS) ncf = -1;
  if (ARKStepGetNumErrTestFails(b->mem, &netf) != ARK_SUCCESS) netf = -1;
  snprintf(e->msg, sizeof e->msg,
           "ARKODE failed at t=%.12g in mode '%s': %s%s; %ld Newton convergence failures, %ld "
           "error test failures in the run (%s)",
           tcur, mbdae_engine_mode(e),
           mbdae_flag_text(ARKStepGetReturnFlagName, flag, fb, sizeof fb), ele, ncf, netf,
           e->sundials_msg);
}

/* The last step's interval [tn - hold, tn] and ARKODE's interpolant in it
 * (ARKStepGetDky): the engine's event window (event_group.c). A DAE form's
 * differential unknowns are interpolated and completed (w, yp). */
static int ark_dense(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                     double *t1) {
  arkode_backend *b = e->backend;
  realtype tn = 0, hu = 0;
  ARK_CHECK(ARKStepGetCurrentTime(b->mem, &tn));
  ARK_CHECK(ARKStepGetLastStep(b->mem, &hu));
  *t0 = tn - hu;
  *t1 = tn;
  if (!y) return MBDAE_OK;
  N_Vector vy = N_VMake_Serial(b->dae ? e->p->nd : e->n, y, b->ctx);
  if (!vy) return MBDAE_ERR_MEMORY;
  int flag = ARKStepGetDky(b->mem, t, 0, vy);
  N_VDestroy(vy);
  if (flag != ARK_SUCCESS) {
    snprintf(e->msg, sizeof e->msg,
             "ARKStepGetDky at t=%.12g (step [%.12g, %.12g]) failed: %d", t, *t0, *t1, flag);
    return MBDAE_ERR_SUNDIALS;
  }
  return b->dae ? mbdae_arkode_dae_complete_into(b->dae, t, y, yp) : MBDAE_OK;
}

static int ark_advance(mbdae_engine *e, double tout, int *root) {
  arkode_backend *b = e->backend;
  realtype tret = e->t;
  *root = 0;
  e->nonfinite[0] = '\0';
  int flag = ARKStepEvolve(b->mem, tout, b->y, &tret, ARK_NORMAL);
  e->t = tret;
  ark_probe(e);
  if (flag >= 0 && b->dae) {
    int rc = mbdae_arkode_dae_complete_state(b->dae);
    if (rc != MBDAE_OK) return rc;
  }
  if (flag == ARK_ROOT_RETURN) {
    *root = 1;
    return MBDAE_OK;
  }
  if (flag >= 0) return MBDAE_OK;
  ark_describe_failure(e, flag);
  if (flag == ARK_TOO_MUCH_WORK)
    return mbdae_engine_nonfinite_failure(e, MBDAE_ERR_TOO_MUCH_WORK);
  if (flag == ARK_RHSFUNC_FAIL || flag == ARK_RTFUNC_FAIL) return MBDAE_ERR_CALLBACK;
  return mbdae_engine_nonfinite_failure(e, MBDAE_ERR_SOLVER);
}

static int ark_root_info(mbdae_engine *e, int *dirs) {
  arkode_backend *b = e->backend;
  if (e->p->nroots == 0) return MBDAE_OK;
  ARK_CHECK(ARKStepGetRootInfo(b->mem, dirs));
  return MBDAE_OK;
}

/* After an event: ARKStepReset keeps the counters and the linear solver;
 * its first step evaluates a fresh Jacobian (the mode may have changed)
 * and is the engine's restart step at the table's own order (a one-step
 * method loses no order: by default the pace of the step before the
 * event), or ARKODE's next planned step under restart: solver. */
static int ark_reinit(mbdae_engine *e) {
  arkode_backend *b = e->backend;
  ark_probe(e);
  long nge = 0;
  if (ARKStepGetNumGEvals(b->mem, &nge) == ARK_SUCCESS) b->root_evals += nge;
  ARK_CHECK(ARKStepReset(b->mem, e->t, b->y));
  double h0 = mbdae_engine_restart_step(e, b->order);
  if (h0 > 0) ARK_CHECK(ARKStepSetInitStep(b->mem, h0));
  ARK_CHECK(ARKStepSetStopTime(b->mem, e->o->t_end)); /* the reset cleared it */
  return MBDAE_OK;
}

static void ark_stats(mbdae_engine *e, mbdae_stats *s) {
  arkode_backend *b = e->backend;
  memset(s, 0, sizeof *s);
  if (!b->mem) return;
  ark_probe(e);
  long v, nfe = 0, nfi = 0;
  if (ARKStepGetNumSteps(b->mem, &v) == 0) s->steps = v;
  if (ARKStepGetNumRhsEvals(b->mem, &nfe, &nfi) == 0) s->rhs_evals = nfe + nfi;
  if (ARKStepGetNumLinRhsEvals(b->mem, &v) == 0) s->rhs_evals += v;
  if (b->dae)
    s->jac_evals = mbdae_arkode_dae_jac_evals(b->dae);
  else if (ARKStepGetNumJacEvals(b->mem, &v) == 0)
    s->jac_evals = v;
  if (ARKStepGetNumLinSolvSetups(b->mem, &v) == 0) s->lin_setups = v;
  if (ARKStepGetNumNonlinSolvIters(b->mem, &v) == 0) s->newton_iters = v;
  if (ARKStepGetNumNonlinSolvConvFails(b->mem, &v) == 0) s->newton_fails = v;
  if (ARKStepGetNumErrTestFails(b->mem, &v) == 0) s->err_test_fails = v;
  if (ARKStepGetNumGEvals(b->mem, &v) == 0) s->root_evals = b->root_evals + v;
  realtype h;
  if (ARKStepGetLastStep(b->mem, &h) == 0 && h != 0) s->last_step = h;
}

static void ark_destroy(mbdae_engine *e) {
  arkode_backend *b = e->backend;
  if (!b) return;
  if (b->mem) ARKStepFree(&b->mem);
  mbdae_arkode_dae_free(&b->dae);
  if (b->LS) SUNLinSolFree(b->LS);
  if (b->A) SUNMatDestroy(b->A);
  if (b->y) N_VDestroy(b->y);
  if (b->atol) N_VDestroy(b->atol);
  if (b->ctx) SUNContext_Free(&b->ctx);
  free(b);
  e->backend = NULL;
  e->step_probe = NULL;
  e->step_dense = NULL;
}

const mbdae_backend_ops mbdae_backend_arkode = {
  "arkode", ark_create, ark_advance, ark_root_info, ark_reinit, NULL,
  ark_stats, ark_destroy};
