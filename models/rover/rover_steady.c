/* rover/rover_steady.c - steady rolling straight downwind and its linear
 * stability.
 *
 * Closed form (doc/rover.md): the sphere spins at Omega = V / r about
 * s2 = i2, the pendulum hangs at a fixed inclination theta (w_p = 0,
 * phi' = -Omega). Pendulum moments about p2: c g sin(theta) = b_p Omega.
 * Sphere moments about s2: friction F_x = -b_p Omega / r. System force
 * along i1: 1/2 rho A C_d (w - V)^2 = (b_r + b_p / r^2) V.
 *
 * Stability: the sphere is isotropic, so the motion depends on the sphere's
 * attitude only through the hinge axis; the 7 states (pendulum attitude
 * perturbation delta, w = C_ps w_s, phi') form a closed system with steady
 * rolling as an equilibrium. Its Jacobian is taken by central differences of
 * the reduced equations (seed eq. 17) and its eigenvalues decide. */
#include <math.h>

#include "mbdae/status.h"
#include "rover/rover.h"

int rover_steady_state(const rover_params *p, double wind, rover_steady *ss) {
  rover_mass mp;
  rover_mass_properties(p, &mp);
  double k = 0.5 * p->rho * p->area * p->c_d;
  double B = p->b_r + p->b_p / (p->r * p->r);
  double u; /* relative wind w - V */
  if (k > 0)
    u = 2.0 * B * wind / (B + sqrt(B * B + 4.0 * k * B * fabs(wind)));
  else
    u = wind;
  ss->speed = wind - u;
  ss->omega = ss->speed / p->r;
  double sn = p->b_p * ss->omega / (mp.c * p->g);
  if (!(fabs(sn) <= 1.0)) return MBDAE_ERR_PARAMETER;
  ss->theta_p = asin(sn);
  ss->power = p->b_p * ss->omega * ss->omega;
  ss->wind_force = k * u * fabs(u);
  ss->friction = -p->b_p * ss->omega / p->r;
  ss->normal = mp.m * p->g;
  return MBDAE_OK;
}

/* C-type rotation by the rotation vector d: cos I + (1 - cos) a a^T - sin a^x */
static void rotvec_c(const double d[3], double E[9]) {
  double th = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  double a[3] = {1, 0, 0};
  if (th > 0) { a[0] = d[0] / th; a[1] = d[1] / th; a[2] = d[2] / th; }
  double c = cos(th), s = sin(th);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) E[3 * i + j] = (i == j ? c : 0) + (1 - c) * a[i] * a[j];
  E[1] += s * a[2]; E[2] -= s * a[1];
  E[3] -= s * a[2]; E[5] += s * a[0];
  E[6] += s * a[1]; E[7] -= s * a[0];
}

/* xi = [delta(3), w(3), phi'] -> xi' (valid to first order about steady
 * rolling, where w_p = 0). */
static int reduced_field(const rover_params *p, const rover_mass *mp,
                         const double C0[9], const double xi[7], double out[7]) {
  double E[9], y[ROVER_N_ODE] = {0}, Cpi[9], acc[4];
  rover_state s;
  rotvec_c(xi, E);
  rover_matmul(E, C0, Cpi);
  rover_c_to_quat(Cpi, y + ROVER_O_QS); /* phi = 0: C_si = C_pi */
  for (int i = 0; i < 3; ++i) y[ROVER_O_W + i] = xi[3 + i];
  y[ROVER_O_PHID] = xi[6];
  rover_state_from_ode(p, y, &s);
  if (rover_reduced_accel(p, mp, 1e6, &s, acc, NULL) != 0) return -1;
  const double *w = xi + 3;
  double phid = xi[6];
  out[0] = w[0];
  out[1] = w[1] + phid;
  out[2] = w[2];
  /* w' = C_ps w_s' - phi' y^x C_ps w_s at phi = 0 */
  out[3] = acc[0] - phid * w[2];
  out[4] = acc[1];
  out[5] = acc[2] + phid * w[0];
  out[6] = acc[3];
  return 0;
}

int rover_steady_eigen(const rover_params *p0, double wind, double wr[7],
                       double wi[7]) {
  rover_params p = *p0;
  rover_mass mp;
  rover_steady ss;
  p.wind_speed = wind;
  rover_mass_properties(&p, &mp);
  int st = rover_steady_state(&p, wind, &ss);
  if (st != MBDAE_OK) return st;
  double C0[9], xi0[7] = {0, 0, 0, 0, ss.omega, 0, -ss.omega}, J[49];
  rover_c2(ss.theta_p, C0);
  for (int j = 0; j < 7; ++j) {
    double xp[7], xm[7], fp[7], fm[7];
    double hstep = 1e-6 * (1.0 + fabs(xi0[j]));
    for (int i = 0; i < 7; ++i) xp[i] = xm[i] = xi0[i];
    xp[j] += hstep;
    xm[j] -= hstep;
    if (reduced_field(&p, &mp, C0, xp, fp) != 0 ||
        reduced_field(&p, &mp, C0, xm, fm) != 0)
      return MBDAE_ERR_CALLBACK;
    for (int i = 0; i < 7; ++i) J[7 * i + j] = (fp[i] - fm[i]) / (2 * hstep);
  }
  if (rover_eigenvalues(7, J, wr, wi) != 0) return MBDAE_ERR_SOLVER;
  return MBDAE_OK;
}
