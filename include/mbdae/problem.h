/** @file mbdae/problem.h
 * @brief A hybrid DAE or ODE problem: sizes and model callbacks.
 *
 * All callbacks are shaped like SUNDIALS' (t, y, yp, out, user_data) and
 * return 0 on success, > 0 for a recoverable failure (the integrator retries
 * with a smaller step) and < 0 for a fatal one. Arrays are plain doubles, so
 * a model never sees a SUNDIALS type. */
#ifndef MBDAE_PROBLEM_H
#define MBDAE_PROBLEM_H

#include "mbdae/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Index type of sparse (CSC) Jacobian patterns (SUNDIALS' sunindextype). */
typedef int64_t mbdae_index;

/** How the equations are posed. */
typedef enum {
  MBDAE_FORM_DAE = 0, /**< F(t, y, y') = 0, solved by IDA */
  MBDAE_FORM_ODE = 1  /**< y' = f(t, y), solved by CVODE or RK4 */
} mbdae_form;

/** DAE residual: out = F(t, y, yp). Returns 0, > 0 recoverable, < 0 fatal. */
typedef int (*mbdae_residual_fn)(double t, const double *y, const double *yp,
                                 double *out, void *user_data);
/** ODE right-hand side: out = f(t, y). Returns 0, > 0 recoverable, < 0 fatal. */
typedef int (*mbdae_rhs_fn)(double t, const double *y, double *out,
                            void *user_data);
/** Jacobian. DAE: out = dF/dy + cj dF/dyp. ODE: out = df/dy (cj = 0, yp NULL).
 * Dense: out is column-major n x n (zeroed by the engine before the call).
 * Sparse: out holds the values of the fixed CSC pattern, in pattern order
 * (zeroed by the engine before the call). */
typedef int (*mbdae_jac_fn)(double t, double cj, const double *y,
                            const double *yp, double *out, void *user_data);
/** Root functions g(t, y, yp) into g[nroots]; yp is NULL for ODE-form problems. */
typedef int (*mbdae_root_fn)(double t, const double *y, const double *yp,
                             double *g, void *user_data);

/** Event handler return values (>= 0); < 0 is a fatal error. */
enum {
  MBDAE_EVENT_CONTINUE = 0, /**< y/yp (and the mode) may have changed: re-initialise */
  MBDAE_EVENT_STOP = 1,     /**< end the run here (status MBDAE_STOPPED) */
  MBDAE_EVENT_NOCHANGE = 2  /**< nothing changed: continue without re-initialisation */
};

/** Capacity of mbdae_event_info::data. */
#define MBDAE_EVENT_DATA_MAX 16

/** Extra information a handler may return about an event. */
typedef struct mbdae_event_info {
  const char *label;   /**< string naming what happened ("impact", "release"), static
                            or kept by the model until its next call; when the handler
                            fails, why (the engine's failure message quotes it) */
  int ndata;           /**< number of model-defined values in data[] (<= MBDAE_EVENT_DATA_MAX) */
  double data[MBDAE_EVENT_DATA_MAX]; /**< model-defined values (impulse, stick flag) */
} mbdae_event_info;

/** Event handler, called at a located root. dirs[i] is +1 (g_i rose through 0),
 * -1 (fell through 0) or 0 (not fired); all roots located at the same time
 * are passed together, and so are those that cross within the engine's event
 * window after it (mbdae_options::event_window: their g_i still lies on the
 * pre-crossing side, by at most that window times |dg_i/dt|; the handler applies
 * their transitions now). The handler applies the event map (impulse, mode
 * switch) and must leave y, yp consistent with the new mode's equations.
 * Returns MBDAE_EVENT_CONTINUE, _STOP or _NOCHANGE, or < 0 (fatal). */
typedef int (*mbdae_event_fn)(double t, double *y, double *yp, const int *dirs,
                              mbdae_event_info *info, void *user_data);
/** Invariants (energy, momenta, constraint values) into out[ninv], logged
 *  around each event. Returns 0, or < 0 on failure. */
typedef int (*mbdae_invariant_fn)(double t, const double *y, const double *yp,
                                  double *out, void *user_data);
/** Name of the current mode (a static string), for logs and error messages. */
typedef const char *(*mbdae_mode_name_fn)(void *user_data);

/** An opaque problem: size, form and the model's callbacks. */
typedef struct mbdae_problem mbdae_problem;

/** @brief Create a problem of n unknowns in the given form.
 * @param n    number of unknowns (> 0)
 * @param form MBDAE_FORM_DAE or MBDAE_FORM_ODE
 * @return the problem, or NULL (n <= 0 or out of memory) */
MBDAE_EXPORT mbdae_problem *mbdae_problem_create(int n, mbdae_form form);
/** @brief Free a problem and set *problem to NULL.
 * @param problem address of the handle (NULL or *problem NULL: nothing to do) */
MBDAE_EXPORT void mbdae_problem_free(mbdae_problem **problem);

/** @brief Number of unknowns.
 * @param p the problem
 * @return n, or 0 when p is NULL */
MBDAE_EXPORT int mbdae_problem_size(const mbdae_problem *p);
/** @brief Number of root functions.
 * @param p the problem
 * @return nroots (0 without roots) */
MBDAE_EXPORT int mbdae_problem_root_count(const mbdae_problem *p);
/** @brief The problem's form.
 * @param p the problem
 * @return MBDAE_FORM_DAE or MBDAE_FORM_ODE */
MBDAE_EXPORT mbdae_form mbdae_problem_form(const mbdae_problem *p);

/** @brief Set the pointer passed as user_data to every callback.
 * @param p         the problem
 * @param user_data the model's data (not owned)
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_user_data(mbdae_problem *p, void *user_data);
/** @brief Set the residual of a DAE-form problem.
 * @param p the problem (MBDAE_FORM_DAE)
 * @param f the residual
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (wrong form, NULL) */
MBDAE_EXPORT int mbdae_problem_set_residual(mbdae_problem *p, mbdae_residual_fn f);
/** @brief Set the right-hand side of an ODE-form problem.
 * @param p the problem (MBDAE_FORM_ODE)
 * @param f the right-hand side
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (wrong form, NULL) */
MBDAE_EXPORT int mbdae_problem_set_rhs(mbdae_problem *p, mbdae_rhs_fn f);
/** @brief Mark the differential and algebraic variables (DAE form).
 * @param p  the problem
 * @param id n values (copied): 1 for a differential, 0 for an algebraic variable
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_id(mbdae_problem *p, const double *id);
/** Completion of a semi-explicit index-1 DAE (mbdae_problem_set_completion):
 * given the differential unknowns y[0..nd), set the algebraic ones y[nd..n)
 * and yp (yp[nd..n) = 0) so that F(t, y, yp) = 0 in the current mode.
 * Returns 0, > 0 recoverable, < 0 fatal. */
typedef int (*mbdae_completion_fn)(double t, double *y, double *yp, void *user_data);
/** @brief Declare a DAE-form problem semi-explicit of index 1: its first nd
 *         unknowns differential, the rest algebraic, and F affine in
 *         (yp[0..nd), y[nd..n)) at fixed y[0..nd) (mechanical DAEs whose
 *         multipliers solve acceleration-level rows are).
 *
 * Method arkode then integrates the DAE as the ODE y_d' = f(t, y_d), f from
 * the completion, with its Newton systems solved exactly on the DAE's own
 * Jacobian dF/dy + (1/gamma) dF/dyp (doc/arkode.md, "DAE forms").
 * @param p  the problem (MBDAE_FORM_DAE)
 * @param nd number of differential unknowns, 0 < nd <= n
 * @param f  the completion
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (wrong form, nd out of range, NULL, or an
 *         id vector that marks other unknowns differential) */
MBDAE_EXPORT int mbdae_problem_set_completion(mbdae_problem *p, int nd, mbdae_completion_fn f);
/** @brief The differential count declared with mbdae_problem_set_completion().
 * @param p the problem
 * @return nd, or 0 when the problem declares no completion (or p is NULL) */
MBDAE_EXPORT int mbdae_problem_completion_size(const mbdae_problem *p);
/** Consistent state at a restart (mbdae_problem_set_restart_state): given
 * the differential unknowns y[i] (id 1) at a restart, set the algebraic ones
 * and yp as the model's event handler leaves them, so that F(t, y, yp) = 0 in
 * the current mode up to the constraint drift already in y. Returns 0, > 0
 * recoverable, < 0 fatal. */
typedef int (*mbdae_restart_fn)(double t, double *y, double *yp, void *user_data);
/** @brief Declare how a DAE-form problem is made consistent at a restart.
 *
 * A run that starts from a state the integrator left (the next segment of
 * --checkpoint-every, a resumed checkpoint: mbdae_carry calcic_start) and
 * finds it inconsistent calls f first and checks the residual again; only if
 * it still fails does IDACalcIC repair it. Needed by forms IDACalcIC cannot
 * repair (index 2: string_net formulation ggl); an index-1 form need not.
 * @param p the problem (MBDAE_FORM_DAE)
 * @param f the restart completion
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (wrong form, NULL) */
MBDAE_EXPORT int mbdae_problem_set_restart_state(mbdae_problem *p, mbdae_restart_fn f);
/** @brief Set a dense analytic Jacobian.
 * @param p   the problem
 * @param jac fills the column-major n x n matrix
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_jacobian_dense(mbdae_problem *p, mbdae_jac_fn jac);
/** @brief Set a sparse analytic Jacobian with a fixed CSC pattern (for KLU).
 *
 * The pattern (copied) must be a superset valid in every mode, so a mode
 * switch costs a numeric refactorisation only. ODE-form patterns must contain
 * every diagonal entry. Row indices within a column must be increasing.
 * @param p      the problem
 * @param nnz    number of structural non-zeros
 * @param colptr n + 1 column starts (colptr[n] = nnz)
 * @param rowind nnz row indices
 * @param jac    fills the nnz values in pattern order
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (an invalid pattern) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_jacobian_sparse(mbdae_problem *p, mbdae_index nnz,
                                                   const mbdae_index *colptr,
                                                   const mbdae_index *rowind,
                                                   mbdae_jac_fn jac);
/** @brief Set the root functions whose zero crossings are events.
 * @param p      the problem
 * @param nroots number of root functions (>= 0)
 * @param g      evaluates all of them
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_roots(mbdae_problem *p, int nroots, mbdae_root_fn g);
/** @brief Set the event handler called at located roots.
 * @param p the problem
 * @param h the handler (the event map)
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_event_handler(mbdae_problem *p, mbdae_event_fn h);
/** @brief Declare invariants logged before and after each event.
 * @param p     the problem
 * @param ninv  number of invariants
 * @param names ninv static strings (copied by pointer)
 * @param f     evaluates them
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_invariants(mbdae_problem *p, int ninv,
                                              const char *const *names,
                                              mbdae_invariant_fn f);
/** @brief Units of the invariants (e.g. "J", "kg m/s"), for the headers of
 *         the output (events.csv: "energy_before [J]"). Optional; call after
 *         mbdae_problem_set_invariants(), which forgets earlier units.
 * @param p     the problem
 * @param units one static string per invariant ("" for none)
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (NULL, no invariants) */
MBDAE_EXPORT int mbdae_problem_set_invariant_units(mbdae_problem *p,
                                                   const char *const *units);
/** Error weights (mbdae_problem_set_error_weights): w arrives holding the
 * integrator's weights 1/(rtol |y_i| + atol_i); the function may raise
 * entries (never lower them) so that the error test also holds chosen
 * functions of the state to a tolerance of their own, such as each state's
 * share of an energy balance. Returns 0, nonzero to fail the step. */
typedef int (*mbdae_weight_fn)(const double *y, double *w, void *user_data);
/** @brief Declare the problem's error weights (doc/engine.md, "Error
 *         weights"): used by IDA, CVODE and ARKODE on an ODE form (their
 *         WFtolerances); methods without an error test refuse the problem.
 * @param p the problem
 * @param f the weights, NULL for the integrator's own
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_error_weights(mbdae_problem *p, mbdae_weight_fn f);
/** @brief Set the function naming the current mode.
 * @param p the problem
 * @param f returns a static string
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_mode_name(mbdae_problem *p, mbdae_mode_name_fn f);

/** @brief State the largest repair of the state an event handler of this
 *         problem may make (a penetration removed by moving a body back onto
 *         a surface, a projection onto held constraints).
 *
 * A repair is legitimate only at the size of the root location's error; a
 * larger one means a contact was missed (a root masked, a step across a
 * surface) and "putting the body back" would hide a wrong answer. A handler
 * reports each repair with mbdae_problem_report_repair(); the engine fails
 * the event when one exceeds this tolerance (doc/engine.md, "Repairs").
 * @param p   the problem
 * @param tol the tolerance (> 0, in the units of what is repaired: metres
 *            for a penetration); 0, the default, allows none
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT (NULL, tol negative or not finite) */
MBDAE_EXPORT int mbdae_problem_set_repair_tolerance(mbdae_problem *p, double tol);
/** @brief The tolerance set with mbdae_problem_set_repair_tolerance().
 * @param p the problem
 * @return the tolerance (0 when none was set or p is NULL) */
MBDAE_EXPORT double mbdae_problem_repair_tolerance(const mbdae_problem *p);
/** @brief Report, from an event handler, that the state was repaired.
 *
 * The engine keeps the largest size reported during one handler call and,
 * when it exceeds the tolerance (or is not finite), ends the run with
 * MBDAE_ERR_INCONSISTENT naming the event, t, what and the size.
 * @param p    the problem
 * @param size the size of the repair (e.g. the penetration depth removed)
 * @param what a static string naming it ("penetration of segment 2")
 * @return MBDAE_OK within the tolerance, MBDAE_ERR_INCONSISTENT beyond it
 *         (the handler may stop at once and return it), MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_report_repair(mbdae_problem *p, double size, const char *what);

/** @brief The invariants declared with mbdae_problem_set_invariants().
 * @param p     the problem
 * @param names when not NULL, receives their names
 * @return their count (0 if none) */
MBDAE_EXPORT int mbdae_problem_invariant_count(const mbdae_problem *p,
                                               const char *const **names);
/** @brief The unit of invariant i, as set by mbdae_problem_set_invariant_units().
 * @param p the problem
 * @param i 0 <= i < the invariant count
 * @return the unit ("" when none was set or i is out of range) */
MBDAE_EXPORT const char *mbdae_problem_invariant_unit(const mbdae_problem *p, int i);
/** @brief Evaluate the invariants at (t, y, yp).
 * @param p   the problem
 * @param t   time
 * @param y   state
 * @param yp  state derivative (may be NULL for ODE form)
 * @param out receives count values
 * @return MBDAE_OK or an error status */
MBDAE_EXPORT int mbdae_problem_eval_invariants(const mbdae_problem *p, double t,
                                               const double *y, const double *yp,
                                               double *out);
/** @brief Name of the model's current mode.
 * @param p the problem
 * @return the mode name, "-" when the model declares none */
MBDAE_EXPORT const char *mbdae_problem_mode(const mbdae_problem *p);

/** @brief Evaluate the residual (DAE) or right-hand side (ODE); for checkers,
 *         tests and drivers.
 * @param p   the problem
 * @param t   time
 * @param y   state
 * @param yp  state derivative (DAE form; ignored for ODEs)
 * @param out receives n values
 * @return 0, the callback's recoverable status (> 0), MBDAE_ERR_CALLBACK
 *         (it failed fatally) or MBDAE_ERR_ARGUMENT (NULL, no callback) */
MBDAE_EXPORT int mbdae_problem_eval(const mbdae_problem *p, double t, const double *y,
                                    const double *yp, double *out);
/** @brief Evaluate the Jacobian as a dense matrix (from the dense or the
 *         sparse callback).
 * @param p  the problem
 * @param t  time
 * @param cj the DAE's scalar cj (ignored for ODEs)
 * @param y  state
 * @param yp state derivative (DAE form)
 * @param J  receives the column-major n x n matrix
 * @return 0, the callback's recoverable status (> 0), MBDAE_ERR_CALLBACK,
 *         MBDAE_ERR_ARGUMENT (no Jacobian) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_eval_jacobian_dense(const mbdae_problem *p, double t,
                                                   double cj, const double *y,
                                                   const double *yp, double *J);

#ifdef __cplusplus
}
#endif
#endif
