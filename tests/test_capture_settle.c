/* test_capture_settle.c - after an event map no root of net_capture's event
 * mode is left on its wrong side.
 *
 * The engine sees a root only when it crosses 0, so a held row that pushes
 * (a string) or pulls (a contact) right after an event map is never released
 * and the run goes on silently wrong (the 10 x 10 demo ended with a string
 * 0.147 m beyond its length). Two maps that leave one, in closed form:
 *
 * 1. A string that pushes. Equal masses m at A = (0,0,0), B = (d,0,0),
 *    C = (d,L,0), strings AB (held, d = L sqrt(1 - delta): a hair short, as
 *    the drift control leaves held strings) and BC (slack, at its length and
 *    stretching). v_A = (0,w,0), v_B = 0, v_C = (0,2w,0). Row c = |r_b - r_a|^2
 *    - L^2, reaction M^-1 G^T lambda, Baumgarte target c'' = -2 xi W c' - W^2 c:
 *    held AB alone has 8 d^2 lambda / m + 2 |v_B - v_A|^2 = W^2 delta L^2, so
 *    lambda_AB = m (W^2 delta L^2 - 2 w^2) / (8 d^2): it pulls while
 *    2 w^2 > W^2 delta L^2. BC goes taut plastically (e_string 0): its impulse
 *    acts along y at B, orthogonal to AB's row there, so B and C end at the
 *    mean (0,w,0) and AB takes no impulse. The net now translates rigidly:
 *    held AB would carry lambda_AB = m W^2 delta L^2 / (8 d^2) > 0, a push.
 *    It must come out released (slack: |AB| < L), BC held with no force.
 *
 * 2. A contact that pulls. A box of mass M at rest; B on the centre of its
 *    top face, A a string's length L above it (string held, taut), v_A =
 *    (w,0,-u), v_B = (0,0,-u). B hits the face plastically (e_body 0): A, B
 *    and the box end at v_z = -2 m u / (2 m + M) (momentum; every impulse on
 *    the z axis through the centre of mass: no rotation), A keeps v_x = w.
 *    The string then pulls B up with the centripetal load of A's swing
 *    (m w^2 / L for B free), so a held contact on B would have to pull B
 *    down: it must come out released, the string held and pulling.
 *
 * 3. A string an impact makes taut that would push (released) or pull (held),
 *    the acceleration-level complementarity problem over the closed rows.
 *    Equal masses m at A = B - L e1, B, C = B + L u (u = (-1/2, sqrt3/2, 0),
 *    e1.u = -1/2), string BC held at its length, AB at its length and
 *    stretching: v_A = (-s, a, 0), v_B = 0, v_C = w (sqrt3/2, 1/2, 0) (BC
 *    neither stretching nor slackening). AB goes taut plastically; held BC
 *    keeps its length (release_held off: it may take either impulse). With
 *    p = 2 L Pi_AB / m, q = 2 L Pi_BC / m the changes are dv_A = -p e1,
 *    dv_B = p e1 - q u, dv_C = q u, and c'_AB = c'_BC = 0 after give
 *    s + 2p + q/2 = 0, 2q + p/2 = 0: q = 2s/15, p = -8s/15, so
 *    v_A = (-7s/15, a, 0), v_B = (-7s/15, -sqrt3 s/15, 0), v_C = v_C + q u.
 *    Accelerations (no applied force) a_A = -P e1, a_B = P e1 - Q u,
 *    a_C = Q u with P = 2 L lambda_AB / m, Q = 2 L lambda_BC / m; both at
 *    their length with c' = 0, eq. 3.2 asks c'' = 0:
 *      |dv_AB|^2 / L + 2P + Q/2 = 0,  |dv_BC|^2 / L + 2Q + P/2 = 0.
 *    With alpha = |dv_AB|^2 / L, beta = |dv_BC|^2 / L both held give
 *    Q = 8/15 (alpha/4 - beta), P = -(alpha + Q/2)/2: AB pushes (P > 0) when
 *    beta > 4 alpha. Then AB free, BC alone: Q = -beta/2 and AB's c'' =
 *    2 L (alpha - beta/4) < 0: it separates, lambda_AB = 0 - released.
 *    (a) a = 0, s = 0.3, w = 1: beta L = 1.296 > 4 alpha L = 0.0048:
 *        released, BC held with lambda_BC = -m |dv_BC|^2 / (4 L^2).
 *    (b) a = 1.1: alpha L = 1.287, beta L = 1.296, inside (alpha/4, 4 alpha):
 *        both held, both pulling, lambda = m P / (2L), m Q / (2L). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

/* Every root of rows 0 .. nc on its own side (<= 0): held rows' force roots,
 * free rows' gaps (capture_root_values' convention). */
static void assert_roots_on_own_side(capture_model *m, const double *y) {
  int ng = m->nc + m->np;
  double *g = calloc((size_t)ng, sizeof *g);
  CU_ASSERT_FATAL(g != NULL);
  CU_ASSERT_EQUAL(capture_roots(0.0, y, NULL, g, m), 0);
  for (int k = 0; k < m->nc; ++k) {
    CU_ASSERT(g[k] <= 0.0);
    if (g[k] > 0.0) fprintf(stderr, "row %d (%s): root %.3e\n", k, m->active[k] ? "held" : "free", g[k]);
  }
  free(g);
}

static int string_between(const capture_model *m, int a, int b) {
  for (int k = 0; k < capture_nstrings(m); ++k) {
    int i, j;
    double L;
    capture_string_ends(m, k, &i, &j, &L);
    if ((i == a && j == b) || (i == b && j == a)) return k;
  }
  return -1;
}

/* One event-map case: the model built from p with np points, its state set
 * from the points' positions R and velocities V (3 np each), every row free
 * (the case then holds its rows and marks the roots that fired). */
typedef struct {
  capture_model *m;
  double *y;
  int *dirs;
} settle_case;

static void case_open(settle_case *c, const capture_params *p, int np, const double *R,
                      const double *V) {
  memset(c, 0, sizeof *c);
  CU_ASSERT_EQUAL_FATAL(capture_create(p, &c->m, NULL), MBDAE_OK);
  capture_model *m = c->m;
  CU_ASSERT_EQUAL_FATAL(m->np, np);
  c->y = calloc((size_t)capture_size(m), sizeof *c->y);
  c->dirs = calloc((size_t)(m->nc + m->np), sizeof *c->dirs);
  CU_ASSERT_FATAL(c->y && c->dirs);
  CU_ASSERT_EQUAL(capture_initial_state(m, 0.0, c->y), MBDAE_OK);
  memcpy(c->y, R, (size_t)(3 * np) * sizeof *R);
  memcpy(&c->y[3 * np], V, (size_t)(3 * np) * sizeof *V);
  for (int k = 0; k < m->nc; ++k) m->active[k] = 0, m->c_ref[k] = 0.0;
}

/* The event map at t = 1 with the roots marked in c->dirs; it must continue. */
static void case_fire(settle_case *c) {
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  CU_ASSERT_EQUAL(capture_event(1.0, c->y, NULL, c->dirs, &info, c->m), MBDAE_EVENT_CONTINUE);
}

static void case_close(settle_case *c) {
  assert_roots_on_own_side(c->m, c->y);
  free(c->dirs);
  free(c->y);
  capture_free(&c->m);
}

static void test_string_that_would_push_is_released(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 1;
  p.cols = 3;
  p.point_mass = 0.01;
  p.spacing = 0.45;
  p.e_string = 0.0;
  p.xi_string = 1.0;
  p.omega_string = 10.0;
  p.launch_point[0] = -30.0; /* far from the body; the state is set below */
  double L = p.spacing, mp = p.point_mass, W = p.omega_string, delta = 1e-4, w = 0.5;
  double d = L * sqrt(1.0 - delta), x0 = -30.0;
  double R[9] = {x0, 0, 0, x0 + d, 0, 0, x0 + d, L, 0};
  double V[9] = {0, w, 0, 0, 0, 0, 0, 2 * w, 0};
  settle_case sc;
  case_open(&sc, &p, 3, R, V);
  capture_model *m = sc.m;
  double *y = sc.y;
  int kab = string_between(m, 0, 1), kbc = string_between(m, 1, 2);
  CU_ASSERT_FATAL(kab >= 0 && kbc >= 0);
  /* the premise, in closed form: AB pulls before the event, would push after */
  double lam_before = mp * (W * W * delta * L * L - 2 * w * w) / (8 * d * d);
  double lam_after = mp * W * W * delta * L * L / (8 * d * d);
  CU_ASSERT_FATAL(lam_before * 2 * L < -p.release_force);
  CU_ASSERT_FATAL(lam_after * 2 * L > 1e3 * p.release_force);
  m->active[kab] = 1;
  sc.dirs[kbc] = 1; /* BC reached its length, stretching */
  case_fire(&sc);
  const double *v = &y[3 * m->np];
  for (int i = 0; i < 3; ++i) {
    MBDAE_ASSERT_ABS(v[3 * i], 0.0, 1e-12);
    MBDAE_ASSERT_REL(v[3 * i + 1], w, 1e-12);
    MBDAE_ASSERT_ABS(v[3 * i + 2], 0.0, 1e-12);
  }
  CU_ASSERT_EQUAL(m->active[kbc], 1); /* taut, plastic */
  CU_ASSERT_EQUAL(m->active[kab], 0); /* would push: released */
  for (int j = 0; j < m->np; ++j) CU_ASSERT_EQUAL(m->active[m->ns + j], 0);
  /* released short: slack, its gap root watched from the surface */
  CU_ASSERT(d < L);
  MBDAE_ASSERT_ABS(m->c_ref[kab], 0.0, 0.0);
  case_close(&sc);
}

static void test_contact_that_would_pull_is_released(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 1;
  p.cols = 2;
  p.point_mass = 0.01;
  p.spacing = 0.45;
  p.shape = CAPTURE_SHAPE_BOX;
  p.box_size[0] = 1.0, p.box_size[1] = 1.2, p.box_size[2] = 0.8;
  p.body_mass = 3.0;
  p.e_body = 0.0;
  p.launch_point[0] = -3.0; /* outside; the state is set below */
  double L = p.spacing, top = 0.5 * p.box_size[2], mp = p.point_mass, M = p.body_mass;
  double w = 0.5, u = 0.1;
  double R[6] = {0, 0, top + L, 0, 0, top}; /* A above B, B on the top face */
  double V[6] = {w, 0, -u, 0, 0, -u};
  settle_case sc;
  case_open(&sc, &p, 2, R, V);
  capture_model *m = sc.m;
  double *y = sc.y;
  int kab = string_between(m, 0, 1), bo = capture_body_offset(m);
  CU_ASSERT_FATAL(kab >= 0);
  for (int c = 0; c < 3; ++c)
    y[bo + MBDAE_RB_P + c] = y[bo + MBDAE_RB_U + c] = y[bo + MBDAE_RB_W + c] = 0.0;
  y[bo + MBDAE_RB_Q] = 1.0, y[bo + MBDAE_RB_Q + 1] = y[bo + MBDAE_RB_Q + 2] = y[bo + MBDAE_RB_Q + 3] = 0.0;
  for (int j = 0; j < m->np; ++j) m->face[j] = mbdae_polytope_face_of(capture_body(m), &R[3], NULL);
  m->active[kab] = 1;    /* taut, not stretching: (r_B - r_A) . (v_B - v_A) = 0 */
  sc.dirs[m->ns + 1] = 1; /* B reached the face, closing */
  case_fire(&sc);
  double vz = -2.0 * mp * u / (2.0 * mp + M);
  const double *v = &y[3 * m->np];
  MBDAE_ASSERT_REL(v[0], w, 1e-12);
  MBDAE_ASSERT_ABS(v[1], 0.0, 1e-14);
  MBDAE_ASSERT_REL(v[2], vz, 1e-10);
  MBDAE_ASSERT_ABS(v[3], 0.0, 1e-14);
  MBDAE_ASSERT_ABS(v[4], 0.0, 1e-14);
  MBDAE_ASSERT_REL(v[5], vz, 1e-10);
  MBDAE_ASSERT_REL(y[bo + MBDAE_RB_U + 2], vz, 1e-10);
  for (int c = 0; c < 3; ++c) MBDAE_ASSERT_ABS(y[bo + MBDAE_RB_W + c], 0.0, 1e-14);
  CU_ASSERT_EQUAL(m->active[kab], 1);        /* the string pulls (m w^2 / L) */
  CU_ASSERT(m->lambda[kab] < 0.0);
  CU_ASSERT_EQUAL(m->active[m->ns + 1], 0);  /* would pull: released */
  CU_ASSERT_EQUAL(m->active[m->ns + 0], 0);
  case_close(&sc);
}

/* Case 3 above: AB made taut by a plastic impact next to held BC. */
static void taut_by_impact(double a, int expect_ab_held) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 1;
  p.cols = 3;
  p.point_mass = 0.01;
  p.spacing = 0.45;
  p.e_string = 0.0;
  p.launch_point[0] = -30.0; /* far from the body; the state is set below */
  CU_ASSERT_EQUAL_FATAL(p.release_held, 0);
  const double L = p.spacing, mp = p.point_mass, s = 0.3, w = 1.0, r3 = sqrt(3.0);
  const double x0 = -30.0, u[3] = {-0.5, 0.5 * r3, 0.0};
  double R[9] = {x0 - L, 0, 0, x0, 0, 0, x0 + L * u[0], L * u[1], 0};
  double V[9] = {-s, a, 0, 0, 0, 0, w * 0.5 * r3, w * 0.5, 0};
  settle_case sc;
  case_open(&sc, &p, 3, R, V);
  capture_model *m = sc.m;
  double *y = sc.y;
  int kab = string_between(m, 0, 1), kbc = string_between(m, 1, 2);
  CU_ASSERT_FATAL(kab >= 0 && kbc >= 0);
  /* after the impact, in closed form */
  double q = 2.0 * s / 15.0;
  double VA[3] = {-7.0 * s / 15.0, a, 0}, VB[3] = {-7.0 * s / 15.0, -r3 * s / 15.0, 0};
  double VC[3] = {V[6] + q * u[0], V[7] + q * u[1], 0};
  double dab2 = 0.0, dbc2 = 0.0;
  for (int c = 0; c < 3; ++c) {
    dab2 += (VB[c] - VA[c]) * (VB[c] - VA[c]);
    dbc2 += (VC[c] - VB[c]) * (VC[c] - VB[c]);
  }
  double alpha = dab2 / L, beta = dbc2 / L;
  double Q = 8.0 / 15.0 * (0.25 * alpha - beta), P = -0.5 * (alpha + 0.5 * Q);
  /* the premise: held, AB would push in (a), both pull in (b) */
  CU_ASSERT_FATAL(expect_ab_held ? P < 0.0 && Q < 0.0 : P > 0.0);
  m->active[kbc] = 1;
  sc.dirs[kab] = 1; /* AB reached its length, stretching */
  case_fire(&sc);
  const double *v = &y[3 * m->np];
  for (int c = 0; c < 3; ++c) {
    MBDAE_ASSERT_ABS(v[c], VA[c], 1e-12);
    MBDAE_ASSERT_ABS(v[3 + c], VB[c], 1e-12);
    MBDAE_ASSERT_ABS(v[6 + c], VC[c], 1e-12);
  }
  CU_ASSERT_EQUAL(m->active[kbc], 1);
  CU_ASSERT_EQUAL(m->active[kab], expect_ab_held);
  if (expect_ab_held) {
    MBDAE_ASSERT_REL(m->lambda[kab], mp * P / (2.0 * L), 1e-9);
    MBDAE_ASSERT_REL(m->lambda[kbc], mp * Q / (2.0 * L), 1e-9);
  } else {
    MBDAE_ASSERT_REL(m->lambda[kbc], -mp * dbc2 / (4.0 * L * L), 1e-9);
    long lcp_releases = 0;
    capture_settle_lcp_stats(m, &lcp_releases, NULL);
    CU_ASSERT_EQUAL(lcp_releases, 1);
  }
  for (int j = 0; j < m->np; ++j) CU_ASSERT_EQUAL(m->active[m->ns + j], 0);
  case_close(&sc);
}
static void test_taut_by_impact_would_push(void) { taut_by_impact(0.0, 0); }
static void test_taut_by_impact_pulls(void) { taut_by_impact(1.1, 1); }

/* The shipped demo, event-driven as the file runs it (cvode-adams), past
 * t = 1.5497 s: with only the strings that closed slower than
 * stick_velocity exempt from the rule, string 100 re-tightened in turn with
 * its neighbours there until the engine's event limit stopped the run
 * (MBDAE_ERR_EVENT_LIMIT, exit 1); with the complementarity problem but
 * without the rows at their surface taken into the impact, strings 81 and
 * 62 did the same. No row is exempt now. */
static void test_demo_event_driven_past_cascade(void) {
  const char *bin = getenv("MBDAE_BINARY");
  if (!bin) {
    printf("\n  MBDAE_BINARY is not set (run through ctest)\n");
    CU_FAIL("MBDAE_BINARY");
    return;
  }
  const char *dir = mbdae_test_tmpdir("capture-settle-demo");
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "'%s' run '%s' --set solver.t_end=1.6 --out '%s/o' --no-plots --quiet "
           "> '%s/log' 2>&1",
           bin, mbdae_test_source_path("scenarios/capture_demo.yaml"), dir, dir);
  int rc = system(cmd);
  if (rc != 0) {
    char log[4200];
    snprintf(log, sizeof log, "cat '%s/log'", dir);
    if (system(log) != 0) printf("\n  (no log)\n");
  }
  CU_ASSERT_EQUAL(rc, 0);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"the shipped demo, event-driven, runs past its release cascade at t = 1.55 s",
     test_demo_event_driven_past_cascade},
    {"a held string that would push after a string's impact is released",
     test_string_that_would_push_is_released},
    {"a held contact that would pull after a point's impact is released",
     test_contact_that_would_pull_is_released},
    {"a string an impact made taut that would push is released (complementarity)",
     test_taut_by_impact_would_push},
    {"a string an impact made taut next to a pulling one stays held",
     test_taut_by_impact_pulls},
    {NULL, NULL},
  };
  return mbdae_test_main("capture_settle", tests);
}
