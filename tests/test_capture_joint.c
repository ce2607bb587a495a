/* test_capture_joint.c - the joint multiplier solve of the net-capture model
 * (capture_accelerations, sparse KLU form of capture_joint.c with the dense
 * LDL^T fallback): every active constraint's acceleration equation
 * G_k u' + gamma_k = -2 xi w c_k' - w^2 c_k (capps eqs. 2.102, 3.1-3.2) holds,
 * the reactions are internal (zero total force), and a redundant set (a net
 * folded onto a line) gets the unique rigid accelerations of the closed form.
 * The checks use the rows' G, gamma, c, c' and the masses only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

static void set3(double *d, double a, double b, double c) { d[0] = a; d[1] = b; d[2] = c; }

/* worst |G_k u' + gamma_k + 2 xi w c' + w^2 c| relative to its terms' size */
static double worst_row_residual(const capture_model *m, const double *acc) {
  double worst = 0.0;
  for (int k = 0; k < m->nc; ++k) {
    if (!m->active[k]) continue;
    const capture_row *r = &m->rows[k];
    int str = k < m->ns;
    double xi = str ? m->p.xi_string : m->p.xi_body, w = str ? m->p.omega_string : m->p.omega_body;
    double ga = 0.0, gs = 0.0;
    for (int i = 0; i < r->nz; ++i) {
      ga += r->val[i] * acc[r->idx[i]];
      gs += fabs(r->val[i] * acc[r->idx[i]]);
    }
    double stab = 2.0 * xi * w * r->cdot + w * w * r->c;
    double res = ga + r->gamma + stab;
    double scale = gs + fabs(r->gamma) + fabs(stab) + 1e-300;
    if (fabs(res) / scale > worst) worst = fabs(res) / scale;
  }
  return worst;
}

/* total force sum_i m_i a_i + m_P a_U (no thrust): the reactions are internal */
static double total_force(const capture_model *m, const double *acc, double *scale) {
  double f[3] = {0, 0, 0};
  *scale = 0.0;
  for (int i = 0; i < m->np; ++i)
    for (int c = 0; c < 3; ++c) {
      f[c] += acc[3 * i + c] / m->minv[i];
      *scale += fabs(acc[3 * i + c] / m->minv[i]);
    }
  for (int c = 0; c < 3; ++c) f[c] += m->body->mass * acc[3 * m->np + c];
  return sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
}

/* A deployed 6 x 6 net (all 60 strings exactly taut) wrapped on a box:
 * every second point held on its face, velocities perturbed so gamma, c'
 * are not trivial: 60 + 18 rows, the sparse path. */
static void test_sparse_rows_hold(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = p.cols = 6;
  p.spacing = 0.3;
  p.point_mass = 0.02;
  set3(p.launch_point, 0.0, 0.0, -1.0);
  set3(p.launch_velocity, 0.0, 0.0, 0.4);
  p.deploy_time = 1.0;
  p.shape = CAPTURE_SHAPE_BOX;
  set3(p.box_size, 1.2, 1.0, 0.8);
  p.body_mass = 2.0;
  p.body_attitude[0] = 0.9; p.body_attitude[1] = 0.1; p.body_attitude[2] = 0.3; p.body_attitude[3] = 0.2;
  set3(p.body_omega, 0.5, -0.2, 0.3);
  set3(p.body_velocity, 0.1, 0.0, -0.2);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  double *acc = calloc((size_t)m->nu, sizeof *acc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(acc);
  capture_initial_state(m, 0.0, y);
  int np = m->np;
  for (int i = 0; i < np; ++i)
    for (int c = 0; c < 3; ++c) {
      y[3 * i + c] += p.deploy_time * y[3 * np + 3 * i + c];
      y[3 * np + 3 * i + c] += 0.05 * sin(1.0 + 3.0 * i + c);
    }
  for (int k = 0; k < m->ns; ++k) m->active[k] = 1;
  for (int j = 0; j < np; j += 2) m->active[m->ns + j] = 1;
  capture_rows(m, y);
  CU_ASSERT_EQUAL_FATAL(capture_accelerations(m, 0.0, y, acc), 0);
  long an, fa, fb;
  capture_joint_stats(m, &an, &fa, &fb);
  CU_ASSERT_EQUAL(an, 1);
  CU_ASSERT_EQUAL(fa, 1);
  CU_ASSERT_EQUAL(fb, 0);
  double res = worst_row_residual(m, acc), fs, f = total_force(m, acc, &fs);
  printf("\n  78 rows: worst relative row residual %.2e, |sum F| %.2e of %.2e\n", res, f, fs);
  CU_ASSERT(res < 1e-10);
  CU_ASSERT(f < 1e-12 * fs);
  /* a second evaluation with the same rows reuses the analysis */
  for (int i = 0; i < np; ++i) y[3 * np + 3 * i] += 0.01;
  capture_rows(m, y);
  CU_ASSERT_EQUAL_FATAL(capture_accelerations(m, 0.0, y, acc), 0);
  capture_joint_stats(m, &an, &fa, &fb);
  CU_ASSERT_EQUAL(an, 1);
  CU_ASSERT_EQUAL(fa, 2);
  CU_ASSERT(worst_row_residual(m, acc) < 1e-10);
  free(acc);
  free(y);
  capture_free(&m);
}

/* A 2 x 8 net folded onto the x axis (point (a, b) at x = (a + b) L), every
 * string taut and rotating rigidly about the z axis at rate W: the 22 string
 * rows have rank 15 (a connected 1-D graph of 16 points), so the sparse
 * factorization is refused and the dense LDL^T zeroes the redundant rows.
 * The accelerations are still unique: a_x,i = -W^2 (x_i - x_mean) (relative
 * ones fixed by the strings, zero total force), a_y = a_z = 0. */
static void test_redundant_rows(void) {
  capture_params p;
  capture_params_default(&p);
  p.rows = 2;
  p.cols = 8;
  p.spacing = 0.25;
  p.point_mass = 0.1;
  set3(p.launch_velocity, 0.0, 0.0, 1.0);
  p.body_position[2] = 50.0; /* far away: no contact */
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(m->ns, 22);
  double *y = calloc((size_t)capture_size(m), sizeof *y);
  double *acc = calloc((size_t)m->nu, sizeof *acc);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(acc);
  capture_initial_state(m, 0.0, y);
  int np = m->np;
  double L = p.spacing, W = 1.7, xm = 0.0;
  for (int i = 0; i < np; ++i) {
    double a = m->grid[3 * i] / L + 0.5 * (p.rows - 1), b = m->grid[3 * i + 1] / L + 0.5 * (p.cols - 1);
    double x = (floor(a + 0.5) + floor(b + 0.5)) * L;
    set3(&y[3 * i], x, 0.0, 0.0);
    set3(&y[3 * np + 3 * i], 0.0, W * x, 0.0);
    xm += x / np; /* equal masses */
  }
  for (int k = 0; k < m->ns; ++k) m->active[k] = 1;
  capture_rows(m, y);
  for (int k = 0; k < m->ns; ++k) CU_ASSERT(fabs(m->rows[k].c) < 1e-14);
  CU_ASSERT_EQUAL_FATAL(capture_accelerations(m, 0.0, y, acc), 0);
  long an, fa, fb;
  capture_joint_stats(m, &an, &fa, &fb);
  CU_ASSERT_EQUAL(fb, 1);
  double worst = 0.0;
  for (int i = 0; i < np; ++i) {
    double ref = -W * W * (y[3 * i] - xm);
    worst = fmax(worst, fabs(acc[3 * i] - ref));
    worst = fmax(worst, fabs(acc[3 * i + 1]) + fabs(acc[3 * i + 2]));
  }
  printf("\n  folded net: %ld dense fallback(s), worst |a - a_rigid| %.2e m/s^2\n", fb, worst);
  CU_ASSERT(worst < 1e-9 * W * W * L * p.cols);
  for (int k = 0; k < m->ns; ++k) CU_ASSERT(isfinite(m->lambda[k]));
  free(acc);
  free(y);
  capture_free(&m);
}

int main(void) {
  const mbdae_test tests[] = {
    {"sparse joint solve: every held row's equation, internal reactions", test_sparse_rows_hold},
    {"redundant rows: dense fallback, unique rigid accelerations", test_redundant_rows},
    {NULL, NULL}};
  return mbdae_test_main("capture_joint", tests);
}
