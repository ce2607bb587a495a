/* nonsmooth.c - the one-step nonsmooth problem (nonsmooth.h): a primal-dual
 * active-set (semismooth Newton on the min-map) iteration on the sparse KKT
 * system with one KLU symbolic analysis, and projected Gauss-Seidel as the
 * fallback. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "nonsmooth.h"

/* Active sets remembered to detect a cycling iteration. */
#define NS_CYCLE_MEMORY 16

struct ns_solver {
  int nv, nc, nu, n;
  /* W (CSC) and G (CSR), int copies */
  int *wp, *wi, w_nnz, w_diag; /* w_diag: W is diagonal */
  int *wdpos;                  /* position of W_jj in Wx */
  int *gp, *gi, g_nnz;
  /* KKT pattern and maps of W, G, -G^T and the lower-right diagonal into it */
  int *kp, *ki, k_nnz;
  double *kx;
  int *kw, *kgl, *kgu, *kd;
  klu_common common;
  klu_symbolic *ksym, *wsym;
  klu_numeric *knum, *wnum;
  /* work */
  double *wdiag, *vfree, *dii, *w, *rhs, *yx, *ydense;
  unsigned char *on, *seen;
  unsigned char *fact_on;      /* the on-set of the KKT matrix last factorised */
  int have_fact;
  long refactors, factors;
  uint64_t ring[NS_CYCLE_MEMORY];
};

static int *int_copy(const mbdae_index *src, mbdae_index n) {
  int *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  if (d)
    for (mbdae_index i = 0; i < n; ++i) d[i] = (int)src[i];
  return d;
}

void ns_free(ns_solver **sp) {
  if (!sp || !*sp) return;
  ns_solver *s = *sp;
  if (s->knum) klu_free_numeric(&s->knum, &s->common);
  if (s->ksym) klu_free_symbolic(&s->ksym, &s->common);
  if (s->wnum) klu_free_numeric(&s->wnum, &s->common);
  if (s->wsym) klu_free_symbolic(&s->wsym, &s->common);
  free(s->wp), free(s->wi), free(s->wdpos), free(s->gp), free(s->gi);
  free(s->kp), free(s->ki), free(s->kx), free(s->kw), free(s->kgl), free(s->kgu), free(s->kd);
  free(s->wdiag), free(s->vfree), free(s->dii), free(s->w), free(s->rhs), free(s->yx);
  free(s->ydense), free(s->on), free(s->seen), free(s->fact_on);
  free(s);
  *sp = NULL;
}

/* The KKT pattern [W, -G^T; G, diag] and where each W / G entry goes. */
static int build_kkt(ns_solver *s) {
  const int nv = s->nv, nc = s->nc, n = s->n;
  /* G transposed: for column j the CSR entries k of G in it, by row */
  int *tp = calloc((size_t)nv + 1, sizeof *tp), *tk = malloc((size_t)s->g_nnz * sizeof *tk);
  if (!tp || !tk) {
    free(tp), free(tk);
    return -1;
  }
  for (int k = 0; k < s->g_nnz; ++k) tp[s->gi[k] + 1]++;
  for (int j = 0; j < nv; ++j) tp[j + 1] += tp[j];
  int *next = malloc((size_t)nv * sizeof *next);
  if (!next) {
    free(tp), free(tk);
    return -1;
  }
  memcpy(next, tp, (size_t)nv * sizeof *next);
  for (int i = 0; i < nc; ++i)
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) tk[next[s->gi[k]]++] = k;
  free(next);
  s->k_nnz = s->w_nnz + 2 * s->g_nnz + nc;
  s->kp = malloc((size_t)(n + 1) * sizeof *s->kp);
  s->ki = malloc((size_t)s->k_nnz * sizeof *s->ki);
  s->kx = calloc((size_t)s->k_nnz, sizeof *s->kx);
  s->kw = malloc((size_t)s->w_nnz * sizeof *s->kw);
  s->kgl = malloc((size_t)s->g_nnz * sizeof *s->kgl);
  s->kgu = malloc((size_t)s->g_nnz * sizeof *s->kgu);
  s->kd = malloc((size_t)nc * sizeof *s->kd);
  if (!s->kp || !s->ki || !s->kx || !s->kw || !s->kgl || !s->kgu || !s->kd) {
    free(tp), free(tk);
    return -1;
  }
  int pos = 0;
  /* row index of constraint i within a column, for each G entry */
  int *grow = malloc((size_t)s->g_nnz * sizeof *grow);
  if (!grow) {
    free(tp), free(tk);
    return -1;
  }
  for (int i = 0; i < nc; ++i)
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) grow[k] = i;
  for (int j = 0; j < nv; ++j) {
    s->kp[j] = pos;
    for (int k = s->wp[j]; k < s->wp[j + 1]; ++k) {
      s->ki[pos] = s->wi[k];
      s->kw[k] = pos++;
    }
    for (int c = tp[j]; c < tp[j + 1]; ++c) {
      int k = tk[c];
      s->ki[pos] = nv + grow[k];
      s->kgl[k] = pos++;
    }
  }
  for (int i = 0; i < nc; ++i) {
    s->kp[nv + i] = pos;
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
      s->ki[pos] = s->gi[k];
      s->kgu[k] = pos++;
    }
    s->ki[pos] = nv + i;
    s->kd[i] = pos++;
  }
  s->kp[n] = pos;
  free(grow), free(tp), free(tk);
  return 0;
}

ns_solver *ns_create(int nv, const mbdae_index *w_colptr, const mbdae_index *w_rowind,
                     int nc, int nu, const mbdae_index *g_rowptr,
                     const mbdae_index *g_colind, char *msg, size_t msglen) {
  ns_solver *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(msg, msglen, "out of memory creating the nonsmooth solver");
    return NULL;
  }
  s->nv = nv;
  s->nc = nc;
  s->nu = nu;
  s->n = nv + nc;
  s->w_nnz = (int)w_colptr[nv];
  s->g_nnz = nc > 0 ? (int)g_rowptr[nc] : 0;
  s->wp = int_copy(w_colptr, nv + 1);
  s->wi = int_copy(w_rowind, s->w_nnz);
  s->gp = nc > 0 ? int_copy(g_rowptr, nc + 1) : calloc(1, sizeof(int));
  s->gi = nc > 0 ? int_copy(g_colind, s->g_nnz) : calloc(1, sizeof(int));
  s->wdpos = malloc((size_t)nv * sizeof *s->wdpos);
  size_t nn = (size_t)s->n, ncc = (size_t)(nc > 0 ? nc : 1);
  s->wdiag = malloc((size_t)nv * sizeof *s->wdiag);
  s->vfree = malloc((size_t)nv * sizeof *s->vfree);
  s->dii = malloc(ncc * sizeof *s->dii);
  s->w = malloc(ncc * sizeof *s->w);
  s->rhs = malloc(nn * sizeof *s->rhs);
  s->yx = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->yx);
  s->on = calloc(ncc, 1);
  s->seen = calloc(ncc, 1);
  s->fact_on = calloc(ncc, 1);
  if (!s->fact_on ||!s->wp || !s->wi || !s->gp || !s->gi || !s->wdpos || !s->wdiag || !s->vfree ||
      !s->dii || !s->w || !s->rhs || !s->yx || !s->on || !s->seen) {
    snprintf(msg, msglen, "out of memory creating the nonsmooth solver (nv=%d, rows=%d)", nv, nc);
    ns_free(&s);
    return NULL;
  }
  s->w_diag = s->w_nnz == nv;
  for (int j = 0; j < nv; ++j) {
    s->wdpos[j] = -1;
    for (int k = s->wp[j]; k < s->wp[j + 1]; ++k)
      if (s->wi[k] == j) s->wdpos[j] = k;
  }
  klu_defaults(&s->common);
  if (!s->w_diag) {
    s->wsym = klu_analyze(nv, s->wp, s->wi, &s->common);
    if (!s->wsym) {
      snprintf(msg, msglen, "KLU could not analyse the mass matrix pattern (status %d)",
               s->common.status);
      ns_free(&s);
      return NULL;
    }
  }
  if (nc > 0) {
    if (build_kkt(s)) {
      snprintf(msg, msglen, "out of memory building the KKT pattern (nv=%d, rows=%d)", nv, nc);
      ns_free(&s);
      return NULL;
    }
    s->ksym = klu_analyze(s->n, s->kp, s->ki, &s->common);
    if (!s->ksym) {
      snprintf(msg, msglen, "KLU could not analyse the KKT pattern (n=%d, status %d)", s->n,
               s->common.status);
      ns_free(&s);
      return NULL;
    }
  }
  return s;
}

/* W^-1 x in place. */
static int w_solve(ns_solver *s, double *x) {
  if (s->w_diag) {
    for (int j = 0; j < s->nv; ++j) x[j] /= s->wdiag[j];
    return 0;
  }
  return klu_solve(s->wsym, s->wnum, s->nv, 1, x, &s->common) ? 0 : -2;
}

static double row_dot(const ns_solver *s, const double *gx, int i, const double *v) {
  double a = 0.0;
  for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) a += gx[k] * v[s->gi[k]];
  return a;
}

/* max over the set of |min(D_ii P_i, w_i)| (bilateral |w_i|), w = G v + b. */
static double residual(ns_solver *s, const ns_input *in, const double *v, const double *P) {
  double r = 0.0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) continue;
    double wi = row_dot(s, in->Gx, i, v) + in->b[i];
    s->w[i] = wi;
    double ri = i < s->nu ? fabs(fmin(s->dii[i] * P[i], wi)) : fabs(wi);
    if (!(ri <= r)) r = ri; /* NaN propagates */
  }
  return r;
}

static uint64_t set_hash(const ns_solver *s, const unsigned char *in_set) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < s->nu; ++i)
    if (in_set[i]) h = (h ^ (uint64_t)(s->on[i] + 1u + 2u * (unsigned)i)) * 1099511628211ull;
  return h;
}

/* Factor the KKT matrix for the current on-set and solve: v, P. */
static int kkt_solve(ns_solver *s, const ns_input *in, double *v, double *P) {
  const int nv = s->nv;
  for (int k = 0; k < s->w_nnz; ++k) s->kx[s->kw[k]] = in->Wx[k];
  for (int i = 0; i < s->nc; ++i) {
    const int on = in->in_set[i] && s->on[i];
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
      s->kx[s->kgl[k]] = on ? in->Gx[k] : 0.0;
      s->kx[s->kgu[k]] = -in->Gx[k];
    }
    s->kx[s->kd[i]] = on ? NS_EPS_REL * s->dii[i] : 1.0;
    s->rhs[nv + i] = on ? -in->b[i] : 0.0;
  }
  memcpy(s->rhs, in->r, (size_t)nv * sizeof *s->rhs);
  /* the same active rows as the last factorisation: refactorise with its
   * pivot order (no allocation), unless the pivots have become poor */
  int same = s->have_fact && s->knum;
  for (int i = 0; same && i < s->nc; ++i) same = s->fact_on[i] == (in->in_set[i] && s->on[i]);
  int ok = 0;
  if (same && klu_refactor(s->kp, s->ki, s->kx, s->ksym, s->knum, &s->common) &&
      klu_rcond(s->ksym, s->knum, &s->common) && s->common.rcond > 1e-12) {
    ok = 1;
    s->refactors++;
  }
  if (!ok) {
    if (s->knum) klu_free_numeric(&s->knum, &s->common);
    s->knum = klu_factor(s->kp, s->ki, s->kx, s->ksym, &s->common);
    s->have_fact = s->knum && s->common.status == KLU_OK;
    if (!s->have_fact) return -2;
    s->factors++;
    for (int i = 0; i < s->nc; ++i) s->fact_on[i] = in->in_set[i] && s->on[i];
  }
  if (!klu_solve(s->ksym, s->knum, s->n, 1, s->rhs, &s->common)) return -2;
  memcpy(v, s->rhs, (size_t)nv * sizeof *v);
  for (int i = 0; i < s->nc; ++i) P[i] = in->in_set[i] ? s->rhs[nv + i] : 0.0;
  return 0;
}

/* One step of iterative refinement towards the unregularised system with the
 * current factors: an active row solved G_i v + eps_i P_i = -b_i, so the
 * residual of G_i v = -b_i is eps_i P_i; correct by K_eps^-1 of it. */
static int kkt_refine(ns_solver *s, const ns_input *in, double *v, double *P) {
  const int nv = s->nv;
  memset(s->rhs, 0, (size_t)nv * sizeof *s->rhs);
  for (int i = 0; i < s->nc; ++i)
    s->rhs[nv + i] = in->in_set[i] && s->on[i] ? NS_EPS_REL * s->dii[i] * P[i] : 0.0;
  if (!klu_solve(s->ksym, s->knum, s->n, 1, s->rhs, &s->common)) return -2;
  for (int j = 0; j < nv; ++j) v[j] += s->rhs[j];
  for (int i = 0; i < s->nc; ++i)
    if (in->in_set[i]) P[i] += s->rhs[nv + i];
  return 0;
}

/* Projected Gauss-Seidel on the set from the impulses P (velocity form:
 * v = vfree + W^-1 G^T P kept up to date row by row). */
static int pgs(ns_solver *s, const ns_input *in, double tolw, double *v, double *P,
               ns_result *res) {
  const int nv = s->nv;
  int nset = 0;
  for (int i = 0; i < s->nc; ++i) nset += in->in_set[i];
  /* y_i = W^-1 G_i^T: on G's pattern when W is diagonal, dense otherwise */
  if (!s->w_diag) {
    size_t need = (size_t)nv * (size_t)nset;
    if (need > (size_t)50000000) return -3;
    free(s->ydense);
    s->ydense = calloc(need > 0 ? need : 1, sizeof *s->ydense);
    if (!s->ydense) return -3;
  }
  int c = 0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) {
      P[i] = 0.0;
      continue;
    }
    if (i < s->nu && P[i] < 0.0) P[i] = 0.0;
    double d = 0.0;
    if (s->w_diag) {
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
        s->yx[k] = in->Gx[k] / s->wdiag[s->gi[k]];
        d += in->Gx[k] * s->yx[k];
      }
    } else {
      double *y = s->ydense + (size_t)c * (size_t)nv;
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) y[s->gi[k]] = in->Gx[k];
      if (w_solve(s, y)) return -2;
      d = row_dot(s, in->Gx, i, y);
    }
    s->dii[i] = d > 0.0 ? d : DBL_MIN;
    c++;
  }
  /* v = vfree + sum_i y_i P_i */
  memcpy(v, s->vfree, (size_t)nv * sizeof *v);
  c = 0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) continue;
    if (s->w_diag)
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) v[s->gi[k]] += s->yx[k] * P[i];
    else
      for (int j = 0; j < nv; ++j) v[j] += s->ydense[(size_t)c * (size_t)nv + (size_t)j] * P[i];
    c++;
  }
  for (int sweep = 1; sweep <= NS_PGS_SWEEPS; ++sweep) {
    c = 0;
    for (int i = 0; i < s->nc; ++i) {
      if (!in->in_set[i]) continue;
      double wi = row_dot(s, in->Gx, i, v) + in->b[i];
      double pn = P[i] - wi / s->dii[i];
      if (i < s->nu && pn < 0.0) pn = 0.0;
      double dp = pn - P[i];
      P[i] = pn;
      if (dp != 0.0) {
        if (s->w_diag)
          for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) v[s->gi[k]] += s->yx[k] * dp;
        else
          for (int j = 0; j < nv; ++j) v[j] += s->ydense[(size_t)c * (size_t)nv + (size_t)j] * dp;
      }
      c++;
    }
    res->sweeps = sweep;
    res->residual = residual(s, in, v, P);
    if (res->residual <= tolw) return 0;
  }
  return -1;
}

int ns_solve(ns_solver *s, const ns_input *in, double *v, double *P, ns_result *res,
             char *msg, size_t msglen) {
  const int nv = s->nv, nc = s->nc;
  memset(res, 0, sizeof *res);
  /* W: diagonal, or KLU's numeric factorisation when its values changed */
  if (in->w_changed || (!s->w_diag && !s->wnum)) {
    for (int j = 0; j < nv; ++j) s->wdiag[j] = in->Wx[s->wdpos[j]];
    if (!s->w_diag) {
      if (s->wnum) klu_free_numeric(&s->wnum, &s->common);
      s->wnum = klu_factor(s->wp, s->wi, (double *)in->Wx, s->wsym, &s->common);
      if (!s->wnum || s->common.status != KLU_OK) {
        snprintf(msg, msglen, "the mass (iteration) matrix is singular (KLU status %d)",
                 s->common.status);
        return -2;
      }
    } else {
      for (int j = 0; j < nv; ++j)
        if (!(s->wdiag[j] > 0.0)) {
          snprintf(msg, msglen, "mass matrix entry (%d, %d) is %g, not positive", j, j,
                   s->wdiag[j]);
          return -2;
        }
    }
  }
  memcpy(s->vfree, in->r, (size_t)nv * sizeof *s->vfree);
  if (w_solve(s, s->vfree)) {
    snprintf(msg, msglen, "KLU solve with the mass matrix failed");
    return -2;
  }
  memcpy(v, s->vfree, (size_t)nv * sizeof *v);
  /* the set, its free constraint velocities and the scale of the tolerance */
  int nset = 0, bilateral = 0;
  double vref = 0.0;
  for (int i = 0; i < nc; ++i) {
    if (!in->in_set[i]) {
      P[i] = 0.0;
      continue;
    }
    nset++;
    bilateral |= i >= s->nu;
    double d = 0.0;
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
      double gk = in->Gx[k];
      d += gk * gk / s->wdiag[s->gi[k]];
    }
    s->dii[i] = d > 0.0 ? d : DBL_MIN;
    s->w[i] = row_dot(s, in->Gx, i, s->vfree) + in->b[i];
    /* the size of the terms of w_i, so that round-off stays below the tolerance */
    double terms = fabs(in->b[i]);
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) terms += fabs(in->Gx[k] * s->vfree[s->gi[k]]);
    vref = fmax(vref, fmax(fabs(s->w[i]), terms));
  }
  res->index_set = nset;
  if (nset == 0) return 0;
  if (!(vref > 0.0)) vref = DBL_MIN;
  if (!isfinite(vref)) {
    snprintf(msg, msglen, "non-finite free constraint velocity");
    return -2;
  }
  res->vref = vref;
  const double tolw = in->tol * vref;
  if (!bilateral) {
    int free_ok = 1;
    for (int i = 0; i < nc && free_ok; ++i)
      if (in->in_set[i] && s->w[i] < -tolw) free_ok = 0;
    if (free_ok) {
      for (int i = 0; i < nc; ++i) P[i] = 0.0;
      res->residual = residual(s, in, v, P);
      return 0;
    }
  }
  /* primal-dual active set: on = {P - w / D > 0}, first from the warm start */
  for (int i = 0; i < nc; ++i)
    s->on[i] = in->in_set[i] && (i >= s->nu || P[i] > 0.0 || s->w[i] < -tolw);
  int nring = 0, cycled = 0;
  for (int it = 1; it <= in->max_iter; ++it) {
    uint64_t h = set_hash(s, in->in_set);
    for (int r = 0; r < nring && r < NS_CYCLE_MEMORY; ++r)
      if (s->ring[r] == h) cycled = 1;
    if (cycled) break;
    s->ring[nring++ % NS_CYCLE_MEMORY] = h;
    int rc = kkt_solve(s, in, v, P);
    res->iterations = it;
    if (rc) break; /* singular: Gauss-Seidel may still find the impulses */
    int feasible = 1, changed = 0;
    for (int i = 0; i < nc; ++i) {
      if (!in->in_set[i]) continue;
      s->w[i] = row_dot(s, in->Gx, i, v) + in->b[i];
      if (i >= s->nu) continue;
      if (s->on[i] ? P[i] * s->dii[i] < -tolw : s->w[i] < -tolw) feasible = 0;
      unsigned char on = s->dii[i] * P[i] - s->w[i] > 0.0;
      changed |= on != s->on[i];
      s->on[i] = on;
    }
    if (feasible) {
      res->residual = residual(s, in, v, P);
      /* the regularisation limits the residual to about NS_EPS_REL D_ii P_i:
       * refine when that is what stands above the tolerance */
      for (int ref = 0; ref < 2 && res->residual > tolw && !changed; ++ref)
        if (kkt_refine(s, in, v, P) == 0) res->residual = residual(s, in, v, P);
      if (res->residual <= tolw) {
        for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
        return 0;
      }
    }
    if (!changed) break;
  }
  int rc = pgs(s, in, tolw, v, P, res);
  for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
  if (rc == 0) return 0;
  if (rc == -3)
    snprintf(msg, msglen, "out of memory in the Gauss-Seidel fallback (%d rows)", nset);
  else if (rc == -2)
    snprintf(msg, msglen, "singular mass matrix in the Gauss-Seidel fallback");
  else
    snprintf(msg, msglen,
             "nonsmooth solve did not converge: %d active-set iterations%s, %d Gauss-Seidel "
             "sweeps, residual %.3e > %.3e (tolerance %.1e x %.3e), %d rows in the set",
             res->iterations, cycled ? " (cycling)" : "", res->sweeps, res->residual, tolw,
             in->tol, vref, nset);
  return rc;
}
