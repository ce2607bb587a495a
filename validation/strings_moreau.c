/* strings_moreau.c - string nets under method moreau with per-step metrics
 * (strings_moreau.h). */
#define _POSIX_C_SOURCE 200809L
#include "strings_moreau.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double dist(const double *R, int i, int j) {
  double s = 0.0;
  for (int c = 0; c < 3; ++c) {
    double d = R[3 * j + c] - R[3 * i + c];
    s += d * d;
  }
  return sqrt(s);
}

/* Linear and angular (about the origin) momentum. */
static void momenta(const sn_net *net, const double *y, double p[3], double H[3]) {
  const double *R = y + net->off_r, *V = y + net->off_v;
  for (int c = 0; c < 3; ++c) p[c] = H[c] = 0.0;
  for (int k = 0; k < net->np; ++k) {
    const double *r = R + 3 * k, *v = V + 3 * k, m = net->m[k];
    for (int c = 0; c < 3; ++c) p[c] += m * v[c];
    H[0] += m * (r[1] * v[2] - r[2] * v[1]);
    H[1] += m * (r[2] * v[0] - r[0] * v[2]);
    H[2] += m * (r[0] * v[1] - r[1] * v[0]);
  }
}

static double norm3_diff(const double *a, const double *b) {
  double s = 0.0;
  for (int c = 0; c < 3; ++c) s += (a[c] - b[c]) * (a[c] - b[c]);
  return sqrt(s);
}

static int step_metrics(const mbdae_step_record *r, void *ud) {
  moreau_metrics *mm = ud;
  const sn_net *net = mm->model->net;
  mm->steps++;
  if (r->index_set > 0) mm->lcp_steps++;
  if (r->index_set > mm->index_max) mm->index_max = r->index_set;
  if (r->positive > 0) {
    if (mm->t_first_impulse < 0.0) mm->t_first_impulse = r->t;
    if (mm->run_free >= 3 || mm->t_taut < 0.0) mm->t_taut = r->t;
    mm->run_free = 0;
  } else {
    mm->run_free++;
  }
  const double E = r->kinetic + r->potential;
  if (E - mm->E_prev > mm->max_rise) mm->max_rise = E - mm->E_prev;
  mm->E_prev = E;
  if (mm->E_probe != mm->E_probe && r->t >= mm->probe_t - 0.5 * r->h) mm->E_probe = E;
  mm->E_end = E;
  mm->K_end = r->kinetic;
  mm->active_end = r->index_set;
  const double *R = r->y + net->off_r;
  const int in_window = r->t >= mm->window0 && r->t <= mm->window1;
  int taut = 0;
  for (int s = 0; s < net->ns; ++s) {
    double d = dist(R, net->s[s].i, net->s[s].j), L = net->s[s].L;
    if (d - L > mm->max_excess) mm->max_excess = d - L;
    if (in_window && fabs(d - L) > mm->max_stretch_window) mm->max_stretch_window = fabs(d - L);
    taut += L - d < 1e-3 * L;
  }
  mm->taut_end = taut;
  double p[3], H[3];
  momenta(net, r->y, p, H);
  mm->max_momentum_err = fmax(mm->max_momentum_err, norm3_diff(p, mm->p0));
  mm->max_angmom_err = fmax(mm->max_angmom_err, norm3_diff(H, mm->h0));
  if (net->np == 2) {
    const double *V = r->y + net->off_v;
    double d[3], w[3], x[3];
    for (int c = 0; c < 3; ++c) {
      d[c] = R[3 + c] - R[c];
      w[c] = V[3 + c] - V[c];
    }
    x[0] = d[1] * w[2] - d[2] * w[1];
    x[1] = d[2] * w[0] - d[0] * w[2];
    x[2] = d[0] * w[1] - d[1] * w[0];
    double dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    mm->omega_end = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / dd;
  }
  return mm->hook ? mm->hook(r, mm->model, mm->hook_data) : 0;
}

typedef struct step_clock {
  long steps;
  double cpu_first;
} step_clock;

/* The timing run's observer: one clock read at the first step, a count. */
static int step_count(const mbdae_step_record *r, void *ud) {
  (void)r;
  step_clock *c = ud;
  if (c->steps++ == 0) c->cpu_first = cpu_now();
  return 0;
}

/* CPU of the stepping loop of a run of p under o without metrics. */
static double loop_cpu(const snm_params *p, mbdae_options *o) {
  snm_model *m = NULL;
  mbdae_param_error pe;
  if (snm_create(p, o, &m, &pe)) return NAN;
  double *y = calloc((size_t)m->net->n, sizeof *y);
  step_clock c = {0, 0.0};
  double cpu = NAN;
  if (y && !snm_initial_state(m, o->t0, y, NULL)) {
    o->step_observer = step_count;
    o->step_data = &c;
    int rc = mbdae_run(m->problem, o, y, NULL, NULL, NULL, 0);
    double c1 = cpu_now();
    if (rc == MBDAE_OK && c.steps > 1)
      cpu = (c1 - c.cpu_first) * (double)c.steps / (double)(c.steps - 1);
  }
  o->step_observer = NULL;
  o->step_data = NULL;
  free(y);
  snm_free(&m);
  return cpu;
}

int strings_moreau_run(const snm_params *p, mbdae_options *o, moreau_metrics *mm,
                       char *msg, size_t msglen) {
  o->method = MBDAE_METHOD_MOREAU;
  snm_model *m = NULL;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  int rc = snm_create(p, o, &m, &pe);
  if (rc) {
    snprintf(msg, msglen, "cannot build the net: %s: %s", pe.key ? pe.key : "-", pe.msg);
    return rc;
  }
  const sn_net *net = m->net;
  double *y = calloc((size_t)net->n, sizeof *y);
  if (!y) {
    snm_free(&m);
    return MBDAE_ERR_MEMORY;
  }
  rc = snm_initial_state(m, o->t0, y, NULL);
  const double w0 = mm->window0, w1 = mm->window1, pt = mm->probe_t;
  int (*hook)(const mbdae_step_record *, const snm_model *, void *) = mm->hook;
  void *hook_data = mm->hook_data;
  const int timing = mm->timing;
  memset(mm, 0, sizeof *mm);
  mm->timing = timing;
  mm->window0 = w0;
  mm->window1 = w1;
  mm->probe_t = pt;
  mm->hook = hook;
  mm->hook_data = hook_data;
  mm->model = m;
  mm->t_first_impulse = mm->t_taut = -1.0;
  mm->E_probe = NAN;
  mm->E0 = mm->E_prev = snm_energy(m, y);
  momenta(net, y, mm->p0, mm->h0);
  o->step_observer = step_metrics;
  o->step_data = mm;
  if (!rc) {
    double c0 = cpu_now();
    rc = mbdae_run(m->problem, o, y, NULL, &mm->stats, msg, msglen);
    mm->cpu_run = cpu_now() - c0;
  }
  /* the loop's CPU from a second run with a counting observer only (the
   * clock read at the first step and after the return; one mean step added
   * for the first) */
  if (rc == MBDAE_OK && mm->timing) {
    mm->cpu_loop = loop_cpu(p, o);
  } else {
    mm->cpu_loop = NAN;
  }
  mm->model = NULL;
  o->step_observer = NULL;
  o->step_data = NULL;
  free(y);
  snm_free(&m);
  return rc;
}

int strings_siconos_net(snm_params *p, int n, double e) {
  const double L = 0.1;
  const int np = n * n, ns = 2 * n * (n - 1);
  p->topology = SNM_TABLE;
  p->e = e;
  p->length = L;
  for (int c = 0; c < 3; ++c) p->gravity[c] = 0.0;
  p->points = malloc((size_t)np * 7 * sizeof(double));
  p->strings = malloc((size_t)(ns > 0 ? ns : 1) * 3 * sizeof(double));
  if (!p->points || !p->strings) {
    strings_table_free(p);
    return MBDAE_ERR_MEMORY;
  }
  p->npoints = np;
  p->nstrings = ns;
  double rmax = 0.0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      double x = (a - 0.5 * (n - 1)) * 0.5 * L, yy = (b - 0.5 * (n - 1)) * 0.5 * L;
      rmax = fmax(rmax, hypot(x, yy));
    }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      int k = a * n + b;
      double *row = p->points + 7 * k;
      double x = (a - 0.5 * (n - 1)) * 0.5 * L, yy = (b - 0.5 * (n - 1)) * 0.5 * L;
      int corner = (a == 0 || a == n - 1) && (b == 0 || b == n - 1);
      row[0] = corner ? 0.05 : 0.01;
      row[1] = x;
      row[2] = yy;
      row[3] = 0.0;
      row[4] = 2.0 * x / rmax;
      row[5] = 2.0 * yy / rmax;
      row[6] = 1.0;
    }
  /* edges in the peer's order: (a, b)-(a+1, b) first, then (a, b)-(a, b+1) */
  int s = 0;
  for (int a = 0; a + 1 < n; ++a)
    for (int b = 0; b < n; ++b, ++s) {
      p->strings[3 * s] = a * n + b;
      p->strings[3 * s + 1] = (a + 1) * n + b;
      p->strings[3 * s + 2] = L;
    }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b + 1 < n; ++b, ++s) {
      p->strings[3 * s] = a * n + b;
      p->strings[3 * s + 1] = a * n + b + 1;
      p->strings[3 * s + 2] = L;
    }
  return 0;
}

void strings_table_free(snm_params *p) {
  free(p->points);
  free(p->strings);
  p->points = p->strings = NULL;
  p->npoints = p->nstrings = 0;
}

double strings_siconos_net_end_energy(int n, double e, double E0) {
  const double M = 0.01 * (n * n - 4) + 0.2;
  return 0.5 * M + e * e * (E0 - 0.5 * M);
}
