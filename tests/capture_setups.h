/* capture_setups.h - set-ups shared by the net-capture tests
 * (test_capture_dae.c, test_capture_unilateral.c,
 * test_capture_unilateral_dae.c). */
#ifndef MBDAE_TESTS_CAPTURE_SETUPS_H
#define MBDAE_TESTS_CAPTURE_SETUPS_H

#include <math.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"

static inline void set3(double *d, double a, double b, double c) {
  d[0] = a;
  d[1] = b;
  d[2] = c;
}

/* Deterministic pseudo-random numbers in [-1, 1]. */
static inline double prand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 32767.5 - 1.0;
}

/* A 2 x 3 net launched at a 1 x 1.2 x 0.8 box (3 kg), with distinct
 * Baumgarte gains for strings and contacts: the Jacobian and consistency
 * checks' small problem. */
static inline void small_params(capture_params *p, int mode) {
  capture_params_default(p);
  p->mode = mode;
  p->rows = 2;
  p->cols = 3;
  p->spacing = 0.5;
  p->point_mass = 0.05;
  set3(p->launch_point, 0.0, 0.0, -3.0);
  set3(p->launch_velocity, 0.0, 0.0, 1.0);
  p->shape = CAPTURE_SHAPE_BOX;
  set3(p->box_size, 1.0, 1.2, 0.8);
  p->body_mass = 3.0;
  p->xi_string = 0.7;
  p->omega_string = 13.0;
  p->xi_body = 0.9;
  p->omega_body = 7.0;
}

/* The glancing contact: a point on the top face of a unit cube (2 kg) that
 * spins at `spin` about its x axis; the point starts outside (the model
 * requires it) and glance_place puts it on the face. */
static inline void glance_params(capture_params *p, int forces, double spin) {
  capture_params_default(p);
  p->mode = CAPTURE_MODE_BAUMGARTE;
  p->forces = forces;
  p->rows = p->cols = 1;
  p->strings_on = 0;
  p->point_mass = 0.1;
  p->launch_point[2] = 3.0;
  p->launch_velocity[1] = -0.5 * spin;
  p->shape = CAPTURE_SHAPE_BOX;
  p->box_size[0] = p->box_size[1] = p->box_size[2] = 1.0;
  p->body_mass = 2.0;
  p->body_omega[0] = spin;
}

/* Put the point at r0 = (0, 0, z0) (just inside the face z = 0.5), moving
 * with the face point under it: v0 = w x r0 = (0, -spin z0, 0); the contact
 * on that face active. */
static inline void glance_place(capture_model *m, double *y, double spin, double z0,
                                double r0[3], double v0[3]) {
  r0[0] = r0[1] = 0.0;
  r0[2] = z0;
  v0[0] = v0[2] = 0.0;
  v0[1] = -spin * z0;
  memcpy(y, r0, 3 * sizeof *y);
  memcpy(&y[3], v0, 3 * sizeof *y);
  m->face[0] = mbdae_polytope_face_of(capture_body(m), r0, NULL);
  capture_rows(m, y);
  m->active[0] = 1;
}

/* The benchmark's 10 x 10 capture (bench_capture.c at n = 10, with the
 * demo's spacing 0.45 m) in Baumgarte mode with gains xi, w. */
static inline void net10_params(capture_params *p, int forces, double xi, double w) {
  capture_params_default(p);
  p->mode = CAPTURE_MODE_BAUMGARTE;
  p->forces = forces;
  p->rows = p->cols = 10;
  p->spacing = 0.45;
  p->point_mass = 0.01;
  p->launch_point[2] = -5.0;
  p->launch_velocity[2] = 3.0;
  p->deploy_time = 1.0;
  p->shape = CAPTURE_SHAPE_PRISM;
  p->prism_sides = 8;
  p->prism_radius = 1.0;
  p->prism_length = 2.0;
  p->body_mass = 10.0;
  p->body_attitude[0] = p->body_attitude[2] = sqrt(0.5);
  p->body_omega[1] = 0.3;
  p->body_omega[2] = 0.2;
  p->xi_string = p->xi_body = xi;
  p->omega_string = p->omega_body = w;
}

#endif
