/* friction.h - the one-step problem of the Moreau-Jean scheme with Coulomb
 * friction at contacts (mbdae_problem_set_friction; doc/moreau.md,
 * "Friction"):
 *
 *     W v = r + G^T P + T^T Pt
 *     rows of G in the index set: as in nonsmooth.h (unilateral: 0 <= P_i
 *       complementary G_i v + b_i >= 0; bilateral: G_i v + b_i = 0)
 *     contact k, its normal row n_k in the set, u_k = (T_2k v, T_2k+1 v):
 *       |Pt_k| <= mu_k P_nk;  |Pt_k| < mu_k P_nk  =>  u_k = 0 (sticking);
 *       u_k != 0  =>  Pt_k = -mu_k P_nk u_k / |u_k| (sliding against it)
 *     rows outside the set, and the tangent rows of their contacts: 0.
 *
 * Solved by nonsmooth block Gauss-Seidel in velocity form (v = W^-1 (r +
 * H^T P) kept up to date, H the rows of the set): a frictionless row is a
 * scalar projection as in nonsmooth.c's fallback; a contact is a 3 x 3
 * local Coulomb problem on its block of the Delassus matrix H W^-1 H^T
 * (separation, sticking, or sliding with the direction found by a fixed
 * point; an Alart-Curnier projected iteration if that fails). W is
 * diagonal or factorised by KLU (one symbolic analysis). The residual is
 * the natural map's in velocity units, relative to the scale nonsmooth.h
 * uses (ns_input.tol). */
#ifndef MBDAE_FRICTION_H
#define MBDAE_FRICTION_H

#include <stddef.h>

#include "mbdae/problem.h"
#include "nonsmooth.h"

/* Gauss-Seidel sweeps allowed per step (the step fails beyond). */
#define NS_FRICTION_SWEEPS 20000
/* Semismooth Newton iterations allowed per step (friction_newton.h). */
#define NS_FRICTION_NEWTON 100

typedef struct fc_solver fc_solver;

typedef struct fc_input {
  const double *Wx;            /* W values in pattern order */
  int w_changed;               /* 1: W differs from the previous call */
  const double *Gx;            /* G values in pattern order */
  const double *Tx;            /* T values in pattern order */
  const double *r;             /* nv */
  const double *b;             /* nc */
  const unsigned char *in_set; /* nc */
  double tol;                  /* as ns_input.tol */
  int max_sweeps;              /* Gauss-Seidel sweeps */
  int max_newton;              /* semismooth Newton iterations (0: Gauss-Seidel only) */
} fc_input;

/* A solver for the patterns of W (CSC), G (CSR, nc rows, nu unilateral)
 * and T (CSR, 2 nf rows), contact k on the unilateral row normal_rows[k]
 * with coefficient mu[k] (all copied). NULL on failure, msg filled. */
fc_solver *fc_create(int nv, const mbdae_index *w_colptr, const mbdae_index *w_rowind, int nc,
                     int nu, const mbdae_index *g_rowptr, const mbdae_index *g_colind, int nf,
                     const int *normal_rows, const double *mu, const mbdae_index *t_rowptr,
                     const mbdae_index *t_colind, char *msg, size_t msglen);
void fc_free(fc_solver **s);

/* Solve. P (nc) and Pt (2 nf) hold the warm start on entry and the impulses
 * on return; v receives the velocities. res as ns_solve's (sweeps: the
 * Gauss-Seidel sweeps; iterations 0). Returns 0, or < 0 with msg filled:
 * -1 not converged (res holds the sweeps and the residual reached), -2 a
 * singular mass matrix, -3 out of memory. */
int fc_solve(fc_solver *s, const fc_input *in, double *v, double *P, double *Pt,
             ns_result *res, char *msg, size_t msglen);

#endif
