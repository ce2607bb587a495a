/* friction.c - the one-step problem with Coulomb friction (friction.h):
 * nonsmooth block Gauss-Seidel in velocity form, a scalar projection per
 * frictionless row and a 3 x 3 local Coulomb problem per contact. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "friction.h"
#include "friction_newton.h"
#include "mass_factor.h"

/* Largest dense W^-1 H^T (doubles) when W is not diagonal. */
#define FC_DENSE_MAX 50000000u
/* Iterations of the local sliding-direction fixed point and of the local
 * Alart-Curnier iteration that backs it up. */
#define FC_LOCAL_ITERS 100
#define FC_AC_ITERS 2000
/* Gauss-Seidel sweeps before the semismooth Newton takes over. */
#define FC_GS_FIRST 100

struct fc_solver {
  int nv, nc, nu, nf;
  int *wp, *wi, w_nnz, w_diag, *wdpos;
  int *gp, *gi, *tp, *ti;
  int *contact_of;   /* nc: the contact on a row, or -1 */
  int *nrow;         /* nf: normal rows */
  double *mu;        /* nf */
  klu_common common;
  klu_symbolic *wsym;
  klu_numeric *wnum;
  double *wdiag, *vfree, *work;
  int w_ready;       /* W (diagonal or factorised) set by an earlier call */
  /* per solve: the rows of the set (ids: G row i, T row nc + j) and W^-1 h^T */
  int *act, nact;
  size_t *yoff;      /* offset of row a's y */
  double *y;
  size_t ycap;
  double *d;         /* h_a . y_a */
  int *slot;         /* nc + 2 nf: index into act, or -1 */
};

static int *int_copy(const mbdae_index *src, mbdae_index n) {
  int *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  if (d)
    for (mbdae_index i = 0; i < n; ++i) d[i] = (int)src[i];
  return d;
}

void fc_free(fc_solver **sp) {
  if (!sp || !*sp) return;
  fc_solver *s = *sp;
  if (s->wnum) klu_free_numeric(&s->wnum, &s->common);
  if (s->wsym) klu_free_symbolic(&s->wsym, &s->common);
  free(s->wp), free(s->wi), free(s->wdpos), free(s->gp), free(s->gi), free(s->tp), free(s->ti);
  free(s->contact_of), free(s->nrow), free(s->mu), free(s->wdiag), free(s->vfree);
  free(s->work), free(s->act), free(s->yoff), free(s->y), free(s->d), free(s->slot);
  free(s);
  *sp = NULL;
}

fc_solver *fc_create(int nv, const mbdae_index *w_colptr, const mbdae_index *w_rowind, int nc,
                     int nu, const mbdae_index *g_rowptr, const mbdae_index *g_colind, int nf,
                     const int *normal_rows, const double *mu, const mbdae_index *t_rowptr,
                     const mbdae_index *t_colind, char *msg, size_t msglen) {
  fc_solver *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(msg, msglen, "out of memory creating the friction solver");
    return NULL;
  }
  s->nv = nv;
  s->nc = nc;
  s->nu = nu;
  s->nf = nf;
  s->w_nnz = (int)w_colptr[nv];
  const size_t nrows = (size_t)nc + 2 * (size_t)nf;
  s->wp = int_copy(w_colptr, nv + 1);
  s->wi = int_copy(w_rowind, s->w_nnz);
  s->gp = int_copy(g_rowptr, nc + 1);
  s->gi = int_copy(g_colind, g_rowptr[nc]);
  s->tp = int_copy(t_rowptr, 2 * (mbdae_index)nf + 1);
  s->ti = int_copy(t_colind, t_rowptr[2 * nf]);
  s->wdpos = malloc((size_t)nv * sizeof *s->wdpos);
  s->contact_of = malloc((size_t)nc * sizeof *s->contact_of);
  s->nrow = malloc((size_t)nf * sizeof *s->nrow);
  s->mu = malloc((size_t)nf * sizeof *s->mu);
  s->wdiag = malloc((size_t)nv * sizeof *s->wdiag);
  s->vfree = malloc((size_t)nv * sizeof *s->vfree);
  s->work = calloc((size_t)nv, sizeof *s->work);
  s->act = malloc(nrows * sizeof *s->act);
  s->yoff = malloc((nrows + 1) * sizeof *s->yoff);
  s->d = malloc(nrows * sizeof *s->d);
  s->slot = malloc(nrows * sizeof *s->slot);
  if (!s->wp || !s->wi || !s->gp || !s->gi || !s->tp || !s->ti || !s->wdpos || !s->contact_of ||
      !s->nrow || !s->mu || !s->wdiag || !s->vfree || !s->work || !s->act || !s->yoff || !s->d ||
      !s->slot) {
    snprintf(msg, msglen, "out of memory creating the friction solver (nv=%d, rows=%d)", nv, nc);
    fc_free(&s);
    return NULL;
  }
  for (int i = 0; i < nc; ++i) s->contact_of[i] = -1;
  for (int k = 0; k < nf; ++k) {
    s->nrow[k] = normal_rows[k];
    s->mu[k] = mu[k];
    s->contact_of[normal_rows[k]] = k;
  }
  if (ns_mass_analyse(nv, s->wp, s->wi, s->wdpos, &s->w_diag, &s->wsym, &s->common, msg,
                      msglen)) {
    fc_free(&s);
    return NULL;
  }
  return s;
}

/* Row id r: G row r (r < nc) or T row r - nc; its pattern and values. */
static int row_of(const fc_solver *s, const fc_input *in, int r, const int **idx,
                  const double **val) {
  if (r < s->nc) {
    *idx = s->gi + s->gp[r];
    *val = in->Gx + s->gp[r];
    return s->gp[r + 1] - s->gp[r];
  }
  r -= s->nc;
  *idx = s->ti + s->tp[r];
  *val = in->Tx + s->tp[r];
  return s->tp[r + 1] - s->tp[r];
}

static double row_dot(const fc_solver *s, const fc_input *in, int r, const double *v) {
  const int *idx;
  const double *val;
  int n = row_of(s, in, r, &idx, &val);
  double a = 0.0;
  for (int k = 0; k < n; ++k) a += val[k] * v[idx[k]];
  return a;
}

/* v += y_a dp for the a-th row of the set. */
static void add_y(const fc_solver *s, const fc_input *in, int a, double dp, double *v) {
  if (dp == 0.0) return;
  const double *y = s->y + s->yoff[a];
  if (s->w_diag) {
    const int *idx;
    const double *val;
    int n = row_of(s, in, s->act[a], &idx, &val);
    for (int k = 0; k < n; ++k) v[idx[k]] += y[k] * dp;
  } else {
    for (int j = 0; j < s->nv; ++j) v[j] += y[j] * dp;
  }
}

/* h_a . y_b, the (a, b) entry of the Delassus matrix on the set. */
static double delassus(fc_solver *s, const fc_input *in, int a, int b) {
  const int *idx;
  const double *val;
  if (!s->w_diag) return row_dot(s, in, s->act[a], s->y + s->yoff[b]);
  int n = row_of(s, in, s->act[b], &idx, &val);
  const double *y = s->y + s->yoff[b];
  for (int k = 0; k < n; ++k) s->work[idx[k]] = y[k];
  double r = row_dot(s, in, s->act[a], s->work);
  for (int k = 0; k < n; ++k) s->work[idx[k]] = 0.0;
  return r;
}

/* The rows of the set, W^-1 h^T for each and the diagonal of the Delassus
 * matrix. */
static int build_set(fc_solver *s, const fc_input *in) {
  const int nc = s->nc, nf = s->nf;
  s->nact = 0;
  for (int r = 0; r < nc + 2 * nf; ++r) s->slot[r] = -1;
  for (int i = 0; i < nc; ++i) {
    if (!in->in_set[i]) continue;
    s->slot[i] = s->nact;
    s->act[s->nact++] = i;
    const int k = s->contact_of[i];
    if (k >= 0)
      for (int c = 0; c < 2; ++c) {
        s->slot[nc + 2 * k + c] = s->nact;
        s->act[s->nact++] = nc + 2 * k + c;
      }
  }
  size_t need = 0;
  for (int a = 0; a < s->nact; ++a) {
    const int *idx;
    const double *val;
    s->yoff[a] = need;
    need += s->w_diag ? (size_t)row_of(s, in, s->act[a], &idx, &val) : (size_t)s->nv;
  }
  s->yoff[s->nact] = need;
  if (!s->w_diag && need > FC_DENSE_MAX) return -3;
  if (need > s->ycap) {
    double *y = realloc(s->y, (need > 0 ? need : 1) * sizeof *y);
    if (!y) return -3;
    s->y = y;
    s->ycap = need;
  }
  for (int a = 0; a < s->nact; ++a) {
    const int *idx;
    const double *val;
    int n = row_of(s, in, s->act[a], &idx, &val);
    double *y = s->y + s->yoff[a];
    if (s->w_diag) {
      for (int k = 0; k < n; ++k) y[k] = val[k] / s->wdiag[idx[k]];
    } else {
      memset(y, 0, (size_t)s->nv * sizeof *y);
      for (int k = 0; k < n; ++k) y[idx[k]] = val[k];
      if (!klu_solve(s->wsym, s->wnum, s->nv, 1, y, &s->common)) return -2;
    }
    double d = delassus(s, in, a, a);
    s->d[a] = d > 0.0 ? d : DBL_MIN;
  }
  return 0;
}

/* Projection of (x, y) onto the disk of radius rad >= 0. */
static void disk(double rad, double *x, double *y) {
  double n = hypot(*x, *y);
  if (n > rad) {
    double f = n > 0.0 ? rad / n : 0.0;
    *x *= f;
    *y *= f;
  }
}

/* Solve the 3 x 3 system A x = b (Gaussian elimination, partial pivoting). */
static int solve3(const double A[9], const double b[3], double x[3]) {
  double M[3][4];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) M[i][j] = A[3 * i + j];
    M[i][3] = b[i];
  }
  for (int c = 0; c < 3; ++c) {
    int p = c;
    for (int i = c + 1; i < 3; ++i)
      if (fabs(M[i][c]) > fabs(M[p][c])) p = i;
    if (!(fabs(M[p][c]) > 0.0)) return -1;
    if (p != c)
      for (int j = 0; j < 4; ++j) {
        double t = M[c][j];
        M[c][j] = M[p][j];
        M[p][j] = t;
      }
    for (int i = c + 1; i < 3; ++i) {
      double f = M[i][c] / M[c][c];
      for (int j = c; j < 4; ++j) M[i][j] -= f * M[c][j];
    }
  }
  for (int i = 2; i >= 0; --i) {
    double t = M[i][3];
    for (int j = i + 1; j < 3; ++j) t -= M[i][j] * x[j];
    x[i] = t / M[i][i];
  }
  return 0;
}

/* The local Coulomb problem of one contact: u = u0 + A P (A the 3 x 3
 * Delassus block, row-major; components normal, tangent 1, tangent 2);
 * find P with 0 <= P_n complementary u_n >= 0, |P_t| <= mu P_n, sticking
 * (u_t = 0) inside the cone, sliding against u_t on it. P holds a start. */
static void local_coulomb(const double A[9], const double u0[3], double mu, double P[3]) {
  /* separation */
  if (u0[0] >= 0.0) {
    P[0] = P[1] = P[2] = 0.0;
    return;
  }
  /* sticking */
  double x[3], mb[3] = {-u0[0], -u0[1], -u0[2]};
  if (!solve3(A, mb, x) && x[0] >= 0.0 && hypot(x[1], x[2]) <= mu * x[0] * (1.0 + 1e-14)) {
    memcpy(P, x, sizeof x);
    return;
  }
  if (mu == 0.0) {
    P[0] = -u0[0] / A[0];
    P[1] = P[2] = 0.0;
    return;
  }
  /* sliding: u_n = 0 and P_t = -mu P_n s, s the direction of u_t; a fixed
   * point on s from the frictionless slip (or against the sticking force) */
  double pn = -u0[0] / A[0];
  double sx = u0[1] + A[3] * pn, sy = u0[2] + A[6] * pn, sn = hypot(sx, sy);
  if (!(sn > 0.0)) {
    sx = -x[1];
    sy = -x[2];
    sn = hypot(sx, sy);
  }
  int ok = sn > 0.0 && isfinite(sn);
  if (ok) {
    sx /= sn;
    sy /= sn;
    ok = 0;
    for (int it = 0; it < FC_LOCAL_ITERS; ++it) {
      double a = A[0] - mu * (A[1] * sx + A[2] * sy);
      if (!(a > 0.0)) break;
      pn = -u0[0] / a;
      double ux = u0[1] + A[3] * pn - mu * pn * (A[4] * sx + A[5] * sy);
      double uy = u0[2] + A[6] * pn - mu * pn * (A[7] * sx + A[8] * sy);
      double un = hypot(ux, uy);
      if (!(un > 0.0)) break;
      ux /= un;
      uy /= un;
      double change = hypot(ux - sx, uy - sy);
      sx = ux;
      sy = uy;
      if (change <= 1e-15) {
        ok = pn >= 0.0;
        break;
      }
    }
  }
  if (ok) {
    P[0] = pn;
    P[1] = -mu * pn * sx;
    P[2] = -mu * pn * sy;
    return;
  }
  /* Alart-Curnier's projected iteration, rho = 1 / the largest diagonal entry */
  const double rho = 1.0 / fmax(A[0], fmax(A[4], A[8]));
  for (int it = 0; it < FC_AC_ITERS; ++it) {
    double u[3];
    for (int i = 0; i < 3; ++i) u[i] = u0[i] + A[3 * i] * P[0] + A[3 * i + 1] * P[1] + A[3 * i + 2] * P[2];
    double n0 = fmax(0.0, P[0] - rho * u[0]), n1 = P[1] - rho * u[1], n2 = P[2] - rho * u[2];
    disk(mu * n0, &n1, &n2);
    double change = fabs(n0 - P[0]) + fabs(n1 - P[1]) + fabs(n2 - P[2]);
    P[0] = n0, P[1] = n1, P[2] = n2;
    if (change <= 1e-15 * (fabs(P[0]) + DBL_MIN)) break;
  }
}

/* The contact's Delassus block and its velocities u (with b on the normal). */
static void contact_block(fc_solver *s, const fc_input *in, int a, const double *v, double A[9],
                          double u[3]) {
  for (int i = 0; i < 3; ++i) {
    u[i] = row_dot(s, in, s->act[a + i], v) + (i == 0 ? in->b[s->act[a]] : 0.0);
    for (int j = 0; j < 3; ++j) A[3 * i + j] = i == j ? s->d[a + i] : delassus(s, in, a + i, a + j);
  }
}

/* The natural map's residual over the set (velocity units). */
static double residual(fc_solver *s, const fc_input *in, const double *v, const double *P,
                       const double *Pt) {
  double res = 0.0;
  for (int a = 0; a < s->nact; ++a) {
    const int i = s->act[a];
    if (i >= s->nc) continue; /* tangent rows: with their contact */
    const double w = row_dot(s, in, i, v) + in->b[i];
    double r = i < s->nu ? fabs(fmin(s->d[a] * P[i], w)) : fabs(w);
    const int k = s->contact_of[i];
    if (k >= 0) {
      const double at = 0.5 * (s->d[a + 1] + s->d[a + 2]);
      const double p1 = Pt[2 * k], p2 = Pt[2 * k + 1];
      double z1 = p1 - row_dot(s, in, s->act[a + 1], v) / at;
      double z2 = p2 - row_dot(s, in, s->act[a + 2], v) / at;
      disk(s->mu[k] * fmax(P[i], 0.0), &z1, &z2);
      r = fmax(r, at * hypot(p1 - z1, p2 - z2));
    }
    if (!(r <= res)) res = r; /* NaN propagates */
  }
  return res;
}

/* Gauss-Seidel sweeps first..last; 1 when the residual reaches tolw. */
static int gs_sweeps(fc_solver *s, const fc_input *in, double *v, double *P, double *Pt,
                     int first, int last, double tolw, ns_result *res) {
  const int nc = s->nc;
  for (int sweep = first; sweep <= last; ++sweep) {
    for (int a = 0; a < s->nact; ++a) {
      const int i = s->act[a];
      if (i >= nc) continue;
      const int k = s->contact_of[i];
      if (k < 0) {
        const double w = row_dot(s, in, i, v) + in->b[i];
        double pn = P[i] - w / s->d[a];
        if (i < s->nu && pn < 0.0) pn = 0.0;
        add_y(s, in, a, pn - P[i], v);
        P[i] = pn;
        continue;
      }
      double A[9], u[3], Pl[3] = {P[i], Pt[2 * k], Pt[2 * k + 1]}, u0[3];
      contact_block(s, in, a, v, A, u);
      for (int r = 0; r < 3; ++r) u0[r] = u[r] - A[3 * r] * Pl[0] - A[3 * r + 1] * Pl[1] - A[3 * r + 2] * Pl[2];
      double Pn[3] = {Pl[0], Pl[1], Pl[2]};
      local_coulomb(A, u0, s->mu[k], Pn);
      for (int r = 0; r < 3; ++r) add_y(s, in, a + r, Pn[r] - Pl[r], v);
      P[i] = Pn[0];
      Pt[2 * k] = Pn[1];
      Pt[2 * k + 1] = Pn[2];
    }
    res->sweeps = sweep;
    res->residual = residual(s, in, v, P, Pt);
    if (res->residual <= tolw) return 1;
  }
  return 0;
}

/* v = W^-1 (r + H^T P) from the impulses of the set. */
static void velocities(fc_solver *s, const fc_input *in, const double *P, const double *Pt,
                       double *v) {
  memcpy(v, s->vfree, (size_t)s->nv * sizeof *v);
  for (int a = 0; a < s->nact; ++a) {
    const int r = s->act[a];
    add_y(s, in, a, r < s->nc ? P[r] : Pt[r - s->nc], v);
  }
}

/* The semismooth Newton (friction_newton.h) on the set from (v, P, Pt);
 * 0 when the residual then reaches tolw, -3 out of memory, else -1 (v, P,
 * Pt: the Newton iterate if its residual is finite, else unchanged). */
static int newton(fc_solver *s, const fc_input *in, double *v, double *P, double *Pt,
                  double tolw, ns_result *res, char *msg, size_t msglen) {
  const int n = s->nact, nc = s->nc, nv = s->nv;
  size_t hnz = 0;
  for (int a = 0; a < n; ++a) {
    const int *idx;
    const double *val;
    hnz += (size_t)row_of(s, in, s->act[a], &idx, &val);
  }
  int *hp = malloc((size_t)(n + 1) * sizeof *hp), *hi = malloc((hnz + 1) * sizeof *hi);
  double *hx = malloc((hnz + 1) * sizeof *hx), *b = malloc((size_t)n * sizeof *b);
  double *mu = calloc((size_t)n, sizeof *mu), *p = malloc((size_t)n * sizeof *p);
  double *vn = malloc((size_t)nv * sizeof *vn);
  unsigned char *kind = malloc((size_t)n);
  int rc = hp && hi && hx && b && mu && p && vn && kind ? 0 : -3;
  if (!rc) {
    hp[0] = 0;
    for (int a = 0; a < n; ++a) {
      const int *idx;
      const double *val;
      const int r = s->act[a], m = row_of(s, in, r, &idx, &val);
      memcpy(hi + hp[a], idx, (size_t)m * sizeof *hi);
      memcpy(hx + hp[a], val, (size_t)m * sizeof *hx);
      hp[a + 1] = hp[a] + m;
      if (r >= nc) {
        kind[a] = FCN_TANGENT;
        b[a] = 0.0;
        p[a] = Pt[r - nc];
        continue;
      }
      b[a] = in->b[r];
      p[a] = P[r];
      const int k = s->contact_of[r];
      kind[a] = k >= 0 ? FCN_NORMAL : r < s->nu ? FCN_UNILATERAL : FCN_BILATERAL;
      if (k >= 0) mu[a] = s->mu[k];
    }
    memcpy(vn, v, (size_t)nv * sizeof *vn);
    fcn_problem pb = {.nv = nv, .wp = s->wp, .wi = s->wi, .wx = in->Wx, .r = in->r, .n = n,
                      .hp = hp, .hi = hi, .hx = hx, .b = b, .kind = kind, .mu = mu, .d = s->d};
    /* the variants in turn from the same start; the best iterate kept.
     * First a regularised Newton: full steps, the proximal centre moved at
     * every iteration and the weight proportional to the residual, 1e-9 x
     * residual / tol (at most 1e-2 D), so that it vanishes at convergence;
     * then proximal problems of weight 1e-3 D solved 8 iterations deep,
     * shrinking below 1e4 x tol; then the weight 1e-6 D with backtracking,
     * and shrinking below 1e4 and 1e6 x tol. Measured on 1,238 hard steps of
     * the demo with friction 0.3 (benchmarks/results/sections/
     * moreau_friction.md), every variant alone fails on some that another
     * solves. */
    static const fcn_settings variants[] = {
      {1.0, 1e-2, 1e7, 1}, {1.0, 1e-3, 1e4, 8},
      {0.5, 1e-6, 0.0, 8}, {1.0, 1e-6, 1e4, 8}, {1.0, 1e-6, 1e6, 8}};
    static const int scale[] = {4, 4, 1, 4, 1};
    const int nvar = (int)(sizeof variants / sizeof variants[0]);
    double *p0 = malloc((size_t)n * sizeof *p0), *v0 = malloc((size_t)nv * sizeof *v0);
    double *pb0 = malloc((size_t)n * sizeof *pb0), best = res->residual;
    rc = p0 && v0 && pb0 ? -1 : -3;
    if (rc == -1) {
      memcpy(p0, p, (size_t)n * sizeof *p0);
      memcpy(v0, vn, (size_t)nv * sizeof *v0);
      memcpy(pb0, p, (size_t)n * sizeof *pb0);
    }
    for (int k = 0; rc == -1 && k < nvar; ++k) {
      memcpy(p, p0, (size_t)n * sizeof *p);
      memcpy(vn, v0, (size_t)nv * sizeof *vn);
      int iters = 0;
      double nres = 0.0;
      int frc = fcn_solve(&pb, &variants[k], p, vn, tolw, scale[k] * in->max_newton, &iters,
                          &nres, msg, msglen);
      res->iterations += iters;
      if (frc == -3) rc = -3;
      else if (isfinite(nres) && nres < best) {
        best = nres;
        memcpy(pb0, p, (size_t)n * sizeof *pb0);
        if (nres <= tolw) rc = 0; /* confirmed below on friction.c's own measure */
      }
    }
    if (rc != -3) {
      /* the best iterate back; v from the impulses as Gauss-Seidel keeps it */
      for (int a = 0; a < n; ++a) {
        const int r = s->act[a];
        if (r < nc) P[r] = pb0[a];
        else Pt[r - nc] = pb0[a];
      }
      velocities(s, in, P, Pt, v);
      res->residual = residual(s, in, v, P, Pt);
      rc = res->residual <= tolw ? 0 : -1;
    }
    free(p0), free(v0), free(pb0);
  }
  if (rc == -3) snprintf(msg, msglen, "out of memory in the friction solver (%d rows)", n);
  free(hp), free(hi), free(hx), free(b), free(mu), free(p), free(vn), free(kind);
  return rc;
}

int fc_solve(fc_solver *s, const fc_input *in, double *v, double *P, double *Pt,
             ns_result *res, char *msg, size_t msglen) {
  const int nv = s->nv, nc = s->nc, nf = s->nf;
  memset(res, 0, sizeof *res);
  if (in->w_changed || !s->w_ready) {
    s->w_ready = 0;
    if (ns_mass_factor(nv, s->w_diag, s->wp, s->wi, s->wdpos, in->Wx, s->wsym, &s->wnum,
                       &s->common, s->wdiag, msg, msglen))
      return -2;
    s->w_ready = 1;
  }
  memcpy(s->vfree, in->r, (size_t)nv * sizeof *s->vfree);
  if (s->w_diag) {
    for (int j = 0; j < nv; ++j) s->vfree[j] /= s->wdiag[j];
  } else if (!klu_solve(s->wsym, s->wnum, nv, 1, s->vfree, &s->common)) {
    snprintf(msg, msglen, "KLU solve with the mass matrix failed");
    return -2;
  }
  int rc = build_set(s, in);
  if (rc) {
    snprintf(msg, msglen, rc == -3 ? "out of memory in the friction solver"
                                   : "KLU solve with the mass matrix failed");
    return rc;
  }
  /* the warm start, inside the cones; rows and contacts outside the set: 0 */
  for (int i = 0; i < nc; ++i) {
    if (!in->in_set[i] || (i < s->nu && P[i] < 0.0)) P[i] = 0.0;
  }
  for (int k = 0; k < nf; ++k) {
    if (!in->in_set[s->nrow[k]]) Pt[2 * k] = Pt[2 * k + 1] = 0.0;
    else disk(s->mu[k] * P[s->nrow[k]], &Pt[2 * k], &Pt[2 * k + 1]);
  }
  /* the tolerance's scale: the free velocities of the set and their terms */
  double vref = 0.0;
  for (int a = 0; a < s->nact; ++a) {
    const int *idx;
    const double *val;
    const int r = s->act[a];
    int n = row_of(s, in, r, &idx, &val);
    double bb = r < nc ? in->b[r] : 0.0, w = bb, terms = fabs(bb), d = 0.0, e = 0.0;
    for (int k = 0; k < n; ++k) {
      const double vk = s->vfree[idx[k]], wk = s->wdiag[idx[k]];
      w += val[k] * vk;
      terms += fabs(val[k] * vk);
      d += val[k] * val[k] / wk;
      e += wk * vk * vk;
    }
    /* floor sqrt(D_ii) ||vfree||_W over the row's velocities: a velocity of
     * the step even where every term is 0 (nonsmooth.c, ns_solve) */
    vref = fmax(vref, fmax(fmax(fabs(w), terms), sqrt(d * e)));
  }
  res->index_set = 0;
  for (int i = 0; i < nc; ++i) res->index_set += in->in_set[i];
  memcpy(v, s->vfree, (size_t)nv * sizeof *v);
  if (s->nact == 0) return 0;
  if (!(vref > 0.0)) vref = DBL_MIN;
  if (!isfinite(vref)) {
    snprintf(msg, msglen, "non-finite free constraint velocity");
    return -2;
  }
  res->vref = vref;
  const double tolw = in->tol * vref;
  velocities(s, in, P, Pt, v);
  /* Gauss-Seidel first (cheap where it converges fast); where it does not
   * (contacts coupled through chains of taut strings), the semismooth Newton
   * from its iterate; Gauss-Seidel again with the rest of the budget if that
   * fails */
  const int first = in->max_sweeps < FC_GS_FIRST ? in->max_sweeps : FC_GS_FIRST;
  if (gs_sweeps(s, in, v, P, Pt, 1, first, tolw, res)) goto converged;
  if (in->max_newton > 0) {
    int nrc = newton(s, in, v, P, Pt, tolw, res, msg, msglen);
    if (nrc == -3) return -3;
    if (!nrc) goto converged;
  }
  if (gs_sweeps(s, in, v, P, Pt, first + 1, in->max_sweeps, tolw, res)) goto converged;
  for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
  snprintf(msg, msglen,
           "friction solve did not converge: %d Gauss-Seidel sweeps and %d Newton iterations, "
           "residual %.3e > %.3e (tolerance %.1e x %.3e), %d rows in the set (%d contacts with "
           "friction)",
           res->sweeps, res->iterations, res->residual, tolw, in->tol, vref, res->index_set,
           (s->nact - res->index_set) / 2);
  return -1;
converged:
  for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
  return 0;
}
