/* validation/rover_sim.c - rover runs sampled on a grid for validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "rover_sim.h"

typedef struct sim_ctx {
  rover_model *m;
  rover_sim *sim;
} sim_ctx;

static int sample(const rover_model *m, double t, const double *y,
                  const double *yp, double *q) {
  rover_state s;
  double acc[4], Ct[9], C_ps[9], A[45], u[9];
  if (m->form == MBDAE_FORM_ODE) {
    rover_state_from_ode(&m->p, y, &s);
    if (rover_reduced_accel(&m->p, &m->mp, t, &s, acc, s.lambda) != 0) return -1;
  } else {
    rover_state_from_dae(y, yp, &s);
  }
  rover_mat_t(s.C_si, Ct);
  rover_matmul(s.C_pi, Ct, C_ps);
  for (int i = 0; i < 3; ++i) q[RS_W0 + i] = s.w_s[i];
  q[RS_PHID] = s.phidot;
  q[RS_VX] = s.v[0];
  q[RS_VY] = s.v[1];
  q[RS_X] = s.pos[0];
  q[RS_Y] = s.pos[1];
  if (m->form == MBDAE_FORM_ODE) {
    q[RS_CPHI] = cos(y[ROVER_O_PHI]);
    q[RS_SPHI] = sin(y[ROVER_O_PHI]);
  } else {
    double phi = atan2(C_ps[6] - C_ps[2], C_ps[0] + C_ps[8]);
    q[RS_CPHI] = cos(phi);
    q[RS_SPHI] = sin(phi);
  }
  q[RS_SBETA] = s.C_si[5];
  q[RS_THP] = atan2(s.C_pi[6], s.C_pi[8]);
  q[RS_V] = rover_lyapunov(&m->p, &m->mp, &s);
  q[RS_EDISS] = s.e_diss;
  q[RS_WWIND] = s.w_wind;
  q[RS_EGEN] = s.e_gen;
  rover_constraints(&m->p, &s, A);
  for (int i = 0; i < 3; ++i) { u[i] = s.v[i]; u[3 + i] = s.w_s[i]; u[6 + i] = s.w_p[i]; }
  double slip = 0;
  for (int i = 0; i < 3; ++i) {
    double sum = 0;
    for (int j = 0; j < 9; ++j) sum += A[i * 9 + j] * u[j];
    slip += sum * sum;
  }
  q[RS_SLIP] = sqrt(slip);
  q[RS_FCX] = s.lambda[0];
  q[RS_FCY] = s.lambda[1];
  q[RS_FCZ] = s.lambda[2];
  q[RS_HDRIFT] = sqrt(C_ps[1] * C_ps[1] + C_ps[3] * C_ps[3] + C_ps[5] * C_ps[5] +
                      C_ps[7] * C_ps[7]);
  return 0;
}

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *ud) {
  sim_ctx *c = ud;
  rover_sim *s = c->sim;
  if (ev) return 0;
  if (s->n > 0 && fabs(t - s->t[s->n - 1]) < 1e-12) return 0; /* final repeat */
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 1024;
    double *nt = realloc(s->t, (size_t)cap * sizeof(double));
    if (!nt) return -1;
    s->t = nt;
    double *nq = realloc(s->q, (size_t)cap * RS_NQ * sizeof(double));
    if (!nq) return -1;
    s->q = nq;
    s->cap = cap;
  }
  s->t[s->n] = t;
  if (sample(c->m, t, y, yp, s->q + (size_t)s->n * RS_NQ) != 0) return -1;
  s->n++;
  return 0;
}

int rover_sim_run(const rover_params *p, mbdae_method method, double t0,
                  double t_end, double dt_out, double rtol, double atol,
                  double rk4_step, rover_sim *sim) {
  mbdae_form form = method == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  rover_model *m = NULL;
  memset(sim, 0, sizeof *sim);
  int rc = rover_create(p, form, &m);
  if (rc) { sim->status = rc; return rc; }
  double y[ROVER_N_DAE], yp[ROVER_N_DAE];
  if (form == MBDAE_FORM_DAE) {
    if (rover_initial_dae(p, &m->mp, t0, y, yp) != 0) { rover_free(&m); return sim->status = MBDAE_ERR_INCONSISTENT; }
  } else {
    rover_initial_ode(p, y);
  }
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.t0 = t0;
  o.t_end = t_end;
  o.dt_out = dt_out;
  o.rtol = rtol;
  o.atol = atol;
  o.rk4_step = rk4_step;
  o.max_steps = 1000000;
  sim_ctx ctx = {m, sim};
  o.observer = observer;
  o.observer_data = &ctx;
  rc = mbdae_run(m->problem, &o, y, form == MBDAE_FORM_DAE ? yp : NULL,
                 &sim->stats, sim->msg, sizeof sim->msg);
  sim->status = rc;
  rover_free(&m);
  return rc;
}

void rover_sim_free(rover_sim *sim) {
  if (!sim) return;
  free(sim->t);
  free(sim->q);
  memset(sim, 0, sizeof *sim);
}

static void scales(const rover_sim *a, double sc[RS_NCMP]) {
  for (int k = 0; k < RS_NCMP; ++k) {
    sc[k] = 1.0;
    for (int i = 0; i < a->n; ++i) {
      double v = fabs(a->q[(size_t)i * RS_NQ + k]);
      if (v > sc[k]) sc[k] = v;
    }
  }
}

double rover_sim_compare(const rover_sim *a, const rover_sim *b, double t_max,
                         int *worst_q) {
  double sc[RS_NCMP], worst = 0;
  int n = a->n < b->n ? a->n : b->n, wq = -1;
  scales(a, sc);
  for (int i = 0; i < n; ++i) {
    if (a->t[i] > t_max + 1e-9) break;
    for (int k = 0; k < RS_NCMP; ++k) {
      double d = fabs(a->q[(size_t)i * RS_NQ + k] - b->q[(size_t)i * RS_NQ + k]) / sc[k];
      if (d > worst) { worst = d; wq = k; }
    }
  }
  if (worst_q) *worst_q = wq;
  return worst;
}

double rover_sim_parting_time(const rover_sim *a, const rover_sim *b, double tol) {
  double sc[RS_NCMP];
  int n = a->n < b->n ? a->n : b->n;
  scales(a, sc);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < RS_NCMP; ++k) {
      double d = fabs(a->q[(size_t)i * RS_NQ + k] - b->q[(size_t)i * RS_NQ + k]) / sc[k];
      if (d > tol) return a->t[i];
    }
  return n > 0 ? a->t[n - 1] + 1 : 0;
}
