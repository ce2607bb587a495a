/* point_contact.c - point / polytope-face contact kinematics
 * (capps eqs. 2.52-2.58 with the body's translation and rotation, sec. 2.5). */
#include "capture/point_contact.h"

static void cross3(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void mul(const double *C, const double *x, double *o) {
  for (int i = 0; i < 3; ++i) o[i] = C[3 * i] * x[0] + C[3 * i + 1] * x[1] + C[3 * i + 2] * x[2];
}
static void mult(const double *C, const double *x, double *o) {
  for (int i = 0; i < 3; ++i) o[i] = C[i] * x[0] + C[3 + i] * x[1] + C[6 + i] * x[2];
}

void mbdae_contact_eval(const double *A, const double *C, const double *r,
                        const double *v, const double *P, const double *U,
                        const double *w, mbdae_contact_kin *k) {
  double rho[3] = {r[0] - P[0], r[1] - P[1], r[2] - P[2]};
  double vr[3] = {v[0] - U[0], v[1] - U[1], v[2] - U[2]};
  mul(C, A, k->b);                 /* eq. 2.53 */
  mult(C, rho, k->rho_B);
  k->s = dot3(k->b, rho);
  k->psi = 1.0 - k->s * k->s;      /* eq. 2.52 */
  double axr[3];
  cross3(A, k->rho_B, axr);
  /* s' = b'rho + b rho', b' = C (w x A) (transport theorem, eq. 2.82) */
  k->sdot = dot3(k->b, vr) + dot3(axr, w);
  for (int i = 0; i < 3; ++i) {
    k->Gv[i] = -2.0 * k->s * k->b[i];
    k->GU[i] = 2.0 * k->s * k->b[i];
    k->Gw[i] = -2.0 * k->s * axr[i];
  }
  k->psidot = -2.0 * k->s * k->sdot; /* eq. 2.54 */
  /* b'' = C (w' x A + w x (w x A)): the w' part is in G, the rest in gamma.
   * (eq. 2.84 prints 2 w x w x; the transport theorem gives a factor 1.) */
  double wxA[3], wwA[3], bd[3], bdd[3];
  cross3(w, A, wxA);
  cross3(w, wxA, wwA);
  mul(C, wxA, bd);
  mul(C, wwA, bdd);
  double sdd0 = 2.0 * dot3(bd, vr) + dot3(bdd, rho);
  k->gamma = -2.0 * k->sdot * k->sdot - 2.0 * k->s * sdd0;
}
