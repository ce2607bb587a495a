/* scene_animation.c - a model's 3-D scene as pictures (output.animation):
 * each scene frame's segments, polygon outlines and points go to
 * DIR/animation/frame_NNNNNN.dat (gnuplot data, numbered like the VTK
 * frames); at the end animation.gp renders up to MBDAE_ANIMATION_MAX_FRAMES
 * of them, evenly spread, to DIR/animation/frame_NNNNNN.png and the
 * animated DIR/animation.gif, with gnuplot. No gnuplot, or an error of it,
 * is a note, never a failure of the run. */
#define _POSIX_C_SOURCE 200809L
#include "scene_animation.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gnuplot_run.h"
#include "mbdae/status.h"
#include "output_dir.h"

/* gnuplot line types (default colours) of what is drawn: a piece's `part`
 * picks 1 + part; a taut string or a point in contact is red. */
enum { LT_HIGHLIGHT = 7, LT_MAX_PART = 6 };

static void frame_file(char *path, size_t n, const char *dir, long number, const char *ext) {
  snprintf(path, n, "%s/animation/frame_%06ld.%s", dir, number, ext);
}

void mbdae_animation_clear(const char *dir) {
  char sub[4200];
  snprintf(sub, sizeof sub, "%s/animation", dir);
  mbdae_remove_matching(sub, "frame_*.dat");
  mbdae_remove_matching(sub, "frame_*.png");
  mbdae_remove_matching(sub, "animation.gp");
  mbdae_remove_matching(sub, "gnuplot.log");
  rmdir(sub); /* only if now empty */
  snprintf(sub, sizeof sub, "%s/animation.gif", dir);
  remove(sub);
}

/* The value of cell array `name` for cell `cell` (VTK order), or def. */
static double cell_value(const mbdae_geometry *g, const char *name, long cell, double def) {
  for (int i = 0; i < g->ncell_arrays; ++i)
    if (g->cell_arrays[i].name && !strcmp(g->cell_arrays[i].name, name))
      return g->cell_arrays[i].values[cell * g->cell_arrays[i].ncomp];
  return def;
}

static int part_type(const mbdae_geometry *g, long cell) {
  double p = cell_value(g, "part", cell, 0.0);
  if (!(p >= 0.0)) p = 0.0;
  return 1 + (p > LT_MAX_PART ? LT_MAX_PART : (int)p);
}

static void point(FILE *f, const mbdae_geometry *g, int i, int lt) {
  const double *p = g->points + 3 * (long)i;
  fprintf(f, "%.7g %.7g %.7g %d\n", p[0], p[1], p[2], lt);
}

int mbdae_animation_frame(const char *dir, long number, double t, const mbdae_geometry *g) {
  char path[4300];
  snprintf(path, sizeof path, "%s/animation", dir);
  if (mbdae_subdir_make(path)) return MBDAE_ERR_IO;
  frame_file(path, sizeof path, dir, number, "dat");
  FILE *f = mbdae_fopen_out(path, "w");
  if (!f) return MBDAE_ERR_IO;
  fprintf(f, "# t = %.12g\n# index 0: segments (x y z linetype)\n", t);
  const long nv = g->nverts;
  for (int l = 0; l < g->nlines; ++l) {
    long cell = nv + l;
    int lt = cell_value(g, "taut", cell, 0.0) > 0.5 ? LT_HIGHLIGHT : part_type(g, cell);
    point(f, g, g->lines[2 * l], lt);
    point(f, g, g->lines[2 * l + 1], lt);
    fputc('\n', f);
  }
  if (g->nlines == 0) fputs("nan nan nan 1\n", f);
  fputs("\n\n# index 1: polygon outlines\n", f);
  for (int q = 0; q < g->npolys; ++q) {
    int lt = part_type(g, nv + g->nlines + q);
    for (int k = g->poly_start[q]; k < g->poly_start[q + 1]; ++k) point(f, g, g->poly_index[k], lt);
    if (g->poly_start[q + 1] > g->poly_start[q]) point(f, g, g->poly_index[g->poly_start[q]], lt);
    fputc('\n', f);
  }
  if (g->npolys == 0) fputs("nan nan nan 1\n", f);
  fputs("\n\n# index 2: points (vertex cells)\n", f);
  for (long k = 0; k < nv; ++k) {
    int i = g->verts[k];
    int lt = g->point_data && g->point_data[i] > 0.5 ? LT_HIGHLIGHT : part_type(g, k);
    point(f, g, i, lt);
  }
  if (nv == 0) fputs("nan nan nan 1\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  return bad ? MBDAE_ERR_IO : MBDAE_OK;
}

void mbdae_animation_drop(const char *dir, long number) {
  char path[4300];
  frame_file(path, sizeof path, dir, number, "dat");
  remove(path);
}

/* Grow the box lo/hi by the points of a frame file. */
static void box_of(const char *path, double lo[3], double hi[3]) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[256];
  while (fgets(line, sizeof line, f)) {
    double x[3];
    if (line[0] == '#' || sscanf(line, "%lf %lf %lf", &x[0], &x[1], &x[2]) != 3) continue;
    for (int k = 0; k < 3; ++k)
      if (isfinite(x[k])) {
        lo[k] = fmin(lo[k], x[k]);
        hi[k] = fmax(hi[k], x[k]);
      }
  }
  fclose(f);
}

static void gp_quoted(FILE *f, const char *s) {
  fputc('\'', f);
  for (; s && *s; ++s) {
    if (*s == '\'') fputc('\'', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('\'', f);
}

/* The splot of frame F[i] (gnuplot variables), columns in the order
 * cols (a cyclic turn of x y z, so the scene stays right-handed). */
static void splot_frame(FILE *f, const char *cols) {
  fprintf(f, "  f = sprintf('animation/frame_%%06d.dat', F[i])\n"
             "  set title sprintf('%%s    t = %%.3f s', name, T[i])\n"
             "  splot f index 1 using %s with polygons fs transparent solid 0.35 noborder "
             "fc rgb '#7f93b5', \\\n"
             "        f index 1 using %s:4 with lines lw 1.5 lc variable, \\\n"
             "        f index 0 using %s:4 with lines lw 1.2 lc variable, \\\n"
             "        f index 2 using %s:4 with points pt 7 ps 0.7 lc variable\n",
          cols, cols, cols, cols);
}

int mbdae_animation_render(const char *dir, const double *times, const long *numbers, long n,
                           const char *title, char *note, size_t notelen) {
  if (note && notelen) note[0] = '\0';
  if (n <= 0) return MBDAE_OK;
  char gnuplot[4096];
  if (mbdae_gnuplot_find(gnuplot, sizeof gnuplot)) {
    if (note && notelen) snprintf(note, notelen, "gnuplot not found in PATH: no animation rendered");
    return MBDAE_OK;
  }
  long stride = (n + MBDAE_ANIMATION_MAX_FRAMES - 1) / MBDAE_ANIMATION_MAX_FRAMES;
  long m = (n + stride - 1) / stride;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  char path[4300];
  for (long i = 0; i < n; i += stride) {
    frame_file(path, sizeof path, dir, numbers[i], "dat");
    box_of(path, lo, hi);
  }
  double span = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (!(hi[k] >= lo[k])) lo[k] = hi[k] = 0.0;
    span = fmax(span, hi[k] - lo[k]);
  }
  if (!(span > 0.0)) span = 1.0;
  snprintf(path, sizeof path, "%s/animation/animation.gp", dir);
  FILE *f = mbdae_fopen_out(path, "w");
  if (!f) {
    if (note && notelen) snprintf(note, notelen, "cannot write %s", path);
    return MBDAE_OK;
  }
  fprintf(f, "# animation.gp - written by mbdae: the scene of %ld frames as pictures.\n"
             "# Rerun with `gnuplot animation/animation.gp` in the output directory.\n", m);
  fputs("name = ", f);
  gp_quoted(f, title);
  fprintf(f, "\narray T[%ld] = [", m);
  for (long i = 0, j = 0; i < n; i += stride, ++j) fprintf(f, "%s%.9g", j ? ", " : "", times[i]);
  fprintf(f, "]\narray F[%ld] = [", m);
  for (long i = 0, j = 0; i < n; i += stride, ++j) fprintf(f, "%s%ld", j ? ", " : "", numbers[i]);
  fputs("]\n", f);
  /* gnuplot's z axis is upright on the picture: turn the axes (cyclically)
   * so that the scene's shortest extent is upright and the long ones lie
   * across the picture */
  int up = 0;
  for (int k = 1; k < 3; ++k)
    if (hi[k] - lo[k] < hi[up] - lo[up]) up = k;
  const int order[3] = {(up + 1) % 3, (up + 2) % 3, up}; /* data axis of gnuplot x, y, z */
  char cols[16];
  snprintf(cols, sizeof cols, "%d:%d:%d", order[0] + 1, order[1] + 1, order[2] + 1);
  /* equal scales on every axis, a margin of 5 % of the largest extent */
  const char name[3] = {'x', 'y', 'z'};
  for (int a = 0; a < 3; ++a) {
    int k = order[a];
    double mid = 0.5 * (lo[k] + hi[k]), half = 0.5 * fmax(hi[k] - lo[k], 0.05 * span) + 0.05 * span;
    fprintf(f, "set %crange [%.7g:%.7g]\nset %clabel '%c [m]'\n", name[a], mid - half, mid + half,
            name[a], name[k]);
  }
  /* a planar scene face-on (its normal upright), a solid one from above at an angle */
  if (hi[up] - lo[up] <= 1e-9 * span) fputs("set view 0, 0, 1.2, 1\nunset ztics\nunset zlabel\n", f);
  else fputs("set view 70, 55, 1.5, 1\n", f);
  fputs("set view equal xyz\nset xyplane relative 0\n"
        "set pm3d depthorder\nset surface explicit\nunset key\nset grid\n"
        "set terminal gif animate delay 8 size 800,600 noenhanced\n"
        "set output 'animation.gif'\n"
        "do for [i=1:|F|] {\n", f);
  splot_frame(f, cols);
  fputs("}\nset output\n"
        "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
        "  set terminal pngcairo size 800,600 noenhanced\n"
        "} else {\n"
        "  set terminal png size 800,600 noenhanced\n"
        "}\n"
        "do for [i=1:|F|] {\n"
        "  set output sprintf('animation/frame_%06d.png', F[i])\n", f);
  splot_frame(f, cols);
  fputs("}\nset output\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    if (note && notelen) snprintf(note, notelen, "cannot write %s", path);
    return MBDAE_OK;
  }
  snprintf(path, sizeof path, "%s/animation.gif", dir);
  remove(path); /* never a stale picture */
  int st = mbdae_gnuplot_run(gnuplot, dir, "animation/animation.gp", "animation/gnuplot.log");
  struct stat sb;
  if (st != 0 || stat(path, &sb) != 0 || sb.st_size == 0) {
    if (note && notelen)
      snprintf(note, notelen, "gnuplot could not render the animation (see animation/gnuplot.log)");
  }
  return MBDAE_OK;
}
