/* test_wheel_run.c - the wheel integrated by the engine (CVODE BDF and
 * Adams, RK4): sliding to rolling on flat ground against the closed form,
 * the paper's section 6.3 runs (beta 0 and 0.3: energy never increases,
 * plastic collisions leave zero normal velocity), and mu = 0, beta = 1
 * (energy conserved through every collision). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"
#include "wheel/wheel.h"

typedef struct record {
  wheel_model *w;
  double E0, Emax_rise, Emin, Emax;
  long events, collisions, transitions;
  double t_first_transition;
  double y_first_transition[WHEEL_N], y_second[WHEEL_N];
  double worst_gap;
} record;

static int observe(double t, const double *y, const double *yp,
                   const mbdae_event_record *ev, void *ud) {
  (void)yp;
  record *r = ud;
  double E = wheel_energy(&r->w->p, y);
  if (E > r->Emax) r->Emax = E;
  if (E < r->Emin) r->Emin = E;
  /* energy must not rise above the lowest value seen so far */
  if (E - r->Emin > r->Emax_rise) r->Emax_rise = E - r->Emin;
  double g = wheel_min_gap(&r->w->p, y[WHEEL_X], y[WHEEL_Y]);
  if (g < r->worst_gap) r->worst_gap = g;
  if (ev) {
    r->events++;
    if (ev->ndata > 0 && ev->data[WHEEL_EV_KIND] == WHEEL_EVK_COLLISION)
      r->collisions++;
    else {
      if (r->transitions == 0) {
        r->t_first_transition = t;
        memcpy(r->y_first_transition, y, sizeof r->y_first_transition);
      } else if (r->transitions == 1) {
        memcpy(r->y_second, y, sizeof r->y_second);
      }
      r->transitions++;
    }
  }
  return 0;
}

static int run(const wheel_params *p, mbdae_method method, double t_end,
               record *r, double *y) {
  memset(r, 0, sizeof *r);
  CU_ASSERT_EQUAL_FATAL(wheel_create(p, MBDAE_LINSOL_DENSE, &r->w), MBDAE_OK);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.t0 = 0.0;
  o.t_end = t_end;
  o.dt_out = 0.005;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.rk4_step = 1e-4;
  o.observer = observe;
  o.observer_data = r;
  CU_ASSERT_EQUAL(wheel_initial_state(r->w, 0.0, y), MBDAE_OK);
  r->E0 = r->Emin = r->Emax = wheel_energy(p, y);
  r->worst_gap = HUGE_VAL;
  mbdae_stats st;
  char msg[512] = "";
  int rc = mbdae_run(r->w->problem, &o, y, NULL, &st, msg, sizeof msg);
  if (rc != MBDAE_OK) printf("\n  run: %s: %s\n", mbdae_status_name(rc), msg);
  return rc;
}

/* Sliding on the ground (segment IV): T = -mu m g sign(v_t), so
 * xdd = -mu g s, phidd = -mu m g r s / J and v_t = xd + r phid changes at
 * the rate -mu g (1 + m r^2 / J) s until it vanishes at
 * t* = |v_t0| / (mu g (1 + m r^2 / J)); then the wheel rolls (T = 0). */
static void slide_case(mbdae_method method, double vx0, double w0, double tol) {
  wheel_params p;
  wheel_params_default(&p);
  p.x0[0] = 2.0; p.x0[1] = p.r; p.x0[2] = 0.0;
  p.v0[0] = vx0; p.v0[1] = 0.0; p.v0[2] = w0;
  double k = 1.0 + p.m * p.r * p.r / p.J;
  double vt0 = vx0 + p.r * w0, s = vt0 > 0 ? 1.0 : -1.0;
  double ts = fabs(vt0) / (p.mu * p.g * k);
  double vx_s = vx0 - p.mu * p.g * s * ts;
  double w_s = w0 - p.mu * p.m * p.g * p.r * s * ts / p.J;
  double t_end = 0.5;
  double x_end = p.x0[0] + vx0 * ts - 0.5 * p.mu * p.g * s * ts * ts + vx_s * (t_end - ts);
  record r;
  double y[WHEEL_N];
  CU_ASSERT_EQUAL(run(&p, method, t_end, &r, y), MBDAE_OK);
  CU_ASSERT(r.transitions >= 1);
  MBDAE_ASSERT_ABS(r.t_first_transition, ts, tol);
  MBDAE_ASSERT_ABS(r.y_first_transition[WHEEL_VX], vx_s, tol);
  MBDAE_ASSERT_ABS(r.y_first_transition[WHEEL_W], w_s, tol / p.r);
  MBDAE_ASSERT_ABS(y[WHEEL_VX], vx_s, tol);
  MBDAE_ASSERT_ABS(y[WHEEL_VX] + p.r * y[WHEEL_W], 0.0, tol);
  MBDAE_ASSERT_ABS(y[WHEEL_X], x_end, tol);
  MBDAE_ASSERT_ABS(y[WHEEL_Y], p.r, 1e-12);
  CU_ASSERT_EQUAL(r.w->mode.state[WHEEL_GROUND], WHEEL_STICK);
  CU_ASSERT(r.Emax_rise <= 1e-9 * r.E0);
  wheel_free(&r.w);
}

static void test_slide_to_roll(void) {
  slide_case(MBDAE_METHOD_CVODE_BDF, 3.0, 0.0, 1e-7);   /* forward skid */
  slide_case(MBDAE_METHOD_CVODE_BDF, -1.0, 30.0, 1e-7); /* back-spin */
  slide_case(MBDAE_METHOD_CVODE_ADAMS, 3.0, 0.0, 1e-7);
}

/* Section 6.3: m 10, J 0.05, r 0.1, h 0.05, l 0.5, X0 (0.8, 0.2, 0),
 * V0 (-5, -3, 0), mu 0.4, t in (0, 1]. */
static void paper_case(double beta, mbdae_method method) {
  wheel_params p;
  wheel_params_default(&p);
  p.beta = beta;
  record r;
  double y[WHEEL_N];
  CU_ASSERT_EQUAL(run(&p, method, 1.0, &r, y), MBDAE_OK);
  CU_ASSERT(r.collisions >= 3);
  /* energy never increases (tolerance: integration error) */
  CU_ASSERT(r.Emax_rise <= 1e-7 * r.E0);
  MBDAE_ASSERT_ABS(r.w->max_energy_gain, 0.0, 1e-9 * r.E0);
  /* the wheel never leaves Omega beyond the integration tolerance */
  CU_ASSERT(r.worst_gap >= -1e-7);
  if (beta == 0.0) MBDAE_ASSERT_ABS(r.w->max_post_vn, 0.0, 1e-12);
  printf("\n  beta %.1f: %ld events, %ld collisions, final x %.6f y %.6f, E %.6f\n",
         beta, r.events, r.collisions, y[WHEEL_X], y[WHEEL_Y], wheel_energy(&p, y));
  wheel_free(&r.w);
}

static void test_paper_beta0(void) { paper_case(0.0, MBDAE_METHOD_CVODE_BDF); }
static void test_paper_beta03(void) { paper_case(0.3, MBDAE_METHOD_CVODE_BDF); }

/* mu = 0, beta = 1: every collision is elastic and frictionless. */
static void test_elastic_energy(void) {
  wheel_params p;
  wheel_params_default(&p);
  p.mu = 0.0;
  p.beta = 1.0;
  record r;
  double y[WHEEL_N];
  CU_ASSERT_EQUAL(run(&p, MBDAE_METHOD_CVODE_BDF, 1.0, &r, y), MBDAE_OK);
  CU_ASSERT(r.collisions >= 3);
  MBDAE_ASSERT_REL(r.Emin, r.E0, 1e-7);
  MBDAE_ASSERT_REL(r.Emax, r.E0, 1e-7);
  printf("\n  mu 0, beta 1: %ld collisions, |E - E0|/E0 <= %.2e\n", r.collisions,
         fmax(r.Emax - r.E0, r.E0 - r.Emin) / r.E0);
  wheel_free(&r.w);
}

/* Rolling over the curb's edge (segment III, stick): with the rolling
 * constraint the energy gives v^2 = v0^2 + 2 g r (1 - cos th) m/(m + J/r^2)
 * at the angle th of S - C from the vertical; the stick force is
 * T = -m_t g sin th (m_t = 1/(1/m + r^2/J)) and N = m (g cos th - v^2/r), so
 * the wheel starts slipping where m_t g sin th = mu N (solved by bisection
 * here). Checks gamma_n (centripetal) and the corner's stick force. */
static void test_roll_over_edge(void) {
  wheel_params p;
  wheel_params_default(&p);
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  double v0 = 0.2;
  p.x0[0] = l1 - 0.002; p.x0[1] = p.h + p.r; p.x0[2] = 0.0;
  p.v0[0] = v0; p.v0[1] = 0.0; p.v0[2] = -v0 / p.r;
  double k = p.m / (p.m + p.J / (p.r * p.r)), mt = 1.0 / (1.0 / p.m + p.r * p.r / p.J);
  double lo = 0.0, hi = asin(a / p.r);
  for (int i = 0; i < 200; ++i) {
    double th = 0.5 * (lo + hi);
    double v2 = v0 * v0 + 2.0 * p.g * p.r * (1.0 - cos(th)) * k;
    double f = p.mu * p.m * (p.g * cos(th) - v2 / p.r) - mt * p.g * sin(th);
    if (f > 0.0) lo = th; else hi = th;
  }
  double th_s = 0.5 * (lo + hi);
  double v2_s = v0 * v0 + 2.0 * p.g * p.r * (1.0 - cos(th_s)) * k;
  record r;
  double y[WHEEL_N];
  CU_ASSERT_EQUAL(run(&p, MBDAE_METHOD_CVODE_BDF, 1.0, &r, y), MBDAE_OK);
  /* first transition: II -> III at x = l1 */
  MBDAE_ASSERT_ABS(r.y_first_transition[WHEEL_X], l1, 1e-9);
  CU_ASSERT(r.transitions >= 2);
  /* the observer keeps the second transition's state in y_second */
  double th = atan2(r.y_second[WHEEL_X] - l1, r.y_second[WHEEL_Y] - p.h);
  double v2 = r.y_second[WHEEL_VX] * r.y_second[WHEEL_VX] +
              r.y_second[WHEEL_VY] * r.y_second[WHEEL_VY];
  printf("\n  slip onset on III: theta %.10f rad (closed form %.10f), v^2 %.10f (%.10f)\n",
         th, th_s, v2, v2_s);
  MBDAE_ASSERT_ABS(th, th_s, 1e-7);
  MBDAE_ASSERT_REL(v2, v2_s, 1e-7);
  /* energy: conserved while rolling, dissipated while slipping; the root
   * guard lifts the wheel 1e-8 r at lift-off (m g 1e-8 r = 1e-7 J) */
  CU_ASSERT(r.Emax_rise <= 1e-7 * r.E0);
  wheel_free(&r.w);
}

/* Random throws (fixed seed): every run completes, never leaves Omega and
 * never gains energy, for mu in {0, 0.2, 0.4, 1, 2} and beta in
 * {0, 0.3, 0.7, 1} (collisions at every segment and at A and B). */
static void test_random_throws(void) {
  static const double mus[5] = {0.0, 0.2, 0.4, 1.0, 2.0};
  static const double betas[4] = {0.0, 0.3, 0.7, 1.0};
  unsigned long long s = 12345;
  int done = 0;
  while (done < 60) {
    double u[6];
    for (int i = 0; i < 6; ++i) { /* 64-bit LCG (Knuth) */
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      u[i] = (double)(s >> 11) / 9007199254740992.0;
    }
    wheel_params p;
    wheel_params_default(&p);
    p.mu = mus[done % 5];
    p.beta = betas[(done / 5) % 4];
    p.x0[0] = 0.1 + 0.9 * u[0];
    p.x0[1] = 0.16 + 0.4 * u[1];
    if (wheel_min_gap(&p, p.x0[0], p.x0[1]) < 0.0) continue;
    p.v0[0] = 12.0 * (u[2] - 0.5);
    p.v0[1] = 8.0 * (u[3] - 0.5);
    p.v0[2] = 100.0 * (u[4] - 0.5);
    record r;
    double y[WHEEL_N];
    int rc = run(&p, MBDAE_METHOD_CVODE_BDF, 1.5, &r, y);
    CU_ASSERT_EQUAL(rc, MBDAE_OK);
    CU_ASSERT(r.Emax_rise <= 1e-6 * r.E0);
    CU_ASSERT(r.w->max_energy_gain <= 1e-9 * r.E0);
    CU_ASSERT(r.worst_gap >= -1e-7);
    if (rc != MBDAE_OK || r.Emax_rise > 1e-6 * r.E0)
      printf("\n  throw %d: mu %g beta %g x0 (%.4f, %.4f) v0 (%.3f, %.3f, %.3f)\n", done,
             p.mu, p.beta, p.x0[0], p.x0[1], p.v0[0], p.v0[1], p.v0[2]);
    wheel_free(&r.w);
    ++done;
  }
}

int main(void) {
  const mbdae_test tests[] = {
    {"sliding on the ground turns into rolling (closed form)", test_slide_to_roll},
    {"paper section 6.3, beta = 0", test_paper_beta0},
    {"paper section 6.3, beta = 0.3", test_paper_beta03},
    {"mu = 0, beta = 1: energy conserved through collisions", test_elastic_energy},
    {"rolling over the curb's edge: slip onset on III (closed form)", test_roll_over_edge},
    {"60 random throws: no failure, no energy gain, inside Omega", test_random_throws},
    {NULL, NULL},
  };
  return mbdae_test_main("wheel_run", tests);
}
