/* backend_rk4.c - fixed-step classic Runge-Kutta (RK4), the reference
 * integrator the seed documents used, for ODE-form problems.
 *
 * The step grid is never perturbed by output: an output time inside a step
 * is reached by a separate partial step from the last grid point. Roots are
 * detected by a sign change of the (masked) root functions across a step and
 * located to round-off on the length of a partial RK4 step from the step's
 * start (regula falsi, Illinois, started from the estimate of RK4's
 * continuous extension), so the event time is as accurate as the RK4
 * solution itself. After an event the grid restarts at the event time. */
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

/* The model's rhs, its output checked for NaN/inf (callback_check.c). */
static int rhs_checked(mbdae_engine *e, double t, const double *y, double *out) {
  return mbdae_engine_check_finite(e, "rhs", "ydot", t, out,
                                   e->p->rhs(t, y, out, e->p->user_data));
}

static int rk4_step(mbdae_engine *e, double t, const double *y, double h, double *out) {
  rk4_backend *b = e->backend;
  const int n = e->n;
  int rc = rhs_checked(e, t, y, b->k1);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + 0.5 * h * b->k1[i];
  if (rc == 0) rc = rhs_checked(e, t + 0.5 * h, b->tmp, b->k2);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + 0.5 * h * b->k2[i];
  if (rc == 0) rc = rhs_checked(e, t + 0.5 * h, b->tmp, b->k3);
  for (int i = 0; rc == 0 && i < n; ++i) b->tmp[i] = y[i] + h * b->k3[i];
  if (rc == 0) rc = rhs_checked(e, t + h, b->tmp, b->k4);
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

/* RK4's continuous extension of the last step (k1..k4 from (t, y) with
 * step h) at t + theta h, order 3 (Hairer, Norsett & Wanner, II.6):
 * b1 = theta - 3/2 theta^2 + 2/3 theta^3, b2 = b3 = theta^2 - 2/3 theta^3,
 * b4 = -1/2 theta^2 + 2/3 theta^3 (b(1) = 1/6, 1/3, 1/3, 1/6). */
static void dense_output(const rk4_backend *b, int n, double h, double theta, double *out) {
  double t2 = theta * theta, t3 = t2 * theta;
  double b1 = h * (theta - 1.5 * t2 + t3 * (2.0 / 3.0));
  double b2 = h * (t2 - t3 * (2.0 / 3.0));
  double b4 = h * (-0.5 * t2 + t3 * (2.0 / 3.0));
  for (int i = 0; i < n; ++i)
    out[i] = b->y[i] + b1 * b->k1[i] + b2 * (b->k2[i] + b->k3[i]) + b4 * b->k4[i];
}

/* Estimate of the crossing from the continuous extension of the last step
 * (which must be the full step of length h from (b->t, b->y)): bisection
 * on theta, root functions only. Returns the step length just past the
 * first crossing of the extension, or h if it shows none. */
static int dense_guess(mbdae_engine *e, double h, double *guess) {
  rk4_backend *b = e->backend;
  const int nr = e->p->nroots;
  double lo = 0.0, hi = 1.0, tol = 1e-14;
  memcpy(b->gtry, b->glo, (size_t)nr * sizeof(double)); /* g at lo */
  for (int it = 0; it < 60 && hi - lo > tol; ++it) {
    double mid = 0.5 * (lo + hi);
    dense_output(b, e->n, h, mid, b->ylo);
    int rc = eval_roots(e, b->t + mid * h, b->ylo, b->gmid);
    if (rc != 0) return rc;
    if (crossed(b->gtry, b->gmid, nr)) hi = mid;
    else {
      lo = mid;
      memcpy(b->gtry, b->gmid, (size_t)nr * sizeof(double));
    }
  }
  *guess = hi * h;
  return 0;
}

/* A sign change lies within a step of length h from the grid point (b->t,
 * b->y), the full step's state and roots in ytry and ghi: find the first
 * crossing of the partial-RK4-step map s -> g(y(t + s)) to round-off and
 * leave the state just past it. The first trial is the continuous
 * extension's estimate (off by O(h^4)); then the Illinois variant of
 * regula falsi on the earliest crossing (as SUNDIALS' root finders do):
 * a few partial steps instead of the ~50 of bisection. */
static int locate(mbdae_engine *e, double h) {
  rk4_backend *b = e->backend;
  const int nr = e->p->nroots;
  double guess = h;
  int rc = dense_guess(e, h, &guess);
  if (rc != 0) return rc;
  double lo = 0.0, hi = h, slo = 1.0, shi = 1.0;
  int side = 0; /* +1: hi moved last, -1: lo moved last */
  memcpy(b->gtry, b->glo, (size_t)nr * sizeof(double)); /* g at lo */
  double tol = 4.0 * 2.220446049250313e-16 * (fabs(b->t) + fabs(h));
  for (int it = 0; it < 200 && hi - lo > tol; ++it) {
    double mid = hi;
    if (it == 0 && guess > lo && guess < hi) {
      mid = guess;
    } else {
      for (int i = 0; i < nr; ++i) {
        double a = slo * b->gtry[i], c = shi * b->ghi[i];
        if (!((b->gtry[i] < 0 && b->ghi[i] >= 0) || (b->gtry[i] > 0 && b->ghi[i] <= 0)))
          continue;
        double ti = lo + (hi - lo) * a / (a - c);
        if (ti < mid) mid = ti;
      }
    }
    if (mid < lo + 0.5 * tol) mid = lo + 0.5 * tol;
    if (mid > hi - 0.5 * tol) mid = hi - 0.5 * tol;
    rc = rk4_step(e, b->t, b->y, mid, b->ylo);
    if (rc == 0) rc = eval_roots(e, b->t + mid, b->ylo, b->gmid);
    if (rc != 0) return rc;
    if (crossed(b->gtry, b->gmid, nr)) {
      hi = mid;
      memcpy(b->ytry, b->ylo, (size_t)e->n * sizeof(double));
      memcpy(b->ghi, b->gmid, (size_t)nr * sizeof(double));
      slo = side == 1 ? 0.5 * slo : 1.0; /* lo kept twice: Illinois */
      shi = 1.0;
      side = 1;
    } else {
      lo = mid;
      memcpy(b->gtry, b->gmid, (size_t)nr * sizeof(double));
      shi = side == -1 ? 0.5 * shi : 1.0;
      slo = 1.0;
      side = -1;
    }
  }
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
  e->nonfinite[0] = '\0';
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
      return rc < 0 ? MBDAE_ERR_CALLBACK : mbdae_engine_nonfinite_failure(e, MBDAE_ERR_SOLVER);
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
