/* engine_impl.h - private state of one run and the backend operations table.
 * A backend (IDA, CVODE, RK4) is a const table of function pointers, like
 * SUNDIALS' N_Vector ops; the event loop in engine.c drives any of them. */
#ifndef MBDAE_ENGINE_IMPL_H
#define MBDAE_ENGINE_IMPL_H

#include <stddef.h>

#include "mbdae/engine.h"
#include "problem_impl.h"

typedef struct mbdae_engine mbdae_engine;

typedef struct mbdae_backend_ops {
  const char *name;
  /* Allocate the integrator, starting from e->t, e->y, e->yp. */
  int (*create)(mbdae_engine *e);
  /* Integrate towards tout. On return e->t, e->y (and e->yp for DAEs) hold the
   * reached state; *root is 1 when stopped at a located root. Returns a status
   * code; on failure fills e->msg. */
  int (*advance)(mbdae_engine *e, double tout, int *root);
  /* Which (wrapped) roots fired at the last root return: dirs[i] = +1/-1/0. */
  int (*root_info)(mbdae_engine *e, int *dirs);
  /* Restart from e->t, e->y, e->yp after an event. */
  int (*reinit)(mbdae_engine *e);
  /* IDA only (else NULL): recompute consistent algebraic variables and yp. */
  int (*calcic)(mbdae_engine *e);
  /* Accumulated statistics (including those of earlier re-inits). */
  void (*stats)(mbdae_engine *e, mbdae_stats *s);
  void (*destroy)(mbdae_engine *e);
} mbdae_backend_ops;

extern const mbdae_backend_ops mbdae_backend_ida;
extern const mbdae_backend_ops mbdae_backend_cvode;
extern const mbdae_backend_ops mbdae_backend_rk4;
extern const mbdae_backend_ops mbdae_backend_moreau;
extern const mbdae_backend_ops mbdae_backend_arkode;

/* A root just handled is masked: dir is the direction it fired in, band the
 * dead band around zero in which it reads as lying on the pre-crossing side. */
typedef mbdae_root_mask_state mbdae_root_mask; /* engine.h (carried across segments) */

/* A masked root that fires again in the same direction without ever having
 * left its dead band is chattering (a Zeno sequence below the resolution of
 * the root finder): after this many, the run ends with an event-limit error
 * instead of letting the state sink through the surface. */
#define MBDAE_MAX_REFIRES 8

/* Output intervals a run may have ((t_end - t0) / dt_out): every loop over
 * them is bounded by input, so the bound is checked up front. */
#define MBDAE_MAX_OUTPUT_INTERVALS 1e9

struct mbdae_engine {
  mbdae_problem *p;
  const mbdae_options *o;
  int n;
  double t;
  double *y, *yp;            /* current state (yp = ydot for ODE form) */
  mbdae_root_mask *mask;     /* nroots */
  double *graw;              /* nroots, scratch for raw root values */
  void *backend;             /* backend private data */
  const mbdae_backend_ops *ops;
  long rk4_extra_evals;
  char msg[1024];            /* failure description */
  char sundials_msg[256];    /* last message from SUNDIALS' error handler */
  char nonfinite[192];       /* first NaN/inf a callback returned since the
                                last advance (callback_check.c), "" if none */
  int nonfinite_root;        /* a root function returned NaN/inf (root_mask.c) */
  int interrupted;           /* o->interrupt was seen (callback_check.c, engine.c) */
  /* per-step statistics the backends report (mbdae_engine_note_steps) */
  long steps_by_order[MBDAE_STATS_ORDERS];
  long restarts, ramp_steps;
  double last_h;             /* the last step noted */
  int last_order;            /* its order */
  double ramp_h;             /* > 0 after a restart: steps below it are ramp steps */
  double ramp_prev;          /* the last ramp step (0: none yet) */
  double tout;               /* the output time the run is advancing to */
  void (*step_probe)(mbdae_engine *e); /* a backend's check for newly taken steps */
  /* The last step's dense output, set by a backend's create (NULL: none, as
   * for rk4 and moreau): [*t0, *t1] the step's interval; with y non-NULL, the
   * state at t in it into y (and yp for the DAE form). */
  int (*step_dense)(mbdae_engine *e, double t, double *y, double *yp, double *t0,
                    double *t1);
};

/* A backend has taken count steps, the last of size h at order q (called
 * once per step, from its right-hand side or residual, or after advance). */
void mbdae_engine_note_steps(mbdae_engine *e, long count, double h, int order);
/* An event's re-initialisation: counts it and starts the ramp. */
void mbdae_engine_note_restart(mbdae_engine *e);
/* The first step an implicit backend restarting at order p should take
 * after an event (options restart_step, restart_policy; doc/engine.md
 * "Restarts"); 0: the integrator's own estimate. */
double mbdae_engine_restart_step(const mbdae_engine *e, int p);

/* SUNDIALS error handler: keep the message for the failure report instead of
 * printing it (no I/O below the driver). */
void mbdae_sundials_error_handler(int code, const char *module,
                                  const char *function, char *msg, void *data);

/* Root functions as the integrators see them: the model's g with masking. */
int mbdae_engine_roots(mbdae_engine *e, double t, const double *y,
                       const double *yp, double *g);
/* After an event: mask the fired roots around their post-event values. */
int mbdae_engine_mask_fired(mbdae_engine *e, const int *dirs);
/* Near-simultaneous roots (event_group.c): add to dirs the roots that cross
 * within the event window after the located root at e->t, in its step;
 * *grouped receives how many. Scratch: ywin, ypwin (n), g0, g1 (nroots). */
int mbdae_engine_group_roots(mbdae_engine *e, int *dirs, double *ywin, double *ypwin,
                             double *g0, double *g1, int *grouped);
/* Release masks whose root has moved beyond its band to the other side. */
int mbdae_engine_release_masks(mbdae_engine *e);

/* After a successful rhs/residual evaluation (rc 0): a NaN or inf in
 * out[0..n) is noted in e->nonfinite ("the model's rhs returned NaN in
 * ydot[3] at t=0.3") and turned into a recoverable failure (1). */
int mbdae_engine_check_finite(mbdae_engine *e, const char *callback, const char *entry,
                              double t, const double *out, int rc);
/* A backend's failure (status < 0, e->msg filled) after a noted non-finite
 * output: prefix the note to e->msg and return MBDAE_ERR_CALLBACK. */
int mbdae_engine_nonfinite_failure(mbdae_engine *e, int status);

/* Name of the model's current mode ("-" when the model has none). */
const char *mbdae_engine_mode(const mbdae_engine *e);
/* Index and value of the largest |F_i| (DAE) at (t, y, yp); -1 if none. */
int mbdae_engine_worst_residual(mbdae_engine *e, double t, const double *y,
                                const double *yp, double *value);

/* KLU user ordering by METIS nested dissection (klu_l user_order hook). */
/* METIS nested dissection for KLU (klu_ordering.c); id (length n, NULL for
 * none): algebraic unknowns are delayed past their differential neighbours. */
long mbdae_klu_metis_order(long n, long *Ap, long *Ai, long *Perm, const double *id);

#endif
