/* ns_lemke.h - Lemke's complementary pivoting method with the lexicographic
 * rule (Cottle, Pang & Stone, The Linear Complementarity Problem, 1992,
 * sec. 4.4 and 4.9) on a small dense LCP
 *
 *     w = M z + q,   0 <= z  complementary  w >= 0.
 *
 * The last resort of nonsmooth.c: for a positive semidefinite M (the
 * Delassus matrix G W^-1 G^T) it ends either on a solution or on a
 * secondary ray, and the ray proves that no z >= 0 has M z + q >= 0 (the
 * problem is infeasible; Cottle-Pang-Stone thm 4.4.13). The lexicographic
 * rule makes it finite on degenerate problems (a net's redundant strings
 * make M singular). Dense: n x (2n + 2) doubles, O(n^2) per pivot. */
#ifndef MBDAE_NS_LEMKE_H
#define MBDAE_NS_LEMKE_H

#include <stddef.h>

/* Pivots allowed per row of the problem (Lemke needs about n on the
 * problems measured; its worst case is exponential). */
#define NS_LEMKE_PIVOTS_PER_ROW 50

typedef enum ns_lemke_status {
  NS_LEMKE_SOLVED = 0,
  NS_LEMKE_RAY = 1,       /* secondary ray: ray[] holds its z part */
  NS_LEMKE_PIVOT_CAP = 2, /* NS_LEMKE_PIVOTS_PER_ROW * n pivots without an end */
  NS_LEMKE_NOMEM = -3
} ns_lemke_status;

/* The tableau's size in doubles for n rows (0 when it overflows size_t). */
size_t ns_lemke_doubles(int n);

/* Solve the LCP of M (n x n, column-major) and q. On NS_LEMKE_SOLVED z
 * holds the solution; on NS_LEMKE_RAY ray holds the z part of the ray's
 * direction (>= 0, not all zero). *pivots: the pivots taken. */
ns_lemke_status ns_lemke(int n, const double *M, const double *q, double *z, double *ray,
                         int *pivots);

#endif
