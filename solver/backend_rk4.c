/* backend_rk4.c - fixed-step classic Runge-Kutta (RK4), the reference
 * integrator the seed documents used, for ODE-form problems.
 *
 * The step grid is never perturbed by output: an output time inside a step
 * is reached by a separate partial step from the last grid point. Roots are
 * detected by a sign change of the (masked) root functions across a step and
 * located by bisection on the length of a partial RK4 step from the step's
 * start, so the event time is as accurate as the RK4 solution itself. After
 * an event the grid restarts at the event time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"
#include "mbdae/status.h"

typedef struct rk4_backend {
  double t;           /* last grid point */
  double *y;          /* state at t */
  double *k1, *k2, *k3, *k4, *tmp, *ytry, *ylo;
  double *glo, *gtry, *ghi, *gmid;
  long steps, rhs_evals, root_evals;
} rk4_backend;

static int rk4_step(mbdae_engine *e, double t, const double *y, double h, double *out) {
  rk4_backend *b = e->backend;
  const mbdae_problem *p = e->p;
  void *ud = p->user_data;
  const int n = e->n;
  int rc = p->rhs(t, y, b->k1, ud);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + 0.5 * h * b->k1[i];
  if (rc == 0) rc = p->rhs(t + 0.5 * h, b->tmp, b->k2, ud);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + 0.5 * h * b->k2[i];
  if (rc == 0) rc = p->rhs(t + 0.5 * h, b->tmp, b->k3, ud);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + h * b->k3[i];
  if (rc == 0) rc = p->rhs(t + h, b->tmp, b->k4, ud);
  b->rhs_evals += 4;
  if (rc != 0) return rc;
  for (int i = 0; i < n; ++i)
    out[i] = y[i] + h / 6.0 * (b->k1[i] + 2.0 * b->k2[i] + 2.0 * b->k3[i] + b->k4[i]);
  for (int i = 0; i < n; ++i)
    if (!isfinite(out[i])) return 1;
  return 0;
}

static int eval_roots(mbdae_engine *e, double t, const double *y, double *g) {
  rk4_backend *b = e->backend;
  b->root_evals++;
  return mbdae_engine_roots(e, t, y, NULL, g);
}

static int crossed(const double *glo, const double *ghi, int nr) {
  for (int i = 0; i < nr; ++i)
    if ((glo[i] < 0 && ghi[i] >= 0) || (glo[i] > 0 && ghi[i] <= 0)) return 1;
  return 0;
}

static int rk4_create(mbdae_engine *e) {
  rk4_backend *b = calloc(1, sizeof *b);
  if (!b) return MBDAE_ERR_MEMORY;
  e->backend = b;
  size_t n = (size_t)e->n, nr = (size_t)(e->p->nroots > 0 ? e->p->nroots : 1);
  double **vecs[] = {&b->y, &b->k1, &b->k2, &b->k3, &b->k4, &b->tmp, &b->ytry, &b->ylo};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i)
    if (!(*vecs[i] = calloc(n, sizeof(double)))) return MBDAE_ERR_MEMORY;
  if (!(b->glo = calloc(nr, sizeof(double))) || !(b->gtry = calloc(nr, sizeof(double))) ||
      !(b->ghi = calloc(nr, sizeof(double))) || !(b->gmid = calloc(nr, sizeof(double))))
    return MBDAE_ERR_MEMORY;
  return e->ops->reinit(e);
}

static int rk4_reinit(mbdae_engine *e) {
  rk4_backend *b = e->backend;
  b->t = e->t;
  memcpy(b->y, e->y, (size_t)e->n * sizeof(double));
  if (e->p->nroots > 0 && eval_roots(e, b->t, b->y, b->glo) != 0)
    return MBDAE_ERR_CALLBACK;
  return MBDAE_OK;
}

/* A sign change lies within a step of length h from the grid point (b->t,
 * b->y): bisect the partial step length; return the state just past it. */
static int locate(mbdae_engine *e, double h) {
  rk4_backend *b = e->backend;
  const int nr = e->p->nroots;
  double lo = 0.0, hi = h;
  memcpy(b->gtry, b->glo, (size_t)nr * sizeof(double)); /* g at lo */
  double tol = 4.0 * 2.220446049250313e-16 * (fabs(b->t) + fabs(h));
  int rc = rk4_step(e, b->t, b->y, hi, b->ytry);
  if (rc == 0) rc = eval_roots(e, b->t + hi, b->ytry, b->ghi);
  for (int it = 0; rc == 0 && it < 200 && hi - lo > tol; ++it) {
    double mid = 0.5 * (lo + hi);
    rc = rk4_step(e, b->t, b->y, mid, b->ylo);
    double *gm = b->gmid;
    if (rc == 0) rc = eval_roots(e, b->t + mid, b->ylo, gm);
    if (rc != 0) break;
    if (crossed(b->gtry, gm, nr)) {
      hi = mid;
      memcpy(b->ytry, b->ylo, (size_t)e->n * sizeof(double));
      memcpy(b->ghi, gm, (size_t)nr * sizeof(double));
    } else {
      lo = mid;
      memcpy(b->gtry, gm, (size_t)nr * sizeof(double));
    }
  }
  if (rc != 0) return rc;
  /* report roots relative to g just before the crossing */
  memcpy(b->glo, b->gtry, (size_t)nr * sizeof(double));
  b->t += hi;
  memcpy(b->y, b->ytry, (size_t)e->n * sizeof(double));
  b->steps++;
  return 0;
}

static int rk4_advance(mbdae_engine *e, double tout, int *root) {
  rk4_backend *b = e->backend;
  const mbdae_options *o = e->o;
  const int nr = e->p->nroots;
  *root = 0;
  long taken = 0;
  while (b->t < tout) {
    double h = o->rk4_step;
    if (taken++ > o->max_steps * 1000) {
      snprintf(e->msg, sizeof e->msg, "RK4: too many steps before t=%.12g", tout);
      return MBDAE_ERR_TOO_MUCH_WORK;
    }
    int partial = 0;
    if (b->t + h >= tout - 1e-9 * h) {
      partial = b->t + h > tout + 1e-9 * h; /* tout inside the step */
      h = tout - b->t;
    }
    int rc = rk4_step(e, b->t, b->y, h, b->ytry);
    if (rc == 0 && nr > 0) rc = eval_roots(e, b->t + h, b->ytry, b->ghi);
    if (rc != 0) {
      snprintf(e->msg, sizeof e->msg,
               "RK4 step failed at t=%.12g (h=%.3g) in mode '%s': %s", b->t, h,
               mbdae_engine_mode(e), rc < 0 ? "callback error" : "non-finite state");
      return rc < 0 ? MBDAE_ERR_CALLBACK : MBDAE_ERR_SOLVER;
    }
    if (nr > 0 && crossed(b->glo, b->ghi, nr)) {
      rc = locate(e, h);
      if (rc != 0) return rc < 0 ? MBDAE_ERR_CALLBACK : MBDAE_ERR_SOLVER;
      e->t = b->t;
      memcpy(e->y, b->y, (size_t)e->n * sizeof(double));
      *root = 1;
      return MBDAE_OK;
    }
    if (partial) { /* output inside a step: leave the grid as it is */
      e->t = tout;
      memcpy(e->y, b->ytry, (size_t)e->n * sizeof(double));
      return MBDAE_OK;
    }
    b->t = (h == tout - b->t) ? tout : b->t + h;
    memcpy(b->y, b->ytry, (size_t)e->n * sizeof(double));
    if (nr > 0) memcpy(b->glo, b->ghi, (size_t)nr * sizeof(double));
    b->steps++;
  }
  e->t = b->t;
  memcpy(e->y, b->y, (size_t)e->n * sizeof(double));
  return MBDAE_OK;
}

/* Directions of the roots that changed sign across the located crossing. */
static int rk4_root_info(mbdae_engine *e, int *dirs) {
  rk4_backend *b = e->backend;
  const int nr = e->p->nroots;
  double *g = b->ghi;
  if (eval_roots(e, b->t, b->y, g) != 0) return MBDAE_ERR_CALLBACK;
  for (int i = 0; i < nr; ++i) {
    dirs[i] = 0;
    if (b->glo[i] < 0 && g[i] >= 0) dirs[i] = 1;
    else if (b->glo[i] > 0 && g[i] <= 0) dirs[i] = -1;
  }
  memcpy(b->glo, g, (size_t)nr * sizeof(double));
  return MBDAE_OK;
}

static void rk4_stats(mbdae_engine *e, mbdae_stats *s) {
  rk4_backend *b = e->backend;
  memset(s, 0, sizeof *s);
  s->steps = b->steps;
  s->rhs_evals = b->rhs_evals;
  s->root_evals = b->root_evals;
  s->last_step = e->o->rk4_step;
}

static void rk4_destroy(mbdae_engine *e) {
  rk4_backend *b = e->backend;
  if (!b) return;
  free(b->y), free(b->k1), free(b->k2), free(b->k3), free(b->k4);
  free(b->tmp), free(b->ytry), free(b->ylo);
  free(b->glo), free(b->gtry), free(b->ghi), free(b->gmid);
  free(b);
  e->backend = NULL;
}

const mbdae_backend_ops mbdae_backend_rk4 = {
  "rk4", rk4_create, rk4_advance, rk4_root_info, rk4_reinit, NULL,
  rk4_stats, rk4_destroy};
