/* mechanics.c - declaring and validating a problem's second-order form
 * (mbdae/mechanics.h): layout of q and v in y, mass pattern, forces,
 * constraint pattern and restitution, Coulomb friction at contacts, potential,
 * impulse observer. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "mechanics_impl.h"
#include "problem_impl.h"

void mbdae_mechanics_free(mbdae_mechanics **m) {
  if (!m || !*m) return;
  mbdae_mechanics *k = *m;
  free(k->qidx);
  free(k->vidx);
  free(k->m_colptr);
  free(k->m_rowind);
  free(k->g_rowptr);
  free(k->g_colind);
  free(k->restitution);
  free(k->f_rows);
  free(k->mu);
  free(k->t_rowptr);
  free(k->t_colind);
  free(k);
  *m = NULL;
}

int mbdae_mechanics_update(const mbdae_mechanics *m, double h, const double *q,
                           const double *v, double *q_new, void *user_data) {
  if (m->update) return m->update(h, q, v, q_new, user_data);
  for (int i = 0; i < m->nq; ++i) q_new[i] = q[i] + h * v[i];
  return 0;
}

int mbdae_problem_set_mechanics(mbdae_problem *p, int nq, int nv,
                                const int *qidx, const int *vidx) {
  if (!p || p->form != MBDAE_FORM_ODE || nq <= 0 || nv <= 0 || !qidx || !vidx ||
      nq + nv != p->n)
    return MBDAE_ERR_ARGUMENT;
  /* every component of y exactly once */
  unsigned char *seen = calloc((size_t)p->n, 1);
  if (!seen) return MBDAE_ERR_MEMORY;
  int bad = 0;
  for (int i = 0; i < nq + nv && !bad; ++i) {
    int k = i < nq ? qidx[i] : vidx[i - nq];
    if (k < 0 || k >= p->n || seen[k]) bad = 1;
    else seen[k] = 1;
  }
  free(seen);
  if (bad) return MBDAE_ERR_ARGUMENT;
  mbdae_mechanics *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->qidx = malloc((size_t)nq * sizeof *m->qidx);
  m->vidx = malloc((size_t)nv * sizeof *m->vidx);
  if (!m->qidx || !m->vidx) {
    mbdae_mechanics_free(&m);
    return MBDAE_ERR_MEMORY;
  }
  m->nq = nq;
  m->nv = nv;
  memcpy(m->qidx, qidx, (size_t)nq * sizeof *qidx);
  memcpy(m->vidx, vidx, (size_t)nv * sizeof *vidx);
  mbdae_mechanics_free(&p->mech);
  p->mech = m;
  return MBDAE_OK;
}

/* A compressed pattern (CSC columns or CSR rows): n + 1 starts from 0 to
 * nnz, indices in [0, m) strictly increasing within each line; with
 * need_diag every line holds its diagonal entry. */
static int pattern_ok(mbdae_index n, mbdae_index m, mbdae_index nnz,
                      const mbdae_index *start, const mbdae_index *index,
                      int need_diag) {
  if (!start || !index || nnz <= 0 || start[0] != 0 || start[n] != nnz) return 0;
  for (mbdae_index j = 0; j < n; ++j) {
    if (start[j + 1] < start[j]) return 0;
    int diag = 0;
    for (mbdae_index k = start[j]; k < start[j + 1]; ++k) {
      if (index[k] < 0 || index[k] >= m) return 0;
      if (k > start[j] && index[k] <= index[k - 1]) return 0;
      diag |= index[k] == j;
    }
    if (need_diag && !diag) return 0;
  }
  return 1;
}

/* Copies of a validated pattern. */
static int copy_pattern(mbdae_index n, mbdae_index nnz, const mbdae_index *start,
                        const mbdae_index *index, mbdae_index **s_out,
                        mbdae_index **i_out) {
  mbdae_index *s = malloc((size_t)(n + 1) * sizeof *s);
  mbdae_index *i = malloc((size_t)nnz * sizeof *i);
  if (!s || !i) {
    free(s);
    free(i);
    return MBDAE_ERR_MEMORY;
  }
  memcpy(s, start, (size_t)(n + 1) * sizeof *s);
  memcpy(i, index, (size_t)nnz * sizeof *i);
  free(*s_out);
  free(*i_out);
  *s_out = s;
  *i_out = i;
  return MBDAE_OK;
}

int mbdae_problem_set_mass(mbdae_problem *p, mbdae_index nnz,
                           const mbdae_index *colptr, const mbdae_index *rowind,
                           int constant, mbdae_mass_fn mass) {
  if (!p || !p->mech || !mass) return MBDAE_ERR_ARGUMENT;
  mbdae_mechanics *m = p->mech;
  if (!pattern_ok(m->nv, m->nv, nnz, colptr, rowind, 1)) return MBDAE_ERR_ARGUMENT;
  /* symmetric pattern: (i, j) present iff (j, i) is */
  for (mbdae_index j = 0; j < m->nv; ++j)
    for (mbdae_index k = colptr[j]; k < colptr[j + 1]; ++k) {
      mbdae_index i = rowind[k], c;
      for (c = colptr[i]; c < colptr[i + 1] && rowind[c] != j; ++c) {}
      if (c == colptr[i + 1]) return MBDAE_ERR_ARGUMENT;
    }
  int rc = copy_pattern(m->nv, nnz, colptr, rowind, &m->m_colptr, &m->m_rowind);
  if (rc) return rc;
  m->m_nnz = nnz;
  m->m_constant = constant != 0;
  m->mass = mass;
  return MBDAE_OK;
}

int mbdae_problem_set_forces(mbdae_problem *p, mbdae_force_fn f) {
  if (!p || !p->mech || !f) return MBDAE_ERR_ARGUMENT;
  p->mech->forces = f;
  return MBDAE_OK;
}

int mbdae_problem_set_position_update(mbdae_problem *p, mbdae_position_update_fn f) {
  if (!p || !p->mech || !f) return MBDAE_ERR_ARGUMENT;
  p->mech->update = f;
  return MBDAE_OK;
}

int mbdae_problem_set_constraints(mbdae_problem *p, int nu, int nb,
                                  mbdae_index nnz, const mbdae_index *rowptr,
                                  const mbdae_index *colind, mbdae_gap_fn g,
                                  mbdae_gap_jacobian_fn G,
                                  const double *restitution) {
  if (!p || !p->mech || nu < 0 || nb < 0 || nu + nb <= 0 || !g || !G)
    return MBDAE_ERR_ARGUMENT;
  mbdae_mechanics *m = p->mech;
  const int nc = nu + nb;
  if (!pattern_ok(nc, m->nv, nnz, rowptr, colind, 0)) return MBDAE_ERR_ARGUMENT;
  if (restitution)
    for (int i = 0; i < nu; ++i)
      if (!(restitution[i] >= 0.0 && restitution[i] <= 1.0)) return MBDAE_ERR_ARGUMENT;
  double *e = calloc((size_t)(nu > 0 ? nu : 1), sizeof *e);
  if (!e) return MBDAE_ERR_MEMORY;
  if (restitution && nu > 0) memcpy(e, restitution, (size_t)nu * sizeof *e);
  int rc = copy_pattern(nc, nnz, rowptr, colind, &m->g_rowptr, &m->g_colind);
  if (rc) {
    free(e);
    return rc;
  }
  free(m->restitution);
  m->restitution = e;
  /* friction refers to the rows: declared again after new constraints */
  free(m->f_rows), free(m->mu), free(m->t_rowptr), free(m->t_colind);
  m->f_rows = NULL, m->mu = NULL, m->t_rowptr = NULL, m->t_colind = NULL;
  m->nf = 0;
  m->t_nnz = 0;
  m->tangents = NULL;
  m->nu = nu;
  m->nb = nb;
  m->g_nnz = nnz;
  m->gap = g;
  m->gap_jac = G;
  return MBDAE_OK;
}

int mbdae_problem_set_friction(mbdae_problem *p, int nf, const int *normal_rows,
                               const double *mu, mbdae_index nnz, const mbdae_index *rowptr,
                               const mbdae_index *colind, mbdae_gap_jacobian_fn T) {
  if (!p || !p->mech || !p->mech->gap || nf <= 0 || !normal_rows || !mu || !T)
    return MBDAE_ERR_ARGUMENT;
  mbdae_mechanics *m = p->mech;
  if (nf > m->nu || !pattern_ok(2 * (mbdae_index)nf, m->nv, nnz, rowptr, colind, 0))
    return MBDAE_ERR_ARGUMENT;
  unsigned char *seen = calloc((size_t)m->nu, 1);
  int *rows = malloc((size_t)nf * sizeof *rows);
  double *mus = malloc((size_t)nf * sizeof *mus);
  int rc = seen && rows && mus ? MBDAE_OK : MBDAE_ERR_MEMORY;
  for (int k = 0; !rc && k < nf; ++k) {
    if (normal_rows[k] < 0 || normal_rows[k] >= m->nu || seen[normal_rows[k]] ||
        !(mu[k] >= 0.0 && isfinite(mu[k])))
      rc = MBDAE_ERR_ARGUMENT;
    else
      seen[normal_rows[k]] = 1;
  }
  free(seen);
  mbdae_index *tp = NULL, *ti = NULL;
  if (!rc) rc = copy_pattern(2 * (mbdae_index)nf, nnz, rowptr, colind, &tp, &ti);
  if (rc) {
    free(rows), free(mus);
    return rc;
  }
  memcpy(rows, normal_rows, (size_t)nf * sizeof *rows);
  memcpy(mus, mu, (size_t)nf * sizeof *mus);
  free(m->f_rows), free(m->mu), free(m->t_rowptr), free(m->t_colind);
  m->f_rows = rows;
  m->mu = mus;
  m->t_rowptr = tp;
  m->t_colind = ti;
  m->t_nnz = nnz;
  m->nf = nf;
  m->tangents = T;
  return MBDAE_OK;
}

int mbdae_problem_set_potential(mbdae_problem *p, mbdae_potential_fn V) {
  if (!p || !p->mech || !V) return MBDAE_ERR_ARGUMENT;
  p->mech->potential = V;
  return MBDAE_OK;
}

int mbdae_problem_set_impulse_observer(mbdae_problem *p, mbdae_impulse_fn f) {
  if (!p || !p->mech || !f) return MBDAE_ERR_ARGUMENT;
  p->mech->impulses = f;
  return MBDAE_OK;
}

int mbdae_problem_has_mechanics(const mbdae_problem *p) {
  const mbdae_mechanics *m = p ? p->mech : NULL;
  return m && m->mass && m->forces && (m->update || m->nq == m->nv);
}

int mbdae_problem_mechanics_sizes(const mbdae_problem *p, int *nq, int *nv,
                                  int *nu, int *nb) {
  if (!p || !p->mech) return MBDAE_ERR_ARGUMENT;
  if (nq) *nq = p->mech->nq;
  if (nv) *nv = p->mech->nv;
  if (nu) *nu = p->mech->nu;
  if (nb) *nb = p->mech->nb;
  return MBDAE_OK;
}

int mbdae_mechanics_energy(const mbdae_problem *p, double t, const double *y,
                           double *kinetic, double *potential) {
  if (!p || !y || !mbdae_problem_has_mechanics(p)) return MBDAE_ERR_ARGUMENT;
  const mbdae_mechanics *m = p->mech;
  double *q = malloc((size_t)m->nq * sizeof *q), *mx = malloc((size_t)m->m_nnz * sizeof *mx);
  int rc = q && mx ? MBDAE_OK : MBDAE_ERR_MEMORY;
  if (!rc) {
    for (int i = 0; i < m->nq; ++i) q[i] = y[m->qidx[i]];
    if (m->mass(t, q, mx, p->user_data) != 0) rc = MBDAE_ERR_CALLBACK;
  }
  double K = 0.0, V = 0.0;
  for (int j = 0; !rc && j < m->nv; ++j)
    for (mbdae_index k = m->m_colptr[j]; k < m->m_colptr[j + 1]; ++k)
      K += 0.5 * y[m->vidx[m->m_rowind[k]]] * mx[k] * y[m->vidx[j]];
  if (!rc && m->potential && m->potential(t, q, &V, p->user_data) != 0) rc = MBDAE_ERR_CALLBACK;
  free(q);
  free(mx);
  if (!rc && kinetic) *kinetic = K;
  if (!rc && potential) *potential = V;
  return rc;
}
