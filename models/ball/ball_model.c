/* ball_model.c - equations, roots and event map of the bouncing ball
 * (doc/acceptance-models.md, section "Bouncing ball"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ball/ball.h"
#include "mbdae/status.h"

void ball_params_default(ball_params *p) {
  p->g = 9.81;
  p->e = 0.7;
  p->h0 = 1.0;
  p->v0 = 0.0;
  p->zeno_velocity = 1e-3;
  p->zeno_time = 0.0;
  p->mass = 1.0;
  p->lift_rate = 0.0;
  p->alpha = 10.0;
}

static int param_error(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

int ball_params_check(const ball_params *p, mbdae_param_error *err) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  const double v[] = {p->g, p->e, p->h0, p->v0, p->zeno_velocity, p->zeno_time,
                      p->mass, p->lift_rate, p->alpha};
  const char *k[] = {"g", "e", "h0", "v0", "zeno_velocity", "zeno_time",
                     "mass", "lift_rate", "alpha"};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
    if (!isfinite(v[i])) return param_error(err, k[i], "must be finite");
  if (!(p->g > 0.0)) return param_error(err, "g", "gravity must be > 0");
  if (!(p->e >= 0.0 && p->e <= 1.0))
    return param_error(err, "e", "restitution must be in [0, 1]");
  if (!(p->mass > 0.0)) return param_error(err, "mass", "mass must be > 0");
  if (!(p->h0 >= 0.0)) return param_error(err, "h0", "initial height must be >= 0");
  /* Starting on the plane while moving into it would be an impact at t0,
   * which no root can locate. */
  if (p->h0 == 0.0 && p->v0 < 0.0)
    return param_error(err, "v0", "must be >= 0 when h0 = 0 (no impact at t0)");
  if (!(p->zeno_velocity >= 0.0))
    return param_error(err, "zeno_velocity", "must be >= 0");
  if (!(p->zeno_time >= 0.0)) return param_error(err, "zeno_time", "must be >= 0");
  if (!(p->alpha >= 0.0)) return param_error(err, "alpha", "must be >= 0");
  return MBDAE_OK;
}

double ball_lift(const ball_params *p, double t) { return p->lift_rate * t; }

double ball_energy(const ball_params *p, const double *y) {
  return p->mass * p->g * y[BALL_Q] + 0.5 * p->mass * y[BALL_V] * y[BALL_V];
}

/* Normal force that holds the ball at rest on the plane: m g - F(t). */
static double resting_force(const ball_params *p, double t) {
  return p->mass * p->g - ball_lift(p, t);
}

double ball_normal_force(const ball_model *m, double t, const double *y) {
  if (m->event_capturing) return m->step_force;
  if (m->mode != BALL_CONTACT) return 0.0;
  return m->form == MBDAE_FORM_DAE ? y[BALL_LAMBDA] : resting_force(&m->p, t);
}

/* DAE residual. Flight: F = [q' - v, m v' + m g - F(t) - lambda, lambda].
 * Contact: the bilateral constraint q = 0 reduced to index 1 at
 * acceleration level, with Baumgarte terms (critically damped, rate alpha):
 * F2 = v' + 2 alpha v + alpha^2 q. */
int ball_residual(double t, const double *y, const double *yp, double *F,
                  void *user_data) {
  const ball_model *m = user_data;
  const ball_params *p = &m->p;
  F[0] = yp[BALL_Q] - y[BALL_V];
  F[1] = p->mass * yp[BALL_V] + p->mass * p->g - ball_lift(p, t) - y[BALL_LAMBDA];
  if (m->mode == BALL_FLIGHT)
    F[2] = y[BALL_LAMBDA];
  else
    F[2] = yp[BALL_V] + 2.0 * p->alpha * y[BALL_V] +
           p->alpha * p->alpha * y[BALL_Q];
  return 0;
}

/* ODE right-hand side. Flight: q' = v, v' = -g + F(t)/m; contact: the
 * state is held at q = v = 0 (the normal force is an output). */
int ball_rhs(double t, const double *y, double *f, void *user_data) {
  const ball_model *m = user_data;
  if (m->mode == BALL_FLIGHT) {
    f[0] = y[BALL_V];
    f[1] = -m->p.g + ball_lift(&m->p, t) / m->p.mass;
  } else {
    f[0] = 0.0;
    f[1] = 0.0;
  }
  return 0;
}

/* Dense Jacobians, column-major: J[row + n * col]. */
int ball_jac_dense(double t, double cj, const double *y, const double *yp,
                   double *J, void *user_data) {
  (void)t; (void)y; (void)yp;
  const ball_model *m = user_data;
  if (m->form == MBDAE_FORM_ODE) {
    if (m->mode == BALL_FLIGHT) J[0 + 2 * 1] = 1.0;
    return 0;
  }
  const int n = BALL_N_DAE;
  J[0 + n * 0] = cj;
  J[0 + n * 1] = -1.0;
  J[1 + n * 1] = m->p.mass * cj;
  J[1 + n * 2] = -1.0;
  if (m->mode == BALL_FLIGHT) {
    J[2 + n * 2] = 1.0;
  } else {
    J[2 + n * 0] = m->p.alpha * m->p.alpha;
    J[2 + n * 1] = cj + 2.0 * m->p.alpha;
  }
  return 0;
}

/* CSC patterns, supersets over both modes. DAE columns q: rows {0, 2};
 * v: {0, 1, 2}; lambda: {1, 2}. ODE: the full 2 x 2 (diagonal included). */
static const mbdae_index dae_colptr[] = {0, 2, 5, 7};
static const mbdae_index dae_rowind[] = {0, 2, 0, 1, 2, 1, 2};
static const mbdae_index ode_colptr[] = {0, 2, 4};
static const mbdae_index ode_rowind[] = {0, 1, 0, 1};

void ball_sparse_pattern(mbdae_form form, mbdae_index *nnz,
                         const mbdae_index **colptr,
                         const mbdae_index **rowind) {
  if (form == MBDAE_FORM_DAE) {
    *nnz = 7;
    *colptr = dae_colptr;
    *rowind = dae_rowind;
  } else {
    *nnz = 4;
    *colptr = ode_colptr;
    *rowind = ode_rowind;
  }
}

int ball_jac_sparse(double t, double cj, const double *y, const double *yp,
                    double *vals, void *user_data) {
  (void)t; (void)y; (void)yp;
  const ball_model *m = user_data;
  const int flight = m->mode == BALL_FLIGHT;
  if (m->form == MBDAE_FORM_ODE) {
    vals[2] = flight ? 1.0 : 0.0; /* (0, 1) */
    return 0;
  }
  const double a = m->p.alpha;
  vals[0] = cj;                      /* (0, 0) */
  vals[1] = flight ? 0.0 : a * a;    /* (2, 0) */
  vals[2] = -1.0;                    /* (0, 1) */
  vals[3] = m->p.mass * cj;          /* (1, 1) */
  vals[4] = flight ? 0.0 : cj + 2.0 * a; /* (2, 1) */
  vals[5] = -1.0;                    /* (1, 2) */
  vals[6] = flight ? 1.0 : 0.0;      /* (2, 2) */
  return 0;
}

int ball_roots(double t, const double *y, const double *yp, double *g,
               void *user_data) {
  (void)yp;
  const ball_model *m = user_data;
  if (m->mode == BALL_FLIGHT) {
    g[BALL_ROOT_GAP] = y[BALL_Q];
    g[BALL_ROOT_APEX] = y[BALL_V];
    g[BALL_ROOT_NORMAL] = 1.0;
  } else {
    g[BALL_ROOT_GAP] = 1.0;
    g[BALL_ROOT_APEX] = 1.0;
    g[BALL_ROOT_NORMAL] = ball_normal_force(m, t, y);
  }
  return 0;
}

/* Put y (algebraic part) and yp on the current mode's manifold. */
static void make_consistent(const ball_model *m, double t, double *y, double *yp) {
  const ball_params *p = &m->p;
  if (m->mode == BALL_CONTACT) {
    y[BALL_Q] = 0.0;
    y[BALL_V] = 0.0;
  }
  if (m->form == MBDAE_FORM_DAE) {
    y[BALL_LAMBDA] = m->mode == BALL_CONTACT ? resting_force(p, t) : 0.0;
    if (yp) {
      yp[BALL_Q] = y[BALL_V];
      yp[BALL_V] = m->mode == BALL_CONTACT ? 0.0 : -p->g + ball_lift(p, t) / p->mass;
      yp[BALL_LAMBDA] = m->mode == BALL_CONTACT ? -p->lift_rate : 0.0;
    }
  } else if (yp) {
    yp[BALL_Q] = m->mode == BALL_CONTACT ? 0.0 : y[BALL_V];
    yp[BALL_V] = m->mode == BALL_CONTACT ? 0.0 : -p->g + ball_lift(p, t) / p->mass;
  }
}

static void set_info(mbdae_event_info *info, const char *label, double vm,
                     double vp, double impulse, int rest) {
  if (!info) return;
  info->label = label;
  info->ndata = BALL_NEVDATA;
  info->data[BALL_EV_VMINUS] = vm;
  info->data[BALL_EV_VPLUS] = vp;
  info->data[BALL_EV_IMPULSE] = impulse;
  info->data[BALL_EV_REST] = rest;
}

/* Event map. Impact (gap falling through 0 in flight): Newton's law
 * v+ = -e v-. Zeno rule: if e |v-| < zeno_velocity, or the remaining time of
 * the geometric impact sequence, 2 e |v-| / (g_eff (1 - e)), is below
 * zeno_time, switch to persistent contact (q = v = 0). Release (normal
 * force falling through 0 in contact): back to flight. */
int ball_event(double t, double *y, double *yp, const int *dirs,
               mbdae_event_info *info, void *user_data) {
  ball_model *m = user_data;
  const ball_params *p = &m->p;
  const double v = y[BALL_V];
  if (m->mode == BALL_FLIGHT) {
    if (dirs[BALL_ROOT_GAP] < 0 && v < 0.0) {
      const double vp = -p->e * v;
      const double geff = p->g - ball_lift(p, t) / p->mass;
      int rest = vp < p->zeno_velocity;
      if (!rest && p->zeno_time > 0.0 && p->e < 1.0 && geff > 0.0)
        rest = 2.0 * vp / (geff * (1.0 - p->e)) < p->zeno_time;
      if (geff <= 0.0) rest = 0; /* the lift would pull it off at once */
      m->impacts++;
      mbdae_problem_report_repair(m->problem, y[BALL_Q], "the height at impact (m)");
      y[BALL_Q] = 0.0;
      if (rest) {
        m->mode = BALL_CONTACT;
        m->rest_time = t;
        y[BALL_V] = 0.0;
      } else {
        y[BALL_V] = vp;
      }
      make_consistent(m, t, y, yp);
      set_info(info, rest ? "rest" : "impact", v, y[BALL_V],
               p->mass * (y[BALL_V] - v), rest);
      return MBDAE_EVENT_CONTINUE;
    }
    if (dirs[BALL_ROOT_APEX] < 0) {
      set_info(info, "apex", v, v, 0.0, 0);
      return MBDAE_EVENT_NOCHANGE;
    }
    set_info(info, "crossing", v, v, 0.0, 0);
    return MBDAE_EVENT_NOCHANGE; /* gap opening, velocity rising through 0 */
  }
  if (dirs[BALL_ROOT_NORMAL] < 0) {
    m->mode = BALL_FLIGHT;
    m->release_time = t;
    make_consistent(m, t, y, yp);
    set_info(info, "release", v, y[BALL_V], 0.0, 0);
    return MBDAE_EVENT_CONTINUE;
  }
  set_info(info, "crossing", v, v, 0.0, 1);
  return MBDAE_EVENT_NOCHANGE;
}

int ball_invariants(double t, const double *y, const double *yp, double *out,
                    void *user_data) {
  (void)t; (void)yp;
  const ball_model *m = user_data;
  out[BALL_INV_ENERGY] = ball_energy(&m->p, y);
  return 0;
}

static const char *ball_mode_name(void *user_data) {
  const ball_model *m = user_data;
  if (m->event_capturing) return m->step_contact ? "contact" : "flight";
  return m->mode == BALL_FLIGHT ? "flight" : "contact";
}

static const char *const ball_inv_names[BALL_NINV] = {"energy"};
static const char *const ball_inv_units[BALL_NINV] = {"J"};

int ball_create(const ball_params *p, mbdae_form form, ball_model **out) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  int rc = ball_params_check(p, NULL);
  if (rc) return rc;
  ball_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p;
  m->form = form;
  m->n = form == MBDAE_FORM_DAE ? BALL_N_DAE : BALL_N_ODE;
  m->mode = BALL_FLIGHT;
  m->rest_time = -1.0;
  m->release_time = -1.0;
  m->problem = mbdae_problem_create(m->n, form);
  if (!m->problem) {
    free(m);
    return MBDAE_ERR_MEMORY;
  }
  mbdae_index nnz;
  const mbdae_index *colptr, *rowind;
  ball_sparse_pattern(form, &nnz, &colptr, &rowind);
  const double id[BALL_N_DAE] = {1.0, 1.0, 0.0};
  mbdae_problem *pr = m->problem;
  rc = mbdae_problem_set_user_data(pr, m);
  if (!rc) rc = form == MBDAE_FORM_DAE ? mbdae_problem_set_residual(pr, ball_residual)
                                       : mbdae_problem_set_rhs(pr, ball_rhs);
  if (!rc && form == MBDAE_FORM_DAE) rc = mbdae_problem_set_id(pr, id);
  if (!rc) rc = mbdae_problem_set_jacobian_dense(pr, ball_jac_dense);
  if (!rc) rc = mbdae_problem_set_jacobian_sparse(pr, nnz, colptr, rowind, ball_jac_sparse);
  if (!rc) rc = mbdae_problem_set_roots(pr, BALL_NROOTS, ball_roots);
  if (!rc) rc = mbdae_problem_set_event_handler(pr, ball_event);
  if (!rc) rc = mbdae_problem_set_invariants(pr, BALL_NINV, ball_inv_names, ball_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(pr, ball_inv_units);
  if (!rc) rc = mbdae_problem_set_mode_name(pr, ball_mode_name);
  if (!rc && form == MBDAE_FORM_ODE) rc = ball_set_mechanics(m);
  /* the height at a located impact is ~ the root's round-off: far below a
   * millionth of the height reached (h0 + v0^2/(2 g)) */
  if (!rc)
    rc = mbdae_problem_set_repair_tolerance(
        pr, 1e-6 * (p->h0 + 0.5 * p->v0 * p->v0 / p->g) + 1e-12);
  if (rc) {
    ball_free(&m);
    return rc;
  }
  *out = m;
  return MBDAE_OK;
}

void ball_free(ball_model **m) {
  if (!m || !*m) return;
  mbdae_problem_free(&(*m)->problem);
  free(*m);
  *m = NULL;
}

int ball_initial_state(ball_model *m, double t0, double *y, double *yp) {
  if (!m || !y) return MBDAE_ERR_ARGUMENT;
  m->impacts = 0;
  m->rest_time = -1.0;
  m->release_time = -1.0;
  m->step_contact = 0;
  m->step_force = 0.0;
  y[BALL_Q] = m->p.h0;
  y[BALL_V] = m->p.v0;
  m->mode = (m->p.h0 == 0.0 && m->p.v0 == 0.0 && resting_force(&m->p, t0) > 0.0)
                ? BALL_CONTACT : BALL_FLIGHT;
  if (m->mode == BALL_CONTACT) m->rest_time = t0;
  make_consistent(m, t0, y, yp);
  return MBDAE_OK;
}
