/* double_pendulum_wall.c - a model kind written outside the library: a
 * double pendulum whose lower bob bounces off a vertical wall.
 *
 * Built twice (examples/CMakeLists.txt): as the plug-in
 * libdouble_pendulum_wall.so, which `mbdae run --plugin` loads through its
 * entry point mbdae_plugin_init() at the end of this file, and into the
 * program examples/double_pendulum_wall_run.c, which registers the kind
 * itself. Either way the kind gets what the built-in ones get: the schema
 * checks of the scenario loader, `mbdae list --params`, series.csv,
 * events.csv, summary.json, results.mat, plots, VTK frames, sweeps and
 * checkpoints. doc/first-model-kind.md walks through it.
 *
 * Two point masses m1, m2 on massless rods l1, l2 hang from a pivot at the
 * origin; theta1, theta2 are measured from the downward vertical (positive
 * towards +x). The Lagrangian
 *   L = (m1+m2) l1^2 w1^2 / 2 + m2 l2^2 w2^2 / 2 + m2 l1 l2 w1 w2 cos(d)
 *       + (m1+m2) g l1 cos(theta1) + m2 g l2 cos(theta2),   d = theta1 - theta2,
 * gives M(q) q'' = f(q, q') with
 *   M = [(m1+m2) l1^2, m2 l1 l2 cos d; m2 l1 l2 cos d, m2 l2^2],
 *   f = [-m2 l1 l2 sin(d) w2^2 - (m1+m2) g l1 sin(theta1),
 *         m2 l1 l2 sin(d) w1^2 - m2 g l2 sin(theta2)].
 * The wall is the line x = wall: the gap of the lower bob is
 *   gap(q) = wall - l1 sin(theta1) - l2 sin(theta2) >= 0,  G = dgap/dq.
 * At gap = 0 with gap' < 0, Newton's law gap'+ = -e gap'- with the impulse
 * along M^-1 G^T:  w+ = w- - (1 + e) gap'- M^-1 G^T / (G M^-1 G^T), which
 * takes (1 - e^2) gap'-^2 / (2 G M^-1 G^T) of kinetic energy. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "mbdae/geometry.h"
#include "mbdae/model.h"
#include "mbdae/status.h"

#include "double_pendulum_wall.h"

/* ---- parameters: the struct the scenario loader fills, and its schema ---- */
typedef struct dpw_params {
  double m1, m2, l1, l2, g, wall, e;
  double theta1, theta2, omega1, omega2;
} dpw_params;

#define DPW(key_, field_, flags_, def_, min_, max_, unit_, doc_)                             \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(dpw_params, field_), flags_, def_, min_, max_, 0, NULL, \
   0, unit_, doc_}

static const mbdae_param_spec dpw_specs[] = {
  DPW("m1", m1, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "kg", "upper bob mass"),
  DPW("m2", m2, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "kg", "lower bob mass"),
  DPW("l1", l1, MBDAE_PARAM_MIN_OPEN, 0.5, 0.0, HUGE_VAL, "m", "upper rod length"),
  DPW("l2", l2, MBDAE_PARAM_MIN_OPEN, 0.5, 0.0, HUGE_VAL, "m", "lower rod length"),
  DPW("g", g, 0, 9.81, 0.0, HUGE_VAL, "m/s^2", "gravitational acceleration"),
  DPW("wall", wall, MBDAE_PARAM_MIN_OPEN, 0.3, 0.0, HUGE_VAL, "m",
      "x of the wall, right of the pivot"),
  DPW("e", e, 0, 0.8, 0.0, 1.0, "-", "coefficient of restitution at the wall"),
  DPW("theta1", theta1, 0, -1.0, -HUGE_VAL, HUGE_VAL, "rad", "initial upper angle"),
  DPW("theta2", theta2, 0, -0.5, -HUGE_VAL, HUGE_VAL, "rad", "initial lower angle"),
  DPW("omega1", omega1, 0, 0.0, -HUGE_VAL, HUGE_VAL, "rad/s", "initial upper angular velocity"),
  DPW("omega2", omega2, 0, 0.0, -HUGE_VAL, HUGE_VAL, "rad/s", "initial lower angular velocity"),
};

static double gap_of(const dpw_params *p, const double *q) {
  return p->wall - p->l1 * sin(q[0]) - p->l2 * sin(q[1]);
}

/* Physical cross-field checks: the loader reports them as FILE:LINE: key. */
static int dpw_check(const void *params, mbdae_param_error *err) {
  const dpw_params *p = params;
  if (p->wall >= p->l1 + p->l2) {
    err->key = "wall";
    snprintf(err->msg, sizeof err->msg, "the wall (%g m) is out of reach (l1 + l2 = %g m)",
             p->wall, p->l1 + p->l2);
    return MBDAE_ERR_PARAMETER;
  }
  const double q[2] = {p->theta1, p->theta2};
  if (gap_of(p, q) < 0.0) {
    err->key = "theta2";
    snprintf(err->msg, sizeof err->msg,
             "the lower bob starts behind the wall (gap %.3g m): it must start at x <= wall",
             gap_of(p, q));
    return MBDAE_ERR_PARAMETER;
  }
  return MBDAE_OK;
}

/* ---- the model instance ---- */
typedef struct dpw_model {
  dpw_params p;
  mbdae_problem *problem;
  /* the run record (outcomes), saved in checkpoints */
  long impacts;
  double energy0, energy_lost;
  /* the VTK scene: pivot, bobs, two wall ends; rods and the wall as lines */
  double points[5 * 3], part_cells[7], speed[5];
  int lines[3 * 2], verts[2];
} dpw_model;

static void mass_matrix(const dpw_params *p, const double *q, double M[3]) {
  M[0] = (p->m1 + p->m2) * p->l1 * p->l1;      /* M11 */
  M[1] = p->m2 * p->l1 * p->l2 * cos(q[0] - q[1]); /* M12 = M21 */
  M[2] = p->m2 * p->l2 * p->l2;                /* M22 */
}

static double energy(const dpw_params *p, const double *y) {
  double M[3];
  mass_matrix(p, y, M);
  const double *w = y + 2;
  double T = 0.5 * (M[0] * w[0] * w[0] + 2.0 * M[1] * w[0] * w[1] + M[2] * w[1] * w[1]);
  double V = -(p->m1 + p->m2) * p->g * p->l1 * cos(y[0]) - p->m2 * p->g * p->l2 * cos(y[1]);
  return T + V;
}

/* y = (theta1, theta2, omega1, omega2): y' = (w, M^-1 f). */
static int dpw_rhs(double t, const double *y, double *f, void *user_data) {
  const dpw_params *p = &((const dpw_model *)user_data)->p;
  (void)t;
  double M[3];
  mass_matrix(p, y, M);
  const double s = sin(y[0] - y[1]);
  const double r1 = -p->m2 * p->l1 * p->l2 * s * y[3] * y[3] - (p->m1 + p->m2) * p->g * p->l1 * sin(y[0]);
  const double r2 = p->m2 * p->l1 * p->l2 * s * y[2] * y[2] - p->m2 * p->g * p->l2 * sin(y[1]);
  const double det = M[0] * M[2] - M[1] * M[1]; /* m1 m2 l1^2 l2^2 + ... > 0 */
  f[0] = y[2];
  f[1] = y[3];
  f[2] = (M[2] * r1 - M[1] * r2) / det;
  f[3] = (M[0] * r2 - M[1] * r1) / det;
  return 0;
}

static int dpw_roots(double t, const double *y, const double *yp, double *g, void *user_data) {
  (void)t, (void)yp;
  g[0] = gap_of(&((const dpw_model *)user_data)->p, y);
  return 0;
}

/* The impact map (see the top of the file). Event data: gap' before and
 * after, and the kinetic energy taken. */
static int dpw_impact(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                      void *user_data) {
  dpw_model *m = user_data;
  const dpw_params *p = &m->p;
  (void)t, (void)yp;
  if (dirs[0] != -1) return MBDAE_EVENT_NOCHANGE; /* leaving the wall */
  double M[3];
  mass_matrix(p, y, M);
  const double G[2] = {-p->l1 * cos(y[0]), -p->l2 * cos(y[1])};
  const double det = M[0] * M[2] - M[1] * M[1];
  const double MiG[2] = {(M[2] * G[0] - M[1] * G[1]) / det, (M[0] * G[1] - M[1] * G[0]) / det};
  const double W = G[0] * MiG[0] + G[1] * MiG[1];
  const double before = G[0] * y[2] + G[1] * y[3];
  const double E0 = energy(p, y);
  y[2] -= (1.0 + p->e) * before * MiG[0] / W;
  y[3] -= (1.0 + p->e) * before * MiG[1] / W;
  const double lost = E0 - energy(p, y);
  m->impacts++;
  m->energy_lost += lost;
  info->label = "impact";
  info->ndata = 3;
  info->data[0] = before;
  info->data[1] = G[0] * y[2] + G[1] * y[3];
  info->data[2] = lost;
  return MBDAE_EVENT_CONTINUE;
}

static int dpw_invariants(double t, const double *y, const double *yp, double *out,
                          void *user_data) {
  (void)t, (void)yp;
  out[0] = energy(&((const dpw_model *)user_data)->p, y);
  return 0;
}

static int dpw_create(const void *params, mbdae_options *o, mbdae_model **model,
                      mbdae_param_error *err) {
  if (o->method == MBDAE_METHOD_IDA || o->method == MBDAE_METHOD_MOREAU) {
    err->key = "solver.method";
    snprintf(err->msg, sizeof err->msg,
             "double_pendulum_wall is an ODE with events: use cvode-bdf, cvode-adams, rk4 or "
             "arkode, not %s", mbdae_method_name(o->method));
    return MBDAE_ERR_UNSUPPORTED;
  }
  dpw_model *m = calloc(1, sizeof *m);
  if (!m) return mbdae_param_error_build_failed(err, "double pendulum", MBDAE_ERR_MEMORY);
  m->p = *(const dpw_params *)params;
  static const char *const inv_names[] = {"energy"};
  static const char *const inv_units[] = {"J"}; /* events.csv: energy_before [J] */
  m->problem = mbdae_problem_create(4, MBDAE_FORM_ODE);
  int rc = m->problem ? MBDAE_OK : MBDAE_ERR_MEMORY;
  if (!rc) rc = mbdae_problem_set_user_data(m->problem, m);
  if (!rc) rc = mbdae_problem_set_rhs(m->problem, dpw_rhs);
  if (!rc) rc = mbdae_problem_set_roots(m->problem, 1, dpw_roots);
  if (!rc) rc = mbdae_problem_set_event_handler(m->problem, dpw_impact);
  if (!rc) rc = mbdae_problem_set_invariants(m->problem, 1, inv_names, dpw_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(m->problem, inv_units);
  if (rc) {
    mbdae_problem_free(&m->problem);
    free(m);
    return mbdae_param_error_build_failed(err, "double pendulum", rc);
  }
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void dpw_destroy(mbdae_model **model) {
  if (!model || !*model) return;
  dpw_model *m = (dpw_model *)*model;
  mbdae_problem_free(&m->problem);
  free(m);
  *model = NULL;
}

static mbdae_problem *dpw_problem(mbdae_model *model) {
  return ((dpw_model *)model)->problem;
}

static int dpw_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  dpw_model *m = (dpw_model *)model;
  (void)t0, (void)yp;
  y[0] = m->p.theta1;
  y[1] = m->p.theta2;
  y[2] = m->p.omega1;
  y[3] = m->p.omega2;
  m->impacts = 0;
  m->energy_lost = 0.0;
  m->energy0 = energy(&m->p, y);
  return MBDAE_OK;
}

/* ---- output: series columns, event data, outcomes, plots ---- */
static const mbdae_column dpw_cols[] = {
  {"theta1", "rad"}, {"theta2", "rad"}, {"omega1", "rad/s"}, {"omega2", "rad/s"},
  {"x1", "m"},       {"y1", "m"},       {"x2", "m"},          {"y2", "m"},
  {"gap", "m"},      {"energy", "J"},
};
enum { DPW_NCOLS = (int)(sizeof dpw_cols / sizeof dpw_cols[0]) };

static int dpw_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(dpw_cols, DPW_NCOLS, cols, max);
}

static int dpw_output_row(mbdae_model *model, double t, const double *y, const double *yp,
                          double *row) {
  const dpw_params *p = &((const dpw_model *)model)->p;
  (void)t, (void)yp;
  for (int i = 0; i < 4; ++i) row[i] = y[i];
  row[4] = p->l1 * sin(y[0]);
  row[5] = -p->l1 * cos(y[0]);
  row[6] = row[4] + p->l2 * sin(y[1]);
  row[7] = row[5] - p->l2 * cos(y[1]);
  row[8] = gap_of(p, y);
  row[9] = energy(p, y);
  return 0;
}

static const mbdae_column dpw_event_cols[] = {
  {"gap_rate_before", "m/s"}, {"gap_rate_after", "m/s"}, {"energy_lost", "J"}};

static int dpw_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return mbdae_columns_copy(dpw_event_cols, 3, cols, max);
}

static int dpw_outcomes(mbdae_model *model, const double *y, const double *yp,
                        mbdae_outcome *out, int max) {
  const dpw_model *m = (const dpw_model *)model;
  (void)yp;
  if (!out) return 3;
  int n = 0;
  if (n < max) mbdae_outcome_set(&out[n++], "impacts", "-", (double)m->impacts);
  if (n < max) mbdae_outcome_set(&out[n++], "energy_lost", "J", m->energy_lost);
  if (n < max) mbdae_outcome_set(&out[n++], "final_energy", "J", energy(&m->p, y));
  return n;
}

static const mbdae_plot_spec dpw_plots[] = {
  {"path", "Double pendulum: lower bob", "samples", "x2", "y2", "x [m]", "y [m]", 0},
  {"angles", "Double pendulum: angles", "samples", "t", "theta1,theta2", "t [s]", "rad", 0},
  {"energy", "Double pendulum: energy", "samples", "t", "energy", "t [s]", "E [J]", 0},
};

/* ---- checkpoints: the run record beyond y ---- */
static void dpw_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  dpw_model *m = (dpw_model *)model;
  mbdae_state_io(c, &m->impacts, sizeof m->impacts);
  mbdae_state_io(c, &m->energy0, sizeof m->energy0);
  mbdae_state_io(c, &m->energy_lost, sizeof m->energy_lost);
}

/* A checkpoint is trusted only past its checksum: what it restores is checked. */
static int dpw_state_check(const mbdae_model *model) {
  const dpw_model *m = (const dpw_model *)model;
  double v[2] = {m->energy0, m->energy_lost};
  return m->impacts >= 0 && mbdae_state_finite(v, 2) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind double_pendulum_wall_kind = {
  .name = "double_pendulum_wall",
  .summary = "double pendulum whose lower bob bounces off a wall (a plug-in example)",
  .params_size = sizeof(dpw_params),
  .params = dpw_specs,
  .nparams = (int)(sizeof dpw_specs / sizeof dpw_specs[0]),
  .check = dpw_check,
  .create = dpw_create,
  .destroy = dpw_destroy,
  .problem = dpw_problem,
  .initial_state = dpw_initial_state,
  .columns = dpw_columns,
  .output_row = dpw_output_row,
  .event_columns = dpw_event_columns,
  .outcomes = dpw_outcomes,
  .plots = dpw_plots,
  .nplots = (int)(sizeof dpw_plots / sizeof dpw_plots[0]),
  .state_fields = dpw_state_fields, /* checkpoints: one field list */
  .state_check = dpw_state_check,   /* ... and what a load restored, checked */
};

/* ---- the VTK scene (doc/paraview.md): points, vertex cells, lines ---- */
int double_pendulum_wall_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  dpw_model *m = (dpw_model *)model;
  const dpw_params *p = &m->p;
  double row[DPW_NCOLS];
  double f[4];
  dpw_output_row(model, 0.0, y, NULL, row);
  dpw_rhs(0.0, y, f, m);
  const double pts[5][3] = {{0, 0, 0},
                            {row[4], row[5], 0},
                            {row[6], row[7], 0},
                            {p->wall, 0.25 * (p->l1 + p->l2), 0},
                            {p->wall, -1.25 * (p->l1 + p->l2), 0}};
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 3; ++k) m->points[3 * i + k] = pts[i][k];
  const double v1 = p->l1 * fabs(y[2]);
  const double vx2 = p->l1 * cos(y[0]) * y[2] + p->l2 * cos(y[1]) * y[3];
  const double vy2 = p->l1 * sin(y[0]) * y[2] + p->l2 * sin(y[1]) * y[3];
  const double speed[5] = {0, v1, hypot(vx2, vy2), 0, 0};
  for (int i = 0; i < 5; ++i) m->speed[i] = speed[i];
  static const int lines[6] = {0, 1, 1, 2, 3, 4};
  static const int verts[2] = {1, 2};
  /* part, in cell order (the 2 vertices, then the 3 lines): 1 upper bob,
   * 2 lower bob, 3 upper rod, 4 lower rod, 0 the wall */
  static const double part[5] = {1, 2, 3, 4, 0};
  for (int i = 0; i < 6; ++i) m->lines[i] = lines[i];
  for (int i = 0; i < 2; ++i) m->verts[i] = verts[i];
  for (int i = 0; i < 5; ++i) m->part_cells[i] = part[i];
  g->npoints = 5;
  g->points = m->points;
  g->nlines = 3;
  g->lines = m->lines;
  g->nverts = 2;
  g->verts = m->verts;
  g->npolys = 0;
  g->npoint_arrays = 1;
  g->point_arrays[0] = (mbdae_geometry_array){"speed", 1, m->speed};
  g->ncell_arrays = 1;
  g->cell_arrays[0] = (mbdae_geometry_array){"part", 1, m->part_cells};
  return 0;
}

int double_pendulum_wall_register(char *err, size_t errlen) {
  int rc = mbdae_model_kind_register(&double_pendulum_wall_kind, err, errlen);
  if (!rc) rc = mbdae_geometry_register(double_pendulum_wall_kind.name,
                                        double_pendulum_wall_geometry);
  return rc;
}

/* The plug-in's entry point (MBDAE_PLUGIN_INIT_SYMBOL, mbdae/model.h). */
MBDAE_EXPORT int mbdae_plugin_init(void);
int mbdae_plugin_init(void) { return double_pendulum_wall_register(NULL, 0); }
