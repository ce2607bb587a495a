/* test_scene_animation.c - the scene as pictures (output.animation): the
 * frame data next to the VTK frames, rendered by gnuplot to PNG frames and
 * an animated GIF with one picture per frame (at most 100, evenly thinned);
 * a rerun without the animation leaves none of it; VTK frames of a longer
 * earlier run are removed by a shorter rerun. Skipped (with a message)
 * where gnuplot is not installed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "gnuplot_run.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"

static long count_files(const char *dir, const char *pattern) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  long n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) n += fnmatch(pattern, e->d_name, 0) == 0;
  closedir(d);
  return n;
}

static int run_pendulum(const char *dir, const char *t_end, int animation) {
  char err[1024], set_t[64], set_a[64];
  snprintf(set_t, sizeof set_t, "solver.t_end=%s", t_end);
  snprintf(set_a, sizeof set_a, "output.animation=%s", animation ? "true" : "false");
  const char *ov[] = {set_t, set_a, "output.plots=false"};
  mbdae_scenario s;
  int rc = mbdae_scenario_load(mbdae_test_source_path("scenarios/pendulum_baumgarte.yaml"), ov, 3,
                               &s, err, sizeof err);
  if (rc) {
    printf("\n  %s\n", err);
    return rc;
  }
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  mbdae_run_result r;
  rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  if (r.plot_note[0]) printf("\n  note: %s\n", r.plot_note);
  mbdae_scenario_free(&s);
  return rc;
}

/* Frames of an animated GIF: its graphic control extensions (21 F9 04). */
static long gif_frames(const char *path, int *is_gif) {
  FILE *f = fopen(path, "rb");
  *is_gif = 0;
  if (!f) return -1;
  unsigned char head[6] = {0};
  *is_gif = fread(head, 1, 6, f) == 6 && !memcmp(head, "GIF89a", 6);
  long n = 0;
  int a = 0, b = 0, c;
  while ((c = fgetc(f)) != EOF) {
    n += a == 0x21 && b == 0xF9 && c == 0x04;
    a = b;
    b = c;
  }
  fclose(f);
  return n;
}

static void test_animation(void) {
  char gp[4096];
  if (mbdae_gnuplot_find(gp, sizeof gp)) {
    printf("\n  gnuplot is not installed: the animation is not rendered (skipped)\n");
    return;
  }
  char dir[4096], sub[4200], path[4300];
  snprintf(dir, sizeof dir, "%s", mbdae_test_tmpdir("scene-animation"));
  /* 0.3 s at dt_out 0.01: 31 frames, all drawn */
  CU_ASSERT_EQUAL_FATAL(run_pendulum(dir, "0.3", 1), MBDAE_OK);
  snprintf(sub, sizeof sub, "%s/animation", dir);
  CU_ASSERT_EQUAL(count_files(sub, "frame_*.dat"), 31);
  CU_ASSERT_EQUAL(count_files(sub, "frame_*.png"), 31);
  CU_ASSERT(path_exists(sub, "animation.gp"));
  int is_gif;
  snprintf(path, sizeof path, "%s/animation.gif", dir);
  CU_ASSERT_EQUAL(gif_frames(path, &is_gif), 31);
  CU_ASSERT(is_gif);
  /* 1.2 s: 121 frames, drawn every second (61 pictures, at most 100) */
  CU_ASSERT_EQUAL_FATAL(run_pendulum(dir, "1.2", 1), MBDAE_OK);
  CU_ASSERT_EQUAL(count_files(sub, "frame_*.dat"), 121);
  CU_ASSERT_EQUAL(count_files(sub, "frame_*.png"), 61);
  CU_ASSERT_EQUAL(gif_frames(path, &is_gif), 61);
  /* a shorter rerun without the animation: no frame of the longer run stays */
  CU_ASSERT_EQUAL_FATAL(run_pendulum(dir, "0.2", 0), MBDAE_OK);
  CU_ASSERT(!path_exists(dir, "animation.gif"));
  CU_ASSERT(!path_exists(dir, "animation"));
  snprintf(sub, sizeof sub, "%s/vtk", dir);
  CU_ASSERT_EQUAL(count_files(sub, "frame_*.vtp"), 21);
  char *pvd = slurp(dir, "animation.pvd");
  CU_ASSERT_PTR_NOT_NULL_FATAL(pvd);
  long n = 0;
  for (const char *p = pvd; (p = strstr(p, "<DataSet")) != NULL; ++p) ++n;
  CU_ASSERT_EQUAL(n, 21);
  free(pvd);
  char *series = slurp(dir, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  int ncols = 1;
  for (const char *p = series; *p && *p != '\n'; ++p) ncols += *p == ',';
  CU_ASSERT(csv_check(series, ncols) >= 21); /* the series of the same run, whole lines */
  free(series);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"animation: frames, PNG pictures, GIF; stale frames removed", test_animation},
    {NULL, NULL}};
  return mbdae_test_main("scene_animation", tests);
}
