/* pendulum/pendulum.h - planar pendulum in Cartesian coordinates, the
 * index-3 DAE (engine acceptance model (b), doc/acceptance-models.md). */
#ifndef MBDAE_MODELS_PENDULUM_H
#define MBDAE_MODELS_PENDULUM_H

#include "mbdae/model.h"

enum { PEND_GGL = 0, PEND_BAUMGARTE = 1 };

/* Parameters (schema in pendulum_kind.c). Pivot at the origin, y upward,
 * gravity -g e_y; theta from the downward vertical, counter-clockwise. */
typedef struct pendulum_params {
  double length;   /* L, m (> 0) */
  double mass;     /* m, kg (> 0) */
  double g;        /* m/s^2 (> 0) */
  double theta0;   /* initial angle, rad */
  double omega0;   /* initial angular velocity, rad/s */
  int formulation; /* PEND_GGL | PEND_BAUMGARTE */
  double alpha;    /* Baumgarte velocity gain (phi' coefficient 2 alpha), 1/s */
  double beta;     /* Baumgarte position gain (phi coefficient beta^2), 1/s */
} pendulum_params;

/* State layout: [x, y, vx, vy, lambda, mu]. GGL (IDA): n = 6; Baumgarte in
 * IDA: n = 5 (no mu); Baumgarte as an ODE (CVODE, RK4): n = 4, lambda
 * eliminated. lambda is the multiplier of phi = (x^2 + y^2 - L^2) / 2, so the
 * rod tension is lambda L. */
enum { PEND_X = 0, PEND_Y = 1, PEND_VX = 2, PEND_VY = 3, PEND_LAMBDA = 4,
       PEND_MU = 5 };
enum { PEND_N_GGL = 6, PEND_N_BAUMGARTE = 5, PEND_N_ODE = 4, PEND_NMAX = 6 };

/* Root: x (the bob crossing the vertical through the pivot). */
enum { PEND_ROOT_X = 0, PEND_NROOTS = 1 };
/* Invariants: energy, position constraint |r| - L, velocity constraint
 * (x vx + y vy) / L. */
enum { PEND_INV_ENERGY = 0, PEND_INV_PHI = 1, PEND_INV_PHIDOT = 2, PEND_NINV = 3 };
/* Event data: crossing direction (+1/-1), vx at the crossing. */
enum { PEND_EV_DIR = 0, PEND_EV_VX = 1, PEND_NEVDATA = 2 };

typedef struct pendulum_model {
  pendulum_params p;
  mbdae_form form;
  int n;
  mbdae_problem *problem;
  /* run record of the x = 0 crossings with dir -1, reset by initial_state */
  long crossings;
  double first_crossing, last_crossing;
  double energy0;
  double atol[PEND_NMAX]; /* GGL: per-component atol set by the kind's create */
} pendulum_model;

void pendulum_params_default(pendulum_params *p);
int pendulum_params_check(const pendulum_params *p, mbdae_param_error *err);

/* GGL needs the DAE form; Baumgarte takes either. */
int pendulum_create(const pendulum_params *p, mbdae_form form, pendulum_model **out);
void pendulum_free(pendulum_model **m);
/* Consistent state on the constraint manifold (position, velocity and
 * acceleration level), computed from theta0, omega0. */
int pendulum_initial_state(pendulum_model *m, double t0, double *y, double *yp);

double pendulum_energy(const pendulum_params *p, const double *y);
/* Multiplier lambda of the current state (a state in the DAE forms, the
 * eliminated expression in the ODE form). */
double pendulum_lambda(const pendulum_model *m, const double *y);

/* Callbacks (user_data is the pendulum_model), exported for the tests. */
int pendulum_residual(double t, const double *y, const double *yp, double *F,
                      void *user_data);
int pendulum_rhs(double t, const double *y, double *f, void *user_data);
int pendulum_jac_dense(double t, double cj, const double *y, const double *yp,
                       double *J, void *user_data);
int pendulum_jac_sparse(double t, double cj, const double *y, const double *yp,
                        double *vals, void *user_data);
int pendulum_roots(double t, const double *y, const double *yp, double *g,
                   void *user_data);
int pendulum_event(double t, double *y, double *yp, const int *dirs,
                   mbdae_event_info *info, void *user_data);
int pendulum_invariants(double t, const double *y, const double *yp,
                        double *out, void *user_data);
/* CSC pattern of the instance's formulation and form. */
void pendulum_sparse_pattern(const pendulum_model *m, mbdae_index *nnz,
                             const mbdae_index **colptr,
                             const mbdae_index **rowind);

extern const mbdae_model_kind mbdae_model_pendulum;

#endif
