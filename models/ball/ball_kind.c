/* ball_kind.c - the `bouncing_ball` model kind: parameter schema, output
 * columns, outcomes and plots of the bouncing ball (ball_model.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "ball/ball.h"
#include "mbdae/status.h"

#define BALL_PARAM(key_, field_, flags_, def_, min_, max_, unit_, doc_)         \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(ball_params, field_), flags_, def_, min_, \
   max_, 0, NULL, 0, unit_, doc_}

static const mbdae_param_spec ball_param_specs[] = {
  BALL_PARAM("g", g, MBDAE_PARAM_MIN_OPEN, 9.81, 0.0, HUGE_VAL, "m/s^2",
             "gravitational acceleration"),
  BALL_PARAM("e", e, 0, 0.7, 0.0, 1.0, "-", "Newton restitution coefficient"),
  BALL_PARAM("h0", h0, 0, 1.0, 0.0, HUGE_VAL, "m", "initial height"),
  BALL_PARAM("v0", v0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m/s",
             "initial vertical velocity (upward positive)"),
  BALL_PARAM("zeno_velocity", zeno_velocity, 0, 1e-3, 0.0, HUGE_VAL, "m/s",
             "rest when the post-impact speed e|v-| is below this"),
  BALL_PARAM("zeno_time", zeno_time, 0, 0.0, 0.0, HUGE_VAL, "s",
             "rest when the predicted remaining accumulation time is below this (0: off)"),
  BALL_PARAM("mass", mass, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "kg", "mass"),
  BALL_PARAM("lift_rate", lift_rate, 0, 0.0, -HUGE_VAL, HUGE_VAL, "N/s",
             "upward external force F(t) = lift_rate * t (release test)"),
  BALL_PARAM("alpha", alpha, 0, 10.0, 0.0, HUGE_VAL, "1/s",
             "Baumgarte rate of the contact constraint (IDA form)"),
};

static int kind_check(const void *params, mbdae_param_error *err) {
  return ball_params_check(params, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  int rc = ball_params_check(params, err);
  if (rc) return rc;
  /* IDA integrates the DAE form (normal force as a state), the others the ODE. */
  mbdae_form form = o->method == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  ball_model *m = NULL;
  rc = ball_create(params, form, &m);
  if (rc) return mbdae_param_error_build_failed(err, "ball", rc);
  m->event_capturing = o->method == MBDAE_METHOD_MOREAU;
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  ball_model *m = (ball_model *)*model;
  ball_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((ball_model *)model)->problem : NULL;
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  return ball_initial_state((ball_model *)model, t0, y, yp);
}

static const mbdae_column ball_cols[] = {
  {"height", "m"}, {"velocity", "m/s"}, {"normal_force", "N"},
  {"energy", "J"}, {"contact", "-"},
};
enum { BALL_NCOLS = (int)(sizeof ball_cols / sizeof ball_cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(ball_cols, BALL_NCOLS, cols, max);
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  (void)yp;
  const ball_model *m = (const ball_model *)model;
  row[0] = y[BALL_Q];
  row[1] = y[BALL_V];
  row[2] = ball_normal_force(m, t, y);
  row[3] = ball_energy(&m->p, y);
  row[4] = m->event_capturing ? m->step_contact : m->mode == BALL_CONTACT;
  return 0;
}

static const mbdae_column ball_event_cols[BALL_NEVDATA] = {
  {"v_minus", "m/s"}, {"v_plus", "m/s"}, {"impulse", "N s"}, {"rest", "-"},
};

static int kind_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(ball_event_cols, BALL_NEVDATA, cols, max);
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  const ball_model *m = (const ball_model *)model;
  mbdae_outcome tmp[5];
  int n = 0;
  mbdae_outcome_set(&tmp[n++], "impacts", "-", (double)m->impacts);
  mbdae_outcome_set(&tmp[n++], "final_height", "m", y[BALL_Q]);
  mbdae_outcome_set(&tmp[n++], "final_energy", "J", ball_energy(&m->p, y));
  /* moreau: rest is the run of contact steps that lasts to the end */
  if (m->rest_time >= 0.0 && (!m->event_capturing || m->step_contact))
    mbdae_outcome_set(&tmp[n++], "rest_time", "s", m->rest_time);
  if (m->release_time >= 0.0)
    mbdae_outcome_set(&tmp[n++], "release_time", "s", m->release_time);
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
  return k;
}

static const mbdae_plot_spec ball_plots[] = {
  {"height", "Bouncing ball: height", "samples", "t", "height", "t [s]", "q [m]", 0},
  {"velocity", "Bouncing ball: vertical velocity", "samples", "t", "velocity",
   "t [s]", "v [m/s]", 0},
  {"energy", "Bouncing ball: mechanical energy", "samples", "t", "energy", "t [s]",
   "E [J]", 0},
  {"normal_force", "Bouncing ball: normal force", "samples", "t", "normal_force",
   "t [s]", "N [N]", 0},
  {"impacts", "Bouncing ball: post-impact velocity", "events", "t", "v_plus",
   "t [s]", "v+ [m/s]", 1},
};

/* Checkpoints: the mode (flight / persistent contact) and the run record. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  ball_model *m = (ball_model *)model;
  mbdae_state_io(c, &m->mode, sizeof m->mode);
  mbdae_state_io(c, &m->impacts, sizeof m->impacts);
  mbdae_state_io(c, &m->rest_time, sizeof m->rest_time);
  mbdae_state_io(c, &m->release_time, sizeof m->release_time);
  mbdae_state_io(c, &m->step_contact, sizeof m->step_contact);
  mbdae_state_io(c, &m->step_force, sizeof m->step_force);
}

static int state_valid(const ball_model *m) {
  double t[3] = {m->rest_time, m->release_time, m->step_force};
  return (m->mode == BALL_FLIGHT || m->mode == BALL_CONTACT) && m->impacts >= 0 &&
         (m->step_contact == 0 || m->step_contact == 1) && mbdae_state_finite(t, 3);
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const ball_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_bouncing_ball = {
  .name = "bouncing_ball",
  .summary = "point mass bouncing on a plane: Newton restitution, Zeno rule, resting contact",
  .params_size = sizeof(ball_params),
  .params = ball_param_specs,
  .nparams = (int)(sizeof ball_param_specs / sizeof ball_param_specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = kind_event_columns,
  .outcomes = kind_outcomes,
  .plots = ball_plots,
  .nplots = (int)(sizeof ball_plots / sizeof ball_plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
