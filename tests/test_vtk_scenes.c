/* test_vtk_scenes.c - the VTK scenes of every model with geometry: a short
 * shipped scenario is run through the driver, the frames DIR/vtk/frame_*.vtp and
 * the index DIR/animation.pvd are read back by a small parser written here,
 * and the geometry of one frame is checked against the state that
 * series.csv holds at the same time, with the scene's facts computed here
 * (distances, circle radii, the moving boundary's formula, the valley's
 * vertices, string lengths against phi = |S|^2 - L^2). Also: a long series
 * is thinned to a bounded number of frames. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "billiard/billiard.h"
#include "file_util.h"
#include "mbdae/status.h"
#include "ravine/ravine.h"
#include "rover/rover.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"
#include "wheel/wheel.h"
#include "writer_vtk.h"

static const double PI = 3.14159265358979323846;

/* ---- running a scenario ------------------------------------------------ */

static char outdir[4096];

/* Load scenarios/<name>.yaml with overrides, run it into a fresh directory
 * (outdir). s is left loaded (free it). */
static int run_scenario(const char *name, const char *const *ov, int n, mbdae_scenario *s) {
  char path[512], err[1024];
  snprintf(path, sizeof path, "scenarios/%s.yaml", name);
  int rc = mbdae_scenario_load(mbdae_test_source_path(path), ov, n, s, err, sizeof err);
  if (rc) {
    printf("\n  %s: %s\n", name, err);
    return rc;
  }
  snprintf(outdir, sizeof outdir, "%s", mbdae_test_tmpdir(name));
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, s);
  cfg.out_dir = outdir;
  cfg.plots = 0;
  mbdae_run_result r;
  rc = mbdae_scenario_run(s, &cfg, &r, err, sizeof err);
  if (rc) printf("\n  %s: %s\n", name, err);
  return rc;
}

/* Remove a run's directory (files, vtk/ and its frames). */
static void remove_run(const char *dir) {
  char path[8400];
  const char *sub[2] = {"vtk", ""};
  for (int k = 0; k < 2; ++k) {
    char d[4200];
    snprintf(d, sizeof d, "%s/%s", dir, sub[k]);
    DIR *h = opendir(d);
    if (!h) continue;
    struct dirent *e;
    while ((e = readdir(h)))
      if (e->d_name[0] != '.' && strcmp(e->d_name, "vtk")) {
        snprintf(path, sizeof path, "%s/%s", d, e->d_name);
        remove(path);
      }
    closedir(h);
  }
  snprintf(path, sizeof path, "%s/vtk", dir);
  remove(path);
  remove(dir);
}

/* ---- the .pvd index ----------------------------------------------------- */

typedef struct pvd {
  int n;
  double t[4096];
  char file[4096][32];
} pvd;

static pvd index_;

/* Parse DIR/animation.pvd; the number of data sets, -1 if unreadable. */
static int read_pvd(const char *dir, pvd *x) {
  char *text = slurp(dir, "animation.pvd");
  if (!text) return -1;
  x->n = 0;
  const char *p = text;
  while ((p = strstr(p, "<DataSet timestep=\"")) && x->n < 4096) {
    p += strlen("<DataSet timestep=\"");
    x->t[x->n] = strtod(p, NULL);
    const char *f = strstr(p, "file=\"");
    if (!f) break;
    f += 6;
    const char *e = strchr(f, '"');
    if (!e || e - f >= 32) break;
    memcpy(x->file[x->n], f, (size_t)(e - f));
    x->file[x->n][e - f] = '\0';
    x->n++;
  }
  free(text);
  return x->n;
}

static int count_vtp(const char *dir) {
  char path[4200];
  snprintf(path, sizeof path, "%s/vtk", dir);
  DIR *d = opendir(path);
  if (!d) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".vtp")) ++n;
  closedir(d);
  return n;
}

/* ---- a frame ------------------------------------------------------------ */

typedef struct frame {
  int np, nv, nl, npoly;
  double *pts;             /* np x 3 */
  double *verts_c;         /* connectivity of the vertex cells */
  double *lines_c;         /* 2 nl */
  double *poly_c, *poly_o; /* connectivity, offsets */
  double *part;            /* cell array "part" (nv + nl + npoly), may be NULL */
  char *text;
} frame;

static long attr(const char *text, const char *key) {
  const char *p = strstr(text, key);
  return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

/* A base64 digit's value, -1 for anything else ('=', blanks). */
static int b64(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* The values of an inline binary DataArray (VTK XML: base64 of a UInt32
 * byte count, then the little-endian values), of type Float64 or Int32
 * (tag: its opening tag), as doubles; count in *n. */
static double *binary_values(const char *tag, const char *q, const char *end, long *n) {
  size_t cap = (size_t)(end - q) / 4 * 3 + 3, len = 0;
  unsigned char *raw = malloc(cap);
  if (!raw) return NULL;
  unsigned acc = 0;
  int bits = 0;
  for (; q < end; ++q) {
    int d = b64(*q);
    if (d < 0) continue;
    acc = (acc << 6) | (unsigned)d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      raw[len++] = (unsigned char)(acc >> bits & 0xff);
    }
  }
  uint32_t nbytes = 0;
  if (len >= 4) memcpy(&nbytes, raw, 4);
  int is_double = strstr(tag, "type=\"Float64\"") != NULL;
  int is_int = strstr(tag, "type=\"Int32\"") != NULL;
  size_t width = is_double ? 8 : 4;
  if ((!is_double && !is_int) || len < 4 || nbytes > len - 4 || nbytes % width) {
    free(raw);
    *n = 0;
    return NULL;
  }
  *n = (long)(nbytes / width);
  double *v = malloc((size_t)(*n > 0 ? *n : 1) * sizeof *v);
  for (long i = 0; v && i < *n; ++i) {
    if (is_double) {
      memcpy(&v[i], raw + 4 + 8 * i, 8);
    } else {
      int32_t k;
      memcpy(&k, raw + 4 + 4 * i, 4);
      v[i] = k;
    }
  }
  free(raw);
  return v;
}

/* Numbers of the DataArray named name (NULL: the first) inside
 * <section ...> ... </section>; malloc'd, count in *n; NULL if absent. */
static double *array_in(const char *text, const char *section, const char *name, long *n) {
  char open[64], close[64];
  snprintf(open, sizeof open, "<%s", section);
  snprintf(close, sizeof close, "</%s>", section);
  const char *a = strstr(text, open);
  const char *z = a ? strstr(a, close) : NULL;
  *n = 0;
  if (!a || !z) return NULL;
  const char *p = a;
  for (;;) {
    p = strstr(p, "<DataArray");
    if (!p || p > z) return NULL;
    const char *gt = strchr(p, '>');
    if (!gt) return NULL;
    if (!name) break;
    char want[96];
    snprintf(want, sizeof want, "Name=\"%s\"", name);
    const char *hit = strstr(p, want);
    if (hit && hit < gt) break;
    p = gt;
  }
  const char *q = strchr(p, '>') + 1;
  const char *end = strstr(q, "</DataArray>");
  if (!end) return NULL;
  const char *gt = strchr(p, '>');
  char tag[512];
  snprintf(tag, sizeof tag, "%.*s", (int)(gt - p), p);
  if (strstr(tag, "format=\"binary\"")) return binary_values(tag, q, end, n);
  long cap = 64;
  double *v = malloc((size_t)cap * sizeof *v);
  while (v) {
    char *next;
    double x = strtod(q, &next);
    if (next == q || next > end) break;
    if (*n == cap) {
      cap *= 2;
      double *w = realloc(v, (size_t)cap * sizeof *w);
      if (!w) { free(v); return NULL; }
      v = w;
    }
    v[(*n)++] = x;
    q = next;
  }
  return v;
}

static void frame_free(frame *f) {
  free(f->pts);
  free(f->verts_c);
  free(f->lines_c);
  free(f->poly_c);
  free(f->poly_o);
  free(f->part);
  free(f->text);
  memset(f, 0, sizeof *f);
}

/* Read DIR/<file> (as named in the index). 0 or -1. */
static int read_frame(const char *dir, const char *file, frame *f) {
  memset(f, 0, sizeof *f);
  f->text = slurp(dir, file);
  if (!f->text) return -1;
  f->np = (int)attr(f->text, "NumberOfPoints=\"");
  f->nv = (int)attr(f->text, "NumberOfVerts=\"");
  f->nl = (int)attr(f->text, "NumberOfLines=\"");
  f->npoly = (int)attr(f->text, "NumberOfPolys=\"");
  long n;
  f->pts = array_in(f->text, "Points", NULL, &n);
  if (!f->pts || n != 3L * f->np) return -1;
  if (f->nv > 0) {
    f->verts_c = array_in(f->text, "Verts", "connectivity", &n);
    if (n != f->nv) return -1;
  }
  f->lines_c = array_in(f->text, "Lines", "connectivity", &n);
  if (n != 2L * f->nl) return -1;
  if (f->npoly > 0) {
    f->poly_c = array_in(f->text, "Polys", "connectivity", &n);
    long no;
    f->poly_o = array_in(f->text, "Polys", "offsets", &no);
    if (no != f->npoly || !f->poly_c || n != (long)f->poly_o[f->npoly - 1]) return -1;
  }
  f->part = array_in(f->text, "CellData", "part", &n);
  if (f->part && n != (long)f->nv + f->nl + f->npoly) return -1;
  return 0;
}

static const double *pt(const frame *f, double idx) { return f->pts + 3 * (long)idx; }

static double dist3(const double *a, const double *b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
              (a[2] - b[2]) * (a[2] - b[2]));
}

/* Largest | |p - c| - r | over the points of the polygons (or lines) of part k. */
static double poly_sphere_error(const frame *f, int k, const double c[3], double r, int *count) {
  double e = 0.0;
  *count = 0;
  for (int q = 0; q < f->npoly; ++q) {
    if ((int)f->part[f->nv + f->nl + q] != k) continue;
    long a = q ? (long)f->poly_o[q - 1] : 0, b = (long)f->poly_o[q];
    for (long i = a; i < b; ++i) {
      e = fmax(e, fabs(dist3(pt(f, f->poly_c[i]), c) - r));
      ++*count;
    }
  }
  return e;
}

static double line_circle_error(const frame *f, int k, const double c[3], double r, int *count) {
  double e = 0.0;
  *count = 0;
  for (int l = 0; l < f->nl; ++l) {
    if ((int)f->part[f->nv + l] != k) continue;
    for (int s = 0; s < 2; ++s) e = fmax(e, fabs(dist3(pt(f, f->lines_c[2 * l + s]), c) - r));
    ++*count;
  }
  return e;
}

/* ---- series.csv --------------------------------------------------------- */

typedef struct series {
  int ncol;
  char names[512][64];
  long nrow;
  double *v; /* nrow x ncol */
} series;

static int read_series(const char *dir, series *s) {
  memset(s, 0, sizeof *s);
  char *text = slurp(dir, "series.csv");
  if (!text) return -1;
  int ncol = 1;
  for (const char *q = text; *q && *q != '\n'; ++q) ncol += *q == ',';
  if (csv_check(text, ncol) < 1) {
    free(text);
    return -1;
  }
  char *line = text, *nl = strchr(line, '\n');
  if (!nl) { free(text); return -1; }
  *nl = '\0';
  for (char *tok = strtok(line, ","); tok && s->ncol < 512; tok = strtok(NULL, ",")) {
    char *br = strstr(tok, " [");
    if (br) *br = '\0';
    snprintf(s->names[s->ncol++], 64, "%s", tok);
  }
  long cap = 256;
  s->v = malloc((size_t)cap * (size_t)s->ncol * sizeof *s->v);
  char *p = nl + 1;
  while (s->v && *p) {
    if (s->nrow == cap) {
      cap *= 2;
      double *w = realloc(s->v, (size_t)cap * (size_t)s->ncol * sizeof *w);
      if (!w) break;
      s->v = w;
    }
    for (int c = 0; c < s->ncol; ++c) {
      char *end;
      s->v[s->nrow * s->ncol + c] = strtod(p, &end);
      if (end == p) { /* a text field (row_kind): NAN here */
        s->v[s->nrow * s->ncol + c] = NAN;
        end = p + strcspn(p, ",\n");
      }
      p = end;
      if (*p == ',' || *p == '\n') ++p;
    }
    s->nrow++;
  }
  free(text);
  return s->v ? 0 : -1;
}

static int col(const series *s, const char *name) {
  for (int c = 0; c < s->ncol; ++c)
    if (!strcmp(s->names[c], name)) return c;
  printf("\n  no column %s\n", name);
  return -1;
}

/* The row at time t (the first whose t matches to 1e-9). */
static const double *row_at(const series *s, double t) {
  for (long r = 0; r < s->nrow; ++r)
    if (fabs(s->v[r * s->ncol] - t) <= 1e-9 * fmax(1.0, fabs(t))) return s->v + r * s->ncol;
  return NULL;
}

static double val(const series *s, const double *row, const char *name) {
  int c = col(s, name);
  return c >= 0 && row ? row[c] : NAN;
}

/* Common part: index, file count, frame k (-1: the middle one) and its
 * row. Returns the row or NULL. */
static const double *load(int k, frame *f, series *s) {
  CU_ASSERT(path_exists(outdir, "vtk"));
  CU_ASSERT(path_exists(outdir, "animation.pvd"));
  int n = read_pvd(outdir, &index_);
  CU_ASSERT(n >= 3);
  CU_ASSERT_EQUAL(count_vtp(outdir), n);
  if (n < 3) return NULL;
  for (int i = 1; i < n; ++i) CU_ASSERT(index_.t[i] > index_.t[i - 1]);
  if (k < 0) k = n / 2;
  CU_ASSERT_EQUAL_FATAL(read_frame(outdir, index_.file[k], f), 0);
  CU_ASSERT_EQUAL_FATAL(read_series(outdir, s), 0);
  const double *row = row_at(s, index_.t[k]);
  CU_ASSERT_PTR_NOT_NULL(row);
  return row;
}

/* ---- the scenes --------------------------------------------------------- */

/* 6 x 6 grid: every point is a vertex at (x_k, y_k, z_k), every string a
 * line whose ends are |S|^2 = L^2 + phi_s apart, with tension T_s. */
static void test_string_net(void) {
  const char *ov[] = {"solver.t_end=0.5"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("net_deploy", ov, 1, &sc), MBDAE_OK);
  frame f;
  series s;
  const double *row = load(-1, &f, &s);
  const int n = 6, m = 6;
  const double L = 0.5;
  CU_ASSERT_EQUAL(f.np, n * m);
  CU_ASSERT_EQUAL(f.nv, n * m);
  CU_ASSERT_EQUAL(f.nl, n * (m - 1) + m * (n - 1));
  double e = 0.0, ephi = 0.0, eT = 0.0, Tmax = 0.0;
  long nT;
  double *T = array_in(f.text, "CellData", "tension", &nT);
  CU_ASSERT_EQUAL_FATAL(nT, f.nv + f.nl);
  for (int k = 0; k < f.nv && row; ++k) {
    char name[32];
    const double *p = pt(&f, f.verts_c[k]);
    snprintf(name, sizeof name, "x_%d", k);
    e = fmax(e, fabs(p[0] - val(&s, row, name)));
    snprintf(name, sizeof name, "y_%d", k);
    e = fmax(e, fabs(p[1] - val(&s, row, name)));
    snprintf(name, sizeof name, "z_%d", k);
    e = fmax(e, fabs(p[2] - val(&s, row, name)));
  }
  for (int l = 0; l < f.nl && row; ++l) {
    char name[32];
    double d = dist3(pt(&f, f.lines_c[2 * l]), pt(&f, f.lines_c[2 * l + 1]));
    snprintf(name, sizeof name, "phi_%d", l);
    ephi = fmax(ephi, fabs(d * d - L * L - val(&s, row, name)));
    snprintf(name, sizeof name, "T_%d", l);
    double Ts = val(&s, row, name);
    eT = fmax(eT, fabs(T[f.nv + l] - Ts));
    Tmax = fmax(Tmax, fabs(Ts));
  }
  MBDAE_ASSERT_ABS(e, 0.0, 1e-9);
  MBDAE_ASSERT_ABS(ephi, 0.0, 1e-9);
  MBDAE_ASSERT_ABS(eT, 0.0, 1e-7 * fmax(1.0, Tmax));
  free(T);
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Bola in the ODE form (multipliers solved for the frame): one line,
 * tension equal to the series' T_0, taut flag 0/1. */
static void test_bola_ode(void) {
  const char *ov[] = {"solver.t_end=1.5", "solver.method=cvode-bdf", "solver.linear_solver=dense",
                      "solver.dt_out=0.025"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("bola_event", ov, 4, &sc), MBDAE_OK);
  int n = read_pvd(outdir, &index_);
  CU_ASSERT_EQUAL(n, 61);
  series s;
  CU_ASSERT_EQUAL_FATAL(read_series(outdir, &s), 0);
  double eT = 0.0, Tmax = 0.0;
  for (int k = 0; k < n; k += 5) {
    frame f;
    CU_ASSERT_EQUAL_FATAL(read_frame(outdir, index_.file[k], &f), 0);
    CU_ASSERT_EQUAL(f.nl, 1);
    CU_ASSERT_EQUAL(f.nv, 2);
    long nT;
    double *T = array_in(f.text, "CellData", "tension", &nT);
    const double *row = row_at(&s, index_.t[k]);
    CU_ASSERT_PTR_NOT_NULL(row);
    if (T && nT == 3 && row) {
      eT = fmax(eT, fabs(T[2] - val(&s, row, "T_0")));
      Tmax = fmax(Tmax, fabs(T[2]));
    }
    free(T);
    frame_free(&f);
  }
  CU_ASSERT(Tmax > 0.1); /* taut at the end (0.28 N after the second impact) */
  MBDAE_ASSERT_ABS(eT, 0.0, 1e-7 * Tmax);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Rover: the sphere mesh at distance r from (x, y, r); the rod from the
 * centre, length l, inclined by theta_p in the x-z plane; the cube's
 * corners sqrt(3) h / 2 from the rod's end; the ground in z = 0. */
static void test_rover(void) {
  const char *ov[] = {"solver.t_end=1"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("rover_sim2_consistent", ov, 1, &sc), MBDAE_OK);
  const rover_params *p = sc.params;
  frame f;
  series s;
  const double *row = load(-1, &f, &s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f.part);
  const double c[3] = {val(&s, row, "x"), val(&s, row, "y"), p->r};
  int cnt;
  MBDAE_ASSERT_ABS(poly_sphere_error(&f, 1, c, p->r, &cnt), 0.0, 1e-9);
  CU_ASSERT(cnt > 100);
  MBDAE_ASSERT_ABS(line_circle_error(&f, 1, c, p->r, &cnt), 0.0, 1e-9);
  CU_ASSERT_EQUAL(cnt, 96); /* two great circles */
  int rods = 0;
  double end[3] = {0, 0, 0};
  for (int l = 0; l < f.nl; ++l) {
    if ((int)f.part[f.nv + l] != 2) continue;
    ++rods;
    const double *a = pt(&f, f.lines_c[2 * l]), *b = pt(&f, f.lines_c[2 * l + 1]);
    MBDAE_ASSERT_ABS(dist3(a, c), 0.0, 1e-9);
    MBDAE_ASSERT_REL(dist3(b, c), p->l, 1e-9);
    for (int i = 0; i < 3; ++i) end[i] = b[i];
    double th = atan2(-(b[0] - c[0]), -(b[2] - c[2])) * 180.0 / PI;
    MBDAE_ASSERT_ABS(th, val(&s, row, "theta_p"), 1e-7);
  }
  CU_ASSERT_EQUAL(rods, 1);
  MBDAE_ASSERT_ABS(poly_sphere_error(&f, 3, end, sqrt(3.0) * 0.5 * p->h, &cnt), 0.0, 1e-9);
  CU_ASSERT_EQUAL(cnt, 24); /* 6 quadrilaterals */
  for (int l = 0; l < f.nl; ++l)
    if ((int)f.part[f.nv + l] == 0) {
      CU_ASSERT_EQUAL(pt(&f, f.lines_c[2 * l])[2], 0.0);
      CU_ASSERT_EQUAL(pt(&f, f.lines_c[2 * l + 1])[2], 0.0);
    }
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Ravine: the sphere mesh at distance b from the series' centre; the
 * valley's four corners (hartl sec. 4.2: rim at x_edge, decline beta down
 * dh, floor pl, incline theta up) are vertices of the profile. */
static void test_ravine(void) {
  const char *ov[] = {"solver.t_end=2"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("ravine_example_4_2", ov, 1, &sc), MBDAE_OK);
  const ravine_params *p = sc.params;
  frame f;
  series s;
  const double *row = load(-1, &f, &s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f.part);
  const double c[3] = {val(&s, row, "x"), val(&s, row, "y"), val(&s, row, "z")};
  int cnt;
  MBDAE_ASSERT_ABS(poly_sphere_error(&f, 1, c, p->b, &cnt), 0.0, 1e-9);
  CU_ASSERT(cnt > 100);
  double x1 = p->x_edge + fabs(p->dh) / tan(p->beta_deg * PI / 180.0);
  double x2 = x1 + p->pl, x3 = x2 + fabs(p->dh) / tan(p->theta_deg * PI / 180.0);
  const double corner[4][2] = {{p->x_edge, 0.0}, {x1, p->dh}, {x2, p->dh}, {x3, 0.0}};
  for (int k = 0; k < 4; ++k) {
    int found = 0;
    for (int l = 0; l < f.nl; ++l) {
      if ((int)f.part[f.nv + l] != 0) continue;
      for (int e = 0; e < 2; ++e) {
        const double *q = pt(&f, f.lines_c[2 * l + e]);
        if (fabs(q[0] - corner[k][0]) < 1e-9 && fabs(q[1] - corner[k][1]) < 1e-9 &&
            fabs(q[2] - c[2]) < 1e-12)
          found = 1;
      }
    }
    if (!found) printf("\n  valley corner %d (%g, %g) not in the profile\n", k, corner[k][0],
                       corner[k][1]);
    CU_ASSERT(found);
  }
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Billiard: the ball's centre vertex at (q1, q2), its rim at distance b,
 * and every boundary point on q2 = a (q1 - A sin(2 pi f t))^2 + c (HMM
 * eqs. 9a, 10) at the frame's time. */
static void test_billiard(void) {
  const char *ov[] = {"solver.t_end=5"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("billiard_parabola_4p5", ov, 1, &sc), MBDAE_OK);
  const billiard_params *p = sc.params;
  CU_ASSERT_EQUAL_FATAL(p->shape, BILLIARD_PARABOLA);
  frame f;
  series s;
  const double *row = load(7, &f, &s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f.part);
  double t = index_.t[7];
  const double c[3] = {val(&s, row, "q1"), val(&s, row, "q2"), 0.0};
  CU_ASSERT_EQUAL_FATAL(f.nv, 1);
  const double *pc = pt(&f, f.verts_c[0]);
  MBDAE_ASSERT_ABS(pc[0], c[0], 1e-11);
  MBDAE_ASSERT_ABS(pc[1], c[1], 1e-11);
  int cnt;
  MBDAE_ASSERT_ABS(line_circle_error(&f, 1, c, p->radius, &cnt), 0.0, 1e-11);
  CU_ASSERT_EQUAL(cnt, 48);
  /* the radius line: at theta = u3 (t - t_c), t_c the last collision
   * before t (events.csv; every event of this run is an impact) */
  char *ev = slurp(outdir, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
  double tc = 0.0;
  for (const char *q = strchr(ev, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
    const char *f1 = strchr(q + 1, ','), *f2 = f1 ? strchr(f1 + 1, ',') : NULL;
    double te = f2 ? strtod(f1 + 1, NULL) : HUGE_VAL;
    if (te <= t && !strncmp(f2 + 1, "impact", 6)) tc = te;
  }
  free(ev);
  CU_ASSERT(tc > 0.0);
  double theta = val(&s, row, "u3") * (t - tc);
  int radii = 0;
  for (int l = 0; l < f.nl; ++l)
    if ((int)f.part[f.nv + l] == 2) {
      ++radii;
      const double *a = pt(&f, f.lines_c[2 * l]), *e2 = pt(&f, f.lines_c[2 * l + 1]);
      MBDAE_ASSERT_ABS(dist3(a, c), 0.0, 1e-11);
      MBDAE_ASSERT_ABS(e2[0], c[0] + p->radius * cos(theta), 1e-10);
      MBDAE_ASSERT_ABS(e2[1], c[1] + p->radius * sin(theta), 1e-10);
    }
  CU_ASSERT_EQUAL(radii, 1);
  double dq = p->amplitude * sin(2.0 * PI * p->frequency * t), e = 0.0, ymax = -HUGE_VAL;
  int nb = 0;
  for (int l = 0; l < f.nl; ++l) {
    if ((int)f.part[f.nv + l] != 0) continue;
    ++nb;
    for (int k = 0; k < 2; ++k) {
      const double *q = pt(&f, f.lines_c[2 * l + k]);
      double sx = q[0] - dq;
      e = fmax(e, fabs(q[1] - (p->parabola_a * sx * sx + p->parabola_c)));
      ymax = fmax(ymax, q[1]);
    }
  }
  CU_ASSERT(nb > 50);
  MBDAE_ASSERT_ABS(e, 0.0, 1e-9);
  CU_ASSERT(ymax > c[1]); /* the drawn boundary reaches above the ball */
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Wheel: the rim at distance r from (x, y), the spoke to
 * (x + r cos phi, y + r sin phi), the curb's corner at (l - r, h) and the
 * ground line at y = 0 from there (eq. 4b). */
static void test_wheel(void) {
  const char *ov[] = {"solver.t_end=0.2"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("wheel_beta0", ov, 1, &sc), MBDAE_OK);
  const wheel_params *p = sc.params;
  frame f;
  series s;
  const double *row = load(-1, &f, &s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f.part);
  const double c[3] = {val(&s, row, "x"), val(&s, row, "y"), 0.0};
  double phi = val(&s, row, "phi");
  int cnt;
  MBDAE_ASSERT_ABS(line_circle_error(&f, 1, c, p->r, &cnt), 0.0, 1e-10);
  CU_ASSERT_EQUAL(cnt, 48);
  int spokes = 0, corner = 0, ground = 0;
  for (int l = 0; l < f.nl; ++l) {
    const double *a = pt(&f, f.lines_c[2 * l]), *b = pt(&f, f.lines_c[2 * l + 1]);
    int part = (int)f.part[f.nv + l];
    if (part == 2) {
      ++spokes;
      MBDAE_ASSERT_ABS(dist3(a, c), 0.0, 1e-10);
      MBDAE_ASSERT_ABS(b[0], c[0] + p->r * cos(phi), 1e-10);
      MBDAE_ASSERT_ABS(b[1], c[1] + p->r * sin(phi), 1e-10);
    } else if (part == 0) {
      for (int k = 0; k < 2; ++k) {
        const double *q = k ? b : a;
        if (fabs(q[0] - (p->l - p->r)) < 1e-12 && fabs(q[1] - p->h) < 1e-12) ++corner;
      }
      if (a[1] == 0.0 && b[1] == 0.0 && fabs(a[0] - (p->l - p->r)) < 1e-12 && b[0] > c[0] + p->r)
        ++ground;
    }
  }
  CU_ASSERT_EQUAL(spokes, 1);
  CU_ASSERT_EQUAL(corner, 2); /* the curb's top and its face meet there */
  CU_ASSERT_EQUAL(ground, 1);
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* Ball at (0, height); pendulum bob at (x, y) with the rod's tension. */
static void test_acceptance_models(void) {
  const char *ov[] = {"solver.t_end=1"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("ball", ov, 1, &sc), MBDAE_OK);
  frame f;
  series s;
  const double *row = load(-1, &f, &s);
  CU_ASSERT_EQUAL_FATAL(f.nv, 1);
  MBDAE_ASSERT_ABS(pt(&f, f.verts_c[0])[1], val(&s, row, "height"), 1e-10);
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);

  CU_ASSERT_EQUAL_FATAL(run_scenario("pendulum_ggl", ov, 1, &sc), MBDAE_OK);
  row = load(-1, &f, &s);
  CU_ASSERT_EQUAL_FATAL(f.nv, 2);
  CU_ASSERT_EQUAL_FATAL(f.nl, 1);
  const double *bob = pt(&f, f.verts_c[1]);
  MBDAE_ASSERT_ABS(bob[0], val(&s, row, "x"), 1e-10);
  MBDAE_ASSERT_ABS(bob[1], val(&s, row, "y"), 1e-10);
  long nT;
  double *T = array_in(f.text, "CellData", "tension", &nT);
  CU_ASSERT_EQUAL_FATAL(nT, 3);
  MBDAE_ASSERT_REL(T[2], val(&s, row, "tension"), 1e-8);
  free(T);
  frame_free(&f);
  free(s.v);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

/* 5001 samples: the writer keeps at most MBDAE_VTK_MAX_FRAMES frames,
 * evenly spaced, each file named by its sample number (t - t0) / dt_out,
 * the index matching the files. */
static void test_bounded(void) {
  const char *ov[] = {"solver.t_end=5", "solver.dt_out=0.001"};
  mbdae_scenario sc;
  CU_ASSERT_EQUAL_FATAL(run_scenario("ball", ov, 2, &sc), MBDAE_OK);
  int n = read_pvd(outdir, &index_);
  CU_ASSERT(n > MBDAE_VTK_MAX_FRAMES / 2);
  CU_ASSERT(n <= MBDAE_VTK_MAX_FRAMES);
  CU_ASSERT_EQUAL(count_vtp(outdir), n);
  double dt = index_.t[1] - index_.t[0];
  CU_ASSERT(dt >= 0.002 - 1e-12);
  double e = 0.0;
  for (int i = 0; i < n; ++i) {
    char want[32];
    snprintf(want, sizeof want, "vtk/frame_%06ld.vtp", lround((index_.t[i] - index_.t[0]) / 0.001));
    CU_ASSERT_STRING_EQUAL(index_.file[i], want);
    CU_ASSERT(path_exists(outdir, index_.file[i]));
    if (i > 0) e = fmax(e, fabs(index_.t[i] - index_.t[i - 1] - dt));
  }
  MBDAE_ASSERT_ABS(e, 0.0, 1e-9);
  CU_ASSERT(index_.t[n - 1] > 5.0 - 1.001 * dt);
  mbdae_scenario_free(&sc);
  remove_run(outdir);
}

int main(void) {
  const mbdae_test tests[] = {
    {"string_net: points, strings, tension", test_string_net},
    {"string_net ODE form: tension from the multipliers", test_bola_ode},
    {"rover: sphere, pendulum, cube, ground", test_rover},
    {"ravine: sphere and valley profile", test_ravine},
    {"billiard: ball and moving boundary", test_billiard},
    {"wheel: rim, spoke, curb, ground", test_wheel},
    {"bouncing_ball and pendulum", test_acceptance_models},
    {"long series: bounded frame count", test_bounded},
    {NULL, NULL}};
  return mbdae_test_main("vtk_scenes", tests);
}
