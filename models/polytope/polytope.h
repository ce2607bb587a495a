/* polytope.h - convex polytope bodies from vertex sets (capps sec. 2.4, 3.4).
 *
 * A body is stored in its body frame with the origin at the centre of mass.
 * Face p is the plane A_p^T X = 1 (capps eq. 2.44), A_p computed from three of
 * its vertices (eq. 3.4); the origin is strictly inside, so every A_p is
 * finite and points outwards. A point X lies inside iff A_p^T X < 1 for all p;
 * the face a ray from the centre meets first is the one with the smallest
 * positive r_p = |X| / A_p^T X (sec. 3.4.2), i.e. the largest A_p^T X. */
#ifndef MBDAE_POLYTOPE_H
#define MBDAE_POLYTOPE_H

#include <stddef.h>

typedef struct mbdae_polytope {
  int nv;              /* vertices */
  int nf;              /* faces */
  double *v;           /* nv x 3, body frame, relative to the centre of mass */
  double *A;           /* nf x 3 plane vectors (eq. 2.44) */
  int *face_start;     /* nf + 1 offsets into face_vert */
  int *face_vert;      /* vertex loops, counter-clockwise seen from outside */
  double volume;
  double mass;
  double J[9];         /* inertia tensor about the centre of mass, body frame */
  double Jinv[9];
} mbdae_polytope;

/* Why a vertex set was rejected (for the caller's parameter error). */
enum {
  MBDAE_POLYTOPE_OK = 0,
  MBDAE_POLYTOPE_TOO_FEW = 1,      /* fewer than 4 vertices */
  MBDAE_POLYTOPE_DUPLICATE = 2,    /* two vertices coincide */
  MBDAE_POLYTOPE_FLAT = 3,         /* all vertices (nearly) coplanar */
  MBDAE_POLYTOPE_NONCONVEX = 4,    /* a vertex is not a corner of the hull */
  MBDAE_POLYTOPE_ORIGIN = 5,       /* the centre of mass is not strictly inside */
  MBDAE_POLYTOPE_MASS = 6,         /* mass <= 0 or inertia not positive definite */
  MBDAE_POLYTOPE_NOT_FINITE = 7
};

/* Build from nv vertices (row-major nv x 3). With J == NULL the body is a
 * uniform-density solid of the given mass: the vertices are shifted so the
 * origin is the centroid and the inertia is computed from the shape. With J
 * given (3x3 row-major, symmetric positive definite) the vertices are taken
 * as relative to the centre of mass as they are. Returns a negative status
 * (MBDAE_ERR_PARAMETER / MBDAE_ERR_MEMORY) and sets *why and, for
 * NONCONVEX/DUPLICATE, *bad_vertex. */
int mbdae_polytope_create(const double *verts, int nv, double mass,
                          const double *J, mbdae_polytope **out, int *why,
                          int *bad_vertex);
void mbdae_polytope_free(mbdae_polytope **p);

/* One-line reason for a rejection code (static string). */
const char *mbdae_polytope_reason(int why);

/* Vertex generators (caller-provided arrays). Right N-gonal prism, axis z,
 * polygon inscribed in a circle of radius r, length len (capps sec. 3.4.1):
 * 2N vertices. Box of edge lengths a, b, c centred at the origin: 8. */
int mbdae_polytope_prism_vertices(int N, double r, double len, double *verts);
void mbdae_polytope_box_vertices(double a, double b, double c, double *verts);

/* Face of body-frame point X: the p maximising A_p^T X (smallest positive
 * r_p, sec. 3.4.2). *s receives max A_p^T X (> 1 outside, < 1 inside). */
int mbdae_polytope_face_of(const mbdae_polytope *p, const double *X, double *s);
/* Largest A_q^T X over q != p (for face-switch roots). */
double mbdae_polytope_second_max(const mbdae_polytope *p, const double *X, int face);

#endif
