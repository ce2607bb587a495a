/** @file mbdae/jaccheck.h
 * @brief Compare a problem's analytic Jacobian with central finite
 *        differences and report the worst entry. */
#ifndef MBDAE_JACCHECK_H
#define MBDAE_JACCHECK_H

#include "mbdae/export.h"

#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Result of mbdae_jacobian_check(). */
typedef struct mbdae_jac_check {
  double max_abs_err;    /**< max |J_analytic - J_fd| */
  double max_rel_err;    /**< max |J_a - J_fd| / max(1, |J_fd|) */
  int worst_row, worst_col;         /**< column of the worst entry */
  double worst_analytic, worst_fd;  /**< the finite-difference value there */
  long pattern_misses;   /**< FD entries > tol outside the sparse pattern */
  int miss_row, miss_col;/**< column of the first such entry */
} mbdae_jac_check;
/** @var mbdae_jac_check::worst_row
 *  row of the entry with the largest relative error */
/** @var mbdae_jac_check::worst_analytic
 *  the analytic value at the worst entry */
/** @var mbdae_jac_check::miss_row
 *  row of the first entry outside the pattern */

/** @brief Check the problem's analytic Jacobian against central differences.
 *
 * DAE: checks dF/dy + cj dF/dyp; ODE: df/dy (cj, yp ignored).
 * @param p        problem with a dense or sparse Jacobian
 * @param t        time of the check
 * @param y        state (problem size)
 * @param yp       state derivative (DAE form; ignored for ODEs, may be NULL)
 * @param cj       the DAE's scalar cj (ignored for ODEs)
 * @param rel_step relative FD perturbation (0: cbrt(machine eps))
 * @param miss_tol an FD entry with |value| above it outside the sparse
 *                 pattern counts as a pattern miss
 * @param out      filled with the errors and the worst entries
 * @return MBDAE_OK, or an error status (no Jacobian, a failing callback,
 *         MBDAE_ERR_MEMORY) */
MBDAE_EXPORT int mbdae_jacobian_check(const mbdae_problem *p, double t, const double *y,
                                      const double *yp, double cj, double rel_step,
                                      double miss_tol, mbdae_jac_check *out);

#ifdef __cplusplus
}
#endif
#endif
