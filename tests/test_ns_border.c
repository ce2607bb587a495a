/* test_ns_border.c - bordered solves on a factorised base (solver/ns_border.c;
 * the base factorised by ns_factor.h's KLU and by its LDL^T) against a
 * fresh KLU factorisation and an independent dense solve, on a
 * sequence of active sets that add and drop rows of a symmetric
 * quasi-definite matrix [A C; C^T -W] (the shape of the reduced system of
 * solver/nonsmooth.c), each with a known answer x_true. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "ns_border.h"
#include "testutil.h"

#define NR 14          /* constraint rows */
#define NK 3           /* kept velocities */
#define NT (NR + NK)   /* the full matrix */

static double M[NT * NT]; /* row major */

/* deterministic pseudo-random numbers in [-1, 1] */
static double rnd(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (double)((*state >> 8) & 0xffff) / 32767.5 - 1.0;
}

/* A = B B^T + I (SPD, coupled), C dense, W = SPD: M quasi-definite */
static void build_matrix(void) {
  unsigned st = 7u;
  double B[NR * NR], R[NK * NK];
  for (int i = 0; i < NR * NR; ++i) B[i] = rnd(&st);
  for (int i = 0; i < NK * NK; ++i) R[i] = rnd(&st);
  for (int i = 0; i < NR; ++i)
    for (int j = 0; j < NR; ++j) {
      double a = i == j ? 1.0 : 0.0;
      for (int k = 0; k < NR; ++k) a += B[i * NR + k] * B[j * NR + k];
      M[i * NT + j] = a;
    }
  for (int i = 0; i < NR; ++i)
    for (int k = 0; k < NK; ++k) M[i * NT + NR + k] = M[(NR + k) * NT + i] = rnd(&st);
  for (int k = 0; k < NK; ++k)
    for (int l = 0; l < NK; ++l) {
      double w = k == l ? 2.0 : 0.0;
      for (int m = 0; m < NK; ++m) w += R[k * NK + m] * R[l * NK + m];
      M[(NR + k) * NT + NR + l] = -w;
    }
}

/* The unknowns of a set (rows with on[i], then the kept ones) */
static int members(const int *on, int *idx) {
  int n = 0;
  for (int i = 0; i < NR; ++i)
    if (on[i]) idx[n++] = i;
  for (int k = 0; k < NK; ++k) idx[n++] = NR + k;
  return n;
}

/* The principal submatrix on idx[] in CSC (dense pattern) */
static void sub_csc(int n, const int *idx, int *Ap, int *Ai, double *Ax) {
  int pos = 0;
  for (int c = 0; c < n; ++c) {
    Ap[c] = pos;
    for (int r = 0; r < n; ++r) {
      Ai[pos] = r;
      Ax[pos++] = M[idx[r] * NT + idx[c]];
    }
  }
  Ap[n] = pos;
}

static void sequence_against_fresh_and_dense(ns_factor_kind kind) {
  build_matrix();
  /* the base: rows 0..7 */
  int base_on[NR] = {0}, bidx[NT], bpos[NT];
  for (int i = 0; i < 8; ++i) base_on[i] = 1;
  const int nb = members(base_on, bidx);
  for (int t = 0; t < NT; ++t) bpos[t] = -1;
  for (int p = 0; p < nb; ++p) bpos[bidx[p]] = p;
  int Ap[NT + 1], Ai[NT * NT];
  double Ax[NT * NT];
  sub_csc(nb, bidx, Ap, Ai, Ax);
  klu_common common;
  klu_defaults(&common);
  ns_factor *fac = ns_factor_create(kind);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fac);
  CU_ASSERT_EQUAL_FATAL(ns_factor_factor(fac, nb, nb - NK, Ap, Ai, Ax, 0), 0);
  CU_ASSERT_EQUAL(ns_factor_current(fac), kind);
  ns_border *bd = ns_border_create(16, 12);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bd);
  CU_ASSERT_EQUAL(ns_border_rebase(bd, nb, fac), 0);

  /* the sequence: +8; -2; +9 +10 -5; -8 (added, then dropped); +2 (a
   * removed base row back); +11 +12 +13 -0 -1 -3; the base again.
   * Entries: a row to add, -100 - row to drop, -1 ends a step. */
  static const int steps[7][7] = {{8, -1},          {-2 - 100, -1},
                                  {9, 10, -5 - 100, -1}, {-8 - 100, -1},
                                  {2, -1},          {11, 12, 13, -0 - 100, -1 - 100, -3 - 100, -1},
                                  {-1}};
  int on[NR];
  memcpy(on, base_on, sizeof on);
  unsigned st = 99u;
  int reused = 0;
  for (int s = 0; s < 7; ++s) {
    if (s == 6) {
      memcpy(on, base_on, sizeof on);
    } else {
      for (int c = 0; steps[s][c] != -1; ++c) {
        const int v = steps[s][c];
        if (v <= -100) on[-(v + 100)] = 0;
        else on[v] = 1;
      }
    }
    int idx[NT];
    const int n = members(on, idx);
    /* the known answer and its right-hand side */
    double xt[NT], f[NT];
    for (int p = 0; p < n; ++p) xt[p] = rnd(&st);
    for (int p = 0; p < n; ++p) {
      f[p] = 0.0;
      for (int q = 0; q < n; ++q) f[p] += M[idx[p] * NT + idx[q]] * xt[q];
    }
    int pos[NT];
    for (int t = 0; t < NT; ++t) pos[t] = -1;
    for (int p = 0; p < n; ++p) pos[idx[p]] = p;
    /* the border: removed base rows (unit columns), added rows (M_{B,a}) */
    int list[NT], slots[NT], k = 0;
    for (int i = 0; i < NR; ++i)
      if (on[i] != base_on[i]) list[k++] = i;
    double V[NT * NT] = {0};
    for (int c = 0; c < k; ++c) {
      const int i = list[c];
      const int id = on[i] ? i : NR + i;
      int slot = ns_border_find(bd, id);
      if (slot >= 0) {
        reused++;
      } else if (on[i]) {
        int ui[NT];
        double uv[NT];
        for (int p = 0; p < nb; ++p) ui[p] = p, uv[p] = M[bidx[p] * NT + i];
        slot = ns_border_add(bd, id, nb, ui, uv);
      } else {
        const double one = 1.0;
        slot = ns_border_add(bd, id, 1, &bpos[i], &one);
      }
      CU_ASSERT_FATAL(slot >= 0);
      slots[c] = slot;
      for (int d = 0; d < k; ++d)
        if (on[i] && on[list[d]]) V[c * k + d] = M[list[d] * NT + i];
    }
    CU_ASSERT_EQUAL_FATAL(ns_border_prepare(bd, k, slots, V), 0);
    double fb[NT], g[NT];
    for (int p = 0; p < nb; ++p) fb[p] = pos[bidx[p]] >= 0 ? f[pos[bidx[p]]] : 0.0;
    for (int c = 0; c < k; ++c) g[c] = on[list[c]] ? f[pos[list[c]]] : 0.0;
    CU_ASSERT_EQUAL_FATAL(ns_border_apply(bd, fb, g), 0);
    double x[NT];
    for (int p = 0; p < nb; ++p)
      if (pos[bidx[p]] >= 0) x[pos[bidx[p]]] = fb[p];
      else MBDAE_ASSERT_ABS(fb[p], 0.0, 1e-13); /* a removed row is held at 0 */
    for (int c = 0; c < k; ++c)
      if (on[list[c]]) x[pos[list[c]]] = g[c];
    /* the same from a base solve made beforehand (ns_border_apply_solved),
     * with any value in the removed rows' equations: their unit columns free
     * those equations, so one solve of the base serves every border */
    double tb[NT], gb[NT];
    for (int p = 0; p < nb; ++p) tb[p] = pos[bidx[p]] >= 0 ? f[pos[bidx[p]]] : 1.0 + p;
    for (int c = 0; c < k; ++c) gb[c] = on[list[c]] ? f[pos[list[c]]] : 0.0;
    CU_ASSERT_EQUAL_FATAL(ns_factor_solve(fac, 1, tb), 0);
    ns_border_apply_solved(bd, tb, gb);
    for (int p = 0; p < nb; ++p)
      if (pos[bidx[p]] >= 0) MBDAE_ASSERT_ABS(tb[p], x[pos[bidx[p]]], 1e-11);
      else MBDAE_ASSERT_ABS(tb[p], 0.0, 1e-13);
    for (int c = 0; c < k; ++c)
      if (on[list[c]]) MBDAE_ASSERT_ABS(gb[c], x[pos[list[c]]], 1e-11);
    /* a fresh KLU factorisation of the set's matrix */
    int Bp[NT + 1], Bi[NT * NT];
    double Bx[NT * NT], xf[NT], Ad[NT * NT], xd[NT];
    sub_csc(n, idx, Bp, Bi, Bx);
    klu_symbolic *fs = klu_analyze(n, Bp, Bi, &common);
    klu_numeric *fn = fs ? klu_factor(Bp, Bi, Bx, fs, &common) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
    memcpy(xf, f, sizeof xf);
    CU_ASSERT_FATAL(klu_solve(fs, fn, n, 1, xf, &common));
    klu_free_numeric(&fn, &common);
    klu_free_symbolic(&fs, &common);
    /* the independent dense solve */
    for (int p = 0; p < n; ++p)
      for (int q = 0; q < n; ++q) Ad[p * n + q] = M[idx[p] * NT + idx[q]];
    memcpy(xd, f, sizeof xd);
    CU_ASSERT_EQUAL_FATAL(mbdae_test_dense_solve(n, Ad, xd), 0);
    for (int p = 0; p < n; ++p) {
      MBDAE_ASSERT_ABS(x[p], xt[p], 1e-11);
      MBDAE_ASSERT_ABS(x[p], xf[p], 1e-11);
      MBDAE_ASSERT_ABS(x[p], xd[p], 1e-11);
    }
  }
  /* rows added or dropped twice reuse their solved column: +2 after -2 is
   * a new id, but -2, -5, +8, +9, +10 recur over later steps */
  CU_ASSERT(reused >= 8);
  ns_border_free(&bd);
  ns_factor_free(&fac);
}

static void test_sequence_klu(void) { sequence_against_fresh_and_dense(NS_FACTOR_KLU); }
static void test_sequence_ldl(void) { sequence_against_fresh_and_dense(NS_FACTOR_LDL); }

/* Slots run out: ns_border_add says so (-1), and a rebase frees them;
 * a border longer than k_max is refused by ns_border_prepare. */
static void test_slots_and_limits(void) {
  build_matrix();
  int on[NR] = {0}, idx[NT];
  for (int i = 0; i < 4; ++i) on[i] = 1;
  const int n = members(on, idx);
  int Ap[NT + 1], Ai[NT * NT];
  double Ax[NT * NT];
  sub_csc(n, idx, Ap, Ai, Ax);
  ns_factor *fac = ns_factor_create(NS_FACTOR_AUTO);
  CU_ASSERT_PTR_NOT_NULL_FATAL(fac);
  CU_ASSERT_EQUAL_FATAL(ns_factor_factor(fac, n, n - NK, Ap, Ai, Ax, 0), 0);
  ns_border *bd = ns_border_create(2, 2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bd);
  CU_ASSERT_EQUAL(ns_border_rebase(bd, n, fac), 0);
  const double one = 1.0;
  int p0 = 0, p1 = 1, p2 = 2;
  CU_ASSERT_EQUAL(ns_border_add(bd, 100, 1, &p0, &one), 0);
  CU_ASSERT_EQUAL(ns_border_add(bd, 101, 1, &p1, &one), 1);
  CU_ASSERT_EQUAL(ns_border_add(bd, 102, 1, &p2, &one), -1);
  CU_ASSERT_EQUAL(ns_border_find(bd, 101), 1);
  int slots[3] = {0, 1, 0};
  double V[9] = {0};
  CU_ASSERT_EQUAL(ns_border_prepare(bd, 3, slots, V), -1);
  CU_ASSERT_EQUAL(ns_border_rebase(bd, n, fac), 0);
  CU_ASSERT_EQUAL(ns_border_find(bd, 101), -1);
  CU_ASSERT_EQUAL(ns_border_add(bd, 102, 1, &p2, &one), 0);
  /* the same unit column twice makes S singular */
  CU_ASSERT_EQUAL(ns_border_add(bd, 103, 1, &p2, &one), 1);
  int twice[2] = {0, 1};
  CU_ASSERT_EQUAL(ns_border_prepare(bd, 2, twice, V), -2);
  ns_border_free(&bd);
  ns_border_free(&bd);
  ns_factor_free(&fac);
}

int main(void) {
  static const mbdae_test tests[] = {
      {"added and removed rows against fresh and dense solves (KLU base)", test_sequence_klu},
      {"added and removed rows against fresh and dense solves (LDL^T base)", test_sequence_ldl},
      {"slots, border limit and a singular border", test_slots_and_limits},
      {NULL, NULL}};
  return mbdae_test_main("ns_border", tests);
}
