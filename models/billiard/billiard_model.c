/* billiard_model.c - the model kind `billiard`: an inelastic, rotating
 * sphere under gravity and drag inside a horizontally driven boundary
 * (hartl-miller-mazzoleni). Flight: eqs. 1-6; collisions: a root of the
 * centre-to-boundary distance minus b (§IV); impacts: the Kane-Levinson law
 * with a moving boundary (appendix, eqs. 28-46). */
#include "billiard/billiard.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "billiard/impact.h"
#include "mbdae/status.h"

#define PI 3.14159265358979323846
#define CONTACT_TOL 1e-8 /* m: a second piece this close takes part too */

static const char *const shape_names[] = {"parabola", "wedge", "hyperbola",
                                          "polynomial", NULL};
static const char *const rule_names[] = {"elastic", "none", NULL};

#define OFF(f) offsetof(billiard_params, f)
#define DBL(k, f, fl, d, lo, hi, u, doc) \
  {k, MBDAE_PARAM_DOUBLE, OFF(f), fl, d, lo, hi, 0, NULL, 0, u, doc}
#define OPEN MBDAE_PARAM_MIN_OPEN
static const mbdae_param_spec billiard_schema[] = {
  {"shape", MBDAE_PARAM_ENUM, OFF(shape), 0, 0, 0, 3, 0, shape_names, 0, "",
   "boundary: parabola | wedge | hyperbola (eq. 9) | polynomial"},
  DBL("parabola_a", parabola_a, OPEN, 26.0, 0, HUGE_VAL, "1/m", "eq. 9: a (0.26 /cm)"),
  DBL("parabola_c", parabola_c, 0, 0.0063, -HUGE_VAL, HUGE_VAL, "m", "eq. 9: c (0.63 cm)"),
  DBL("wedge_slope", wedge_slope, OPEN, 1.85, 0, HUGE_VAL, "", "eq. 9: wedge slope (the paper's b)"),
  DBL("wedge_c", wedge_c, 0, 0.0063, -HUGE_VAL, HUGE_VAL, "m", "eq. 9: wedge vertex height c"),
  DBL("hyperbola_alpha", hyperbola_alpha, OPEN, 40.3e-4, 0, HUGE_VAL, "m^2", "eq. 9: alpha (40.3 cm^2)"),
  DBL("hyperbola_beta", hyperbola_beta, OPEN, 800.0, 0, HUGE_VAL, "1/m^2", "eq. 9: beta (0.08 /cm^2)"),
  DBL("hyperbola_delta", hyperbola_delta, 0, 0.0445, -HUGE_VAL, HUGE_VAL, "m", "eq. 9: delta (4.45 cm)"),
  {"poly", MBDAE_PARAM_VEC, OFF(poly), 0, 0.0, -HUGE_VAL, HUGE_VAL, BILLIARD_POLY_LEN,
   NULL, 0, "m^(1-i)", "polynomial boundary f(s) = sum p_i s^i, i = 0..8"},
  DBL("poly_halfwidth", poly_halfwidth, OPEN, 0.1, 0, HUGE_VAL, "m", "polynomial: |s| range of the curvature check"),
  DBL("amplitude", amplitude, 0, 0.001, 0, HUGE_VAL, "m", "eq. 10: drive amplitude A (not in the paper)"),
  DBL("frequency", frequency, 0, 5.4, 0, HUGE_VAL, "Hz", "eq. 10: drive frequency f"),
  DBL("radius", radius, 0, 1.55e-3, 0, HUGE_VAL, "m", "ball radius b (0: point particle)"),
  DBL("mass", mass, OPEN, 1.3028e-4, 0, HUGE_VAL, "kg", "ball mass (0.13028 g)"),
  DBL("inertia_factor", inertia_factor, OPEN, 0.4, 0, 1, "", "J = factor m b^2 (solid sphere 2/5)"),
  DBL("gravity", gravity, OPEN, 9.81, 0, HUGE_VAL, "m/s^2", "eq. 1: g"),
  DBL("restitution", restitution, 0, 0.9, 0, 1, "", "eq. 24: e"),
  DBL("mu_static", mu_static, 0, 0.61, 0, HUGE_VAL, "", "eq. 25: mu (steel on aluminium)"),
  DBL("mu_kinetic", mu_kinetic, 0, 0.47, 0, HUGE_VAL, "", "eq. 27: mu' (steel on aluminium)"),
  {"friction", MBDAE_PARAM_BOOL, OFF(friction), 0, 1, 0, 1, 0, NULL, 0, "", "impact friction on/off"},
  {"drag", MBDAE_PARAM_BOOL, OFF(drag), 0, 1, 0, 1, 0, NULL, 0, "", "air drag on/off"},
  DBL("c1", c1, 0, 4.805e-7, 0, HUGE_VAL, "N s/m", "eq. 2/4: linear drag, 1.55e-4 D"),
  DBL("c2", c2, 0, 2.1142e-6, 0, HUGE_VAL, "N s^2/m^2", "eq. 2/4: quadratic drag, 0.22 D^2"),
  {"low_speed_rule", MBDAE_PARAM_ENUM, OFF(low_speed_rule), 0, 0, 0, 1, 0, rule_names, 0, "",
   "elastic: e = 1 below v_elastic (paper §V); none: the engine's Zeno guard"},
  DBL("v_elastic", v_elastic, 0, 0.01, 0, HUGE_VAL, "m/s", "normal approach speed below which e = 1"),
  DBL("v_rebound_min", v_rebound_min, 0, 0.001, 0, HUGE_VAL, "m/s",
      "least normal separation speed after a low-speed (e = 1) collision"),
  {"low_speed_friction", MBDAE_PARAM_BOOL, OFF(low_speed_friction), 0, 0, 0, 1, 0, NULL, 0, "",
   "keep impact friction in the e = 1 (low-speed) collisions"},
  {"collisions", MBDAE_PARAM_INT, OFF(collisions), 0, 25000, 1, 1e9, 0, NULL, 0, "",
   "stop after this many collisions"},
  DBL("x0", x0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m", "initial centre q1"),
  DBL("y0", y0, 0, 0.025, -HUGE_VAL, HUGE_VAL, "m", "initial centre q2"),
  DBL("vx0", vx0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m/s", "initial velocity q1'"),
  DBL("vy0", vy0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m/s", "initial velocity q2'"),
  DBL("spin0", spin0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "rad/s", "initial spin u3 (counter-clockwise +)"),
};
#define NPARAMS ((int)(sizeof billiard_schema / sizeof billiard_schema[0]))

void billiard_params_default(billiard_params *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < NPARAMS; ++i) {
    const mbdae_param_spec *s = &billiard_schema[i];
    char *base = (char *)p + s->offset;
    switch (s->type) {
    case MBDAE_PARAM_DOUBLE: *(double *)base = s->def; break;
    case MBDAE_PARAM_VEC:
      for (int j = 0; j < s->len; ++j) ((double *)base)[j] = s->def;
      break;
    default: *(int *)base = (int)s->def; break;
    }
  }
  /* the default polynomial is the paper's parabola */
  p->poly[0] = p->parabola_c;
  p->poly[2] = p->parabola_a;
}

static int fail(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

static void curve_from_params(const billiard_params *p, billiard_curve *c) {
  memset(c, 0, sizeof *c);
  c->shape = (billiard_shape)p->shape;
  c->a = p->parabola_a;
  c->c = p->shape == BILLIARD_WEDGE ? p->wedge_c : p->parabola_c;
  c->k = p->wedge_slope;
  c->alpha = p->hyperbola_alpha;
  c->beta = p->hyperbola_beta;
  c->delta = p->hyperbola_delta;
  memcpy(c->poly, p->poly, sizeof c->poly);
}

static int check(const void *params, mbdae_param_error *err) {
  const billiard_params *p = params;
  /* the schema bounds again, for callers that bypass the driver */
  if (p->shape < 0 || p->shape > 3) return fail(err, "shape", "unknown boundary shape");
  for (int i = 0; i < NPARAMS; ++i) {
    const mbdae_param_spec *s = &billiard_schema[i];
    if (s->type != MBDAE_PARAM_DOUBLE) continue;
    double v = *(const double *)((const char *)p + s->offset);
    int below = (s->flags & MBDAE_PARAM_MIN_OPEN) ? !(v > s->min) : !(v >= s->min);
    if (!isfinite(v) || below || v > s->max)
      return fail(err, s->key, "non-finite or out of its physical range");
  }
  for (int i = 0; i < BILLIARD_POLY_LEN; ++i)
    if (!isfinite(p->poly[i])) return fail(err, "poly", "non-finite coefficient");
  if (p->collisions < 1) return fail(err, "collisions", "must be at least 1");
  if (p->mu_kinetic > p->mu_static)
    return fail(err, "mu_kinetic", "kinetic friction exceeds static friction");
  billiard_curve c;
  curve_from_params(p, &c);
  /* A sphere touches a convex curve at one point only where b < radius of
   * curvature; larger balls would need two contacts (wedge arms are straight). */
  double kmax;
  switch (p->shape) {
  case BILLIARD_PARABOLA: kmax = 2.0 * p->parabola_a; break;
  case BILLIARD_HYPERBOLA: kmax = sqrt(p->hyperbola_alpha) * p->hyperbola_beta; break;
  case BILLIARD_POLYNOMIAL: kmax = billiard_curve_max_curvature(&c, p->poly_halfwidth); break;
  default: kmax = 0.0; break;
  }
  if (p->radius * kmax >= 1.0) {
    char msg[200];
    snprintf(msg, sizeof msg,
             "ball radius %g m exceeds the boundary's smallest radius of curvature %g m",
             p->radius, 1.0 / kmax);
    return fail(err, "radius", msg);
  }
  return MBDAE_OK;
}

double billiard_drive(const struct mbdae_model *m, double t, double *rate) {
  double A = m->p.amplitude;
  if (rate) *rate = A * m->omega * cos(m->omega * t);
  return A * sin(m->omega * t);
}

int billiard_gaps(const struct mbdae_model *m, double t, const double *y,
                  double *g, billiard_foot *foot) {
  double xi = y[0] - billiard_drive(m, t, NULL);
  for (int i = 0; i < m->npieces; ++i) {
    billiard_foot f;
    if (billiard_closest(&m->curve, i, xi, y[1], &f) != 0) return -1;
    g[i] = f.dist - m->p.radius;
    if (foot) foot[i] = f;
  }
  return 0;
}

double billiard_energy(const struct mbdae_model *m, const double *y) {
  const billiard_params *p = &m->p;
  return 0.5 * p->mass * (y[2] * y[2] + y[3] * y[3]) + 0.5 * m->J * y[4] * y[4] +
         p->mass * p->gravity * y[1];
}

/* eqs. 1, 2, 6: m a = -m g n2 - v (c1 + c2 |v|); no torque in flight
 * (the Magnus force is neglected, §III). */
static void flight_rhs(const struct mbdae_model *m, const double *y, double *f) {
  const billiard_params *p = &m->p;
  double sp = hypot(y[2], y[3]);
  double d = p->drag ? (p->c1 + p->c2 * sp) / p->mass : 0.0;
  f[0] = y[2];
  f[1] = y[3];
  f[2] = -d * y[2];
  f[3] = -p->gravity - d * y[3];
  f[4] = 0.0;
}

/* df/dy, column-major 5 x 5 (added into J with the given sign). */
static void flight_jac(const struct mbdae_model *m, const double *y, double sign,
                       double *J) {
  const billiard_params *p = &m->p;
  J[0 + 5 * 2] += sign;
  J[1 + 5 * 3] += sign;
  if (!p->drag) return;
  double sp = hypot(y[2], y[3]);
  double d = (p->c1 + p->c2 * sp) / p->mass;
  double v[2] = {y[2], y[3]};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      double e = (i == j ? -d : 0.0);
      if (sp > 0.0) e -= p->c2 * v[i] * v[j] / (sp * p->mass);
      J[(2 + i) + 5 * (2 + j)] += sign * e;
    }
}

static int rhs(double t, const double *y, double *out, void *ud) {
  (void)t;
  flight_rhs(ud, y, out);
  return 0;
}

static int jac_ode(double t, double cj, const double *y, const double *yp,
                   double *out, void *ud) {
  (void)t; (void)cj; (void)yp;
  flight_jac(ud, y, 1.0, out);
  return 0;
}

static int residual(double t, const double *y, const double *yp, double *out,
                    void *ud) {
  double f[BILLIARD_NY];
  (void)t;
  flight_rhs(ud, y, f);
  for (int i = 0; i < BILLIARD_NY; ++i) out[i] = yp[i] - f[i];
  return 0;
}

static int jac_dae(double t, double cj, const double *y, const double *yp,
                   double *out, void *ud) {
  (void)t; (void)yp;
  for (int i = 0; i < BILLIARD_NY; ++i) out[i + 5 * i] += cj;
  flight_jac(ud, y, -1.0, out);
  return 0;
}

/* §IV: g_i = (distance from the centre to piece i of the moving boundary) - b */
static int roots(double t, const double *y, const double *yp, double *g,
                 void *ud) {
  (void)yp;
  return billiard_gaps(ud, t, y, g, NULL) == 0 ? 0 : -1;
}

static int invariants(double t, const double *y, const double *yp, double *out,
                      void *ud) {
  (void)t; (void)yp;
  out[0] = billiard_energy(ud, y);
  return 0;
}
static const char *const inv_names[] = {"energy"};
static const char *const inv_units[] = {"J"};

static const char *mode_name(void *ud) {
  (void)ud;
  return "flight";
}

static double normal_rel_velocity(const billiard_foot *f, const double *y,
                                  double bx) {
  return (y[2] - bx) * f->nx + y[3] * f->ny;
}

static int handler(double t, double *y, double *yp, const int *dirs,
                   mbdae_event_info *info, void *ud) {
  struct mbdae_model *m = ud;
  const billiard_params *p = &m->p;
  double g[BILLIARD_MAX_PIECES], bx;
  billiard_foot foot[BILLIARD_MAX_PIECES];
  if (billiard_gaps(m, t, y, g, foot) != 0) return -1;
  billiard_drive(m, t, &bx);
  int in_contact[BILLIARD_MAX_PIECES];
  for (int i = 0; i < m->npieces; ++i)
    in_contact[i] = dirs[i] != 0 || fabs(g[i]) <= CONTACT_TOL;

  /* Simultaneous contacts (the wedge's two arms) are resolved one after the
   * other, the fastest approach first, until none approaches (a sequential
   * impact rule; the paper treats one contact at a time). The cascade ends,
   * or converges to relative rest in the corner, geometrically: see
   * corner_impact_bound. A contact still approaching after the bound fails
   * loudly, with t and the contacts left, instead of leaving it inside. */
  billiard_impact_out last;
  int applied = 0, piece = -1, nimpacts = 0;
  /* round-off of an impact (e = 0 leaves vn ~ -1e-17) is no approach */
  double vtol = 1e-12 * (hypot(y[2] - bx, y[3]) + p->radius * fabs(y[4]));
  for (;;) {
    int best = -1, napproach = 0;
    double vbest = 0.0;
    for (int i = 0; i < m->npieces; ++i) {
      if (!in_contact[i]) continue;
      double vn = normal_rel_velocity(&foot[i], y, bx);
      if (vn < (applied ? -vtol : 0.0)) {
        napproach += 1;
        if (vn < vbest) { vbest = vn; best = i; }
      }
    }
    if (best < 0) break;
    if (nimpacts >= m->max_impacts) {
      snprintf(m->msg, sizeof m->msg,
               "billiard: %d contact(s) still approach (fastest at %.3g m/s) after %d "
               "impacts at one instant, t=%.12g: the sequential rule neither ends nor "
               "converges (doc/billiard.md §6)", napproach, -vbest, nimpacts, t);
      if (info) info->label = m->msg;
      return MBDAE_ERR_EVENT_LIMIT;
    }
    billiard_impact_in in = {
      .m = p->mass, .J = m->J, .b = p->radius, .e = p->restitution,
      .mu = p->mu_static, .mu_k = p->mu_kinetic, .friction = p->friction,
      .nx = foot[best].nx, .ny = foot[best].ny, .vx = y[2], .vy = y[3],
      .w = y[4], .bx = bx, .by = 0.0};
    /* §V: e = 1 for a vanishing normal velocity, against inelastic collapse */
    if (p->low_speed_rule == BILLIARD_RULE_ELASTIC && -vbest < p->v_elastic) {
      in.e = 1.0;
      /* and no friction: in the limit of vanishing normal impulse a stick
       * solution would still remove all slip at every micro-collision,
       * draining the relative motion into a Zeno accumulation (the ball
       * wedged in the wedge's corner); doc/billiard.md §6 */
      if (p->low_speed_friction == 0) in.friction = 0;
      /* a wall that accelerates into the ball would catch it again at once
       * (persistent contact, which an impact model cannot represent): leave
       * with at least v_rebound_min, so collisions stay a finite time apart */
      in.vn_min = p->v_rebound_min;
    }
    billiard_impact(&in, &last);
    y[2] = last.vx;
    y[3] = last.vy;
    y[4] = last.w;
    applied = 1;
    piece = best;
    nimpacts += 1;
  }
  if (!applied) return MBDAE_EVENT_NOCHANGE; /* grazing or separating */
  if (yp) flight_rhs(m, y, yp);

  /* per-collision record and return-map history */
  m->n += 1;
  if (last.stick) m->sticks += 1;
  double flight = m->have_prev ? t - m->t_prev : NAN;
  double *d = m->last_data;
  d[BILLIARD_EV_N] = (double)m->n;
  d[BILLIARD_EV_Q1] = y[0];
  d[BILLIARD_EV_Q2] = y[1];
  d[BILLIARD_EV_V1] = y[2];
  d[BILLIARD_EV_V2] = y[3];
  d[BILLIARD_EV_U4] = last.u4;
  d[BILLIARD_EV_U5] = last.u5;
  d[BILLIARD_EV_U3] = y[4];
  d[BILLIARD_EV_STICK] = last.stick;
  d[BILLIARD_EV_VN_IN] = last.vn_rel;
  d[BILLIARD_EV_Q2_PREV] = m->have_prev ? m->q2_prev : NAN;
  d[BILLIARD_EV_FLIGHT] = flight;
  d[BILLIARD_EV_FLIGHT_PREV] = m->flight_prev;
  /* §VI: q2,max and u4,max hold the whole (translational) energy after the
   * collision as potential or as kinetic energy, q2 measured from q2 = 0 */
  double e_t = 0.5 * (y[2] * y[2] + y[3] * y[3]) + p->gravity * y[1];
  d[BILLIARD_EV_Q2_NORM] = e_t > 0.0 ? p->gravity * y[1] / e_t : NAN;
  d[BILLIARD_EV_U4_NORM] = e_t > 0.0 ? last.u4 / sqrt(2.0 * e_t) : NAN;
  d[BILLIARD_EV_S] = foot[piece].s;
  m->tail_q2[(m->n - 1) % BILLIARD_TAIL] = y[1];
  m->tail_flight[(m->n - 1) % BILLIARD_TAIL] = flight;
  m->flight_prev = flight;
  m->q2_prev = y[1];
  m->t_prev = t;
  m->have_prev = 1;
  if (info) {
    info->label = last.stick ? "impact-stick" : "impact-slip";
    info->ndata = BILLIARD_EV_COUNT;
    memcpy(info->data, d, sizeof(double) * BILLIARD_EV_COUNT);
  }
  return m->n >= p->collisions ? MBDAE_EVENT_STOP : MBDAE_EVENT_CONTINUE;
}

/* Impacts one event may apply. Elastic and frictionless, a ball in a corner
 * of opening angle a is reflected at most ceil(pi/a) times (unfold the
 * corner). The slowest cascade known in closed form is plastic and
 * frictionless: each impact projects the relative velocity onto one arm, so
 * the approach speed shrinks by cos a per impact and reaches the round-off
 * floor 1e-12 after ln(1e-12)/ln(cos a) impacts (~55/a^2). Allow twice that,
 * plus 64; one piece needs one impact. */
static int corner_impact_bound(const billiard_params *p, int npieces) {
  if (npieces < 2) return 64;
  double a = 2.0 * atan(1.0 / p->wedge_slope), c = cos(a);
  double n = ceil(PI / a) + (c > 0.0 ? 2.0 * ceil(log(1e-12) / log(c)) : 0.0);
  return n < 1e8 ? 64 + (int)n : 64 + 100000000;
}

int billiard_handle_event(struct mbdae_model *m, double t, double *y, double *yp,
                          const int *dirs, mbdae_event_info *info) {
  return handler(t, y, yp, dirs, info, m);
}

static void destroy(mbdae_model **model) {
  if (!model || !*model) return;
  mbdae_problem_free(&(*model)->problem);
  free(*model);
  *model = NULL;
}

static int create(const void *params, mbdae_options *o, mbdae_model **model,
                  mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  *model = NULL;
  int st = check(params, err);
  if (st != MBDAE_OK) return st;
  struct mbdae_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *(const billiard_params *)params;
  curve_from_params(&m->p, &m->curve);
  m->npieces = billiard_curve_npieces(&m->curve);
  m->max_impacts = corner_impact_bound(&m->p, m->npieces);
  m->omega = 2.0 * PI * m->p.frequency;
  m->J = m->p.inertia_factor * m->p.mass * m->p.radius * m->p.radius;
  m->flight_prev = NAN;

  /* the start must lie strictly inside the boundary */
  double y[BILLIARD_NY] = {m->p.x0, m->p.y0, m->p.vx0, m->p.vy0, m->p.spin0};
  double g[BILLIARD_MAX_PIECES];
  if (billiard_gaps(m, o->t0, y, g, NULL) != 0) {
    destroy(&m);
    return fail(err, "y0", "non-finite initial position");
  }
  for (int i = 0; i < m->npieces; ++i)
    if (!(g[i] > 0.0)) {
      destroy(&m);
      return fail(err, "y0", "the ball's start (x0, y0) overlaps or lies outside the boundary");
    }

  int dae = o->method == MBDAE_METHOD_IDA;
  m->problem = mbdae_problem_create(BILLIARD_NY, dae ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  if (!m->problem) {
    destroy(&m);
    return MBDAE_ERR_MEMORY;
  }
  mbdae_problem *pr = m->problem;
  st = mbdae_problem_set_user_data(pr, m);
  if (!st) st = dae ? mbdae_problem_set_residual(pr, residual) : mbdae_problem_set_rhs(pr, rhs);
  if (!st) st = mbdae_problem_set_jacobian_dense(pr, dae ? jac_dae : jac_ode);
  if (!st && dae) {
    double id[BILLIARD_NY] = {1, 1, 1, 1, 1};
    st = mbdae_problem_set_id(pr, id);
  }
  if (!st) st = mbdae_problem_set_roots(pr, m->npieces, roots);
  if (!st) st = mbdae_problem_set_event_handler(pr, handler);
  if (!st) st = mbdae_problem_set_invariants(pr, 1, inv_names, invariants);
  if (!st) st = mbdae_problem_set_invariant_units(pr, inv_units);
  if (!st) st = mbdae_problem_set_mode_name(pr, mode_name);
  if (st) {
    destroy(&m);
    return st;
  }
  if (o->linsol == MBDAE_LINSOL_KLU) o->linsol = MBDAE_LINSOL_DENSE; /* 5 x 5 */
  *model = m;
  return MBDAE_OK;
}

static mbdae_problem *problem(mbdae_model *m) { return m ? m->problem : NULL; }

static int initial_state(mbdae_model *m, double t0, double *y, double *yp) {
  (void)t0;
  y[0] = m->p.x0;
  y[1] = m->p.y0;
  y[2] = m->p.vx0;
  y[3] = m->p.vy0;
  y[4] = m->p.spin0;
  if (yp) flight_rhs(m, y, yp);
  m->n = 0;
  m->sticks = 0;
  m->have_prev = 0;
  m->flight_prev = NAN;
  return MBDAE_OK;
}

static void set_col(mbdae_column *c, const char *name, const char *unit) {
  snprintf(c->name, sizeof c->name, "%s", name);
  snprintf(c->unit, sizeof c->unit, "%s", unit);
}

static const char *const out_names[][2] = {
  {"q1", "m"}, {"q2", "m"}, {"v1", "m/s"}, {"v2", "m/s"}, {"u3", "rad/s"},
  {"drive", "m"}, {"energy", "J"}, {"gap", "m"}};
enum { NOUT = 8 };

static int columns(mbdae_model *m, mbdae_column *cols, int max) {
  (void)m;
  if (!cols) return NOUT;
  int n = max < NOUT ? max : NOUT;
  for (int i = 0; i < n; ++i) set_col(&cols[i], out_names[i][0], out_names[i][1]);
  return n;
}

static int output_row(mbdae_model *m, double t, const double *y,
                      const double *yp, double *row) {
  (void)yp;
  double g[BILLIARD_MAX_PIECES] = {0};
  for (int i = 0; i < BILLIARD_NY; ++i) row[i] = y[i];
  row[5] = billiard_drive(m, t, NULL);
  row[6] = billiard_energy(m, y);
  if (billiard_gaps(m, t, y, g, NULL) != 0) return -1;
  row[7] = m->npieces > 1 ? fmin(g[0], g[1]) : g[0];
  return 0;
}

static const char *const ev_names[BILLIARD_EV_COUNT][2] = {
  {"n", "-"}, {"q1", "m"}, {"q2", "m"}, {"v1", "m/s"}, {"v2", "m/s"},
  {"u4", "m/s"}, {"u5", "m/s"}, {"u3", "rad/s"}, {"stick", "-"},
  {"vn_in", "m/s"}, {"q2_prev", "m"}, {"flight", "s"}, {"flight_prev", "s"},
  {"q2_norm", "-"}, {"u4_norm", "-"}, {"s_contact", "m"}};

static int event_columns(mbdae_model *m, mbdae_column *cols, int max) {
  (void)m;
  if (!cols) return BILLIARD_EV_COUNT;
  int n = max < BILLIARD_EV_COUNT ? max : BILLIARD_EV_COUNT;
  for (int i = 0; i < n; ++i) set_col(&cols[i], ev_names[i][0], ev_names[i][1]);
  return n;
}

static void tail_stats(const double *v, long n, double *mean, double *range) {
  long k = n < BILLIARD_TAIL ? n : BILLIARD_TAIL;
  double s = 0.0, lo = HUGE_VAL, hi = -HUGE_VAL;
  long cnt = 0;
  for (long i = 0; i < k; ++i) {
    if (!isfinite(v[i])) continue;
    s += v[i];
    lo = fmin(lo, v[i]);
    hi = fmax(hi, v[i]);
    ++cnt;
  }
  *mean = cnt ? s / cnt : NAN;
  *range = cnt ? hi - lo : NAN;
}

static int outcomes(mbdae_model *m, const double *y, const double *yp,
                    mbdae_outcome *out, int max) {
  (void)yp;
  enum { NOC = 8 };
  if (!out) return NOC;
  double qm, qr, fm, fr;
  tail_stats(m->tail_q2, m->n, &qm, &qr);
  tail_stats(m->tail_flight, m->n, &fm, &fr);
  double v[NOC] = {(double)m->n,
                   m->n ? (double)m->sticks / (double)m->n : 0.0,
                   m->n ? m->last_data[BILLIARD_EV_Q2] : NAN,
                   qm, qr, fm, fr, billiard_energy(m, y)};
  static const char *const nm[NOC][2] = {
    {"collisions", ""}, {"stick_fraction", ""}, {"q2_last", "m"},
    {"q2_tail_mean", "m"}, {"q2_tail_range", "m"}, {"flight_tail_mean", "s"},
    {"flight_tail_range", "s"}, {"energy_final", "J"}};
  int n = max < NOC ? max : NOC;
  for (int i = 0; i < n; ++i) {
    snprintf(out[i].name, sizeof out[i].name, "%s", nm[i][0]);
    snprintf(out[i].unit, sizeof out[i].unit, "%s", nm[i][1]);
    out[i].value = v[i];
    /* no collision (or no finite tail value) yet: not defined, not wrong */
    out[i].undefined = isnan(v[i]) && (i >= 2 && i <= 6);
  }
  return n;
}

static const mbdae_plot_spec billiard_plots[] = {
  {"billiard_q2_map", "collision height return map", "events", "q2_prev", "q2",
   "q2,n [m]", "q2,n+1 [m]", 1},
  {"billiard_flight_map", "time-of-flight return map", "events", "flight_prev",
   "flight", "t_n [s]", "t_n+1 [s]", 1},
  {"billiard_phase", "normalised height vs tangential velocity", "events",
   "u4_norm", "q2_norm", "u4/u4,max", "q2/q2,max", 1},
  {"billiard_trajectory", "centre trajectory", "samples", "q1", "q2", "q1 [m]",
   "q2 [m]", 0},
};

/* Checkpoints: the collision history the handler keeps (count, previous
 * collision, tail for the outcomes, last event data). */
static void state_fields(struct mbdae_model *m, mbdae_state_cursor *c) {
  void (*io)(mbdae_state_cursor *, void *, size_t) = mbdae_state_io;
  io(c, &m->n, sizeof m->n);
  io(c, &m->have_prev, sizeof m->have_prev);
  io(c, &m->t_prev, sizeof m->t_prev);
  io(c, &m->q2_prev, sizeof m->q2_prev);
  io(c, &m->flight_prev, sizeof m->flight_prev);
  io(c, &m->sticks, sizeof m->sticks);
  io(c, m->tail_q2, sizeof m->tail_q2);
  io(c, m->tail_flight, sizeof m->tail_flight);
  io(c, m->last_data, sizeof m->last_data);
}

/* A checkpoint is trusted only past its checksum: the collision count
 * indexes the tail arrays, so it and the flags are checked after a load
 * (doc/checkpoint.md, "Validation"); the tails and event data hold NaN by
 * design (no previous collision). */
static int state_check(const struct mbdae_model *m) {
  double prev[2] = {m->t_prev, m->q2_prev};
  int ok = m->n >= 0 && (m->have_prev == 0 || m->have_prev == 1) && m->sticks >= 0 &&
           m->sticks <= m->n && (!m->have_prev || mbdae_state_finite(prev, 2));
  return ok ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_billiard = {
  .name = "billiard",
  .summary = "rotating inelastic gravitational billiard in a driven parabola/wedge/hyperbola "
             "(hartl-miller-mazzoleni)",
  .params_size = sizeof(billiard_params),
  .params = billiard_schema,
  .nparams = NPARAMS,
  .check = check,
  .create = create,
  .destroy = destroy,
  .problem = problem,
  .initial_state = initial_state,
  .columns = columns,
  .output_row = output_row,
  .event_columns = event_columns,
  .outcomes = outcomes,
  .plots = billiard_plots,
  .nplots = (int)(sizeof billiard_plots / sizeof billiard_plots[0]),
  .state_fields = state_fields,
  .state_check = state_check,
};
