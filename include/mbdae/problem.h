/* mbdae/problem.h - a hybrid DAE or ODE problem: sizes and model callbacks.
 *
 * All callbacks are shaped like SUNDIALS' (t, y, yp, out, user_data) and
 * return 0 on success, > 0 for a recoverable failure (the integrator retries
 * with a smaller step) and < 0 for a fatal one. Arrays are plain doubles, so
 * a model never sees a SUNDIALS type. */
#ifndef MBDAE_PROBLEM_H
#define MBDAE_PROBLEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t mbdae_index;

typedef enum {
  MBDAE_FORM_DAE = 0, /* F(t, y, y') = 0, solved by IDA */
  MBDAE_FORM_ODE = 1  /* y' = f(t, y), solved by CVODE or RK4 */
} mbdae_form;

/* DAE residual: out = F(t, y, yp). */
typedef int (*mbdae_residual_fn)(double t, const double *y, const double *yp,
                                 double *out, void *user_data);
/* ODE right-hand side: out = f(t, y). */
typedef int (*mbdae_rhs_fn)(double t, const double *y, double *out,
                            void *user_data);
/* Jacobian. DAE: out = dF/dy + cj dF/dyp. ODE: out = df/dy (cj = 0, yp NULL).
 * Dense: out is column-major n x n (zeroed by the engine before the call).
 * Sparse: out holds the values of the fixed CSC pattern, in pattern order
 * (zeroed by the engine before the call). */
typedef int (*mbdae_jac_fn)(double t, double cj, const double *y,
                            const double *yp, double *out, void *user_data);
/* Root functions g(t, y, yp); yp is NULL for ODE-form problems. */
typedef int (*mbdae_root_fn)(double t, const double *y, const double *yp,
                             double *g, void *user_data);

/* Event handler return values (>= 0); < 0 is a fatal error. */
enum {
  MBDAE_EVENT_CONTINUE = 0, /* y/yp (and the mode) may have changed: re-initialise */
  MBDAE_EVENT_STOP = 1,     /* end the run here (status MBDAE_STOPPED) */
  MBDAE_EVENT_NOCHANGE = 2  /* nothing changed: continue without re-initialisation */
};

#define MBDAE_EVENT_DATA_MAX 16

/* Extra information a handler may return about an event. */
typedef struct mbdae_event_info {
  const char *label;   /* static string naming what happened ("impact", "release") */
  int ndata;           /* number of model-defined values in data[] (<= MBDAE_EVENT_DATA_MAX) */
  double data[MBDAE_EVENT_DATA_MAX]; /* model-defined values (impulse, stick flag) */
} mbdae_event_info;

/* Event handler, called at a located root. dirs[i] is +1 (g_i rose through 0),
 * -1 (fell through 0) or 0 (not fired); all roots located at the same time
 * are passed together. The handler applies the event map (impulse, mode
 * switch) and must leave y, yp consistent with the new mode's equations. */
typedef int (*mbdae_event_fn)(double t, double *y, double *yp, const int *dirs,
                              mbdae_event_info *info, void *user_data);
/* Invariants (energy, momenta, constraint values) logged around each event. */
typedef int (*mbdae_invariant_fn)(double t, const double *y, const double *yp,
                                  double *out, void *user_data);
/* Name of the current mode, for logs and error messages. */
typedef const char *(*mbdae_mode_name_fn)(void *user_data);

typedef struct mbdae_problem mbdae_problem;

mbdae_problem *mbdae_problem_create(int n, mbdae_form form);
void mbdae_problem_free(mbdae_problem **problem);

int mbdae_problem_size(const mbdae_problem *p);
mbdae_form mbdae_problem_form(const mbdae_problem *p);

int mbdae_problem_set_user_data(mbdae_problem *p, void *user_data);
int mbdae_problem_set_residual(mbdae_problem *p, mbdae_residual_fn f);
int mbdae_problem_set_rhs(mbdae_problem *p, mbdae_rhs_fn f);
/* id[i] = 1 for a differential, 0 for an algebraic variable (DAE form). */
int mbdae_problem_set_id(mbdae_problem *p, const double *id);
int mbdae_problem_set_jacobian_dense(mbdae_problem *p, mbdae_jac_fn jac);
/* CSC pattern (copied). It must be a superset valid in every mode, so a mode
 * switch costs a numeric refactorisation only. ODE-form patterns must contain
 * every diagonal entry. Row indices within a column must be increasing. */
int mbdae_problem_set_jacobian_sparse(mbdae_problem *p, mbdae_index nnz,
                                      const mbdae_index *colptr,
                                      const mbdae_index *rowind,
                                      mbdae_jac_fn jac);
int mbdae_problem_set_roots(mbdae_problem *p, int nroots, mbdae_root_fn g);
int mbdae_problem_set_event_handler(mbdae_problem *p, mbdae_event_fn h);
/* names: ninv static strings (copied by pointer). */
int mbdae_problem_set_invariants(mbdae_problem *p, int ninv,
                                 const char *const *names,
                                 mbdae_invariant_fn f);
int mbdae_problem_set_mode_name(mbdae_problem *p, mbdae_mode_name_fn f);

/* The invariants declared with mbdae_problem_set_invariants: their count
 * (0 if none) and, when names is not NULL, their names. */
int mbdae_problem_invariant_count(const mbdae_problem *p,
                                  const char *const **names);
/* Evaluate the invariants at (t, y, yp) into out[count]. */
int mbdae_problem_eval_invariants(const mbdae_problem *p, double t,
                                  const double *y, const double *yp,
                                  double *out);
/* Name of the model's current mode ("-" when the model declares none). */
const char *mbdae_problem_mode(const mbdae_problem *p);

/* Evaluate the problem's callbacks (for checkers, tests and drivers). */
int mbdae_problem_eval(const mbdae_problem *p, double t, const double *y,
                       const double *yp, double *out);
int mbdae_problem_eval_jacobian_dense(const mbdae_problem *p, double t,
                                      double cj, const double *y,
                                      const double *yp, double *J);

#ifdef __cplusplus
}
#endif
#endif
