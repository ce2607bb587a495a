/* ball/ball.h - a point mass bouncing on a horizontal plane (engine
 * acceptance model (a), doc/acceptance-models.md). Internal to models/,
 * validation/ and tests/. */
#ifndef MBDAE_MODELS_BALL_H
#define MBDAE_MODELS_BALL_H

#include "mbdae/model.h"

/* Parameters (schema in ball_kind.c). The plane is q = 0, q is the height
 * of the ball's lowest point, v = q' (upward positive). */
typedef struct ball_params {
  double g;             /* gravity, m/s^2 (> 0) */
  double e;             /* Newton restitution coefficient, [0, 1] */
  double h0;            /* initial height, m (>= 0) */
  double v0;            /* initial vertical velocity, m/s */
  double zeno_velocity; /* rest when the post-impact speed is below this, m/s */
  double zeno_time;     /* ... or when the predicted remaining accumulation
                           time is below this, s (0: rule off) */
  double mass;          /* kg (> 0) */
  double lift_rate;     /* upward external force F(t) = lift_rate * t, N/s */
  double alpha;         /* Baumgarte rate of the DAE contact mode, 1/s (>= 0) */
} ball_params;

enum { BALL_FLIGHT = 0, BALL_CONTACT = 1 };

/* State layout. ODE form (CVODE, RK4): y = [q, v]. DAE form (IDA):
 * y = [q, v, lambda], lambda the normal force (algebraic). */
enum { BALL_Q = 0, BALL_V = 1, BALL_LAMBDA = 2 };
enum { BALL_N_ODE = 2, BALL_N_DAE = 3 };

/* Roots: gap q (flight), vertical velocity v (flight: apex), normal force
 * lambda (contact: release). Inactive roots are the constant 1. */
enum { BALL_ROOT_GAP = 0, BALL_ROOT_APEX = 1, BALL_ROOT_NORMAL = 2,
       BALL_NROOTS = 3 };

/* Event data: pre- and post-event velocity, impulse on the ball, rest flag. */
enum { BALL_EV_VMINUS = 0, BALL_EV_VPLUS = 1, BALL_EV_IMPULSE = 2,
       BALL_EV_REST = 3, BALL_NEVDATA = 4 };

/* Invariants logged around each event. */
enum { BALL_INV_ENERGY = 0, BALL_NINV = 1 };

typedef struct ball_model {
  ball_params p;
  mbdae_form form;
  int n;
  int mode;
  mbdae_problem *problem;
  /* run record, reset by ball_initial_state */
  long impacts;
  double rest_time;     /* time of the switch to persistent contact (or -1) */
  double release_time;  /* time of the last release (or -1) */
  /* event capturing (method moreau, ball_mechanics.c): the last step */
  int event_capturing;  /* 1: run by moreau (outputs from the impulses) */
  int step_contact;     /* the last step had an impulse */
  double step_force;    /* its mean normal force, impulse / h (N) */
} ball_model;

/* Parameter defaults and checks. */
void ball_params_default(ball_params *p);
int ball_params_check(const ball_params *p, mbdae_param_error *err);

/* Build an instance in ODE (CVODE/RK4) or DAE (IDA) form. */
int ball_create(const ball_params *p, mbdae_form form, ball_model **out);
void ball_free(ball_model **m);

/* Consistent initial state at t0: flight, or contact when h0 = v0 = 0 and
 * gravity outweighs the lift. yp may be NULL in ODE form. */
int ball_initial_state(ball_model *m, double t0, double *y, double *yp);

/* Declare the mechanical form (mbdae/mechanics.h) on the ODE-form problem. */
int ball_set_mechanics(ball_model *m);

/* Upward external force at t (N). */
double ball_lift(const ball_params *p, double t);
/* Mechanical energy m g q + m v^2 / 2 (J). */
double ball_energy(const ball_params *p, const double *y);
/* Normal force on the ball (N): lambda in DAE form, m g - F(t) in ODE
 * form while in contact, 0 in flight; under moreau the last step's mean
 * impulse force. */
double ball_normal_force(const ball_model *m, double t, const double *y);

/* Model callbacks (user_data is the ball_model), exported for the tests. */
int ball_residual(double t, const double *y, const double *yp, double *F,
                  void *user_data);
int ball_rhs(double t, const double *y, double *f, void *user_data);
int ball_jac_dense(double t, double cj, const double *y, const double *yp,
                   double *J, void *user_data);
int ball_jac_sparse(double t, double cj, const double *y, const double *yp,
                    double *vals, void *user_data);
int ball_roots(double t, const double *y, const double *yp, double *g,
               void *user_data);
int ball_event(double t, double *y, double *yp, const int *dirs,
               mbdae_event_info *info, void *user_data);
int ball_invariants(double t, const double *y, const double *yp, double *out,
                    void *user_data);

/* The CSC pattern valid in both modes, for the current form. */
void ball_sparse_pattern(mbdae_form form, mbdae_index *nnz,
                         const mbdae_index **colptr,
                         const mbdae_index **rowind);

extern const mbdae_model_kind mbdae_model_bouncing_ball;

#endif
