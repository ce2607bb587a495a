/* wheel_model.c - the wheel as a hybrid ODE: contact modes, right-hand side,
 * exact Jacobian, roots (gaps, normal forces, friction cone, slip velocity,
 * the II/III boundary) and the event map (collisions, then the choice of the
 * new contact mode at acceleration level). See doc/wheel.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wheel/wheel.h"
#include "mbdae/status.h"

enum { NZ = 2 * WHEEL_NC };

void wheel_params_default(wheel_params *p) {
  /* section 6.3 of the paper */
  p->m = 10.0;
  p->J = 0.05;
  p->r = 0.1;
  p->h = 0.05;
  p->l = 0.5;
  p->g = 9.81;
  p->mu = 0.4;
  p->beta = 0.0;
  p->x0[0] = 0.8; p->x0[1] = 0.2; p->x0[2] = 0.0;
  p->v0[0] = -5.0; p->v0[1] = -3.0; p->v0[2] = 0.0;
  p->zeno_velocity = 1e-3;
}

static int param_error(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

int wheel_params_check(const wheel_params *p, mbdae_param_error *err) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  const double v[] = {p->m, p->J, p->r, p->h, p->l, p->g, p->mu, p->beta,
                      p->x0[0], p->x0[1], p->x0[2], p->v0[0], p->v0[1],
                      p->v0[2], p->zeno_velocity};
  const char *k[] = {"m", "J", "r", "h", "l", "g", "mu", "beta", "x0", "x0",
                     "x0", "v0", "v0", "v0", "zeno_velocity"};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
    if (!isfinite(v[i])) return param_error(err, k[i], "must be finite");
  if (!(p->m > 0.0)) return param_error(err, "m", "mass must be > 0");
  if (!(p->J > 0.0)) return param_error(err, "J", "moment of inertia must be > 0");
  if (!(p->r > 0.0)) return param_error(err, "r", "radius must be > 0");
  if (!(p->g > 0.0)) return param_error(err, "g", "gravity must be > 0");
  /* eq. (4b): a = sqrt(r^2 - (r - h)^2) and the corner circle need h < r;
   * a higher curb would touch the wheel with its vertical face */
  if (!(p->h > 0.0 && p->h < p->r))
    return param_error(err, "h", "curb height must satisfy 0 < h < r "
                                 "(rounded-corner model of eq. 4)");
  if (!(p->l > 2.0 * p->r))
    return param_error(err, "l", "need l > 2 r: the raised level (segment II, "
                                 "r < x <= l - r) must have positive length");
  if (!(p->mu >= 0.0)) return param_error(err, "mu", "friction coefficient must be >= 0");
  if (!(p->beta >= 0.0 && p->beta <= 1.0))
    return param_error(err, "beta", "restitution coefficient must be in [0, 1]");
  if (!(p->zeno_velocity >= 0.0))
    return param_error(err, "zeno_velocity", "must be >= 0");
  if (wheel_min_gap(p, p->x0[0], p->x0[1]) < -1e-9 * p->r)
    return param_error(err, "x0", "initial wheel centre lies outside Omega "
                                  "(eqs. 3-4: x >= r, y >= Phi(x))");
  return MBDAE_OK;
}

double wheel_energy(const wheel_params *p, const double *y) {
  return 0.5 * p->m * (y[WHEEL_VX] * y[WHEEL_VX] + y[WHEEL_VY] * y[WHEEL_VY]) +
         0.5 * p->J * y[WHEEL_W] * y[WHEEL_W] + p->m * p->g * y[WHEEL_Y];
}

static const char *state_name(int s) {
  static const char *const names[] = {"sep", "stick", "slip+", "slip-"};
  return (s >= 0 && s < 4) ? names[s] : "?";
}

static void update_mode_name(wheel_model *w) {
  const wheel_mode *md = &w->mode;
  char buf[64] = "";
  size_t len = 0;
  for (int k = 0; k < WHEEL_NC; ++k) {
    if (md->state[k] == WHEEL_SEP) continue;
    int seg = k == WHEEL_WALL ? WHEEL_SEG_I
              : k == WHEEL_GROUND ? WHEEL_SEG_IV : md->curb_seg;
    int n = snprintf(buf + len, sizeof buf - len, "%s%s:%s", len ? "+" : "",
                     wheel_segment_name(seg), md->locked ? "locked" : state_name(md->state[k]));
    if (n < 0 || (size_t)n >= sizeof buf - len) break;
    len += (size_t)n;
  }
  snprintf(w->mode_name, sizeof w->mode_name, "%s", len ? buf : "free");
}

static const char *mode_name_cb(void *user_data) {
  return ((wheel_model *)user_data)->mode_name;
}

/* ------------------------------------------------------------------ RHS */

static int accel(const wheel_model *w, const double *y, double *acc, double *z,
                 double *dacc) {
  if (w->mode.locked) { /* at rest at a corner: nothing moves */
    for (int i = 0; i < 3; ++i) acc[i] = 0.0;
    if (z) memcpy(z, w->mode.z_locked, sizeof w->mode.z_locked);
    if (dacc) memset(dacc, 0, 12 * sizeof *dacc);
    return 0;
  }
  return wheel_mode_accel(&w->p, &w->mode, y, acc, z, dacc);
}

int wheel_rhs(double t, const double *y, double *f, void *user_data) {
  (void)t;
  const wheel_model *w = user_data;
  double acc[3];
  if (accel(w, y, acc, NULL, NULL)) return 1;
  f[WHEEL_X] = y[WHEEL_VX];
  f[WHEEL_Y] = y[WHEEL_VY];
  f[WHEEL_PHI] = y[WHEEL_W];
  f[WHEEL_VX] = acc[0];
  f[WHEEL_VY] = acc[1];
  f[WHEEL_W] = acc[2];
  return 0;
}

/* the accelerations depend on (x, y, xd, yd) only: dual index -> column */
static const int dual_col[4] = {WHEEL_X, WHEEL_Y, WHEEL_VX, WHEEL_VY};

int wheel_jac_dense(double t, double cj, const double *y, const double *yp,
                    double *J, void *user_data) {
  (void)t; (void)cj; (void)yp;
  const wheel_model *w = user_data;
  double acc[3], dacc[12];
  if (accel(w, y, acc, NULL, dacc)) return 1;
  const int n = WHEEL_N;
  J[WHEEL_VX * n + WHEEL_X] = 1.0;
  J[WHEEL_VY * n + WHEEL_Y] = 1.0;
  J[WHEEL_W * n + WHEEL_PHI] = 1.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) J[dual_col[j] * n + WHEEL_VX + i] = dacc[i * 4 + j];
  return 0;
}

/* CSC pattern (every diagonal entry included). */
static const mbdae_index wheel_colptr[WHEEL_N + 1] = {0, 4, 8, 9, 13, 17, 19};
static const mbdae_index wheel_rowind[19] = {0, 3, 4, 5,  1, 3, 4, 5,  2,
                                             0, 3, 4, 5,  1, 3, 4, 5,  2, 5};

int wheel_jac_sparse(double t, double cj, const double *y, const double *yp,
                     double *vals, void *user_data) {
  (void)t; (void)cj; (void)yp;
  const wheel_model *w = user_data;
  double acc[3], dacc[12];
  if (accel(w, y, acc, NULL, dacc)) return 1;
  /* column x: rows 0,3,4,5 */
  vals[0] = 0.0;
  for (int i = 0; i < 3; ++i) vals[1 + i] = dacc[i * 4 + 0];
  vals[4] = 0.0; /* column y */
  for (int i = 0; i < 3; ++i) vals[5 + i] = dacc[i * 4 + 1];
  vals[8] = 0.0; /* column phi */
  vals[9] = 1.0; /* column xd */
  for (int i = 0; i < 3; ++i) vals[10 + i] = dacc[i * 4 + 2];
  vals[13] = 1.0; /* column yd */
  for (int i = 0; i < 3; ++i) vals[14 + i] = dacc[i * 4 + 3];
  vals[17] = 1.0; /* column phid */
  vals[18] = 0.0;
  return 0;
}

/* ---------------------------------------------------------------- roots */

static int frame_seg_hint(const wheel_model *w, int k) {
  return (k == WHEEL_CURB && w->mode.state[k] != WHEEL_SEP) ? w->mode.curb_seg : 0;
}

int wheel_roots(double t, const double *y, const double *yp, double *g,
                void *user_data) {
  (void)t; (void)yp;
  const wheel_model *w = user_data;
  const wheel_params *p = &w->p;
  double acc[3], z[NZ];
  for (int i = 0; i < WHEEL_NROOTS; ++i) g[i] = 1.0;
  if (accel(w, y, acc, z, NULL)) return 1;
  if (w->mode.locked) return 0;
  for (int k = 0; k < WHEEL_NC; ++k) {
    wheel_frame f;
    wheel_frame_eval(p, k, y[WHEEL_X], y[WHEEL_Y], frame_seg_hint(w, k), &f);
    int st = w->mode.state[k];
    double N = z[k], T = z[WHEEL_NC + k];
    if (st == WHEEL_SEP) {
      g[4 * k] = f.gap; /* contact or collision */
      continue;
    }
    g[4 * k + 1] = N; /* lift-off */
    if (p->mu == 0.0) continue; /* no friction: the tangential state is moot */
    if (st == WHEEL_STICK) { /* leaving the friction cone */
      g[4 * k + 2] = p->mu * N - T;
      g[4 * k + 3] = p->mu * N + T;
    } else { /* slip velocity through zero */
      double sigma = st == WHEEL_SLIP_POS ? 1.0 : -1.0;
      double vt = f.t[0] * y[WHEEL_VX] + f.t[1] * y[WHEEL_VY] + p->r * y[WHEEL_W];
      g[4 * k + 2] = sigma * vt;
    }
  }
  /* II <-> III, positive on the current segment: like every root here it
   * falls through zero at its event, and the new mode starts on the
   * positive side (the engine's mask expects the state to leave a handled
   * root on the side it came from) */
  if (w->mode.state[WHEEL_CURB] != WHEEL_SEP)
    g[WHEEL_ROOT_SEGMENT] = w->mode.curb_seg == WHEEL_SEG_III ? y[WHEEL_X] - w->l1
                                                              : w->l1 - y[WHEEL_X];
  return 0;
}

/* ----------------------------------------------------------- event map */

/* The curb's segment at a state: by x, or near x = l1 by the direction of
 * motion (the side the centre is moving into). */
static int curb_segment(const wheel_model *w, const double *y) {
  double dx = y[WHEEL_X] - w->l1;
  if (fabs(dx) <= 1e-9 * (1.0 + fabs(w->l1)))
    return y[WHEEL_VX] > 0.0 ? WHEEL_SEG_III : WHEEL_SEG_II;
  return dx > 0.0 ? WHEEL_SEG_III : WHEEL_SEG_II;
}

static void fill_collision_info(const wheel_collision *c, double dE,
                                mbdae_event_info *info) {
  double *d = info->data;
  d[WHEEL_EV_KIND] = WHEEL_EVK_COLLISION;
  for (int i = 0; i < 2; ++i) {
    int k = i < c->ncontacts ? c->contact[i] : -1;
    d[WHEEL_EV_SEG1 + i] = k >= 0 ? c->seg[i] : 0;
    d[WHEEL_EV_STATE1 + i] = k >= 0 ? c->plastic.state[k] : 0;
    d[WHEEL_EV_PN1 + i] = k >= 0 ? c->plastic.z[k] : 0.0;
    d[WHEEL_EV_PT1 + i] = k >= 0 ? c->plastic.z[WHEEL_NC + k] : 0.0;
    d[WHEEL_EV_RN1 + i] = k >= 0 ? c->restitution.z[k] : 0.0;
    d[WHEEL_EV_RT1 + i] = k >= 0 ? c->restitution.z[WHEEL_NC + k] : 0.0;
  }
  d[WHEEL_EV_CASES] = c->plastic.cases + c->restitution.cases;
  d[WHEEL_EV_NSOL] = c->plastic.nsol;
  d[WHEEL_EV_DENERGY] = dE;
  info->ndata = WHEEL_NEVDATA;
}

/* Zeno rule, second part: a rebound whose hop v_n^2 / (2 a) - a the normal
 * acceleration of a free flight towards the obstacle, g n_y less the
 * centripetal kappa v_t^2 at the curb's corner - stays below
 * WHEEL_GAP_RESOLUTION r is persistent contact. Below that height the
 * bounce is fed by the root guards themselves (a contact left is lifted
 * 1e-8 r, its landing located 2e-8 r deep in the dead band): with
 * zeno_velocity = 3e-5 and beta = 0.3 the corner bounces settled at a
 * constant 7.3e-5 m/s rebound (doc/wheel.md, "Zeno rule"). */
static int hop_unresolved(const wheel_params *p, const wheel_frame *f, const double *y,
                          double vn) {
  double s = f->t[0] * y[WHEEL_VX] + f->t[1] * y[WHEEL_VY];
  double a = p->g * f->n[1] - f->kappa * s * s;
  return a > 0.0 && vn * vn < 2.0 * a * WHEEL_GAP_RESOLUTION * p->r;
}

int wheel_resolve(wheel_model *w, double *y, mbdae_event_info *info) {
  const wheel_params *p = &w->p;
  double gap_tol = 1e-7 * p->r, vtol_rel = 1e-9;
  int collided = 0;
  wheel_frame f[WHEEL_NC];
  int touching[WHEEL_NC], seg[WHEEL_NC];
  double vn[WHEEL_NC];
  for (int pass = 0;; ++pass) {
    double vscale = fabs(y[WHEEL_VX]) + fabs(y[WHEEL_VY]) + p->r * fabs(y[WHEEL_W]);
    double vtol = vtol_rel * (vscale + sqrt(p->g * p->r));
    int approaching = 0;
    for (int k = 0; k < WHEEL_NC; ++k) {
      seg[k] = k == WHEEL_CURB ? curb_segment(w, y) : 0;
      wheel_frame_eval(p, k, y[WHEEL_X], y[WHEEL_Y], seg[k], &f[k]);
      /* a contact held in the current mode stays touching despite drift */
      double tol = w->mode.state[k] != WHEEL_SEP ? 1e-5 * p->r : gap_tol;
      touching[k] = f[k].gap <= tol;
      vn[k] = f[k].n[0] * y[WHEEL_VX] + f[k].n[1] * y[WHEEL_VY];
      if (touching[k] && vn[k] < -vtol) approaching = 1;
    }
    if (!approaching) break;
    if (pass >= 8) return MBDAE_ERR_SOLVER; /* collisions do not settle */
    wheel_collision c;
    double E0 = wheel_energy(p, y);
    if (wheel_collide(p, y, y + WHEEL_VX, touching, seg, &c)) return MBDAE_ERR_SOLVER;
    double dE = wheel_energy(p, y) - E0;
    w->collisions++;
    if (dE > w->max_energy_gain) w->max_energy_gain = dE;
    if (c.plastic.cases + c.restitution.cases > w->max_cases)
      w->max_cases = c.plastic.cases + c.restitution.cases;
    if (p->beta == 0.0) { /* eq. (15a): v_n+ = 0 on every impacting contact */
      for (int k = 0; k < WHEEL_NC; ++k)
        if (touching[k] && c.plastic.z[k] > 0.0) {
          double vnp = f[k].n[0] * y[WHEEL_VX] + f[k].n[1] * y[WHEEL_VY];
          if (fabs(vnp) > w->max_post_vn) w->max_post_vn = fabs(vnp);
        }
    }
    if (info) fill_collision_info(&c, dE, info);
    collided = 1;
    /* Zeno rule: a rebound slower than zeno_velocity becomes persistent
     * contact (its normal velocity is removed below) */
  }
  /* contacts that hold: touching and not separating faster than the Zeno
   * threshold (or round-off) */
  double vscale = fabs(y[WHEEL_VX]) + fabs(y[WHEEL_VY]) + p->r * fabs(y[WHEEL_W]);
  double vtol = vtol_rel * (vscale + sqrt(p->g * p->r));
  double vhold = fmax(vtol, collided ? p->zeno_velocity : vtol);
  int cand[WHEEL_NC], ncand = 0;
  for (int k = 0; k < WHEEL_NC; ++k) {
    cand[k] = touching[k] && (vn[k] <= vhold || (collided && hop_unresolved(p, &f[k], y, vn[k])));
    ncand += cand[k];
  }
  /* project onto the held constraints: positions and normal velocities;
   * the move is reported (a missed contact must not be "put back") */
  if (ncand == 1) {
    for (int k = 0; k < WHEEL_NC; ++k) {
      if (!cand[k]) continue;
      mbdae_problem_report_repair(w->problem, f[k].gap, "a contact gap projected away (m)");
      y[WHEEL_X] -= f[k].gap * f[k].n[0];
      y[WHEEL_Y] -= f[k].gap * f[k].n[1];
      double v = f[k].n[0] * y[WHEEL_VX] + f[k].n[1] * y[WHEEL_VY];
      y[WHEEL_VX] -= v * f[k].n[0];
      y[WHEEL_VY] -= v * f[k].n[1];
    }
  } else if (ncand == 2) { /* singular point A or B: the centre is fixed */
    double x0 = y[WHEEL_X], y0 = y[WHEEL_Y];
    if (cand[WHEEL_WALL]) {
      y[WHEEL_X] = p->r;
      y[WHEEL_Y] = p->r + p->h;
    } else {
      y[WHEEL_X] = w->l1 + w->a;
      y[WHEEL_Y] = p->r;
    }
    mbdae_problem_report_repair(w->problem, hypot(y[WHEEL_X] - x0, y[WHEEL_Y] - y0),
                                "the centre moved onto a corner point (m)");
    y[WHEEL_VX] = y[WHEEL_VY] = 0.0;
  }
  /* the acceleration-level problem (eqs. 20-25) on the held contacts */
  double W[NZ * NZ], b[NZ];
  int allowed[WHEEL_NC];
  for (int k = 0; k < WHEEL_NC; ++k)
    wheel_frame_eval(p, k, y[WHEEL_X], y[WHEEL_Y], seg[k], &f[k]);
  wheel_delassus(p, f, W);
  double amax = p->g;
  for (int k = 0; k < WHEEL_NC; ++k) {
    double s = f[k].t[0] * y[WHEEL_VX] + f[k].t[1] * y[WHEEL_VY];
    double v = f[k].n[0] * y[WHEEL_VX] + f[k].n[1] * y[WHEEL_VY];
    double vt = s + p->r * y[WHEEL_W];
    b[k] = -p->g * f[k].n[1] + f[k].kappa * s * s;
    b[WHEEL_NC + k] = -p->g * f[k].t[1] - f[k].kappa * s * v;
    amax = fmax(amax, fabs(b[k]));
    /* a contact that was sticking keeps v_t = 0 up to the integration
     * error of the stick mode (v_t is not stabilised there) */
    double vt_zero = w->mode.state[k] == WHEEL_STICK ? 1e3 * vtol : vtol;
    if (!cand[k]) allowed[k] = 0;
    else if (fabs(vt) > vt_zero)
      allowed[k] = WHEEL_ALLOW(WHEEL_SEP) | WHEEL_SLIDING |
                   WHEEL_ALLOW(vt > 0.0 ? WHEEL_SLIP_POS : WHEEL_SLIP_NEG);
    else
      allowed[k] = WHEEL_ALLOW_ALL;
  }
  wheel_lcp_result res;
  if (wheel_lcp_solve(W, b, p->mu, allowed, 1e-9 * p->m * amax, 1e-9 * amax, &res))
    return MBDAE_ERR_SOLVER; /* no consistent contact state (Painleve) */
  wheel_mode md;
  memset(&md, 0, sizeof md);
  md.curb_seg = seg[WHEEL_CURB];
  int nstick = 0;
  for (int k = 0; k < WHEEL_NC; ++k) {
    md.state[k] = res.state[k];
    nstick += res.state[k] == WHEEL_STICK;
  }
  if (nstick == 2) { /* wedged at rest at A or B */
    md.locked = 1;
    memcpy(md.z_locked, res.z, sizeof res.z);
    y[WHEEL_W] = 0.0;
  } else {
    for (int k = 0; k < WHEEL_NC; ++k) {
      double s = f[k].t[0] * y[WHEEL_VX] + f[k].t[1] * y[WHEEL_VY];
      double vt = s + p->r * y[WHEEL_W];
      if (md.state[k] == WHEEL_STICK) { /* start sticking with v_t = 0 exactly */
        y[WHEEL_W] = -s / p->r;
      } else if (md.state[k] != WHEEL_SEP && !(allowed[k] & WHEEL_SLIDING)) {
        /* slip onset or reversal at v_t = 0: start the slip velocity a
         * negligible amount on the slip side, so its root (sigma v_t) starts
         * strictly positive and the integrator's noise cannot re-fire it */
        double sigma = md.state[k] == WHEEL_SLIP_POS ? 1.0 : -1.0;
        double dv = 1e-8 * (vscale + sqrt(p->g * p->r));
        if (sigma * vt < dv) y[WHEEL_W] += (sigma * dv - vt) / p->r;
      }
    }
  }
  /* A contact left at this event (touching, now separated) would restart
   * with its gap root exactly 0; CVODE then ignores that root until a step
   * ends with a nonzero value, and a long ballistic step can carry the gap
   * through zero unseen. Move it off the surface by a negligible distance
   * so that the root starts strictly positive. */
  for (int k = 0; k < WHEEL_NC; ++k) {
    if (md.state[k] != WHEEL_SEP || !touching[k]) continue;
    wheel_frame fk;
    wheel_frame_eval(p, k, y[WHEEL_X], y[WHEEL_Y], 0, &fk);
    double delta = 1e-8 * p->r; /* above the integrator's noise */
    if (fk.gap < delta) {
      y[WHEEL_X] += (delta - fk.gap) * fk.n[0];
      y[WHEEL_Y] += (delta - fk.gap) * fk.n[1];
    }
  }
  int changed = memcmp(&md, &w->mode, sizeof md) != 0;
  w->mode = md;
  update_mode_name(w);
  if (!collided) {
    w->transitions += changed;
    if (info) {
      memset(info->data, 0, sizeof info->data);
      info->data[WHEEL_EV_KIND] = WHEEL_EVK_TRANSITION;
      int i = 0;
      for (int k = 0; k < WHEEL_NC && i < 2; ++k) {
        if (md.state[k] == WHEEL_SEP) continue;
        info->data[WHEEL_EV_SEG1 + i] = f[k].seg;
        info->data[WHEEL_EV_STATE1 + i] = md.state[k];
        info->data[WHEEL_EV_PN1 + i] = res.z[k];
        info->data[WHEEL_EV_PT1 + i] = res.z[WHEEL_NC + k];
        ++i;
      }
      info->data[WHEEL_EV_CASES] = res.cases;
      info->data[WHEEL_EV_NSOL] = res.nsol;
      info->ndata = WHEEL_NEVDATA;
    }
  }
  if (info) info->label = collided ? "collision" : "transition";
  return MBDAE_OK;
}

int wheel_event(double t, double *y, double *yp, const int *dirs,
                mbdae_event_info *info, void *user_data) {
  (void)t; (void)yp; (void)dirs;
  int rc = wheel_resolve(user_data, y, info);
  return rc < 0 ? rc : MBDAE_EVENT_CONTINUE;
}

static const char *const wheel_inv_names[] = {"energy", "min_gap"};
static const char *const wheel_inv_units[] = {"J", "m"};

int wheel_invariants(double t, const double *y, const double *yp, double *out,
                     void *user_data) {
  (void)t; (void)yp;
  const wheel_model *w = user_data;
  out[0] = wheel_energy(&w->p, y);
  out[1] = wheel_min_gap(&w->p, y[WHEEL_X], y[WHEEL_Y]);
  return 0;
}

/* ------------------------------------------------------------ instance */

int wheel_create(const wheel_params *p, mbdae_linsol linsol, wheel_model **out) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  int rc = wheel_params_check(p, NULL);
  if (rc) return rc;
  wheel_model *w = calloc(1, sizeof *w);
  if (!w) return MBDAE_ERR_MEMORY;
  w->p = *p;
  wheel_geometry(p, &w->l1, &w->a);
  w->problem = mbdae_problem_create(WHEEL_N, MBDAE_FORM_ODE);
  if (!w->problem) { free(w); return MBDAE_ERR_MEMORY; }
  mbdae_problem *pr = w->problem;
  rc = mbdae_problem_set_user_data(pr, w);
  if (!rc) rc = mbdae_problem_set_rhs(pr, wheel_rhs);
  if (!rc) {
    if (linsol == MBDAE_LINSOL_KLU)
      rc = mbdae_problem_set_jacobian_sparse(pr, 19, wheel_colptr, wheel_rowind,
                                             wheel_jac_sparse);
    else
      rc = mbdae_problem_set_jacobian_dense(pr, wheel_jac_dense);
  }
  if (!rc) rc = mbdae_problem_set_roots(pr, WHEEL_NROOTS, wheel_roots);
  if (!rc) rc = mbdae_problem_set_event_handler(pr, wheel_event);
  if (!rc) rc = mbdae_problem_set_invariants(pr, 2, wheel_inv_names, wheel_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(pr, wheel_inv_units);
  if (!rc) rc = mbdae_problem_set_mode_name(pr, mode_name_cb);
  /* held contacts drift up to 1e-5 r before a projection (wheel_resolve) */
  if (!rc) rc = mbdae_problem_set_repair_tolerance(pr, WHEEL_REPAIR_TOL * p->r);
  if (rc) {
    wheel_free(&w);
    return rc;
  }
  update_mode_name(w);
  *out = w;
  return MBDAE_OK;
}

void wheel_free(wheel_model **w) {
  if (!w || !*w) return;
  mbdae_problem_free(&(*w)->problem);
  free(*w);
  *w = NULL;
}

int wheel_initial_state(wheel_model *w, double t0, double *y) {
  (void)t0;
  if (!w || !y) return MBDAE_ERR_ARGUMENT;
  for (int i = 0; i < 3; ++i) {
    y[i] = w->p.x0[i];
    y[3 + i] = w->p.v0[i];
  }
  memset(&w->mode, 0, sizeof w->mode);
  w->mode.curb_seg = WHEEL_SEG_II;
  w->collisions = w->transitions = w->max_cases = 0;
  w->max_energy_gain = 0.0;
  w->max_post_vn = 0.0;
  /* a start on the boundary: collision and contact mode at t0 */
  return wheel_resolve(w, y, NULL);
}
