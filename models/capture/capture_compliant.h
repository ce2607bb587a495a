/* capture/capture_compliant.h - private data of net_capture's compliant form
 * (mode: compliant), shared by capture_compliant.c (equations, problem) and
 * capture_compliant_jacobian.c (sparse analytic Jacobian). */
#ifndef MBDAE_CAPTURE_COMPLIANT_PRIVATE_H
#define MBDAE_CAPTURE_COMPLIANT_PRIVATE_H

#include "capture/capture_internal.h"
#include "capture/compliant_contact.h"
#include "compliant/elastic_thread.h"
#include "strings/string_net.h"

/* Value slots of one point's entries (-1: not in the pattern). */
typedef struct capcomp_point_slots {
  mbdae_index rr[3], rv[3]; /* r rows: diagonal, v column */
  mbdae_index vs[18];       /* v rows x (r, v) of the point itself, 3 x 6 */
  mbdae_index vb[39];       /* v rows x body (P U q w), 3 x 13 */
  mbdae_index bp[36];       /* body U, w rows x (r, v) of the point, 6 x 6 */
} capcomp_point_slots;

typedef struct capture_compliant {
  int dae;                  /* 1: residual y' - f(y) for IDA */
  cc_law contact;
  elastic_thread *th;       /* ns threads */
  double rmax;              /* the body's largest vertex radius */
  double *F;                /* 3 np point forces */
  double *f;                /* n: the right-hand side (DAE residual scratch) */
  /* sparse Jacobian */
  sn_pattern *pat;
  capcomp_point_slots *ps;  /* np */
  mbdae_index *ss;          /* ns x 36: v_i x (r_j, v_j), v_j x (r_i, v_i) */
  mbdae_index bb[169];      /* body x body */
  double *dense_vals;       /* nnz, for the dense Jacobian */
} capture_compliant;

/* f = y' of the compliant equations at (t, y); 0, 1 (non-finite:
 * recoverable) or < 0. */
int capcomp_rhs_eval(capture_model *m, double t, const double *y, double *f);
/* Build the pattern and its slots (capture_compliant_jacobian.c). */
int capcomp_jacobian_setup(capture_model *m);
/* ODE: vals = df/dy; DAE: vals = cj I - df/dy (pattern order, added). */
int capcomp_jacobian_values(capture_model *m, double t, double cj, const double *y,
                            double *vals);

#endif
