/* writer_vtk.c - ASCII VTK PolyData frames (.vtp) and a ParaView collection
 * index (.pvd) from a model's geometry provider. */
#define _POSIX_C_SOURCE 200809L
#include "writer_vtk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mbdae/geometry.h"
#include "mbdae/status.h"

struct mbdae_vtk {
  const mbdae_geometry_provider *geo;
  char *dir;
  double min_dt;
  double *times;
  long nframes, cap;
};

mbdae_vtk *mbdae_vtk_open(const char *kind, const char *dir, double min_dt, int *failed) {
  if (failed) *failed = 0;
  const mbdae_geometry_provider *geo = mbdae_geometry_find(kind);
  if (!geo || !dir) return NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/vtk", dir);
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    if (failed) *failed = 1;
    return NULL;
  }
  mbdae_vtk *v = calloc(1, sizeof *v);
  if (!v || !(v->dir = malloc(strlen(dir) + 1))) {
    free(v);
    if (failed) *failed = 1;
    return NULL;
  }
  strcpy(v->dir, dir);
  v->geo = geo;
  v->min_dt = min_dt > 0.0 ? 0.999 * min_dt : 0.0;
  return v;
}

static void ints(FILE *f, const char *name, const int *a, long n, int add) {
  fprintf(f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"ascii\">\n", name);
  for (long i = 0; i < n; ++i) fprintf(f, "%d%c", a[i] + add, (i % 16 == 15 || i == n - 1) ? '\n' : ' ');
  fprintf(f, "        </DataArray>\n");
}

int mbdae_vtk_frame(mbdae_vtk *v, mbdae_model *model, double t, const double *y) {
  if (!v) return MBDAE_OK;
  if (v->nframes > 0 && t < v->times[v->nframes - 1] + v->min_dt) return MBDAE_OK;
  mbdae_geometry g;
  memset(&g, 0, sizeof g);
  int rc = v->geo->fn(model, y, &g);
  if (rc) return rc;
  if (v->nframes == v->cap) {
    long cap = v->cap ? 2 * v->cap : 256;
    double *tt = realloc(v->times, (size_t)cap * sizeof *tt);
    if (!tt) return MBDAE_ERR_MEMORY;
    v->times = tt;
    v->cap = cap;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/vtk/frame_%06ld.vtp", v->dir, v->nframes);
  FILE *f = fopen(path, "w");
  if (!f) return MBDAE_ERR_IO;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
             "byte_order=\"LittleEndian\">\n  <PolyData>\n");
  fprintf(f, "    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"%d\" "
             "NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n", g.npoints, g.nlines, g.npolys);
  if (g.point_data) {
    fprintf(f, "      <PointData Scalars=\"%s\">\n        <DataArray type=\"Float64\" "
               "Name=\"%s\" format=\"ascii\">\n", g.point_data_name, g.point_data_name);
    for (int i = 0; i < g.npoints; ++i) fprintf(f, "%.9g\n", g.point_data[i]);
    fprintf(f, "        </DataArray>\n      </PointData>\n");
  }
  fprintf(f, "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
  for (int i = 0; i < g.npoints; ++i)
    fprintf(f, "%.12g %.12g %.12g\n", g.points[3 * i], g.points[3 * i + 1], g.points[3 * i + 2]);
  fprintf(f, "        </DataArray>\n      </Points>\n");
  fprintf(f, "      <Lines>\n");
  ints(f, "connectivity", g.lines, 2L * g.nlines, 0);
  fprintf(f, "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n");
  for (int i = 0; i < g.nlines; ++i) fprintf(f, "%d\n", 2 * (i + 1));
  fprintf(f, "        </DataArray>\n      </Lines>\n      <Polys>\n");
  ints(f, "connectivity", g.poly_index, g.npolys ? g.poly_start[g.npolys] : 0, 0);
  ints(f, "offsets", g.poly_start + 1, g.npolys, 0);
  fprintf(f, "      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
  if (fclose(f) != 0) return MBDAE_ERR_IO;
  v->times[v->nframes++] = t;
  return MBDAE_OK;
}

int mbdae_vtk_close(mbdae_vtk **pv) {
  if (!pv || !*pv) return MBDAE_OK;
  mbdae_vtk *v = *pv;
  int rc = MBDAE_OK;
  char path[4200];
  snprintf(path, sizeof path, "%s/animation.pvd", v->dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    rc = MBDAE_ERR_IO;
  } else {
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
               "  <Collection>\n");
    for (long i = 0; i < v->nframes; ++i)
      fprintf(f, "    <DataSet timestep=\"%.12g\" file=\"vtk/frame_%06ld.vtp\"/>\n", v->times[i], i);
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    if (fclose(f) != 0) rc = MBDAE_ERR_IO;
  }
  free(v->times);
  free(v->dir);
  free(v);
  *pv = NULL;
  return rc;
}
