/* compliant/first_order.h - the problem of a model written as y' = f(t, y)
 * with a sparse analytic Jacobian (the compliant net capture, the tow): in
 * ODE form the right-hand side; in DAE form F = y' - f(t, y), every component
 * differential; the dense Jacobian, for small n, scattered from the sparse
 * values. */
#ifndef MBDAE_COMPLIANT_FIRST_ORDER_H
#define MBDAE_COMPLIANT_FIRST_ORDER_H

#include "mbdae/problem.h"
#include "strings/string_net.h"

/* Largest n that also gets the dense Jacobian (dense linear solver). */
#define FIRST_ORDER_DENSE_MAX 3000

/* Create *out (stored at once, so the caller's free releases it on failure
 * too) with user data ud, the residual (dae) or the right-hand side, the
 * sparse Jacobian of pattern pat and, when n <= FIRST_ORDER_DENSE_MAX, the
 * dense one, for which *dense_vals (nnz values, the caller frees it) is
 * allocated. Returns MBDAE_OK or the first failing call's status. */
int first_order_problem(mbdae_problem **out, int n, int dae, void *ud, mbdae_residual_fn residual,
                        mbdae_rhs_fn rhs, const sn_pattern *pat, mbdae_jac_fn jac_sparse,
                        mbdae_jac_fn jac_dense, double **dense_vals);

/* Add the sparse values vals (pattern pat) into the column-major n x n
 * matrix out. */
void first_order_scatter_dense(const sn_pattern *pat, int n, const double *vals, double *out);

#endif
