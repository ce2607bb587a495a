/* capture/compliant_contact.h - compliant contact of a point with a convex
 * polytope rigid body: Hunt-Crossley normal force and regularised Coulomb
 * friction, with its exact Jacobian (net_capture, mode: compliant).
 *
 * Geometry (body frame, polytope.h): rho = C^T (r - P); face f is the plane
 * A_f.rho = 1 with outward unit normal n_f = A_f/|A_f|; the depth below it is
 * d_f = (1 - A_f.rho)/|A_f|. The point penetrates by d = min_f d_f when
 * d > 0, along the face f* of the minimum (the nearest face; d is continuous,
 * the normal switches on the body's medial planes, deep inside only).
 * Relative velocity (body frame) w = C^T (v - U) + rho x omega, so
 * d' = -n.w exactly (the face moves with the body).
 *
 * Normal force f_n = max(0, k d^p (1 + a d')) (hunt_crossley.h), with a from
 * the requested restitution e at the reference speed v_ref. Friction:
 *     F_t = -mu f_n w_t / sqrt(|w_t|^2 + v_eps^2),   w_t = w - (n.w) n,
 * Coulomb's mu f_n for |w_t| >> v_eps, viscous (mu f_n / v_eps) below it;
 * v_eps is the regularisation velocity. Both vanish with f_n, so the force
 * is continuous at onset. The force on the point is F = C F_b with
 * F_b = f_n n - mu f_n w_t / s; the body takes -F at the point, i.e. the
 * torque tau_b = -rho x F_b about its centre (body axes). Linear and angular
 * momentum are conserved exactly; the undamped frictionless force derives
 * from the potential k d^(p+1)/(p+1). */
#ifndef MBDAE_CAPTURE_COMPLIANT_CONTACT_H
#define MBDAE_CAPTURE_COMPLIANT_CONTACT_H

#include "compliant/hunt_crossley.h"
#include "polytope/polytope.h"

typedef struct cc_law {
  hc_law normal; /* k (N/m^p), p, a (s/m) */
  double mu;     /* Coulomb coefficient (>= 0) */
  double v_eps;  /* friction regularisation velocity (m/s, > 0) */
} cc_law;

/* Columns of the Jacobian blocks: r (0..2), v (3..5) of the point, then the
 * body's P (6..8), U (9..11), q (12..15), omega (16..18, body axes). */
enum { CC_NCOL = 19, CC_COL_R = 0, CC_COL_V = 3, CC_COL_P = 6, CC_COL_U = 9,
       CC_COL_Q = 12, CC_COL_W = 16 };

typedef struct cc_result {
  double depth;          /* d (> 0: in contact) */
  double fn;             /* normal force (N) */
  int face;              /* f* */
  double F[3];           /* force on the point, inertial */
  double tau[3];         /* torque on the body about its centre, body axes */
  double dF[3 * CC_NCOL];   /* dF/dx (row-major 3 x 19), with jac */
  double dtau[3 * CC_NCOL]; /* dtau/dx, with jac */
} cc_result;

/* The contact of point (r, v) with the body in state bs = [P U q omega]
 * (rigid_body.h layout). C = rotation of q, dC = its 4 derivatives
 * (mbdae_rb_rotation_dq; needed only with jac). rmax: the largest vertex
 * radius (points beyond it are skipped). Returns 1 in contact (d > 0; the
 * force may still be 0 where the normal law is clamped), 0 otherwise (out
 * zeroed). */
int cc_point_contact(const cc_law *law, const mbdae_polytope *body, double rmax,
                     const double C[9], const double dC[36], const double *r,
                     const double *v, const double *bs, int jac, cc_result *out);

/* Depth of point r below the body's surface (> 0 inside), and the energy
 * k d^(p+1)/(p+1) stored in the contact. */
double cc_point_depth(const mbdae_polytope *body, const double C[9], const double *r,
                      const double *P, int *face);

/* Largest vertex radius of the body. */
double cc_body_radius(const mbdae_polytope *body);

#endif
