/* writer_vtk.c - VTK PolyData frames (.vtp, base64 binary arrays, the time
 * as TimeValue field data) and a ParaView collection index (.pvd) from a
 * model's geometry provider; the same frames feed the gnuplot animation
 * (scene_animation.c). */
#define _POSIX_C_SOURCE 200809L
#include "writer_vtk.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base64.h"
#include "mbdae/geometry.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "scene_animation.h"

struct mbdae_vtk {
  const mbdae_geometry_provider *geo;
  int flags;
  char *dir;
  double min_dt, dt_out;
  double *times;
  long nframes, cap;
  mbdae_geometry g;   /* kept across frames for the provider's work */
};

static void clear_vtk(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/vtk", dir);
  mbdae_remove_matching(path, "frame_*.vtp");
  mbdae_remove_matching(path, ".frame_*.vtp.tmp");
  rmdir(path); /* only if now empty */
  snprintf(path, sizeof path, "%s/animation.pvd", dir);
  remove(path);
}

void mbdae_vtk_clear(const char *dir) {
  if (!dir) return;
  clear_vtk(dir);
  mbdae_animation_clear(dir);
}

mbdae_vtk *mbdae_vtk_open(const char *kind, const char *dir, double min_dt, int flags,
                          int *failed) {
  if (failed) *failed = 0;
  const mbdae_geometry_provider *geo = mbdae_geometry_find(kind);
  if (!dir) return NULL;
  /* a new run into a used directory: no frame of the old one stays, also
   * when this run writes none (output.vtk false, or a kind without scene) */
  if (flags & MBDAE_SCENE_FRESH) mbdae_vtk_clear(dir);
  if (!geo || !(flags & (MBDAE_SCENE_VTK | MBDAE_SCENE_ANIMATION))) return NULL;
  char path[4096];
  snprintf(path, sizeof path, "%s/vtk", dir);
  if ((flags & MBDAE_SCENE_VTK) && mbdae_subdir_make(path)) {
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
  v->flags = flags;
  v->min_dt = min_dt > 0.0 ? 0.999 * min_dt : 0.0;
  v->dt_out = min_dt > 0.0 ? min_dt : 0.0;
  return v;
}

/* A DataArray in VTK's inline binary format: base64 of a UInt32 byte count
 * followed by the values (little-endian hosts: the file says
 * byte_order="LittleEndian"). */
static void binary(FILE *f, const void *data, size_t nbytes) {
  mbdae_base64 b;
  uint32_t header = (uint32_t)nbytes;
  mbdae_base64_begin(&b, f);
  mbdae_base64_put(&b, &header, sizeof header);
  mbdae_base64_put(&b, data, nbytes);
  mbdae_base64_end(&b);
  fputc('\n', f);
}

static void ints(FILE *f, const char *name, const int *a, long n) {
  fprintf(f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"binary\">\n", name);
  int32_t buf[256];
  mbdae_base64 b;
  uint32_t header = (uint32_t)((size_t)n * sizeof *buf);
  mbdae_base64_begin(&b, f);
  mbdae_base64_put(&b, &header, sizeof header);
  for (long i = 0; i < n; i += 256) { /* int may differ from Int32: convert */
    long k = n - i < 256 ? n - i : 256;
    for (long j = 0; j < k; ++j) buf[j] = (int32_t)a[i + j];
    mbdae_base64_put(&b, buf, (size_t)k * sizeof *buf);
  }
  mbdae_base64_end(&b);
  fprintf(f, "\n        </DataArray>\n");
}

/* The offsets of n cells of per points each. 0 or MBDAE_ERR_MEMORY. */
static int counts(FILE *f, long n, int per) {
  int *o = malloc((size_t)(n > 0 ? n : 1) * sizeof *o);
  if (!o) return MBDAE_ERR_MEMORY;
  for (long i = 0; i < n; ++i) o[i] = (int)(per * (i + 1));
  ints(f, "offsets", o, n);
  free(o);
  return MBDAE_OK;
}

/* Field data: n tuples of one value. */
static void doubles_tuples(FILE *f, const char *name, const double *a, long n) {
  fprintf(f, "      <DataArray type=\"Float64\" Name=\"%s\" NumberOfTuples=\"%ld\" "
             "format=\"binary\">\n        ", name, n);
  binary(f, a, (size_t)n * sizeof *a);
  fprintf(f, "      </DataArray>\n");
}

static void doubles(FILE *f, const char *name, int ncomp, const double *a, long n) {
  fprintf(f, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
             "format=\"binary\">\n        ", name, ncomp);
  binary(f, a, (size_t)n * (size_t)ncomp * sizeof *a);
  fprintf(f, "        </DataArray>\n");
}

/* The first scalar and vector array names (ParaView's default colouring). */
static void attributes(FILE *f, const char *legacy, const mbdae_geometry_array *a, int n) {
  const char *sc = legacy, *vec = NULL;
  for (int i = 0; i < n; ++i) {
    if (a[i].ncomp == 1 && !sc) sc = a[i].name;
    if (a[i].ncomp == 3 && !vec) vec = a[i].name;
  }
  if (sc) fprintf(f, " Scalars=\"%s\"", sc);
  if (vec) fprintf(f, " Vectors=\"%s\"", vec);
}

/* A frame's number: its output sample number (t - t_first) / dt_out, so
 * that its file name depends on its time only (frames are dropped by
 * thinning, never renamed); the position in the list without dt_out. */
static long frame_number(const mbdae_vtk *v, long pos) {
  if (v->dt_out <= 0.0 || pos == 0) return pos;
  /* grid samples sit on whole numbers; the one off-grid frame (t_end) is
   * at least 0.999 dt_out after the previous one: ceil keeps them apart */
  return (long)ceil((v->times[pos] - v->times[0]) / v->dt_out - 1e-6);
}

static void frame_path(char *path, size_t n, const mbdae_vtk *v, long pos) {
  snprintf(path, n, "%s/vtk/frame_%06ld.vtp", v->dir, frame_number(v, pos));
}

/* At MBDAE_VTK_MAX_FRAMES drop every other frame, which doubles the
 * spacing (below), so a long series ends with at most that many files,
 * evenly spread over the run. A file already gone is fine: a run resumed
 * from a checkpoint redoes the thinning that the killed run had done. */
static int thin(mbdae_vtk *v) {
  char path[4200];
  long k = 0;
  for (long i = 0; i < v->nframes; ++i) {
    if (i % 2) {
      frame_path(path, sizeof path, v, i);
      if ((v->flags & MBDAE_SCENE_VTK) && remove(path) != 0 && errno != ENOENT)
        return MBDAE_ERR_IO;
      if (v->flags & MBDAE_SCENE_ANIMATION) mbdae_animation_drop(v->dir, frame_number(v, i));
      continue;
    }
    v->times[k++] = v->times[i];
  }
  v->nframes = k;
  return MBDAE_OK;
}

/* The least spacing of frames: the output interval, or the spacing of the
 * first two frames when larger (after thinning). A function of the frame
 * times alone, so a run resumed from a checkpoint (mbdae_vtk_restore)
 * picks the same frames as the uninterrupted one. */
static double spacing(const mbdae_vtk *v) {
  double dt = v->nframes >= 2 ? 0.999 * (v->times[1] - v->times[0]) : 0.0;
  return dt > v->min_dt ? dt : v->min_dt;
}

/* One frame: DIR/vtk/frame_NNNNNN.vtp (v->times[v->nframes] = t), written
 * under a temporary name and renamed. */
static int write_vtp(const mbdae_vtk *v, const mbdae_geometry *g, double t) {
  char path[4200];
  frame_path(path, sizeof path, v, v->nframes);
  size_t n = strlen(path) + 8;
  char *fin = malloc(n), *tmp = malloc(n);
  if (!fin || !tmp) {
    free(fin);
    free(tmp);
    return MBDAE_ERR_MEMORY;
  }
  snprintf(fin, n, "%s", path);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  snprintf(tmp, n, "%s/.%s.tmp", path, slash + 1);
  FILE *f = mbdae_fopen_out(tmp, "w");
  if (!f) {
    free(fin);
    free(tmp);
    return MBDAE_ERR_IO;
  }
  long ncells = (long)g->nverts + g->nlines + g->npolys;
  fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
             "byte_order=\"LittleEndian\" header_type=\"UInt32\">\n  <PolyData>\n");
  /* the frame's time, read by ParaView's reader for the time series */
  fprintf(f, "    <FieldData>\n");
  doubles_tuples(f, "TimeValue", &t, 1);
  fprintf(f, "    </FieldData>\n");
  fprintf(f, "    <Piece NumberOfPoints=\"%d\" NumberOfVerts=\"%d\" NumberOfLines=\"%d\" "
             "NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n", g->npoints, g->nverts, g->nlines,
          g->npolys);
  if (g->point_data || g->npoint_arrays > 0) {
    const char *legacy = g->point_data_name ? g->point_data_name : "point_data";
    fprintf(f, "      <PointData");
    attributes(f, g->point_data ? legacy : NULL, g->point_arrays, g->npoint_arrays);
    fprintf(f, ">\n");
    if (g->point_data) doubles(f, legacy, 1, g->point_data, g->npoints);
    for (int i = 0; i < g->npoint_arrays; ++i)
      doubles(f, g->point_arrays[i].name, g->point_arrays[i].ncomp, g->point_arrays[i].values,
              g->npoints);
    fprintf(f, "      </PointData>\n");
  }
  if (g->ncell_arrays > 0 && ncells > 0) {
    fprintf(f, "      <CellData");
    attributes(f, NULL, g->cell_arrays, g->ncell_arrays);
    fprintf(f, ">\n");
    for (int i = 0; i < g->ncell_arrays; ++i)
      doubles(f, g->cell_arrays[i].name, g->cell_arrays[i].ncomp, g->cell_arrays[i].values,
              ncells);
    fprintf(f, "      </CellData>\n");
  }
  fprintf(f, "      <Points>\n");
  doubles(f, "Points", 3, g->points, g->npoints);
  fprintf(f, "      </Points>\n");
  int rc = MBDAE_OK;
  if (g->nverts > 0) {
    fprintf(f, "      <Verts>\n");
    ints(f, "connectivity", g->verts, g->nverts);
    rc = counts(f, g->nverts, 1);
    fprintf(f, "      </Verts>\n");
  }
  fprintf(f, "      <Lines>\n");
  ints(f, "connectivity", g->lines, 2L * g->nlines);
  if (!rc) rc = counts(f, g->nlines, 2);
  fprintf(f, "      </Lines>\n      <Polys>\n");
  ints(f, "connectivity", g->poly_index, g->npolys ? g->poly_start[g->npolys] : 0);
  ints(f, "offsets", g->poly_start + 1, g->npolys);
  fprintf(f, "      </Polys>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
  int bad = ferror(f) || rc;
  bad |= fclose(f) != 0;
  if (rc) {
    remove(tmp);
    free(tmp);
    free(fin);
    return rc;
  }
  return mbdae_commit_file(tmp, fin, !bad, NULL, 0);
}

int mbdae_vtk_frame(mbdae_vtk *v, mbdae_model *model, double t, const double *y) {
  if (!v) return MBDAE_OK;
  if (v->nframes > 0 && t < v->times[v->nframes - 1] + spacing(v)) return MBDAE_OK;
  if (v->nframes >= MBDAE_VTK_MAX_FRAMES) {
    int rc = thin(v);
    if (rc) return rc;
    if (t < v->times[v->nframes - 1] + spacing(v)) return MBDAE_OK;
  }
  mbdae_geometry *g = &v->g;
  void *work = g->work;
  void (*work_free)(void *) = g->work_free;
  memset(g, 0, sizeof *g);
  g->work = work;
  g->work_free = work_free;
  g->t = t;
  int rc = v->geo->fn(model, y, g);
  if (rc) return rc;
  if (v->nframes == v->cap) {
    long cap = v->cap ? 2 * v->cap : 256;
    double *tt = realloc(v->times, (size_t)cap * sizeof *tt);
    if (!tt) return MBDAE_ERR_MEMORY;
    v->times = tt;
    v->cap = cap;
  }
  v->times[v->nframes] = t; /* counted below once written */
  if (v->flags & MBDAE_SCENE_VTK) {
    rc = write_vtp(v, g, t);
    if (rc) return rc;
  }
  if (v->flags & MBDAE_SCENE_ANIMATION) {
    rc = mbdae_animation_frame(v->dir, frame_number(v, v->nframes), t, g);
    if (rc) return rc;
  }
  v->nframes++;
  return MBDAE_OK;
}

long mbdae_vtk_frames(const mbdae_vtk *v, const double **times) {
  if (times) *times = v ? v->times : NULL;
  return v ? v->nframes : 0;
}

static int frame_present(const mbdae_vtk *v, long pos) {
  char path[4200];
  struct stat st;
  frame_path(path, sizeof path, v, pos);
  return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int mbdae_vtk_restore(mbdae_vtk *v, const double *times, long n) {
  if (!v || n <= 0) return MBDAE_OK;
  if (n > v->cap) {
    double *tt = realloc(v->times, (size_t)n * sizeof *tt);
    if (!tt) return MBDAE_ERR_MEMORY;
    v->times = tt;
    v->cap = n;
  }
  memcpy(v->times, times, (size_t)n * sizeof *times);
  v->nframes = n;
  /* vtk/ deleted: refused before anything changes. Only the first frame is
   * sure to be there: the killed run may have thinned the others after its
   * checkpoint (thin() keeps position 0); mbdae_vtk_close checks them all. */
  return (v->flags & MBDAE_SCENE_VTK) && !frame_present(v, 0) ? MBDAE_ERR_NOT_FOUND : MBDAE_OK;
}

void mbdae_vtk_render(mbdae_vtk *v, const char *title, char *note, size_t notelen) {
  if (note && notelen) note[0] = '\0';
  if (!v || !(v->flags & MBDAE_SCENE_ANIMATION) || v->nframes == 0) return;
  long *numbers = malloc((size_t)v->nframes * sizeof *numbers);
  if (!numbers) {
    if (note && notelen) snprintf(note, notelen, "out of memory: no animation rendered");
    return;
  }
  for (long i = 0; i < v->nframes; ++i) numbers[i] = frame_number(v, i);
  mbdae_animation_render(v->dir, v->times, numbers, v->nframes, title, note, notelen);
  free(numbers);
}

int mbdae_vtk_close(mbdae_vtk **pv) {
  if (!pv || !*pv) return MBDAE_OK;
  mbdae_vtk *v = *pv;
  int rc = MBDAE_OK;
  /* written to a temporary and renamed: never a truncated pvd (disk full) */
  size_t n = strlen(v->dir) + sizeof "/.animation.pvd.tmp";
  char *tmp = NULL, *fin = NULL;
  FILE *f = NULL;
  if (v->flags & MBDAE_SCENE_VTK) {
    tmp = malloc(n);
    fin = malloc(n);
    if (tmp && fin) {
      snprintf(tmp, n, "%s/.animation.pvd.tmp", v->dir);
      snprintf(fin, n, "%s/animation.pvd", v->dir);
      f = mbdae_fopen_out(tmp, "w");
    }
  }
  long missing = 0; /* never a pvd listing frames that are gone (vtk/ deleted) */
  for (long i = 0; f && i < v->nframes && !missing; ++i)
    if (!frame_present(v, i)) missing = i + 1;
  if (!(v->flags & MBDAE_SCENE_VTK)) {
    /* no index */
  } else if (!f || missing) {
    if (f) {
      fclose(f);
      remove(tmp);
    }
    rc = missing ? MBDAE_ERR_NOT_FOUND : MBDAE_ERR_IO;
    free(tmp);
    free(fin);
  } else {
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n"
               "  <Collection>\n");
    for (long i = 0; i < v->nframes; ++i)
      fprintf(f, "    <DataSet timestep=\"%.12g\" file=\"vtk/frame_%06ld.vtp\"/>\n", v->times[i],
              frame_number(v, i));
    fprintf(f, "  </Collection>\n</VTKFile>\n");
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    int e = errno;
    rc = mbdae_commit_file(tmp, fin, !bad, NULL, 0);
    errno = e;
  }
  if (v->g.work && v->g.work_free) v->g.work_free(v->g.work);
  free(v->times);
  free(v->dir);
  free(v);
  *pv = NULL;
  return rc;
}
