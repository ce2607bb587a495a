/* compliant_contact.c - Hunt-Crossley point-polytope contact with
 * regularised Coulomb friction and its Jacobian (compliant_contact.h). */
#include "capture/compliant_contact.h"

#include <math.h>
#include <string.h>

#include "polytope/rigid_body.h"

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* x = C^T y */
static void mult(const double *C, const double *y, double *x) {
  for (int c = 0; c < 3; ++c) x[c] = C[c] * y[0] + C[3 + c] * y[1] + C[6 + c] * y[2];
}

double cc_body_radius(const mbdae_polytope *body) {
  double r2 = 0.0;
  for (int i = 0; i < body->nv; ++i) r2 = fmax(r2, dot3(&body->v[3 * i], &body->v[3 * i]));
  return sqrt(r2);
}

/* depth below the nearest face of body-frame point rho, and that face */
static double nearest_face(const mbdae_polytope *body, const double *rho, int *face) {
  double d = HUGE_VAL;
  int f = 0;
  for (int q = 0; q < body->nf; ++q) {
    const double *A = &body->A[3 * q];
    double dq = (1.0 - dot3(A, rho)) / sqrt(dot3(A, A));
    if (dq < d) d = dq, f = q;
  }
  *face = f;
  return d;
}

double cc_point_depth(const mbdae_polytope *body, const double C[9], const double *r,
                      const double *P, int *face) {
  double rel[3] = {r[0] - P[0], r[1] - P[1], r[2] - P[2]}, rho[3];
  int f;
  mult(C, rel, rho);
  double d = nearest_face(body, rho, &f);
  if (face) *face = f;
  return d;
}

/* out (3 x CC_NCOL) += M (3x3) * in (3 x CC_NCOL) */
static void mat_mul_add(const double *M, const double *in, double *out) {
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      double mik = M[3 * i + k];
      if (mik == 0.0) continue;
      for (int j = 0; j < CC_NCOL; ++j) out[i * CC_NCOL + j] += mik * in[k * CC_NCOL + j];
    }
}

static void skew(const double *a, double *S) { /* S x = a x x */
  S[0] = 0.0;   S[1] = -a[2]; S[2] = a[1];
  S[3] = a[2];  S[4] = 0.0;   S[5] = -a[0];
  S[6] = -a[1]; S[7] = a[0];  S[8] = 0.0;
}

int cc_point_contact(const cc_law *law, const mbdae_polytope *body, double rmax,
                     const double C[9], const double dC[36], const double *r,
                     const double *v, const double *bs, int jac, cc_result *out) {
  memset(out, 0, sizeof *out);
  const double *P = &bs[MBDAE_RB_P], *U = &bs[MBDAE_RB_U], *om = &bs[MBDAE_RB_W];
  double rel[3] = {r[0] - P[0], r[1] - P[1], r[2] - P[2]};
  if (dot3(rel, rel) > rmax * rmax) return 0;
  double rho[3];
  int f;
  mult(C, rel, rho);
  double d = nearest_face(body, rho, &f);
  if (!(d > 0.0)) return 0;
  out->depth = d;
  out->face = f;
  const double *A = &body->A[3 * f];
  double an = sqrt(dot3(A, A)), n[3] = {A[0] / an, A[1] / an, A[2] / an};
  double wv[3] = {v[0] - U[0], v[1] - U[1], v[2] - U[2]}, w[3];
  mult(C, wv, w);
  w[0] += rho[1] * om[2] - rho[2] * om[1]; /* + rho x omega */
  w[1] += rho[2] * om[0] - rho[0] * om[2];
  w[2] += rho[0] * om[1] - rho[1] * om[0];
  double vn = dot3(n, w);
  double gd, gv;
  double fn = hc_force(&law->normal, d, -vn, &gd, &gv);
  out->fn = fn;
  double wt[3] = {w[0] - vn * n[0], w[1] - vn * n[1], w[2] - vn * n[2]};
  double s = sqrt(dot3(wt, wt) + law->v_eps * law->v_eps);
  double g[3], Fb[3];
  for (int c = 0; c < 3; ++c) {
    g[c] = n[c] - law->mu * wt[c] / s;
    Fb[c] = fn * g[c];
  }
  for (int c = 0; c < 3; ++c) out->F[c] = C[3 * c] * Fb[0] + C[3 * c + 1] * Fb[1] + C[3 * c + 2] * Fb[2];
  out->tau[0] = -(rho[1] * Fb[2] - rho[2] * Fb[1]);
  out->tau[1] = -(rho[2] * Fb[0] - rho[0] * Fb[2]);
  out->tau[2] = -(rho[0] * Fb[1] - rho[1] * Fb[0]);
  if (!jac || fn == 0.0) return 1;
  /* fn = hc(d, d') with d = 1/|A| - n.rho and d' = -n.w, g = n - mu wt/s:
   * dF_b/drho = -gd g n^T, dF_b/dw = -gv g n^T - mu fn (P_t - wt wt^T/s^2)/s */
  double Frho[9], Fw[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double Pt = (i == j) - n[i] * n[j];
      Frho[3 * i + j] = -gd * g[i] * n[j];
      Fw[3 * i + j] = -gv * g[i] * n[j] - law->mu * fn * (Pt - wt[i] * wt[j] / (s * s)) / s;
    }
  /* drho/dx and dw/dx (3 x 19) */
  double drho[3 * CC_NCOL], dw[3 * CC_NCOL];
  memset(drho, 0, sizeof drho);
  memset(dw, 0, sizeof dw);
  double Om[9], Rh[9];
  skew(om, Om);
  skew(rho, Rh);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double Ct = C[3 * j + i]; /* (C^T)_ij */
      drho[i * CC_NCOL + CC_COL_R + j] = Ct;
      drho[i * CC_NCOL + CC_COL_P + j] = -Ct;
      dw[i * CC_NCOL + CC_COL_V + j] = Ct;
      dw[i * CC_NCOL + CC_COL_U + j] = -Ct;
      dw[i * CC_NCOL + CC_COL_W + j] = Rh[3 * i + j];
      double OC = 0.0; /* ([omega]x C^T)_ij */
      for (int k = 0; k < 3; ++k) OC += Om[3 * i + k] * C[3 * j + k];
      dw[i * CC_NCOL + CC_COL_R + j] = -OC;
      dw[i * CC_NCOL + CC_COL_P + j] = OC;
    }
  for (int k = 0; k < 4; ++k) {
    const double *dCk = &dC[9 * k];
    double a[3], b[3];
    mult(dCk, rel, a); /* dC_k^T rel */
    mult(dCk, wv, b);  /* dC_k^T (v - U) */
    for (int i = 0; i < 3; ++i) {
      drho[i * CC_NCOL + CC_COL_Q + k] = a[i];
      dw[i * CC_NCOL + CC_COL_Q + k] = b[i] - (Om[3 * i] * a[0] + Om[3 * i + 1] * a[1] + Om[3 * i + 2] * a[2]);
    }
  }
  double dFb[3 * CC_NCOL];
  memset(dFb, 0, sizeof dFb);
  mat_mul_add(Frho, drho, dFb);
  mat_mul_add(Fw, dw, dFb);
  /* F = C F_b; tau = [F_b]x rho - [rho]x F_b' */
  mat_mul_add(C, dFb, out->dF);
  for (int k = 0; k < 4; ++k) {
    const double *dCk = &dC[9 * k];
    for (int i = 0; i < 3; ++i)
      out->dF[i * CC_NCOL + CC_COL_Q + k] +=
          dCk[3 * i] * Fb[0] + dCk[3 * i + 1] * Fb[1] + dCk[3 * i + 2] * Fb[2];
  }
  double Fx[9], mRh[9];
  skew(Fb, Fx);
  for (int i = 0; i < 9; ++i) mRh[i] = -Rh[i];
  mat_mul_add(Fx, drho, out->dtau);
  mat_mul_add(mRh, dFb, out->dtau);
  return 1;
}
