/* test_capture_vtk.c - the VTK time series of the capture model: frames
 * with the net points, strings and body faces, and the .pvd index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "mbdae/geometry.h"
#include "mbdae/status.h"
#include "testutil.h"
#include "writer_vtk.h"

static long count_in_file(const char *path, const char *needle) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[4096];
  long n = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, needle)) ++n;
  fclose(f);
  return n;
}

static void test_frames(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 3;
  p.cols = 2;
  p.launch_point[2] = -5.0;
  p.launch_velocity[2] = 1.0;
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  capture_initial_state(m, 0.0, y);
  CU_ASSERT_PTR_NOT_NULL(mbdae_geometry_find("net_capture"));
  CU_ASSERT_PTR_NULL(mbdae_geometry_find("no_such_kind"));
  const char *dir = mbdae_test_tmpdir("capture-vtk");
  int failed = 1;
  mbdae_vtk *v = mbdae_vtk_open("net_capture", dir, 0.1, MBDAE_SCENE_VTK, &failed);
  CU_ASSERT_EQUAL(failed, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  CU_ASSERT_EQUAL(mbdae_vtk_frame(v, (mbdae_model *)m, 0.0, y), MBDAE_OK);
  y[2] += 0.5;
  CU_ASSERT_EQUAL(mbdae_vtk_frame(v, (mbdae_model *)m, 0.05, y), MBDAE_OK); /* skipped: < dt */
  CU_ASSERT_EQUAL(mbdae_vtk_frame(v, (mbdae_model *)m, 0.1, y), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_vtk_close(&v), MBDAE_OK);
  CU_ASSERT_PTR_NULL(v);
  char path[4200];
  snprintf(path, sizeof path, "%s/animation.pvd", dir);
  CU_ASSERT_EQUAL(count_in_file(path, "<DataSet timestep="), 2);
  snprintf(path, sizeof path, "%s/vtk/frame_000001.vtp", dir);
  /* 6 points (each a vertex cell) + 16 prism vertices, 7 strings, 10 faces */
  CU_ASSERT_EQUAL(count_in_file(path, "NumberOfPoints=\"22\" NumberOfVerts=\"6\" NumberOfLines=\"7\""), 1);
  CU_ASSERT_EQUAL(count_in_file(path, "Name=\"part\""), 1);
  CU_ASSERT_EQUAL(count_in_file(path, "Name=\"taut\""), 1);
  CU_ASSERT_EQUAL(count_in_file(path, "Name=\"TimeValue\""), 1);
  CU_ASSERT_EQUAL(count_in_file(path, "format=\"ascii\""), 0); /* binary arrays */
  CU_ASSERT_EQUAL(count_in_file(path, "NumberOfPolys=\"10\""), 1);
  free(y);
  capture_free(&m);
}

int main(void) {
  const mbdae_test tests[] = {{"VTK frames and index", test_frames}, {NULL, NULL}};
  return mbdae_test_main("capture_vtk", tests);
}
