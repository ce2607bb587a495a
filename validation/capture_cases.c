/* capture_cases.c - validation of the net-capture family against closed
 * forms written here: polytope mass properties, point/body impacts,
 * the minimum-thrust law. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "mbdae/engine.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"
#include "polytope/polytope.h"
#include "polytope/rigid_body.h"

static void set3(double *d, double a, double b, double c) { d[0] = a; d[1] = b; d[2] = c; }

static int run_rk4(capture_model *m, double *y, double t_end, double h) {
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.t_end = t_end;
  o.dt_out = 0.1;
  o.rk4_step = h;
  mbdae_stats st;
  return mbdae_run(capture_problem(m), &o, y, NULL, &st, NULL, 0);
}

/* Octagonal prism of sec. 3.4.1 (r = 1, L = 2, m = 3): volume and inertia. */
static int case_prism(mbdae_validation_report *rep) {
  const double pi = 3.14159265358979323846;
  double v[48], m = 3.0;
  mbdae_polytope_prism_vertices(8, 1.0, 2.0, v);
  mbdae_polytope *P = NULL;
  int rc = mbdae_polytope_create(v, 16, m, NULL, &P, NULL, NULL);
  if (rc) return rc;
  double k2 = (1.0 + 2.0 * cos(pi / 8) * cos(pi / 8)) / 6.0;
  mbdae_validation_add(rep, "octagonal prism volume (m^3)", 4.0 * sin(pi / 4) * 2.0, P->volume, 1e-12, 1);
  mbdae_validation_add(rep, "octagonal prism J_zz (kg m^2)", m * k2, P->J[8], 1e-12, 1);
  mbdae_validation_add(rep, "octagonal prism J_xx (kg m^2)", m * (0.5 * k2 + 4.0 / 12.0), P->J[0], 1e-12, 1);
  mbdae_validation_add(rep, "octagonal prism faces", 10.0, P->nf, 0.0, 0);
  mbdae_polytope_free(&P);
  return 0;
}

static void single_point(capture_params *p, double body_mass) {
  capture_params_default(p);
  p->rows = p->cols = 1;
  p->strings_on = 0;
  p->point_mass = 1.0;
  p->shape = CAPTURE_SHAPE_BOX;
  set3(p->box_size, 1.0, 1.0, 1.0);
  p->body_mass = body_mass;
}

/* A point hitting a heavy box: v_n -> -e v_n (e = 0.5), v_t kept. */
static int case_heavy(mbdae_validation_report *rep) {
  capture_params p;
  single_point(&p, 1e12);
  set3(p.launch_point, -2.0, 0.1, 0.2);
  set3(p.launch_velocity, 1.0, 0.1, 0.0);
  p.e_body = 0.5;
  capture_model *m = NULL;
  int rc = capture_create(&p, &m, NULL);
  if (rc) return rc;
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  if (!y) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  capture_initial_state(m, 0.0, y);
  rc = run_rk4(m, y, 2.0, 1e-3);
  if (!rc) {
    mbdae_validation_add(rep, "heavy body: normal velocity after (m/s)", -0.5, y[3], 1e-9, 0);
    mbdae_validation_add(rep, "heavy body: tangential velocity after (m/s)", 0.1, y[4], 1e-12, 0);
    mbdae_validation_add(rep, "heavy body: x at t = 2 s (m)", -0.75, y[0], 1e-8, 0);
  }
  free(y);
  capture_free(&m);
  return rc;
}

/* A point of 1 kg hits a free 2 kg box off-centre (e = 0.7). */
static int case_light(mbdae_validation_report *rep) {
  capture_params p;
  single_point(&p, 2.0);
  double a = 1.0, b = 1.4, c = 0.8, e = 0.7, v0 = 1.2;
  set3(p.box_size, a, b, c);
  set3(p.launch_point, -2.0, 0.3, 0.2);
  set3(p.launch_velocity, v0, 0.0, 0.0);
  p.e_body = e;
  capture_model *m = NULL;
  int rc = capture_create(&p, &m, NULL);
  if (rc) return rc;
  int bo = capture_body_offset(m);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  if (!y) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  capture_initial_state(m, 0.0, y);
  double p0[3], L0[3], E0, p1[3], L1[3], E1;
  capture_momenta(m, y, p0, L0, &E0);
  rc = run_rk4(m, y, 2.0, 1e-3);
  if (!rc) {
    double M = 2.0, J[3] = {M * (b * b + c * c) / 12, M * (a * a + c * c) / 12, M * (a * a + b * b) / 12};
    double rxn[3] = {0.0, -0.2, 0.3}; /* (-a/2, 0.3, 0.2) x (-1, 0, 0) */
    double inv = 1.0 + 1.0 / M;
    for (int i = 0; i < 3; ++i) inv += rxn[i] * rxn[i] / J[i];
    double Pi = (1.0 + e) * v0 / inv;
    capture_momenta(m, y, p1, L1, &E1);
    mbdae_validation_add(rep, "light body: point velocity after (m/s)", v0 - Pi, y[3], 1e-9, 0);
    mbdae_validation_add(rep, "light body: body velocity after (m/s)", Pi / M, y[bo + MBDAE_RB_U], 1e-9, 0);
    mbdae_validation_add(rep, "light body: energy lost (J)",
                         0.5 * (1.0 - e * e) * v0 * v0 / inv, E0 - E1, 1e-9, 1);
    mbdae_validation_add(rep, "light body: linear momentum change (kg m/s)", 0.0, fabs(p1[0] - p0[0]), 1e-12, 0);
    mbdae_validation_add(rep, "light body: angular momentum change (kg m^2/s)", 0.0,
                         fabs(L1[0] - L0[0]) + fabs(L1[1] - L0[1]) + fabs(L1[2] - L0[2]), 1e-9, 0);
  }
  free(y);
  capture_free(&m);
  return rc;
}

/* Minimum-thrust law (eqs. 4.12-4.23, sign-corrected): free 2 x 2 net. */
static int case_min_thrust(mbdae_validation_report *rep) {
  capture_params p;
  capture_params_default(&p);
  p.rows = p.cols = 2;
  p.strings_on = 0;
  p.spacing = 0.5;
  set3(p.launch_point, 0.0, 0.0, -10.0);
  set3(p.launch_velocity, 0.3, -0.2, 1.0);
  p.shape = CAPTURE_SHAPE_BOX;
  set3(p.body_position, 0.0, 0.0, 10.0);
  p.control = CAPTURE_CONTROL_MIN_THRUST;
  p.control_tf = 2.0;
  set3(p.target_center, 1.0, 2.0, -6.0);
  set3(p.target_velocity, 0.0, 0.1, 0.5);
  capture_model *m = NULL;
  int rc = capture_create(&p, &m, NULL);
  if (rc) return rc;
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  if (!y) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  capture_initial_state(m, 0.0, y);
  rc = run_rk4(m, y, 2.0, 1e-2);
  if (!rc) {
    mbdae_validation_add(rep, "min thrust: x of point 0 at t_f (m)", 1.0 - 0.25, y[0], 1e-10, 0);
    mbdae_validation_add(rep, "min thrust: z of point 3 at t_f (m)", -6.0, y[11], 1e-10, 0);
    mbdae_validation_add(rep, "min thrust: v_z of point 0 at t_f (m/s)", 0.5, y[12 + 2], 1e-10, 0);
  }
  free(y);
  capture_free(&m);
  return rc;
}

const mbdae_validation_case mbdae_validation_capture[] = {
  {"capture_prism", "octagonal prism (capps sec. 3.4.1): volume, inertia, faces", case_prism},
  {"capture_heavy_impact", "point hits a heavy body: Newton rebound", case_heavy},
  {"capture_light_impact", "point hits a free light box off-centre: rigid-body impact", case_light},
  {"capture_min_thrust", "minimum-thrust law reaches R_f, V_f (capps eqs. 4.12-4.23)", case_min_thrust},
  {NULL, NULL, NULL}};
