/* capture/capture.h - a net of point masses joined by slack/taut strings
 * capturing a tumbling convex polytope (capps ch. 2, sec. 3.3-3.4, ch. 4).
 * Internal to models/, validation/, tests/ and benchmarks/.
 *
 * Generalised coordinates: point positions r_i, body centre P, attitude
 * quaternion q; velocities u = (v_i, U, w) with w in body axes; mass matrix
 * Mg = diag(m_i I3, m_P I3, J). Every constraint k (string or point-face
 * contact) has a velocity Jacobian row G_k and c_k'' = G_k u' + gamma_k; the
 * reactions are G_k^T lambda_k on ALL coordinates, which is the seed's
 * Theta_R Lambda plus its F_R / L_R body terms (doc/capture.md). */
#ifndef MBDAE_MODELS_CAPTURE_H
#define MBDAE_MODELS_CAPTURE_H

#include "mbdae/model.h"
#include "polytope/polytope.h"

enum { CAPTURE_MODE_EVENT = 0, CAPTURE_MODE_BAUMGARTE = 1, CAPTURE_MODE_COMPLIANT = 2 };
enum { CAPTURE_SWITCH_LOCATED = 0, CAPTURE_SWITCH_STATE = 1 };
enum { CAPTURE_FORCES_BILATERAL = 0, CAPTURE_FORCES_UNILATERAL = 1 };
enum { CAPTURE_SHAPE_PRISM = 0, CAPTURE_SHAPE_BOX = 1, CAPTURE_SHAPE_VERTICES = 2 };
enum { CAPTURE_CONTROL_NONE = 0, CAPTURE_CONTROL_MIN_THRUST = 1,
       CAPTURE_CONTROL_ERROR_STAB = 2 };

typedef struct capture_params {
  int mode;
  int switching;            /* baumgarte mode: CAPTURE_SWITCH_LOCATED (roots,
                               re-initialisation at every switch) or
                               CAPTURE_SWITCH_STATE (the seed's own method,
                               sec. 3.3: active sets and faces from the state
                               at every evaluation, no roots, no events) */
  int forces;               /* baumgarte mode: CAPTURE_FORCES_BILATERAL (the
                               seed's eq. 3.1: every active row follows eq.
                               3.2, whatever the sign of its force) or
                               CAPTURE_FORCES_UNILATERAL (a string only pulls,
                               a contact only pushes: complementarity) */
  /* net: rows x cols grid, lateral and transverse strings of length spacing,
   * all points launched from one point; each point's velocity is
   * launch_velocity + (its offset in the extended net) / deploy_time */
  int rows, cols;
  double spacing, point_mass;
  double launch_point[3], launch_velocity[3];
  double deploy_time;
  int strings_on;           /* 0: no strings (free points) */
  /* body */
  int shape;
  int prism_sides;
  double prism_radius, prism_length;
  double box_size[3];
  double *vertices;         /* table nvertices x 3 (shape: vertices) */
  int nvertices;
  double body_mass;
  int inertia_given;        /* 0: uniform density, inertia from the shape */
  double inertia[9];
  double body_position[3], body_velocity[3], body_attitude[4], body_omega[3];
  /* contact laws */
  double e_string, e_body;  /* Newton restitution (event mode) */
  double stick_velocity;    /* Zeno rule: post-impact normal rate below this -> persistent */
  int release_held;         /* event mode: an impact may release a held constraint
                               whose impulse would pull (contact) / push (string);
                               0: held ones stay bilateral through an impact */
  double release_force;     /* release when the normal force falls below -this (N) */
  double xi_string, omega_string, xi_body, omega_body; /* Baumgarte (eq. 3.2) */
  /* control (ch. 4) */
  int control;
  double control_tf;
  double target_center[3], target_velocity[3];
  double zeta, omega_n;
  double control_t_end;     /* thrust off after this time (0: never) */
  /* mode: compliant (capture_compliant.c): elastic threads and compliant
   * contact, forces only - no constraints, no events */
  double string_ea;         /* EA of every thread (N) */
  double string_damping;    /* eta (N s): T = EA eps + eta eps eps' (elastic_thread.h) */
  double contact_stiffness; /* k of the normal law (N/m^p) */
  double contact_exponent;  /* p (1 linear, 1.5 Hertz) */
  double contact_restitution;        /* e at contact_reference_velocity, (0, 1] */
  double contact_reference_velocity; /* m/s */
  double friction;          /* Coulomb mu */
  double friction_velocity; /* regularisation velocity (m/s) */
} capture_params;

typedef struct capture_model capture_model;

void capture_params_default(capture_params *p);
/* Unit attitude quaternion from the parameters (all zero: identity). */
void capture_attitude(const capture_params *p, double *q);
int capture_params_check(const capture_params *p, mbdae_param_error *err);
/* Build (ODE form: CVODE or RK4). */
int capture_create(const capture_params *p, capture_model **out, mbdae_param_error *err);
void capture_free(capture_model **m);
mbdae_problem *capture_problem(capture_model *m);
int capture_initial_state(capture_model *m, double t0, double *y);

/* DAE form (IDA, dense or KLU; capture_dae.c, doc/capture.md "DAE form"):
 * y = [ODE state (capture_size) | lambda (capture_nconstraints)], residual
 * of the equations of motion with the multipliers G_k^T lambda_k and, per
 * constraint, its acceleration-level row (active) or lambda_k = 0; sparse
 * analytic Jacobian. MBDAE_ERR_UNSUPPORTED for control error_stabilization
 * (a state-feedback law through the ODE's joint solve). */
int capture_create_dae(const capture_params *p, capture_model **out, mbdae_param_error *err);
int capture_is_dae(const capture_model *m);
/* Problem size: capture_size (ODE) or capture_size + nc (DAE). */
int capture_problem_size(const capture_model *m);
int capture_nconstraints(const capture_model *m);
/* Initial modes and a consistent (y, yp) for the DAE form. */
int capture_dae_initial_state(capture_model *m, double t0, double *y, double *yp);
/* Consistent lambda (in y) and yp from the ODE part of y and the current
 * modes (the ODE form's joint multiplier solve, capture_accelerations). */
int capture_dae_consistent(capture_model *m, double t, double *y, double *yp);

/* Compliant form (mode: compliant, capture_compliant.c): y = [r | v | P U q w]
 * as the ODE form, an ODE for rk4 / cvode (sparse analytic Jacobian for
 * cvode-bdf with klu) and y' - f(y) = 0 for ida; no roots, no events.
 * MBDAE_ERR_UNSUPPORTED for control error_stabilization. */
int capture_create_compliant(const capture_params *p, int dae, capture_model **out,
                             mbdae_param_error *err);
int capture_is_compliant(const capture_model *m);
/* f(t, y) of the compliant form (its ODE, the DAE's consistent y'). */
int capture_compliant_rhs(capture_model *m, double t, const double *y, double *f);
/* Energies at y: kinetic (net + body), elastic (threads), contact
 * (k d^(p+1)/(p+1) summed), and the counts of stretched threads and of
 * points inside the body. */
void capture_compliant_energies(const capture_model *m, const double *y, double *kinetic,
                                double *elastic, double *contact, int *taut, int *contacts);

/* Sizes and layout: y = [r (3 np) | v (3 np) | P U q w (13)]. */
int capture_npoints(const capture_model *m);
int capture_nstrings(const capture_model *m);
int capture_size(const capture_model *m);
int capture_body_offset(const capture_model *m);
const mbdae_polytope *capture_body(const capture_model *m);
const capture_params *capture_get_params(const capture_model *m);
/* String endpoints. */
void capture_string_ends(const capture_model *m, int k, int *a, int *b, double *L);

/* Diagnostics at state y: total linear momentum (3), angular momentum about
 * the origin (3), kinetic energy. */
void capture_momenta(const capture_model *m, const double *y, double *p, double *L, double *E);
/* String functions phi_k (eq. 2.7) and body functions psi_j (eq. 2.52,
 * current face of each point); arrays of ns and np. */
void capture_constraint_values(const capture_model *m, const double *y,
                               double *phi, double *psi);
/* Worst penetration depth (m) of any point into the body (0 if none). */
double capture_max_penetration(const capture_model *m, const double *y);
/* Counters of the run. */
long capture_impacts(const capture_model *m);
long capture_releases(const capture_model *m);
long capture_face_switches(const capture_model *m);
/* Event mode: held rows released because they pushed (a string) or pulled
 * (a contact) after an event map, and free rows past their surface and
 * closing after it, resolved as impacts (capture_event's consistency rule). */
void capture_settle_stats(const capture_model *m, long *releases, long *impacts);
/* Of those releases, the rows the closed rows' complementarity problem
 * released; and the settlings where it had no solution within its
 * pivoting limit (the one-at-a-time rule took over). */
void capture_settle_lcp_stats(const capture_model *m, long *lcp_releases, long *unsolved);
/* DAE form with baumgarte_forces: unilateral: rows switched between forced
 * and free at located events (capture_dae.c; 0 otherwise). */
long capture_force_switches(const capture_model *m);
int capture_active_contacts(const capture_model *m);
int capture_active_strings(const capture_model *m);

/* Thrust on the points at (t, y) by the chosen control law (3 np values). */
int capture_control_force(capture_model *m, double t, const double *y, double *U);

/* Vertices of the body in the inertial frame (nv x 3) at state y. */
void capture_body_vertices(const capture_model *m, const double *y, double *out);

#endif
