/* billiard_run.c - drive the billiard model kind through mbdae_run. */
#include "billiard_run.h"

#include <string.h>

#include "mbdae/status.h"

void billiard_run_cfg_default(billiard_run_cfg *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->method = MBDAE_METHOD_CVODE_ADAMS;
  cfg->rtol = 1e-10;
  cfg->atol = 1e-12;
  cfg->t_end = 1e5;
  cfg->rk4_step = 1e-4;
}

typedef struct run_ctx {
  const billiard_run_cfg *cfg;
} run_ctx;

static int observe(double t, const double *y, const double *yp,
                   const mbdae_event_record *ev, void *ud) {
  run_ctx *c = ud;
  (void)t; (void)yp;
  if (!ev || !c->cfg->on_collision || ev->ndata != BILLIARD_EV_COUNT) return 0;
  if (ev->action == MBDAE_EVENT_NOCHANGE) return 0;
  return c->cfg->on_collision(ev, y, c->cfg->user_data);
}

int billiard_run(const billiard_params *p, const billiard_run_cfg *cfg,
                 double *y_final, mbdae_stats *stats, mbdae_param_error *err) {
  const mbdae_model_kind *k = &mbdae_model_billiard;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = cfg->method;
  o.rtol = cfg->rtol;
  o.atol = cfg->atol;
  o.t0 = 0.0;
  o.t_end = cfg->t_end;
  o.dt_out = cfg->t_end; /* the collisions are the output */
  o.rk4_step = cfg->rk4_step;
  o.max_steps = 100000000;
  run_ctx ctx = {cfg};
  o.observer = observe;
  o.observer_data = &ctx;
  mbdae_model *m = NULL;
  int st = k->create(p, &o, &m, err);
  if (st != MBDAE_OK) return st;
  double y[BILLIARD_NY], yp[BILLIARD_NY];
  st = k->initial_state(m, o.t0, y, yp);
  if (st == MBDAE_OK)
    st = mbdae_run(k->problem(m), &o, y, yp, stats, cfg->msg, cfg->msg ? cfg->msglen : 0);
  if (y_final) memcpy(y_final, y, sizeof y);
  k->destroy(&m);
  return st;
}
