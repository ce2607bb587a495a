/* string_net_forces.c - what acts on the points: the applied force callback
 * (and its gravity + drag instance), each string's constraint phi, phi',
 * gradient and tension (capps eqs. 2.7, 2.13, 2.16), and the net's kinetic
 * energy and momentum. */
#include "strings/string_net_internal.h"

#include <math.h>
#include <string.h>

int sn_force_gravity_drag(int k, double t, const double r[3], const double v[3],
                          double f[3], double dfdr[9], double dfdv[9], void *user) {
  (void)t;
  (void)r;
  const sn_gravity_drag *gd = user;
  for (int c = 0; c < 3; ++c) f[c] = gd->m[k] * gd->g[c] - gd->c * v[c];
  if (dfdr) memset(dfdr, 0, 9 * sizeof(double));
  if (dfdv) {
    memset(dfdv, 0, 9 * sizeof(double));
    for (int c = 0; c < 3; ++c) dfdv[4 * c] = -gd->c;
  }
  return 0;
}

double sn_phi(const sn_net *net, int s, const double *R) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  return dot3(S, S) - net->s[s].L * net->s[s].L; /* capps eq. 2.7 */
}

double sn_phi_dot(const sn_net *net, int s, const double *R, const double *V) {
  double S[3], W[3];
  str_SW(net, s, R, V, S, W);
  return 2.0 * dot3(S, W); /* capps eq. 2.13 */
}

void sn_grad(const sn_net *net, int s, const double *R, double g[3]) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  for (int c = 0; c < 3; ++c) g[c] = 2.0 * S[c];
}

double sn_tension(const sn_net *net, int s, const double *R, double lambda) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  return -2.0 * lambda * sqrt(dot3(S, S));
}

int sn_eval_forces(sn_net *net, double t, const double *R, const double *V,
                   const double *fext, double *F) {
  for (int k = 0; k < net->np; ++k) {
    double *f = F + 3 * k;
    if (net->force.fn) {
      int rc = net->force.fn(k, t, R + 3 * k, V + 3 * k, f, NULL, NULL, net->force.user);
      if (rc) return rc;
    } else {
      f[0] = f[1] = f[2] = 0.0;
    }
    if (fext)
      for (int c = 0; c < 3; ++c) f[c] += fext[3 * k + c];
  }
  return 0;
}

double sn_kinetic_energy(const sn_net *net, const double *V) {
  double E = 0.0;
  for (int k = 0; k < net->np; ++k) E += 0.5 * net->m[k] * dot3(V + 3 * k, V + 3 * k);
  return E;
}

void sn_momentum(const sn_net *net, const double *V, double p[3]) {
  p[0] = p[1] = p[2] = 0.0;
  for (int k = 0; k < net->np; ++k)
    for (int c = 0; c < 3; ++c) p[c] += net->m[k] * V[3 * k + c];
}

