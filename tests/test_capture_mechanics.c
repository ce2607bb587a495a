/* test_capture_mechanics.c - the net capture's second-order form for event
 * capturing (models/capture/capture_mechanics.c): every constraint
 * Jacobian row against central differences of the gap along the position
 * update at random states of a tumbling body, the gaps against the
 * event-driven model's constraint functions, the mass matrix against the
 * kinetic energy, the forces, the quaternion update, and that constraint
 * impulses G^T lambda are internal (no change of linear or angular
 * momentum). References are finite differences and closed forms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_mechanics.h"
#include "capture_setups.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

typedef struct fixture {
  capture_model *m;
  capture_mech *me;
  double *y, *q, *v, *g, *gp, *gm, *qp, *qm, *G, *e;
} fixture;

/* A 3 x 4 net around a body: a box with three different edge lengths (so
 * faces have different plane offsets) or the seed's octagonal prism. */
static void make(fixture *F, int shape) {
  capture_params p;
  small_params(&p, CAPTURE_MODE_EVENT);
  p.rows = 3;
  p.cols = 4;
  if (shape == CAPTURE_SHAPE_PRISM) {
    p.shape = CAPTURE_SHAPE_PRISM;
    p.prism_sides = 8;
    p.prism_radius = 1.0;
    p.prism_length = 2.0;
  }
  p.e_string = 0.1;
  p.e_body = 0.4;
  memset(F, 0, sizeof *F);
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &F->m, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(capture_mech_create(F->m, &F->me), MBDAE_OK);
  F->m->mech = F->me;
  capture_mech *me = F->me;
  F->y = calloc((size_t)capture_size(F->m), sizeof(double));
  F->q = calloc((size_t)me->nq, sizeof(double));
  F->qp = calloc((size_t)me->nq, sizeof(double));
  F->qm = calloc((size_t)me->nq, sizeof(double));
  F->v = calloc((size_t)me->nv, sizeof(double));
  F->e = calloc((size_t)me->nv, sizeof(double));
  F->g = calloc((size_t)me->nrows, sizeof(double));
  F->gp = calloc((size_t)me->nrows, sizeof(double));
  F->gm = calloc((size_t)me->nrows, sizeof(double));
  F->G = calloc((size_t)me->gnnz, sizeof(double));
  CU_ASSERT_FATAL(F->y && F->q && F->qp && F->qm && F->v && F->e && F->g && F->gp && F->gm && F->G);
  CU_ASSERT_EQUAL(capture_initial_state(F->m, 0.0, F->y), MBDAE_OK);
}

static void unmake(fixture *F) {
  free(F->y); free(F->q); free(F->qp); free(F->qm); free(F->v); free(F->e);
  free(F->g); free(F->gp); free(F->gm); free(F->G);
  capture_free(&F->m); /* frees the mechanical form too */
}

/* A random state: the body at a random place and attitude, tumbling; the
 * points scattered over a cube around it (inside and outside the body). */
static void random_state(fixture *F, unsigned *seed) {
  capture_model *m = F->m;
  int np = capture_npoints(m), b = capture_body_offset(m);
  double *bs = &F->y[b];
  for (int c = 0; c < 3; ++c) {
    bs[MBDAE_RB_P + c] = 0.5 * prand(seed);
    bs[MBDAE_RB_U + c] = prand(seed);
    bs[MBDAE_RB_W + c] = 3.0 * prand(seed);
  }
  double nq = 0.0;
  for (int c = 0; c < 4; ++c) {
    bs[MBDAE_RB_Q + c] = prand(seed);
    nq += bs[MBDAE_RB_Q + c] * bs[MBDAE_RB_Q + c];
  }
  for (int c = 0; c < 4; ++c) bs[MBDAE_RB_Q + c] /= sqrt(nq);
  for (int i = 0; i < 3 * np; ++i) {
    F->y[i] = bs[MBDAE_RB_P + i % 3] + 1.6 * prand(seed);
    F->y[3 * np + i] = prand(seed);
  }
  capture_mech_pack(m, F->me, F->y, F->q, F->v);
}

/* Gap of point j's second-best face (its margin from a face switch). */
static double face_margin(const fixture *F, int j) {
  const capture_model *m = F->m;
  const capture_mech *me = F->me;
  int np = capture_npoints(m);
  double C[9], rho[3], X[3];
  mbdae_rb_rotation(&F->q[3 * np + 3], C);
  for (int c = 0; c < 3; ++c) rho[c] = F->q[3 * j + c] - F->q[3 * np + c];
  for (int c = 0; c < 3; ++c) X[c] = C[c] * rho[0] + C[3 + c] * rho[1] + C[6 + c] * rho[2];
  double best = -HUGE_VAL, second = -HUGE_VAL;
  for (int f = 0; f < capture_body(m)->nf; ++f) {
    double d = me->normal[3 * f] * X[0] + me->normal[3 * f + 1] * X[1] +
               me->normal[3 * f + 2] * X[2] - me->offset[f];
    if (d > best) { second = best; best = d; }
    else if (d > second) second = d;
  }
  return best - second;
}

/* Every row of G against (g(q (+) eps e_k) - g(q (-) eps e_k)) / 2 eps along
 * the position update, velocity direction by velocity direction. Rows
 * within 1e-4 of a face switch (where g has a kink) are skipped and
 * counted; entries outside the pattern must have a zero difference. */
static void check_jacobian(fixture *F, unsigned seed0, int nstates) {
  capture_model *m = F->m;
  capture_mech *me = F->me;
  int np = capture_npoints(m), ns = capture_nstrings(m);
  unsigned seed = seed0;
  double worst = 0.0;
  int checked = 0;
  unsigned char *skip = calloc((size_t)me->nrows, 1);
  double *dense = calloc((size_t)me->nrows * (size_t)me->nv, sizeof(double));
  CU_ASSERT_FATAL(skip && dense);
  for (int s = 0; s < nstates; ++s) {
    random_state(F, &seed);
    CU_ASSERT_EQUAL(capture_mech_gap_jacobian(0.0, F->q, F->G, m), 0);
    memset(dense, 0, (size_t)me->nrows * (size_t)me->nv * sizeof(double));
    for (int r = 0; r < me->nrows; ++r)
      for (mbdae_index z = me->growptr[r]; z < me->growptr[r + 1]; ++z)
        dense[(size_t)r * (size_t)me->nv + (size_t)me->gcolind[z]] = F->G[z];
    for (int j = 0; j < np; ++j) skip[ns + j] = face_margin(F, j) < 1e-4;
    const double eps = 1e-6;
    for (int k = 0; k < me->nv; ++k) {
      memset(F->e, 0, (size_t)me->nv * sizeof(double));
      F->e[k] = 1.0;
      CU_ASSERT_EQUAL(capture_mech_position_update(eps, F->q, F->e, F->qp, m), 0);
      CU_ASSERT_EQUAL(capture_mech_position_update(-eps, F->q, F->e, F->qm, m), 0);
      capture_mech_gap(0.0, F->qp, F->gp, m);
      capture_mech_gap(0.0, F->qm, F->gm, m);
      for (int r = 0; r < me->nrows; ++r) {
        if (skip[r]) continue;
        double fd = (F->gp[r] - F->gm[r]) / (2.0 * eps);
        double an = dense[(size_t)r * (size_t)me->nv + (size_t)k];
        double err = fabs(fd - an) / fmax(1.0, fabs(an));
        if (err > worst) worst = err;
        if (err > 1e-7)
          printf("\n  state %d row %d (%s) column %d: G %.12g, FD %.12g\n", s, r,
                 r < ns ? "string" : "contact", k, an, fd);
        ++checked;
      }
    }
  }
  CU_ASSERT(worst < 1e-7);
  CU_ASSERT(checked > nstates * me->nv * me->nrows / 2);
  free(skip);
  free(dense);
}

static void test_jacobian_box(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_BOX);
  check_jacobian(&F, 12345u, 6);
  unmake(&F);
}

static void test_jacobian_prism(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_PRISM);
  check_jacobian(&F, 777u, 6);
  unmake(&F);
}

/* Along a tumbling motion (all velocities at once, the body spinning at
 * 3 rad/s): dg/dt = G v, the derivative the scheme's velocity-level
 * constraints use. */
static void test_rate_along_motion(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_PRISM);
  capture_model *m = F.m;
  capture_mech *me = F.me;
  int np = capture_npoints(m), ns = capture_nstrings(m);
  unsigned seed = 99u;
  int checked = 0;
  for (int s = 0; s < 8; ++s) {
    random_state(&F, &seed);
    capture_mech_gap_jacobian(0.0, F.q, F.G, m);
    const double h = 1e-6;
    capture_mech_position_update(h, F.q, F.v, F.qp, m);
    capture_mech_position_update(-h, F.q, F.v, F.qm, m);
    capture_mech_gap(0.0, F.qp, F.gp, m);
    capture_mech_gap(0.0, F.qm, F.gm, m);
    for (int r = 0; r < me->nrows; ++r) {
      if (r >= ns && face_margin(&F, r - ns) < 1e-4) continue;
      double Gv = 0.0;
      for (mbdae_index z = me->growptr[r]; z < me->growptr[r + 1]; ++z)
        Gv += F.G[z] * F.v[me->gcolind[z]];
      MBDAE_ASSERT_ABS(Gv, (F.gp[r] - F.gm[r]) / (2.0 * h), 1e-7 * fmax(1.0, fabs(Gv)));
      ++checked;
    }
  }
  CU_ASSERT(checked > 8 * (ns + np) / 2);
  unmake(&F);
}

/* The gaps against the event-driven model's functions: phi = |S|^2 - L^2
 * (eq. 2.7), so g_s = L - sqrt(phi + L^2); psi = 1 - s^2 with s the largest
 * A_p^T X (eq. 2.52): g_k > 0 exactly where psi < 0 (outside), and where
 * both pick the same face, g_k = (s - 1) / |A_p|. */
static void test_gap_against_model(void) {
  for (int shape = 0; shape < 2; ++shape) {
    fixture F;
    make(&F, shape == 0 ? CAPTURE_SHAPE_BOX : CAPTURE_SHAPE_PRISM);
    capture_model *m = F.m;
    int np = capture_npoints(m), ns = capture_nstrings(m);
    const mbdae_polytope *body = capture_body(m);
    double *phi = calloc((size_t)ns, sizeof(double)), *psi = calloc((size_t)np, sizeof(double));
    CU_ASSERT_FATAL(phi && psi);
    unsigned seed = 4242u;
    int same_face = 0, signs = 0;
    for (int s = 0; s < 10; ++s) {
      random_state(&F, &seed);
      capture_constraint_values(m, F.y, phi, psi);
      CU_ASSERT_EQUAL(capture_mech_gap(0.0, F.q, F.g, m), 0);
      for (int k = 0; k < ns; ++k) {
        int a, b;
        double L;
        capture_string_ends(m, k, &a, &b, &L);
        MBDAE_ASSERT_ABS(F.g[k], L - sqrt(phi[k] + L * L), 1e-13);
      }
      for (int j = 0; j < np; ++j) {
        double g = F.g[ns + j];
        if (fabs(psi[j]) > 1e-12) {
          CU_ASSERT((g > 0.0) == (psi[j] < 0.0));
          ++signs;
        }
        int f = m->face[j];
        const double *A = &body->A[3 * f];
        double An = sqrt(A[0] * A[0] + A[1] * A[1] + A[2] * A[2]);
        if (F.me->face[j] == f) {
          double sv = sqrt(1.0 - psi[j]); /* s > 0 near the body */
          MBDAE_ASSERT_ABS(g, (sv - 1.0) / An, 1e-12);
          ++same_face;
        }
      }
    }
    CU_ASSERT(signs > 10 * np * 9 / 10);
    CU_ASSERT(same_face > 10 * np / 2);
    free(phi);
    free(psi);
    unmake(&F);
  }
}

/* v^T M v / 2 is the model's kinetic energy; M is symmetric. */
static void test_mass(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_BOX);
  capture_mech *me = F.me;
  unsigned seed = 5u;
  random_state(&F, &seed);
  double *vals = calloc((size_t)me->mnnz, sizeof(double));
  CU_ASSERT_FATAL(vals != NULL);
  CU_ASSERT_EQUAL(capture_mech_mass(0.0, F.q, vals, F.m), 0);
  double vMv = 0.0;
  for (int c = 0; c < me->nv; ++c)
    for (mbdae_index z = me->mcolptr[c]; z < me->mcolptr[c + 1]; ++z) {
      int r = (int)me->mrowind[z];
      vMv += F.v[r] * vals[z] * F.v[c];
      /* symmetric: the (c, r) entry exists and is equal */
      int found = 0;
      for (mbdae_index w = me->mcolptr[r]; w < me->mcolptr[r + 1]; ++w)
        if (me->mrowind[w] == c) { found = 1; MBDAE_ASSERT_ABS(vals[w], vals[z], 0.0); }
      CU_ASSERT(found);
    }
  double p[3], L[3], E;
  capture_momenta(F.m, F.y, p, L, &E);
  MBDAE_ASSERT_REL(0.5 * vMv, E, 1e-14);
  free(vals);
  unmake(&F);
}

/* The gyroscopic force does no work (w . (w x J w) = 0) and is Euler's
 * term; without control the points are force-free. */
static void test_forces(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_BOX);
  capture_mech *me = F.me;
  int np = capture_npoints(F.m);
  unsigned seed = 6u;
  random_state(&F, &seed);
  double *f = calloc((size_t)me->nv, sizeof(double));
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_EQUAL(capture_mech_forces(0.3, F.q, F.v, f, F.m), 0);
  for (int i = 0; i < 3 * np + 3; ++i) CU_ASSERT_EQUAL(f[i], 0.0);
  const double *w = &F.v[3 * np + 3];
  const double *J = capture_body(F.m)->J;
  double work = w[0] * f[3 * np + 3] + w[1] * f[3 * np + 4] + w[2] * f[3 * np + 5];
  MBDAE_ASSERT_ABS(work, 0.0, 1e-14);
  /* J w' = -w x J w: compare with the rigid-body module's Euler equations */
  double wdot[3], zero[3] = {0, 0, 0};
  mbdae_rb_euler(J, capture_body(F.m)->Jinv, w, zero, wdot);
  for (int r = 0; r < 3; ++r)
    MBDAE_ASSERT_ABS(J[3 * r] * wdot[0] + J[3 * r + 1] * wdot[1] + J[3 * r + 2] * wdot[2],
                     f[3 * np + 3 + r], 1e-13);
  free(f);
  unmake(&F);
}

/* The quaternion update is the exact flow at constant w: unit length, two
 * steps h1, h2 equal one of h1 + h2, and (q+ - q) / h -> 1/2 q (x) (0, w). */
static void test_position_update(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_BOX);
  capture_mech *me = F.me;
  int np = capture_npoints(F.m), o = 3 * np + 3;
  unsigned seed = 8u;
  random_state(&F, &seed);
  double *q2 = calloc((size_t)me->nq, sizeof(double));
  CU_ASSERT_FATAL(q2 != NULL);
  capture_mech_position_update(0.3, F.q, F.v, F.qp, F.m);
  capture_mech_position_update(0.45, F.qp, F.v, F.qm, F.m);
  capture_mech_position_update(0.75, F.q, F.v, q2, F.m);
  double n2 = 0.0;
  for (int c = 0; c < 4; ++c) n2 += q2[o + c] * q2[o + c];
  MBDAE_ASSERT_ABS(n2, 1.0, 1e-15);
  for (int i = 0; i < me->nq; ++i) MBDAE_ASSERT_ABS(F.qm[i], q2[i], 1e-14);
  double h = 1e-7, rate[4];
  capture_mech_position_update(h, F.q, F.v, F.qp, F.m);
  mbdae_rb_quat_rate(&F.q[o], &F.v[o], rate);
  for (int c = 0; c < 4; ++c) MBDAE_ASSERT_ABS((F.qp[o + c] - F.q[o + c]) / h, rate[c], 1e-6);
  for (int i = 0; i < o; ++i) MBDAE_ASSERT_ABS(F.qp[i], F.q[i] + h * F.v[i], 1e-15);
  free(q2);
  unmake(&F);
}

/* Constraint impulses are internal: for any lambda, G^T lambda changes
 * neither the total momentum nor the angular momentum about the origin
 * (the body's share: -N on U, torque (n_f x X) in body axes = N x (r - P)
 * in the inertial frame). */
static void test_impulses_internal(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_PRISM);
  capture_model *m = F.m;
  capture_mech *me = F.me;
  int np = capture_npoints(m);
  unsigned seed = 31u;
  double *lam = calloc((size_t)me->nrows, sizeof(double));
  double *imp = calloc((size_t)me->nv, sizeof(double));
  CU_ASSERT_FATAL(lam && imp);
  for (int s = 0; s < 5; ++s) {
    random_state(&F, &seed);
    capture_mech_gap_jacobian(0.0, F.q, F.G, m);
    for (int r = 0; r < me->nrows; ++r) lam[r] = prand(&seed);
    memset(imp, 0, (size_t)me->nv * sizeof(double));
    for (int r = 0; r < me->nrows; ++r)
      for (mbdae_index z = me->growptr[r]; z < me->growptr[r + 1]; ++z)
        imp[me->gcolind[z]] += F.G[z] * lam[r];
    double dp[3] = {0, 0, 0}, dL[3] = {0, 0, 0}, C[9];
    mbdae_rb_rotation(&F.q[3 * np + 3], C);
    const double *P = &F.q[3 * np];
    for (int i = 0; i <= np; ++i) { /* points, then the body's centre */
      const double *r = &F.q[3 * i], *J = &imp[3 * i];
      for (int c = 0; c < 3; ++c) dp[c] += J[c];
      dL[0] += r[1] * J[2] - r[2] * J[1];
      dL[1] += r[2] * J[0] - r[0] * J[2];
      dL[2] += r[0] * J[1] - r[1] * J[0];
    }
    (void)P;
    const double *tb = &imp[3 * np + 3];
    for (int c = 0; c < 3; ++c) dL[c] += C[3 * c] * tb[0] + C[3 * c + 1] * tb[1] + C[3 * c + 2] * tb[2];
    for (int c = 0; c < 3; ++c) {
      MBDAE_ASSERT_ABS(dp[c], 0.0, 1e-13);
      MBDAE_ASSERT_ABS(dL[c], 0.0, 1e-13);
    }
  }
  free(lam);
  free(imp);
  unmake(&F);
}

/* The observer turns impulses into the model's active set and counts. */
static void test_observer(void) {
  fixture F;
  make(&F, CAPTURE_SHAPE_BOX);
  capture_model *m = F.m;
  capture_mech *me = F.me;
  double *imp = calloc((size_t)me->nrows, sizeof(double));
  CU_ASSERT_FATAL(imp != NULL);
  imp[0] = 0.2;
  imp[capture_nstrings(m) + 1] = 0.5;
  imp[2] = 1e-20; /* round-off of the step's largest: no force */
  CU_ASSERT_EQUAL(capture_mech_impulses(1e-3, 1e-3, imp, m), 0);
  CU_ASSERT_EQUAL(capture_active_strings(m), 1);
  CU_ASSERT_EQUAL(capture_active_contacts(m), 1);
  MBDAE_ASSERT_REL(m->lambda[0], 200.0, 1e-15);
  imp[0] = 0.0;
  CU_ASSERT_EQUAL(capture_mech_impulses(2e-3, 1e-3, imp, m), 0);
  CU_ASSERT_EQUAL(capture_active_strings(m), 0);
  CU_ASSERT_EQUAL(capture_impacts(m), 2);
  CU_ASSERT_EQUAL(capture_releases(m), 1);
  CU_ASSERT_EQUAL(me->steps, 2);
  free(imp);
  unmake(&F);
}

/* The state feedback thrust law has no second-order form here. */
static void test_error_stab_refused(void) {
  capture_params p;
  small_params(&p, CAPTURE_MODE_EVENT);
  p.control = CAPTURE_CONTROL_ERROR_STAB;
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create(&p, &m, NULL), MBDAE_OK);
  capture_mech *me = NULL;
  CU_ASSERT_EQUAL(capture_mech_create(m, &me), MBDAE_ERR_UNSUPPORTED);
  CU_ASSERT_PTR_NULL(me);
  capture_free(&m);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"Jacobian rows vs FD (box)", test_jacobian_box},
    {"Jacobian rows vs FD (prism)", test_jacobian_prism},
    {"dg/dt = G v along a tumbling motion", test_rate_along_motion},
    {"gaps vs phi, psi", test_gap_against_model},
    {"mass matrix", test_mass},
    {"forces", test_forces},
    {"position update", test_position_update},
    {"impulses are internal", test_impulses_internal},
    {"impulse observer", test_observer},
    {"error_stabilization refused", test_error_stab_refused},
    {NULL, NULL}};
  return mbdae_test_main("capture_mechanics", tests);
}
