/* mbdae/jaccheck.h - compare a problem's analytic Jacobian with central
 * finite differences and report the worst entry. */
#ifndef MBDAE_JACCHECK_H
#define MBDAE_JACCHECK_H

#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbdae_jac_check {
  double max_abs_err;    /* max |J_analytic - J_fd| */
  double max_rel_err;    /* max |J_a - J_fd| / max(1, |J_fd|) */
  int worst_row, worst_col;
  double worst_analytic, worst_fd;
  long pattern_misses;   /* FD entries > tol outside the sparse pattern */
  int miss_row, miss_col;/* first such entry */
} mbdae_jac_check;

/* DAE: checks dF/dy + cj dF/dyp; ODE: df/dy (cj, yp ignored).
 * rel_step: relative FD perturbation (0: cbrt(machine eps)). miss_tol: an FD
 * entry with |value| above it outside the pattern counts as a pattern miss. */
int mbdae_jacobian_check(const mbdae_problem *p, double t, const double *y,
                         const double *yp, double cj, double rel_step,
                         double miss_tol, mbdae_jac_check *out);

#ifdef __cplusplus
}
#endif
#endif
