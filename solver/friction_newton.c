/* friction_newton.c - semismooth Newton on the Alart-Curnier function for
 * the one-step problem with Coulomb friction (friction_newton.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "friction_newton.h"

/* The regularisation of every row (nonsmooth.c's: u~ = u + eps D P). */
#define FCN_EPS 1e-12
/* The proximal term (fcn_settings.prox, relative to D): the iterations solve
 * F(u + eps_p D (P - Pc), P) = 0 and move the centre Pc to P when that
 * is solved well enough, so that redundant rows (a taut string between two
 * sticking points) do not make the Newton matrix nearly singular; at the end
 * P = Pc and the problem solved is the original. At most fcn_settings.inner
 * Newton iterations on one proximal problem, and its reduction of the
 * residual before the centre moves. */
#define FCN_INNER_REDUCTION 0.25
/* Backtracking: sufficient decrease of |F|^2 and the halvings tried. */
#define FCN_ARMIJO 1e-4
#define FCN_BACKTRACKS 30

typedef struct fcn_work {
  int N;                 /* nv + n */
  int *jp, *ji;          /* the Newton matrix by rows (given to KLU as its transpose) */
  double *jx;
  int *htp, *hta, *htk;  /* H^T: for velocity i, the rows a and entries k of H */
  int *rstart, *ucount;  /* per row of the set: its first entry in J, the block's velocity columns */
  int *hpos;             /* per entry k of H: its position among its block's velocity columns */
  int *bstart;           /* per row of the set: the first row of its block */
  double *u, *F, *rhs, *Pt, *vt, *Ft, *ut, *Pc;
  double prox;           /* the proximal coefficient of the current centre */
  int *mark;
} fcn_work;

static void work_free(fcn_work *w) {
  free(w->jp), free(w->ji), free(w->jx), free(w->htp), free(w->hta), free(w->htk);
  free(w->rstart), free(w->ucount), free(w->hpos), free(w->bstart), free(w->u), free(w->F);
  free(w->rhs), free(w->Pt), free(w->vt), free(w->Ft), free(w->ut), free(w->mark), free(w->Pc);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int block_size(const fcn_problem *pb, int a) { return pb->kind[a] == FCN_NORMAL ? 3 : 1; }

/* The pattern of the Newton matrix, by rows: W's row i and -H^T's row i for
 * velocity i; for a row of the set, its block's velocity columns (the union
 * of the block's rows of H, sorted) and its block's impulses. */
static int build_pattern(const fcn_problem *pb, fcn_work *w) {
  const int nv = pb->nv, n = pb->n, hnz = pb->hp[n];
  w->N = nv + n;
  w->htp = calloc((size_t)nv + 1, sizeof *w->htp);
  w->hta = malloc((size_t)(hnz > 0 ? hnz : 1) * sizeof *w->hta);
  w->htk = malloc((size_t)(hnz > 0 ? hnz : 1) * sizeof *w->htk);
  w->rstart = malloc((size_t)(n + 1) * sizeof *w->rstart);
  w->ucount = malloc((size_t)(n + 1) * sizeof *w->ucount);
  w->bstart = malloc((size_t)(n + 1) * sizeof *w->bstart);
  w->hpos = malloc((size_t)(hnz > 0 ? hnz : 1) * sizeof *w->hpos);
  w->mark = malloc((size_t)nv * sizeof *w->mark);
  w->jp = malloc((size_t)(w->N + 1) * sizeof *w->jp);
  if (!w->htp || !w->hta || !w->htk || !w->rstart || !w->ucount || !w->bstart || !w->hpos ||
      !w->mark || !w->jp)
    return -3;
  for (int k = 0; k < hnz; ++k) w->htp[pb->hi[k] + 1]++;
  for (int i = 0; i < nv; ++i) w->htp[i + 1] += w->htp[i];
  {
    int *next = w->mark;
    memcpy(next, w->htp, (size_t)nv * sizeof *next);
    for (int a = 0; a < n; ++a)
      for (int k = pb->hp[a]; k < pb->hp[a + 1]; ++k) {
        int q = next[pb->hi[k]]++;
        w->hta[q] = a;
        w->htk[q] = k;
      }
  }
  for (int i = 0; i < nv; ++i) w->mark[i] = -1;
  /* velocity columns of each block (counted first) */
  size_t nnz = 0;
  for (int i = 0; i < nv; ++i)
    nnz += (size_t)(pb->wp[i + 1] - pb->wp[i]) + (size_t)(w->htp[i + 1] - w->htp[i]);
  for (int a = 0; a < n;) {
    const int bs = block_size(pb, a);
    int cnt = 0;
    for (int c = 0; c < bs; ++c)
      for (int k = pb->hp[a + c]; k < pb->hp[a + c + 1]; ++k)
        if (w->mark[pb->hi[k]] != a) {
          w->mark[pb->hi[k]] = a;
          cnt++;
        }
    for (int c = 0; c < bs; ++c) {
      w->ucount[a + c] = cnt;
      w->bstart[a + c] = a;
      nnz += (size_t)(cnt + bs);
    }
    a += bs;
  }
  if (nnz > (size_t)0x7fffffff) return -3;
  w->ji = malloc((nnz > 0 ? nnz : 1) * sizeof *w->ji);
  w->jx = malloc((nnz > 0 ? nnz : 1) * sizeof *w->jx);
  if (!w->ji || !w->jx) return -3;
  int q = 0;
  for (int i = 0; i < nv; ++i) {
    w->jp[i] = q;
    for (int k = pb->wp[i]; k < pb->wp[i + 1]; ++k) w->ji[q++] = pb->wi[k];
    /* W's column i is its row i (symmetric); sorted so that AMD sees no jumble */
    qsort(w->ji + w->jp[i], (size_t)(q - w->jp[i]), sizeof *w->ji, cmp_int);
    for (int t = w->htp[i]; t < w->htp[i + 1]; ++t) w->ji[q++] = nv + w->hta[t];
  }
  for (int i = 0; i < nv; ++i) w->mark[i] = -1;
  for (int a = 0; a < n;) {
    const int bs = block_size(pb, a), row0 = nv + a;
    /* the block's first row holds the sorted union; the others copy it */
    int s = q, cnt = 0;
    for (int c = 0; c < bs; ++c)
      for (int k = pb->hp[a + c]; k < pb->hp[a + c + 1]; ++k)
        if (w->mark[pb->hi[k]] != a) {
          w->mark[pb->hi[k]] = a;
          w->ji[s + cnt++] = pb->hi[k];
        }
    qsort(w->ji + s, (size_t)cnt, sizeof *w->ji, cmp_int);
    for (int t = 0; t < cnt; ++t) w->mark[w->ji[s + t]] = t; /* position in the union */
    for (int c = 0; c < bs; ++c)
      for (int k = pb->hp[a + c]; k < pb->hp[a + c + 1]; ++k) w->hpos[k] = w->mark[pb->hi[k]];
    for (int t = 0; t < cnt; ++t) w->mark[w->ji[s + t]] = -2 - a; /* not a valid block id */
    for (int c = 0; c < bs; ++c) {
      w->jp[row0 + c] = q;
      w->rstart[a + c] = q;
      if (c > 0) memcpy(w->ji + q, w->ji + s, (size_t)cnt * sizeof *w->ji);
      q += cnt;
      for (int e = 0; e < bs; ++e) w->ji[q++] = nv + a + e;
    }
    a += bs;
  }
  w->jp[w->N] = q;
  return 0;
}

/* u = H v + b (unregularised). */
static void row_velocities(const fcn_problem *pb, const double *v, double *u) {
  for (int a = 0; a < pb->n; ++a) {
    double s = pb->b[a];
    for (int k = pb->hp[a]; k < pb->hp[a + 1]; ++k) s += pb->hx[k] * v[pb->hi[k]];
    u[a] = s;
  }
}

static void disk(double rad, double *x, double *y) {
  double n = hypot(*x, *y);
  if (n > rad) {
    double f = n > 0.0 ? rad / n : 0.0;
    *x *= f;
    *y *= f;
  }
}

/* The natural map's residual (friction.c's residual()), from u = H v + b. */
static double natural_residual(const fcn_problem *pb, const double *u, const double *P) {
  double res = 0.0;
  for (int a = 0; a < pb->n; ++a) {
    const int kd = pb->kind[a];
    if (kd == FCN_TANGENT) continue;
    double r = kd == FCN_BILATERAL ? fabs(u[a]) : fabs(fmin(pb->d[a] * P[a], u[a]));
    if (kd == FCN_NORMAL) {
      const double at = 0.5 * (pb->d[a + 1] + pb->d[a + 2]);
      double z1 = P[a + 1] - u[a + 1] / at, z2 = P[a + 2] - u[a + 2] / at;
      disk(pb->mu[a] * fmax(P[a], 0.0), &z1, &z2);
      r = fmax(r, at * hypot(P[a + 1] - z1, P[a + 2] - z2));
    }
    if (!(r <= res)) res = r; /* NaN propagates */
  }
  return res;
}

/* F at (u, P) (u unregularised) and, if jac, the rows of the set in J. */
static double evaluate(const fcn_problem *pb, fcn_work *w, const double *u, const double *P,
                       double *F, int jac) {
  const int nv = pb->nv;
  double theta = 0.0;
  for (int a = 0; a < pb->n;) {
    const int bs = block_size(pb, a);
    /* F row c of the block = sum_e al[c][e] u~_e + be[c][e] P_e */
    double al[3][3] = {{0}}, be[3][3] = {{0}}, ut[3];
    for (int e = 0; e < bs; ++e)
      ut[e] = u[a + e] + pb->d[a + e] * (FCN_EPS * P[a + e] + w->prox * (P[a + e] - w->Pc[a + e]));
    if (pb->kind[a] == FCN_BILATERAL) {
      F[a] = ut[0];
      al[0][0] = 1.0;
    } else {
      const double dn = pb->d[a];
      if (dn * P[a] > ut[0]) {
        F[a] = ut[0];
        al[0][0] = 1.0;
      } else {
        F[a] = dn * P[a];
        be[0][0] = dn;
      }
    }
    if (bs == 3) {
      const double dn = pb->d[a], dt = 0.5 * (pb->d[a + 1] + pb->d[a + 2]), mu = pb->mu[a];
      const double sig = fmax(0.0, P[a] - ut[0] / dn), R = mu * sig;
      const double z1 = P[a + 1] - ut[1] / dt, z2 = P[a + 2] - ut[2] / dt, nz = hypot(z1, z2);
      if (nz <= R) { /* sticking */
        F[a + 1] = ut[1];
        F[a + 2] = ut[2];
        al[1][1] = al[2][2] = 1.0;
      } else if (!(R > 0.0)) { /* no cone: P_t = 0 */
        F[a + 1] = dt * P[a + 1];
        F[a + 2] = dt * P[a + 2];
        be[1][1] = be[2][2] = dt;
      } else { /* sliding: P_t = R z / |z| */
        const double zh[2] = {z1 / nz, z2 / nz};
        F[a + 1] = dt * (P[a + 1] - R * zh[0]);
        F[a + 2] = dt * (P[a + 2] - R * zh[1]);
        for (int j = 0; j < 2; ++j) {
          al[1 + j][0] = dt / dn * mu * zh[j];
          be[1 + j][0] = -dt * mu * zh[j];
          for (int k = 0; k < 2; ++k) {
            const double Q = ((j == k) - zh[j] * zh[k]) / nz;
            al[1 + j][1 + k] = R * Q;
            be[1 + j][1 + k] = dt * ((j == k) - R * Q);
          }
        }
      }
    }
    for (int c = 0; c < bs; ++c) theta += F[a + c] * F[a + c];
    if (jac) {
      for (int c = 0; c < bs; ++c) {
        double *row = w->jx + w->rstart[a + c];
        const int cnt = w->ucount[a + c];
        memset(row, 0, (size_t)cnt * sizeof *row);
        for (int e = 0; e < bs; ++e) {
          if (al[c][e] != 0.0)
            for (int k = pb->hp[a + e]; k < pb->hp[a + e + 1]; ++k)
              row[w->hpos[k]] += al[c][e] * pb->hx[k];
          row[cnt + e] = be[c][e] + al[c][e] * (FCN_EPS + w->prox) * pb->d[a + e];
        }
      }
    }
    a += bs;
  }
  (void)nv;
  return 0.5 * theta;
}

/* rhs[0..nv) = -(W v - H^T P - r). */
static void balance(const fcn_problem *pb, const fcn_work *w, const double *v, const double *P,
                    double *rhs) {
  for (int i = 0; i < pb->nv; ++i) {
    double s = -pb->r[i];
    for (int k = pb->wp[i]; k < pb->wp[i + 1]; ++k) s += pb->wx[k] * v[pb->wi[k]];
    for (int t = w->htp[i]; t < w->htp[i + 1]; ++t) s -= pb->hx[w->htk[t]] * P[w->hta[t]];
    rhs[i] = -s;
  }
}

/* The proximal coefficient for a centre whose residual is res: st->prox,
 * or (shrink > 0) shrinking with the residual below shrink x tol (so that
 * the outer iteration's linear rate improves as it converges). */
static double prox_for(double res, double tol, const fcn_settings *st) {
  return st->shrink > 0.0 ? st->prox * fmin(1.0, res / (st->shrink * tol)) : st->prox;
}

int fcn_solve(const fcn_problem *pb, const fcn_settings *st, double *P, double *v, double tol,
              int max_iter, int *iters,
              double *res, char *msg, size_t msglen) {
  const int nv = pb->nv, n = pb->n;
  fcn_work w;
  memset(&w, 0, sizeof w);
  *iters = 0;
  *res = HUGE_VAL;
  int rc = build_pattern(pb, &w);
  if (!rc) {
    w.u = malloc((size_t)(n + 1) * sizeof *w.u);
    w.ut = malloc((size_t)(n + 1) * sizeof *w.ut);
    w.F = malloc((size_t)(n + 1) * sizeof *w.F);
    w.Ft = malloc((size_t)(n + 1) * sizeof *w.Ft);
    w.Pt = malloc((size_t)(n + 1) * sizeof *w.Pt);
    w.vt = malloc((size_t)nv * sizeof *w.vt);
    w.rhs = malloc((size_t)w.N * sizeof *w.rhs);
    w.Pc = malloc((size_t)(n + 1) * sizeof *w.Pc);
    if (!w.u || !w.ut || !w.F || !w.Ft || !w.Pt || !w.vt || !w.rhs || !w.Pc) rc = -3;
  }
  if (rc) {
    work_free(&w);
    snprintf(msg, msglen, "out of memory in the friction Newton solver (%d rows)", n);
    return -3;
  }
  klu_common common;
  klu_defaults(&common);
  klu_symbolic *sym = klu_analyze(w.N, w.jp, w.ji, &common);
  klu_numeric *num = NULL;
  if (!sym) {
    work_free(&w);
    snprintf(msg, msglen, "KLU analysis of the friction Newton matrix failed (status %d)",
             common.status);
    return -3;
  }
  /* the velocity rows of J: W and -H^T, fixed */
  for (int i = 0; i < nv; ++i) {
    int q = w.jp[i];
    for (int k = pb->wp[i]; k < pb->wp[i + 1]; ++k) w.jx[q + k - pb->wp[i]] = 0.0;
    /* W's row i in the sorted order of ji: look the entries up by row */
    for (int k = pb->wp[i]; k < pb->wp[i + 1]; ++k)
      for (int s = w.jp[i]; s < w.jp[i] + (pb->wp[i + 1] - pb->wp[i]); ++s)
        if (w.ji[s] == pb->wi[k]) w.jx[s] = pb->wx[k];
    q += pb->wp[i + 1] - pb->wp[i];
    for (int t = w.htp[i]; t < w.htp[i + 1]; ++t) w.jx[q++] = -pb->hx[w.htk[t]];
  }
  /* full steps first (the local quadratic convergence; a kink of the
   * natural map can make |F| rise on the way), keeping the best iterate;
   * then backtracking from the best on |F|^2 */
  double *vbest = malloc((size_t)nv * sizeof *vbest), *Pbest = malloc((size_t)(n + 1) * sizeof *Pbest);
  if (!vbest || !Pbest) {
    free(vbest), free(Pbest);
    klu_free_symbolic(&sym, &common);
    work_free(&w);
    snprintf(msg, msglen, "out of memory in the friction Newton solver (%d rows)", n);
    return -3;
  }
  memcpy(w.Pc, P, (size_t)n * sizeof *P);
  row_velocities(pb, v, w.u);
  *res = natural_residual(pb, w.u, P);
  w.prox = prox_for(*res, tol, st);
  double theta = evaluate(pb, &w, w.u, P, w.F, 1);
  double best = *res, outer0 = *res;
  int inner = 0;
  memcpy(vbest, v, (size_t)nv * sizeof *v);
  memcpy(Pbest, P, (size_t)n * sizeof *P);
  const int full = (int)(st->full * max_iter);
  rc = -1;
  for (int it = 1; it <= max_iter && rc == -1; ++it) {
    if (*res <= tol) {
      rc = 0;
      break;
    }
    if (it == full + 1 && best < *res) { /* the damped phase starts from the best */
      memcpy(v, vbest, (size_t)nv * sizeof *v);
      memcpy(P, Pbest, (size_t)n * sizeof *P);
      memcpy(w.Pc, P, (size_t)n * sizeof *P);
      row_velocities(pb, v, w.u);
      w.prox = prox_for(best, tol, st);
      theta = evaluate(pb, &w, w.u, P, w.F, 1);
      *res = outer0 = best;
      inner = 0;
    }
    if (!isfinite(*res)) break;
    if (num) klu_free_numeric(&num, &common);
    num = klu_factor(w.jp, w.ji, w.jx, sym, &common);
    if (!num) {
      rc = -2;
      break;
    }
    balance(pb, &w, v, P, w.rhs);
    for (int a = 0; a < n; ++a) w.rhs[nv + a] = -w.F[a];
    /* J^T was factorised (J given by rows): solve with its transpose */
    if (!klu_tsolve(sym, num, w.N, 1, w.rhs, &common)) {
      rc = -2;
      break;
    }
    *iters = it;
    double alpha = 1.0, th = 0.0;
    int accepted = it <= full;
    for (int bt = 0; !accepted && bt < FCN_BACKTRACKS; ++bt, alpha *= 0.5) {
      for (int i = 0; i < nv; ++i) w.vt[i] = v[i] + alpha * w.rhs[i];
      for (int a = 0; a < n; ++a) w.Pt[a] = P[a] + alpha * w.rhs[nv + a];
      row_velocities(pb, w.vt, w.ut);
      th = evaluate(pb, &w, w.ut, w.Pt, w.Ft, 0);
      if (th <= (1.0 - 2.0 * FCN_ARMIJO * alpha) * theta) {
        accepted = 1;
        break;
      }
    }
    if (!accepted) alpha = 1.0; /* no decrease found: the full step */
    for (int i = 0; i < nv; ++i) v[i] += alpha * w.rhs[i];
    for (int a = 0; a < n; ++a) P[a] += alpha * w.rhs[nv + a];
    row_velocities(pb, v, w.u);
    theta = evaluate(pb, &w, w.u, P, w.F, 1);
    *res = natural_residual(pb, w.u, P);
    /* the proximal problem solved well enough (or long enough): recentre */
    if (++inner >= st->inner || sqrt(2.0 * theta) <= FCN_INNER_REDUCTION * outer0) {
      memcpy(w.Pc, P, (size_t)n * sizeof *P);
      w.prox = prox_for(*res, tol, st);
      theta = evaluate(pb, &w, w.u, P, w.F, 1);
      outer0 = *res;
      inner = 0;
    }
    if (*res < best) {
      best = *res;
      memcpy(vbest, v, (size_t)nv * sizeof *v);
      memcpy(Pbest, P, (size_t)n * sizeof *P);
    }
  }
  if (rc != 0 && best < *res) { /* the best iterate is returned */
    memcpy(v, vbest, (size_t)nv * sizeof *v);
    memcpy(P, Pbest, (size_t)n * sizeof *P);
    *res = best;
  }
  free(vbest), free(Pbest);
  if (rc == -1 && *res <= tol) rc = 0;
  if (rc == -1)
    snprintf(msg, msglen, "friction Newton did not converge: %d iterations, residual %.3e > %.3e",
             *iters, *res, tol);
  else if (rc == -2)
    snprintf(msg, msglen, "friction Newton matrix singular (KLU status %d) at iteration %d",
             common.status, *iters);
  if (num) klu_free_numeric(&num, &common);
  klu_free_symbolic(&sym, &common);
  work_free(&w);
  return rc;
}
