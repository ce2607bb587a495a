/* random_string_net.h - the random planar string net of the one-step solver's
 * tests (tests/test_nonsmooth.c) and of benchmarks/siconos/bench_lcp_net_scan.c,
 * in one place so that a seed names the same net in both.
 *
 * M x M unit masses (W = I) on a jittered unit grid, a unilateral string from
 * each point to its right, upper and upper-right neighbour (3 M^2 - 4 M + 1
 * rows, 4 entries each, CSR over the rows), free velocities uniform in
 * [-1, 1], b = 0: v = 0 meets every row, so every seed has a solution, unique
 * in v. Positions come first from the seed, then the velocities. */
#ifndef MBDAE_TESTS_RANDOM_STRING_NET_H
#define MBDAE_TESTS_RANDOM_STRING_NET_H

#include <math.h>

#include "mbdae/problem.h" /* mbdae_index */

/* The generator's uniform numbers in [0, 1]: a fixed LCG, the same on every
 * platform. */
static inline double urand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0;
}

/* Fills W (wp, wi, Wx: 2 M^2 velocities), r, and the rows (gp, gi, Gx, b,
 * in_set: room for 3 M^2 rows); x: 2 M^2 doubles of work. Returns the rows. */
static inline int random_string_net(int M, unsigned seed, double *x, mbdae_index *wp,
                                    mbdae_index *wi, double *Wx, double *r, mbdae_index *gp,
                                    mbdae_index *gi, double *Gx, double *b,
                                    unsigned char *in_set) {
  const int NP = M * M, NV = 2 * NP;
  for (int p = 0; p < NP; ++p) {
    x[2 * p] = p % M + 0.3 * (urand(&seed) - 0.5);
    x[2 * p + 1] = p / M + 0.3 * (urand(&seed) - 0.5);
  }
  int nc = 0, k = 0;
  for (int p = 0; p < NP; ++p) {
    const int right = p % M < M - 1, up = p / M < M - 1;
    const int nb[3] = {right ? p + 1 : -1, up ? p + M : -1, right && up ? p + M + 1 : -1};
    for (int q = 0; q < 3; ++q) {
      if (nb[q] < 0) continue;
      const int o = nb[q];
      const double dx = x[2 * o] - x[2 * p], dy = x[2 * o + 1] - x[2 * p + 1];
      const double len = sqrt(dx * dx + dy * dy);
      b[nc] = 0.0;
      gp[nc] = k, in_set[nc++] = 1;
      gi[k] = 2 * p, Gx[k++] = dx / len;
      gi[k] = 2 * p + 1, Gx[k++] = dy / len;
      gi[k] = 2 * o, Gx[k++] = -dx / len;
      gi[k] = 2 * o + 1, Gx[k++] = -dy / len;
    }
  }
  gp[nc] = k;
  for (int j = 0; j < NV; ++j) wp[j] = j, wi[j] = j, Wx[j] = 1.0, r[j] = 2.0 * urand(&seed) - 1.0;
  wp[NV] = NV;
  return nc;
}

#endif
