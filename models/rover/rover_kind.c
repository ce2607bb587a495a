/* rover/rover_kind.c - the `rover` model kind: parameter schema (Table 1 of
 * the seed), instance creation in the DAE form (IDA: dependent coordinates
 * and multipliers) or the null-space ODE form (CVODE, RK4), output columns,
 * outcomes (the steady rolling state and its stability) and plots. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "rover/rover.h"

#define RP(key_, field_, flags_, def_, min_, max_, unit_, doc_)                \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(rover_params, field_), flags_, def_,     \
   min_, max_, 0, NULL, 0, unit_, doc_}
#define RV(key_, field_, len_, unit_, doc_)                                    \
  {key_, MBDAE_PARAM_VEC, offsetof(rover_params, field_), 0, 0.0, -HUGE_VAL,   \
   HUGE_VAL, len_, NULL, 0, unit_, doc_}
#define POS MBDAE_PARAM_MIN_OPEN

static const char *const rover_table_choices[] = {"printed", "consistent", NULL};

static const mbdae_param_spec rover_param_specs[] = {
  RP("g", g, POS, 9.81, 0.0, HUGE_VAL, "m/s^2", "gravitational acceleration"),
  RP("r", r, POS, 1.0, 0.0, HUGE_VAL, "m", "sphere radius"),
  RP("m_s", m_s, POS, 5.0, 0.0, HUGE_VAL, "kg", "sphere mass"),
  RP("k_s", k_s, POS, 0.4, 0.0, HUGE_VAL, "-",
     "sphere inertia factor, J_s = k_s m_s r^2 (Table 1: 2/5)"),
  RP("l", l, POS, 0.9, 0.0, HUGE_VAL, "m", "pendulum length (centre to cube centre), <= r"),
  RP("w", w, 0, 0.025, 0.0, HUGE_VAL, "m", "pendulum rod width"),
  RP("h", h, 0, 0.1, 0.0, HUGE_VAL, "m", "payload cube height"),
  RP("m_r", m_r, POS, 5.0, 0.0, HUGE_VAL, "kg", "pendulum rod mass"),
  RP("m_c", m_c, POS, 30.0, 0.0, HUGE_VAL, "kg", "payload cube mass"),
  {"table", MBDAE_PARAM_ENUM, offsetof(rover_params, table), 0, 1.0, 0.0, 1.0,
   0, rover_table_choices, 0, "-",
   "Table 1 variant: printed (c_c = -1/2 m_c l z, w in J_c33) or consistent "
   "(c_c = -m_c l z, h in J_c33)"},
  RP("b_p", b_p, POS, 1.5, 0.0, HUGE_VAL, "N m s", "generator damping"),
  RP("b_r", b_r, POS, 3.5, 0.0, HUGE_VAL, "kg/s", "rolling (translational) damping"),
  RP("b_s", b_s, POS, 3.5, 0.0, HUGE_VAL, "N m s", "spin damping (Table 1: r^2 b_r)"),
  RP("rho", rho, 0, 1.2, 0.0, HUGE_VAL, "kg/m^3", "air density"),
  RP("area", area, 0, 3.141592653589793, 0.0, HUGE_VAL, "m^2",
     "frontal area A (pi r^2)"),
  RP("c_d", c_d, 0, 0.5, 0.0, HUGE_VAL, "-", "drag coefficient (sphere)"),
  RP("wind_speed", wind_speed, 0, 30.0 / 3.6, -HUGE_VAL, HUGE_VAL, "m/s",
     "v_ave, wind along i1"),
  RP("wind_tau", wind_tau, POS, 2.0, 0.0, HUGE_VAL, "s",
     "wind ramp v_ave (1 - exp(-t/tau))"),
  RV("omega0", omega0, 3, "rad/s", "initial omega_s^si (sphere frame)"),
  RP("phidot0", phidot0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "rad/s", "initial phi'"),
  RV("euler0", euler0, 3, "deg", "initial 3-1-2 Euler angles (gamma, beta, alpha)"),
  RP("phi0", phi0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "deg", "initial pendulum angle phi"),
  RV("pos0", pos0, 2, "m", "initial centre position (x, y)"),
};

int rover_create(const rover_params *p, mbdae_form form, rover_model **out) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  int rc = rover_params_check(p, NULL);
  if (rc) return rc;
  rover_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p;
  rover_mass_properties(p, &m->mp);
  m->form = form;
  m->n = form == MBDAE_FORM_DAE ? ROVER_N_DAE : ROVER_N_ODE;
  m->problem = mbdae_problem_create(m->n, form);
  if (!m->problem) { free(m); return MBDAE_ERR_MEMORY; }
  static const char *const inv_names[] = {"V"};
  static const char *const inv_units[] = {"J"};
  rc = mbdae_problem_set_user_data(m->problem, m);
  if (!rc && form == MBDAE_FORM_DAE) {
    double id[ROVER_N_DAE]; /* every component appears differentiated */
    for (int i = 0; i < ROVER_N_DAE; ++i) id[i] = 1.0;
    rc = mbdae_problem_set_residual(m->problem, rover_residual);
    if (!rc) rc = mbdae_problem_set_id(m->problem, id);
  } else if (!rc) {
    rc = mbdae_problem_set_rhs(m->problem, rover_rhs);
  }
  if (!rc) rc = mbdae_problem_set_invariants(m->problem, 1, inv_names, rover_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(m->problem, inv_units);
  if (rc) { rover_free(&m); return rc; }
  *out = m;
  return MBDAE_OK;
}

void rover_free(rover_model **m) {
  if (!m || !*m) return;
  mbdae_problem_free(&(*m)->problem);
  free(*m);
  *m = NULL;
}

static int kind_check(const void *params, mbdae_param_error *err) {
  return rover_params_check(params, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  int rc = rover_params_check(params, err);
  if (rc) return rc;
  /* IDA: dependent coordinates with multipliers (velocity-level
   * constraints, multipliers through their integrals); the others: the
   * null-space ODE. Jacobians are SUNDIALS' internal difference quotients. */
  mbdae_form form = o->method == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  if (o->linsol == MBDAE_LINSOL_KLU && o->method != MBDAE_METHOD_RK4) {
    if (err) {
      err->key = "solver.linear_solver";
      snprintf(err->msg, sizeof err->msg,
               "the rover is small and dense (no sparse pattern): use linear_solver: dense");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  rover_model *m = NULL;
  rc = rover_create(params, form, &m);
  if (rc) return mbdae_param_error_build_failed(err, "rover", rc);
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  rover_model *m = (rover_model *)*model;
  rover_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((rover_model *)model)->problem : NULL;
}

/* The scenario gives only independent quantities (attitudes, phi, w_s,
 * phi'), from which the dependent ones (v, w_p, z, multipliers, yp) follow,
 * so the initial state is consistent by construction; a DAE state is still
 * passed through the projection and its size recorded (outcome
 * initial_projection). */
static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  rover_model *m = (rover_model *)model;
  if (!m || !y) return MBDAE_ERR_ARGUMENT;
  if (m->form == MBDAE_FORM_ODE) {
    rover_initial_ode(&m->p, y);
    m->projected = 0;
    m->projection = 0;
    return MBDAE_OK;
  }
  double ypl[ROVER_N_DAE];
  if (rover_initial_dae(&m->p, &m->mp, t0, y, ypl) != 0)
    return MBDAE_ERR_INCONSISTENT;
  double ch = rover_project_dae(&m->p, &m->mp, t0, y, yp);
  if (ch < 0) return MBDAE_ERR_INCONSISTENT;
  m->projection = ch;
  m->projected = ch > 1e-12;
  return MBDAE_OK;
}

static const mbdae_column rover_cols[] = {
  {"omega_s1", "rad/s"}, {"omega_s2", "rad/s"}, {"omega_s3", "rad/s"},
  {"phidot", "rad/s"}, {"gamma", "deg"}, {"beta", "deg"}, {"alpha", "deg"},
  {"phi", "deg"}, {"theta_p", "deg"}, {"vx", "m/s"}, {"vy", "m/s"},
  {"speed", "m/s"}, {"x", "m"}, {"y", "m"}, {"wind", "m/s"}, {"Fw_x", "N"},
  {"Fw_y", "N"}, {"power", "W"}, {"energy_gen", "J"}, {"Fc_x", "N"},
  {"Fc_y", "N"}, {"Fc_z", "N"}, {"hinge_t1", "N m"}, {"hinge_t3", "N m"},
  {"V", "J"}, {"dissipated", "J"}, {"wind_work", "J"}, {"contact_slip", "m/s"},
  {"hinge_drift", "-"},
};
enum { ROVER_NCOLS = (int)(sizeof rover_cols / sizeof rover_cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(rover_cols, ROVER_NCOLS, cols, max);
}

static double wrap_deg(double a) {
  const double pi = 3.14159265358979323846;
  a = fmod(a + pi, 2 * pi);
  if (a < 0) a += 2 * pi;
  return (a - pi) * 180.0 / pi;
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  (void)yp;
  const rover_model *m = (const rover_model *)model;
  const rover_params *p = &m->p;
  rover_state s;
  const double r2d = 180.0 / 3.14159265358979323846;
  if (m->form == MBDAE_FORM_ODE) {
    double acc[4];
    rover_state_from_ode(p, y, &s);
    if (rover_reduced_accel(p, &m->mp, t, &s, acc, s.lambda) != 0) return -1;
  } else {
    rover_state_from_dae(y, yp, &s);
  }
  double g, b, a, Ct[9], C_ps[9], Fw[3], A[45], u[9];
  rover_c_to_euler312(s.C_si, &g, &b, &a);
  rover_mat_t(s.C_si, Ct);
  rover_matmul(s.C_pi, Ct, C_ps);
  rover_wind_force(p, t, s.v, Fw);
  rover_constraints(p, &s, A);
  for (int i = 0; i < 3; ++i) { u[i] = s.v[i]; u[3 + i] = s.w_s[i]; u[6 + i] = s.w_p[i]; }
  double slip = 0;
  for (int i = 0; i < 3; ++i) {
    double sum = 0;
    for (int j = 0; j < 9; ++j) sum += A[i * 9 + j] * u[j];
    slip += sum * sum;
  }
  int k = 0;
  for (int i = 0; i < 3; ++i) row[k++] = s.w_s[i];
  row[k++] = s.phidot;
  row[k++] = g * r2d;
  row[k++] = b * r2d;
  row[k++] = a * r2d;
  row[k++] = m->form == MBDAE_FORM_ODE ? wrap_deg(y[ROVER_O_PHI])
                                       : atan2(C_ps[6] - C_ps[2], C_ps[0] + C_ps[8]) * r2d;
  row[k++] = atan2(s.C_pi[6], s.C_pi[8]) * r2d;
  row[k++] = s.v[0];
  row[k++] = s.v[1];
  row[k++] = sqrt(s.v[0] * s.v[0] + s.v[1] * s.v[1]);
  row[k++] = s.pos[0];
  row[k++] = s.pos[1];
  row[k++] = rover_wind(p, t);
  row[k++] = Fw[0];
  row[k++] = Fw[1];
  row[k++] = p->b_p * s.phidot * s.phidot;
  row[k++] = s.e_gen;
  for (int i = 0; i < 5; ++i) row[k++] = s.lambda[i];
  row[k++] = rover_lyapunov(p, &m->mp, &s);
  row[k++] = s.e_diss;
  row[k++] = s.w_wind;
  row[k++] = sqrt(slip);
  row[k++] = sqrt(C_ps[1] * C_ps[1] + C_ps[3] * C_ps[3] + C_ps[5] * C_ps[5] +
                  C_ps[7] * C_ps[7] + (C_ps[4] - 1) * (C_ps[4] - 1));
  return 0;
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  const rover_model *m = (const rover_model *)model;
  mbdae_outcome tmp[12];
  int n = 0;
  rover_steady ss;
  rover_state s;
  if (m->form == MBDAE_FORM_ODE) rover_state_from_ode(&m->p, y, &s);
  else rover_state_from_dae(y, yp, &s);
  const double r2d = 180.0 / 3.14159265358979323846;
  if (rover_steady_state(&m->p, m->p.wind_speed, &ss) == MBDAE_OK) {
    double wr[7], wi[7], mx = -HUGE_VAL;
    mbdae_outcome_set(&tmp[n++], "steady_speed", "m/s", ss.speed);
    mbdae_outcome_set(&tmp[n++], "steady_theta_p", "deg", ss.theta_p * r2d);
    mbdae_outcome_set(&tmp[n++], "steady_power", "W", ss.power);
    if (rover_steady_eigen(&m->p, m->p.wind_speed, wr, wi) == MBDAE_OK) {
      for (int i = 0; i < 7; ++i) if (wr[i] > mx) mx = wr[i];
      mbdae_outcome_set(&tmp[n++], "steady_max_real_eig", "1/s", mx);
      mbdae_outcome_set(&tmp[n++], "steady_stable", "-", mx < 0 ? 1.0 : 0.0);
    }
  }
  mbdae_outcome_set(&tmp[n++], "final_speed", "m/s", sqrt(s.v[0] * s.v[0] + s.v[1] * s.v[1]));
  mbdae_outcome_set(&tmp[n++], "final_power", "W", m->p.b_p * s.phidot * s.phidot);
  mbdae_outcome_set(&tmp[n++], "energy_generated", "J", s.e_gen);
  mbdae_outcome_set(&tmp[n++], "final_x", "m", s.pos[0]);
  mbdae_outcome_set(&tmp[n++], "final_y", "m", s.pos[1]);
  mbdae_outcome_set(&tmp[n++], "initial_projection", "-", m->projection);
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
  return k;
}

static const mbdae_plot_spec rover_plots[] = {
  {"angular_velocity", "Rover: omega_s and phi'", "samples", "t",
   "omega_s*,phidot", "t [s]", "[rad/s]", 0},
  {"euler_angles", "Rover: 3-1-2 Euler angles and phi", "samples", "t",
   "gamma,beta,alpha,phi", "t [s]", "[deg]", 0},
  {"velocity", "Rover: centre velocity", "samples", "t", "vx,vy", "t [s]", "[m/s]", 0},
  {"path", "Rover: path of the centre", "samples", "x", "y", "x [m]", "y [m]", 0},
  {"wind_force", "Rover: wind force", "samples", "t", "Fw_x,Fw_y", "t [s]", "[N]", 0},
  {"power", "Rover: generated power", "samples", "t", "power", "t [s]", "P [W]", 0},
  {"contact_force", "Rover: contact force", "samples", "t", "Fc_*", "t [s]", "[N]", 0},
};

/* Checkpoints (doc/checkpoint.md): the rover has no mode and no run
 * record (its projection note is redone by initial_state): no fields. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  (void)model;
  (void)c;
}

const mbdae_model_kind mbdae_model_rover = {
  .name = "rover",
  .summary = "pendulum tumbleweed rover (Forbes 2010): rolling sphere, generator pendulum, wind",
  .params_size = sizeof(rover_params),
  .params = rover_param_specs,
  .nparams = (int)(sizeof rover_param_specs / sizeof rover_param_specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = NULL,
  .outcomes = kind_outcomes,
  .plots = rover_plots,
  .nplots = (int)(sizeof rover_plots / sizeof rover_plots[0]),
  .state_fields = kind_state_fields,
};
