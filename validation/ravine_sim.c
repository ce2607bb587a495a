/* ravine_sim.c - run the ravine model kind without the driver, logging
 * every event (label, modes, energy before/after, impact data, state). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ravine_sim.h"

void ravine_sim_default_params(ravine_params *p) {
  memset(p, 0, sizeof *p);
  p->b = 1.0; p->m = 1.0; p->J_ratio = 0.4; p->e = 0.92; p->mu = 1.0; p->mu_k = 0.8;
  p->g = 3.71;
  p->terrain = 0; p->beta_deg = 30.0; p->theta_deg = 30.0; p->dh = -10.0; p->pl = 30.0;
  p->start = 0; p->x0 = 0.0; p->speed = 5.0;
  p->stop_on_rebound = 1; p->v_rest = 1e-2;
}

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *ud) {
  (void)yp;
  ravine_sim *s = ud;
  if (!ev || s->nevents >= RAVINE_SIM_MAX_EVENTS) return 0;
  ravine_sim_event *e = &s->ev[s->nevents++];
  e->t = t;
  snprintf(e->label, sizeof e->label, "%s", ev->label ? ev->label : "");
  snprintf(e->mode_before, sizeof e->mode_before, "%s", ev->mode_before ? ev->mode_before : "");
  snprintf(e->mode_after, sizeof e->mode_after, "%s", ev->mode_after ? ev->mode_after : "");
  e->E_before = ev->ninv > 0 ? ev->inv_before[0] : NAN;
  e->E_after = ev->ninv > 0 ? ev->inv_after[0] : NAN;
  e->ndata = ev->ndata;
  for (int i = 0; i < ev->ndata && i < MBDAE_EVENT_DATA_MAX; ++i) e->data[i] = ev->data[i];
  for (int i = 0; i < 9; ++i) e->y[i] = y[i];
  return 0;
}

int ravine_sim_run(const ravine_params *p, mbdae_method method, double t_end,
                   double rk4_step, ravine_sim *out) {
  memset(out, 0, sizeof *out);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.t_end = t_end;
  o.dt_out = t_end;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.rk4_step = rk4_step;
  o.max_steps = 1000000;
  o.window_events = 1000;
  o.window_length = 1e-9;
  o.observer = observer;
  o.observer_data = out;
  mbdae_model *m = NULL;
  mbdae_param_error err = {0};
  int rc = mbdae_model_ravine.create(p, &o, &m, &err);
  if (rc) return rc;
  rc = mbdae_model_ravine.initial_state(m, 0.0, out->y, NULL);
  if (rc == MBDAE_OK) {
    char msg[256];
    out->status = mbdae_run(mbdae_model_ravine.problem(m), &o, out->y, NULL,
                            &out->stats, msg, sizeof msg);
    out->noutcomes = mbdae_model_ravine.outcomes(m, out->y, NULL, out->out, 16);
    rc = out->status < 0 ? out->status : MBDAE_OK;
  }
  mbdae_model_ravine.destroy(&m);
  return rc;
}

double ravine_sim_outcome(const ravine_sim *s, const char *name) {
  for (int i = 0; i < s->noutcomes; ++i)
    if (strcmp(s->out[i].name, name) == 0) return s->out[i].value;
  return NAN;
}
