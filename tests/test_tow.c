/* test_tow.c - the tethered tow (models/tow/): the sparse Jacobian (ODE and
 * DAE) against central differences in taut, slack, clamped and tumbling
 * states; the thrust profile and its impulse against closed forms; the
 * energy ledger and momentum balance over a short run with slack-taut
 * cycles; bad parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_setups.h"
#include "jac_mutant.h"
#include "mbdae/jaccheck.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"
#include "tow/tow.h"

static double table[] = {0, 0, 0, 0, 1, 40, 2, -1, 30, 40, 2, -1, 31, 0, 0, 0};

static void params(tow_params *p, int nodes) {
  tow_params_default(p);
  p->tether_length = 20.0;
  p->tether_nodes = nodes;
  p->tether_ea = 2e4;
  p->tether_damping = 5e5;
  p->chaser_mass = 50.0;
  p->body_mass = 100.0;
  set3(p->body_omega, 0.05, -0.1, 0.2);
  p->thrust = table;
  p->nthrust = 4;
  p->thrust_period = 40.0;
}

static void check(tow_model *m, const double *y, const char *what, double rel_step, double tol) {
  double *yp = calloc((size_t)m->n, sizeof *yp);
  CU_ASSERT_EQUAL(tow_rhs(m, 0.7, y, yp), 0);
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(m->problem, 0.7, y, m->dae ? yp : NULL, 53.0, rel_step,
                                             1e-7, &jc), MBDAE_OK);
  if (!(jc.max_rel_err < tol) || jc.pattern_misses)
    printf("\n  %s (%s): rel err %.3g at (%d, %d): %.9g vs fd %.9g; %ld misses at (%d, %d)\n",
           what, m->dae ? "dae" : "ode", jc.max_rel_err, jc.worst_row, jc.worst_col,
           jc.worst_analytic, jc.worst_fd, jc.pattern_misses, jc.miss_row, jc.miss_col);
  CU_ASSERT(jc.max_rel_err < tol);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
  /* one entry of the nodes' accelerations off by 100 tol: caught there */
  jac_mutant_block(m->problem, 0.7, y, m->dae ? yp : NULL, 53.0, rel_step, tol, 3 * m->npt,
                   6 * m->npt, 0, m->n);
  free(yp);
}

static void test_jacobian(void) {
  for (int dae = 0; dae < 2; ++dae) {
    tow_params p;
    params(&p, 4);
    tow_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(tow_create(&p, dae, &m, NULL), MBDAE_OK);
    double *y = calloc((size_t)m->n, sizeof *y);
    CU_ASSERT_EQUAL(tow_initial_state(m, 0.0, y, NULL), MBDAE_OK);
    unsigned seed = 3u;
    /* taut: every thread stretched 1-3 %, random velocities, a tilted body */
    int np = m->npt, bo = m->boff;
    double q[4] = {0.8, 0.3, -0.2, 0.4};
    memcpy(&y[bo + MBDAE_RB_Q], q, sizeof q);
    for (int k = 0; k < np; ++k) {
      set3(&y[3 * k], -k * 4.1 + 0.05 * prand(&seed), 0.3 * prand(&seed), 0.3 * prand(&seed));
      set3(&y[3 * np + 3 * k], 0.1 * prand(&seed), 0.1 * prand(&seed), 0.1 * prand(&seed));
    }
    double xa[3], C[9];
    mbdae_rb_rotation(q, C);
    tow_attachment(m, y, xa, NULL);
    /* put the body so that the attachment is 4.1 m behind the last node */
    for (int c = 0; c < 3; ++c)
      y[bo + MBDAE_RB_P + c] += y[3 * (np - 1) + c] - (c == 0 ? 4.1 : 0.0) - xa[c];
    set3(&y[bo + MBDAE_RB_U], 0.05, -0.02, 0.03);
    y[m->iw] = 3.0;
    y[m->id] = 0.5;
    tow_ledger L;
    tow_ledger_eval(m, 0.7, y, &L);
    CU_ASSERT_EQUAL(L.taut, np);
    check(m, y, "taut", 0.0, 1e-6);
    /* slack: the nodes bunched up */
    for (int k = 1; k < np; ++k) y[3 * k] = -k * 3.5;
    tow_ledger_eval(m, 0.7, y, &L);
    CU_ASSERT(L.taut <= 1);
    check(m, y, "slack", 0.0, 1e-6);
    /* mixed with a clamped thread: node 1 retracting fast towards the chaser */
    for (int k = 1; k < np; ++k) y[3 * k] = -k * 4.1;
    y[3 * np + 3] = 0.5; /* clamp speed 1/a = EA l / eta = 0.16 m/s */
    check(m, y, "taut with a clamped thread", 0.0, 1e-6);
    free(y);
    tow_free(&m);
    /* with a C2 onset of 1 mm: every thread's stretch inside (-h, h) */
    p.tether_onset = 1e-3;
    CU_ASSERT_EQUAL_FATAL(tow_create(&p, dae, &m, NULL), MBDAE_OK);
    y = calloc((size_t)m->n, sizeof *y);
    CU_ASSERT_EQUAL(tow_initial_state(m, 0.0, y, NULL), MBDAE_OK);
    const double stretch[] = {-0.8e-3, -0.2e-3, 0.3e-3, 0.7e-3, 0.95e-3};
    double x = 0.0;
    for (int k = 0; k < np; ++k) {
      y[3 * k] = x;
      x -= 4.0 + stretch[k];
      set3(&y[3 * np + 3 * k], 0.01 * prand(&seed), 0.01 * prand(&seed), 0.01 * prand(&seed));
    }
    tow_attachment(m, y, xa, NULL);
    y[bo + MBDAE_RB_P] += x - xa[0];
    check(m, y, "inside the onset", 1e-8, 1e-6); /* steps well inside the band */
    free(y);
    tow_free(&m);
  }
}

static void test_thrust(void) {
  tow_params p;
  params(&p, 4);
  double F[3], I[3];
  tow_thrust(&p, 0.5, F);
  MBDAE_ASSERT_REL(F[0], 20.0, 1e-15);
  MBDAE_ASSERT_REL(F[1], 1.0, 1e-15);
  tow_thrust(&p, 45.0, F); /* periodic: 45 -> 5 */
  MBDAE_ASSERT_REL(F[0], 40.0, 1e-15);
  tow_thrust(&p, 70.5, F); /* 30.5: half way down */
  MBDAE_ASSERT_REL(F[0], 20.0, 1e-15);
  /* one period: 0.5 + 29 + 0.5 = 30 s at 40 N */
  tow_impulse(&p, 40.0, I);
  MBDAE_ASSERT_REL(I[0], 1200.0, 1e-14);
  MBDAE_ASSERT_REL(I[2], -30.0, 1e-14);
  tow_impulse(&p, 85.0, I); /* two periods + 0.5 + 4 s at 40 */
  MBDAE_ASSERT_REL(I[0], 2400.0 + 20.0 + 160.0, 1e-14);
  /* non-periodic: held after the last row (0), before the first */
  p.thrust_period = 0.0;
  tow_impulse(&p, 100.0, I);
  MBDAE_ASSERT_REL(I[0], 1200.0, 1e-14);
}

static void test_bad(void) {
  tow_params p;
  mbdae_param_error err;
  params(&p, 1);
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "tether_nodes");
  params(&p, 4);
  p.tether_ea = 0.0;
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "EA");
  params(&p, 4);
  p.tether_damping = -1.0;
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "tether_damping");
  const double onsets[] = {-1e-6, 4.0, NAN}; /* threads of 4 m */
  for (int i = 0; i < 3; ++i) {
    params(&p, 4);
    p.tether_onset = onsets[i];
    CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
    CU_ASSERT_STRING_EQUAL(err.key, "tether_onset");
  }
  double bad[] = {0, 0, 0, 0, 1, NAN, 0, 0};
  params(&p, 4);
  p.thrust = bad;
  p.nthrust = 2;
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "thrust[1]");
  double back[] = {0, 0, 0, 0, 2, 1, 0, 0, 1, 1, 0, 0};
  p.thrust = back;
  p.nthrust = 3;
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "thrust[2]");
  params(&p, 4);
  set3(p.attachment, 5.0, 0.0, 0.0);
  CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "attachment");
}

/* a thrust pulse (8 s on, 8 s coasting): the tether goes slack and taut
 * again; the ledger and the momentum balance close to the tolerance, energy
 * was put in and dissipated */
static int slack_changes, last_taut = -1;

/* counts the samples at which the tether went from all slack to some taut
 * or back */
static int count_slack(double t, const double *y, const double *yp, const mbdae_event_record *ev,
                       void *ud) {
  (void)yp;
  if (ev) return 0;
  tow_ledger L;
  tow_ledger_eval(ud, t, y, &L);
  int taut = L.taut == ((tow_model *)ud)->N + 1;
  if (last_taut >= 0 && taut != last_taut) ++slack_changes;
  last_taut = taut;
  return 0;
}

static void test_ledger(void) {
  tow_params p;
  static double pulse[] = {0, 0, 0, 0, 0.5, 40, 2, -1, 8, 40, 2, -1, 8.5, 0, 0, 0};
  params(&p, 8);
  p.thrust = pulse;
  p.thrust_period = 16.0;
  p.tether_damping = 5e3; /* clamp speed EA l / eta = 8.9 m/s: few clamp kinks */
  tow_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(tow_create(&p, 1, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)m->n, sizeof *y), *yp = calloc((size_t)m->n, sizeof *yp);
  CU_ASSERT_EQUAL(tow_initial_state(m, 0.0, y, yp), MBDAE_OK);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 16.0;
  o.dt_out = 0.05;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.max_steps = 1000000;
  o.observer = count_slack;
  o.observer_data = m;
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, yp, &st, NULL, 0), MBDAE_OK);
  tow_ledger L;
  tow_ledger_eval(m, o.t_end, y, &L);
  printf("\n  ledger rel %.3g, momentum rel %.3g, work %.4g J, loss %.4g J, %ld steps\n",
         L.residual_rel, L.momentum_residual_rel, L.work, L.dissipated, st.steps);
  CU_ASSERT(L.residual_rel < 1e-8);
  CU_ASSERT(L.momentum_residual_rel < 1e-8);
  CU_ASSERT(L.work > 100.0);
  CU_ASSERT(L.dissipated > 0.0);
  printf("  slack-taut changes at the samples: %d\n", slack_changes);
  CU_ASSERT(slack_changes >= 2);
  free(y);
  free(yp);
  tow_free(&m);
}

/* The ledger's terms (thrust work and damping loss as states of the same
 * integrator, kinetic and elastic energy from the state) carry only the
 * integrator's error, so the closure follows rtol: over the pulse (slack and
 * taut phases, kinks at slack), CVODE-BDF and IDA close to better than rtol
 * at rtol 1e-4, 1e-6 and 1e-8, and a 100x tighter rtol closes at least 10x
 * better, a 10^4x tighter one at least 100x (tolerance proportionality is
 * not exact: the error's sign changes along the run). */
static double closure_at(mbdae_method method, double rtol) {
  tow_params p;
  static double pulse[] = {0, 0, 0, 0, 0.5, 40, 2, -1, 8, 40, 2, -1, 8.5, 0, 0, 0};
  params(&p, 8);
  p.thrust = pulse;
  p.thrust_period = 16.0;
  p.tether_damping = 5e3;
  tow_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(tow_create(&p, method == MBDAE_METHOD_IDA, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)m->n, sizeof *y), *yp = calloc((size_t)m->n, sizeof *yp);
  CU_ASSERT_EQUAL(tow_initial_state(m, 0.0, y, yp), MBDAE_OK);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 16.0;
  o.dt_out = 0.5;
  o.rtol = rtol;
  o.atol = 1e-2 * rtol; /* positions in metres, as the shipped scenario */
  o.max_steps = 1000000;
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, yp, &st, NULL, 0), MBDAE_OK);
  tow_ledger L;
  tow_ledger_eval(m, o.t_end, y, &L);
  free(y);
  free(yp);
  tow_free(&m);
  return L.residual_rel;
}

static void test_closure_follows_rtol(void) {
  const mbdae_method methods[] = {MBDAE_METHOD_CVODE_BDF, MBDAE_METHOD_IDA};
  for (int k = 0; k < 2; ++k) {
    double r4 = closure_at(methods[k], 1e-4), r6 = closure_at(methods[k], 1e-6),
           r8 = closure_at(methods[k], 1e-8);
    printf("\n  %s: closure %.2g (rtol 1e-4), %.2g (1e-6), %.2g (1e-8)",
           k ? "ida" : "cvode-bdf", r4, r6, r8);
    CU_ASSERT(r4 < 1e-4);
    CU_ASSERT(r6 < 1e-6);
    CU_ASSERT(r8 < 1e-8);
    CU_ASSERT(r6 < 0.1 * r4);
    CU_ASSERT(r8 < 1e-2 * r4);
  }
}

/* Snaps: a tether snapping taut at every pulse, its threads chattering
 * across their slack kinks afterwards. The plain law's tension has a kink
 * there (its derivative jumps from 0 to EA/l), which the BDF error estimate
 * does not see: each crossing adds an error the tolerance does not bound
 * (measured over four pulses: 5e-6, 1.8e-6 and 2.4e-7 of the thrust work
 * at rtol 1e-6, 1e-7 and 1e-8, the jump at the third snap). With the C2
 * onset (tether_onset, elastic_thread.h) the error estimate sees the onset
 * and the ledger closes to the tolerance (8e-7, 2e-8, 2.6e-9) in fewer
 * steps. Returns the largest |residual| over the samples relative to the
 * thrust work by then. */
static double snap_worst;
static int snap_sample(double t, const double *y, const double *yp, const mbdae_event_record *ev,
                       void *ud) {
  (void)yp;
  if (ev) return 0;
  tow_ledger L;
  tow_ledger_eval(ud, t, y, &L);
  if (L.work > 1.0) snap_worst = fmax(snap_worst, fabs(L.residual) / L.work);
  return 0;
}

/* the tow of p at its initial state and CVODE-BDF options for it (the
 * ledger and linear-solver runs below) */
static double *cvode_start(const tow_params *p, tow_model **m, mbdae_options *o) {
  CU_ASSERT_EQUAL_FATAL(tow_create(p, 0, m, NULL), MBDAE_OK);
  double *y = calloc((size_t)(*m)->n, sizeof *y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_EQUAL(tow_initial_state(*m, 0.0, y, NULL), MBDAE_OK);
  mbdae_options_default(o);
  o->method = MBDAE_METHOD_CVODE_BDF;
  return y;
}

static double snap_closure_w(double onset, double rtol, double ledger_tol, long *steps) {
  tow_params p;
  static double pulse[] = {0, 0, 0, 0, 0.5, 40, 2, -1, 6, 40, 2, -1, 6.5, 0, 0, 0};
  params(&p, 8);
  p.thrust = pulse;
  p.thrust_period = 12.0;
  p.tether_onset = onset;
  p.ledger_tol = ledger_tol;
  tow_model *m = NULL;
  mbdae_options o;
  double *y = cvode_start(&p, &m, &o);
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 28.0; /* three pulses: the third snap (26.5-27.5 s) chatters */
  o.dt_out = 0.25;
  o.rtol = rtol;
  o.atol = 1e-2 * rtol;
  o.max_steps = 1000000;
  o.observer = snap_sample;
  o.observer_data = m;
  snap_worst = 0.0;
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, NULL, &st, NULL, 0), MBDAE_OK);
  *steps = st.steps;
  free(y);
  tow_free(&m);
  return snap_worst;
}

static double snap_closure(double onset, double rtol, long *steps) {
  return snap_closure_w(onset, rtol, 0.0, steps);
}

static void test_snap_onset(void) {
  long sp, so;
  double plain = snap_closure(0.0, 1e-7, &sp), smooth = snap_closure(1e-5, 1e-7, &so);
  printf("\n  rtol 1e-7, three snaps: closure %.3g plain (%ld steps), %.3g with a 1e-5 m onset (%ld)",
         plain, sp, smooth, so);
  CU_ASSERT(smooth < 1e-7);
  CU_ASSERT(plain > 5e-7);
  CU_ASSERT(so < sp);
}

/* ledger_tolerance: the error test also weighs each state's share of the
 * ledger's error (velocities by m v, positions by the elastic force, W and
 * D by 1, relative to the ledger's scale; tow_model.c), so the snaps'
 * errors shrink without a tighter rtol. The same three snaps at rtol 1e-6,
 * where the closure is rtol-bound (8e-7): with the weights at 1e-11 it
 * closes to 4e-9 in 1.2x the steps (1.8e-9 at 1e-12, 1.6x); methods without an error test refuse
 * the weights, and bad values are refused by name. */
static void test_ledger_weights(void) {
  long s0, s1;
  const double eps = 1e-11;
  double plain = snap_closure_w(1e-5, 1e-6, 0.0, &s0), weighted = snap_closure_w(1e-5, 1e-6, eps, &s1);
  printf("\n  rtol 1e-6, three snaps: closure %.3g (%ld steps), %.3g with ledger_tolerance %g "
         "(%ld)", plain, s0, weighted, eps, s1);
  CU_ASSERT(plain < 1e-6);
  CU_ASSERT(weighted < 0.05 * plain);
  CU_ASSERT(weighted < 1e-8);
  CU_ASSERT(s1 > s0);
  tow_params p;
  mbdae_param_error err;
  const double bad[] = {-1e-9, NAN, INFINITY};
  for (int i = 0; i < 3; ++i) {
    params(&p, 4);
    p.ledger_tol = bad[i];
    CU_ASSERT_EQUAL(tow_params_check(&p, &err), MBDAE_ERR_PARAMETER);
    CU_ASSERT_STRING_EQUAL(err.key, "ledger_tolerance");
  }
  params(&p, 4);
  p.ledger_tol = 1e-11;
  tow_model *m = NULL;
  mbdae_options o;
  double *y = cvode_start(&p, &m, &o);
  o.method = MBDAE_METHOD_RK4;
  o.t_end = 0.1;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, NULL, NULL, NULL, 0), MBDAE_ERR_UNSUPPORTED);
  free(y);
  tow_free(&m);
  /* IDA takes the same weights (IDAWFtolerances) */
  CU_ASSERT_EQUAL_FATAL(tow_create(&p, 1, &m, NULL), MBDAE_OK);
  y = calloc((size_t)m->n, sizeof *y);
  double *yp = calloc((size_t)m->n, sizeof *yp);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(yp);
  CU_ASSERT_EQUAL(tow_initial_state(m, 0.0, y, yp), MBDAE_OK);
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.t_end = 2.0;
  o.rtol = 1e-6;
  o.atol = 1e-8;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, yp, NULL, NULL, 0), MBDAE_OK);
  tow_ledger L;
  tow_ledger_eval(m, o.t_end, y, &L);
  CU_ASSERT(L.work > 1.0 && L.residual_rel < 1e-6);
  free(y);
  free(yp);
  tow_free(&m);
}

/* CVODE-BDF builds its KLU Newton matrix I - gamma J itself from a kept
 * Jacobian (backend_cvode.c); the dense path keeps CVODE's own setup. Both
 * have the same matrix, so over a pulse with slack and taut phases they take
 * the same steps and Newton iterations (to a few per cent: rounding grows
 * along the run) and end at
 * the same state; a wrong matrix or a Jacobian not refreshed when CVODE asks
 * would show as more iterations and failures, or a failed run. */
static void run_linsol(mbdae_linsol ls, mbdae_stats *st, double *chaser_x) {
  tow_params p;
  params(&p, 8);
  tow_model *m = NULL;
  mbdae_options o;
  double *y = cvode_start(&p, &m, &o);
  o.linsol = ls;
  o.t_end = 6.0;
  o.dt_out = 0.5;
  o.rtol = 1e-6;
  o.atol = 1e-8;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, NULL, st, NULL, 0), MBDAE_OK);
  *chaser_x = y[0];
  free(y);
  tow_free(&m);
}

static void test_cvode_klu_matrix(void) {
  mbdae_stats sk, sd;
  double xk, xd;
  run_linsol(MBDAE_LINSOL_KLU, &sk, &xk);
  run_linsol(MBDAE_LINSOL_DENSE, &sd, &xd);
  printf("\n  klu: %ld steps, %ld iterations, %ld failures; dense: %ld, %ld, %ld", sk.steps,
         sk.newton_iters, sk.newton_fails, sd.steps, sd.newton_iters, sd.newton_fails);
  CU_ASSERT(sk.steps > 100);
  CU_ASSERT(labs(sk.steps - sd.steps) <= sd.steps / 20 + 2);
  CU_ASSERT(labs(sk.newton_iters - sd.newton_iters) <= sd.newton_iters / 20 + 2);
  CU_ASSERT(labs(sk.jac_evals - sd.jac_evals) <= sd.jac_evals / 20 + 2);
  CU_ASSERT(sk.newton_fails <= sd.newton_fails + sd.newton_fails / 10 + 2);
  CU_ASSERT(fabs(xk - xd) < 1e-6 * (1.0 + fabs(xd)));
}

int main(void) {
  static const mbdae_test tests[] = {
    {"tow: sparse Jacobian vs central differences", test_jacobian},
    {"tow: thrust profile and impulse", test_thrust},
    {"tow: bad parameters", test_bad},
    {"tow: energy ledger and momentum balance", test_ledger},
    {"tow: the ledger's closure follows rtol", test_closure_follows_rtol},
    {"tow: cvode-bdf's KLU Newton matrix equals the dense path's", test_cvode_klu_matrix},
    {"tow: snaps close the ledger to rtol with the C2 onset", test_snap_onset},
    {"tow: ledger_tolerance weighs the error test by the ledger", test_ledger_weights},
    {NULL, NULL}};
  return mbdae_test_main("tow", tests);
}
