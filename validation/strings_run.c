/* strings_run.c - run the string_net kind and log events, probes and the
 * deviation from a closed-form bola (see strings_run.h). */
#include "strings_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const mbdae_model_kind mbdae_model_string_net;

void strings_params_default(snm_params *p) {
  memset(p, 0, sizeof *p);
  const mbdae_model_kind *k = &mbdae_model_string_net;
  for (int a = 0; a < k->nparams; ++a) {
    const mbdae_param_spec *s = &k->params[a];
    char *base = (char *)p + s->offset;
    switch (s->type) {
    case MBDAE_PARAM_DOUBLE: *(double *)base = s->def; break;
    case MBDAE_PARAM_INT:
    case MBDAE_PARAM_BOOL:
    case MBDAE_PARAM_ENUM: *(int *)base = (int)s->def; break;
    case MBDAE_PARAM_VEC:
      for (int c = 0; c < s->len; ++c) ((double *)base)[c] = s->def;
      break;
    default: break;
    }
  }
}

void strings_seed_bola(snm_params *p) {
  strings_params_default(p);
  p->topology = SNM_BOLA;
  p->m1 = p->m2 = 1.0;
  p->length = 1.0;
  p->r1[2] = 0.5; /* upper point */
  p->v1[0] = 10.0;
  p->v2[0] = 11.5; /* the lower point 15% faster */
  p->gravity[2] = -9.81;
  p->e = 0.15;
}

void strings_seed_bola_exact(bola_exact *b, const snm_params *p) {
  memset(b, 0, sizeof *b);
  b->m1 = p->m1;
  b->m2 = p->m2;
  b->L = p->length;
  b->e = p->e;
  for (int c = 0; c < 3; ++c) {
    b->g[c] = p->gravity[c];
    b->r1[c] = p->r1[c];
    b->r2[c] = p->r2[c];
    b->v1[c] = p->v1[c];
    b->v2[c] = p->v2[c];
  }
}

static double norm_diff(const double *a, const double *b, int n, double *nb) {
  double s = 0.0, r = 0.0;
  for (int i = 0; i < n; ++i) {
    s += (a[i] - b[i]) * (a[i] - b[i]);
    r += b[i] * b[i];
  }
  *nb = sqrt(r);
  return sqrt(s);
}

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *ud) {
  (void)yp;
  strings_log *L = ud;
  if (ev) {
    if (L->nev < STRINGS_LOG_EVENTS) {
      int i = L->nev;
      L->t_ev[i] = t;
      const char *lb = ev->label ? ev->label : "";
      L->kind_ev[i] = strcmp(lb, "impact") == 0           ? 1
                      : strcmp(lb, "impact-plastic") == 0 ? 2
                      : strcmp(lb, "release") == 0        ? 3
                      : strcmp(lb, "activate") == 0       ? 4
                                                          : 0;
      for (int a = 0; a < 6; ++a) L->data_ev[i][a] = a < ev->ndata ? ev->data[a] : 0.0;
      for (int a = 0; a < 12; ++a) L->y_ev[i][a] = y[a];
      L->E_before[i] = ev->ninv > 0 ? ev->inv_before[0] : 0.0;
      L->E_after[i] = ev->ninv > 0 ? ev->inv_after[0] : 0.0;
    }
    L->nev++;
    return 0;
  }
  L->nsamples++;
  for (int s = 0; L->net && s < L->net->ns; ++s) {
    if (!L->net->taut[s]) continue;
    const double *R = y + L->net->off_r, *V = y + L->net->off_v;
    double len = L->net->s[s].L, sw = 0.0, ww = 0.0;
    int i = L->net->s[s].i, j = L->net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      double w = V[3 * j + c] - V[3 * i + c];
      sw += (R[3 * j + c] - R[3 * i + c]) * w;
      ww += w * w;
    }
    L->max_taut_phi = fmax(L->max_taut_phi, fabs(sn_phi(L->net, s, R)) / (len * len));
    if (ww > 0.0) L->max_taut_sw = fmax(L->max_taut_sw, fabs(sw) / (len * sqrt(ww)));
  }
  for (int q = 0; q < L->nprobe; ++q)
    if (fabs(t - L->probe_t[q]) < 1e-9) {
      L->probe_hit[q] = 1;
      for (int a = 0; a < 12; ++a) L->probe_y[q][a] = y[a];
    }
  if (L->ref) {
    /* samples written at an event time carry the pre-event state: skip the
     * velocity discontinuities of the reference there */
    for (int k = 0; k < L->ref->nimp; ++k)
      if (fabs(t - L->ref->t_imp[k]) < 1e-9 * (1.0 + fabs(t))) return 0;
    double x[6], v[6], nb;
    bola_exact_state(L->ref, t, x, v);
    for (int k = 0; k < 2; ++k) {
      double dp = norm_diff(y + 3 * k, x + 3 * k, 3, &nb) / L->ref->L;
      if (dp > L->max_dev_pos) {
        L->max_dev_pos = dp;
        L->t_max_dev_pos = t;
      }
    }
    double dx = norm_diff(y, x, 6, &nb);
    if (nb > 0 && dx / nb > L->max_dev_rel) L->max_dev_rel = dx / nb;
    double dv = norm_diff(y + 6, v, 6, &nb);
    if (nb > 0 && dv / nb > L->max_dev_vel) L->max_dev_vel = dv / nb;
  }
  return 0;
}

int strings_run(const snm_params *p, mbdae_options *o, strings_log *log,
                mbdae_stats *stats, char *msg, size_t msglen) {
  const mbdae_model_kind *kind = &mbdae_model_string_net;
  mbdae_model *model = NULL;
  mbdae_param_error err;
  int rc = kind->create(p, o, &model, &err);
  if (rc) return rc;
  mbdae_problem *pr = kind->problem(model);
  int n = mbdae_problem_size(pr);
  double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
  if (!y || !yp) {
    free(y);
    free(yp);
    kind->destroy(&model);
    return MBDAE_ERR_MEMORY;
  }
  o->observer = observer;
  o->observer_data = log;
  log->net = ((snm_model *)model)->net;
  rc = kind->initial_state(model, o->t0, y, yp);
  if (!rc) {
    mbdae_stats st;
    char m[512] = "";
    rc = mbdae_run(pr, o, y, yp, stats ? stats : &st, msg ? msg : m, msg ? msglen : sizeof m);
  }
  free(y);
  free(yp);
  kind->destroy(&model);
  log->net = NULL; /* freed with the model */
  return rc;
}
