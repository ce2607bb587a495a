/* ns_factor.h - the factorisation of an active-set iterate's reduced system
 * (nonsmooth.c, file comment): a sparse symmetric quasi-definite matrix
 *     M = [ A   B  ]     A (npos x npos) and C positive definite,
 *         [ B^T -C ]
 * factorised once and solved for one or many right-hand sides (the
 * bordered solves of ns_border.h).
 *
 * Two implementations. LDL^T (SuiteSparse's LDL in an AMD order) without
 * pivoting: a quasi-definite matrix has an LDL^T factorisation in every
 * symmetric order (Vanderbei 1995), with npos positive and n - npos
 * negative pivots. KLU: LU with partial pivoting in an AMD order (and BTF).
 * On the reduced systems of the net captures (benchmarks/
 * bench_factor_reduced.c; benchmarks/results/sections/capture_moreau.md)
 * LDL^T factorises 3-4x faster than KLU at 19,800 unknowns (100 x 100
 * net), 2-3x at 1,746 (30 x 30) and 170 (10 x 10), and solves 32
 * right-hand sides 4x faster at 100 x 100: its factor has half KLU's
 * entries (L only; U = D L^T) and no pivot search. CHOLMOD's simplicial
 * LDL^T took 5-15 % less CPU on the 100 x 100 capture (its supernodal
 * Cholesky of the Schur complement of the kept velocities was slower) but
 * loads BLAS and LAPACK, 9 ms of CPU at every process start.
 * NS_FACTOR_AUTO uses LDL^T from NS_FACTOR_LDL_MIN unknowns and KLU below;
 * a factor whose pivots are not finite or do not have the quasi-definite
 * signs (the matrix was not numerically quasi-definite) is redone by KLU. */
#ifndef MBDAE_NS_FACTOR_H
#define MBDAE_NS_FACTOR_H

typedef enum ns_factor_kind {
  NS_FACTOR_AUTO = 0, /* LDL^T from NS_FACTOR_LDL_MIN unknowns, KLU below or as fallback */
  NS_FACTOR_KLU,      /* KLU only */
  NS_FACTOR_LDL       /* LDL^T whenever its factor is valid, KLU as fallback */
} ns_factor_kind;

typedef struct ns_factor ns_factor;

/* NULL when out of memory. */
ns_factor *ns_factor_create(ns_factor_kind kind);
void ns_factor_free(ns_factor **f);

/* Factorise the n x n matrix M (CSC with both triangles, a column's rows in
 * any order, none repeated), whose first npos unknowns are the positive
 * definite block. same_pattern: the pattern (and n, npos) are those of the
 * last successful factorisation, whose analysis is then reused. Returns 0,
 * -2 when M is singular or not finite, -3 when out of memory. */
int ns_factor_factor(ns_factor *f, int n, int npos, const int *colptr, const int *rowind,
                     const double *values, int same_pattern);

/* New values on the pattern of the last factorisation, with the pivot
 * order kept (cheaper than ns_factor_factor). Returns 0, or 1 when the new
 * factor is poor (small or wrong-signed pivots): then call ns_factor_factor. */
int ns_factor_refactor(ns_factor *f, const int *colptr, const int *rowind, const double *values);

/* Solve M X = B in place: b holds B (n x nrhs, column major) on entry and X
 * on return. Returns 0, or -2 when the solve fails (no valid factor, out of
 * memory). */
int ns_factor_solve(ns_factor *f, int nrhs, double *b);

/* Which implementation holds the current factor: NS_FACTOR_KLU or
 * NS_FACTOR_LDL (NS_FACTOR_AUTO when there is none). */
ns_factor_kind ns_factor_current(const ns_factor *f);

#endif
