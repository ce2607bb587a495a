/* capture/capture_dae.h - private data of the DAE (IDA) form of the
 * net-capture model (capture_dae.c: residual, consistent state, roots,
 * events; capture_dae_jacobian.c: the sparse analytic Jacobian). Shared by
 * those two files only; the formulation is in doc/capture.md "DAE form".
 *
 * y = [ r (3 np) | v (3 np) | P U q w (13) | lambda (nc = ns + np) ]:
 * the ODE state of capture_rhs followed by one multiplier per string and
 * per point contact, so every ODE-form function (rows, events, outputs) reads
 * the same prefix. */
#ifndef MBDAE_MODELS_CAPTURE_DAE_H
#define MBDAE_MODELS_CAPTURE_DAE_H

#include "capture/capture_internal.h"

/* CSC value slots (sn_pattern order) of the entries each piece touches. */
typedef struct capdae_point_slots {
  mbdae_index rr[3], rv[3];                  /* F_r: cj on r', -1 on v */
  mbdae_index vv[3], vr[9], vP[9], vQ[12], vL[3]; /* F_v x (v, r, P, q, lambda_j) */
  mbdae_index Ur[9], UL[3], Wr[9], WL[3];    /* body rows x (r_j, lambda_j) */
  mbdae_index lr[3], lv[3], lP[3], lU[3], lQ[4], lW[3], ll; /* contact row */
} capdae_point_slots;

typedef struct capdae_string_slots {
  mbdae_index vi_ri[3], vi_rj[3], vj_ri[3], vj_rj[3], vi_l[3], vj_l[3];
  mbdae_index l_ri[3], l_rj[3], l_vi[3], l_vj[3], l_l;
} capdae_string_slots;

typedef struct capdae_body_slots {
  mbdae_index PP[3], PU[3], UU[3], UP[9], UQ[12], QQ[16], QW[12], WW[9], WP[9], WQ[12];
} capdae_body_slots;

struct capture_dae {
  int n;                  /* DAE size: m->n + m->nc */
  int loff;               /* offset of lambda in y (= m->n) */
  sn_pattern *pat;        /* Jacobian pattern (every mode) */
  capdae_point_slots *ps; /* np */
  capdae_string_slots *ss;/* ns */
  capdae_body_slots bs;
  double *jac_vals;       /* nnz: scratch of the dense callback */
  double *up;             /* nu: u' from yp */
  int nroots;             /* nc + np, plus nc force roots (unilateral) */
  unsigned char *forced_entry; /* nc: forced flags at the event handler's entry */
};

/* 1 if constraint k has its acceleration-level row (eq. 3.2) in the
 * residual, 0 if lambda_k = 0: active, and with unilateral forces forced
 * too (doc/capture.md "DAE form"). */
int capdae_acceleration_row(const capture_model *m, int k);

/* Row scale of constraint k: 1 / |G_k| on the constraint (1/(2L) for a
 * string, 1/(2|A_p|) for a contact on face p), so an active row reads as a
 * normal acceleration and the Newton matrix is balanced. */
double capdae_row_scale(const capture_model *m, int k);

/* Build the pattern, bind the slots and register the Jacobian callbacks. */
int capdae_jacobian_setup(capture_model *m);
int capdae_jacobian(double t, double cj, const double *y, const double *yp,
                    double *vals, void *ud);

#endif
