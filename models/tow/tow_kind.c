/* tow_kind.c - the `tow` model kind: a chaser towing a captured body
 * through an elastic tether (tow.h, doc/tow.md): schema, output columns
 * with the energy ledger and the momentum balance, outcomes, plots. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "tow/tow.h"

#define D(key_, field_, flags_, def_, min_, max_, unit_, doc_)                    \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(tow_params, field_), flags_, def_, min_, max_, 0, \
   NULL, 0, unit_, doc_}
#define V(key_, field_, len_, def_, unit_, doc_)                                   \
  {key_, MBDAE_PARAM_VEC, offsetof(tow_params, field_), 0, def_, -HUGE_VAL, HUGE_VAL, \
   len_, NULL, 0, unit_, doc_}

static const char *const shape_choices[] = {"box", "prism", NULL};

/* defaults: tow_params_default (VEC defaults are one number for every
 * element, so the vectors with distinct elements are filled in check) */
static const mbdae_param_spec specs[] = {
  D("tether_length", tether_length, MBDAE_PARAM_MIN_OPEN, 100.0, 0.0, HUGE_VAL, "m",
    "unstretched tether length"),
  {"tether_nodes", MBDAE_PARAM_INT, offsetof(tow_params, tether_nodes), 0, 100, 2, 100000, 0,
   NULL, 0, "-", "lumped tether nodes N (N + 1 threads)"},
  D("EA", tether_ea, MBDAE_PARAM_MIN_OPEN, 2.2e5, 0.0, HUGE_VAL, "N",
    "axial stiffness (default: 2 mm Kevlar 29, E = 70.5 GPa)"),
  D("tether_damping", tether_damping, 0, 0.0, 0.0, HUGE_VAL, "N s",
    "eta: T = EA eps + eta eps eps' (tension only, doc/compliant.md)"),
  D("tether_density", tether_density, MBDAE_PARAM_MIN_OPEN, 4.5e-3, 0.0, HUGE_VAL, "kg/m",
    "mass per length (default: 2 mm Kevlar 29, 1440 kg/m^3)"),
  D("tether_onset", tether_onset, 0, 0.0, 0.0, HUGE_VAL, "m",
    "C2 onset of the tension over |stretch| < onset (0: the plain kink at slack; doc/tow.md)"),
  D("ledger_tolerance", ledger_tol, 0, 0.0, 0.0, HUGE_VAL, "-",
    "error per step allowed each state's share of the ledger, relative to max(E0 + W, D) "
    "(0: off; doc/tow.md)"),
  D("initial_slack", initial_slack, 0, 0.0, 0.0, 1.0, "-",
    "the tether starts straight over (1 - slack) of its length"),
  V("direction", direction, 3, 0.0, "-", "from the body towards the chaser (all zero: +x)"),
  D("chaser_mass", chaser_mass, MBDAE_PARAM_MIN_OPEN, 500.0, 0.0, HUGE_VAL, "kg", "chaser mass"),
  V("chaser_position", chaser_position, 3, 0.0, "m", "initial chaser position"),
  V("chaser_velocity", chaser_velocity, 3, 0.0, "m/s", "initial velocity of everything"),
  {"thrust", MBDAE_PARAM_TABLE, offsetof(tow_params, thrust), 0, 0.0, -HUGE_VAL, HUGE_VAL, 4,
   NULL, offsetof(tow_params, nthrust), "s, N",
   "rows [t, Fx, Fy, Fz]: piecewise linear, held before the first and after the last row"},
  D("thrust_period", thrust_period, 0, 0.0, 0.0, HUGE_VAL, "s",
    "repeat the thrust table with this period (0: no repetition)"),
  {"shape", MBDAE_PARAM_ENUM, offsetof(tow_params, shape), 0, 0, 0, 0, 0, shape_choices, 0, "-",
   "body shape"},
  V("box_size", box_size, 3, 0.0, "m", "box edges (all zero: 3 x 2 x 2)"),
  {"prism_sides", MBDAE_PARAM_INT, offsetof(tow_params, prism_sides), 0, 8, 3, 32, 0, NULL, 0,
   "-", "N of the N-gonal prism"},
  D("prism_radius", prism_radius, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "m", "prism circumradius"),
  D("prism_length", prism_length, MBDAE_PARAM_MIN_OPEN, 3.0, 0.0, HUGE_VAL, "m", "prism length"),
  D("body_mass", body_mass, MBDAE_PARAM_MIN_OPEN, 1000.0, 0.0, HUGE_VAL, "kg",
    "captured body's mass (uniform density)"),
  V("body_attitude", body_attitude, 4, 0.0, "-", "quaternion, body -> inertial (all zero: identity)"),
  V("body_omega", body_omega, 3, 0.0, "rad/s", "angular velocity, body axes"),
  V("attachment", attachment, 3, 0.0, "m",
    "tether attachment, body frame from the centre (all zero: the +x face's centre)"),
  V("gravity", gravity, 3, 0.0, "m/s^2", "uniform gravity (0 in orbit)"),
};

static int all_zero(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (v[i] != 0.0) return 0;
  return 1;
}

/* the schema's all-zero vectors stand for the documented defaults */
static void fill_defaults(tow_params *p) {
  if (all_zero(p->direction, 3)) p->direction[0] = 1.0;
  if (all_zero(p->box_size, 3)) {
    p->box_size[0] = 3.0;
    p->box_size[1] = p->box_size[2] = 2.0;
  }
  if (all_zero(p->body_attitude, 4)) p->body_attitude[0] = 1.0;
  if (all_zero(p->attachment, 3))
    p->attachment[0] = p->shape == TOW_SHAPE_BOX ? 0.5 * p->box_size[0] : 0.0,
    p->attachment[2] = p->shape == TOW_SHAPE_BOX ? 0.0 : 0.5 * p->prism_length;
}

static int kind_check(const void *params, mbdae_param_error *err) {
  tow_params p = *(const tow_params *)params;
  fill_defaults(&p);
  return tow_params_check(&p, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  if (o->method == MBDAE_METHOD_MOREAU) {
    if (err) {
      err->key = "solver.method";
      snprintf(err->msg, sizeof err->msg,
               "the tow has no constraints or impacts (elastic threads): use ida, cvode-bdf, "
               "cvode-adams or rk4");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  tow_params p = *(const tow_params *)params;
  fill_defaults(&p);
  tow_model *m = NULL;
  int rc = tow_create(&p, o->method == MBDAE_METHOD_IDA, &m, err);
  if (rc) return rc == MBDAE_ERR_PARAMETER ? rc : mbdae_param_error_build_failed(err, "tow", rc);
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  tow_model *m = (tow_model *)*model;
  tow_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((tow_model *)model)->problem : NULL;
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  return tow_initial_state((tow_model *)model, t0, y, yp);
}

static const mbdae_column cols[] = {
  {"chaser_x", "m"}, {"chaser_y", "m"}, {"chaser_z", "m"},
  {"chaser_vx", "m/s"}, {"chaser_vy", "m/s"}, {"chaser_vz", "m/s"},
  {"body_x", "m"}, {"body_y", "m"}, {"body_z", "m"},
  {"body_vx", "m/s"}, {"body_vy", "m/s"}, {"body_vz", "m/s"},
  {"body_wx", "rad/s"}, {"body_wy", "rad/s"}, {"body_wz", "rad/s"},
  {"separation", "m"}, {"max_tension", "N"}, {"taut_threads", "-"},
  {"thrust_x", "N"}, {"thrust_y", "N"}, {"thrust_z", "N"},
  {"kinetic", "J"}, {"elastic", "J"}, {"potential", "J"},
  {"thrust_work", "J"}, {"damping_loss", "J"},
  {"ledger_residual", "J"}, {"ledger_residual_rel", "-"}, {"momentum_residual_rel", "-"},
};
enum { NCOLS = (int)(sizeof cols / sizeof cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *out, int max) {
  (void)model;
  return mbdae_columns_copy(cols, NCOLS, out, max);
}

static int kind_output_row(mbdae_model *model, double t, const double *y, const double *yp,
                           double *row) {
  (void)yp;
  tow_model *m = (tow_model *)model;
  int np = m->npt;
  const double *bs = &y[m->boff];
  tow_ledger L;
  tow_ledger_eval(m, t, y, &L);
  double F[3];
  tow_thrust(&m->p, t, F);
  for (int c = 0; c < 3; ++c) {
    row[c] = y[c];
    row[3 + c] = y[3 * np + c];
    row[6 + c] = bs[MBDAE_RB_P + c];
    row[9 + c] = bs[MBDAE_RB_U + c];
    row[12 + c] = bs[MBDAE_RB_W + c];
    row[18 + c] = F[c];
  }
  row[15] = L.separation;
  row[16] = L.max_tension;
  row[17] = L.taut;
  row[21] = L.kinetic;
  row[22] = L.elastic;
  row[23] = L.potential;
  row[24] = L.work;
  row[25] = L.dissipated;
  row[26] = L.residual;
  row[27] = L.residual_rel;
  row[28] = L.momentum_residual_rel;
  m->t_last = t;
  m->max_ledger_rel = fmax(m->max_ledger_rel, L.residual_rel);
  m->max_momentum_rel = fmax(m->max_momentum_rel, L.momentum_residual_rel);
  m->max_tension = fmax(m->max_tension, L.max_tension);
  if ((L.taut == 0) != (m->last_taut == 0)) ++m->slack_taut_switches;
  m->last_taut = L.taut;
  return 0;
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  tow_model *m = (tow_model *)model;
  tow_ledger L;
  /* the final time is not passed: the work state and the impulse need it,
   * so the ledger is re-evaluated at the time the state belongs to */
  double t = m->t_last;
  tow_ledger_eval(m, t, y, &L);
  mbdae_outcome o[12];
  int n = 0;
  mbdae_outcome_set(&o[n++], "ledger_residual_rel", "-", L.residual_rel);
  mbdae_outcome_set(&o[n++], "max_ledger_residual_rel", "-", fmax(m->max_ledger_rel, L.residual_rel));
  mbdae_outcome_set(&o[n++], "momentum_residual_rel", "-", L.momentum_residual_rel);
  mbdae_outcome_set(&o[n++], "max_momentum_residual_rel", "-",
                    fmax(m->max_momentum_rel, L.momentum_residual_rel));
  mbdae_outcome_set(&o[n++], "thrust_work", "J", L.work);
  mbdae_outcome_set(&o[n++], "damping_loss", "J", L.dissipated);
  mbdae_outcome_set(&o[n++], "final_kinetic", "J", L.kinetic);
  mbdae_outcome_set(&o[n++], "final_elastic", "J", L.elastic);
  mbdae_outcome_set(&o[n++], "max_tension", "N", fmax(m->max_tension, L.max_tension));
  mbdae_outcome_set(&o[n++], "final_separation", "m", L.separation);
  mbdae_outcome_set(&o[n++], "slack_taut_switches", "-", (double)m->slack_taut_switches);
  if (!out) return n;
  int k = n < max ? n : max;
  memcpy(out, o, (size_t)k * sizeof *o);
  return k;
}

static const mbdae_plot_spec plots[] = {
  {"ledger", "Energy ledger: kinetic + elastic + potential - (E0 + thrust work - damping loss)",
   "samples", "t", "ledger_residual", "t (s)", "J", 0},
  {"energy", "Energies, thrust work and damping loss", "samples", "t",
   "kinetic,elastic,thrust_work,damping_loss", "t (s)", "J", 0},
  {"tension", "Largest thread tension", "samples", "t", "max_tension", "t (s)", "N", 0},
  {"separation", "Chaser - attachment distance", "samples", "t", "separation", "t (s)", "m", 0},
};

/* Checkpoints: the running maxima and counters the outcomes report. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  tow_model *m = (tow_model *)model;
  mbdae_state_io(c, &m->max_ledger_rel, sizeof m->max_ledger_rel);
  mbdae_state_io(c, &m->max_momentum_rel, sizeof m->max_momentum_rel);
  mbdae_state_io(c, &m->max_tension, sizeof m->max_tension);
  mbdae_state_io(c, &m->slack_taut_switches, sizeof m->slack_taut_switches);
  mbdae_state_io(c, &m->last_taut, sizeof m->last_taut);
  mbdae_state_io(c, &m->t_last, sizeof m->t_last);
}

/* A checkpoint is trusted only past its checksum: what a load restored is
 * checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  const tow_model *m = (const tow_model *)model;
  double v[4] = {m->max_ledger_rel, m->max_momentum_rel, m->max_tension, m->t_last};
  int ok = mbdae_state_finite(v, 4) && m->max_ledger_rel >= 0.0 && m->max_momentum_rel >= 0.0 &&
           m->max_tension >= 0.0 && m->slack_taut_switches >= 0 && m->last_taut >= 0;
  return ok ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_tow = {
  .name = "tow",
  .summary = "chaser towing a captured polytope body through an elastic tether (energy ledger)",
  .params_size = sizeof(tow_params),
  .params = specs,
  .nparams = (int)(sizeof specs / sizeof specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .outcomes = kind_outcomes,
  .plots = plots,
  .nplots = (int)(sizeof plots / sizeof plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
