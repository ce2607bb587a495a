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
 * contracts by 1 - O(1/n^2) per sweep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(void) {
  static const mbdae_test tests[] = {
    {"chain: Gauss-Seidel alone exceeds its budget", test_gauss_seidel_budget},
    {"chain: Newton, sliding contact", test_newton_sliding},
    {"chain: Newton, sticking contact", test_newton_sticking},
    {NULL, NULL}};
  return mbdae_test_main("friction_newton", tests);
}
