/* friction_newton.h - a semismooth Newton method on the Alart-Curnier
 * function for the one-step problem with Coulomb friction (friction.h), in
 * the global unknowns (v, P) so that only W and the rows of the set enter a
 * sparse matrix factorised by KLU (no Delassus matrix is formed):
 *
 *     W v - H^T P - r = 0
 *     F_a(u~, P) = 0 for every row a of the set, u~ = H v + b + eps D P
 *
 * (eps = 1e-12, D the Delassus diagonal: nonsmooth.c's regularisation, so
 * that redundant rows stay solvable). F is the natural map in velocity
 * units: a bilateral row u~; a unilateral row min(D P, u~); a contact
 * (normal n, tangents t) min(D_n P_n, u~_n) and
 * D_t (P_t - proj onto the disk of radius mu [P_n - u~_n / D_n]_+ of
 * P_t - u~_t / D_t) (Alart and Curnier, "A mixed formulation for frictional
 * contact problems prone to Newton like solution methods", CMAME 92, 1991;
 * the generalised Jacobian as in Siconos Numerics' fc3d_AlartCurnier).
 * Full steps for a fraction of the iterations (the natural map's kinks
 * can make |F| rise on the way to the solution), keeping the best iterate;
 * then steps damped by backtracking on |F|^2 from the best. The proximal
 * weight (fcn_settings) may shrink with the residual; with inner = 1 the
 * centre moves at every iteration, a regularised Newton whose
 * regularisation vanishes at convergence. */
#ifndef MBDAE_FRICTION_NEWTON_H
#define MBDAE_FRICTION_NEWTON_H

#include <stddef.h>

/* Kinds of the rows of the set. A contact is three consecutive rows: its
 * normal (FCN_NORMAL) and its two tangents (FCN_TANGENT). */
enum { FCN_BILATERAL = 0, FCN_UNILATERAL = 1, FCN_NORMAL = 2, FCN_TANGENT = 3 };

typedef struct fcn_problem {
  int nv;
  const int *wp, *wi;   /* W, CSC, symmetric */
  const double *wx;
  const double *r;      /* nv */
  int n;                /* rows of the set */
  const int *hp, *hi;   /* H, CSR n x nv, sorted columns */
  const double *hx;
  const double *b;      /* n (0 on tangent rows) */
  const unsigned char *kind; /* n */
  const double *mu;     /* n: the coefficient on a FCN_NORMAL row */
  const double *d;      /* n: the Delassus diagonal, > 0 */
} fcn_problem;

/* Variants of the iteration (friction.c tries several from one start: the
 * iterates of this semismooth function are sensitive to them on wrapped
 * nets, and each variant alone fails on some measured steps). */
typedef struct fcn_settings {
  double full;   /* the fraction of max_iter taken as full steps (then backtracking) */
  double prox;   /* the proximal weight, relative to D */
  double shrink; /* > 0: the proximal term shrinks once the residual is below shrink x tol */
  int inner;     /* Newton iterations on one proximal problem at most */
} fcn_settings;

/* Solve from the start P (n) and v (nv, with W v = r + H^T P). Stops when
 * the natural map's residual (friction.c's measure) is at most tol, or after
 * max_iter iterations. P and v receive the last iterate. Returns 0
 * (converged), -1 (not converged: *res the residual reached), -2 (the
 * Newton matrix is singular), -3 (out of memory); msg filled on failure. */
int fcn_solve(const fcn_problem *pb, const fcn_settings *st, double *P, double *v, double tol,
              int max_iter, int *iters,
              double *res, char *msg, size_t msglen);

#endif
