/* capture/capture_internal.h - private layout of a capture model, shared by
 * the files of models/capture/ only. */
#ifndef MBDAE_MODELS_CAPTURE_INTERNAL_H
#define MBDAE_MODELS_CAPTURE_INTERNAL_H

#include "capture/capture.h"
#include "strings/string_net.h"

/* One constraint row: sparse G_k over u, Mg^-1 G_k^T, c, c', gamma. */
typedef struct capture_row {
  int nz;
  int idx[9];
  double val[9];
  double z[9];
  double c, cdot, gamma;
  double s;        /* contacts: b^T rho */
  double vscale;   /* |c'| per unit normal speed */
} capture_row;

struct capture_model {
  capture_params p;
  int np, ns, nc, n, nu, boff;
  sn_net *net;           /* points and strings: the string core */
  double *minv;          /* 1 / m_i */
  double *grid;          /* 3 np offsets of the extended net (x-y plane) */
  double *R0, *V0;       /* initial net state from sn_describe_grid */
  mbdae_polytope *body;
  mbdae_problem *problem;
  int *active;           /* nc: persistent (event) / active (Baumgarte) */
  int *face;             /* np: current face of each point */
  int *work_flag;        /* nc */
  unsigned char *cand;   /* nc: impact candidates */
  unsigned char *was_active; /* nc: modes at the entry of the event handler */
  double *c_ref;         /* nc: relative gap at the last release */
  capture_row *rows;     /* nc */
  int *list;             /* nc */
  int *first;            /* nc: first non-zero column of each row of K */
  double *K;             /* nc x nc */
  double *bvec, *lambda; /* nc */
  double *Zscatter, *Fwork, *acc, *u_minus, *u_plus; /* nu */
  double C[9];
  /* control law (ch. 4): min-thrust coefficients a(t) = alpha + beta t */
  double *ctrl_alpha, *ctrl_beta, *ctrl_Rf, *ctrl_Vf; /* 3 np */
  double ctrl_t0;
  double *ctrl_work;     /* 4 x 3 np: CGLS vectors */
  double *ctrl_last;     /* 3 np: last thrust of the error-stabilising law */
  long impacts, releases, face_switches;
  long force_switches;    /* DAE form, unilateral: located forced <-> free switches */
  /* event mode: rows the handler's consistency rule (capture_model.c
   * settle_modes) released, or resolved as impacts, after an event map */
  long settle_releases, settle_impacts;
  /* of settle_releases: released by the closed rows' complementarity
   * problem; settlings where it had no solution within its pivoting limit */
  long settle_lcp_releases, settle_lcp_unsolved;

  char eventbuf[160];    /* event mode: why an event map could not be settled */
  /* unilateral Baumgarte forces (capture_model.c unilateral_solve) */
  unsigned char *forced; /* nc: row carries force (warm start, saved state) */
  unsigned char *lcp_bad; /* nc: scratch */
  int *lcp_rows;         /* nc: scratch, the active rows */
  int nforced;           /* rows carrying force after the last solve */
  double *vert_work;
  char modebuf[80];
  /* geometry for animation (capture_geometry.c) */
  double *geo_points, *geo_data;
  int *geo_lines, *geo_start, *geo_index;
  int *geo_verts;        /* np: the net points as vertex cells */
  double *geo_part, *geo_taut; /* per cell (vertices, strings, faces) */
  /* DAE form (capture_dae.c); NULL for the ODE form */
  struct capture_dae *dae;
  /* sparse joint multiplier solve (capture_joint.c); NULL until used */
  struct capture_joint *joint;
  /* second-order form for solver.method moreau (capture_mechanics.c);
   * NULL for the event-driven methods */
  struct capture_mech *mech;
  /* compliant form (capture_compliant.c); NULL in the constraint modes */
  struct capture_compliant *comp;
};

void capture_rows(capture_model *m, const double *y);
/* 1 in baumgarte mode with switching: state (no roots; modes from c >= 0). */
int capture_switch_by_state(const capture_model *m);
int capture_accelerations(capture_model *m, double t, const double *y, double *acc);
/* Baumgarte target of row k (rows evaluated): c'' = -2 xi w c' - w^2 c (eq. 3.2). */
double capture_baumgarte_target(const capture_model *m, int k);
/* The same with the unilateral forced flags held fixed (no pivoting): the
 * multipliers and accelerations of the current forced / free split, which
 * the DAE form's force roots watch (capture_dae.c). */
int capture_accelerations_fixed(capture_model *m, double t, const double *y, double *acc);
int capture_rhs(double t, const double *y, double *f, void *ud);
int capture_roots(double t, const double *y, const double *yp, double *g, void *ud);
/* Root values g[0 .. nc + np) from rows already built at y and the
 * multipliers lambda (nc): held constraints' force, free gaps, held
 * points' face switches. Shared by the ODE and DAE forms. */
void capture_root_values(const capture_model *m, const double *y, const double *lambda,
                         double *g);
int capture_event(double t, double *y, double *yp, const int *dirs,
                  mbdae_event_info *info, void *ud);
/* Mode name and invariants (energy, momentum, angular momentum) callbacks,
 * shared by the ODE and DAE problems. */
const char *capture_mode_name(void *ud);
int capture_invariants(double t, const double *y, const double *yp, double *out, void *ud);
/* DAE form (capture_dae.c): release its data (called by capture_free). */
void capture_dae_free(capture_model *m);
/* Sparse joint solve (capture_joint.c): factor the augmented system
 * [G_v M^-1 G_v^T, G_b; G_b^T, -Mb] over the listed rows with KLU (0), or
 * refuse a numerically singular one (1: use the dense LDL^T), < 0 error;
 * solve K lambda = b in place with the last factorization. */
typedef struct capture_joint capture_joint;
int capture_joint_factor(capture_model *m, const int *list, int n);
/* The same over list with the rows k where forced[k] == 0 masked: their
 * multipliers come out exactly 0 and the others as without them. */
int capture_joint_factor_masked(capture_model *m, const int *list, int n,
                                const unsigned char *forced);
int capture_joint_in_use(const capture_model *m);
void capture_joint_unuse(capture_model *m);
void capture_joint_solve(capture_model *m, int n, double *b);
void capture_joint_stats(const capture_model *m, long *analyses, long *factorizations,
                         long *dense_fallbacks);
void capture_joint_free(capture_model *m);
/* Second-order form (capture_mechanics.c): release it (called by capture_free). */
void capture_mech_release(capture_model *m);
/* Compliant form: release it (called by capture_free). */
void capture_compliant_free(capture_model *m);
/* Min-thrust coefficients from the state at t0 (eq. 4.23, sign-corrected). */
void capture_control_setup(capture_model *m, double t0, const double *y);

/* Units of the invariants energy, px, py, pz, Lx, Ly, Lz (capture_build.c). */
extern const char *const capture_inv_units[7];

#endif
