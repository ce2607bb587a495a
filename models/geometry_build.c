/* geometry_build.c - the frame builder of geometry providers
 * (geometry_build.h): growing arrays, named point/cell data, shapes. */
#include "geometry_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

typedef struct dvec { double *a; size_t n, cap; } dvec;
typedef struct ivec { int *a; size_t n, cap; } ivec;

typedef struct geo_array {
  const char *name;
  int ncomp;
  dvec v[3];  /* point arrays: v[0]; cell arrays: verts, lines, polys */
  dvec out;   /* cell arrays: the concatenation handed out */
} geo_array;

struct geo_builder {
  dvec pts;
  ivec verts, lines, pstart, pidx;
  int npoly;
  int npa, nca;
  geo_array pa[MBDAE_GEOMETRY_MAX_ARRAYS], ca[MBDAE_GEOMETRY_MAX_ARRAYS];
  int failed;
};

static const double PI = 3.14159265358979323846;

/* Make room for n entries, zero-filling new ones; 0 or -1. */
static int dvec_size(dvec *d, size_t n) {
  if (n > d->cap) {
    size_t cap = d->cap ? d->cap : 64;
    while (cap < n) cap *= 2;
    double *a = realloc(d->a, cap * sizeof *a);
    if (!a) return -1;
    d->a = a;
    d->cap = cap;
  }
  if (n > d->n) memset(d->a + d->n, 0, (n - d->n) * sizeof *d->a);
  d->n = n;
  return 0;
}

static int ivec_push(ivec *d, int x) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? 2 * d->cap : 64;
    int *a = realloc(d->a, cap * sizeof *a);
    if (!a) return -1;
    d->a = a;
    d->cap = cap;
  }
  d->a[d->n++] = x;
  return 0;
}

geo_builder *geo_builder_create(void) {
  geo_builder *b = calloc(1, sizeof *b);
  if (b && ivec_push(&b->pstart, 0)) {
    geo_builder_free(b);
    return NULL;
  }
  return b;
}

void geo_builder_free(void *builder) {
  geo_builder *b = builder;
  if (!b) return;
  free(b->pts.a);
  free(b->verts.a);
  free(b->lines.a);
  free(b->pstart.a);
  free(b->pidx.a);
  for (int i = 0; i < MBDAE_GEOMETRY_MAX_ARRAYS; ++i) {
    for (int k = 0; k < 3; ++k) {
      free(b->pa[i].v[k].a);
      free(b->ca[i].v[k].a);
    }
    free(b->pa[i].out.a);
    free(b->ca[i].out.a);
  }
  free(b);
}

geo_builder *geo_builder_of(mbdae_geometry *g) {
  if (!g) return NULL;
  if (!g->work) {
    g->work = geo_builder_create();
    g->work_free = g->work ? geo_builder_free : NULL;
  }
  return g->work;
}

void geo_builder_reset(geo_builder *b) {
  if (!b) return;
  b->pts.n = b->verts.n = b->lines.n = b->pidx.n = 0;
  b->pstart.n = 1; /* pstart[0] = 0 stays */
  b->npoly = 0;
  b->npa = b->nca = 0;
  b->failed = 0;
}

int geo_point(geo_builder *b, double x, double y, double z) {
  if (b->failed) return -1;
  size_t n = b->pts.n;
  if (dvec_size(&b->pts, n + 3)) {
    b->failed = 1;
    return -1;
  }
  b->pts.a[n] = x;
  b->pts.a[n + 1] = y;
  b->pts.a[n + 2] = z;
  return (int)(n / 3);
}

int geo_vert(geo_builder *b, int p) {
  if (b->failed || p < 0 || ivec_push(&b->verts, p)) {
    b->failed = 1;
    return -1;
  }
  return (int)b->verts.n - 1;
}

int geo_line(geo_builder *b, int p, int q) {
  if (b->failed || p < 0 || q < 0 || ivec_push(&b->lines, p) || ivec_push(&b->lines, q)) {
    b->failed = 1;
    return -1;
  }
  return (int)b->lines.n / 2 - 1;
}

int geo_poly(geo_builder *b, const int *p, int n) {
  if (b->failed) return -1;
  for (int i = 0; i < n; ++i)
    if (p[i] < 0 || ivec_push(&b->pidx, p[i])) {
      b->failed = 1;
      return -1;
    }
  if (ivec_push(&b->pstart, (int)b->pidx.n)) {
    b->failed = 1;
    return -1;
  }
  return b->npoly++;
}

static int declare(geo_builder *b, geo_array *arr, int *count, const char *name, int ncomp) {
  if (b->failed || *count >= MBDAE_GEOMETRY_MAX_ARRAYS || (ncomp != 1 && ncomp != 3)) {
    b->failed = 1;
    return -1;
  }
  geo_array *a = &arr[*count];
  a->name = name;
  a->ncomp = ncomp;
  for (int k = 0; k < 3; ++k) a->v[k].n = 0;
  return (*count)++;
}

int geo_point_array(geo_builder *b, const char *name, int ncomp) {
  return declare(b, b->pa, &b->npa, name, ncomp);
}

int geo_cell_array(geo_builder *b, const char *name, int ncomp) {
  return declare(b, b->ca, &b->nca, name, ncomp);
}

static void set(geo_builder *b, geo_array *a, int part, int k, const double *v) {
  if (b->failed || !a || k < 0) return;
  dvec *d = &a->v[part];
  size_t need = (size_t)(k + 1) * (size_t)a->ncomp;
  if (need > d->n && dvec_size(d, need)) {
    b->failed = 1;
    return;
  }
  memcpy(d->a + (size_t)k * (size_t)a->ncomp, v, (size_t)a->ncomp * sizeof *v);
}

void geo_set_point(geo_builder *b, int id, int p, const double *v) {
  set(b, id >= 0 && id < b->npa ? &b->pa[id] : NULL, 0, p, v);
}
void geo_set_vert(geo_builder *b, int id, int k, const double *v) {
  set(b, id >= 0 && id < b->nca ? &b->ca[id] : NULL, 0, k, v);
}
void geo_set_line(geo_builder *b, int id, int k, const double *v) {
  set(b, id >= 0 && id < b->nca ? &b->ca[id] : NULL, 1, k, v);
}
void geo_set_poly(geo_builder *b, int id, int k, const double *v) {
  set(b, id >= 0 && id < b->nca ? &b->ca[id] : NULL, 2, k, v);
}

int geo_nlines(const geo_builder *b) { return (int)b->lines.n / 2; }
int geo_npolys(const geo_builder *b) { return b->npoly; }
int geo_nverts(const geo_builder *b) { return (int)b->verts.n; }

int geo_builder_export(geo_builder *b, mbdae_geometry *g) {
  if (!b || !g) return MBDAE_ERR_ARGUMENT;
  if (b->failed) return MBDAE_ERR_MEMORY;
  int np = (int)b->pts.n / 3;
  size_t ncell[3] = {b->verts.n, b->lines.n / 2, (size_t)b->npoly};
  /* every array gets its full length (unset values 0) */
  for (int i = 0; i < b->npa; ++i) {
    geo_array *a = &b->pa[i];
    if (dvec_size(&a->v[0], (size_t)np * (size_t)a->ncomp)) return MBDAE_ERR_MEMORY;
    g->point_arrays[i].name = a->name;
    g->point_arrays[i].ncomp = a->ncomp;
    g->point_arrays[i].values = a->v[0].a;
  }
  for (int i = 0; i < b->nca; ++i) {
    geo_array *a = &b->ca[i];
    size_t nc = (size_t)a->ncomp, total = 0;
    for (int k = 0; k < 3; ++k) {
      if (dvec_size(&a->v[k], ncell[k] * nc)) return MBDAE_ERR_MEMORY;
      total += ncell[k] * nc;
    }
    a->out.n = 0;
    if (dvec_size(&a->out, total ? total : 1)) return MBDAE_ERR_MEMORY;
    size_t w = 0;
    for (int k = 0; k < 3; ++k) {
      if (a->v[k].n) memcpy(a->out.a + w, a->v[k].a, a->v[k].n * sizeof(double));
      w += a->v[k].n;
    }
    g->cell_arrays[i].name = a->name;
    g->cell_arrays[i].ncomp = a->ncomp;
    g->cell_arrays[i].values = a->out.a;
  }
  g->npoint_arrays = b->npa;
  g->ncell_arrays = b->nca;
  g->npoints = np;
  g->points = b->pts.a;
  g->nverts = (int)ncell[0];
  g->verts = b->verts.a;
  g->nlines = (int)ncell[1];
  g->lines = b->lines.a;
  g->npolys = b->npoly;
  g->poly_start = b->pstart.a;
  g->poly_index = b->pidx.a;
  return MBDAE_OK;
}

/* x = c + R l */
static int place(geo_builder *b, const double c[3], const double *R, double lx, double ly,
                 double lz) {
  if (!R) return geo_point(b, c[0] + lx, c[1] + ly, c[2] + lz);
  return geo_point(b, c[0] + R[0] * lx + R[1] * ly + R[2] * lz,
                   c[1] + R[3] * lx + R[4] * ly + R[5] * lz,
                   c[2] + R[6] * lx + R[7] * ly + R[8] * lz);
}

int geo_circle(geo_builder *b, const double c[3], double r, const double *R, double a0, int n) {
  if (n < 3) n = 3;
  int first = -1;
  for (int i = 0; i < n; ++i) {
    double a = a0 + 2.0 * PI * i / n;
    int p = place(b, c, R, r * cos(a), r * sin(a), 0.0);
    if (i == 0) first = p;
  }
  if (first < 0) return -1;
  for (int i = 0; i < n; ++i) geo_line(b, first + i, first + (i + 1) % n);
  return first;
}

int geo_sphere(geo_builder *b, const double c[3], double r, const double *R, int nlat,
               int nlon) {
  if (nlat < 2) nlat = 2;
  if (nlon < 3) nlon = 3;
  int north = place(b, c, R, 0.0, 0.0, r);
  for (int i = 1; i < nlat; ++i) {
    double th = PI * i / nlat;
    for (int j = 0; j < nlon; ++j) {
      double ph = 2.0 * PI * j / nlon;
      place(b, c, R, r * sin(th) * cos(ph), r * sin(th) * sin(ph), r * cos(th));
    }
  }
  int south = place(b, c, R, 0.0, 0.0, -r);
  if (north < 0 || south < 0) return -1;
#define RING(i, j) (north + 1 + ((i) - 1) * nlon + ((j) % nlon))
  for (int j = 0; j < nlon; ++j) {
    int t[3] = {north, RING(1, j), RING(1, j + 1)};
    geo_poly(b, t, 3);
  }
  for (int i = 1; i < nlat - 1; ++i)
    for (int j = 0; j < nlon; ++j) {
      int q[4] = {RING(i, j), RING(i + 1, j), RING(i + 1, j + 1), RING(i, j + 1)};
      geo_poly(b, q, 4);
    }
  for (int j = 0; j < nlon; ++j) {
    int t[3] = {RING(nlat - 1, j), south, RING(nlat - 1, j + 1)};
    geo_poly(b, t, 3);
  }
#undef RING
  return north;
}

int geo_box(geo_builder *b, const double c[3], const double h[3], const double *R) {
  int first = -1;
  for (int k = 0; k < 8; ++k) {
    int p = place(b, c, R, (k & 1) ? h[0] : -h[0], (k & 2) ? h[1] : -h[1],
                  (k & 4) ? h[2] : -h[2]);
    if (k == 0) first = p;
  }
  if (first < 0) return -1;
  static const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                  {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (int f = 0; f < 6; ++f) {
    int q[4];
    for (int i = 0; i < 4; ++i) q[i] = first + faces[f][i];
    geo_poly(b, q, 4);
  }
  return first;
}
