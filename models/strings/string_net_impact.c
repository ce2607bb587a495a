/* string_net_impact.c - impacts along the strings: one impulse problem for
 * all strings hit at once (capps App. I eqs. 6.14-6.20, generalised to a
 * network). */
#include "strings/string_net_internal.h"

#include <math.h>

#include "mbdae/status.h"

/* V += M^-1 G x (G columns: grad phi_s). */
static void apply_impulses(const sn_net *net, const double *R, const double *x, double *V) {
  for (int s = 0; s < net->ns; ++s) {
    if (x[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      V[3 * j + c] += 2.0 * x[s] * S[c] / net->m[j];
      V[3 * i + c] -= 2.0 * x[s] * S[c] / net->m[i];
    }
  }
}

/* App. I eqs. 6.14-6.20 generalised to a network: one impulse problem. */
int sn_net_impact(sn_net *net, const double *R, double *V,
                  const unsigned char *impacting, double *p) {
  sn_workspace *w = net->ws;
  int ns = net->ns;
  double E0 = sn_kinetic_energy(net, V);
  net->last_energy_loss = 0.0;
  net->last_impulse = 0.0;
  if (ns == 0) return 0;
  unsigned char *set = w->mask;
  for (int s = 0; s < ns; ++s) set[s] = (impacting[s] || net->taut[s]) ? 1 : 0;
  double *x = w->lam;
  for (int iter = 0; iter <= ns; ++iter) {
    int rc = sn_factor_A(net, R, set);
    if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
    for (int s = 0; s < ns; ++s) {
      x[s] = 0.0;
      if (!set[s]) continue;
      double S[3], W[3];
      str_SW(net, s, R, V, S, W);
      double c = dot3(S, W);
      double e = (impacting[s] == 1) ? net->s[s].e : 0.0; /* 2: plastic */
      x[s] = (impacting[s] ? -e * c : 0.0) - c;
    }
    if (sn_solve_A(net, x)) return MBDAE_ERR_SOLVER;
    int dropped = 0;
    for (int s = 0; s < ns; ++s)
      if (set[s] && x[s] > 0.0) { /* would push: the string goes slack */
        set[s] = 0;
        dropped = 1;
      }
    if (!dropped) break;
  }
  apply_impulses(net, R, x, V);
  for (int s = 0; s < ns; ++s) {
    if (p) p[s] = x[s];
    if (fabs(x[s]) > net->last_impulse) {
      double S[3];
      str_SW(net, s, R, NULL, S, NULL);
      net->last_impulse = fabs(2.0 * x[s]) * sqrt(dot3(S, S));
    }
  }
  net->last_energy_loss = E0 - sn_kinetic_energy(net, V);
  return 0;
}
