/* multiplier_newton.c - a Newton step of a mechanical DAE solved in its
 * multipliers.
 *
 * Without its kinematic rows (kinematic_reduction.c) the Newton matrix of a
 * constrained mechanical DAE is, in velocities v and multipliers w,
 *
 *     R = [A C; B D],   A = M/(gamma h)-like + dF/dv + (gamma h) d(F + G^T w)/dq,
 *
 * C = -G^T (the constraint forces), B the constraint rows' derivative (cj G
 * plus the Baumgarte terms), D the multipliers' own entries (a slack
 * string's row w = 0). With a diagonal mass A is diagonal up to the force
 * and tension coupling (gamma h) d(F + G^T w)/dq, small against M/(gamma h)
 * at the steps a stiff net takes (tension / (length mass) against
 * (gamma h)^-2). Dropping A's off-diagonal entries leaves
 *
 *     P = [diag(A) C; B D],   S = D - B diag(A)^-1 C,
 *
 * S of the multipliers' size with the pattern of G M^-1 G^T (on a net, the
 * one the right-hand side's multiplier system has), and
 *
 *     S x_w = b_w - B diag(A)^-1 b_v,   x_v = diag(A)^-1 (b_v - C x_w).
 *
 * P is R exactly when A is diagonal; otherwise Newton with P is a modified
 * Newton that converges at the rate of the dropped coupling. Each setup
 * forms S (a sum over the triplets B(i,k) C(k,j), fixed with the pattern)
 * and factors it with KLU; each solve is one KLU solve of S and two sparse
 * products. */
#include "multiplier_newton.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "mbdae/status.h"
#include "sundials_util.h"

struct mbdae_mult_newton {
  int nr, nm;                  /* unknowns of R, of S */
  const unsigned char *is_mult; /* nr (the caller's, kept alive by it) */
  int *mpos;                   /* nr: index in S of a multiplier, -1 for a velocity */
  sunindextype *adiag;         /* nr: R's slot of A(k, k) for a velocity k */
  double *dinv;                /* nr: 1 / A(k, k) of the last setup */
  long ntri;                   /* triplets of B diag(A)^-1 C */
  sunindextype *tb, *tc, *ts;  /* ntri: R's slots of B(i,k), C(k,j), S's slot of (i,j) */
  int *tk;                     /* ntri: k */
  long nd;                     /* entries of D */
  sunindextype *db, *ds;       /* nd: R's slot of D(i,j), S's slot */
  double *acc;                 /* nr scratch */
  SUNMatrix S;
  SUNLinearSolver ls;
  N_Vector tmpl, xs, bs;       /* nm */
};

int mbdae_mult_newton_size(const mbdae_mult_newton *m) { return m ? m->nm : 0; }

/* S's pattern: for multiplier column j, D's rows in column j of R and the
 * rows i of B(i,k) for every velocity k of C(k,j); then the slots */
static int build(mbdae_mult_newton *m, SUNMatrix R, SUNContext ctx) {
  const int nr = m->nr, nm = m->nm;
  const sunindextype *Rp = SUNSparseMatrix_IndexPointers(R), *Ri = SUNSparseMatrix_IndexValues(R);
  int *mark = malloc((size_t)nm * sizeof *mark);
  sunindextype *where = malloc((size_t)nm * sizeof *where);
  int rc = -1;
  if (!mark || !where) goto out;
  long nnz = 0;
  m->ntri = m->nd = 0;
  for (int q = 0; q < nm; ++q) mark[q] = -1;
  for (int j = 0; j < nr; ++j) { /* count */
    if (!m->is_mult[j]) continue;
    const int sj = m->mpos[j];
    for (sunindextype a = Rp[j]; a < Rp[j + 1]; ++a) {
      const int k = (int)Ri[a];
      if (m->is_mult[k]) {
        m->nd++;
        if (mark[m->mpos[k]] != sj) mark[m->mpos[k]] = sj, nnz++;
        continue;
      }
      for (sunindextype c = Rp[k]; c < Rp[k + 1]; ++c) {
        const int i = (int)Ri[c];
        if (!m->is_mult[i]) continue;
        m->ntri++;
        if (mark[m->mpos[i]] != sj) mark[m->mpos[i]] = sj, nnz++;
      }
    }
    if (mark[sj] != sj) mark[sj] = sj, nnz++; /* the diagonal, for KLU's pivots */
  }
  m->S = SUNSparseMatrix(nm, nm, nnz > 0 ? nnz : 1, CSC_MAT, ctx);
  m->tb = malloc((size_t)(m->ntri > 0 ? m->ntri : 1) * sizeof *m->tb);
  m->tc = malloc((size_t)(m->ntri > 0 ? m->ntri : 1) * sizeof *m->tc);
  m->ts = malloc((size_t)(m->ntri > 0 ? m->ntri : 1) * sizeof *m->ts);
  m->tk = malloc((size_t)(m->ntri > 0 ? m->ntri : 1) * sizeof *m->tk);
  m->db = malloc((size_t)(m->nd > 0 ? m->nd : 1) * sizeof *m->db);
  m->ds = malloc((size_t)(m->nd > 0 ? m->nd : 1) * sizeof *m->ds);
  if (!m->S || !m->tb || !m->tc || !m->ts || !m->tk || !m->db || !m->ds) goto out;
  sunindextype *Sp = SUNSparseMatrix_IndexPointers(m->S), *Si = SUNSparseMatrix_IndexValues(m->S);
  for (int q = 0; q < nm; ++q) mark[q] = -1;
  Sp[0] = 0;
  sunindextype fill = 0;
  long t = 0, d = 0;
  for (int j = 0; j < nr; ++j) {
    if (!m->is_mult[j]) continue;
    const int sj = m->mpos[j];
    const sunindextype start = fill;
    for (sunindextype a = Rp[j]; a < Rp[j + 1]; ++a) { /* rows of column sj */
      const int k = (int)Ri[a];
      if (m->is_mult[k]) {
        if (mark[m->mpos[k]] != sj) mark[m->mpos[k]] = sj, Si[fill++] = m->mpos[k];
        continue;
      }
      for (sunindextype c = Rp[k]; c < Rp[k + 1]; ++c) {
        const int i = (int)Ri[c];
        if (m->is_mult[i] && mark[m->mpos[i]] != sj) mark[m->mpos[i]] = sj, Si[fill++] = m->mpos[i];
      }
    }
    if (mark[sj] != sj) mark[sj] = sj, Si[fill++] = sj;
    for (sunindextype a = start + 1; a < fill; ++a) { /* rows in increasing order */
      sunindextype v = Si[a], b = a;
      while (b > start && Si[b - 1] > v) Si[b] = Si[b - 1], --b;
      Si[b] = v;
    }
    Sp[sj + 1] = fill;
    for (sunindextype a = start; a < fill; ++a) where[Si[a]] = a;
    for (sunindextype a = Rp[j]; a < Rp[j + 1]; ++a) { /* slots */
      const int k = (int)Ri[a];
      if (m->is_mult[k]) {
        m->db[d] = a, m->ds[d] = where[m->mpos[k]], d++;
        continue;
      }
      for (sunindextype c = Rp[k]; c < Rp[k + 1]; ++c) {
        const int i = (int)Ri[c];
        if (!m->is_mult[i]) continue;
        m->tb[t] = c, m->tc[t] = a, m->tk[t] = k, m->ts[t] = where[m->mpos[i]], t++;
      }
    }
  }
  rc = 0;
out:
  free(mark);
  free(where);
  return rc;
}

mbdae_mult_newton *mbdae_mult_newton_create(mbdae_engine *e, SUNContext ctx, SUNMatrix R,
                                            const unsigned char *is_mult, int *rc) {
  *rc = MBDAE_ERR_MEMORY;
  mbdae_mult_newton *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  const int nr = (int)SUNSparseMatrix_Columns(R);
  const sunindextype *Rp = SUNSparseMatrix_IndexPointers(R), *Ri = SUNSparseMatrix_IndexValues(R);
  m->nr = nr;
  m->is_mult = is_mult;
  m->mpos = malloc((size_t)nr * sizeof *m->mpos);
  m->adiag = malloc((size_t)nr * sizeof *m->adiag);
  m->dinv = calloc((size_t)nr, sizeof *m->dinv);
  m->acc = malloc((size_t)nr * sizeof *m->acc);
  if (!m->mpos || !m->adiag || !m->dinv || !m->acc) goto fail;
  int nv = 0;
  for (int q = 0; q < nr; ++q) {
    m->mpos[q] = is_mult[q] ? m->nm++ : -1;
    nv += !is_mult[q];
    m->adiag[q] = -1;
    if (is_mult[q]) continue;
    for (sunindextype a = Rp[q]; a < Rp[q + 1]; ++a)
      if (Ri[a] == q) m->adiag[q] = a;
  }
  int nodiag = 0;
  for (int q = 0; q < nr; ++q) nodiag += !is_mult[q] && m->adiag[q] < 0;
  if (m->nm == 0 || nv == 0 || nodiag > 0) { /* nothing to do, or A not invertible by entries */
    *rc = MBDAE_OK;
    mbdae_mult_newton_free(&m);
    return NULL;
  }
  if (build(m, R, ctx) != 0) goto fail;
  m->tmpl = N_VNew_Serial(m->nm, ctx);
  m->xs = N_VNew_Serial(m->nm, ctx);
  m->bs = N_VNew_Serial(m->nm, ctx);
  if (!m->tmpl || !m->xs || !m->bs) goto fail;
  *rc = mbdae_sundials_klu_on(e, ctx, m->tmpl, m->S, NULL, &m->ls);
  if (*rc != MBDAE_OK) goto fail;
  return m;
fail:
  mbdae_mult_newton_free(&m);
  return NULL;
}

int mbdae_mult_newton_setup(mbdae_mult_newton *m, SUNMatrix R) {
  const double *Rv = SUNSparseMatrix_Data(R);
  for (int q = 0; q < m->nr; ++q) {
    if (m->is_mult[q]) continue;
    const double a = Rv[m->adiag[q]];
    if (a == 0.0 || !isfinite(a)) return 1;
    m->dinv[q] = 1.0 / a;
  }
  double *Sv = SUNSparseMatrix_Data(m->S);
  memset(Sv, 0, (size_t)SUNSparseMatrix_NNZ(m->S) * sizeof *Sv);
  for (long d = 0; d < m->nd; ++d) Sv[m->ds[d]] += Rv[m->db[d]];
  for (long t = 0; t < m->ntri; ++t) Sv[m->ts[t]] -= Rv[m->tb[t]] * m->dinv[m->tk[t]] * Rv[m->tc[t]];
  int rc = SUNLinSolSetup(m->ls, m->S);
  return rc < 0 ? rc : rc > 0;
}

int mbdae_mult_newton_solve(mbdae_mult_newton *m, SUNMatrix R, const double *b, double *x) {
  const int nr = m->nr;
  const double *Rv = SUNSparseMatrix_Data(R);
  const sunindextype *Rp = SUNSparseMatrix_IndexPointers(R), *Ri = SUNSparseMatrix_IndexValues(R);
  double *bs = N_VGetArrayPointer(m->bs);
  for (int q = 0; q < nr; ++q)
    if (m->is_mult[q]) bs[m->mpos[q]] = b[q];
  for (int k = 0; k < nr; ++k) { /* b_w - B diag(A)^-1 b_v */
    if (m->is_mult[k]) continue;
    const double yk = m->dinv[k] * b[k];
    for (sunindextype a = Rp[k]; a < Rp[k + 1]; ++a)
      if (m->is_mult[Ri[a]]) bs[m->mpos[Ri[a]]] -= Rv[a] * yk;
  }
  int rc = SUNLinSolSolve(m->ls, m->S, m->xs, m->bs, 0.0);
  if (rc != 0) return rc;
  const double *xs = N_VGetArrayPointer(m->xs);
  for (int q = 0; q < nr; ++q) m->acc[q] = m->is_mult[q] ? 0.0 : b[q];
  for (int j = 0; j < nr; ++j) { /* b_v - C x_w */
    if (!m->is_mult[j]) continue;
    const double xj = xs[m->mpos[j]];
    x[j] = xj;
    for (sunindextype a = Rp[j]; a < Rp[j + 1]; ++a)
      if (!m->is_mult[Ri[a]]) m->acc[Ri[a]] -= Rv[a] * xj;
  }
  for (int k = 0; k < nr; ++k)
    if (!m->is_mult[k]) x[k] = m->dinv[k] * m->acc[k];
  return 0;
}

void mbdae_mult_newton_free(mbdae_mult_newton **pm) {
  mbdae_mult_newton *m = pm ? *pm : NULL;
  if (!m) return;
  if (m->ls) SUNLinSolFree(m->ls);
  if (m->S) SUNMatDestroy(m->S);
  if (m->tmpl) N_VDestroy(m->tmpl);
  if (m->xs) N_VDestroy(m->xs);
  if (m->bs) N_VDestroy(m->bs);
  free(m->mpos);
  free(m->adiag);
  free(m->dinv);
  free(m->acc);
  free(m->tb);
  free(m->tc);
  free(m->ts);
  free(m->tk);
  free(m->db);
  free(m->ds);
  free(m);
  *pm = NULL;
}
