/* ravine_terrain.c - piecewise-planar terrain: the thesis's valley (hartl
 * sec. 4.2: top ground, decline beta down dh, floor pl, incline theta back
 * up to the top ground) or any polyline, with its geometric checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ravine/ravine.h"

static const double RAVINE_PI = 3.14159265358979323846;

void ravine_terrain_free(ravine_terrain *T) {
  if (!T) return;
  free(T->vx); free(T->vy); free(T->tx); free(T->ty); free(T->nx); free(T->ny);
  free(T->len); free(T->convex);
  T->vx = T->vy = T->tx = T->ty = T->nx = T->ny = T->len = NULL;
  T->convex = NULL;
  T->nv = T->nseg = 0;
}

static int fail(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

/* Proper intersection of segments p1p2 and p3p4 (touching counts). */
static int segments_intersect(const double *p1, const double *p2,
                              const double *p3, const double *p4) {
  double d1x = p2[0] - p1[0], d1y = p2[1] - p1[1];
  double d2x = p4[0] - p3[0], d2y = p4[1] - p3[1];
  double den = d1x * d2y - d1y * d2x;
  double rx = p3[0] - p1[0], ry = p3[1] - p1[1];
  if (fabs(den) < 1e-300) { /* parallel: overlap if collinear and ranges meet */
    if (fabs(rx * d1y - ry * d1x) > 1e-12 * (1.0 + fabs(rx) + fabs(ry))) return 0;
    double l2 = d1x * d1x + d1y * d1y;
    double s3 = (rx * d1x + ry * d1y) / l2;
    double s4 = ((p4[0] - p1[0]) * d1x + (p4[1] - p1[1]) * d1y) / l2;
    double lo = fmin(s3, s4), hi = fmax(s3, s4);
    return hi >= 0.0 && lo <= 1.0;
  }
  double s = (rx * d2y - ry * d2x) / den;
  double u = (rx * d1y - ry * d1x) / den;
  return s >= 0.0 && s <= 1.0 && u >= 0.0 && u <= 1.0;
}

static int alloc_terrain(ravine_terrain *T, int nv) {
  T->nv = nv;
  T->nseg = nv - 1;
  T->vx = calloc((size_t)nv, sizeof(double));
  T->vy = calloc((size_t)nv, sizeof(double));
  T->tx = calloc((size_t)nv, sizeof(double));
  T->ty = calloc((size_t)nv, sizeof(double));
  T->nx = calloc((size_t)nv, sizeof(double));
  T->ny = calloc((size_t)nv, sizeof(double));
  T->len = calloc((size_t)nv, sizeof(double));
  T->convex = calloc((size_t)nv, sizeof(int));
  if (!T->vx || !T->vy || !T->tx || !T->ty || !T->nx || !T->ny || !T->len ||
      !T->convex) {
    ravine_terrain_free(T);
    return MBDAE_ERR_MEMORY;
  }
  return MBDAE_OK;
}

int ravine_terrain_build(const ravine_params *p, ravine_terrain *T,
                         mbdae_param_error *err) {
  T->nv = 0;
  T->vx = T->vy = T->tx = T->ty = T->nx = T->ny = T->len = NULL;
  T->convex = NULL;
  if (p->terrain == 0) {
    /* hartl fig. 4.1: the valley [beta, theta, dh, pl] with dh < 0 (down) */
    if (!(p->dh < 0.0)) return fail(err, "dh", "dh must be negative (the valley floor lies below the top ground)");
    if (!(p->beta_deg > 0.0 && p->beta_deg < 90.0))
      return fail(err, "beta_deg", "decline angle must be in (0, 90) degrees");
    if (!(p->theta_deg > 0.0 && p->theta_deg < 90.0))
      return fail(err, "theta_deg", "incline angle must be in (0, 90) degrees");
    if (!(p->pl >= 0.0)) return fail(err, "pl", "floor length must be >= 0");
    int nv = p->pl > 0.0 ? 6 : 5;
    int rc = alloc_terrain(T, nv);
    if (rc) return rc;
    double depth = -p->dh;
    double xb = p->x_edge + depth / tan(p->beta_deg * RAVINE_PI / 180.0);
    double xi = xb + p->pl;
    double xr = xi + depth / tan(p->theta_deg * RAVINE_PI / 180.0);
    int i = 0;
    T->vx[i] = p->x_edge - 1.0; T->vy[i++] = 0.0;
    T->vx[i] = p->x_edge;       T->vy[i++] = 0.0;
    T->vx[i] = xb;              T->vy[i++] = p->dh;
    if (p->pl > 0.0) { T->vx[i] = xi; T->vy[i++] = p->dh; }
    T->vx[i] = xr;              T->vy[i++] = 0.0;
    T->vx[i] = xr + 1.0;        T->vy[i++] = 0.0;
  } else {
    if (!p->points || p->npoints < 2)
      return fail(err, "terrain_points", "a polyline terrain needs at least 2 points");
    int rc = alloc_terrain(T, p->npoints);
    if (rc) return rc;
    for (int i = 0; i < p->npoints; ++i) {
      T->vx[i] = p->points[2 * i];
      T->vy[i] = p->points[2 * i + 1];
    }
    /* self-intersection: any two non-adjacent segments meeting */
    for (int i = 0; i + 1 < T->nv; ++i)
      for (int j = i + 2; j + 1 < T->nv; ++j) {
        double a[2] = {T->vx[i], T->vy[i]}, bb[2] = {T->vx[i + 1], T->vy[i + 1]};
        double c[2] = {T->vx[j], T->vy[j]}, d[2] = {T->vx[j + 1], T->vy[j + 1]};
        if (segments_intersect(a, bb, c, d)) {
          ravine_terrain_free(T);
          return fail(err, "terrain_points", "the polyline intersects itself");
        }
      }
    for (int i = 0; i + 1 < p->npoints; ++i)
      if (!(T->vx[i + 1] > T->vx[i])) {
        ravine_terrain_free(T);
        if (err) {
          err->key = "terrain_points";
          snprintf(err->msg, sizeof err->msg,
                   "x must increase strictly (row %d to %d): the terrain must be a function of x",
                   i, i + 1);
        }
        return MBDAE_ERR_PARAMETER;
      }
  }
  T->nseg = T->nv - 1;
  for (int k = 0; k < T->nseg; ++k) {
    double dx = T->vx[k + 1] - T->vx[k], dy = T->vy[k + 1] - T->vy[k];
    double l = sqrt(dx * dx + dy * dy);
    T->len[k] = l;
    T->tx[k] = dx / l;
    T->ty[k] = dy / l;
    /* t = n x z with z out of the page, so n = z x t = (-t_y, t_x) */
    T->nx[k] = -T->ty[k];
    T->ny[k] = T->tx[k];
  }
  int ilow = 0;
  for (int i = 0; i < T->nv; ++i) {
    T->convex[i] = 0;
    if (i > 0 && i + 1 < T->nv) {
      double cr = T->tx[i - 1] * T->ty[i] - T->ty[i - 1] * T->tx[i];
      T->convex[i] = cr < 0.0; /* turning clockwise: the ground bends down */
    }
    if (T->vy[i] <= T->vy[ilow]) ilow = i;
  }
  T->y_top = T->vy[0];
  T->x_goal = T->vx[T->nv - 1];
  if (p->terrain == 0) T->x_goal = T->vx[T->nv - 2]; /* the far rim */
  T->x_climb = T->vx[ilow];
  return MBDAE_OK;
}

double ravine_segment_distance(const ravine_terrain *T, int k, double x, double y,
                               double *px, double *py, int *part) {
  double rx = x - T->vx[k], ry = y - T->vy[k];
  double s = rx * T->tx[k] + ry * T->ty[k];
  int pt = 0;
  if (s < 0.0 && k > 0) { s = 0.0; pt = -1; }
  else if (s > T->len[k] && k + 1 < T->nseg) { s = T->len[k]; pt = 1; }
  double cx = T->vx[k] + s * T->tx[k], cy = T->vy[k] + s * T->ty[k];
  if (px) *px = cx;
  if (py) *py = cy;
  if (part) *part = pt;
  /* negative below the terrain (a function of x): the gap d - b then has a
   * single sign change, at touchdown, even when one long flight step would
   * carry the centre through and past a segment */
  double d = hypot(x - cx, y - cy);
  return y < ravine_terrain_height(T, x, NULL) ? -d : d;
}

double ravine_terrain_height(const ravine_terrain *T, double x, int *seg) {
  int k = 0;
  while (k + 1 < T->nseg && x > T->vx[k + 1]) ++k;
  if (seg) *seg = k;
  return T->vy[k] + (x - T->vx[k]) * T->ty[k] / T->tx[k];
}
