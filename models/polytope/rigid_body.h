/* rigid_body.h - 6-DOF rigid body kinematics and Euler's equations
 * (capps eqs. 2.82-2.90), attitude as a quaternion.
 *
 * State (13 numbers): P (3, centre of mass, inertial), U = P' (3),
 * q = (q0, q1, q2, q3) (4, scalar first, body -> inertial), w (3, angular
 * velocity in BODY axes). Only the direction of q matters: the rotation is
 * computed from q/|q|, and q' = 1/2 q (x) (0, w) keeps |q| constant exactly,
 * so numerical drift of |q| never changes the geometry (no renormalisation
 * inside the integrator, no Euler-angle singularity). */
#ifndef MBDAE_RIGID_BODY_H
#define MBDAE_RIGID_BODY_H

enum { MBDAE_RB_P = 0, MBDAE_RB_U = 3, MBDAE_RB_Q = 6, MBDAE_RB_W = 10, MBDAE_RB_N = 13 };

/* Rotation matrix (row-major, x_inertial = C x_body) of q/|q|. */
void mbdae_rb_rotation(const double *q, double *C);
/* dC/dq_k (k = 0..3) of C(q/|q|), each row-major 3x3, into dC[9 k + ...]. */
void mbdae_rb_rotation_dq(const double *q, double *dC);
/* q' = 1/2 q (x) (0, w): qdot[4]. */
void mbdae_rb_quat_rate(const double *q, const double *w, double *qdot);
/* Euler's equations (eq. 2.86/2.90 in body axes): J w' = tau - w x J w.
 * Returns w' = Jinv (tau - w x J w). */
void mbdae_rb_euler(const double *J, const double *Jinv, const double *w,
                    const double *tau_body, double *wdot);
/* Derivatives for analytic Jacobians: dqdot/dq (4x4) and dqdot/dw (4x3),
 * row-major (q' is bilinear in q and w); dwdot/dw (3x3) of Euler's
 * equations at fixed torque: -Jinv ([w]x J - [J w]x). */
void mbdae_rb_quat_rate_jacobian(const double *q, const double *w, double *dq, double *dw);
void mbdae_rb_euler_jacobian(const double *J, const double *Jinv, const double *w,
                             double *dwdot_dw);
/* Angular momentum about the origin of the inertial frame:
 * m P x U + C J w. */
void mbdae_rb_angular_momentum(double m, const double *J, const double *s,
                               double *L);
/* Kinetic energy 1/2 m U.U + 1/2 w.J w. */
double mbdae_rb_kinetic_energy(double m, const double *J, const double *s);

#endif
