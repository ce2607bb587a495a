/* tow/tow.h - a chaser towing a captured rigid body through an elastic
 * tether (model kind `tow`, doc/tow.md).
 *
 * Points k = 0..N: the chaser (k = 0, a point mass with a thrust profile)
 * and the tether's N lumped nodes (k = 1..N, the tether's mass split
 * equally). N + 1 elastic threads of rest length l = tether_length/(N+1)
 * (elastic_thread.h: EA, eta, tension only, continuous at slack): k-1 -> k
 * for k = 1..N, then node N -> the attachment point x_a = P + C rho_a of
 * the body (a convex polytope rigid body, polytope/, rigid_body.h), which
 * takes the force there (and its torque about the centre). Optional uniform
 * gravity on everything.
 *
 * State (ODE; y' - f(y) = 0 for ida): y = [r (3(N+1)) | v (3(N+1)) |
 * P U q w (13) | W | D] with two quadrature states, the work of the thrust
 * W' = F(t).v_0 and the power dissipated by the threads
 * D' = sum (T - EA delta/l) delta' (>= 0, elastic_thread.h), so the ledger
 *     E_kin + E_el + E_pot - (E_0 + W - D) = 0
 * holds exactly for the ODE and to the integrator's error for its solution,
 * and the momentum balance p(t) - p(0) = I(t) + M_tot g t with the thrust
 * impulse I(t) integrated in closed form from the profile (thrust depends
 * on t only).
 *
 * Thrust profile: table rows [t, Fx, Fy, Fz], piecewise linear in t, held
 * at the first row's value before it and the last row's after it; with
 * thrust_period > 0 the profile repeats (t taken modulo the period, rows in
 * [0, period]). */
#ifndef MBDAE_TOW_H
#define MBDAE_TOW_H

#include "compliant/elastic_thread.h"
#include "mbdae/model.h"
#include "polytope/polytope.h"
#include "strings/string_net.h"

enum { TOW_SHAPE_BOX = 0, TOW_SHAPE_PRISM = 1 };

typedef struct tow_params {
  /* tether */
  double tether_length;   /* m */
  int tether_nodes;       /* N >= 2 */
  double tether_ea;       /* N */
  double tether_damping;  /* eta, N s */
  double tether_density;  /* kg/m */
  double tether_onset;    /* m: C2 onset of the tension over |stretch| < onset
                             (elastic_thread.h); 0: the plain kink */
  double ledger_tol;      /* error the error test allows each state's share of the
                             ledger, relative to its scale max(E0 + |W|, |D|)
                             (0: the integrator's own weights) */
  double initial_slack;   /* the tether starts straight over (1 - slack) of its length */
  double direction[3];    /* from the body to the chaser (normalised) */
  /* chaser */
  double chaser_mass;
  double chaser_position[3], chaser_velocity[3];
  double *thrust;         /* table rows [t, Fx, Fy, Fz] */
  int nthrust;
  double thrust_period;   /* s, 0: no repetition */
  /* body */
  int shape;
  double box_size[3];
  int prism_sides;
  double prism_radius, prism_length;
  double body_mass;
  double body_attitude[4], body_omega[3];
  double attachment[3];   /* body frame, relative to the centre of mass */
  double gravity[3];
} tow_params;

typedef struct tow_model {
  tow_params p;           /* p.thrust owned (a copy) */
  int N, npt, n, boff, iw, id; /* nodes, points (N + 1), size, offsets */
  int dae;
  double *m;              /* npt masses */
  elastic_thread th;      /* every thread (same L, EA, eta) */
  mbdae_polytope *body;
  mbdae_problem *problem;
  double *f;              /* n: right-hand side scratch (DAE residual) */
  double *grad;           /* 3 npt: scratch of the error weights */
  double *y0;             /* n: the initial state (ledger and momentum references) */
  double E0, p0[3];       /* energy and momentum at t0 */
  double t0;
  double t_last;           /* time of the last output row (the outcomes' time) */
  /* sparse Jacobian */
  sn_pattern *pat;
  mbdae_index *slot;      /* slots, see tow_jacobian.c */
  double *dense_vals;
  /* running maxima over the output samples (checkpointed) */
  double max_ledger_rel, max_momentum_rel, max_tension;
  long slack_taut_switches; /* changes of the taut count between samples */
  int last_taut;
  char modebuf[48];
} tow_model;

void tow_params_default(tow_params *p);
int tow_params_check(const tow_params *p, mbdae_param_error *err);
int tow_create(const tow_params *p, int dae, tow_model **out, mbdae_param_error *err);
void tow_free(tow_model **m);
int tow_initial_state(tow_model *m, double t0, double *y, double *yp);
int tow_rhs(tow_model *m, double t, const double *y, double *f);

/* thrust (tow_thrust.c): F(t) and the impulse int_0^t F */
void tow_thrust(const tow_params *p, double t, double F[3]);
void tow_impulse(const tow_params *p, double t, double I[3]);
int tow_thrust_check(const tow_params *p, mbdae_param_error *err);

/* ledger at y: energies, work, dissipation and the two balances */
typedef struct tow_ledger {
  double kinetic, elastic, potential, work, dissipated;
  double residual, residual_rel;   /* E - (E0 + W - D), over max(E0 + W, |E|, D, 1e-300) */
  double momentum_residual_rel;    /* |p - p0 - I - M g t| / max(|I| + |M g t|, |p0|, ...) */
  double max_tension;
  int taut;                        /* stretched threads */
  double separation;               /* |x_a - r_0| */
} tow_ledger;
void tow_ledger_eval(const tow_model *m, double t, const double *y, tow_ledger *L);

/* Attachment point and its velocity at y (inertial). */
void tow_attachment(const tow_model *m, const double *y, double xa[3], double va[3]);

/* Jacobian (tow_jacobian.c) */
int tow_jacobian_setup(tow_model *m);
int tow_jacobian_values(tow_model *m, double t, double cj, const double *y, double *vals);

#endif
