/* problem.c - creation, configuration and evaluation of mbdae_problem. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "mechanics_impl.h"
#include "problem_impl.h"

mbdae_problem *mbdae_problem_create(int n, mbdae_form form) {
  if (n <= 0 || (form != MBDAE_FORM_DAE && form != MBDAE_FORM_ODE)) return NULL;
  mbdae_problem *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->form = form;
  return p;
}

void mbdae_problem_free(mbdae_problem **problem) {
  if (!problem || !*problem) return;
  mbdae_problem *p = *problem;
  free(p->id);
  free(p->colptr);
  free(p->rowind);
  mbdae_mechanics_free(&p->mech);
  free(p);
  *problem = NULL;
}

int mbdae_problem_size(const mbdae_problem *p) { return p ? p->n : 0; }
int mbdae_problem_root_count(const mbdae_problem *p) { return p ? p->nroots : 0; }
mbdae_form mbdae_problem_form(const mbdae_problem *p) {
  return p ? p->form : MBDAE_FORM_DAE;
}

int mbdae_problem_set_user_data(mbdae_problem *p, void *user_data) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  p->user_data = user_data;
  return MBDAE_OK;
}

int mbdae_problem_set_residual(mbdae_problem *p, mbdae_residual_fn f) {
  if (!p || !f || p->form != MBDAE_FORM_DAE) return MBDAE_ERR_ARGUMENT;
  p->residual = f;
  return MBDAE_OK;
}

int mbdae_problem_set_rhs(mbdae_problem *p, mbdae_rhs_fn f) {
  if (!p || !f || p->form != MBDAE_FORM_ODE) return MBDAE_ERR_ARGUMENT;
  p->rhs = f;
  return MBDAE_OK;
}

int mbdae_problem_set_id(mbdae_problem *p, const double *id) {
  if (!p || !id || p->form != MBDAE_FORM_DAE) return MBDAE_ERR_ARGUMENT;
  for (int i = 0; i < p->n; ++i)
    if (id[i] != 0.0 && id[i] != 1.0) return MBDAE_ERR_ARGUMENT;
  if (!p->id) {
    p->id = malloc((size_t)p->n * sizeof *p->id);
    if (!p->id) return MBDAE_ERR_MEMORY;
  }
  memcpy(p->id, id, (size_t)p->n * sizeof *id);
  return MBDAE_OK;
}

int mbdae_problem_set_completion(mbdae_problem *p, int nd, mbdae_completion_fn f) {
  if (!p || !f || p->form != MBDAE_FORM_DAE || nd <= 0 || nd > p->n) return MBDAE_ERR_ARGUMENT;
  if (p->id)
    for (int i = 0; i < p->n; ++i)
      if ((p->id[i] != 0.0) != (i < nd)) return MBDAE_ERR_ARGUMENT;
  p->nd = nd;
  p->completion = f;
  return MBDAE_OK;
}

int mbdae_problem_completion_size(const mbdae_problem *p) {
  return p && p->completion ? p->nd : 0;
}

int mbdae_problem_set_restart_state(mbdae_problem *p, mbdae_restart_fn f) {
  if (!p || !f || p->form != MBDAE_FORM_DAE) return MBDAE_ERR_ARGUMENT;
  p->restart_state = f;
  return MBDAE_OK;
}

int mbdae_problem_set_jacobian_dense(mbdae_problem *p, mbdae_jac_fn jac) {
  if (!p || !jac) return MBDAE_ERR_ARGUMENT;
  p->jac_dense = jac;
  return MBDAE_OK;
}

int mbdae_problem_set_jacobian_sparse(mbdae_problem *p, mbdae_index nnz,
                                      const mbdae_index *colptr,
                                      const mbdae_index *rowind,
                                      mbdae_jac_fn jac) {
  if (!p || !jac || !colptr || !rowind || nnz <= 0) return MBDAE_ERR_ARGUMENT;
  const mbdae_index n = p->n;
  if (colptr[0] != 0 || colptr[n] != nnz) return MBDAE_ERR_ARGUMENT;
  for (mbdae_index j = 0; j < n; ++j) {
    if (colptr[j + 1] < colptr[j]) return MBDAE_ERR_ARGUMENT;
    int has_diag = 0;
    for (mbdae_index k = colptr[j]; k < colptr[j + 1]; ++k) {
      if (rowind[k] < 0 || rowind[k] >= n) return MBDAE_ERR_ARGUMENT;
      if (k > colptr[j] && rowind[k] <= rowind[k - 1]) return MBDAE_ERR_ARGUMENT;
      if (rowind[k] == j) has_diag = 1;
    }
    /* CVODE forms I - gamma J in place: the diagonal must be in the pattern */
    if (p->form == MBDAE_FORM_ODE && !has_diag) return MBDAE_ERR_ARGUMENT;
  }
  mbdae_index *cp = malloc((size_t)(n + 1) * sizeof *cp);
  mbdae_index *ri = malloc((size_t)nnz * sizeof *ri);
  if (!cp || !ri) {
    free(cp);
    free(ri);
    return MBDAE_ERR_MEMORY;
  }
  memcpy(cp, colptr, (size_t)(n + 1) * sizeof *cp);
  memcpy(ri, rowind, (size_t)nnz * sizeof *ri);
  free(p->colptr);
  free(p->rowind);
  p->colptr = cp;
  p->rowind = ri;
  p->nnz = nnz;
  p->jac_sparse = jac;
  return MBDAE_OK;
}

int mbdae_problem_set_roots(mbdae_problem *p, int nroots, mbdae_root_fn g) {
  if (!p || nroots < 0 || (nroots > 0 && !g)) return MBDAE_ERR_ARGUMENT;
  p->nroots = nroots;
  p->roots = nroots > 0 ? g : NULL;
  return MBDAE_OK;
}

int mbdae_problem_set_event_handler(mbdae_problem *p, mbdae_event_fn h) {
  if (!p || !h) return MBDAE_ERR_ARGUMENT;
  p->event = h;
  return MBDAE_OK;
}

int mbdae_problem_set_invariants(mbdae_problem *p, int ninv,
                                 const char *const *names,
                                 mbdae_invariant_fn f) {
  if (!p || ninv < 0 || (ninv > 0 && (!names || !f))) return MBDAE_ERR_ARGUMENT;
  p->ninv = ninv;
  p->inv_names = names;
  p->inv_units = NULL; /* units go with the names they were given for */
  p->invariants = f;
  return MBDAE_OK;
}

int mbdae_problem_set_invariant_units(mbdae_problem *p, const char *const *units) {
  if (!p || !units || p->ninv <= 0) return MBDAE_ERR_ARGUMENT;
  p->inv_units = units;
  return MBDAE_OK;
}

int mbdae_problem_set_error_weights(mbdae_problem *p, mbdae_weight_fn f) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  p->weights = f;
  return MBDAE_OK;
}

int mbdae_problem_set_mode_name(mbdae_problem *p, mbdae_mode_name_fn f) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  p->mode_name = f;
  return MBDAE_OK;
}

int mbdae_problem_eval(const mbdae_problem *p, double t, const double *y,
                       const double *yp, double *out) {
  if (!p || !y || !out) return MBDAE_ERR_ARGUMENT;
  int rc;
  if (p->form == MBDAE_FORM_DAE) {
    if (!p->residual || !yp) return MBDAE_ERR_ARGUMENT;
    rc = p->residual(t, y, yp, out, p->user_data);
  } else {
    if (!p->rhs) return MBDAE_ERR_ARGUMENT;
    rc = p->rhs(t, y, out, p->user_data);
  }
  return rc < 0 ? MBDAE_ERR_CALLBACK : rc;
}

int mbdae_problem_eval_jacobian_sparse_dense(const mbdae_problem *p, double t,
                                             double cj, const double *y,
                                             const double *yp, double *J) {
  const size_t n = (size_t)p->n;
  double *vals = calloc((size_t)p->nnz, sizeof *vals);
  if (!vals) return MBDAE_ERR_MEMORY;
  int rc = p->jac_sparse(t, cj, y, yp, vals, p->user_data);
  if (rc == 0) {
    memset(J, 0, n * n * sizeof *J);
    for (size_t j = 0; j < n; ++j)
      for (mbdae_index k = p->colptr[j]; k < p->colptr[j + 1]; ++k)
        J[j * n + (size_t)p->rowind[k]] = vals[k];
  }
  free(vals);
  return rc < 0 ? MBDAE_ERR_CALLBACK : rc;
}

int mbdae_problem_eval_jacobian_dense(const mbdae_problem *p, double t,
                                      double cj, const double *y,
                                      const double *yp, double *J) {
  if (!p || !y || !J) return MBDAE_ERR_ARGUMENT;
  if (p->jac_dense) {
    memset(J, 0, (size_t)p->n * (size_t)p->n * sizeof *J);
    int rc = p->jac_dense(t, cj, y, yp, J, p->user_data);
    return rc < 0 ? MBDAE_ERR_CALLBACK : rc;
  }
  if (p->jac_sparse) return mbdae_problem_eval_jacobian_sparse_dense(p, t, cj, y, yp, J);
  return MBDAE_ERR_ARGUMENT;
}
