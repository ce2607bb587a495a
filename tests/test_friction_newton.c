/* test_friction_newton.c - the frictional one-step solve (solver/friction.c)
 * on a chain where block Gauss-Seidel alone needs far more sweeps than its
 * budget and the semismooth Newton (solver/friction_newton.c) converges.
 *
 * n unit point masses (x, y, z velocities) in a line along x, each touching
 * the next through a unilateral row u_i = v_i,x - v_i-1,x >= 0 (a contact
 * that may only push), move at -V towards a wall that mass 0 meets: a
 * unilateral normal row v_0,x >= 0 with Coulomb friction mu on the tangents
 * (v_0,y, v_0,z); mass 0 slides along y at w0. Plastic impact (b = 0), no
 * forces (r = M v-). Closed form: every mass stops in x, the wall's impulse
 * is the chain's momentum n V and the string between masses i-1 and i
 * carries (n - i) V; the tangential impulse acts on mass 0 alone, so it
 * slides on with w0 - mu n V when mu n V < w0 and sticks (v_0,y = 0)
 * otherwise. The chain's Delassus matrix has condition ~ n^2, so Gauss-Seidel
 * contracts by 1 - O(1/n^2) per sweep.
 *
 * And a hard step of a wrapped net: the demo capture with friction 0.3
 * under moreau, the step [1.960, 1.961] s where the run used to stop
 * (tests/data/friction/wrapped_net_mu03_t1960.txt, the problem as the
 * backend handed it to fc_solve, warm start included, written in the
 * format of benchmarks/onestep_io.h with the rows outside the index set
 * left out): 146 rows, 23 frictional contacts, many sticking, so that taut
 * strings between them are redundant and the impulses are not unique. The
 * solution is checked on its own: v from a dense solve of W v = r + G^T P +
 * T^T Pt, and every row's law at that v. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../benchmarks/onestep_io.h"
#include "friction.h"
#include "testutil.h"

#define NM 60

static void chain(double mu, double w0, int max_sweeps, int max_newton, int expect_ok) {
  const int nv = 3 * NM, nc = NM, nu = NM, nf = 1;
  const double V = 1.0;
  mbdae_index wp[3 * NM + 1], wi[3 * NM], gp[NM + 1], gi[2 * NM], tp[3], ti[2];
  double Wx[3 * NM], Gx[2 * NM], Tx[2], r[3 * NM], b[NM], v[3 * NM], P[NM], Pt[2] = {0, 0};
  unsigned char in_set[NM];
  for (int j = 0; j < nv; ++j) wp[j] = j, wi[j] = j, Wx[j] = 1.0, r[j] = 0.0;
  wp[nv] = nv;
  for (int i = 0; i < NM; ++i) r[3 * i] = -V;
  r[1] = w0;
  /* row 0: the wall (v_0,x >= 0); row i: v_i,x - v_i-1,x >= 0 */
  int k = 0;
  gp[0] = 0;
  gi[k] = 0, Gx[k++] = 1.0;
  gp[1] = k;
  for (int i = 1; i < NM; ++i) {
    gi[k] = 3 * (i - 1), Gx[k++] = -1.0;
    gi[k] = 3 * i, Gx[k++] = 1.0;
    gp[i + 1] = k;
  }
  tp[0] = 0, ti[0] = 1, Tx[0] = 1.0, tp[1] = 1, ti[1] = 2, Tx[1] = 1.0, tp[2] = 2;
  const int frows[1] = {0};
  const double mus[1] = {mu};
  char msg[512];
  fc_solver *s = fc_create(nv, wp, wi, nc, nu, gp, gi, nf, frows, mus, tp, ti, msg, sizeof msg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  for (int i = 0; i < nc; ++i) in_set[i] = 1, b[i] = 0.0, P[i] = 0.0;
  fc_input in = {.Wx = Wx, .w_changed = 1, .Gx = Gx, .Tx = Tx, .r = r, .b = b, .in_set = in_set,
                 .tol = 1e-10, .max_sweeps = max_sweeps, .max_newton = max_newton};
  ns_result res;
  int rc = fc_solve(s, &in, v, P, Pt, &res, msg, sizeof msg);
  fc_free(&s);
  if (!expect_ok) { /* the budget is not enough: a loud failure */
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT(res.residual > 1e-10 * res.vref);
    return;
  }
  if (rc) fprintf(stderr, "chain mu %g: %s\n", mu, msg);
  CU_ASSERT_EQUAL_FATAL(rc, 0);
  CU_ASSERT(res.iterations > 0); /* the Newton finished it */
  /* each row's velocity is within tolw of its law; along the chain they add
   * up: |v_i,x| <= n tolw, and the impulses (differences of v) n^2 tolw */
  const double tolw = 1e-10 * res.vref, slide = w0 - mu * NM * V, vy = slide > 0.0 ? slide : 0.0;
  CU_ASSERT(res.vref > 0.0 && res.vref < 100.0);
  for (int i = 0; i < NM; ++i) {
    MBDAE_ASSERT_ABS(v[3 * i], 0.0, NM * tolw);
    MBDAE_ASSERT_ABS(P[i], (NM - i) * V, NM * NM * tolw);
  }
  MBDAE_ASSERT_ABS(v[1], vy, NM * tolw);
  MBDAE_ASSERT_ABS(v[2], 0.0, NM * tolw);
  MBDAE_ASSERT_ABS(Pt[0], vy - w0, NM * tolw);
  CU_ASSERT(hypot(Pt[0], Pt[1]) <= mu * P[0] * (1.0 + 1e-12));
}

/* Gauss-Seidel alone within 2,000 sweeps: not converged (it needs about
 * 2.3 n^2 ln(1e10) / pi^2 ~ 19,000 for n = 60). */
static void test_gauss_seidel_budget(void) { chain(0.01, 1.0, 2000, 0, 0); }

/* With the Newton: sliding (mu n V = 0.6 < w0 = 1) and sticking (6 > 1). */
static void test_newton_sliding(void) { chain(0.01, 1.0, 2000, NS_FRICTION_NEWTON, 1); }
static void test_newton_sticking(void) { chain(0.1, 1.0, 2000, NS_FRICTION_NEWTON, 1); }

/* The natural map's residual of the problem s at (P, Pt), in velocity units
 * (the Delassus diagonal D from the dense inverse of W): unilateral rows
 * |min(D_i P_i, w_i)|, bilateral |w_i|, contacts also D_t |P_t - proj of
 * P_t - u_t / D_t onto the disk of radius mu P_n|. Also the cone: the
 * largest |P_t| - mu P_n. */
static double step_residual(const onestep *s, const double *P, const double *Pt, double *cone) {
  const int nv = s->nv, nc = s->nc, nf = s->nf, nr = nc + 2 * nf;
  double *A = calloc((size_t)nv * nv, sizeof *A), *Wi = calloc((size_t)nv * nv, sizeof *Wi);
  double *x = malloc((size_t)nv * sizeof *x), *v = malloc((size_t)nv * sizeof *v);
  double *w = malloc((size_t)nr * sizeof *w), *D = malloc((size_t)nr * sizeof *D);
  CU_ASSERT_FATAL(A && Wi && x && v && w && D);
  /* W^-1 by Gauss-Jordan elimination with partial pivoting (W: CSC, both
   * triangles) */
  for (int j = 0; j < nv; ++j) {
    for (long k = s->wp[j]; k < s->wp[j + 1]; ++k) A[(size_t)s->wi[k] * nv + j] = s->wx[k];
    Wi[(size_t)j * nv + j] = 1.0;
  }
  for (int c = 0; c < nv; ++c) {
    int piv = c;
    for (int i = c + 1; i < nv; ++i)
      if (fabs(A[(size_t)i * nv + c]) > fabs(A[(size_t)piv * nv + c])) piv = i;
    CU_ASSERT_FATAL(A[(size_t)piv * nv + c] != 0.0);
    for (int j = 0; j < nv && piv != c; ++j) {
      double t = A[(size_t)c * nv + j];
      A[(size_t)c * nv + j] = A[(size_t)piv * nv + j], A[(size_t)piv * nv + j] = t;
      t = Wi[(size_t)c * nv + j];
      Wi[(size_t)c * nv + j] = Wi[(size_t)piv * nv + j], Wi[(size_t)piv * nv + j] = t;
    }
    const double f = 1.0 / A[(size_t)c * nv + c];
    for (int j = 0; j < nv; ++j) A[(size_t)c * nv + j] *= f, Wi[(size_t)c * nv + j] *= f;
    for (int i = 0; i < nv; ++i) {
      const double m = A[(size_t)i * nv + c];
      if (i == c || m == 0.0) continue;
      for (int j = 0; j < nv; ++j) {
        A[(size_t)i * nv + j] -= m * A[(size_t)c * nv + j];
        Wi[(size_t)i * nv + j] -= m * Wi[(size_t)c * nv + j];
      }
    }
  }
  /* the rows: G's, then T's; v = W^-1 (r + G^T P + T^T Pt) */
  for (int i = 0; i < nv; ++i) x[i] = s->r[i];
  for (int a = 0; a < nr; ++a) {
    const int g = a < nc;
    const long *rp = g ? s->gp : s->tp, *ci = g ? s->gi : s->ti;
    const double *val = g ? s->gx : s->tx, imp = g ? P[a] : Pt[a - nc];
    const int row = g ? a : a - nc;
    for (long k = rp[row]; k < rp[row + 1]; ++k) x[ci[k]] += val[k] * imp;
  }
  for (int i = 0; i < nv; ++i) {
    double t = 0.0;
    for (int j = 0; j < nv; ++j) t += Wi[(size_t)i * nv + j] * x[j];
    v[i] = t;
  }
  for (int a = 0; a < nr; ++a) {
    const int g = a < nc, row = g ? a : a - nc;
    const long *rp = g ? s->gp : s->tp, *ci = g ? s->gi : s->ti;
    const double *val = g ? s->gx : s->tx;
    double t = g ? s->b[a] : 0.0, d = 0.0;
    for (long k = rp[row]; k < rp[row + 1]; ++k) {
      t += val[k] * v[ci[k]];
      for (long l = rp[row]; l < rp[row + 1]; ++l)
        d += val[k] * Wi[(size_t)ci[k] * nv + ci[l]] * val[l];
    }
    w[a] = t, D[a] = d;
  }
  double res = 0.0;
  *cone = -HUGE_VAL;
  for (int i = 0; i < nc; ++i) {
    CU_ASSERT_FATAL(s->in_set[i]); /* the file holds the rows of the set only */
    res = fmax(res, i < s->nu ? fabs(fmin(D[i] * P[i], w[i])) : fabs(w[i]));
  }
  for (int k = 0; k < nf; ++k) {
    const int n = s->frows[k], t1 = nc + 2 * k, t2 = t1 + 1;
    const double dt = 0.5 * (D[t1] + D[t2]), rad = s->mu[k] * fmax(P[n], 0.0);
    double z1 = Pt[2 * k] - w[t1] / dt, z2 = Pt[2 * k + 1] - w[t2] / dt, nz = hypot(z1, z2);
    if (nz > rad) z1 *= rad / nz, z2 *= rad / nz;
    res = fmax(res, dt * hypot(Pt[2 * k] - z1, Pt[2 * k + 1] - z2));
    *cone = fmax(*cone, hypot(Pt[2 * k], Pt[2 * k + 1]) - s->mu[k] * P[n]);
  }
  free(A), free(Wi), free(x), free(v), free(w), free(D);
  return res;
}

/* The wrapped net's hard step with the backend's budgets converges, and its
 * solution meets the tolerance on the independent measure. */
static void test_wrapped_net_redundant(void) {
  onestep s;
  CU_ASSERT_EQUAL_FATAL(
      onestep_read(mbdae_test_source_path("tests/data/friction/wrapped_net_mu03_t1960.txt"), &s), 0);
  CU_ASSERT_EQUAL_FATAL(s.nf, 23);
  const int nv = s.nv, nc = s.nc, nf = s.nf;
  mbdae_index *wp = malloc((size_t)(nv + 1) * sizeof *wp), *wi = malloc((size_t)s.w_nnz * sizeof *wi);
  mbdae_index *gp = malloc((size_t)(nc + 1) * sizeof *gp), *gi = malloc((size_t)s.g_nnz * sizeof *gi);
  mbdae_index *tp = malloc((size_t)(2 * nf + 1) * sizeof *tp), *ti = malloc((size_t)s.t_nnz * sizeof *ti);
  double *v = malloc((size_t)nv * sizeof *v), *P = malloc((size_t)nc * sizeof *P);
  double *Pt = malloc((size_t)(2 * nf) * sizeof *Pt);
  CU_ASSERT_FATAL(wp && wi && gp && gi && tp && ti && v && P && Pt);
  for (int j = 0; j <= nv; ++j) wp[j] = (mbdae_index)s.wp[j];
  for (long k = 0; k < s.w_nnz; ++k) wi[k] = (mbdae_index)s.wi[k];
  for (int i = 0; i <= nc; ++i) gp[i] = (mbdae_index)s.gp[i];
  for (long k = 0; k < s.g_nnz; ++k) gi[k] = (mbdae_index)s.gi[k];
  for (int q = 0; q <= 2 * nf; ++q) tp[q] = (mbdae_index)s.tp[q];
  for (long k = 0; k < s.t_nnz; ++k) ti[k] = (mbdae_index)s.ti[k];
  memcpy(P, s.P0, (size_t)nc * sizeof *P);
  memcpy(Pt, s.Pt0, (size_t)(2 * nf) * sizeof *Pt);
  char msg[512];
  fc_solver *fc = fc_create(nv, wp, wi, nc, s.nu, gp, gi, nf, s.frows, s.mu, tp, ti, msg, sizeof msg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fc);
  fc_input in = {.Wx = s.wx, .w_changed = 1, .Gx = s.gx, .Tx = s.tx, .r = s.r, .b = s.b,
                 .in_set = s.in_set, .tol = 1e-10, .max_sweeps = NS_FRICTION_SWEEPS,
                 .max_newton = NS_FRICTION_NEWTON};
  ns_result res;
  int rc = fc_solve(fc, &in, v, P, Pt, &res, msg, sizeof msg);
  fc_free(&fc);
  if (rc) fprintf(stderr, "wrapped net step: %s\n", msg);
  CU_ASSERT_EQUAL(rc, 0);
  CU_ASSERT(res.iterations > 0);
  /* the scale of the step's velocities: the net moves at metres per second */
  CU_ASSERT(res.vref > 1.0 && res.vref < 100.0);
  double cone, r = step_residual(&s, P, Pt, &cone);
  CU_ASSERT(r <= 1e-10 * res.vref * 1.001);
  CU_ASSERT(cone <= 1e-12);
  free(wp), free(wi), free(gp), free(gi), free(tp), free(ti), free(v), free(P), free(Pt);
  onestep_free(&s);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"chain: Gauss-Seidel alone exceeds its budget", test_gauss_seidel_budget},
    {"chain: Newton, sliding contact", test_newton_sliding},
    {"chain: Newton, sticking contact", test_newton_sticking},
    {"wrapped net, mu 0.3: a step with redundant rows", test_wrapped_net_redundant},
    {NULL, NULL}};
  return mbdae_test_main("friction_newton", tests);
}
