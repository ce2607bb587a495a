/** @file mbdae/engine.h
 * @brief Run a hybrid problem: integrator backends, event loop, options and
 *        statistics.
 *
 * The engine does no I/O: output, progress and the
 * event log reach the caller through callbacks. */
#ifndef MBDAE_ENGINE_H
#define MBDAE_ENGINE_H

#include "mbdae/export.h"

#include <signal.h>
#include <stddef.h>
#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Integrator. */
typedef enum {
  MBDAE_METHOD_IDA = 0,         /**< DAE form: variable-order BDF (IDA) */
  MBDAE_METHOD_CVODE_BDF = 1,   /**< ODE form: stiff BDF with Newton (CVODE) */
  MBDAE_METHOD_CVODE_ADAMS = 2, /**< ODE form: Adams-Moulton, fixed-point iteration */
  MBDAE_METHOD_RK4 = 3,         /**< ODE form: fixed-step classic RK4 (reference) */
  MBDAE_METHOD_MOREAU = 4,      /**< mechanical form (mechanics.h): Moreau-Jean
                                     event-capturing time stepping, fixed step */
  MBDAE_METHOD_ARKODE = 5       /**< ODE form: one-step L-stable ESDIRK (ARKODE ARKStep)
                                     with Newton, dense or KLU (doc/arkode.md) */
} mbdae_method;

/** Butcher table of method arkode: the L-stable, stiffly accurate ESDIRK
 * tables SUNDIALS 6.4 ships, named as Kennedy & Carpenter name them:
 * ESDIRK<order><embedded order><stages>L2SA (doc/arkode.md, "Tables"). */
typedef enum {
  MBDAE_ARKODE_ESDIRK324 = 0,   /**< order 3, 4 stages (Kennedy & Carpenter 2016) */
  MBDAE_ARKODE_ESDIRK325,       /**< order 3, 5 stages */
  MBDAE_ARKODE_ESDIRK32I5,      /**< order 3, 5 stages, internal stability */
  MBDAE_ARKODE_ESDIRK436,       /**< order 4, 6 stages */
  MBDAE_ARKODE_ESDIRK43I6,      /**< order 4, 6 stages, internal stability */
  MBDAE_ARKODE_QESDIRK436,      /**< order 4, 6 stages, quasi-ESDIRK (stage order 3) */
  MBDAE_ARKODE_ESDIRK437,       /**< order 4, 7 stages */
  MBDAE_ARKODE_ESDIRK547,       /**< order 5, 7 stages */
  MBDAE_ARKODE_ESDIRK547B,      /**< order 5, 7 stages (ESDIRK547L2SA2) */
  MBDAE_ARKODE_ARK324,          /**< order 3, 4 stages: implicit part of ARK3(2)4L[2]SA */
  MBDAE_ARKODE_ARK436,          /**< order 4, 6 stages: ARK4(3)6L[2]SA */
  MBDAE_ARKODE_ARK437,          /**< order 4, 7 stages: ARK4(3)7L[2]SA */
  MBDAE_ARKODE_ARK548,          /**< order 5, 8 stages: ARK5(4)8L[2]SAb */
  MBDAE_ARKODE_KVAERNO423,      /**< order 3, 4 stages (Kvaerno 2004) */
  MBDAE_ARKODE_KVAERNO534,      /**< order 4, 5 stages */
  MBDAE_ARKODE_KVAERNO745,      /**< order 5, 7 stages */
  MBDAE_ARKODE_TRBDF2           /**< order 2, 3 stages (TR-BDF2) */
} mbdae_arkode_table;

/** Newton system of method arkode on a DAE form with KLU and the kinematic
 * rows eliminated (doc/arkode.md, "Newton in the multipliers"). */
typedef enum {
  MBDAE_ARKODE_NEWTON_FULL = 0,   /**< the exact Newton matrix (default) */
  MBDAE_ARKODE_NEWTON_MULTIPLIER  /**< the velocities eliminated through the diagonal
                                       of their block: one factorisation in the
                                       multipliers; a modified Newton where that
                                       block is not diagonal */
} mbdae_arkode_newton;

/** First step of an implicit integrator after an event's re-initialisation
 * (doc/engine.md, "Restarts"), unless mbdae_options::restart_step > 0 fixes it. */
typedef enum {
  MBDAE_RESTART_AUTO = 0,       /**< rtol^(1/(p+1) - 1/(q+1)) times the last step, q its
                                     order, p the restart order (1 for BDF, the table's
                                     for arkode): the step of equal local error */
  MBDAE_RESTART_SOLVER = 1      /**< the integrator's own initial-step estimate */
} mbdae_restart_policy;

/** Linear solver of the Newton iterations (IDA, CVODE BDF). */
typedef enum {
  MBDAE_LINSOL_DENSE = 0,       /**< dense LU (SUNDIALS) */
  MBDAE_LINSOL_KLU = 1,         /**< needs a sparse Jacobian pattern */
  MBDAE_LINSOL_SPGMR = 2,       /**< ida: GMRES (SUNDIALS SPGMR) on difference-quotient
                                     products, preconditioned by a KLU factorisation of the
                                     iteration matrix kept until the Krylov iterations grow
                                     (doc/engine.md, "Krylov") */
  MBDAE_LINSOL_SPGMR_JACOBI = 3 /**< ida: SPGMR preconditioned by the diagonal of the
                                     iteration matrix */
} mbdae_linsol;

/** Fill-reducing ordering of KLU. */
typedef enum {
  MBDAE_ORDERING_AMD = 0,       /**< approximate minimum degree */
  MBDAE_ORDERING_COLAMD = 1,    /**< column approximate minimum degree */
  MBDAE_ORDERING_NATURAL = 2,   /**< no reordering */
  MBDAE_ORDERING_METIS = 3      /**< nested dissection via KLU's user-ordering hook */
} mbdae_ordering;

/** One logged event, passed to the observer. Arrays are valid during the call. */
typedef struct mbdae_event_record {
  long index;              /**< 0, 1, 2, ... */
  double t;                /**< event time */
  int nroots;              /**< length of dirs */
  const int *dirs;         /**< +1/-1/0 per root, as given to the handler */
  const char *label;       /**< from the handler (or "root") */
  const char *mode_before, *mode_after; /**< mode names before and after the event */
  int ninv;                /**< number of invariants */
  const char *const *inv_names; /**< their names */
  const double *inv_before, *inv_after; /**< invariants before and after the event map (ninv each) */
  int ndata;               /**< the handler's mbdae_event_info data */
  const double *data;      /**< ndata values */
  int action;              /**< MBDAE_EVENT_CONTINUE / _STOP / _NOCHANGE */
} mbdae_event_record;
/** @var mbdae_event_record::mode_before
 *  mode name before the event (mode_after: after it) */
/** @var mbdae_event_record::inv_before
 *  invariants before the event map (inv_after: after it), ninv each */

/** Observer: called at t0, at every output time, at the final time and, with
 * ev != NULL, after every event (y, yp are the post-event state). Return 0 to
 * go on, > 0 to stop the run (MBDAE_STOPPED), < 0 to fail. */
typedef int (*mbdae_observer_fn)(double t, const double *y, const double *yp,
                                 const mbdae_event_record *ev, void *user_data);
/** One step of the moreau backend and its energy ledger, passed to
 * mbdae_options::step_observer after every step. With a constant mass matrix
 * the ledger is exact: kinetic(t) - kinetic(t - h) = work_applied +
 * work_impulses - dissipated_scheme (doc/moreau.md). */
typedef struct mbdae_step_record {
  double t;                /**< end of the step */
  double h;                /**< its length */
  double kinetic;          /**< v^T M v / 2 at t */
  double potential;        /**< the model's potential V at t (0 without one) */
  double work_applied;     /**< h v_theta . f_theta: work of the applied forces over the step */
  double work_impulses;    /**< P . G v_theta: work of the constraint impulses (<= 0: dissipated) */
  double dissipated_scheme;/**< (theta - 1/2) |v(t) - v(t - h)|_M^2 >= 0: the scheme's damping */
  double energy_rise;      /**< (kinetic + potential)(t) - (same)(t - h) */
  double violation;        /**< largest violation at t: max(-g_i) unilateral, |g_i| bilateral (0 if none) */
  double residual;         /**< residual of the one-step nonsmooth problem (velocity units) */
  int index_set;           /**< rows in the step's index set (activated unilateral + bilateral) */
  int positive;            /**< rows with a positive impulse */
  int iterations;          /**< nonsmooth iterations of the step */
  const double *y;         /**< the state at t, in the problem's layout (valid during the call) */
} mbdae_step_record;
/** Step observer: return 0 to go on, > 0 to stop (MBDAE_STOPPED), < 0 to fail. */
typedef int (*mbdae_step_fn)(const mbdae_step_record *r, void *user_data);

/** Progress: called after each output interval; fraction in [0, 1]. */
typedef void (*mbdae_progress_fn)(double t, double fraction, void *user_data);

/** The dead band of one just-handled root (solver/root_mask.c). */
typedef struct mbdae_root_mask_state {
  int active;                /**< 1 while the root is masked */
  int dir;                   /**< direction it fired in */
  double band;               /**< width of the band */
  int refires;               /**< consecutive re-crossings inside the band */
} mbdae_root_mask_state;

/** Engine state carried from one mbdae_run to the next when a long run is
 * integrated in segments (checkpoints, doc/checkpoint.md): zero it (and its
 * arrays) before the first segment; each run reads it on entry and updates
 * it on return, so event indices, max_events, the Zeno window, the dead
 * bands of roots handled just before a segment boundary and the output grid
 * go on as in one run. */
typedef struct mbdae_carry {
  long events;               /**< events of earlier segments */
  double *window;            /**< window_events times of recent events (ring) */
  int nroots;                /**< length of masks (must be the problem's) */
  mbdae_root_mask_state *masks; /**< one per root */
  double grid_t0;            /**< output times are grid_t0 + k dt_out */
  int stop_at_end;           /**< 1: IDA ends a step exactly at t_end, so a DAE's
                                final state solves the residual (the next
                                segment's start); 0: interpolated, as one run */
  int calcic_start;          /**< 1: an inconsistent initial state (a DAE restarted
                                from a step end or the interpolant) is made
                                consistent with IDACalcIC, counted in
                                calcic_fallbacks; 0: it fails, as a first start */
} mbdae_carry;

/** Options of mbdae_run(); fill with mbdae_options_default() first. */
typedef struct mbdae_options {
  mbdae_method method;       /**< integrator */
  mbdae_linsol linsol;       /**< linear solver */
  mbdae_ordering ordering;   /**< KLU ordering */
  double t0, t_end;          /**< end time (> t0) */
  double dt_out;             /**< output interval (> 0) */
  double rtol, atol;         /**< absolute tolerance (scalar) */
  const double *atol_vec;    /**< optional per-component atol (length n) */
  double h_init;             /**< 0: solver's choice */
  double h_max;              /**< 0: unlimited */
  double rk4_step;           /**< fixed step of the RK4 reference */
  long max_steps;            /**< per output interval, adaptive methods */
  int max_order;             /**< 0: default */
  int suppress_alg;          /**< IDA: exclude algebraic variables from the error test */
  double jac_reuse_cj;       /**< IDA: keep the factorised iteration matrix while
                                cj changes by less than this fraction
                                (default 0.9; 0: IDA's own 0.25) */
  double restart_step;       /**< implicit methods: first step after an event's
                                re-initialisation as this fraction of the last step
                                taken (0, the default: restart_policy decides) */
  long max_events;           /**< total events allowed (0: unlimited) */
  int window_events;         /**< Zeno guard: at most this many events ... */
  double window_length;      /**< ... within any interval of this length */
  double consistency_tol;    /**< |F_i| <= tol (1 + |y_i| + |yp_i|) after events */
  int calcic_fallback;       /**< IDA: try IDACalcIC when the handler's state is
                                inconsistent (logged as an event); else fail */
  double root_band;          /**< dead band of a just-handled root (absolute) */
  mbdae_observer_fn observer; /**< output samples and events (may be NULL) */
  void *observer_data;       /**< its user_data */
  mbdae_progress_fn progress; /**< progress reports (may be NULL) */
  void *progress_data;       /**< its user_data */
  mbdae_carry *carry;        /**< NULL: a self-contained run */
  double theta;              /**< moreau: theta of the scheme, in [1/2, 1] (default 1/2) */
  double moreau_step;        /**< moreau: the fixed step h (> 0, default 1e-3) */
  double activation;         /**< moreau: a unilateral row enters a step's index set when
                                g + activation h dg/dt <= 0 (default 1/2, Siconos' rule) */
  double nonsmooth_tol;      /**< moreau: tolerance of the one-step problem, relative to
                                its free constraint velocities (default 1e-10) */
  int nonsmooth_max_iter;    /**< moreau: iterations of the semismooth Newton (default 50) */
  int projection;            /**< moreau: 1 projects the positions back onto g >= 0 (and the
                                bilateral g = 0) after every step whose violation exceeds
                                projection_tol (doc/moreau.md); 0 (default): no projection */
  double projection_tol;     /**< moreau: largest violation left by the projection, in the
                                constraints' units (default 1e-10) */
  mbdae_step_fn step_observer; /**< moreau: called after every step (may be NULL) */
  void *step_data;           /**< its user_data */
  const volatile sig_atomic_t *interrupt; /**< NULL, or a flag (set by a signal
                                handler): once nonzero the run stops within one
                                model evaluation, status MBDAE_STOPPED with
                                mbdae_stats::interrupted = 1 */
  mbdae_arkode_table arkode_table; /**< arkode: the ESDIRK table */
  mbdae_restart_policy restart_policy; /**< implicit methods: the first step after an
                                event when restart_step is 0 (default AUTO) */
  int (*cancel)(void *cancel_data); /**< NULL, or asked like mbdae_options::interrupt
                                (nonzero: stop) at every model evaluation and by a
                                model's create between and within its long set-up
                                phases (mbdae_options_cancelled) */
  void *cancel_data;         /**< its argument */
  double event_window;       /**< adaptive SUNDIALS methods: a root crossing within
                                event_window * rtol * h after a located root (h the
                                step that located it; never beyond that step) joins
                                its event: one handler call, one restart (default 0:
                                only roots located at the same time; 1: rtol h) */
  int arkode_reduce;         /**< arkode on a DAE form with KLU: 1 (default) solves each
                                Newton system through its Schur complement on the
                                kinematic rows q' - v = 0 (doc/arkode.md); 0: the whole
                                iteration matrix */
  int arkode_newton_iters;   /**< arkode: Newton iterations per stage before a
                                convergence failure (0, the default: ARKODE's 3) */
  int arkode_setup_every;    /**< arkode: at most this many steps between Newton matrix
                                setups (0, the default: ARKODE's 20) */
  int arkode_jac_every;      /**< arkode: at most this many steps between Jacobian
                                evaluations (0, the default: ARKODE's 51) */
  mbdae_arkode_newton arkode_newton; /**< arkode on a DAE form with KLU and
                                arkode_reduce: the Newton system (default FULL) */
} mbdae_options;
/** @var mbdae_options::t0
 *  start time */
/** @var mbdae_options::rtol
 *  relative tolerance */

/** @brief Fill with defaults: IDA, dense, t in [0, 1], dt_out 0.01, rtol 1e-8,
 * atol 1e-10, rk4_step 1e-3, max_steps 100000, window 1000 events per 1e-9,
 * event_window 0;
 * moreau: theta 1/2, step 1e-3, activation 1/2, tolerance 1e-10, 50 iterations.
 * @param o the options to fill (callbacks NULL) */
MBDAE_EXPORT void mbdae_options_default(mbdae_options *o);

/** @brief Whether the run (or a model's set-up) is asked to stop: the
 * interrupt flag is set or the cancel hook returns nonzero.
 * @param o the options (NULL: 0)
 * @return 1 or 0 */
MBDAE_EXPORT int mbdae_options_cancelled(const mbdae_options *o);

/** Length of mbdae_stats::steps_by_order (Adams reaches order 12). */
#define MBDAE_STATS_ORDERS 12

/** Statistics of a run (summed over its integrator restarts). */
typedef struct mbdae_stats {
  long steps;                /**< integration steps */
  long rhs_evals;            /**< residual or right-hand-side evaluations */
  long jac_evals;            /**< Jacobian evaluations */
  long lin_setups;           /**< linear-solver setups (factorisations) */
  long newton_iters;         /**< nonlinear (Newton or fixed-point) iterations */
  long newton_fails;         /**< nonlinear convergence failures */
  long err_test_fails;       /**< local error test failures */
  long root_evals;           /**< root function evaluations */
  long events;               /**< events handled */
  long calcic_fallbacks;     /**< IDACalcIC repairs after events */
  double wall_time;          /**< seconds */
  double t_reached;          /**< time of the last state */
  double last_step;          /**< last step size taken */
  long nonsmooth_iters;      /**< moreau: iterations of the one-step nonsmooth solves */
  long nonsmooth_fallbacks;  /**< moreau: solves finished by projected Gauss-Seidel */
  long index_set_max;        /**< moreau: largest index set of a step */
  double index_set_mean;     /**< moreau: mean index set size per step */
  double max_violation;      /**< moreau: largest constraint violation at a step's end */
  double max_energy_rise;    /**< moreau: largest rise of kinetic + potential energy over
                                one step (includes the work of non-potential forces) */
  double work_impulses;      /**< moreau: total work of the constraint impulses (<= 0) */
  double dissipated_scheme;  /**< moreau: total numerical damping (theta - 1/2) |dv|_M^2 */
  double max_repair;         /**< largest repair an event handler reported
                                (mbdae_problem_report_repair), 0 if none */
  double work_applied;       /**< moreau: total work of the applied forces */
  long projections;          /**< moreau: steps whose positions were projected */
  double max_violation_before; /**< moreau: largest violation a projection removed */
  int interrupted;           /**< 1: stopped by mbdae_options::interrupt */
  long steps_by_order[MBDAE_STATS_ORDERS]; /**< adaptive methods: steps taken at
                                order q in [q - 1] (BDF, Adams: the step's order;
                                arkode: the table's; rk4: 4) */
  long restarts;             /**< re-initialisations of the integrator after events */
  long ramp_steps;           /**< the climb after a restart: its first step and each
                                later one that grows, until one shrinks or reaches
                                half the last step before the event */
  long reuse_refactors;      /**< ida: Newton failures of a reused (stale) iteration
                                matrix, each retried at once with a fresh factorisation
                                instead of cutting the step */
  long grouped_roots;        /**< roots that joined an earlier root's event because
                                they cross within mbdae_options::event_window (not
                                restarts saved: roots that cross together in a burst
                                would otherwise mostly share one later event) */
  long krylov_iters;         /**< ida, linear_solver spgmr*: GMRES iterations */
  long prec_factors;         /**< ida, linear_solver spgmr*: preconditioner set-ups that
                                evaluated the Jacobian (and, spgmr, factorised it) */
} mbdae_stats;

/** @brief Integrate from o->t0 to o->t_end.
 * @param p      the problem
 * @param o      options (method, tolerances, output interval, callbacks)
 * @param y      the initial state on entry, the last state on return (also
 *               on failure)
 * @param yp     likewise its derivative (DAE form; may be NULL for ODE form)
 * @param stats  receives the statistics (may be NULL)
 * @param msg    receives a one-line description of a failure: time, mode and
 *               worst residual (or error) component (may be NULL)
 * @param msglen size of msg
 * @return MBDAE_OK, MBDAE_STOPPED, or an error status (MBDAE_ERR_SOLVER,
 *         MBDAE_ERR_CALLBACK, MBDAE_ERR_EVENT_LIMIT, ...) */
MBDAE_EXPORT int mbdae_run(mbdae_problem *p, const mbdae_options *o, double *y, double *yp,
                           mbdae_stats *stats, char *msg, size_t msglen);

/** @brief Name of a method.
 * @param m the method
 * @return "ida", "cvode-bdf", "cvode-adams", "rk4", "moreau", "arkode" or "unknown"
 *         (static) */
MBDAE_EXPORT const char *mbdae_method_name(mbdae_method m);
/** @brief Parse a method name.
 * @param s "ida", "cvode-bdf", "cvode-adams", "rk4", "moreau" or "arkode"
 * @param m receives the method
 * @return 0, MBDAE_ERR_NOT_FOUND or MBDAE_ERR_ARGUMENT (NULL) */
MBDAE_EXPORT int mbdae_method_parse(const char *s, mbdae_method *m);

/** @brief Memory this process may allocate, in bytes: the smaller of the
 *         physical memory and the RLIMIT_AS / RLIMIT_DATA limits (for checks
 *         of sizes taken from input before allocating).
 * @return bytes (HUGE_VAL when nothing is known) */
MBDAE_EXPORT double mbdae_memory_available(void);

#ifdef __cplusplus
}
#endif
#endif
