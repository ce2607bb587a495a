/* string_net_unilateral.c - the multipliers of unilateral strings held by
 * Baumgarte's term: a linear complementarity problem solved by principal
 * pivoting (doc/strings.md). */
#include "strings/string_net_internal.h"

#include <math.h>


/* Unilateral strings (net->unilateral, Baumgarte hold): among the active
 * strings each one either pulls (lambda_s <= 0: tension -2 lambda_s |S|)
 * and follows eq. 3.2, or carries nothing and shortens faster than eq. 3.2
 * asks (phi'' <= nu): the linear complementarity problem of
 * doc/strings.md, solved by principal pivoting on the pulling set (all
 * infeasible strings swapped while their number falls, then the lowest
 * index alone, Murty's rule), warm-started from net->forced. A's pattern is
 * fixed (factor_A puts 1 on the diagonal of a string left out), so a new
 * set costs a refactorization. Returns 0, 1 (no solution within the
 * iteration limit: recoverable) or < 0. */
int sn_multipliers_unilateral(sn_net *net, const double *R, const double *V,
                              const double *F, double *lambda) {
  sn_workspace *w = net->ws;
  int ns = net->ns, np = net->np, fewest = ns + 1, stalled = 0;
  unsigned char *set = w->mask, *forced = net->forced, *bad = w->bad;
  for (int it = 0; it < 50 + 2 * ns; ++it) {
    for (int s = 0; s < ns; ++s) set[s] = net->taut[s] && forced[s];
    int rc = sn_multipliers_F(net, R, V, F, set, lambda);
    if (rc) return rc;
    /* accelerations with these tensions */
    double *a = w->acc, lmax = 0.0, amax = 0.0;
    sn_point_accelerations(net, R, F, lambda, a);
    for (int s = 0; s < ns; ++s) {
      if (lambda[s] == 0.0) continue;
      double S[3];
      str_SW(net, s, R, NULL, S, NULL);
      lmax = fmax(lmax, fabs(lambda[s]) * sqrt(dot3(S, S)));
    }
    for (int q = 0; q < 3 * np; ++q) amax = fmax(amax, fabs(a[q]));
    int nbad = 0, first = -1;
    for (int s = 0; s < ns; ++s) {
      bad[s] = 0;
      if (!net->taut[s]) continue;
      int i = net->s[s].i, j = net->s[s].j;
      double S[3], W[3], xi, wn;
      str_SW(net, s, R, V, S, W);
      double Sn = sqrt(dot3(S, S));
      if (forced[s]) {
        bad[s] = lambda[s] * Sn > 1e-12 * lmax;
      } else {
        /* half of phi'' - nu (eqs. 2.21, 3.2), per unit of |S| */
        str_stab(net, s, &xi, &wn);
        double phi = dot3(S, S) - net->s[s].L * net->s[s].L, sa = 0.0;
        for (int c = 0; c < 3; ++c) sa += S[c] * (a[3 * j + c] - a[3 * i + c]);
        double over = dot3(W, W) + sa + 2.0 * xi * wn * dot3(S, W) + 0.5 * wn * wn * phi;
        bad[s] = over > 1e-12 * (amax + 1.0) * Sn;
      }
      if (bad[s]) {
        ++nbad;
        if (first < 0) first = s;
      }
    }
    if (!nbad) return 0;
    if (nbad < fewest) fewest = nbad, stalled = 0;
    else ++stalled;
    if (stalled < 3) {
      for (int s = 0; s < ns; ++s)
        if (bad[s]) forced[s] ^= 1;
    } else {
      forced[first] ^= 1;
    }
  }
  return 1;
}
