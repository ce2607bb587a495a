/* polytope.c - convex hull faces, plane vectors and mass properties of a
 * convex polytope given by its vertices (capps sec. 2.4, 3.4). */
#include "polytope/polytope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

#define MAX_VERTS 256

static void sub3(const double *a, const double *b, double *o) {
  o[0] = a[0] - b[0]; o[1] = a[1] - b[1]; o[2] = a[2] - b[2];
}
static void cross3(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

const char *mbdae_polytope_reason(int why) {
  switch (why) {
  case MBDAE_POLYTOPE_OK: return "ok";
  case MBDAE_POLYTOPE_TOO_FEW: return "fewer than 4 vertices";
  case MBDAE_POLYTOPE_DUPLICATE: return "two vertices coincide";
  case MBDAE_POLYTOPE_FLAT: return "the vertices are (nearly) coplanar: no volume";
  case MBDAE_POLYTOPE_NONCONVEX:
    return "a vertex is not a corner of the convex hull (non-convex or degenerate set)";
  case MBDAE_POLYTOPE_ORIGIN: return "the centre of mass is not strictly inside the body";
  case MBDAE_POLYTOPE_MASS:
    return "mass must be > 0 and the inertia tensor symmetric positive definite";
  case MBDAE_POLYTOPE_NOT_FINITE: return "a non-finite number";
  default: return "unknown";
  }
}

void mbdae_polytope_free(mbdae_polytope **p) {
  if (!p || !*p) return;
  free((*p)->v);
  free((*p)->A);
  free((*p)->face_start);
  free((*p)->face_vert);
  free(*p);
  *p = NULL;
}

/* 3x3 inverse (row-major); returns the determinant. */
static double inv3(const double *m, double *o) {
  double c0 = m[4] * m[8] - m[5] * m[7];
  double c1 = m[5] * m[6] - m[3] * m[8];
  double c2 = m[3] * m[7] - m[4] * m[6];
  double det = m[0] * c0 + m[1] * c1 + m[2] * c2;
  if (det == 0.0) return 0.0;
  o[0] = c0 / det;
  o[1] = (m[2] * m[7] - m[1] * m[8]) / det;
  o[2] = (m[1] * m[5] - m[2] * m[4]) / det;
  o[3] = c1 / det;
  o[4] = (m[0] * m[8] - m[2] * m[6]) / det;
  o[5] = (m[2] * m[3] - m[0] * m[5]) / det;
  o[6] = c2 / det;
  o[7] = (m[1] * m[6] - m[0] * m[7]) / det;
  o[8] = (m[0] * m[4] - m[1] * m[3]) / det;
  return det;
}

/* Symmetric positive definite by the leading principal minors. */
static int spd3(const double *J) {
  double tol = 1e-12 * (fabs(J[0]) + fabs(J[4]) + fabs(J[8]));
  if (fabs(J[1] - J[3]) > tol || fabs(J[2] - J[6]) > tol || fabs(J[5] - J[7]) > tol)
    return 0;
  double m1 = J[0], m2 = J[0] * J[4] - J[1] * J[3];
  double inv[9];
  double m3 = inv3(J, inv);
  return m1 > 0.0 && m2 > 0.0 && m3 > 0.0;
}

typedef struct plane {
  double n[3]; /* unit outward normal */
  double d;    /* n . x = d on the plane (any reference frame) */
} plane;

/* Angle sort key of face vertices around their centroid. */
typedef struct angkey {
  double ang;
  int idx;
} angkey;
static int cmp_ang(const void *a, const void *b) {
  double x = ((const angkey *)a)->ang, y = ((const angkey *)b)->ang;
  return (x > y) - (x < y);
}

int mbdae_polytope_create(const double *verts, int nv, double mass,
                          const double *J, mbdae_polytope **out, int *why,
                          int *bad_vertex) {
  int dummy_why, dummy_bad;
  if (!why) why = &dummy_why;
  if (!bad_vertex) bad_vertex = &dummy_bad;
  *why = MBDAE_POLYTOPE_OK;
  *bad_vertex = -1;
  if (!out || (!verts && nv > 0)) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  if (nv < 4) { *why = MBDAE_POLYTOPE_TOO_FEW; return MBDAE_ERR_PARAMETER; }
  if (nv > MAX_VERTS) return MBDAE_ERR_ARGUMENT;
  for (int i = 0; i < 3 * nv; ++i)
    if (!isfinite(verts[i])) { *why = MBDAE_POLYTOPE_NOT_FINITE; return MBDAE_ERR_PARAMETER; }
  if (!(mass > 0.0) || !isfinite(mass)) { *why = MBDAE_POLYTOPE_MASS; return MBDAE_ERR_PARAMETER; }
  if (J) {
    for (int i = 0; i < 9; ++i)
      if (!isfinite(J[i])) { *why = MBDAE_POLYTOPE_NOT_FINITE; return MBDAE_ERR_PARAMETER; }
    if (!spd3(J)) { *why = MBDAE_POLYTOPE_MASS; return MBDAE_ERR_PARAMETER; }
  }

  /* size scale and tolerance */
  double mean[3] = {0, 0, 0}, scale = 0.0;
  for (int i = 0; i < nv; ++i)
    for (int k = 0; k < 3; ++k) mean[k] += verts[3 * i + k] / nv;
  for (int i = 0; i < nv; ++i) {
    double d[3];
    sub3(&verts[3 * i], mean, d);
    scale = fmax(scale, sqrt(dot3(d, d)));
  }
  if (!(scale > 0.0)) { *why = MBDAE_POLYTOPE_DUPLICATE; *bad_vertex = 1; return MBDAE_ERR_PARAMETER; }
  double eps = 1e-9 * scale;
  for (int i = 0; i < nv; ++i)
    for (int j = i + 1; j < nv; ++j) {
      double d[3];
      sub3(&verts[3 * i], &verts[3 * j], d);
      if (sqrt(dot3(d, d)) <= 1e-7 * scale) {
        *why = MBDAE_POLYTOPE_DUPLICATE;
        *bad_vertex = j;
        return MBDAE_ERR_PARAMETER;
      }
    }

  /* Supporting planes through vertex triples (brute force: bodies here have
   * tens of vertices). A triple spans a face plane when every vertex lies on
   * one side of it. */
  int pcap = 16, np = 0, status = MBDAE_OK;
  plane *pl = malloc((size_t)pcap * sizeof *pl);
  int *count = calloc((size_t)nv, sizeof *count);
  mbdae_polytope *P = calloc(1, sizeof *P);
  if (!pl || !count || !P) { status = MBDAE_ERR_MEMORY; goto fail; }
  for (int i = 0; i < nv; ++i)
    for (int j = i + 1; j < nv; ++j)
      for (int k = j + 1; k < nv; ++k) {
        double e1[3], e2[3], n[3];
        sub3(&verts[3 * j], &verts[3 * i], e1);
        sub3(&verts[3 * k], &verts[3 * i], e2);
        cross3(e1, e2, n);
        double nn = sqrt(dot3(n, n));
        if (nn <= 1e-9 * scale * scale) continue; /* collinear triple */
        for (int c = 0; c < 3; ++c) n[c] /= nn;
        double d = dot3(n, &verts[3 * i]);
        int above = 0, below = 0;
        for (int m = 0; m < nv && !(above && below); ++m) {
          double s = dot3(n, &verts[3 * m]) - d;
          if (s > eps) above = 1;
          else if (s < -eps) below = 1;
        }
        if (above && below) continue;
        if (!above && !below) continue; /* all coplanar: caught below as FLAT */
        if (above) { for (int c = 0; c < 3; ++c) n[c] = -n[c]; d = -d; }
        int dup = 0;
        for (int q = 0; q < np && !dup; ++q)
          if (fabs(pl[q].n[0] - n[0]) + fabs(pl[q].n[1] - n[1]) +
                  fabs(pl[q].n[2] - n[2]) < 1e-7 && fabs(pl[q].d - d) <= 10 * eps)
            dup = 1;
        if (dup) continue;
        if (np == pcap) {
          pcap *= 2;
          plane *t = realloc(pl, (size_t)pcap * sizeof *pl);
          if (!t) { status = MBDAE_ERR_MEMORY; goto fail; }
          pl = t;
        }
        memcpy(pl[np].n, n, sizeof n);
        pl[np].d = d;
        ++np;
      }
  if (np < 4) { *why = MBDAE_POLYTOPE_FLAT; status = MBDAE_ERR_PARAMETER; goto fail; }

  /* every vertex must be a corner: on at least three face planes */
  int nfv = 0;
  for (int q = 0; q < np; ++q)
    for (int m = 0; m < nv; ++m)
      if (fabs(dot3(pl[q].n, &verts[3 * m]) - pl[q].d) <= eps) { ++count[m]; ++nfv; }
  for (int m = 0; m < nv; ++m)
    if (count[m] < 3) {
      *why = MBDAE_POLYTOPE_NONCONVEX;
      *bad_vertex = m;
      status = MBDAE_ERR_PARAMETER;
      goto fail;
    }

  P->nv = nv;
  P->nf = np;
  P->v = malloc((size_t)nv * 3 * sizeof *P->v);
  P->A = malloc((size_t)np * 3 * sizeof *P->A);
  P->face_start = malloc((size_t)(np + 1) * sizeof *P->face_start);
  P->face_vert = malloc((size_t)nfv * sizeof *P->face_vert);
  angkey *keys = malloc((size_t)nv * sizeof *keys);
  if (!P->v || !P->A || !P->face_start || !P->face_vert || !keys) {
    free(keys);
    status = MBDAE_ERR_MEMORY;
    goto fail;
  }
  /* ordered vertex loops, counter-clockwise about the outward normal */
  int pos = 0;
  for (int q = 0; q < np; ++q) {
    P->face_start[q] = pos;
    int cnt = 0;
    double c[3] = {0, 0, 0};
    for (int m = 0; m < nv; ++m)
      if (fabs(dot3(pl[q].n, &verts[3 * m]) - pl[q].d) <= eps) {
        keys[cnt++].idx = m;
        for (int k = 0; k < 3; ++k) c[k] += verts[3 * m + k];
      }
    for (int k = 0; k < 3; ++k) c[k] /= cnt;
    double u[3], w[3];
    sub3(&verts[3 * keys[0].idx], c, u);
    double un = sqrt(dot3(u, u));
    for (int k = 0; k < 3; ++k) u[k] /= un;
    cross3(pl[q].n, u, w);
    for (int a = 0; a < cnt; ++a) {
      double r[3];
      sub3(&verts[3 * keys[a].idx], c, r);
      keys[a].ang = atan2(dot3(r, w), dot3(r, u));
    }
    qsort(keys, (size_t)cnt, sizeof *keys, cmp_ang);
    for (int a = 0; a < cnt; ++a) P->face_vert[pos++] = keys[a].idx;
  }
  P->face_start[np] = pos;
  free(keys);

  /* volume, centroid and second moments by tetrahedra from the vertex mean */
  double vol = 0.0, first[3] = {0, 0, 0}, C[9] = {0};
  for (int q = 0; q < np; ++q) {
    const int *fv = &P->face_vert[P->face_start[q]];
    int cnt = P->face_start[q + 1] - P->face_start[q];
    for (int a = 1; a + 1 < cnt; ++a) {
      double x[3][3], bc[3];
      sub3(&verts[3 * fv[0]], mean, x[0]);
      sub3(&verts[3 * fv[a]], mean, x[1]);
      sub3(&verts[3 * fv[a + 1]], mean, x[2]);
      cross3(x[1], x[2], bc);
      double det = dot3(x[0], bc);
      vol += det / 6.0;
      double s[3];
      for (int k = 0; k < 3; ++k) {
        s[k] = x[0][k] + x[1][k] + x[2][k];
        first[k] += det / 24.0 * s[k];
      }
      /* integral of x x^T over the tetrahedron (0, x0, x1, x2) */
      for (int r = 0; r < 3; ++r)
        for (int cc = 0; cc < 3; ++cc)
          C[3 * r + cc] += det / 120.0 *
              (x[0][r] * x[0][cc] + x[1][r] * x[1][cc] + x[2][r] * x[2][cc] + s[r] * s[cc]);
    }
  }
  if (!(vol > 1e-9 * scale * scale * scale)) {
    *why = MBDAE_POLYTOPE_FLAT;
    status = MBDAE_ERR_PARAMETER;
    goto fail;
  }
  P->volume = vol;
  P->mass = mass;
  double shift[3];
  if (!J) {
    double cen[3];
    for (int k = 0; k < 3; ++k) cen[k] = first[k] / vol;
    for (int r = 0; r < 3; ++r)
      for (int cc = 0; cc < 3; ++cc) C[3 * r + cc] -= vol * cen[r] * cen[cc];
    double tr = C[0] + C[4] + C[8], rho = mass / vol;
    for (int r = 0; r < 3; ++r)
      for (int cc = 0; cc < 3; ++cc)
        P->J[3 * r + cc] = rho * ((r == cc ? tr : 0.0) - C[3 * r + cc]);
    for (int k = 0; k < 3; ++k) shift[k] = mean[k] + cen[k];
  } else {
    memcpy(P->J, J, sizeof P->J);
    shift[0] = shift[1] = shift[2] = 0.0;
  }
  if (!(inv3(P->J, P->Jinv) > 0.0)) { *why = MBDAE_POLYTOPE_MASS; status = MBDAE_ERR_PARAMETER; goto fail; }
  for (int m = 0; m < nv; ++m) sub3(&verts[3 * m], shift, &P->v[3 * m]);

  /* plane vectors from three vertices of each face (capps eq. 3.4):
   * [x1; x2; x3] A = 1  =>  A = (x2 x x3 + x3 x x1 + x1 x x2) / det */
  for (int q = 0; q < np; ++q) {
    const int *fv = &P->face_vert[P->face_start[q]];
    int cnt = P->face_start[q + 1] - P->face_start[q];
    const double *x1 = &P->v[3 * fv[0]], *x2 = &P->v[3 * fv[cnt / 3]],
                 *x3 = &P->v[3 * fv[(2 * cnt) / 3]];
    double c23[3], c31[3], c12[3];
    cross3(x2, x3, c23);
    cross3(x3, x1, c31);
    cross3(x1, x2, c12);
    double det = dot3(x1, c23);
    /* det = 6 x volume of the tetrahedron (origin, face): origin inside <=> det > 0 */
    if (!(det > 1e-9 * scale * scale * scale)) {
      *why = MBDAE_POLYTOPE_ORIGIN;
      status = MBDAE_ERR_PARAMETER;
      goto fail;
    }
    for (int k = 0; k < 3; ++k) P->A[3 * q + k] = (c23[k] + c31[k] + c12[k]) / det;
  }
  free(pl);
  free(count);
  *out = P;
  return MBDAE_OK;
fail:
  free(pl);
  free(count);
  mbdae_polytope_free(&P);
  return status;
}

int mbdae_polytope_prism_vertices(int N, double r, double len, double *verts) {
  if (N < 3 || !(r > 0.0) || !(len > 0.0) || !verts) return MBDAE_ERR_PARAMETER;
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < N; ++i) {
    double a = 2.0 * pi * i / N;
    for (int s = 0; s < 2; ++s) {
      double *v = &verts[3 * (2 * i + s)];
      v[0] = r * cos(a);
      v[1] = r * sin(a);
      v[2] = s ? 0.5 * len : -0.5 * len;
    }
  }
  return MBDAE_OK;
}

void mbdae_polytope_box_vertices(double a, double b, double c, double *verts) {
  for (int i = 0; i < 8; ++i) {
    verts[3 * i + 0] = (i & 1) ? 0.5 * a : -0.5 * a;
    verts[3 * i + 1] = (i & 2) ? 0.5 * b : -0.5 * b;
    verts[3 * i + 2] = (i & 4) ? 0.5 * c : -0.5 * c;
  }
}

int mbdae_polytope_face_of(const mbdae_polytope *p, const double *X, double *s) {
  int best = 0;
  double bs = dot3(&p->A[0], X);
  for (int q = 1; q < p->nf; ++q) {
    double v = dot3(&p->A[3 * q], X);
    if (v > bs) { bs = v; best = q; }
  }
  if (s) *s = bs;
  return best;
}

double mbdae_polytope_second_max(const mbdae_polytope *p, const double *X, int face) {
  double bs = -HUGE_VAL;
  for (int q = 0; q < p->nf; ++q) {
    if (q == face) continue;
    double v = dot3(&p->A[3 * q], X);
    if (v > bs) bs = v;
  }
  return bs;
}
