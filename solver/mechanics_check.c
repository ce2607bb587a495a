/* mechanics_check.c - check a model's constraint Jacobian G against central
 * differences of g along its position update, and its mass matrix for
 * symmetry and a positive diagonal (mbdae_mechanics_check). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "mechanics_impl.h"
#include "problem_impl.h"

/* M for symmetry and its smallest diagonal entry. */
static int check_mass(const mbdae_problem *p, double t, const double *q,
                      mbdae_mechanics_check_result *out) {
  const mbdae_mechanics *m = p->mech;
  double *mx = calloc((size_t)m->m_nnz, sizeof *mx);
  if (!mx) return MBDAE_ERR_MEMORY;
  int rc = m->mass(t, q, mx, p->user_data);
  out->mass_min_diag = INFINITY;
  for (mbdae_index j = 0; rc == 0 && j < m->nv; ++j)
    for (mbdae_index k = m->m_colptr[j]; k < m->m_colptr[j + 1]; ++k) {
      mbdae_index i = m->m_rowind[k];
      if (i == j) out->mass_min_diag = fmin(out->mass_min_diag, mx[k]);
      for (mbdae_index c = m->m_colptr[i]; c < m->m_colptr[i + 1]; ++c)
        if (m->m_rowind[c] == j)
          out->mass_asymmetry = fmax(out->mass_asymmetry, fabs(mx[k] - mx[c]));
    }
  free(mx);
  return rc == 0 ? MBDAE_OK : MBDAE_ERR_CALLBACK;
}

int mbdae_mechanics_check(const mbdae_problem *p, double t, const double *y,
                          double rel_step, double miss_tol,
                          mbdae_mechanics_check_result *out) {
  if (!p || !y || !out || !mbdae_problem_has_mechanics(p)) return MBDAE_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->g_worst_row = out->g_worst_col = -1;
  const mbdae_mechanics *m = p->mech;
  if (rel_step <= 0) rel_step = cbrt(DBL_EPSILON);
  const int nq = m->nq, nv = m->nv, nc = m->nu + m->nb;
  double *q = malloc((size_t)nq * sizeof *q);
  if (!q) return MBDAE_ERR_MEMORY;
  for (int i = 0; i < nq; ++i) q[i] = y[m->qidx[i]];
  int rc = check_mass(p, t, q, out);
  if (rc || nc == 0 || !m->gap) {
    free(q);
    return rc;
  }
  /* analytic G transposed to columns: for column j the rows i and values */
  double *gx = calloc((size_t)m->g_nnz, sizeof *gx);
  mbdae_index *cp = calloc((size_t)nv + 1, sizeof *cp);
  int *crow = malloc((size_t)m->g_nnz * sizeof *crow);
  double *cval = malloc((size_t)m->g_nnz * sizeof *cval);
  double *dir = calloc((size_t)nv, sizeof *dir), *qp = malloc((size_t)nq * sizeof *qp);
  double *qm = malloc((size_t)nq * sizeof *qm), *gp = malloc((size_t)nc * sizeof *gp);
  double *gm = malloc((size_t)nc * sizeof *gm), *ga = calloc((size_t)nc, sizeof *ga);
  if (!gx || !cp || !crow || !cval || !dir || !qp || !qm || !gp || !gm || !ga) {
    rc = MBDAE_ERR_MEMORY;
    goto done;
  }
  if (m->gap_jac(t, q, gx, p->user_data) != 0) {
    rc = MBDAE_ERR_CALLBACK;
    goto done;
  }
  for (mbdae_index k = 0; k < m->g_nnz; ++k) cp[m->g_colind[k] + 1]++;
  for (int j = 0; j < nv; ++j) cp[j + 1] += cp[j];
  {
    mbdae_index *next = malloc((size_t)nv * sizeof *next);
    if (!next) {
      rc = MBDAE_ERR_MEMORY;
      goto done;
    }
    memcpy(next, cp, (size_t)nv * sizeof *next);
    for (int i = 0; i < nc; ++i)
      for (mbdae_index k = m->g_rowptr[i]; k < m->g_rowptr[i + 1]; ++k) {
        mbdae_index c = next[m->g_colind[k]]++;
        crow[c] = i;
        cval[c] = gx[k];
      }
    free(next);
  }
  double qscale = 0.0;
  for (int i = 0; i < nq; ++i) qscale = fmax(qscale, fabs(q[i]));
  const double eps = rel_step * fmax(1.0, qscale);
  for (int j = 0; j < nv; ++j) {
    dir[j] = 1.0;
    rc = mbdae_mechanics_update(m, eps, q, dir, qp, p->user_data);
    if (rc == 0) rc = mbdae_mechanics_update(m, -eps, q, dir, qm, p->user_data);
    if (rc == 0) rc = m->gap(t, qp, gp, p->user_data);
    if (rc == 0) rc = m->gap(t, qm, gm, p->user_data);
    dir[j] = 0.0;
    if (rc != 0) {
      rc = MBDAE_ERR_CALLBACK;
      goto done;
    }
    memset(ga, 0, (size_t)nc * sizeof *ga);
    for (mbdae_index k = cp[j]; k < cp[j + 1]; ++k) ga[crow[k]] = cval[k];
    for (int i = 0; i < nc; ++i) {
      double fd = (gp[i] - gm[i]) / (2.0 * eps);
      double err = fabs(ga[i] - fd), rel = err / fmax(1.0, fabs(fd));
      if (isnan(err)) err = rel = INFINITY;
      if (rel > out->g_max_rel_err) {
        out->g_max_rel_err = rel;
        out->g_worst_row = i;
        out->g_worst_col = j;
      }
      out->g_max_abs_err = fmax(out->g_max_abs_err, err);
      if (fabs(fd) > miss_tol) {
        int found = 0;
        for (mbdae_index k = cp[j]; k < cp[j + 1] && !found; ++k) found = crow[k] == i;
        if (!found) out->g_pattern_misses++;
      }
    }
  }
done:
  free(q), free(gx), free(cp), free(crow), free(cval), free(dir);
  free(qp), free(qm), free(gp), free(gm), free(ga);
  return rc;
}
