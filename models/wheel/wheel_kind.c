/* wheel_kind.c - the `wheel` model kind: parameter schema, output columns,
 * event data, outcomes and plots of the wheel at a curb (wheel_model.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "wheel/wheel.h"
#include "mbdae/status.h"

#define WHEEL_PARAM(key_, field_, def_, min_, max_, unit_, doc_)               \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(wheel_params, field_), 0, def_, min_,    \
   max_, 0, NULL, 0, unit_, doc_}

/* Physical bounds (h < r, l > 2r, mu >= 0, beta in [0, 1], X0 in Omega) are
 * checked in wheel_params_check, which names the key. */
static const mbdae_param_spec wheel_param_specs[] = {
  WHEEL_PARAM("m", m, 10.0, -HUGE_VAL, HUGE_VAL, "kg", "wheel mass"),
  WHEEL_PARAM("J", J, 0.05, -HUGE_VAL, HUGE_VAL, "kg m^2", "moment of inertia about S"),
  WHEEL_PARAM("r", r, 0.1, -HUGE_VAL, HUGE_VAL, "m", "wheel radius"),
  WHEEL_PARAM("h", h, 0.05, -HUGE_VAL, HUGE_VAL, "m", "curb height (0 < h < r)"),
  WHEEL_PARAM("l", l, 0.5, -HUGE_VAL, HUGE_VAL, "m",
              "curb length of eq. (4): corner at x = l - r (l > 2 r)"),
  WHEEL_PARAM("g", g, 9.81, -HUGE_VAL, HUGE_VAL, "m/s^2", "gravitational acceleration"),
  WHEEL_PARAM("mu", mu, 0.4, -HUGE_VAL, HUGE_VAL, "-", "Coulomb friction coefficient (>= 0)"),
  WHEEL_PARAM("beta", beta, 0.0, -HUGE_VAL, HUGE_VAL, "-",
              "Poisson restitution coefficient in [0, 1] (0: plastic)"),
  {"x0", MBDAE_PARAM_VEC, offsetof(wheel_params, x0), MBDAE_PARAM_REQUIRED, 0.0, -HUGE_VAL, HUGE_VAL,
   3, NULL, 0, "m, m, rad", "initial position (x, y, phi), inside Omega"},
  {"v0", MBDAE_PARAM_VEC, offsetof(wheel_params, v0), 0, 0.0, -HUGE_VAL, HUGE_VAL,
   3, NULL, 0, "m/s, m/s, rad/s", "initial velocity (xd, yd, phid)"},
  WHEEL_PARAM("zeno_velocity", zeno_velocity, 1e-3, -HUGE_VAL, HUGE_VAL, "m/s",
              "rebound normal speed below which the contact persists"),
};

static int kind_check(const void *params, mbdae_param_error *err) {
  return wheel_params_check(params, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  int rc = wheel_params_check(params, err);
  if (rc) return rc;
  if (o->method == MBDAE_METHOD_IDA) {
    /* the contact forces are solved in the right-hand side (ODE form) */
    if (err) {
      err->key = "method";
      snprintf(err->msg, sizeof err->msg,
               "the wheel is an ODE-form model: use cvode-bdf, cvode-adams or rk4");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  wheel_model *w = NULL;
  rc = wheel_create(params, o->linsol, &w);
  if (rc) return mbdae_param_error_build_failed(err, "wheel", rc);
  *model = (mbdae_model *)w;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  wheel_model *w = (wheel_model *)*model;
  wheel_free(&w);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((wheel_model *)model)->problem : NULL;
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  (void)yp;
  return wheel_initial_state((wheel_model *)model, t0, y);
}

static const mbdae_column wheel_cols[] = {
  {"x", "m"}, {"y", "m"}, {"phi", "rad"}, {"xd", "m/s"}, {"yd", "m/s"},
  {"phid", "rad/s"}, {"energy", "J"}, {"N_wall", "N"}, {"N_curb", "N"},
  {"N_ground", "N"}, {"T_wall", "N"}, {"T_curb", "N"}, {"T_ground", "N"},
  {"rim_x", "m"}, {"rim_y", "m"}, {"contact", "-"},
};
enum { WHEEL_NCOLS = (int)(sizeof wheel_cols / sizeof wheel_cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(wheel_cols, WHEEL_NCOLS, cols, max);
}

/* contact code: 0 free, 1-4 the segment, 5 point A, 6 point B */
static int contact_code(const wheel_model *w) {
  const wheel_mode *m = &w->mode;
  int wall = m->state[WHEEL_WALL] != WHEEL_SEP, curb = m->state[WHEEL_CURB] != WHEEL_SEP;
  int ground = m->state[WHEEL_GROUND] != WHEEL_SEP;
  if (wall && curb) return 5;
  if (curb && ground) return 6;
  if (wall) return WHEEL_SEG_I;
  if (curb) return m->curb_seg;
  if (ground) return WHEEL_SEG_IV;
  return 0;
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  (void)t; (void)yp;
  const wheel_model *w = (const wheel_model *)model;
  double z[2 * WHEEL_NC] = {0};
  if (w->mode.locked) {
    for (int i = 0; i < 2 * WHEEL_NC; ++i) z[i] = w->mode.z_locked[i];
  } else {
    double acc[3];
    if (wheel_mode_accel(&w->p, &w->mode, y, acc, z, NULL)) return 1;
  }
  for (int i = 0; i < WHEEL_N; ++i) row[i] = y[i];
  row[6] = wheel_energy(&w->p, y);
  for (int i = 0; i < 2 * WHEEL_NC; ++i) row[7 + i] = z[i];
  /* a point on the rim, to show the rotation in the trajectory plots */
  row[13] = y[WHEEL_X] + w->p.r * cos(y[WHEEL_PHI]);
  row[14] = y[WHEEL_Y] + w->p.r * sin(y[WHEEL_PHI]);
  row[15] = contact_code(w);
  return 0;
}

static const mbdae_column wheel_event_cols[WHEEL_NEVDATA] = {
  {"kind", "-"}, {"seg1", "-"}, {"seg2", "-"}, {"state1", "-"}, {"state2", "-"},
  {"PN1", "N s"}, {"PN2", "N s"}, {"PT1", "N s"}, {"PT2", "N s"},
  {"RN1", "N s"}, {"RN2", "N s"}, {"RT1", "N s"}, {"RT2", "N s"},
  {"cases", "-"}, {"nsol", "-"}, {"dE", "J"},
};

static int kind_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(wheel_event_cols, WHEEL_NEVDATA, cols, max);
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  const wheel_model *w = (const wheel_model *)model;
  mbdae_outcome tmp[9];
  int n = 0;
  mbdae_outcome_set(&tmp[n++], "collisions", "-", (double)w->collisions);
  mbdae_outcome_set(&tmp[n++], "transitions", "-", (double)w->transitions);
  mbdae_outcome_set(&tmp[n++], "max_cases_per_collision", "-", (double)w->max_cases);
  mbdae_outcome_set(&tmp[n++], "max_energy_gain_at_collision", "J", w->max_energy_gain);
  mbdae_outcome_set(&tmp[n++], "final_x", "m", y[WHEEL_X]);
  mbdae_outcome_set(&tmp[n++], "final_y", "m", y[WHEEL_Y]);
  mbdae_outcome_set(&tmp[n++], "final_phi", "rad", y[WHEEL_PHI]);
  mbdae_outcome_set(&tmp[n++], "final_energy", "J", wheel_energy(&w->p, y));
  mbdae_outcome_set(&tmp[n++], "final_contact", "-", (double)contact_code(w));
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
  return k;
}

static const mbdae_plot_spec wheel_plots[] = {
  {"positions", "Wheel: path of a rim point, showing the rotation (cf. figs. 10, 11)",
   "samples", "rim_x", "rim_y", "x [m]", "y [m]", 0},
  {"trajectory", "Wheel: centre trajectory (cf. fig. 12)", "samples", "x", "y",
   "x [m]", "y [m]", 0},
  {"x", "Wheel: x(t) (cf. fig. 13a)", "samples", "t", "x", "t [s]", "x [m]", 0},
  {"y", "Wheel: y(t) (cf. fig. 13b)", "samples", "t", "y", "t [s]", "y [m]", 0},
  {"phi", "Wheel: phi(t) (cf. fig. 13c)", "samples", "t", "phi", "t [s]", "phi [rad]", 0},
  {"xd", "Wheel: xd(t) (cf. fig. 14a)", "samples", "t", "xd", "t [s]", "xd [m/s]", 0},
  {"yd", "Wheel: yd(t) (cf. fig. 14b)", "samples", "t", "yd", "t [s]", "yd [m/s]", 0},
  {"phid", "Wheel: phid(t) (cf. fig. 14c)", "samples", "t", "phid", "t [s]",
   "phid [rad/s]", 0},
  {"forces", "Wheel: normal forces", "samples", "t", "N_*", "t [s]", "N [N]", 0},
  {"energy", "Wheel: mechanical energy", "samples", "t", "energy", "t [s]", "E [J]", 0},
  {"contact", "Wheel: contact (0 free, 1-4 segment I-IV, 5 point A, 6 point B)",
   "samples", "t", "contact", "t [s]", "contact [-]", 0},
  {"collisions", "Wheel: normal impulses at collisions", "events", "t", "PN1,PN2",
   "t [s]", "impulse [N s]", 1},
};

/* Checkpoints (doc/checkpoint.md): the contact mode (per-contact state, curb segment, lock) and the run record. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  wheel_model *m = (wheel_model *)model;
  mbdae_state_io(c, &m->mode, sizeof m->mode);
  mbdae_state_io(c, m->mode_name, sizeof m->mode_name);
  mbdae_state_io(c, &m->collisions, sizeof m->collisions);
  mbdae_state_io(c, &m->transitions, sizeof m->transitions);
  mbdae_state_io(c, &m->max_cases, sizeof m->max_cases);
  mbdae_state_io(c, &m->max_energy_gain, sizeof m->max_energy_gain);
  mbdae_state_io(c, &m->max_post_vn, sizeof m->max_post_vn);
}

static int state_valid(const wheel_model *m) {
  const wheel_mode *md = &m->mode;
  for (int k = 0; k < WHEEL_NC; ++k)
    if (md->state[k] < WHEEL_SEP || md->state[k] > WHEEL_SLIP_NEG) return 0;
  double v[2] = {m->max_energy_gain, m->max_post_vn};
  return md->curb_seg >= 0 && md->curb_seg <= WHEEL_SEG_IV && (md->locked == 0 || md->locked == 1) &&
         mbdae_state_finite(md->z_locked, 2 * WHEEL_NC) && mbdae_state_finite(v, 2) &&
         m->collisions >= 0 && m->transitions >= 0 && m->max_cases >= 0 &&
         memchr(m->mode_name, '\0', sizeof m->mode_name) != NULL;
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const wheel_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_wheel = {
  .name = "wheel",
  .summary = "planar wheel at a curb: unilateral contacts, Coulomb friction, "
             "plastic/Poisson collisions, two-contact corners (Grzesikiewicz 2020)",
  .params_size = sizeof(wheel_params),
  .params = wheel_param_specs,
  .nparams = (int)(sizeof wheel_param_specs / sizeof wheel_param_specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = kind_event_columns,
  .outcomes = kind_outcomes,
  .plots = wheel_plots,
  .nplots = (int)(sizeof wheel_plots / sizeof wheel_plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
