/* problem_impl.h - the private layout of mbdae_problem (problem.h). */
#ifndef MBDAE_PROBLEM_IMPL_H
#define MBDAE_PROBLEM_IMPL_H

#include "mbdae/problem.h"

struct mbdae_problem {
  int n;
  mbdae_form form;
  void *user_data;
  mbdae_residual_fn residual;
  mbdae_rhs_fn rhs;
  double *id;                 /* n entries, DAE form; NULL = all differential */
  mbdae_jac_fn jac_dense;
  mbdae_jac_fn jac_sparse;
  mbdae_index nnz;            /* sparse pattern (CSC) */
  mbdae_index *colptr;        /* n + 1 */
  mbdae_index *rowind;        /* nnz */
  int nroots;
  mbdae_root_fn roots;
  mbdae_event_fn event;
  int ninv;
  const char *const *inv_names;
  const char *const *inv_units; /* ninv units for output headers, or NULL */
  mbdae_invariant_fn invariants;
  mbdae_mode_name_fn mode_name;
  mbdae_weight_fn weights;     /* error weights (NULL: the integrator's own) */
  int nd;                     /* semi-explicit index 1: differential count (0: none) */
  mbdae_completion_fn completion; /* its completion (mbdae_problem_set_completion) */
  mbdae_restart_fn restart_state; /* consistent state at a restart (may be NULL) */
  struct mbdae_mechanics *mech; /* second-order form (mechanics.h), NULL if none */
  /* repairs reported by the event handler (problem_repair.c) */
  double repair_tol;          /* the largest allowed */
  double repair_max;          /* the largest since the engine's last reset */
  const char *repair_what;    /* what it repaired (static string) */
};

/* The engine, before each event handler call: forget earlier reports. */
void mbdae_problem_repair_reset(mbdae_problem *p);

/* Expand the sparse Jacobian at (t, y, yp) into a dense column-major array. */
int mbdae_problem_eval_jacobian_sparse_dense(const mbdae_problem *p, double t,
                                             double cj, const double *y,
                                             const double *yp, double *J);

#endif
