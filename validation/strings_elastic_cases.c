/* strings_elastic_cases.c - validation of the elastic thread law of
 * string_net (mode: elastic, models/strings/string_net_elastic.c) against
 * closed forms: the taut chain's dispersion relation and longitudinal wave
 * speed, energy conservation of the undamped elastic bola, and convergence
 * of the elastic bola to the exact inextensible one (strings_bola_exact.c)
 * as EA grows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"
#include "strings_bola_exact.h"
#include "strings_run.h"

#define PI 3.14159265358979323846

/* --- taut chain: u_i(t) = A sin(n pi i/(N+1)) cos(w_n t),
 *     w_n = 2 sqrt(k/m) sin(n pi / (2 (N+1))), k = EA/L ------------------- */

enum { CH_N = 20 };            /* moving masses; the two ends are 1e15 kg */

typedef struct chain_watch {
  int n;                       /* mode */
  double A, spacing;
  double t_prev, a_prev;
  int crossings;
  double t_cross[12];
} chain_watch;

/* modal amplitude a_n = (2/(N+1)) sum_i u_i sin(n pi i/(N+1)) */
static double modal(const chain_watch *w, const double *y) {
  double a = 0.0;
  for (int i = 1; i <= CH_N; ++i)
    a += (y[3 * i] - i * w->spacing) * sin(w->n * PI * i / (CH_N + 1));
  return 2.0 * a / (CH_N + 1);
}

static int chain_observe(double t, const double *y, const double *yp,
                         const mbdae_event_record *ev, void *ud) {
  (void)yp;
  chain_watch *w = ud;
  if (ev) return 0;
  double a = modal(w, y);
  if (w->t_prev >= 0.0 && (a > 0.0) != (w->a_prev > 0.0) && w->crossings < 12)
    w->t_cross[w->crossings++] = w->t_prev + (t - w->t_prev) * w->a_prev / (w->a_prev - a);
  w->t_prev = t;
  w->a_prev = a;
  return 0;
}

/* one mode of the stretched chain: the measured w_n from 10 zero crossings
 * of its modal amplitude (cos: at w t = (k + 1/2) pi) */
static int chain_mode(int n, double *w_meas, double *w_exact, double *c_meas, double *c_exact) {
  const double m = 0.01, L = 0.5, EA = 2e3, stretch = 1e-3, A = 1e-5;
  const double spacing = L * (1.0 + stretch), k = EA / L;
  double points[7 * (CH_N + 2)], strings[3 * (CH_N + 1)];
  for (int i = 0; i <= CH_N + 1; ++i) {
    double *r = &points[7 * i];
    r[0] = (i == 0 || i == CH_N + 1) ? 1e15 : m;
    r[1] = i * spacing + (i >= 1 && i <= CH_N ? A * sin(n * PI * i / (CH_N + 1)) : 0.0);
    r[2] = r[3] = r[4] = r[5] = r[6] = 0.0;
  }
  for (int s = 0; s <= CH_N; ++s) {
    strings[3 * s] = s;
    strings[3 * s + 1] = s + 1;
    strings[3 * s + 2] = L;
  }
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_TABLE;
  p.hold = SN_HOLD_ELASTIC;
  p.ea = EA;
  p.string_damping = 0.0;
  p.points = points;
  p.npoints = CH_N + 2;
  p.strings = strings;
  p.nstrings = CH_N + 1;
  p.max_output_columns = 0;
  *w_exact = 2.0 * sqrt(k / m) * sin(n * PI / (2.0 * (CH_N + 1)));
  double period = 2.0 * PI / *w_exact;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 5.6 * period;
  o.dt_out = period / 400.0;
  o.rtol = 1e-11;
  o.atol = 1e-15;
  o.max_steps = 1000000;
  snm_model *model = NULL;
  int rc = snm_create(&p, &o, &model, NULL);
  if (rc) return rc;
  int nn = model->net->n;
  double *y = calloc((size_t)nn, sizeof *y), *yp = calloc((size_t)nn, sizeof *yp);
  chain_watch w = {n, A, spacing, -1.0, 0.0, 0, {0}};
  if (!y || !yp) rc = MBDAE_ERR_MEMORY;
  if (!rc) rc = snm_initial_state(model, 0.0, y, yp);
  if (!rc) {
    o.observer = chain_observe;
    o.observer_data = &w;
    rc = mbdae_run(model->problem, &o, y, yp, NULL, NULL, 0);
  }
  free(y);
  free(yp);
  snm_free(&model);
  if (rc) return rc;
  if (w.crossings < 11) return MBDAE_ERR_SOLVER;
  /* crossings k = 0..10 at (k + 1/2) pi / w: least squares through them */
  double st = 0.0, sk = 0.0, stk = 0.0, skk = 0.0;
  for (int c = 0; c <= 10; ++c) {
    double kk = (c + 0.5) * PI;
    st += w.t_cross[c]; sk += kk; stk += w.t_cross[c] * kk; skk += kk * kk;
  }
  double slope = (11.0 * stk - st * sk) / (11.0 * skk - sk * sk); /* t per radian */
  *w_meas = 1.0 / slope;
  double kwave = n * PI / ((CH_N + 1) * spacing);
  *c_meas = *w_meas / kwave;
  *c_exact = *w_exact / kwave;
  return 0;
}

static int case_chain(mbdae_validation_report *rep) {
  int modes[3] = {1, 10, 20};
  const char *q[3] = {"taut chain, mode 1 of 20: w (rad/s)", "taut chain, mode 10 of 20: w (rad/s)",
                      "taut chain, mode 20 of 20 (fastest): w (rad/s)"};
  for (int i = 0; i < 3; ++i) {
    double wm, we, cm, ce;
    int rc = chain_mode(modes[i], &wm, &we, &cm, &ce);
    if (rc) return rc;
    mbdae_validation_add(rep, q[i], we, wm, 1e-6, 1);
    if (i == 0) {
      mbdae_validation_add(rep, "taut chain, mode 1: phase speed w/k (m/s)", ce, cm, 1e-6, 1);
      /* the continuum's sqrt(EA/rho) in the stretched coordinates, within
       * the discrete factor sin(x)/x, x = pi/(2(N+1)) = 0.0748: 9.3e-4 */
      double c0 = 0.5 * 1.001 * sqrt(2e3 / 0.5 / 0.01);
      mbdae_validation_add(rep, "taut chain: continuum speed L' sqrt(k/m), within sin(x)/x (m/s)",
                           c0, cm, 1e-3, 1);
    }
  }
  return 0;
}

/* --- the undamped elastic bola: energy --------------------------------- */

static void elastic_bola(snm_params *p, double EA) {
  strings_params_default(p);
  p->topology = SNM_BOLA;
  p->hold = SN_HOLD_ELASTIC;
  p->ea = EA;
  p->string_damping = 0.0;
  p->length = 1.0;
  p->m1 = 1.0;
  p->m2 = 2.0;
  memset(p->gravity, 0, sizeof p->gravity);
  double r2[3] = {0.6, 0.0, 0.0}, v2[3] = {0.5, 1.0, 0.2};
  memcpy(p->r2, r2, sizeof r2);
  memcpy(p->v2, v2, sizeof v2);
  memset(p->r1, 0, sizeof p->r1);
  memset(p->v1, 0, sizeof p->v1);
}

typedef struct energy_watch {
  const snm_model *m;
  double E0, worst;
  int started;
} energy_watch;

static int energy_observe(double t, const double *y, const double *yp,
                          const mbdae_event_record *ev, void *ud) {
  (void)t; (void)yp; (void)ev;
  energy_watch *w = ud;
  double E = snm_energy(w->m, y);
  if (!w->started) { w->E0 = E; w->started = 1; }
  w->worst = fmax(w->worst, fabs(E - w->E0) / w->E0);
  return 0;
}

static int case_bola_energy(mbdae_validation_report *rep) {
  snm_params p;
  elastic_bola(&p, 1e4);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 10.0;
  o.dt_out = 0.01;
  o.rtol = 3e-12;
  o.atol = 1e-14;
  o.max_steps = 1000000;
  snm_model *m = NULL;
  int rc = snm_create(&p, &o, &m, NULL);
  if (rc) return rc;
  int n = m->net->n;
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  energy_watch w = {m, 0.0, 0.0, 0};
  if (!y || !yp) rc = MBDAE_ERR_MEMORY;
  if (!rc) rc = snm_initial_state(m, 0.0, y, yp);
  mbdae_stats st;
  if (!rc) {
    o.observer = energy_observe;
    o.observer_data = &w;
    rc = mbdae_run(m->problem, &o, y, yp, &st, NULL, 0);
  }
  free(y);
  free(yp);
  snm_free(&m);
  if (rc) return rc;
  mbdae_validation_add(rep, "elastic bola, EA = 1e4 N, undamped: max |E - E0|/E0 over 10 s",
                       0.0, w.worst, 1e-8, 0);
  return 0;
}

/* --- convergence to the exact inextensible bola (e = 1) as EA grows ----- */

static int case_bola_convergence(mbdae_validation_report *rep) {
  const double EAs[4] = {1e3, 1e4, 1e5, 1e6};
  double dev[4];
  for (int i = 0; i < 4; ++i) {
    snm_params p;
    elastic_bola(&p, EAs[i]);
    bola_exact b;
    memset(&b, 0, sizeof b);
    b.m1 = p.m1; b.m2 = p.m2; b.L = p.length; b.e = 1.0;
    memcpy(b.r1, p.r1, sizeof b.r1); memcpy(b.r2, p.r2, sizeof b.r2);
    memcpy(b.v1, p.v1, sizeof b.v1); memcpy(b.v2, p.v2, sizeof b.v2);
    if (bola_exact_solve(&b, 3.0)) return MBDAE_ERR_SOLVER;
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = MBDAE_METHOD_IDA;
    o.linsol = MBDAE_LINSOL_KLU;
    o.t_end = 3.0;
    o.dt_out = 0.01;
    o.rtol = 1e-11;
    o.atol = 1e-13;
    o.max_steps = 1000000;
    static strings_log log;
    memset(&log, 0, sizeof log);
    log.ref = &b;
    int rc = strings_run(&p, &o, &log, NULL, NULL, 0);
    if (rc) return rc;
    dev[i] = log.max_dev_pos;
  }
  /* the thread's contact lasts pi sqrt(mu L / EA): the deviation falls as
   * EA^(-1/2) */
  double slope = (log(dev[3]) - log(dev[1])) / (log(EAs[3]) - log(EAs[1]));
  mbdae_validation_add(rep, "elastic -> exact bola: max |r - r_ex|/L at EA = 1e6 N", 0.0, dev[3],
                       2e-2, 0);
  mbdae_validation_add(rep, "elastic -> exact bola: rate d log dev / d log EA (1e4..1e6)", -0.5,
                       slope, 0.1, 0);
  return 0;
}

const mbdae_validation_case mbdae_validation_strings_elastic[] = {
  {"strings_elastic_chain_dispersion",
   "stretched elastic chain (20 masses, heavy ends): w_n = 2 sqrt(k/m) sin(n pi/(2(N+1))) for "
   "n = 1, 10, 20 and the long-wave phase speed (cvode-bdf, klu)", case_chain},
  {"strings_elastic_bola_energy",
   "undamped elastic bola, EA = 1e4 N, slack-taut bounces: energy kept to 1e-8 over 10 s "
   "(cvode-bdf rtol 3e-12)", case_bola_energy},
  {"strings_elastic_bola_convergence",
   "elastic bola -> exact inextensible bola (e = 1) as EA grows: deviation and its rate "
   "(ida)", case_bola_convergence},
  {NULL, NULL, NULL}};
