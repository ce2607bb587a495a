/* wheel_collision.c - the collision map Z of eq. (37) for one, or at the
 * singular points A and B two, touching contacts:
 *   plastic phase (eqs. 15, 31-34): M (V+ - V-) = sum_k N_k G_k + T_k H_k,
 *     N_k >= 0, v_n,k+ >= 0, N_k v_n,k+ = 0, Coulomb's law on v_t,k+;
 *   restitution phase (eqs. 16, 35): N*_k = beta N_k fixed,
 *     M (V* - V+) = sum_k N*_k G_k + T*_k H_k, Coulomb's law on v_t,k*.
 * Both are solved exactly by enumeration (wheel_lcp.c). */
#include <math.h>
#include <string.h>

#include "wheel/wheel.h"

enum { NZ = 2 * WHEEL_NC };

static void apply_impulse(const wheel_params *p, const wheel_frame *f,
                          const double *z, double *v) {
  for (int k = 0; k < WHEEL_NC; ++k) {
    double N = z[k], T = z[WHEEL_NC + k];
    v[0] += (N * f[k].n[0] + T * f[k].t[0]) / p->m;
    v[1] += (N * f[k].n[1] + T * f[k].t[1]) / p->m;
    v[2] += T * p->r / p->J;
  }
}

static double kinetic(const wheel_params *p, const double *v) {
  return 0.5 * p->m * (v[0] * v[0] + v[1] * v[1]) + 0.5 * p->J * v[2] * v[2];
}

/* b = (v_n, v_t) of every contact for the velocity v. */
static void contact_velocities(const wheel_params *p, const wheel_frame *f,
                               const double *v, double *b) {
  for (int k = 0; k < WHEEL_NC; ++k) {
    b[k] = f[k].n[0] * v[0] + f[k].n[1] * v[1];
    b[WHEEL_NC + k] = f[k].t[0] * v[0] + f[k].t[1] * v[1] + p->r * v[2];
  }
}

int wheel_collide(const wheel_params *p, const double *q, double *v,
                  const int *touching, const int *seg, wheel_collision *c) {
  wheel_frame f[WHEEL_NC];
  double W[NZ * NZ], b[NZ];
  int allowed[WHEEL_NC];
  memset(c, 0, sizeof *c);
  for (int k = 0; k < WHEEL_NC; ++k) {
    wheel_frame_eval(p, k, q[0], q[1], seg ? seg[k] : 0, &f[k]);
    allowed[k] = touching[k] ? WHEEL_ALLOW_ALL : 0;
    if (touching[k] && c->ncontacts < 2) {
      c->contact[c->ncontacts] = k;
      c->seg[c->ncontacts] = f[k].seg;
      c->ncontacts++;
    }
  }
  wheel_delassus(p, f, W);
  contact_velocities(p, f, v, b);
  double vscale = fabs(v[0]) + fabs(v[1]) + p->r * fabs(v[2]) + 1e-12;
  double wtol = 1e-10 * vscale, ztol = 1e-10 * p->m * vscale;
  memcpy(c->v_minus, v, 3 * sizeof *v);
  c->energy_before = kinetic(p, v);
  if (wheel_lcp_solve(W, b, p->mu, allowed, ztol, wtol, &c->plastic)) return 1;
  apply_impulse(p, f, c->plastic.z, v);
  memcpy(c->v_plus, v, 3 * sizeof *v);
  if (p->beta > 0.0) {
    double Nfix[WHEEL_NC];
    for (int k = 0; k < WHEEL_NC; ++k) Nfix[k] = p->beta * c->plastic.z[k];
    contact_velocities(p, f, v, b);
    if (wheel_friction_solve(W, b, p->mu, Nfix, ztol, wtol, &c->restitution))
      return 1;
    apply_impulse(p, f, c->restitution.z, v);
  }
  memcpy(c->v_star, v, 3 * sizeof *v);
  c->energy_after = kinetic(p, v);
  return 0;
}
