/* pendulum_kind.c - the `pendulum` model kind: parameter schema (with the
 * formulation enum), output columns, outcomes and plots (pendulum_model.c). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "mbdae/status.h"
#include "pendulum/pendulum.h"

static const char *const pend_formulations[] = {"ggl", "baumgarte", NULL};

#define PEND_PARAM(key_, field_, flags_, def_, min_, max_, unit_, doc_)           \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(pendulum_params, field_), flags_, def_, min_, \
   max_, 0, NULL, 0, unit_, doc_}

static const mbdae_param_spec pend_param_specs[] = {
  PEND_PARAM("length", length, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "m",
             "rod length L"),
  PEND_PARAM("mass", mass, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "kg", "bob mass"),
  PEND_PARAM("g", g, MBDAE_PARAM_MIN_OPEN, 9.81, 0.0, HUGE_VAL, "m/s^2",
             "gravitational acceleration"),
  PEND_PARAM("theta0", theta0, 0, 1.0, -HUGE_VAL, HUGE_VAL, "rad",
             "initial angle from the downward vertical"),
  PEND_PARAM("omega0", omega0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "rad/s",
             "initial angular velocity"),
  {"formulation", MBDAE_PARAM_ENUM, offsetof(pendulum_params, formulation), 0,
   PEND_GGL, 0, 1, 0, pend_formulations, 0, "-",
   "ggl (index 2, IDA) or baumgarte (index 1, IDA or ODE)"},
  PEND_PARAM("alpha", alpha, 0, 5.0, 0.0, HUGE_VAL, "1/s",
             "Baumgarte gain: 2 alpha phi'"),
  PEND_PARAM("beta", beta, 0, 5.0, 0.0, HUGE_VAL, "1/s", "Baumgarte gain: beta^2 phi"),
};

static int kind_check(const void *params, mbdae_param_error *err) {
  return pendulum_params_check(params, err);
}

/* The index-2 GGL system in IDA. Newton corrections of the index-2
 * variables carry the round-off of the constraint rows amplified by
 * cj = O(1/h): |d mu| ~ eps / h, |d lambda| ~ m eps |v| / (L h). So
 * (1) lambda and mu are kept out of the local error test (suppress_alg),
 * (2) their absolute tolerance in the Newton convergence test is set to
 *     1e-9 of their natural scales (m g / L and sqrt(g / L)) unless the
 *     caller gave a per-component atol (measured on the 100-period case:
 *     1e-6 leaves an energy error of 3e-7 m g L through inexact lambda,
 *     1e-9 gives 2e-8, 1e-11 makes the Newton iteration fail on noise), and
 * (3) the first step is 1e-6 sqrt(L / g) unless the caller chose one: IDA's
 *     own guess, 0.5 / ||y'||_WRMS, is ~ atol / g for a bob starting at rest,
 *     where the amplified round-off (eps / h) exceeds any such tolerance. */
static void ggl_solver_settings(const pendulum_params *p, mbdae_options *o,
                                pendulum_model *m) {
  const double tau = sqrt(p->length / p->g);
  o->suppress_alg = 1;
  if (o->h_init <= 0.0) o->h_init = 1e-6 * tau;
  if (!o->atol_vec) {
    for (int i = 0; i < PEND_N_GGL; ++i) m->atol[i] = o->atol;
    m->atol[PEND_LAMBDA] = fmax(o->atol, 1e-9 * p->mass * p->g / p->length);
    m->atol[PEND_MU] = fmax(o->atol, 1e-9 / tau);
    o->atol_vec = m->atol;
  }
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  const pendulum_params *p = params;
  int rc = pendulum_params_check(p, err);
  if (rc) return rc;
  mbdae_form form = o->method == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  if (p->formulation == PEND_GGL && form != MBDAE_FORM_DAE) {
    if (err) {
      err->key = "solver.method";
      snprintf(err->msg, sizeof err->msg,
               "method %s integrates the ODE form; formulation ggl is an index-2 DAE and "
               "needs method ida (formulation baumgarte runs with %s)",
               mbdae_method_name(o->method), mbdae_method_name(o->method));
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  pendulum_model *m = NULL;
  rc = pendulum_create(p, form, &m);
  if (rc) return mbdae_param_error_build_failed(err, "pendulum", rc);
  if (p->formulation == PEND_GGL) ggl_solver_settings(p, o, m);
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  pendulum_model *m = (pendulum_model *)*model;
  pendulum_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((pendulum_model *)model)->problem : NULL;
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  return pendulum_initial_state((pendulum_model *)model, t0, y, yp);
}

static const mbdae_column pend_cols[] = {
  {"x", "m"}, {"y", "m"}, {"vx", "m/s"}, {"vy", "m/s"}, {"theta", "rad"},
  {"tension", "N"}, {"energy", "J"}, {"energy_error", "-"}, {"phi", "m"},
  {"phi_dot", "m/s"},
};
enum { PEND_NCOLS = (int)(sizeof pend_cols / sizeof pend_cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(pend_cols, PEND_NCOLS, cols, max);
}

/* Energy error relative to m g L (the energy itself may be 0). */
static double energy_error(const pendulum_model *m, const double *y) {
  const pendulum_params *p = &m->p;
  return (pendulum_energy(p, y) - m->energy0) / (p->mass * p->g * p->length);
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  const pendulum_model *m = (const pendulum_model *)model;
  double inv[PEND_NINV];
  pendulum_invariants(t, y, yp, inv, (void *)model);
  row[0] = y[PEND_X];
  row[1] = y[PEND_Y];
  row[2] = y[PEND_VX];
  row[3] = y[PEND_VY];
  row[4] = atan2(y[PEND_X], -y[PEND_Y]);
  row[5] = pendulum_lambda(m, y) * m->p.length;
  row[6] = inv[PEND_INV_ENERGY];
  row[7] = energy_error(m, y);
  row[8] = inv[PEND_INV_PHI];
  row[9] = inv[PEND_INV_PHIDOT];
  return 0;
}

static const mbdae_column pend_event_cols[PEND_NEVDATA] = {
  {"direction", "-"}, {"vx", "m/s"},
};

static int kind_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(pend_event_cols, PEND_NEVDATA, cols, max);
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  const pendulum_model *m = (const pendulum_model *)model;
  double inv[PEND_NINV];
  pendulum_invariants(0.0, y, yp, inv, (void *)model);
  mbdae_outcome tmp[5];
  int n = 0;
  mbdae_outcome_set(&tmp[n++], "crossings", "-", (double)m->crossings);
  if (m->crossings >= 2)
    mbdae_outcome_set(&tmp[n++], "period", "s",
                (m->last_crossing - m->first_crossing) / (double)(m->crossings - 1));
  mbdae_outcome_set(&tmp[n++], "final_energy_error", "-", energy_error(m, y));
  mbdae_outcome_set(&tmp[n++], "final_phi", "m", inv[PEND_INV_PHI]);
  mbdae_outcome_set(&tmp[n++], "final_phi_dot", "m/s", inv[PEND_INV_PHIDOT]);
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
  return k;
}

static const mbdae_plot_spec pend_plots[] = {
  {"trajectory", "Pendulum: bob path", "samples", "x", "y", "x [m]", "y [m]", 0},
  {"angle", "Pendulum: angle", "samples", "t", "theta", "t [s]", "theta [rad]", 0},
  {"energy_error", "Pendulum: energy error / (m g L)", "samples", "t", "energy_error",
   "t [s]", "dE / (m g L)", 0},
  {"drift", "Pendulum: constraint drift", "samples", "t", "phi,phi_dot", "t [s]",
   "|r| - L [m], (r.v)/L [m/s]", 0},
};

/* Checkpoints (doc/checkpoint.md): the run record of the crossings (the form has no modes). */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  pendulum_model *m = (pendulum_model *)model;
  mbdae_state_io(c, &m->crossings, sizeof m->crossings);
  mbdae_state_io(c, &m->first_crossing, sizeof m->first_crossing);
  mbdae_state_io(c, &m->last_crossing, sizeof m->last_crossing);
  mbdae_state_io(c, &m->energy0, sizeof m->energy0);
}

static int state_valid(const pendulum_model *m) {
  double t[3] = {m->first_crossing, m->last_crossing, m->energy0};
  return m->crossings >= 0 && mbdae_state_finite(t, 3);
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const pendulum_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_pendulum = {
  .name = "pendulum",
  .summary = "planar pendulum in Cartesian coordinates (index-3 DAE): GGL or Baumgarte",
  .params_size = sizeof(pendulum_params),
  .params = pend_param_specs,
  .nparams = (int)(sizeof pend_param_specs / sizeof pend_param_specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = kind_event_columns,
  .outcomes = kind_outcomes,
  .plots = pend_plots,
  .nplots = (int)(sizeof pend_plots / sizeof pend_plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
