/* test_capture_dynamics.c - net / polytope dynamics: closed-form impacts
 * (heavy body, free light body), a capture with many contacts conserving
 * momentum with energy never rising and no penetration, the open-loop
 * minimum-thrust law and the error-stabilising law against closed forms,
 * bad input. References are computed here, independently of the model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "mbdae/engine.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

static void set3(double *d, double a, double b, double c) { d[0] = a; d[1] = b; d[2] = c; }

/* A single free point (no strings) and a box of edges 1 at the origin. */
static void single_point(capture_params *p, double body_mass) {
  capture_params_default(p);
  p->rows = p->cols = 1;
  p->strings_on = 0;
  p->point_mass = 1.0;
  p->shape = CAPTURE_SHAPE_BOX;
  set3(p->box_size, 1.0, 1.0, 1.0);
  p->body_mass = body_mass;
  p->deploy_time = 1.0;
}

static int run(capture_model *m, double *y, double t_end, double h,
               mbdae_observer_fn obs, void *od) {
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.t0 = 0.0;
  o.t_end = t_end;
  o.dt_out = 0.05;
  o.rk4_step = h;
  o.observer = obs;
  o.observer_data = od;
  mbdae_stats st;
  char msg[512] = "";
  int rc = mbdae_run(capture_problem(m), &o, y, NULL, &st, msg, sizeof msg);
  if (rc) printf("\n  run: %s: %s\n", mbdae_status_name(rc), msg);
  return rc;
}

typedef struct impact_log {
  int n;
  double t_first;
} impact_log;

static int log_impacts(double t, const double *y, const double *yp,
                       const mbdae_event_record *ev, void *ud) {
  (void)y; (void)yp;
  impact_log *L = ud;
  if (ev && ev->label && !strcmp(ev->label, "impact")) {
    if (L->n == 0) L->t_first = t;
    L->n++;
  }
  return 0;
}

/* A point hits the face x = -1/2 of a (practically) immovable box:
 * v_n -> -e v_n, v_t unchanged, at t = 1.5 s. */
static void test_heavy_body_impact(void) {
  capture_params p;
  single_point(&p, 1e12);
  set3(p.launch_point, -2.0, 0.1, 0.2);
  set3(p.launch_velocity, 1.0, 0.1, 0.0);
  p.e_body = 0.5;
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  impact_log L = {0, 0.0};
  CU_ASSERT_EQUAL(run(m, y, 2.0, 1e-3, log_impacts, &L), MBDAE_OK);
  CU_ASSERT_EQUAL(L.n, 1);
  MBDAE_ASSERT_ABS(L.t_first, 1.5, 1e-9);
  MBDAE_ASSERT_ABS(y[3], -0.5, 1e-9);          /* v_x after */
  MBDAE_ASSERT_ABS(y[4], 0.1, 1e-12);          /* v_y unchanged */
  MBDAE_ASSERT_ABS(y[0], -0.5 - 0.5 * 0.5, 1e-8);
  MBDAE_ASSERT_ABS(y[1], 0.1 + 0.1 * 2.0, 1e-12);
  free(y);
  capture_free(&m);
}

static void cross(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

/* A point of mass 1 hits a free box of mass 2 off-centre: the closed-form
 * rigid-body impact (effective mass 1/m + 1/M + (rho x n).J^-1 (rho x n)). */
static void test_light_body_impact(void) {
  capture_params p;
  single_point(&p, 2.0);
  double a = 1.0, b = 1.4, c = 0.8;
  set3(p.box_size, a, b, c);
  double e = 0.7, v0 = 1.2, vy = 0.0;
  set3(p.launch_point, -2.0, 0.3, 0.2);
  set3(p.launch_velocity, v0, vy, 0.0);
  p.e_body = e;
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  int n = capture_size(m), bo = capture_body_offset(m);
  double *y = calloc((size_t)n, sizeof *y);
  capture_initial_state(m, 0.0, y);
  double p0[3], L0[3], E0;
  capture_momenta(m, y, p0, L0, &E0);
  impact_log Lg = {0, 0.0};
  CU_ASSERT_EQUAL(run(m, y, 2.0, 1e-3, log_impacts, &Lg), MBDAE_OK);
  CU_ASSERT_EQUAL(Lg.n, 1);
  /* reference: contact at x = -a/2, t = (2 - a/2)/v0, rho = (-a/2, 0.3, 0.2) */
  MBDAE_ASSERT_ABS(Lg.t_first, (2.0 - 0.5 * a) / v0, 1e-9);
  double M = 2.0, J[3] = {M * (b * b + c * c) / 12, M * (a * a + c * c) / 12, M * (a * a + b * b) / 12};
  double nrm[3] = {-1, 0, 0}, rho[3] = {-0.5 * a, 0.3, 0.2}, rxn[3];
  cross(rho, nrm, rxn);
  double inv_meff = 1.0 / 1.0 + 1.0 / M;
  for (int i = 0; i < 3; ++i) inv_meff += rxn[i] * rxn[i] / J[i];
  double vrel_n = -v0;                      /* n . (v - U - w x rho), n outward */
  double Pi = -(1.0 + e) * vrel_n / inv_meff; /* > 0: along n on the point */
  double vp[3] = {v0 + Pi * nrm[0], vy, 0.0};
  double U[3] = {-Pi * nrm[0] / M, 0.0, 0.0};
  double w[3];
  for (int i = 0; i < 3; ++i) w[i] = -Pi * rxn[i] / J[i];
  for (int i = 0; i < 3; ++i) {
    MBDAE_ASSERT_ABS(y[3 + i], vp[i], 1e-9);
    MBDAE_ASSERT_ABS(y[bo + MBDAE_RB_U + i], U[i], 1e-9);
  }
  /* body angular momentum about its centre, inertial axes: C J w+ */
  double C[9], h[3], Jw[3];
  mbdae_rb_rotation(&y[bo + MBDAE_RB_Q], C);
  for (int i = 0; i < 3; ++i) Jw[i] = J[i] * y[bo + MBDAE_RB_W + i];
  for (int i = 0; i < 3; ++i) h[i] = C[3 * i] * Jw[0] + C[3 * i + 1] * Jw[1] + C[3 * i + 2] * Jw[2];
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(h[i], J[i] * w[i], 1e-8);
  double p1[3], L1[3], E1;
  capture_momenta(m, y, p1, L1, &E1);
  for (int i = 0; i < 3; ++i) {
    MBDAE_ASSERT_ABS(p1[i], p0[i], 1e-12);
    MBDAE_ASSERT_ABS(L1[i], L0[i], 1e-9);
  }
  CU_ASSERT(E1 < E0);
  free(y);
  capture_free(&m);
}

typedef struct capture_watch {
  capture_model *m;
  double p0[3], L0[3], E0;
  double pnorm, Lnorm;
  double worst_p, worst_L, worst_pen, worst_rise, worst_event_rise, worst_stretch;
  long events, contacts_seen;
} capture_watch;

static int watch(double t, const double *y, const double *yp,
                 const mbdae_event_record *ev, void *ud) {
  (void)t; (void)yp;
  capture_watch *w = ud;
  double p[3], L[3], E;
  capture_momenta(w->m, y, p, L, &E);
  for (int i = 0; i < 3; ++i) {
    w->worst_p = fmax(w->worst_p, fabs(p[i] - w->p0[i]) / w->pnorm);
    w->worst_L = fmax(w->worst_L, fabs(L[i] - w->L0[i]) / w->Lnorm);
  }
  double pen = capture_max_penetration(w->m, y);
  double phi[64];
  capture_constraint_values(w->m, y, phi, NULL);
  for (int k = 0; k < capture_nstrings(w->m); ++k) w->worst_stretch = fmax(w->worst_stretch, phi[k]);
  w->worst_pen = fmax(w->worst_pen, pen);
  w->worst_rise = fmax(w->worst_rise, (E - w->E0) / w->E0);
  int nc = capture_active_contacts(w->m);
  if (nc > w->contacts_seen) w->contacts_seen = nc;
  if (ev) {
    ++w->events;
    /* energy before/after each event: invariant 0 */
    if (ev->ninv > 0)
      w->worst_event_rise = fmax(w->worst_event_rise,
                                 (ev->inv_after[0] - ev->inv_before[0]) / w->E0);
  }
  return 0;
}

/* A 4 x 4 net thrown at a tumbling free box: many impacts, persistent
 * contacts, releases; no external force. */
static void test_capture_balances(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = p.cols = 4;
  p.spacing = 0.5;
  p.point_mass = 0.05;
  set3(p.launch_point, 0.1, -0.05, -3.0);
  set3(p.launch_velocity, 0.0, 0.0, 2.5);
  p.deploy_time = 0.8;
  p.shape = CAPTURE_SHAPE_BOX;
  set3(p.box_size, 1.0, 0.8, 0.6);
  p.body_mass = 1.0;
  p.body_attitude[0] = 0.95; p.body_attitude[1] = 0.2; p.body_attitude[2] = 0.1; p.body_attitude[3] = 0.2;
  set3(p.body_omega, 0.4, -0.3, 0.5);
  set3(p.body_velocity, 0.05, 0.0, -0.1);
  p.e_body = 0.0;
  p.e_string = 0.0;
  p.release_force = 1e-6;
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  capture_watch w;
  memset(&w, 0, sizeof w);
  w.m = m;
  capture_momenta(m, y, w.p0, w.L0, &w.E0);
  w.pnorm = sqrt(w.p0[0] * w.p0[0] + w.p0[1] * w.p0[1] + w.p0[2] * w.p0[2]);
  w.Lnorm = sqrt(w.L0[0] * w.L0[0] + w.L0[1] * w.L0[1] + w.L0[2] * w.L0[2]);
  CU_ASSERT_EQUAL(run(m, y, 2.5, 2e-4, watch, &w), MBDAE_OK);
  printf("\n  capture: %ld events, %ld impacts, %ld releases, %ld face switches, "
         "max contacts %ld, |dp|/|p| %.2e, |dL|/|L| %.2e, depth %.2e m, E rise %.2e, "
         "max phi %.2e m^2\n",
         w.events, capture_impacts(m), capture_releases(m), capture_face_switches(m),
         w.contacts_seen, w.worst_p, w.worst_L, w.worst_pen, w.worst_rise, w.worst_stretch);
  CU_ASSERT(capture_impacts(m) >= 10);
  CU_ASSERT(w.contacts_seen >= 2);
  CU_ASSERT(w.worst_p <= 1e-8);
  CU_ASSERT(w.worst_L <= 1e-8);
  CU_ASSERT(w.worst_event_rise <= 1e-12);
  CU_ASSERT(w.worst_rise <= 1e-8);
  CU_ASSERT(w.worst_pen <= 1e-6);
  CU_ASSERT(w.worst_stretch <= 1e-6 * p.spacing * p.spacing);
  free(y);
  capture_free(&m);
}

/* Minimum-thrust law (eqs. 4.12-4.23): free points reach R_f, V_f at t_f. */
static void test_min_thrust(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 2;
  p.cols = 3;
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
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  int np = capture_npoints(m);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  CU_ASSERT_EQUAL(run(m, y, 2.0, 1e-2, NULL, NULL), MBDAE_OK);
  /* targets: the extended net (offsets in x-y, spacing 0.5) at the centre */
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b) {
      int k = a * 3 + b;
      double R[3] = {1.0 + (a - 0.5) * 0.5, 2.0 + (b - 1.0) * 0.5, -6.0};
      double V[3] = {0.0, 0.1, 0.5};
      for (int c = 0; c < 3; ++c) {
        MBDAE_ASSERT_ABS(y[3 * k + c], R[c], 1e-10);
        MBDAE_ASSERT_ABS(y[3 * np + 3 * k + c], V[c], 1e-10);
      }
    }
  free(y);
  capture_free(&m);
}

/* Error-stabilising law (eqs. 4.30-4.42) without active constraints:
 * E'' = -2 zeta w E' - w^2 E; zeta = 1: E(t) = (E0 + (E0' + w E0) t) e^{-w t}. */
static void test_error_stabilization(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 1;
  p.cols = 2;
  p.strings_on = 0;
  set3(p.launch_point, 0.0, 0.0, -10.0);
  set3(p.launch_velocity, 0.2, 0.0, 0.5);
  p.shape = CAPTURE_SHAPE_BOX;
  set3(p.body_position, 0.0, 0.0, 10.0);
  p.control = CAPTURE_CONTROL_ERROR_STAB;
  p.zeta = 1.0;
  p.omega_n = 1.5;
  set3(p.target_center, 1.0, -1.0, -8.0);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  double Y0[12];
  memcpy(Y0, y, sizeof Y0);
  double T = 2.0, wn = 1.5;
  CU_ASSERT_EQUAL(run(m, y, T, 1e-3, NULL, NULL), MBDAE_OK);
  for (int k = 0; k < 2; ++k) {
    double R[3] = {1.0, -1.0 + (k - 0.5) * p.spacing, -8.0};
    for (int c = 0; c < 3; ++c) {
      double E0 = Y0[3 * k + c] - R[c], Ed0 = Y0[6 + 3 * k + c];
      double E = (E0 + (Ed0 + wn * E0) * T) * exp(-wn * T);
      MBDAE_ASSERT_ABS(y[3 * k + c] - R[c], E, 1e-9);
    }
  }
  free(y);
  capture_free(&m);
}

typedef struct psi_watch {
  capture_model *m;
  double psi_max;
} psi_watch;

static int watch_psi(double t, const double *y, const double *yp,
                     const mbdae_event_record *ev, void *ud) {
  (void)t; (void)yp; (void)ev;
  psi_watch *w = ud;
  double psi;
  capture_constraint_values(w->m, y, NULL, &psi);
  if (psi > w->psi_max) w->psi_max = psi;
  return 0;
}

/* Baumgarte-compliant contact (eq. 3.2) on a heavy body: psi'' + 2 xi w psi'
 * + w^2 psi = 0 from psi = 0, psi' = 2 |A| v; critically damped (xi = 1)
 * psi = psi'0 t e^{-w t}, peak psi'0 / (w e) at t = 1/w, and the point comes
 * to rest on the face (no rebound). */
static void test_baumgarte_contact(void) {
  capture_params p;
  single_point(&p, 1e12);
  p.mode = CAPTURE_MODE_BAUMGARTE;
  p.xi_body = 1.0;
  p.omega_body = 50.0;
  set3(p.launch_point, -2.0, 0.1, 0.2);
  set3(p.launch_velocity, 1.0, 0.0, 0.0);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  psi_watch w = {m, -HUGE_VAL};
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.t_end = 2.0;
  o.dt_out = 1e-4;
  o.rk4_step = 1e-4;
  o.observer = watch_psi;
  o.observer_data = &w;
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(capture_problem(m), &o, y, NULL, &st, NULL, 0), MBDAE_OK);
  double A = 2.0, v = 1.0, wn = 50.0; /* |A| = 1 / (a / 2) for the unit box */
  MBDAE_ASSERT_REL(w.psi_max, 2.0 * A * v / (wn * exp(1.0)), 1e-4);
  MBDAE_ASSERT_ABS(y[3], 0.0, 1e-6); /* at rest on the face after 0.5 s */
  MBDAE_ASSERT_ABS(y[0], -0.5, 1e-6);
  free(y);
  capture_free(&m);
}

static void test_bad_input(void) {
  capture_params p;
  capture_model *m = NULL;
  mbdae_param_error err;
  capture_params_default(&p);
  set3(p.launch_velocity, 0, 0, 1);
  set3(p.launch_point, 0.1, 0.0, 0.2); /* inside the prism */
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "launch_point");
  set3(p.launch_point, 0, 0, -5);
  p.body_mass = 0.0;
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "body_mass");
  p.body_mass = 1.0;
  p.inertia_given = 1;
  double J[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  memcpy(p.inertia, J, sizeof J);
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "inertia");
  p.inertia_given = 0;
  double v[27] = {-1, -1, -1, 1, -1, -1, -1, 1, -1, 1, 1, -1, -1, -1, 1, 1, -1, 1, -1, 1, 1, 1, 1, 1,
                  0.2, 0.1, 0.0};
  p.shape = CAPTURE_SHAPE_VERTICES;
  p.vertices = v;
  p.nvertices = 9; /* a vertex inside the cube: not convex position */
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "vertices");
  p.nvertices = 3;
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "vertices");
  p.nvertices = 8; /* the cube itself is fine */
  CU_ASSERT_EQUAL(capture_create(&p, &m, &err), MBDAE_OK);
  capture_free(&m);
  CU_ASSERT_PTR_NULL(m);
}

int main(void) {
  const mbdae_test tests[] = {
    {"point hits a heavy body: closed-form rebound", test_heavy_body_impact},
    {"point hits a free light body: rigid-body impact", test_light_body_impact},
    {"capture: momenta, energy, penetration", test_capture_balances},
    {"minimum-thrust law reaches R_f, V_f", test_min_thrust},
    {"error-stabilising law: closed-form error decay", test_error_stabilization},
    {"Baumgarte contact: critically damped closed form", test_baumgarte_contact},
    {"bad input names the key", test_bad_input},
    {NULL, NULL}};
  return mbdae_test_main("capture_dynamics", tests);
}
