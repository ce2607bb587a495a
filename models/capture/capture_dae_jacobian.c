/* capture_dae_jacobian.c - exact sparse Jacobian dF/dy + cj dF/dy' of the
 * net-capture DAE (capture_dae.c). One CSC pattern for every mode; the
 * derivation (chain rule through C(q/|q|) and b_p = C A_p) is in
 * doc/capture.md "DAE form". Notation: rho = r_j - P, vr = v_j - U,
 * ar = v_j' - U', rho_B = C^T rho, s = A.rho_B (eq. 2.52's b^T rho),
 * a1 = w x A, a2 = w' x A, a3 = w x a1 (body axes). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_dae.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void cross3(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static void mul(const double *C, const double *x, double *o) { /* C x */
  for (int i = 0; i < 3; ++i) o[i] = C[3 * i] * x[0] + C[3 * i + 1] * x[1] + C[3 * i + 2] * x[2];
}
static void mult(const double *C, const double *x, double *o) { /* C^T x */
  for (int i = 0; i < 3; ++i) o[i] = C[i] * x[0] + C[3 + i] * x[1] + C[6 + i] * x[2];
}
static double bilin(const double *M, const double *yv, const double *x) { /* y^T M x */
  double o[3];
  mul(M, x, o);
  return dot3(yv, o);
}

/* ---- pattern: one walk for both the pattern and the slot binding -------- */

typedef struct walker {
  sn_pattern *p;
  int bind; /* 0: add entries; 1: look up their slots */
  int err;
} walker;

/* Dense block rows r0..r0+nr-1 x cols c0..c0+nc-1 (slots row-major). */
static void blk(walker *w, int r0, int nr, int c0, int nc, mbdae_index *out) {
  for (int a = 0; a < nr; ++a)
    for (int b = 0; b < nc; ++b) {
      if (!w->bind) {
        if (sn_pattern_add(w->p, r0 + a, c0 + b)) w->err = MBDAE_ERR_MEMORY;
      } else {
        out[a * nc + b] = sn_pattern_slot(w->p, r0 + a, c0 + b);
        if (out[a * nc + b] < 0) w->err = MBDAE_ERR_ARGUMENT;
      }
    }
}

/* Diagonal block (r0 + a, c0 + a), a < n. */
static void dia(walker *w, int r0, int c0, int n, mbdae_index *out) {
  for (int a = 0; a < n; ++a) blk(w, r0 + a, 1, c0 + a, 1, &out[a]);
}

static int walk(capture_model *m, walker *w) {
  struct capture_dae *d = m->dae;
  int np = m->np, np3 = 3 * np, P = m->boff + MBDAE_RB_P, U = m->boff + MBDAE_RB_U,
      Q = m->boff + MBDAE_RB_Q, W = m->boff + MBDAE_RB_W;
  capdae_body_slots *b = &d->bs;
  dia(w, P, P, 3, b->PP);   /* P' - U */
  dia(w, P, U, 3, b->PU);
  dia(w, U, U, 3, b->UU);   /* m_P U' - reactions(r, P, q, lambda) */
  blk(w, U, 3, P, 3, b->UP);
  blk(w, U, 3, Q, 4, b->UQ);
  blk(w, Q, 4, Q, 4, b->QQ); /* q' - 1/2 q (x) (0, w) */
  blk(w, Q, 4, W, 3, b->QW);
  blk(w, W, 3, W, 3, b->WW); /* J w' + w x J w - torques(r, P, q, lambda) */
  blk(w, W, 3, P, 3, b->WP);
  blk(w, W, 3, Q, 4, b->WQ);
  for (int j = 0; j < np; ++j) {
    capdae_point_slots *s = &d->ps[j];
    int R = 3 * j, V = np3 + 3 * j, L = d->loff + m->ns + j;
    dia(w, R, R, 3, s->rr);
    dia(w, R, V, 3, s->rv);
    dia(w, V, V, 3, s->vv);
    blk(w, V, 3, R, 3, s->vr);  /* contact reaction on the point */
    blk(w, V, 3, P, 3, s->vP);
    blk(w, V, 3, Q, 4, s->vQ);
    blk(w, V, 3, L, 1, s->vL);
    blk(w, U, 3, R, 3, s->Ur);  /* ... and on the body */
    blk(w, U, 3, L, 1, s->UL);
    blk(w, W, 3, R, 3, s->Wr);
    blk(w, W, 3, L, 1, s->WL);
    blk(w, L, 1, R, 3, s->lr);  /* contact row */
    blk(w, L, 1, V, 3, s->lv);
    blk(w, L, 1, P, 3, s->lP);
    blk(w, L, 1, U, 3, s->lU);
    blk(w, L, 1, Q, 4, s->lQ);
    blk(w, L, 1, W, 3, s->lW);
    blk(w, L, 1, L, 1, &s->ll);
  }
  for (int k = 0; k < m->ns; ++k) {
    capdae_string_slots *s = &d->ss[k];
    int i = m->net->s[k].i, j = m->net->s[k].j, L = d->loff + k;
    int Ri = 3 * i, Rj = 3 * j, Vi = np3 + 3 * i, Vj = np3 + 3 * j;
    dia(w, Vi, Ri, 3, s->vi_ri);
    dia(w, Vi, Rj, 3, s->vi_rj);
    dia(w, Vj, Ri, 3, s->vj_ri);
    dia(w, Vj, Rj, 3, s->vj_rj);
    blk(w, Vi, 3, L, 1, s->vi_l);
    blk(w, Vj, 3, L, 1, s->vj_l);
    blk(w, L, 1, Ri, 3, s->l_ri);
    blk(w, L, 1, Rj, 3, s->l_rj);
    blk(w, L, 1, Vi, 3, s->l_vi);
    blk(w, L, 1, Vj, 3, s->l_vj);
    blk(w, L, 1, L, 1, &s->l_l);
  }
  return w->err;
}

/* ---- values --------------------------------------------------------------- */

/* Contact of point j with its current face: the reaction G^T lambda on the
 * point, the body's translation and rotation, and (an acceleration row,
 * capdae_acceleration_row) the row
 * s_k [ -2 s sigma - 2 s'^2 - 4 xi w s s' + w^2 (1 - s^2) ]. */
static void contact_jac(const capture_model *m, const double *dC, double cj,
                        const double *y, const double *yp, int j, double *vals) {
  const struct capture_dae *d = m->dae;
  const capdae_point_slots *S = &d->ps[j];
  const capdae_body_slots *B = &d->bs;
  const double *bs = &y[m->boff], *bp = &yp[m->boff], *C = m->C;
  const double *A = &m->body->A[3 * m->face[j]], *w = &bs[MBDAE_RB_W], *wp = &bp[MBDAE_RB_W];
  int np3 = 3 * m->np;
  double lam = y[d->loff + m->ns + j];
  double rho[3], vr[3], ar[3];
  for (int c = 0; c < 3; ++c) {
    rho[c] = y[3 * j + c] - bs[MBDAE_RB_P + c];
    vr[c] = y[np3 + 3 * j + c] - bs[MBDAE_RB_U + c];
    ar[c] = yp[np3 + 3 * j + c] - bp[MBDAE_RB_U + c];
  }
  double b[3], rhoB[3], axr[3];
  mul(C, A, b);
  mult(C, rho, rhoB);
  cross3(A, rhoB, axr);
  double s = dot3(b, rho);
  /* d/dq_k through C(q/|q|): db_k = dC_k A, drho_B,k = dC_k^T rho */
  double db[4][3], drhoB[4][3], dsq[4];
  for (int k = 0; k < 4; ++k) {
    mul(&dC[9 * k], A, db[k]);
    mult(&dC[9 * k], rho, drhoB[k]);
    dsq[k] = dot3(db[k], rho);
  }
  /* reaction: +2 lam s b on v_j, -2 lam s b on U, +2 lam s (A x rho_B) on w */
  double l2 = 2.0 * lam;
  for (int a = 0; a < 3; ++a) {
    vals[S->vL[a]] += 2.0 * s * b[a];
    vals[S->UL[a]] -= 2.0 * s * b[a];
    vals[S->WL[a]] += 2.0 * s * axr[a];
  }
  /* d(A x rho_B)/dr = [A]x C^T: column c is A x (row c of C) */
  double AxCt[9];
  for (int c = 0; c < 3; ++c) {
    double o[3];
    cross3(A, &C[3 * c], o);
    for (int a = 0; a < 3; ++a) AxCt[3 * a + c] = o[a];
  }
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) {
      double vb = l2 * b[a] * b[c];
      double wb = l2 * (axr[a] * b[c] + s * AxCt[3 * a + c]);
      vals[S->vr[3 * a + c]] += vb;
      vals[S->vP[3 * a + c]] -= vb;
      vals[S->Ur[3 * a + c]] -= vb;
      vals[B->UP[3 * a + c]] += vb;
      vals[S->Wr[3 * a + c]] += wb;
      vals[B->WP[3 * a + c]] -= wb;
    }
  for (int k = 0; k < 4; ++k) {
    double axd[3];
    cross3(A, drhoB[k], axd);
    for (int a = 0; a < 3; ++a) {
      double vq = l2 * (dsq[k] * b[a] + s * db[k][a]);
      vals[S->vQ[4 * a + k]] += vq;
      vals[B->UQ[4 * a + k]] -= vq;
      vals[B->WQ[4 * a + k]] += l2 * (dsq[k] * axr[a] + s * axd[a]);
    }
  }
  if (!capdae_acceleration_row(m, m->ns + j)) {
    vals[S->ll] += 1.0;
    return;
  }
  /* acceleration row: Phi(s, s', sigma), sigma = A.ar_B + (a2 + a3).rho_B + 2 a1.vr_B */
  double xi = m->p.xi_body, wn = m->p.omega_body, sc = capdae_row_scale(m, m->ns + j);
  double a1[3], a2[3], a3[3], a23[3], vrB[3], arB[3];
  cross3(w, A, a1);
  cross3(wp, A, a2);
  cross3(w, a1, a3);
  for (int c = 0; c < 3; ++c) a23[c] = a2[c] + a3[c];
  mult(C, vr, vrB);
  mult(C, ar, arB);
  double sd = dot3(A, vrB) + dot3(a1, rhoB);
  double sig = dot3(A, arB) + dot3(a23, rhoB) + 2.0 * dot3(a1, vrB);
  double al_s = -2.0 * sig - 4.0 * xi * wn * sd - 2.0 * wn * wn * s;
  double al_d = -4.0 * sd - 4.0 * xi * wn * s;
  double al_g = -2.0 * s;
  double bd[3], c23[3];
  mul(C, a1, bd);
  mul(C, a23, c23);
  /* dsigma/dw = 2 A x vr_B + A (w.rho_B) + rho_B (w.A) - 2 (A.rho_B) w */
  double axv[3], dsw[3];
  cross3(A, vrB, axv);
  double wr = dot3(w, rhoB), wa = dot3(w, A);
  for (int c = 0; c < 3; ++c) dsw[c] = 2.0 * axv[c] + A[c] * wr + rhoB[c] * wa - 2.0 * s * w[c];
  for (int c = 0; c < 3; ++c) {
    double dr = sc * (al_s * b[c] + al_d * bd[c] + al_g * c23[c]);
    double dv = sc * (al_d * b[c] + al_g * (2.0 * bd[c] + cj * b[c]));
    vals[S->lr[c]] += dr;
    vals[S->lP[c]] -= dr;
    vals[S->lv[c]] += dv;
    vals[S->lU[c]] -= dv;
    vals[S->lW[c]] += sc * (al_d * axr[c] + al_g * (dsw[c] + cj * axr[c]));
  }
  for (int k = 0; k < 4; ++k) {
    const double *Dk = &dC[9 * k];
    double dsd = bilin(Dk, vr, A) + bilin(Dk, rho, a1);
    double dsg = bilin(Dk, ar, A) + bilin(Dk, rho, a23) + 2.0 * bilin(Dk, vr, a1);
    vals[S->lQ[k]] += sc * (al_s * dsq[k] + al_d * dsd + al_g * dsg);
  }
}

/* String k (phi = S.S - L^2, G = [-2S on v_i, 2S on v_j]): reaction and,
 * taut (and forced, with unilateral forces), the row (1/(2L)) (2 S.(v_j' - v_i') + 2 W.W + 4 xi w S.W + w^2 phi). */
static void string_jac(const capture_model *m, double cj, const double *y, const double *yp,
                       int k, double *vals) {
  const struct capture_dae *d = m->dae;
  const capdae_string_slots *q = &d->ss[k];
  int i = m->net->s[k].i, j = m->net->s[k].j, np3 = 3 * m->np;
  double lam = y[d->loff + k], S[3], W[3], Ap[3];
  for (int c = 0; c < 3; ++c) {
    S[c] = y[3 * j + c] - y[3 * i + c];
    W[c] = y[np3 + 3 * j + c] - y[np3 + 3 * i + c];
    Ap[c] = yp[np3 + 3 * j + c] - yp[np3 + 3 * i + c];
  }
  double l2 = 2.0 * lam;
  for (int c = 0; c < 3; ++c) {
    vals[q->vj_rj[c]] -= l2;
    vals[q->vj_ri[c]] += l2;
    vals[q->vi_rj[c]] += l2;
    vals[q->vi_ri[c]] -= l2;
    vals[q->vj_l[c]] -= 2.0 * S[c];
    vals[q->vi_l[c]] += 2.0 * S[c];
  }
  if (!capdae_acceleration_row(m, k)) {
    vals[q->l_l] += 1.0;
    return;
  }
  double xi = m->p.xi_string, wn = m->p.omega_string, sc = capdae_row_scale(m, k);
  for (int c = 0; c < 3; ++c) {
    double dr = sc * (2.0 * Ap[c] + 4.0 * xi * wn * W[c] + 2.0 * wn * wn * S[c]);
    double dv = sc * (4.0 * W[c] + 4.0 * xi * wn * S[c] + 2.0 * cj * S[c]);
    vals[q->l_rj[c]] += dr;
    vals[q->l_ri[c]] -= dr;
    vals[q->l_vj[c]] += dv;
    vals[q->l_vi[c]] -= dv;
  }
}

int capdae_jacobian(double t, double cj, const double *y, const double *yp,
                    double *vals, void *ud) {
  (void)t;
  capture_model *m = ud;
  const struct capture_dae *d = m->dae;
  const capdae_body_slots *B = &d->bs;
  capture_rows(m, y); /* C(q), faces of free points, modes' rows */
  const double *bs = &y[m->boff], *q = &bs[MBDAE_RB_Q], *w = &bs[MBDAE_RB_W];
  const double *J = m->body->J;
  double dC[36];
  mbdae_rb_rotation_dq(q, dC);
  for (int a = 0; a < 3; ++a) {
    vals[B->PP[a]] += cj;
    vals[B->PU[a]] -= 1.0;
    vals[B->UU[a]] += cj * m->body->mass;
  }
  /* q' - 1/2 q (x) (0, w): Dq = d(q (x) w)/dq / 2, Dw = d/dw / 2 */
  const double Dq[16] = {0, -w[0], -w[1], -w[2], w[0], 0, w[2], -w[1],
                         w[1], -w[2], 0, w[0], w[2], w[1], -w[0], 0};
  const double Dw[12] = {-q[1], -q[2], -q[3], q[0], -q[3], q[2],
                         q[3], q[0], -q[1], -q[2], q[1], q[0]};
  for (int a = 0; a < 4; ++a) {
    vals[B->QQ[5 * a]] += cj;
    for (int c = 0; c < 4; ++c) vals[B->QQ[4 * a + c]] -= 0.5 * Dq[4 * a + c];
    for (int c = 0; c < 3; ++c) vals[B->QW[3 * a + c]] -= 0.5 * Dw[3 * a + c];
  }
  /* J w' + w x J w: cj J + [w]x J - [J w]x */
  double h[3], wx[9] = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
  mul(J, w, h);
  double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 3; ++c) {
      double wJ = wx[3 * a] * J[c] + wx[3 * a + 1] * J[3 + c] + wx[3 * a + 2] * J[6 + c];
      vals[B->WW[3 * a + c]] += cj * J[3 * a + c] + wJ - hx[3 * a + c];
    }
  for (int j = 0; j < m->np; ++j) {
    const capdae_point_slots *S = &d->ps[j];
    double mj = 1.0 / m->minv[j];
    for (int a = 0; a < 3; ++a) {
      vals[S->rr[a]] += cj;
      vals[S->rv[a]] -= 1.0;
      vals[S->vv[a]] += cj * mj;
    }
    contact_jac(m, dC, cj, y, yp, j, vals);
  }
  for (int k = 0; k < m->ns; ++k) string_jac(m, cj, y, yp, k, vals);
  return 0;
}

static int dense_jacobian(double t, double cj, const double *y, const double *yp,
                          double *out, void *ud) {
  capture_model *m = ud;
  struct capture_dae *d = m->dae;
  mbdae_index nnz = sn_pattern_nnz(d->pat);
  memset(d->jac_vals, 0, (size_t)nnz * sizeof *d->jac_vals);
  int rc = capdae_jacobian(t, cj, y, yp, d->jac_vals, ud);
  if (rc) return rc;
  const mbdae_index *cp = sn_pattern_colptr(d->pat), *ri = sn_pattern_rowind(d->pat);
  for (int c = 0; c < d->n; ++c)
    for (mbdae_index a = cp[c]; a < cp[c + 1]; ++a) out[(size_t)c * d->n + ri[a]] += d->jac_vals[a];
  return 0;
}

int capdae_jacobian_setup(capture_model *m) {
  struct capture_dae *d = m->dae;
  d->pat = sn_pattern_create(d->n);
  d->ps = calloc((size_t)m->np, sizeof *d->ps);
  d->ss = calloc(m->ns > 0 ? (size_t)m->ns : 1, sizeof *d->ss);
  if (!d->pat || !d->ps || !d->ss) return MBDAE_ERR_MEMORY;
  walker w = {d->pat, 0, 0};
  int rc = walk(m, &w);
  if (!rc) rc = sn_pattern_finalize(d->pat);
  if (rc) return rc;
  w.bind = 1;
  rc = walk(m, &w);
  if (rc) return rc;
  mbdae_index nnz = sn_pattern_nnz(d->pat);
  d->jac_vals = malloc((size_t)nnz * sizeof *d->jac_vals);
  if (!d->jac_vals) return MBDAE_ERR_MEMORY;
  rc = mbdae_problem_set_jacobian_sparse(m->problem, nnz, sn_pattern_colptr(d->pat),
                                         sn_pattern_rowind(d->pat), capdae_jacobian);
  /* the dense callback scatters the same values (n^2 doubles: small nets) */
  if (!rc && d->n <= 4000) rc = mbdae_problem_set_jacobian_dense(m->problem, dense_jacobian);
  return rc;
}
