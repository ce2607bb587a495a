/* ball_cases.c - validation of the bouncing ball (engine acceptance model
 * (a)) against the closed form of the geometric impact sequence, derived in
 * doc/acceptance-models.md and recomputed here independently of the model:
 *   V1 = sqrt(v0^2 + 2 g h0),  t1 = (v0 + V1) / g,
 *   t_{k+1} = t_k + 2 e^k V1 / g,  apex after impact k: (e^k V1)^2 / (2 g),
 *   t_inf = t1 + 2 e V1 / (g (1 - e)),
 * and of the release of a resting ball under an upward force F = c t:
 *   t_r = m g / c,  q(t) = c (t - t_r)^3 / (6 m) for t > t_r. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ball/ball.h"
#include "mbdae/mbdae.h"

#define BALL_LOG_MAX 512

typedef struct ball_log {
  int nimpacts;             /* events labelled impact or rest */
  double t_impact[BALL_LOG_MAX];
  int napex;
  double t_apex[BALL_LOG_MAX], h_apex[BALL_LOG_MAX];
  double t_rest;            /* the rest event (-1 if none) */
  double t_release;         /* the release event (-1 if none) */
  double energy_ratio1;     /* E after / E before, first impact */
  double probe_t, probe_force; /* normal force at the sample t = probe_t */
  const ball_model *model;
} ball_log;

static int ball_observer(double t, const double *y, const double *yp,
                         const mbdae_event_record *ev, void *ud) {
  (void)yp;
  ball_log *L = ud;
  if (!ev) {
    if (fabs(t - L->probe_t) < 1e-12) L->probe_force = ball_normal_force(L->model, t, y);
    return 0;
  }
  if (strcmp(ev->label, "impact") == 0 || strcmp(ev->label, "rest") == 0) {
    if (L->nimpacts == 0 && ev->ninv > 0 && ev->inv_before[0] != 0.0)
      L->energy_ratio1 = ev->inv_after[0] / ev->inv_before[0];
    if (L->nimpacts < BALL_LOG_MAX) L->t_impact[L->nimpacts] = t;
    L->nimpacts++;
    if (strcmp(ev->label, "rest") == 0) L->t_rest = t;
  } else if (strcmp(ev->label, "apex") == 0) {
    if (L->napex < BALL_LOG_MAX) {
      L->t_apex[L->napex] = t;
      L->h_apex[L->napex] = y[BALL_Q];
    }
    L->napex++;
  } else if (strcmp(ev->label, "release") == 0) {
    L->t_release = t;
  }
  return 0;
}

/* Run the bouncing_ball kind as the driver would; y receives the final state. */
static int run_ball(const ball_params *p, mbdae_options *o, ball_log *log,
                    double *y, double *normal_force_end) {
  const mbdae_model_kind *kind = &mbdae_model_bouncing_ball;
  mbdae_model *model = NULL;
  mbdae_param_error err;
  int rc = kind->create(p, o, &model, &err);
  if (rc) return rc;
  double yp[BALL_N_DAE] = {0};
  log->model = (const ball_model *)model;
  log->t_rest = log->t_release = -1.0;
  o->observer = ball_observer;
  o->observer_data = log;
  mbdae_problem *pr = kind->problem(model);
  rc = kind->initial_state(model, o->t0, y, yp);
  if (!rc) {
    mbdae_stats st;
    char msg[512];
    rc = mbdae_run(pr, o, y, yp, &st, msg, sizeof msg);
  }
  if (!rc) *normal_force_end = ball_normal_force((const ball_model *)model, o->t_end, y);
  kind->destroy(&model);
  return rc;
}

static void ball_options(mbdae_options *o, mbdae_method method) {
  mbdae_options_default(o);
  o->method = method;
  o->t0 = 0.0;
  o->dt_out = 0.05;
  o->rtol = 1e-12;
  /* The last rebounds before the rest switch have speeds ~ 2e-6 m/s and
   * heights ~ 2e-13 m; their timing is only as good as the absolute control
   * of q and v (measured, CVODE BDF: t_66 off by 1.5e-7 s with atol 1e-14,
   * 1.6e-9 s with atol 1e-16). Large values are governed by rtol anyway. */
  o->atol = 1e-16;
  o->rk4_step = 1e-3;
  o->max_steps = 1000000;
  /* the last rebounds rise only (2e-6)^2 / (2 g) ~ 2e-13 m: the dead band of
   * a just-handled gap root must be narrower than that */
  o->root_band = 1e-15;
}

/* The impact sequence: h0 = 1 m, thrown up at v0 = 2 m/s, e = 0.8. The rest
 * switch happens at impact K, the first with e^K V1 < zeno_velocity; the
 * neglected tail 2 e^K V1 / (g (1 - e)) < 2 zeno_velocity / (g (1 - e))
 * = 2.0e-6 s is 4.4e-7 of t_inf, inside the 1e-6 tolerance. */
static int ball_sequence_case(mbdae_validation_report *rep, mbdae_method method) {
  ball_params p;
  ball_params_default(&p);
  p.g = 9.81;
  p.e = 0.8;
  p.h0 = 1.0;
  p.v0 = 2.0;
  p.mass = 2.0;
  p.zeno_velocity = 2e-6;
  p.zeno_time = 0.0;
  p.lift_rate = 0.0;
  mbdae_options o;
  ball_options(&o, method);
  o.t_end = 6.0;

  /* closed form */
  const double g = p.g, e = p.e;
  const double V1 = sqrt(p.v0 * p.v0 + 2.0 * g * p.h0);
  const double t1 = (p.v0 + V1) / g;
  const double t_inf = t1 + 2.0 * e * V1 / (g * (1.0 - e));
  int K = 1;
  for (double u = e * V1; !(u < p.zeno_velocity); u *= e) K++;

  ball_log log;
  memset(&log, 0, sizeof log);
  log.probe_t = -1.0;
  double y[BALL_N_DAE], force_end = 0.0;
  int rc = run_ball(&p, &o, &log, y, &force_end);
  if (rc) return rc;

  char q[96];
  const int N = 10;
  double tk = t1, uk = V1; /* impact time and pre-impact speed */
  for (int k = 1; k <= N; ++k) {
    snprintf(q, sizeof q, "impact time t_%d [s]", k);
    mbdae_validation_add(rep, q, tk, k <= log.nimpacts ? log.t_impact[k - 1] : NAN, 1e-8, 1);
    uk *= e; /* post-impact speed e^k V1 */
    tk += 2.0 * uk / g;
  }
  /* apexes: the one before the first impact (v0 > 0), then one per rebound */
  int a = 0;
  if (p.v0 > 0.0) {
    mbdae_validation_add(rep, "apex height before impact 1 [m]",
                         p.h0 + p.v0 * p.v0 / (2.0 * g),
                         log.napex > 0 ? log.h_apex[0] : NAN, 1e-8, 1);
    a = 1;
  }
  uk = V1;
  for (int k = 1; k <= N; ++k) {
    uk *= e;
    snprintf(q, sizeof q, "apex height after impact %d [m]", k);
    mbdae_validation_add(rep, q, uk * uk / (2.0 * g),
                         a + k - 1 < log.napex ? log.h_apex[a + k - 1] : NAN, 1e-8, 1);
  }
  mbdae_validation_add(rep, "energy kept by impact 1 (= e^2)", e * e, log.energy_ratio1,
                       1e-10, 1);
  mbdae_validation_add(rep, "impacts up to the rest switch (K)", K, log.nimpacts, 0.0, 0);
  double tK = t1, u = V1;
  for (int k = 1; k < K; ++k) {
    u *= e;
    tK += 2.0 * u / g;
  }
  mbdae_validation_add(rep, "rest switch time t_K [s]", tK, log.t_rest, 1e-8, 1);
  mbdae_validation_add(rep, "accumulation time t_inf [s]", t_inf, log.t_rest, 1e-6, 1);
  mbdae_validation_add(rep, "resting normal force m g [N]", p.mass * g, force_end, 1e-12, 1);
  mbdae_validation_add(rep, "resting height [m]", 0.0, y[BALL_Q], 1e-15, 0);
  return 0;
}

/* A resting ball lifted by F = c t: released at t_r = m g / c, then
 * q = c (t - t_r)^3 / (6 m). */
static int ball_release_case(mbdae_validation_report *rep, mbdae_method method) {
  ball_params p;
  ball_params_default(&p);
  p.g = 9.81;
  p.mass = 2.0;
  p.h0 = 0.0;
  p.v0 = 0.0;
  p.lift_rate = 4.0;
  mbdae_options o;
  ball_options(&o, method);
  o.t_end = 5.5;
  o.dt_out = 0.5;
  const double tr = p.mass * p.g / p.lift_rate;
  ball_log log;
  memset(&log, 0, sizeof log);
  log.probe_t = 2.0;
  double y[BALL_N_DAE], force_end = 0.0;
  int rc = run_ball(&p, &o, &log, y, &force_end);
  if (rc) return rc;
  mbdae_validation_add(rep, "normal force at t = 2 s: m g - 2 c [N]",
                       p.mass * p.g - p.lift_rate * 2.0, log.probe_force, 1e-10, 1);
  mbdae_validation_add(rep, "release time m g / c [s]", tr, log.t_release, 1e-8, 1);
  const double dt = o.t_end - tr;
  mbdae_validation_add(rep, "height at t_end: c (t - t_r)^3 / (6 m) [m]",
                       p.lift_rate * dt * dt * dt / (6.0 * p.mass), y[BALL_Q], 1e-7, 1);
  return 0;
}

static int case_ball_ida(mbdae_validation_report *r) {
  return ball_sequence_case(r, MBDAE_METHOD_IDA);
}
static int case_ball_cvode(mbdae_validation_report *r) {
  return ball_sequence_case(r, MBDAE_METHOD_CVODE_BDF);
}
static int case_ball_rk4(mbdae_validation_report *r) {
  return ball_sequence_case(r, MBDAE_METHOD_RK4);
}
static int case_ball_arkode(mbdae_validation_report *r) {
  return ball_sequence_case(r, MBDAE_METHOD_ARKODE);
}
static int case_ball_release_ida(mbdae_validation_report *r) {
  return ball_release_case(r, MBDAE_METHOD_IDA);
}
static int case_ball_release_cvode(mbdae_validation_report *r) {
  return ball_release_case(r, MBDAE_METHOD_CVODE_BDF);
}
static int case_ball_release_arkode(mbdae_validation_report *r) {
  return ball_release_case(r, MBDAE_METHOD_ARKODE);
}

const mbdae_validation_case mbdae_validation_ball[] = {
  {"ball_ida", "bouncing ball, IDA (DAE form): impact times, apex heights, t_inf, "
               "resting normal force vs the geometric-series closed form",
   case_ball_ida},
  {"ball_cvode", "bouncing ball, CVODE BDF (ODE form): the same closed form", case_ball_cvode},
  {"ball_rk4", "bouncing ball, fixed-step RK4 (h = 1e-3 s): the same closed form",
   case_ball_rk4},
  {"ball_arkode", "bouncing ball, ARKODE ESDIRK (ODE form): the same closed form",
   case_ball_arkode},
  {"ball_release_ida", "resting ball lifted by F = c t, IDA: normal force, release time, "
                       "height after release", case_ball_release_ida},
  {"ball_release_cvode", "resting ball lifted by F = c t, CVODE BDF", case_ball_release_cvode},
  {"ball_release_arkode", "resting ball lifted by F = c t, ARKODE ESDIRK",
   case_ball_release_arkode},
  {NULL, NULL, NULL}
};
