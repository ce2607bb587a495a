/* nonsmooth.h - the one-step nonsmooth problem of the Moreau-Jean scheme
 * (and of its position projection), solved sparsely:
 *
 *     W v = r + G^T P
 *     unilateral rows i < nu in the index set:  w_i = G_i v + b_i,
 *                                               0 <= P_i  complementary  w_i >= 0
 *     bilateral rows i >= nu:                   G_i v + b_i = 0
 *     rows outside the index set:               P_i = 0
 *
 * W (nv x nv, symmetric positive definite, CSC) and G (nc x nv, CSR) have
 * fixed patterns; each active set's reduced system (the Delassus matrix of
 * the active rows bordered by the velocities not eliminated, nonsmooth.c)
 * is factorised by ns_factor.h (LDL^T, KLU) and later iterates are
 * bordered solves on that factor (ns_border.h). A primal-dual active-set iteration (the semismooth Newton
 * method on min(P, c w) = 0) decides the active rows, warm-started from the
 * previous impulses; after an infeasible iterate, Gauss-Seidel sweeps from
 * it predict the rows a taut front is about to pull (nonsmooth.c,
 * front_flip). Where D is not an M-matrix that update can cycle
 * (a wrapped net); after a repeated set it pivots by the rule of Judice &
 * Pires (block pivots while the count of infeasible rows falls, else the
 * first infeasible row alone), finite for the positive definite D + E. If
 * it has not converged in max_iter iterations (twice that after a cycle),
 * projected Gauss-Seidel finishes. Where that fails too, a dense Lemke
 * (ns_lemke.h) on the set's Delassus form either solves the problem or
 * proves it infeasible (doc/moreau.md: 5 of 2,000 random 8 x 8 nets needed
 * it). Regularisation: an active row
 * solves w_i = -eps_i P_i with eps_i = NS_EPS_REL D_ii (D = G W^-1 G^T), so
 * a redundant set stays solvable and the added violation is NS_EPS_REL
 * times the velocity jump the row's own impulse makes. */
#ifndef MBDAE_NONSMOOTH_H
#define MBDAE_NONSMOOTH_H

#include <stddef.h>

#include "mbdae/problem.h"
#include "ns_factor.h"

/* Relative regularisation of active rows (see above). */
#define NS_EPS_REL 1e-12
/* Projected Gauss-Seidel sweeps allowed after the Newton iterations. */
#define NS_PGS_SWEEPS 2000
/* Rows of the set the active-set iteration cap is stated for (ns_iteration_cap). */
#define NS_ITER_ROWS 2500
/* Largest nk x nset block W_KK^-1 G_SK^T (doubles) of the Gauss-Seidel
 * fallback: nk velocities kept out of the elimination (a body's), nset rows. */
#define NS_PGS_MAX_KEPT 50000000
/* Rows of the dense Lemke fallback (a bilateral row counts twice): its
 * Delassus matrix and tableau take 3 n^2 doubles, 96 MB at the limit. */
#define NS_LEMKE_MAX_ROWS 2000

typedef struct ns_solver ns_solver;

typedef struct ns_input {
  const double *Wx;            /* W values in pattern order */
  int w_changed;               /* 1: W differs from the previous call */
  const double *Gx;            /* G values in pattern order */
  const double *r;             /* nv */
  const double *b;             /* nc */
  const unsigned char *in_set; /* nc: 1 for rows of the index set (bilateral: always) */
  double tol;                  /* relative to the largest over the set of: free |w_i|,
                                  the sum of |terms| of w_i, sqrt(D_ii) times the
                                  W-norm of vfree over row i's velocities */
  int max_iter;                /* active-set iterations, scaled by ns_iteration_cap;
                                  0: projected Gauss-Seidel only */
} ns_input;

typedef struct ns_result {
  int iterations;       /* active-set iterations (factorisations) */
  int sweeps;           /* Gauss-Seidel sweeps (0 unless it fell back) */
  int index_set;        /* rows in the index set */
  int positive;         /* rows with P > 0 */
  double residual;      /* max |min(D_ii P_i, w_i)| (bilateral |w_i|), velocity units */
  double vref;          /* the scale the tolerance is relative to */
  int front_iterates;   /* active-set updates with the taut front predicted (front_flip) */
  int front_stopped;    /* 1: the prediction was switched off for want of progress */
  int cycled;           /* 1: an active set repeated, and pivoting (pivot_flip) went on */
  int lemke_pivots;     /* pivots of the dense Lemke fallback (0 unless it ran) */
} ns_result;

/* A solver for the given patterns (copied). NULL on failure, msg filled. */
ns_solver *ns_create(int nv, const mbdae_index *w_colptr, const mbdae_index *w_rowind,
                     int nc, int nu, const mbdae_index *g_rowptr,
                     const mbdae_index *g_colind, char *msg, size_t msglen);
void ns_free(ns_solver **s);

/* The active-set iterations allowed on a set of nset rows: max_iter times
 * ceil(sqrt(nset / NS_ITER_ROWS)) (at least max_iter). Without the front
 * prediction a net's taut front advanced about one string link per
 * iterate, and the diameter of a net grows as the square root of its rows:
 * the 100 x 100 capture needed up to 63 iterates on its 19,801 rows while
 * it wraps (t = 1.25-1.30 s; cap 150 at the default 50). max_iter = 0:
 * Gauss-Seidel only. */
int ns_iteration_cap(int max_iter, int nset);

/* Solve. P holds the warm start on entry (rows outside the set are
 * ignored) and the impulses on return; v receives the velocities.
 * Returns 0, or < 0 with msg filled: -1 not converged (res holds the
 * iterations and the residual reached), -2 a singular factorisation,
 * -3 out of memory, -4 infeasible: no v meets the set's rows (G_i v + b_i
 * >= 0 unilateral, = 0 bilateral) to the tolerance, proved by a Farkas
 * certificate y (y_i >= 0 on unilateral rows, G^T y = 0, b^T y < 0) that
 * msg describes. */
int ns_solve(ns_solver *s, const ns_input *in, double *v, double *P,
             ns_result *res, char *msg, size_t msglen);

/* The factorisation of the reduced systems (ns_factor.h; NS_FACTOR_AUTO
 * unless set, e.g. by a test forcing one implementation). Returns 0, or -3
 * when out of memory (the solver keeps its previous factorisation). */
int ns_set_factor(ns_solver *s, ns_factor_kind kind);

/* The implementation that factorised the last reduced system
 * (NS_FACTOR_AUTO when there is none). */
ns_factor_kind ns_factor_used(const ns_solver *s);

/* The reduced system last factorised by ns_solve (nonsmooth.c's file
 * comment), for benchmarks of its factorisation: n x n in CSC with both
 * triangles, the na active rows first, then the kept velocities. Returns n
 * (0 when nothing has been factorised); the arrays belong to the solver and
 * stay valid until its next ns_solve. */
int ns_last_reduced(const ns_solver *s, int *na, const int **colptr, const int **rowind,
                    const double **values);

#endif
