/* boundary.h - the billiard's boundary curve q2 = f(s) in the frame moving
 * with the drive (s = q1 - dq1(t)), and the closest point of the curve to the
 * ball's centre (hartl-miller-mazzoleni §IV, eq. 9).
 *
 * A curve is one or more smooth pieces, each on a closed interval of s: the
 * parabola, hyperbola and polynomial are one piece on the whole line, the
 * wedge two straight arms meeting at the vertex (each arm is its own piece,
 * so the two contacts are separate root functions). */
#ifndef BILLIARD_BOUNDARY_H
#define BILLIARD_BOUNDARY_H

#define BILLIARD_POLY_LEN 9 /* polynomial coefficients c0 .. c8 */
#define BILLIARD_MAX_PIECES 2

typedef enum {
  BILLIARD_PARABOLA = 0,   /* f = a s^2 + c                      (eq. 9a) */
  BILLIARD_WEDGE = 1,      /* f = k |s| + c                      (eq. 9b) */
  BILLIARD_HYPERBOLA = 2,  /* f = sqrt(alpha (1 + beta s^2)) - delta (eq. 9c) */
  BILLIARD_POLYNOMIAL = 3  /* f = sum_i p_i s^i (scenario-defined) */
} billiard_shape;

typedef struct billiard_curve {
  billiard_shape shape;
  double a, c;                    /* parabola: a, c; wedge: c */
  double k;                       /* wedge slope */
  double alpha, beta, delta;      /* hyperbola */
  double poly[BILLIARD_POLY_LEN]; /* polynomial */
} billiard_curve;

/* The closest point of one piece to a point (xi, y) of the moving frame. */
typedef struct billiard_foot {
  double s;        /* curve parameter of the closest point */
  double dist;     /* signed distance: > 0 on the inner (upper) side */
  double nx, ny;   /* unit contact normal, pointing into the billiard */
  int interior;    /* 1: a stationary point of the distance, 0: a piece end */
  int iterations;  /* Newton iterations spent */
} billiard_foot;

int billiard_curve_npieces(const billiard_curve *c);
/* Domain [lo, hi] of a piece (infinite ends are +-HUGE_VAL). */
void billiard_curve_domain(const billiard_curve *c, int piece, double *lo,
                           double *hi);
/* f, f', f'' of a piece at s (the wedge's arms are extended as lines). */
void billiard_curve_eval(const billiard_curve *c, int piece, double s,
                         double *f, double *fp, double *fpp);
/* Height of the whole curve at s (the lower envelope of its pieces). */
double billiard_curve_height(const billiard_curve *c, double s);
/* Closest point of a piece to (xi, y): a bracketed, safeguarded Newton
 * iteration on phi(s) = (s - xi) + f'(s) (f(s) - y) = 0 inside the only
 * interval that can hold the global minimum, |s - xi| <= d0 with d0 the
 * distance to the curve point below/above the centre. Returns 0, or -1 on
 * a non-finite input. */
int billiard_closest(const billiard_curve *c, int piece, double xi, double y,
                     billiard_foot *out);
/* Largest curvature f''/(1+f'^2)^(3/2) of the (convex) pieces over
 * |s| <= halfwidth (0 for the straight wedge arms). */
double billiard_curve_max_curvature(const billiard_curve *c, double halfwidth);

#endif
