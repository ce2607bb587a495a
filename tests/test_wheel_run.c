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
  double y_first_transition[WHEEL_N];
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
    else if (r->transitions++ == 0) {
      r->t_first_transition = t;
      memcpy(r->y_first_transition, y, sizeof r->y_first_transition);
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

int main(void) {
  const mbdae_test tests[] = {
    {"sliding on the ground turns into rolling (closed form)", test_slide_to_roll},
    {"paper section 6.3, beta = 0", test_paper_beta0},
    {"paper section 6.3, beta = 0.3", test_paper_beta03},
    {"mu = 0, beta = 1: energy conserved through collisions", test_elastic_energy},
    {NULL, NULL},
  };
  return mbdae_test_main("wheel_run", tests);
}
