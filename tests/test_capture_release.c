/* test_capture_release.c - impacts never pull on a held contact.
 *
 * A free box at rest; point A rests on its top face (a held contact, no
 * force); point B hits the top face above the centre of mass moving down.
 * The box is knocked away from A, so A's contact must come free with no
 * impulse (a contact can only push): A keeps its velocity, and B and the box
 * obey the one-dimensional impact law with restitution e,
 *   V' = -m (1 + e) v / (m + M),   v_B' = V' + e v   (v_B = -v, V = 0),
 * computed here. A bilateral treatment of the held contact would drag A
 * along with the box (an adhesive impulse). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

/* Builds the scene and applies B's impact; returns the model (caller frees)
 * and the state in *yout. */
static capture_model *strike(int release_held, double **yout, double *v_out,
                             capture_params *pout) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 1;
  p.cols = 2;
  p.strings_on = 0;
  p.point_mass = 0.5;
  p.shape = CAPTURE_SHAPE_BOX;
  p.box_size[0] = 1.0, p.box_size[1] = 1.2, p.box_size[2] = 0.8;
  p.body_mass = 3.0;
  p.e_body = 0.6;
  p.release_held = release_held;
  p.launch_point[0] = -3.0; /* outside; the state is set below */
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(m->ns, 0);
  int n = capture_size(m), bo = capture_body_offset(m);
  double *y = calloc((size_t)n, sizeof *y), p0[3], L0[3], E0, p1[3], L1[3], E1;
  int *dirs = calloc((size_t)(2 * m->np), sizeof *dirs);
  CU_ASSERT_FATAL(y && dirs);
  CU_ASSERT_EQUAL(capture_initial_state(m, 0.0, y), MBDAE_OK);
  double top = 0.5 * p.box_size[2], v = 1.5;
  double rA[3] = {0.2, 0.3, top}, rB[3] = {0.0, 0.0, top};
  memcpy(&y[0], rA, sizeof rA);
  memcpy(&y[3], rB, sizeof rB);
  memset(&y[3 * m->np], 0, 6 * sizeof *y);
  y[3 * m->np + 5] = -v; /* B moves down onto the face */
  for (int c = 0; c < 3; ++c) y[bo + MBDAE_RB_P + c] = y[bo + MBDAE_RB_U + c] = y[bo + MBDAE_RB_W + c] = 0.0;
  y[bo + MBDAE_RB_Q] = 1.0, y[bo + MBDAE_RB_Q + 1] = y[bo + MBDAE_RB_Q + 2] = y[bo + MBDAE_RB_Q + 3] = 0.0;
  m->face[0] = mbdae_polytope_face_of(capture_body(m), rA, NULL);
  m->face[1] = mbdae_polytope_face_of(capture_body(m), rB, NULL);
  CU_ASSERT_EQUAL(m->face[0], m->face[1]);
  m->active[0] = 1; /* A held on the top face */
  m->active[1] = 0;
  dirs[1] = 1;      /* B's gap closed */
  capture_momenta(m, y, p0, L0, &E0);
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  CU_ASSERT_EQUAL(capture_event(0.0, y, NULL, dirs, &info, m), MBDAE_EVENT_CONTINUE);
  capture_momenta(m, y, p1, L1, &E1);
  for (int c = 0; c < 3; ++c) MBDAE_ASSERT_ABS(p1[c], p0[c], 1e-14);
  CU_ASSERT(E1 <= E0);
  free(dirs);
  *yout = y;
  *v_out = v;
  *pout = p;
  return m;
}

static void test_held_contact_released(void) {
  double *y = NULL, v = 0.0;
  capture_params p;
  capture_model *m = strike(1, &y, &v, &p);
  int bo = capture_body_offset(m);
  double M = p.body_mass, mp = p.point_mass;
  double V = -mp * (1.0 + p.e_body) * v / (mp + M), vB = V + p.e_body * v;
  for (int c = 0; c < 3; ++c) MBDAE_ASSERT_ABS(y[3 * m->np + c], 0.0, 1e-14); /* A untouched */
  MBDAE_ASSERT_ABS(y[3 * m->np + 3], 0.0, 1e-14);
  MBDAE_ASSERT_ABS(y[3 * m->np + 4], 0.0, 1e-14);
  MBDAE_ASSERT_REL(y[3 * m->np + 5], vB, 1e-12);
  MBDAE_ASSERT_REL(y[bo + MBDAE_RB_U + 2], V, 1e-12);
  for (int c = 0; c < 3; ++c) MBDAE_ASSERT_ABS(y[bo + MBDAE_RB_W + c], 0.0, 1e-14);
  CU_ASSERT_EQUAL(m->active[0], 0); /* A's contact is free */
  free(y);
  capture_free(&m);
}

/* The default (release_held: false) keeps held constraints bilateral
 * through an impact: A is dragged along, its normal velocity equal to that
 * of the box's material point under it, U_z + (w x rho)_z (identity
 * attitude: body axes = inertial axes), and its contact stays held. */
static void test_held_contact_bilateral_default(void) {
  double *y = NULL, v = 0.0;
  capture_params p;
  capture_model *m = strike(0, &y, &v, &p);
  int bo = capture_body_offset(m);
  const double *U = &y[bo + MBDAE_RB_U], *w = &y[bo + MBDAE_RB_W], *rA = &y[0];
  double vz = U[2] + w[0] * rA[1] - w[1] * rA[0];
  MBDAE_ASSERT_REL(y[3 * m->np + 2], vz, 1e-12);
  CU_ASSERT(y[3 * m->np + 2] < -0.1 * v); /* pulled down with the box */
  CU_ASSERT_EQUAL(m->active[0], 1);
  free(y);
  capture_free(&m);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"release_held: an impact releases a held contact instead of pulling it",
     test_held_contact_released},
    {"default: held contacts stay bilateral through an impact", test_held_contact_bilateral_default},
    {NULL, NULL},
  };
  return mbdae_test_main("capture_release", tests);
}
