/* wheel_cases.c - validation of the wheel at a curb (Grzesikiewicz and
 * Zbiciak 2020, doc/wheel.md) against closed forms derived here,
 * independently of the model code. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "wheel/wheel.h"

typedef struct wheel_watch {
  const wheel_params *p;
  double E_low, rise;       /* lowest energy so far, largest rise above it */
  double E0, dev;           /* initial energy, largest |E - E0| */
  double t_transition, vx_transition;
  int transitions;
} wheel_watch;

static int watch(double t, const double *y, const double *yp,
                 const mbdae_event_record *ev, void *ud) {
  (void)yp;
  wheel_watch *w = ud;
  double E = wheel_energy(w->p, y);
  if (E < w->E_low) w->E_low = E;
  if (E - w->E_low > w->rise) w->rise = E - w->E_low;
  if (fabs(E - w->E0) > w->dev) w->dev = fabs(E - w->E0);
  if (ev && ev->ndata > 0 && ev->data[WHEEL_EV_KIND] == WHEEL_EVK_TRANSITION &&
      w->transitions++ == 0) {
    w->t_transition = t;
    w->vx_transition = y[WHEEL_VX];
  }
  return 0;
}

/* Run the wheel with CVODE BDF from t = 0 to t_end; y receives the end state. */
static int run_wheel(const wheel_params *p, double t_end, wheel_watch *ww,
                     double *y, wheel_model **out) {
  wheel_model *w = NULL;
  int rc = wheel_create(p, MBDAE_LINSOL_DENSE, &w);
  if (rc) return rc;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  o.t_end = t_end;
  o.dt_out = 0.005;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.observer = watch;
  o.observer_data = ww;
  rc = wheel_initial_state(w, 0.0, y);
  memset(ww, 0, sizeof *ww);
  ww->p = &w->p;
  ww->E0 = ww->E_low = wheel_energy(p, y);
  if (!rc) rc = mbdae_run(w->problem, &o, y, NULL, NULL, NULL, 0);
  if (rc || !out) wheel_free(&w);
  else *out = w;
  return rc;
}

static int slide_to_roll(mbdae_validation_report *rep) {
  /* on IV: v_t = xd + r phid changes at mu g (1 + m r^2/J) until it vanishes */
  wheel_params p;
  wheel_params_default(&p);
  p.x0[0] = 2.0; p.x0[1] = p.r; p.x0[2] = 0.0;
  p.v0[0] = 3.0; p.v0[1] = 0.0; p.v0[2] = 0.0;
  double ts = 3.0 / (p.mu * p.g * (1.0 + p.m * p.r * p.r / p.J));
  double vs = 3.0 - p.mu * p.g * ts;
  wheel_watch ww;
  double y[WHEEL_N];
  int rc = run_wheel(&p, 0.5, &ww, y, NULL);
  if (rc) return rc;
  mbdae_validation_add(rep, "slide->roll time [s]", ts, ww.t_transition, 1e-7, 1);
  mbdae_validation_add(rep, "rolling speed [m/s]", vs, ww.vx_transition, 1e-7, 1);
  mbdae_validation_add(rep, "v + r phid after rolling onset [m/s]", 0.0,
                       y[WHEEL_VX] + p.r * y[WHEEL_W], 1e-9, 0);
  return 0;
}

static int landing(mbdae_validation_report *rep) {
  /* eqs. (43)-(55), eq. (46) with yd: P_n = -m yd-, friction sticks if
   * |v_t-| <= mu P_n (1/m + r^2/J); restitution P_n* = beta P_n */
  static const double vms[2][3] = {{-5.0, -3.3096, 0.0}, {0.5, -3.0, 2.0}};
  static const double betas[2] = {0.0, 0.3};
  for (int c = 0; c < 2; ++c)
    for (int b = 0; b < 2; ++b) {
      wheel_params p;
      wheel_params_default(&p);
      p.beta = betas[b];
      const double *vm = vms[c];
      double k = 1.0 / p.m + p.r * p.r / p.J, Pn = -p.m * vm[1];
      double vt = vm[0] + p.r * vm[2];
      int stick = fabs(vt) <= p.mu * Pn * k;
      double Pt = stick ? -vt / k : -p.mu * Pn * (vt > 0 ? 1 : -1);
      double vx = vm[0] + Pt / p.m, w = vm[2] + p.r * Pt / p.J;
      double Ps = p.beta * Pn, vtp = vx + p.r * w, Pts = 0.0;
      if (Ps > 0.0)
        Pts = fabs(vtp) <= p.mu * Ps * k ? -vtp / k : -p.mu * Ps * (vtp > 0 ? 1 : -1);
      double ref[3] = {vx + Pts / p.m, Ps / p.m, w + p.r * Pts / p.J};
      double q[2] = {0.7, p.r}, v[3] = {vm[0], vm[1], vm[2]};
      int touching[3] = {0, 0, 1};
      wheel_collision col;
      if (wheel_collide(&p, q, v, touching, NULL, &col)) return -1;
      static const char *const nm[3] = {"xd*", "yd*", "phid*"};
      for (int i = 0; i < 3; ++i) {
        char qn[96];
        snprintf(qn, sizeof qn, "landing %s, beta %.1f: %s", stick ? "stick" : "slip",
                 p.beta, nm[i]);
        mbdae_validation_add(rep, qn, ref[i], v[i], 1e-12, 0);
      }
    }
  return 0;
}

static int corner_b(mbdae_validation_report *rep) {
  /* B with zero translational velocity and phid > 0 (eqs. 82-94), unit
   * normal n_K = (sin th, cos th), unit tangent; both contacts slip */
  static const double mus[2] = {0.4, 2.0};
  for (int i = 0; i < 2; ++i) {
    wheel_params p;
    wheel_params_default(&p);
    double l1, a;
    wheel_geometry(&p, &l1, &a);
    double mu = p.mu = mus[i];
    p.x0[0] = l1 + a; p.x0[1] = p.r; p.x0[2] = 0.0;
    p.v0[0] = 0.0; p.v0[1] = 0.0; p.v0[2] = 20.0;
    double s = a / p.r, c = (p.r - p.h) / p.r, fB = -a / sqrt(p.r * p.r - a * a);
    int spin = 1.0 + fB * fB > 1.0 - mu * fB; /* |G|^2 > gamma_1: (94b) */
    wheel_model *w = NULL;
    double y[WHEEL_N], acc[3], z[6];
    if (wheel_create(&p, MBDAE_LINSOL_DENSE, &w)) return -1;
    int rc = wheel_initial_state(w, 0.0, y);
    if (!rc) rc = wheel_mode_accel(&w->p, &w->mode, y, acc, z, NULL);
    wheel_free(&w);
    if (rc) return -1;
    char qn[96];
    if (spin) {
      double NK = p.m * p.g / (c + mu * s + (s - mu * c) / mu), NG = NK * (s - mu * c) / mu;
      snprintf(qn, sizeof qn, "B, mu %.1f (94b spin): N_curb [N]", mu);
      mbdae_validation_add(rep, qn, NK, z[WHEEL_CURB], 1e-12, 1);
      snprintf(qn, sizeof qn, "B, mu %.1f (94b spin): N_ground [N]", mu);
      mbdae_validation_add(rep, qn, NG, z[WHEEL_GROUND], 1e-12, 1);
      snprintf(qn, sizeof qn, "B, mu %.1f (94b spin): phidd [rad/s^2]", mu);
      mbdae_validation_add(rep, qn, -p.r * mu * (NK + NG) / p.J, acc[2], 1e-12, 1);
      snprintf(qn, sizeof qn, "B, mu %.1f (94b spin): ydd [m/s^2]", mu);
      mbdae_validation_add(rep, qn, 0.0, acc[1], 1e-12, 0);
    } else {
      snprintf(qn, sizeof qn, "B, mu %.1f (94c climb): N_curb [N]", mu);
      mbdae_validation_add(rep, qn, p.m * p.g * c, z[WHEEL_CURB], 1e-6, 1);
      snprintf(qn, sizeof qn, "B, mu %.1f (94c climb): N_ground [N]", mu);
      mbdae_validation_add(rep, qn, 0.0, z[WHEEL_GROUND], 1e-12, 0);
      snprintf(qn, sizeof qn, "B, mu %.1f (94c climb): xdd [m/s^2]", mu);
      mbdae_validation_add(rep, qn, p.g * c * (s - mu * c), acc[0], 1e-6, 1);
      snprintf(qn, sizeof qn, "B, mu %.1f (94c climb): ydd [m/s^2]", mu);
      mbdae_validation_add(rep, qn, -p.g + p.g * c * (c + mu * s), acc[1], 1e-6, 1);
    }
  }
  return 0;
}

static int paper_energy(mbdae_validation_report *rep) {
  /* section 6.3, t in (0, 1]: energy never rises; mu = 0, beta = 1 keeps it */
  static const double betas[2] = {0.0, 0.3};
  for (int b = 0; b < 2; ++b) {
    wheel_params p;
    wheel_params_default(&p);
    p.beta = betas[b];
    wheel_watch ww;
    double y[WHEEL_N];
    wheel_model *w = NULL;
    int rc = run_wheel(&p, 1.0, &ww, y, &w);
    if (rc) return rc;
    char qn[96];
    snprintf(qn, sizeof qn, "sec. 6.3 beta %.1f: largest energy rise / E0", p.beta);
    mbdae_validation_add(rep, qn, 0.0, ww.rise / ww.E0, 1e-7, 0);
    if (p.beta == 0.0)
      mbdae_validation_add(rep, "sec. 6.3 beta 0: max |v_n+| after collisions [m/s]", 0.0,
                           w->max_post_vn, 1e-12, 0);
    wheel_free(&w);
  }
  wheel_params p;
  wheel_params_default(&p);
  p.mu = 0.0;
  p.beta = 1.0;
  wheel_watch ww;
  double y[WHEEL_N];
  int rc = run_wheel(&p, 1.0, &ww, y, NULL);
  if (rc) return rc;
  mbdae_validation_add(rep, "mu 0, beta 1: max |E - E0| / E0", 0.0, ww.dev / ww.E0, 1e-7, 0);
  return 0;
}

const mbdae_validation_case mbdae_validation_wheel[] = {
  {"wheel_slide_to_roll", "wheel sliding on the ground: rolling onset at mu g (1 + m r^2/J)",
   slide_to_roll},
  {"wheel_landing", "collision on the ground, eqs. 43-55: stick/slip, beta 0 and 0.3",
   landing},
  {"wheel_corner_b", "corner B, phid > 0, zero velocity: spin in place (94b) or climb (94c)",
   corner_b},
  {"wheel_energy", "section 6.3 runs: energy never rises; mu 0, beta 1: conserved",
   paper_energy},
  {NULL, NULL, NULL},
};
