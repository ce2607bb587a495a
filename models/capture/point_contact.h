/* point_contact.h - unilateral contact of a point mass with a face of a
 * moving convex polytope (capps eqs. 2.50-2.58, 2.82-2.84, sec. 2.5).
 *
 * psi = 1 - (b_p^T rho)^2 (eq. 2.52), b_p = C A_p (eq. 2.53), rho = r - P
 * (eq. 2.23). The seed's sign: psi < 0 outside (free), psi = 0 on the face,
 * psi > 0 inside; the admissible set is psi <= 0.
 *
 * Velocities are u = (v, U, w): point velocity, body centre-of-mass velocity
 * and body angular velocity in BODY axes. With s = b^T rho:
 *   s'   = b^T (v - U) + (A x rho_B)^T w,       rho_B = C^T rho
 *   psi' = -2 s s' = G u,  G = -2 s [ b^T, -b^T, (A x rho_B)^T ]
 *   psi''= G u' + gamma,   gamma = -2 s'^2 - 2 s [2 (C (w x A))^T (v - U)
 *                                               + (C (w x (w x A)))^T rho]
 * so G^T mu is the whole reaction: -2 s mu b on the point, +2 s mu b on the
 * body and the body-axes torque rho_B x (2 s mu A) (doc/capture.md shows this
 * is the seed's F_R and L_R coupling). A pushing contact has mu < 0. */
#ifndef MBDAE_POINT_CONTACT_H
#define MBDAE_POINT_CONTACT_H

typedef struct mbdae_contact_kin {
  double s;          /* b^T rho (1 on the face, > 1 outside) */
  double psi;        /* 1 - s^2 */
  double b[3];       /* inertial plane vector C A_p */
  double rho_B[3];   /* rho in body axes */
  double Gv[3];      /* dpsi'/dv */
  double GU[3];      /* dpsi'/dU */
  double Gw[3];      /* dpsi'/dw (body axes) */
  double sdot;
  double psidot;
  double gamma;      /* psi'' - G u' */
} mbdae_contact_kin;

/* Kinematics of point (r, v) on face vector A (body axes) of a body with
 * rotation C (row-major), centre P, velocity U, body angular velocity w. */
void mbdae_contact_eval(const double *A, const double *C, const double *r,
                        const double *v, const double *P, const double *U,
                        const double *w, mbdae_contact_kin *k);

#endif
