/* rover/rover_params.c - Table 1 of the seed (section 10) as defaults, the
 * physical checks, and the pendulum's mass properties in both variants of
 * the table (printed / consistent, see SEEDS.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/status.h"
#include "rover/rover.h"

void rover_params_default(rover_params *p) {
  memset(p, 0, sizeof *p);
  p->g = 9.81;
  p->r = 1.0;
  p->m_s = 5.0;
  p->k_s = 0.4;          /* Table 1: J_s = 2/5 m_s r^2 */
  p->l = 0.9;
  p->w = 0.025;
  p->h = 0.1;
  p->m_r = 5.0;
  p->m_c = 30.0;
  p->table = ROVER_TABLE_CONSISTENT;
  p->b_p = 1.5;
  p->b_r = 3.5;
  p->b_s = 3.5;          /* b_s = r^2 b_r */
  p->rho = 1.2;
  p->area = 3.141592653589793; /* pi r^2 */
  p->c_d = 0.5;
  p->wind_speed = 30.0 / 3.6;
  p->wind_tau = 2.0;
  p->omega0[1] = 5.0;
}

static int fail(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

int rover_params_check(const rover_params *p, mbdae_param_error *err) {
  struct { const char *key; double v; } pos[] = {
    {"g", p->g}, {"r", p->r}, {"m_s", p->m_s}, {"k_s", p->k_s}, {"l", p->l},
    {"m_r", p->m_r}, {"m_c", p->m_c}, {"b_p", p->b_p}, {"b_r", p->b_r},
    {"b_s", p->b_s}, {"wind_tau", p->wind_tau}};
  for (size_t i = 0; i < sizeof pos / sizeof pos[0]; ++i)
    if (!isfinite(pos[i].v) || !(pos[i].v > 0))
      return fail(err, pos[i].key, "must be finite and > 0 (masses, damping "
                                   "and lengths are positive)");
  struct { const char *key; double v; } nonneg[] = {
    {"w", p->w}, {"h", p->h}, {"rho", p->rho}, {"area", p->area},
    {"c_d", p->c_d}};
  for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; ++i)
    if (!isfinite(nonneg[i].v) || nonneg[i].v < 0)
      return fail(err, nonneg[i].key, "must be finite and >= 0");
  const double *vals[] = {&p->wind_speed, &p->phidot0, &p->phi0,
                          &p->omega0[0], &p->omega0[1], &p->omega0[2],
                          &p->euler0[0], &p->euler0[1], &p->euler0[2],
                          &p->pos0[0], &p->pos0[1]};
  const char *keys[] = {"wind_speed", "phidot0", "phi0", "omega0", "omega0",
                        "omega0", "euler0", "euler0", "euler0", "pos0", "pos0"};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; ++i)
    if (!isfinite(*vals[i])) return fail(err, keys[i], "must be finite");
  if (p->table != ROVER_TABLE_PRINTED && p->table != ROVER_TABLE_CONSISTENT)
    return fail(err, "table", "must be 'printed' or 'consistent'");
  if (p->l > p->r)
    return fail(err, "l", "the pendulum is longer than the sphere radius r");
  if (p->l + 0.5 * p->h > p->r)
    return fail(err, "h", "the payload cube (l + h/2) reaches outside the sphere");
  return MBDAE_OK;
}

/* Table 1: c_r = -1/2 m_r l z, J_r = diag(m_r (4l^2 + w^2)/12 (x2),
 * m_r w^2 / 6); cube at distance l: c_c = -m_c l z (printed: -1/2 m_c l z),
 * J_c = diag(m_c (h^2 + 6 l^2)/6 (x2), m_c h^2 / 6) (printed: w for h in
 * the third entry). */
void rover_mass_properties(const rover_params *p, rover_mass *mp) {
  int printed = p->table == ROVER_TABLE_PRINTED;
  mp->m_p = p->m_r + p->m_c;
  mp->m = p->m_s + mp->m_p;
  mp->c = 0.5 * p->m_r * p->l + (printed ? 0.5 : 1.0) * p->m_c * p->l;
  mp->J_s = p->k_s * p->m_s * p->r * p->r;
  double jr = p->m_r * (4 * p->l * p->l + p->w * p->w) / 12.0;
  double jc = p->m_c * (p->h * p->h + 6 * p->l * p->l) / 6.0;
  double jc3 = p->m_c * (printed ? p->w * p->w : p->h * p->h) / 6.0;
  mp->J_p[0] = jr + jc;
  mp->J_p[1] = jr + jc;
  mp->J_p[2] = p->m_r * p->w * p->w / 6.0 + jc3;
}
