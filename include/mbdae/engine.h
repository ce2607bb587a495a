/* mbdae/engine.h - run a hybrid problem: integrator backends, event loop,
 * options and statistics. The engine does no I/O: output, progress and the
 * event log reach the caller through callbacks. */
#ifndef MBDAE_ENGINE_H
#define MBDAE_ENGINE_H

#include <stddef.h>
#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MBDAE_METHOD_IDA = 0,         /* DAE form: variable-order BDF (IDA) */
  MBDAE_METHOD_CVODE_BDF = 1,   /* ODE form: stiff BDF with Newton (CVODE) */
  MBDAE_METHOD_CVODE_ADAMS = 2, /* ODE form: Adams-Moulton, fixed-point iteration */
  MBDAE_METHOD_RK4 = 3          /* ODE form: fixed-step classic RK4 (reference) */
} mbdae_method;

typedef enum {
  MBDAE_LINSOL_DENSE = 0,
  MBDAE_LINSOL_KLU = 1          /* needs a sparse Jacobian pattern */
} mbdae_linsol;

typedef enum {
  MBDAE_ORDERING_AMD = 0,
  MBDAE_ORDERING_COLAMD = 1,
  MBDAE_ORDERING_NATURAL = 2,
  MBDAE_ORDERING_METIS = 3      /* nested dissection via KLU's user-ordering hook */
} mbdae_ordering;

/* One logged event, passed to the observer. Arrays are valid during the call. */
typedef struct mbdae_event_record {
  long index;              /* 0, 1, 2, ... */
  double t;
  int nroots;
  const int *dirs;         /* +1/-1/0 per root, as given to the handler */
  const char *label;       /* from the handler (or "root") */
  const char *mode_before, *mode_after;
  int ninv;
  const char *const *inv_names;
  const double *inv_before, *inv_after;
  int ndata;               /* the handler's mbdae_event_info data */
  const double *data;
  int action;              /* MBDAE_EVENT_CONTINUE / _STOP / _NOCHANGE */
} mbdae_event_record;

/* Observer: called at t0, at every output time, at the final time and, with
 * ev != NULL, after every event (y, yp are the post-event state). Return 0 to
 * go on, > 0 to stop the run (MBDAE_STOPPED), < 0 to fail. */
typedef int (*mbdae_observer_fn)(double t, const double *y, const double *yp,
                                 const mbdae_event_record *ev, void *user_data);
/* Progress: called after each output interval; fraction in [0, 1]. */
typedef void (*mbdae_progress_fn)(double t, double fraction, void *user_data);

typedef struct mbdae_options {
  mbdae_method method;
  mbdae_linsol linsol;
  mbdae_ordering ordering;
  double t0, t_end;
  double dt_out;             /* output interval (> 0) */
  double rtol, atol;
  const double *atol_vec;    /* optional per-component atol (length n) */
  double h_init;             /* 0: solver's choice */
  double h_max;              /* 0: unlimited */
  double rk4_step;           /* fixed step of the RK4 reference */
  long max_steps;            /* per output interval, adaptive methods */
  int max_order;             /* 0: default */
  int suppress_alg;          /* IDA: exclude algebraic variables from the error test */
  double jac_reuse_cj;       /* IDA: keep the factorised iteration matrix while
                                cj changes by less than this fraction
                                (default 0.9; 0: IDA's own 0.25) */
  long max_events;           /* total events allowed (0: unlimited) */
  int window_events;         /* Zeno guard: at most this many events ... */
  double window_length;      /* ... within any interval of this length */
  double consistency_tol;    /* |F_i| <= tol (1 + |y_i| + |yp_i|) after events */
  int calcic_fallback;       /* IDA: try IDACalcIC when the handler's state is
                                inconsistent (logged as an event); else fail */
  double root_band;          /* dead band of a just-handled root (absolute) */
  mbdae_observer_fn observer;
  void *observer_data;
  mbdae_progress_fn progress;
  void *progress_data;
} mbdae_options;

/* Fill with defaults: IDA, dense, t in [0, 1], dt_out 0.01, rtol 1e-8,
 * atol 1e-10, rk4_step 1e-3, max_steps 100000, window 1000 events per 1e-9. */
void mbdae_options_default(mbdae_options *o);

typedef struct mbdae_stats {
  long steps;
  long rhs_evals;            /* residual or right-hand-side evaluations */
  long jac_evals;
  long lin_setups;           /* linear-solver setups (factorisations) */
  long newton_iters;
  long newton_fails;
  long err_test_fails;
  long root_evals;
  long events;
  long calcic_fallbacks;
  double wall_time;          /* seconds */
  double t_reached;
  double last_step;
} mbdae_stats;

/* Integrate from o->t0 to o->t_end. y, yp hold the initial state on entry
 * (yp may be NULL for ODE-form problems) and the last state on return, also
 * on failure. msg (may be NULL) receives a one-line description of a failure:
 * time, mode and worst residual (or error) component. Returns a status code. */
int mbdae_run(mbdae_problem *p, const mbdae_options *o, double *y, double *yp,
              mbdae_stats *stats, char *msg, size_t msglen);

const char *mbdae_method_name(mbdae_method m);
/* Parse "ida", "cvode-bdf", "cvode-adams", "rk4"; returns 0 or MBDAE_ERR_NOT_FOUND. */
int mbdae_method_parse(const char *s, mbdae_method *m);

#ifdef __cplusplus
}
#endif
#endif
