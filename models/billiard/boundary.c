/* boundary.c - boundary curves of eq. (9) and the closest-point search of
 * §IV (hartl-miller-mazzoleni). */
#include "billiard/boundary.h"

#include <math.h>
#include <stddef.h>

int billiard_curve_npieces(const billiard_curve *c) {
  return c->shape == BILLIARD_WEDGE ? 2 : 1;
}

void billiard_curve_domain(const billiard_curve *c, int piece, double *lo,
                           double *hi) {
  *lo = -HUGE_VAL;
  *hi = HUGE_VAL;
  if (c->shape == BILLIARD_WEDGE) {
    if (piece == 0) *hi = 0.0; /* left arm s <= 0 */
    else *lo = 0.0;            /* right arm s >= 0 */
  }
}

void billiard_curve_eval(const billiard_curve *c, int piece, double s,
                         double *f, double *fp, double *fpp) {
  switch (c->shape) {
  case BILLIARD_PARABOLA: /* eq. 9a */
    *f = c->a * s * s + c->c;
    *fp = 2.0 * c->a * s;
    *fpp = 2.0 * c->a;
    break;
  case BILLIARD_WEDGE: { /* eq. 9b, one arm as a full line */
    double k = piece == 0 ? -c->k : c->k;
    *f = k * s + c->c;
    *fp = k;
    *fpp = 0.0;
    break;
  }
  case BILLIARD_HYPERBOLA: { /* eq. 9c: r = sqrt(alpha (1 + beta s^2)) */
    double r = sqrt(c->alpha * (1.0 + c->beta * s * s));
    double ab = c->alpha * c->beta;
    *f = r - c->delta;
    *fp = ab * s / r;
    *fpp = ab / r - ab * ab * s * s / (r * r * r);
    break;
  }
  default: { /* polynomial by Horner, with its two derivatives */
    double p0 = 0.0, p1 = 0.0, p2 = 0.0;
    for (int i = BILLIARD_POLY_LEN - 1; i >= 0; --i) {
      p2 = p2 * s + 2.0 * p1;
      p1 = p1 * s + p0;
      p0 = p0 * s + c->poly[i];
    }
    *f = p0;
    *fp = p1;
    *fpp = p2;
    break;
  }
  }
}

double billiard_curve_height(const billiard_curve *c, double s) {
  double f, fp, fpp;
  if (c->shape == BILLIARD_WEDGE) return c->k * fabs(s) + c->c;
  billiard_curve_eval(c, 0, s, &f, &fp, &fpp);
  return f;
}

/* Squared distance and the stationarity function phi = D'/2. */
static void dist_phi(const billiard_curve *c, int piece, double s, double xi,
                     double y, double *d2, double *phi, double *dphi) {
  double f, fp, fpp;
  billiard_curve_eval(c, piece, s, &f, &fp, &fpp);
  *d2 = (s - xi) * (s - xi) + (f - y) * (f - y);
  *phi = (s - xi) + fp * (f - y);
  if (dphi) *dphi = 1.0 + fp * fp + fpp * (f - y);
}

/* Safeguarded Newton on phi in [l, r] with phi(l) <= 0 <= phi(r). */
static double newton_bracketed(const billiard_curve *c, int piece, double xi,
                               double y, double l, double r, int *iters) {
  double s = 0.5 * (l + r);
  for (int it = 0; it < 100; ++it) {
    double d2, phi, dphi;
    dist_phi(c, piece, s, xi, y, &d2, &phi, &dphi);
    ++*iters;
    if (phi == 0.0) return s;
    if (phi < 0.0) l = s;
    else r = s;
    double sn = (dphi > 0.0) ? s - phi / dphi : 0.5 * (l + r);
    if (!(sn > l && sn < r)) sn = 0.5 * (l + r); /* Newton left the bracket */
    double step = fabs(sn - s);
    s = sn;
    if (step <= 4e-16 * (1.0 + fabs(s)) || r - l <= 4e-16 * (1.0 + fabs(s)))
      return s;
  }
  return s;
}

int billiard_closest(const billiard_curve *c, int piece, double xi, double y,
                     billiard_foot *out) {
  double lo, hi;
  if (!isfinite(xi) || !isfinite(y)) return -1;
  billiard_curve_domain(c, piece, &lo, &hi);
  /* The curve point nearest in s to xi bounds the distance from above, so
   * the global minimum lies in |s - xi| <= d0. */
  double s0 = xi < lo ? lo : (xi > hi ? hi : xi);
  double d2best, phi0;
  dist_phi(c, piece, s0, xi, y, &d2best, &phi0, NULL);
  double d0 = sqrt(d2best), sbest = s0;
  int iters = 0;
  double a = fmax(lo, xi - d0), b = fmin(hi, xi + d0);
  if (b > a) {
    enum { K = 8 }; /* sign changes of phi on a grid bracket each minimum */
    double sl = a, d2l, phil;
    dist_phi(c, piece, sl, xi, y, &d2l, &phil, NULL);
    if (d2l < d2best) { d2best = d2l; sbest = sl; }
    for (int i = 1; i <= K; ++i) {
      double sr = (i == K) ? b : a + (b - a) * i / K, d2r, phir;
      dist_phi(c, piece, sr, xi, y, &d2r, &phir, NULL);
      if (d2r < d2best) { d2best = d2r; sbest = sr; }
      if (phil <= 0.0 && phir >= 0.0 && !(phil == 0.0 && phir == 0.0)) {
        double sm = newton_bracketed(c, piece, xi, y, sl, sr, &iters), d2m, phim;
        dist_phi(c, piece, sm, xi, y, &d2m, &phim, NULL);
        if (d2m <= d2best) { d2best = d2m; sbest = sm; }
      }
      sl = sr;
      phil = phir;
    }
  }
  /* A minimum at an end of the piece (the wedge vertex) is a corner. */
  int interior = !(sbest == lo || sbest == hi);
  double f, fp, fpp;
  billiard_curve_eval(c, piece, sbest, &f, &fp, &fpp);
  double rx = xi - sbest, ry = y - f, rn = sqrt(rx * rx + ry * ry);
  double q = sqrt(1.0 + fp * fp), nx = -fp / q, ny = 1.0 / q;
  double side = rx * nx + ry * ny;
  /* The boundary is a graph over s: the billiard's side is y > f(xi) (for a
   * wedge arm, above the arm's line). Taking the sign from there keeps g's
   * sign right even far outside, where a coarse search could mislead it. */
  double fx, fpx, fppx;
  billiard_curve_eval(c, piece, xi, &fx, &fpx, &fppx);
  int inside = (y - fx) >= 0.0;
  out->s = sbest;
  out->dist = inside ? rn : -rn;
  if (!interior && rn > 0.0) { /* corner contact: normal along the radius */
    double sg = side >= 0.0 ? 1.0 : -1.0;
    nx = sg * rx / rn;
    ny = sg * ry / rn;
  }
  out->nx = nx;
  out->ny = ny;
  out->interior = interior;
  out->iterations = iters;
  return 0;
}

double billiard_curve_max_curvature(const billiard_curve *c, double halfwidth) {
  if (c->shape == BILLIARD_WEDGE) return 0.0;
  enum { N = 4001 };
  double kmax = 0.0;
  for (int i = 0; i < N; ++i) {
    double s = -halfwidth + 2.0 * halfwidth * i / (N - 1), f, fp, fpp;
    billiard_curve_eval(c, 0, s, &f, &fp, &fpp);
    double k = fpp / pow(1.0 + fp * fp, 1.5);
    if (k > kmax) kmax = k;
  }
  return kmax;
}
