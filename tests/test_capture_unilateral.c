/* test_capture_unilateral.c - the net-capture model's Baumgarte mode with
 * `baumgarte_forces: unilateral`: among the active rows a string may only
 * pull and a contact only push (a linear complementarity problem solved in
 * the right-hand side, capture_model.c unilateral_solve; doc/capture.md).
 *
 * Closed form: a point rests on the middle of the top face of a cube that
 * spins about an axis parallel to that face, moving with the face's own
 * velocity there, so its normal velocity relative to the face is zero. The
 * face then curves away from the point's straight path (normal relative
 * acceleration -w^2 (1 - z0) < 0). With no force the point flies in a
 * straight line and the cube spins on at constant w about a principal axis
 * (torque-free); holding the contact would need an adhesive force. The
 * seed's bilateral rows (eq. 3.1) supply exactly that force and drag the
 * point along, which is what unilateral forces must not do. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "capture_setups.h"
#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

extern const mbdae_model_kind mbdae_model_net_capture;

static const double SPIN = 2.0; /* rad/s about the body x axis */
static const double Z0 = 0.5 - 1e-7; /* start 1e-7 m inside the top face z = 0.5 */

typedef struct glance_watch {
  capture_model *m;
  double r0[3], v0[3];
  double max_dev;   /* largest distance from the straight line */
  double max_pull;  /* largest adhesive contact force (lambda |grad c| > 0) */
  double max_dw;    /* largest change of the body's angular velocity */
} glance_watch;

static int glance_observer(double t, const double *y, const double *yp,
                           const mbdae_event_record *ev, void *ud) {
  (void)yp; (void)ev;
  glance_watch *w = ud;
  capture_model *m = w->m;
  double d = 0.0;
  for (int c = 0; c < 3; ++c) d += pow(y[c] - (w->r0[c] + w->v0[c] * t), 2);
  w->max_dev = fmax(w->max_dev, sqrt(d));
  capture_rows(m, y);
  if (capture_accelerations(m, t, y, m->acc) == 0 && m->active[0])
    w->max_pull = fmax(w->max_pull, m->lambda[0] * m->rows[0].vscale);
  const double *om = &y[capture_body_offset(m) + MBDAE_RB_W];
  w->max_dw = fmax(w->max_dw, fabs(om[0] - SPIN) + fabs(om[1]) + fabs(om[2]));
  return 0;
}

static glance_watch glance(int forces, int *rc_out) {
  capture_params p;
  glance_params(&p, forces, SPIN);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.rk4_step = 1e-3;
  o.t_end = 0.5;
  o.dt_out = 0.01;
  mbdae_model *mk = NULL;
  mbdae_param_error err;
  memset(&err, 0, sizeof err);
  glance_watch w;
  memset(&w, 0, sizeof w);
  *rc_out = mbdae_model_net_capture.create(&p, &o, &mk, &err);
  CU_ASSERT_EQUAL_FATAL(*rc_out, MBDAE_OK);
  capture_model *m = (capture_model *)mk;
  mbdae_problem *pr = mbdae_model_net_capture.problem(mk);
  int n = mbdae_problem_size(pr);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(yp);
  CU_ASSERT_EQUAL_FATAL(mbdae_model_net_capture.initial_state(mk, 0.0, y, yp), MBDAE_OK);
  /* the point on the top face, moving with the face point under it */
  double r0[3], v0[3];
  glance_place(m, y, SPIN, Z0, r0, v0);
  CU_ASSERT_FATAL(m->rows[0].c > 0.0); /* in contact: active (eq. 3.1) */
  CU_ASSERT_FATAL(fabs(m->rows[0].cdot) < 1e-12 * m->rows[0].vscale);
  w.m = m;
  memcpy(w.r0, r0, sizeof r0);
  memcpy(w.v0, v0, sizeof v0);
  o.observer = glance_observer;
  o.observer_data = &w;
  mbdae_stats st;
  char msg[512] = "";
  *rc_out = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  if (*rc_out) printf("\n  run: %s\n", msg);
  free(y);
  free(yp);
  mbdae_model_net_capture.destroy(&mk);
  return w;
}

static void test_unilateral_contact_does_not_hold(void) {
  int rc;
  glance_watch w = glance(CAPTURE_FORCES_UNILATERAL, &rc);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  printf("\n  unilateral: straight-line deviation %.2e m, adhesive force %.2e N, "
         "spin change %.2e rad/s", w.max_dev, w.max_pull, w.max_dw);
  CU_ASSERT(w.max_dev <= 1e-12);
  CU_ASSERT(w.max_pull <= 0.0);
  CU_ASSERT(w.max_dw <= 1e-12);
}

static void test_bilateral_contact_adheres(void) {
  int rc;
  glance_watch w = glance(CAPTURE_FORCES_BILATERAL, &rc);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  /* free flight would leave the face by (1/2) w^2 (1 - z0) t^2 = 0.125 m
   * at t = 0.5 s (normal relative acceleration above); held, the point
   * stays within the Baumgarte error of the face instead */
  printf("\n  bilateral: straight-line deviation %.3f m, adhesive force %.3f N",
         w.max_dev, w.max_pull);
  CU_ASSERT(w.max_dev > 0.05);
  CU_ASSERT(w.max_pull > 0.0);
}

/* The demo-sized capture (10 x 10, the benchmark's Baumgarte settings): the
 * complementarity holds at every output (no pushing string, no pulling
 * contact; a forced row follows eq. 3.2, a free one separates at least as
 * fast, both checked here from the rows and the accelerations, with the
 * target written out), the forces stay internal (momentum to round-off),
 * and no active row is held far below its surface. */
static const double XI = 1.0, W = 10.0;

typedef struct sign_watch {
  capture_model *m;
  double worst;   /* largest wrong-sign force over the largest force */
  double eq_err;  /* forced rows: largest |c'' - target| / |grad c| */
  double overrun; /* free active rows: largest (c'' - target) / |grad c| */
  double acc_max; /* largest generalised acceleration seen */
  double below;   /* deepest active row below its surface (c / |c| scale < 0) */
  int samples, forced_max;
} sign_watch;

static int sign_observer(double t, const double *y, const double *yp,
                         const mbdae_event_record *ev, void *ud) {
  (void)yp; (void)ev;
  sign_watch *w = ud;
  capture_model *m = w->m;
  capture_rows(m, y);
  if (capture_accelerations(m, t, y, m->acc) != 0) return -1;
  double fmax_ = 0.0, wrong = 0.0;
  int forced = 0;
  for (int k = 0; k < m->nc; ++k) {
    const capture_row *r = &m->rows[k];
    double f = m->lambda[k] * r->vscale;
    fmax_ = fmax(fmax_, fabs(f));
    wrong = fmax(wrong, f);
    forced += f < 0.0;
    if (!m->active[k]) continue;
    double cs = k < m->ns ? m->net->s[k].L * m->net->s[k].L : 1.0;
    w->below = fmin(w->below, r->c / cs);
    double cdd = r->gamma;
    for (int i = 0; i < r->nz; ++i) cdd += r->val[i] * m->acc[r->idx[i]];
    double over = (cdd - (-2.0 * XI * W * r->cdot - W * W * r->c)) / r->vscale;
    if (f < 0.0) w->eq_err = fmax(w->eq_err, fabs(over));
    else w->overrun = fmax(w->overrun, over);
  }
  for (int i = 0; i < m->nu; ++i) w->acc_max = fmax(w->acc_max, fabs(m->acc[i]));
  if (fmax_ > 0.0) w->worst = fmax(w->worst, wrong / fmax_);
  w->forced_max = forced > w->forced_max ? forced : w->forced_max;
  ++w->samples;
  return 0;
}

static void test_capture_keeps_signs_and_momentum(void) {
  capture_params p;
  net10_params(&p, CAPTURE_FORCES_UNILATERAL, XI, W);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.rk4_step = 5e-4;
  o.t_end = 2.5;
  o.dt_out = 0.02;
  o.max_steps = 10000000;
  mbdae_model *mk = NULL;
  mbdae_param_error err;
  memset(&err, 0, sizeof err);
  CU_ASSERT_EQUAL_FATAL(mbdae_model_net_capture.create(&p, &o, &mk, &err), MBDAE_OK);
  capture_model *m = (capture_model *)mk;
  mbdae_problem *pr = mbdae_model_net_capture.problem(mk);
  int sz = mbdae_problem_size(pr);
  double *y = calloc((size_t)sz, sizeof *y), *yp = calloc((size_t)sz, sizeof *yp);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(yp);
  CU_ASSERT_EQUAL_FATAL(mbdae_model_net_capture.initial_state(mk, 0.0, y, yp), MBDAE_OK);
  double p0[3], L0[3], E0, p1[3], L1[3], E1;
  capture_momenta(m, y, p0, L0, &E0);
  sign_watch w = {m, 0.0, 0.0, -HUGE_VAL, 0.0, 0.0, 0, 0};
  o.observer = sign_observer;
  o.observer_data = &w;
  mbdae_stats st;
  char msg[512] = "";
  int rc = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  if (rc) printf("\n  run: %s\n", msg);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  capture_momenta(m, y, p1, L1, &E1);
  double dp = 0.0, pn = 0.0, dL = 0.0, Ln = 0.0;
  for (int c = 0; c < 3; ++c) {
    dp += pow(p1[c] - p0[c], 2);
    pn += p0[c] * p0[c];
    dL += pow(L1[c] - L0[c], 2);
    Ln += L0[c] * L0[c];
  }
  printf("\n  10 x 10 to 2.5 s: %d samples, up to %d forced rows, worst wrong-sign force "
         "%.1e of the largest; forced rows off eq. 3.2 by %.1e, free rows overrun %.1e "
         "(m/s^2, accelerations up to %.3g); momentum drift %.1e / %.1e, %ld events; "
         "deepest held row %.1e below its surface",
         w.samples, w.forced_max, w.worst, w.eq_err, w.overrun, w.acc_max, sqrt(dp / pn),
         sqrt(dL / Ln), st.events, -w.below);
  CU_ASSERT(w.samples >= 100);
  CU_ASSERT(w.forced_max > 0); /* the net did catch the body */
  CU_ASSERT(w.worst <= 1e-10);
  CU_ASSERT(w.eq_err <= 1e-9 * (w.acc_max + 1.0));
  CU_ASSERT(w.overrun <= 1e-9 * (w.acc_max + 1.0));
  CU_ASSERT(sqrt(dp / pn) <= 1e-10);
  CU_ASSERT(sqrt(dL / Ln) <= 1e-8);
  /* no row held far below its surface: a forced one is pulled back by eq.
   * 3.2, a free one is examined again each 1e-5 it falls and released. A
   * row kept once used to be held at any depth (0.22 here, a contact 50
   * face depths away by t = 10 s, a string whose end points met: the
   * 30 x 30 blow-up); now 2.5e-5 */
  CU_ASSERT(w.below >= -1e-3);
  free(y);
  free(yp);
  mbdae_model_net_capture.destroy(&mk);
}

/* IDA builds the DAE form (tests/test_capture_unilateral_dae.c: the force
 * switches are located roots, one more per constraint); outside Baumgarte
 * mode unilateral forces are refused. */
static void test_unilateral_refusals(void) {
  capture_params p;
  capture_params_default(&p);
  p.mode = CAPTURE_MODE_BAUMGARTE;
  p.forces = CAPTURE_FORCES_UNILATERAL;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  mbdae_model *mk = NULL;
  mbdae_param_error err;
  memset(&err, 0, sizeof err);
  CU_ASSERT_EQUAL_FATAL(mbdae_model_net_capture.create(&p, &o, &mk, &err), MBDAE_OK);
  capture_model *m = (capture_model *)mk;
  mbdae_problem *pr = mbdae_model_net_capture.problem(mk);
  CU_ASSERT_EQUAL(mbdae_problem_form(pr), MBDAE_FORM_DAE);
  CU_ASSERT_EQUAL(mbdae_problem_root_count(pr), 2 * m->nc + m->np);
  mbdae_model_net_capture.destroy(&mk);
  p.mode = CAPTURE_MODE_EVENT;
  memset(&err, 0, sizeof err);
  CU_ASSERT(capture_params_check(&p, &err) < 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err.key);
  CU_ASSERT_STRING_EQUAL(err.key, "baumgarte_forces");
}

int main(void) {
  const mbdae_test tests[] = {
    {"unilateral: a contact separating at second order carries no force (free flight)",
     test_unilateral_contact_does_not_hold},
    {"bilateral (seed eq. 3.1): the same contact adheres", test_bilateral_contact_adheres},
    {"unilateral 10 x 10 capture: force signs and momentum", test_capture_keeps_signs_and_momentum},
    {"unilateral: ida builds the DAE form; refused outside baumgarte mode",
     test_unilateral_refusals},
    {NULL, NULL}};
  return mbdae_test_main("capture_unilateral", tests);
}
