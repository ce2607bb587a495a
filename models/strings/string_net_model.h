/* strings/string_net_model.h - the `string_net` model instance: a bola, a
 * chain, a grid net or an explicit list of points and strings, held by the
 * exact event law or by Baumgarte compliance (see string_net.h). */
#ifndef MBDAE_STRINGS_STRING_NET_MODEL_H
#define MBDAE_STRINGS_STRING_NET_MODEL_H

#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "strings/string_net.h"

typedef enum { SNM_BOLA = 0, SNM_CHAIN = 1, SNM_GRID = 2, SNM_TABLE = 3,
               SNM_SPINNING_GRID = 4 } snm_topology;

typedef struct snm_params {
  int topology;           /* snm_topology */
  int hold;               /* sn_hold: 0 event, 1 baumgarte, 2 elastic */
  double ea, string_damping; /* elastic hold: EA (N) and eta (N s), every string */
  double e;               /* restitution (event hold), every string */
  double xi, omega_n;     /* Baumgarte (baumgarte hold), every string */
  double drift_xi, drift_omega; /* event hold: taut-string drift control */
  double zeno_ratio;      /* event hold: plastic-impact rule */
  double release_band;    /* baumgarte hold: release at phi < -band L^2 */
  int switching;          /* baumgarte hold: 0 located (roots), 1 state */
  int forces;             /* baumgarte hold: 0 bilateral (eq. 3.1), 1 unilateral */
  int formulation;        /* event hold under ida: 0 index1 (acceleration-level
                             multipliers with drift control), 1 ggl (index 2) */
  double gravity[3];
  double drag;            /* N s/m, linear, every point */
  double length;          /* L of bola/chain/grid strings */
  /* bola */
  double m1, m2;
  double r1[3], r2[3], v1[3], v2[3];
  /* chain: straight along x, spinning about z, transverse wave along z */
  int chain_points;
  double chain_mass, chain_spin, chain_wave;
  /* grid net deployed from one point */
  int grid_n, grid_m;
  double grid_mass, corner_mass, t_deploy, jitter;
  double v_common[3];
  double origin[3];
  /* spinning grid: laid out flat (x-y) at spacing `length`, all strings at
   * length, rigid spin about z plus an out-of-plane velocity bump */
  double grid_spin, grid_wave;
  /* explicit lists */
  double *points;         /* rows [m, x, y, z, vx, vy, vz] */
  int npoints;
  double *strings;        /* rows [i, j, L] (0-based point indices) */
  int nstrings;
  int max_output_columns; /* per-point/per-string columns only below this */
} snm_params;

typedef struct snm_model {
  snm_params p;
  sn_net *net;
  mbdae_problem *problem;
  sn_pattern *pattern;
  sn_gravity_drag gd;
  double *R0, *V0;
  double *jac_vals;       /* dense-Jacobian scratch (nnz) */
  double *lam_out;        /* ns: multipliers for output rows (ODE form) */
  int detailed;           /* per-point columns written */
  char mode_buf[64];
  long impacts, releases, activations, plastic;
  double energy_lost;
  double max_phi;         /* max phi/L^2 seen at output rows */
  int elastic_dae;        /* elastic hold under IDA: y' - f(y) = 0 */
  double *f;              /* elastic DAE: right-hand side scratch */
  double *tension;        /* ns: scratch for output rows and VTK */
  double *atol;           /* formulation ggl: per-component atol (n) */
  /* event capturing (method moreau, string_net_mechanics.c) */
  int event_capturing;    /* the problem carries the mechanical form */
  double *impulse_tension;/* ns: mean tension P_s / h of the last step (N) */
  int impulse_taut;       /* strings with an impulse in the last step */
} snm_model;

int snm_params_check(const snm_params *p, mbdae_param_error *err);
int snm_create(const snm_params *p, mbdae_options *o, snm_model **out,
               mbdae_param_error *err);
void snm_free(snm_model **m);
int snm_initial_state(snm_model *m, double t0, double *y, double *yp);
/* Declare the mechanical form (strings as unilateral constraints with
 * impacts) on the ODE-form problem, for method moreau. */
int snm_set_mechanics(snm_model *m);
/* Tensions T[ns] (N) and the taut count at (t, y): from the last step's
 * impulses under moreau, from the multipliers otherwise. */
int snm_tensions(snm_model *m, double t, const double *y, double *T, int *ntaut);

/* Total mechanical energy (kinetic + gravity potential). */
double snm_energy(const snm_model *m, const double *y);

#endif
