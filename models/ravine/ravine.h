/* ravine.h - a sphere bouncing, sliding and rolling on piecewise-planar
 * terrain (hartl-2006): parameters, terrain, Kane's impact law, the contact
 * dynamics. Internal to models/ravine and its tests.
 *
 * Convention (doc/ravine.md): x = n1 horizontal to the right, y = n2 up,
 * z = n3 = n1 x n2 out of the page; rotations right-handed, so a spin
 * omega_z > 0 is counter-clockwise seen from +z and rolling to the right
 * without slip means omega_z = -v_x / b (hartl eq. 2.51, sec. 4.1). */
#ifndef RAVINE_H
#define RAVINE_H

#include "mbdae/model.h"
#include "mbdae/status.h"

/* Scenario parameters (filled by the driver from the schema). */
typedef struct ravine_params {
  double b, m, J_ratio, J_over_m, e, mu, mu_k, g;
  int terrain;                 /* 0 valley, 1 polyline */
  double beta_deg, theta_deg, dh, pl, x_edge;
  double *points;              /* polyline vertices, npoints x 2 */
  int npoints;
  int start;                   /* 0 rolling on the terrain at x0, 1 free (q, u) */
  double x0, speed;
  double q[3];                 /* free start: centre position (n frame) */
  double u[6];                 /* free start: u1..u3 = omega, u4..u6 = v (n frame) */
  int stop_on_rebound;
  double v_rest;               /* post-impact normal speed below which contact persists */
} ravine_params;

/* Resolution of the gap roots, in units of b: the grazing bias, and the
 * Zeno rule's smallest hop (a rebound whose hop v^2/(2 g n_y) stays below
 * it ends in contact, so the rule stops bouncing at a separation speed of
 * max(v_rest, sqrt(2 g n_y RAVINE_GAP_RESOLUTION b)); doc/ravine.md sec. 6). */
#define RAVINE_GAP_RESOLUTION 1e-6

/* Piecewise-planar terrain in the x-y plane, extruded along z. Segment k
 * joins vertex k to k+1; the first and last segments extend as rays. */
typedef struct ravine_terrain {
  int nv, nseg;
  double *vx, *vy;            /* vertices */
  double *tx, *ty, *nx, *ny;  /* unit tangent (to the right) and normal (up) per segment */
  double *len;                /* segment lengths */
  int *convex;                /* per vertex: 1 convex (ground bends down), 0 concave/end */
  double y_top;               /* height of the starting ground (vertex 0) */
  double x_goal;              /* crossing: centre passes the last vertex */
  double x_climb;             /* the rightmost lowest vertex: the climb region is x > x_climb - b */
} ravine_terrain;

/* Build the terrain from the parameters; on error fill err (key + why). */
int ravine_terrain_build(const ravine_params *p, ravine_terrain *T,
                         mbdae_param_error *err);
void ravine_terrain_free(ravine_terrain *T);
/* Closest point of segment k (rays for the end segments) to (x, y) and which
 * part it is: -1 start vertex, 0 interior, +1 end vertex. Returns the
 * distance, negative when (x, y) lies below the terrain. */
double ravine_segment_distance(const ravine_terrain *T, int k, double x, double y,
                               double *px, double *py, int *part);
/* Terrain height below x (the segment whose x-range contains x). */
double ravine_terrain_height(const ravine_terrain *T, double x, int *seg);

/* Kane's collision (hartl ch. 2) in the contact frame (c1 tangent, c2
 * normal, c3 = c1 x c2): u[0..2] angular, u[3..5] linear generalized speeds
 * at t1; writes those at t2 and the impulse S (in the same frame). Returns 1
 * for the no-slip solution (2.59-2.65), 0 for slip (2.66-2.81), -1 if the
 * sphere is not approaching (u5 >= 0: nothing applied). */
typedef struct ravine_sphere {
  double b, m, J, e, mu, mu_k;
} ravine_sphere;
int ravine_kane_impact(const ravine_sphere *s, const double u1[6], double u2[6],
                       double S[3]);

/* Contact dynamics: which feature the sphere touches. */
typedef enum { RAVINE_FLIGHT = 0, RAVINE_ROLL = 1, RAVINE_SLIDE = 2 } ravine_mode;

typedef struct ravine_contact {
  ravine_mode mode;
  int vertex;      /* 1: pivot about vertex `feature`; 0: plane of segment `feature` */
  int feature;
  double sref[3];  /* SLIDE: reference slip direction (used while the slip is ~0) */
} ravine_contact;

/* Accelerations for state y = [c(3), v(3), omega(3)] in the given contact.
 * out = dy/dt; jac (may be NULL) = df/dy column-major 9x9 (forward-mode
 * differentiation of the same expressions). N (may be NULL) = normal force,
 * F (may be NULL) = tangential contact force, slip (may be NULL) = tangential
 * slip velocity of the contact point. */
void ravine_dynamics(const ravine_sphere *s, double g, const ravine_terrain *T,
                     const ravine_contact *c, double lambda, const double *y,
                     double *out, double *jac, double *N, double F[3],
                     double slip[3]);

/* Frame of a contact at state y: normal n and tangent t = n x z (in-plane),
 * and the gap (distance - b). */
void ravine_contact_frame(const ravine_terrain *T, const ravine_contact *c,
                          double b, const double *y, double n[3], double t[3],
                          double *gap);

/* An instance's terrain and sphere (ravine_model.c), e.g. for drawing it. */
const ravine_terrain *ravine_model_terrain(const mbdae_model *model);
const ravine_sphere *ravine_model_sphere(const mbdae_model *model);

extern const mbdae_model_kind mbdae_model_ravine;

#endif
