/* compliant/first_order.c - the problem of a first-order model with a
 * sparse Jacobian (first_order.h). */
#include "compliant/first_order.h"

#include <stdlib.h>

#include "mbdae/status.h"

int first_order_problem(mbdae_problem **out, int n, int dae, void *ud, mbdae_residual_fn residual,
                        mbdae_rhs_fn rhs, const sn_pattern *pat, mbdae_jac_fn jac_sparse,
                        mbdae_jac_fn jac_dense, double **dense_vals) {
  *out = mbdae_problem_create(n, dae ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  if (!*out) return MBDAE_ERR_MEMORY;
  mbdae_problem *pb = *out;
  int r = mbdae_problem_set_user_data(pb, ud);
  if (dae) {
    r = r ? r : mbdae_problem_set_residual(pb, residual);
    double *id = malloc((size_t)n * sizeof *id);
    if (!id) r = r ? r : MBDAE_ERR_MEMORY;
    else {
      for (int i = 0; i < n; ++i) id[i] = 1.0; /* every component differential */
      r = r ? r : mbdae_problem_set_id(pb, id);
      free(id);
    }
  } else {
    r = r ? r : mbdae_problem_set_rhs(pb, rhs);
  }
  r = r ? r : mbdae_problem_set_jacobian_sparse(pb, sn_pattern_nnz(pat), sn_pattern_colptr(pat),
                                                sn_pattern_rowind(pat), jac_sparse);
  if (!r && n <= FIRST_ORDER_DENSE_MAX) {
    *dense_vals = malloc((size_t)sn_pattern_nnz(pat) * sizeof **dense_vals);
    r = *dense_vals ? mbdae_problem_set_jacobian_dense(pb, jac_dense) : MBDAE_ERR_MEMORY;
  }
  return r;
}

void first_order_scatter_dense(const sn_pattern *pat, int n, const double *vals, double *out) {
  const mbdae_index *cp = sn_pattern_colptr(pat), *ri = sn_pattern_rowind(pat);
  for (int c = 0; c < n; ++c)
    for (mbdae_index a = cp[c]; a < cp[c + 1]; ++a) out[(size_t)c * n + ri[a]] += vals[a];
}
