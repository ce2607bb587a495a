/* strings/string_net_internal.h - private layout of the string-net core,
 * shared by the models/strings/string_net_*.c files that implement
 * strings/string_net.h, and by nothing else. */
#ifndef MBDAE_STRINGS_STRING_NET_INTERNAL_H
#define MBDAE_STRINGS_STRING_NET_INTERNAL_H

#include <klu.h>

#include "strings/string_net.h"

/* Value slots of the core's DAE Jacobian entries. */
typedef struct sn_point_slots {
  mbdae_index rr[3], rv[3]; /* F_R x R (cj), F_R x V (-1) */
  mbdae_index vr[9], vv[9]; /* F_V x R_k, F_V x V_k (row-major 3x3, -1 if absent) */
} sn_point_slots;

typedef struct sn_string_slots {
  mbdae_index vi_ri[3], vi_rj[3], vj_ri[3], vj_rj[3]; /* lambda d(grad)/dR */
  mbdae_index vi_l[3], vj_l[3];                       /* F_V x lambda */
  mbdae_index l_ri[3], l_rj[3], l_vi[3], l_vj[3], l_l; /* F_lambda rows */
} sn_string_slots;

/* Value slots of the GGL form's extra entries (string_net_ggl.c). */
typedef struct sn_ggl_slots {
  mbdae_index ri_ri[3], ri_rj[3], rj_ri[3], rj_rj[3]; /* F_R x R: mu d(grad)/dR */
  mbdae_index ri_mu[3], rj_mu[3];                     /* F_R x mu */
  mbdae_index m_ri[3], m_rj[3], m_mu;                 /* F_mu rows */
} sn_ggl_slots;

/* unilateral Baumgarte: a string kept active at its release root is
 * examined again each time phi/L^2 falls this much further */
#define SN_KEEP_BAND 1e-5

struct sn_workspace {
  /* multiplier matrix A (ns x ns, CSC, int for KLU) */
  int *Ap, *Ai;
  int nnzA;
  int *shared_p; /* per entry: up to 2 shared points (-1 none) */
  double *shared_sg;
  int *diag;     /* per column: entry index of the diagonal */
  double *Ax;
  klu_symbolic *sym;
  klu_numeric *num;
  klu_common common;
  /* scratch */
  double *F;     /* 3 np applied forces */
  double *b;     /* ns */
  double *lam;   /* ns */
  double *V;     /* 3 np */
  unsigned char *mask; /* ns */
  unsigned char *bad;  /* ns: unilateral solve */
  double *acc;         /* 3 np: unilateral solve */
  /* Jacobian slots (DAE) */
  sn_point_slots *ps;
  sn_string_slots *ss;
  sn_ggl_slots *gs;    /* GGL form only */
  int bound;
  /* elastic Jacobian slots (string_net_elastic.c): per point 6 + 18, per
   * thread 36 */
  mbdae_index *el_slot;
};

/* S = r_j - r_i and W = v_j - v_i of string s (W only when asked). */
static inline void str_SW(const sn_net *net, int s, const double *R, const double *V,
                          double S[3], double W[3]) {
  int i = net->s[s].i, j = net->s[s].j;
  for (int c = 0; c < 3; ++c) {
    S[c] = R[3 * j + c] - R[3 * i + c];
    if (W) W[c] = V[3 * j + c] - V[3 * i + c];
  }
}

static inline double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Stabilisation (xi, w) of an active string in the current hold. */
static inline void str_stab(const sn_net *net, int s, double *xi, double *w) {
  if (net->hold == SN_HOLD_BAUMGARTE) {
    *xi = net->s[s].xi;
    *w = net->s[s].w;
  } else {
    *xi = net->drift_xi;
    *w = net->drift_w;
  }
}

/* Applied forces F (3 np) at (t, R, V) plus fext (may be NULL). */
int sn_eval_forces(sn_net *net, double t, const double *R, const double *V,
                   const double *fext, double *F);
/* Assemble A over the strings with active[s] != 0 and factor it (KLU);
 * 0, 1 (singular: recoverable) or < 0. */
int sn_factor_A(sn_net *net, const double *R, const unsigned char *active);
/* x <- A^-1 x with the last factorization; 1 if it fails or is not finite. */
int sn_solve_A(sn_net *net, double *x);
/* lambda for the active set `active`, forces F already evaluated. */
int sn_multipliers_F(sn_net *net, const double *R, const double *V,
                     const double *F, const unsigned char *active, double *lambda);
/* The unilateral strings' multipliers (string_net_unilateral.c). */
int sn_multipliers_unilateral(sn_net *net, const double *R, const double *V,
                              const double *F, double *lambda);
/* The ODE form's multipliers: the active set, or the unilateral LCP. */
int sn_multipliers_ode(sn_net *net, const double *R, const double *V,
                       const double *F, double *lambda);
/* a = M^-1 (F + sum_s lambda_s grad phi_s). */
void sn_point_accelerations(const sn_net *net, const double *R, const double *F,
                            const double *lam, double *a);
/* GGL form (string_net_ggl.c): the mu terms of F_R and the rows of lambda
 * and mu (the caller has written F_R and F_V without them); the extra
 * pattern entries, their slots, and their values plus the lambda rows'. */
void sn_ggl_residual_rows(sn_net *net, const double *y, double *res);
int sn_ggl_pattern_add(const sn_net *net, sn_pattern *p);
int sn_ggl_jacobian_bind(sn_net *net, const sn_pattern *p);
void sn_ggl_jacobian(sn_net *net, const double *y, double *vals);
/* switch_by_state: the modes at this state. */
void sn_state_modes(sn_net *net, const double *R);

#endif
