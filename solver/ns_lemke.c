/* ns_lemke.c - Lemke's method with the lexicographic rule (ns_lemke.h).
 *
 * The tableau [I | -M | -e | q] of w - M z - e z0 = q, n rows of 2n + 2
 * columns, row-major, kept as B^-1 times it: its first n columns are B^-1,
 * whose rows order the ties of the ratio test lexicographically (a
 * degenerate problem then never returns to a basis, Cottle-Pang-Stone
 * sec. 4.9). Ties are decided with a relative tolerance: the tableau is
 * floating point, so an exact comparison would let round-off pick. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ns_lemke.h"

/* Relative tolerance of a tie in the ratio test and of a pivot's size
 * against the largest entry of its column. */
#define LEMKE_TIE 1e-12
#define LEMKE_PIVOT_MIN 1e-12

size_t ns_lemke_doubles(int n) {
  if (n <= 0) return 0;
  const size_t nn = (size_t)n, cols = 2 * nn + 2;
  if (nn > SIZE_MAX / sizeof(double) / cols) return 0;
  return nn * cols;
}

static void pivot(double *T, int n, int ncol, int r, int c) {
  double *tr = T + (size_t)r * (size_t)ncol;
  const double p = tr[c];
  for (int k = 0; k < ncol; ++k) tr[k] /= p;
  tr[c] = 1.0;
  for (int rr = 0; rr < n; ++rr) {
    if (rr == r) continue;
    double *t = T + (size_t)rr * (size_t)ncol;
    const double f = t[c];
    if (f == 0.0) continue;
    for (int k = 0; k < ncol; ++k)
      if (tr[k] != 0.0) t[k] -= f * tr[k];
    t[c] = 0.0;
  }
}

/* The ratio test of column c: rows a and b compared by rhs / d (cross-
 * multiplied, d > 0 in both): -1, 0 (a tie within LEMKE_TIE) or 1. */
static int ratio_cmp(const double *T, int ncol, int a, int b, int c, double rhs_scale) {
  const double *ta = T + (size_t)a * (size_t)ncol, *tb = T + (size_t)b * (size_t)ncol;
  const double x = ta[ncol - 1] * tb[c], y = tb[ncol - 1] * ta[c];
  if (fabs(x - y) <= LEMKE_TIE * rhs_scale * fmax(ta[c], tb[c])) return 0;
  return x < y ? -1 : 1;
}

/* A tie of the ratio test decided lexicographically: the rows of B^-1
 * divided by d, entry by entry. Distinct rows of B^-1 never tie exactly. */
static int lex_before(const double *T, int n, int ncol, int a, int b, int c) {
  const double *ta = T + (size_t)a * (size_t)ncol, *tb = T + (size_t)b * (size_t)ncol;
  for (int k = 0; k < n; ++k) {
    const double xa = ta[k] / ta[c], xb = tb[k] / tb[c];
    if (fabs(xa - xb) > LEMKE_TIE * fmax(fabs(xa), fabs(xb))) return xa < xb;
  }
  return a < b;
}

ns_lemke_status ns_lemke(int n, const double *M, const double *q, double *z, double *ray,
                         int *pivots) {
  *pivots = 0;
  int first = -1;
  double qmin = 0.0, qscale = 0.0;
  for (int i = 0; i < n; ++i) {
    z[i] = 0.0;
    qscale = fmax(qscale, fabs(q[i]));
    if (q[i] < 0.0 && q[i] <= qmin) qmin = q[i], first = i; /* ties: the last row */
  }
  if (first < 0) return NS_LEMKE_SOLVED; /* q >= 0: z = 0 */
  const size_t size = ns_lemke_doubles(n);
  double *T = size ? calloc(size, sizeof *T) : NULL;
  int *basis = malloc((size_t)n * sizeof *basis);
  if (!T || !basis) {
    free(T);
    free(basis);
    return NS_LEMKE_NOMEM;
  }
  const int ncol = 2 * n + 2, Z0 = 2 * n, RHS = 2 * n + 1;
  for (int r = 0; r < n; ++r) {
    double *t = T + (size_t)r * (size_t)ncol;
    t[r] = 1.0;
    for (int j = 0; j < n; ++j) t[n + j] = -M[r + (size_t)j * (size_t)n];
    t[Z0] = -1.0;
    t[RHS] = q[r];
    basis[r] = r;
  }
  /* z0 enters at the most negative q_i: every row's right-hand side then
   * >= 0 and, with the tie rule above, every row lexicographically positive */
  pivot(T, n, ncol, first, Z0);
  int enter = n + first; /* the complement of w_first, which left */
  basis[first] = Z0;
  const long cap = (long)NS_LEMKE_PIVOTS_PER_ROW * n;
  ns_lemke_status st = NS_LEMKE_PIVOT_CAP;
  for (long it = 0; it < cap; ++it) {
    double dmax = 0.0;
    for (int r = 0; r < n; ++r) dmax = fmax(dmax, fabs(T[(size_t)r * (size_t)ncol + enter]));
    int best = -1;
    for (int r = 0; r < n; ++r) {
      if (!(T[(size_t)r * (size_t)ncol + enter] > LEMKE_PIVOT_MIN * dmax)) continue;
      if (best < 0) {
        best = r;
        continue;
      }
      const int cmp = ratio_cmp(T, ncol, r, best, enter, qscale);
      if (cmp < 0) best = r;
      /* z0 leaves whenever it ties: that ends the method on a solution */
      else if (cmp == 0 && basis[best] != Z0 &&
               (basis[r] == Z0 || lex_before(T, n, ncol, r, best, enter)))
        best = r;
    }
    if (best < 0) { /* the entering column has no positive entry: a secondary ray */
      for (int j = 0; j < n; ++j) ray[j] = 0.0;
      if (enter >= n && enter < 2 * n) ray[enter - n] = 1.0;
      for (int r = 0; r < n; ++r)
        if (basis[r] >= n && basis[r] < 2 * n)
          ray[basis[r] - n] = fmax(0.0, -T[(size_t)r * (size_t)ncol + enter]);
      st = NS_LEMKE_RAY;
      break;
    }
    pivot(T, n, ncol, best, enter);
    ++*pivots;
    const int leaving = basis[best];
    basis[best] = enter;
    if (leaving == Z0) {
      for (int r = 0; r < n; ++r)
        if (basis[r] >= n && basis[r] < 2 * n)
          z[basis[r] - n] = fmax(0.0, T[(size_t)r * (size_t)ncol + RHS]);
      st = NS_LEMKE_SOLVED;
      break;
    }
    enter = leaving < n ? leaving + n : leaving - n;
  }
  free(T);
  free(basis);
  return st;
}
