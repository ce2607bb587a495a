/* mechanics_impl.h - the private layout of a problem's second-order form
 * (mbdae/mechanics.h): where q and v live in y, the mass matrix, forces,
 * constraints, potential and impulse observer. */
#ifndef MBDAE_MECHANICS_IMPL_H
#define MBDAE_MECHANICS_IMPL_H

#include "mbdae/mechanics.h"

typedef struct mbdae_mechanics {
  int nq, nv;
  int *qidx, *vidx;            /* into y */
  /* mass matrix, CSC nv x nv */
  mbdae_index m_nnz;
  mbdae_index *m_colptr, *m_rowind;
  int m_constant;
  mbdae_mass_fn mass;
  mbdae_force_fn forces;
  mbdae_position_update_fn update;  /* NULL: q + h v */
  /* constraints, CSR (nu + nb) x nv */
  int nu, nb;
  mbdae_index g_nnz;
  mbdae_index *g_rowptr, *g_colind;
  mbdae_gap_fn gap;
  mbdae_gap_jacobian_fn gap_jac;
  double *restitution;         /* nu */
  /* Coulomb friction: nf contacts on unilateral rows f_rows, T (2 nf) x nv CSR */
  int nf;
  int *f_rows;
  double *mu;
  mbdae_index t_nnz;
  mbdae_index *t_rowptr, *t_colind;
  mbdae_gap_jacobian_fn tangents;
  mbdae_potential_fn potential;
  mbdae_impulse_fn impulses;
} mbdae_mechanics;

void mbdae_mechanics_free(mbdae_mechanics **m);

/* q_new = q + h T(q) v through the model's update, or the plain sum. */
int mbdae_mechanics_update(const mbdae_mechanics *m, double h, const double *q,
                           const double *v, double *q_new, void *user_data);

#endif
