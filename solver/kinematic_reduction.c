/* kinematic_reduction.c - the Newton matrix of a second-order DAE without its
 * kinematic rows.
 *
 * A mechanical DAE in first-order form has rows q_i' - v_j = 0 (position i,
 * velocity j). In K(cj) = dF/dy + cj dF/dyp such a row has two entries,
 * a_i = cj on the diagonal and b_i = -1 at (i, j), so a solve K x = r gives
 * x_i = (r_i - b_i x_j) / a_i once x_j is known. Substituting that into the
 * other rows leaves the system in the remaining unknowns (velocities,
 * multipliers, ...):
 *
 *     R = K[kept, kept] - sum_i K[kept, i] (b_i / a_i) e_j^T,
 *     R w = r[kept] - sum_i K[kept, i] r_i / a_i,
 *
 * a Schur complement that costs nothing to form (a_i is a scalar). On a net
 * R has 38 % fewer unknowns (velocities and multipliers; the positions go)
 * and smaller factors: the 21 x 21 net (3 486 unknowns, 1 323 kinematic
 * rows) has KLU + METIS factors of 317 000 entries for K, 246 000 for R
 * (doc/arkode.md, "Kinematic rows").
 *
 * A row qualifies when its pattern holds exactly its diagonal and one other
 * column j, dF/dy is zero and dF/dyp non-zero on the diagonal, dF/dyp is
 * zero and dF/dy non-zero at j, and j itself does not qualify. The pivot
 * a_i is checked at every setup (|a_i| >= |b_i|, i.e. cj >= 1 for
 * q' = v): a setup that fails the check reports it, and the caller
 * factors K itself. */
#include "kinematic_reduction.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "mbdae/status.h"
#include "multiplier_newton.h"
#include "sundials_util.h"

struct mbdae_kin_reduction {
  int n, nr;                 /* unknowns of K, of R */
  const mbdae_index *cp, *ri; /* K's pattern (CSC) */
  int *partner;              /* n: j of an eliminated row i, -1 for a kept one */
  int *pos;                  /* n: index in R of a kept unknown, -1 if eliminated */
  mbdae_index *diag, *off;   /* n: K's slots (i, i) and (i, j) of an eliminated row */
  mbdae_index *slot;         /* nnz(K): R's slot an entry adds to (-1: eliminated row) */
  double *ratio;             /* n: b_i / a_i of the last setup */
  SUNMatrix R;
  SUNLinearSolver ls;
  N_Vector tmpl, w, b;       /* nr */
  double *id;                /* nr: the kept part of the problem's id vector, or NULL */
  unsigned char *is_mult;    /* nr: 1 for a kept algebraic unknown (index >= nd) */
  mbdae_mult_newton *mn;     /* R solved in its multipliers (multiplier_newton.c), or NULL */
  int use_mn;                /* 1: the last setup factored mn's S, 0: R */
};

/* rows that qualify (header comment), from K's values at cj = 0 (Fy) and
 * the cj coefficient (Fyp) */
static int find_rows(mbdae_kin_reduction *r, int nd, const double *Fy, const double *Fyp) {
  const int n = r->n;
  int *cnt = calloc((size_t)n, sizeof *cnt), *offcol = malloc((size_t)n * sizeof *offcol);
  if (!cnt || !offcol) {
    free(cnt);
    free(offcol);
    return -1;
  }
  for (int i = 0; i < n; ++i) r->partner[i] = -1, r->diag[i] = r->off[i] = -1;
  for (int c = 0; c < n; ++c)
    for (mbdae_index k = r->cp[c]; k < r->cp[c + 1]; ++k) {
      int i = (int)r->ri[k];
      cnt[i]++;
      if (i == c) r->diag[i] = k;
      else r->off[i] = k, offcol[i] = c; /* the only other entry when cnt[i] == 2 */
    }
  for (int i = 0; i < nd; ++i) {
    mbdae_index a = r->diag[i], b = r->off[i];
    if (cnt[i] != 2 || a < 0 || b < 0) continue;
    if (Fy[a] != 0.0 || Fyp[a] == 0.0 || Fyp[b] != 0.0 || Fy[b] == 0.0) continue;
    r->partner[i] = offcol[i];
  }
  free(cnt);
  free(offcol);
  /* a partner must stay: drop rows whose partner is eliminated, until none */
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < n; ++i)
      if (r->partner[i] >= 0 && r->partner[r->partner[i]] >= 0) {
        r->partner[i] = -1;
        changed = 1;
      }
  }
  int nk = 0;
  for (int i = 0; i < n; ++i) nk += r->partner[i] >= 0;
  return nk;
}

/* R's pattern: K's kept rows, with an eliminated column's entries moved to
 * its partner's column; then each K entry's slot in R */
static int build_pattern(mbdae_kin_reduction *r, SUNContext ctx) {
  const int n = r->n, nr = r->nr;
  int *mark = malloc((size_t)nr * sizeof *mark);
  int *cnt = calloc((size_t)nr + 1, sizeof *cnt);
  /* the columns of K that land in each R column: the kept column itself and
   * the eliminated ones whose partner it is (a linked list) */
  int *head = malloc((size_t)n * sizeof *head), *next = malloc((size_t)n * sizeof *next);
  int rc = -1;
  if (!mark || !cnt || !head || !next) goto out;
  for (int c = 0; c < n; ++c) head[c] = -1;
  for (int c = 0; c < n; ++c) {
    int target = r->partner[c] >= 0 ? r->partner[c] : c;
    next[c] = head[target];
    head[target] = c;
  }
  for (int q = 0; q < nr; ++q) mark[q] = -1;
  long nnz = 0;
  for (int c = 0; c < n; ++c) {
    if (r->pos[c] < 0) continue;
    int rc_ = r->pos[c];
    for (int src = head[c]; src >= 0; src = next[src])
      for (mbdae_index k = r->cp[src]; k < r->cp[src + 1]; ++k) {
        int row = r->pos[r->ri[k]];
        if (row >= 0 && mark[row] != rc_) mark[row] = rc_, cnt[rc_ + 1]++, nnz++;
      }
  }
  r->R = SUNSparseMatrix(nr, nr, nnz, CSC_MAT, ctx);
  if (!r->R) goto out;
  sunindextype *Rp = SUNSparseMatrix_IndexPointers(r->R), *Ri = SUNSparseMatrix_IndexValues(r->R);
  Rp[0] = 0;
  for (int q = 0; q < nr; ++q) Rp[q + 1] = Rp[q] + cnt[q + 1];
  /* rows of each R column in increasing order; slots through a row -> slot map */
  long *where = malloc((size_t)nr * sizeof *where);
  if (!where) goto out;
  for (int q = 0; q < nr; ++q) mark[q] = -1;
  for (int c = 0; c < n; ++c) {
    if (r->pos[c] < 0) continue;
    int col = r->pos[c];
    sunindextype fill = Rp[col];
    for (int src = head[c]; src >= 0; src = next[src])
      for (mbdae_index k = r->cp[src]; k < r->cp[src + 1]; ++k) {
        int row = r->pos[r->ri[k]];
        if (row >= 0 && mark[row] != col) mark[row] = col, Ri[fill++] = row;
      }
    /* insertion sort of the column's rows (short columns) */
    for (sunindextype a = Rp[col] + 1; a < Rp[col + 1]; ++a) {
      sunindextype v = Ri[a], b = a;
      while (b > Rp[col] && Ri[b - 1] > v) Ri[b] = Ri[b - 1], --b;
      Ri[b] = v;
    }
    for (sunindextype a = Rp[col]; a < Rp[col + 1]; ++a) where[Ri[a]] = a;
    for (int src = head[c]; src >= 0; src = next[src])
      for (mbdae_index k = r->cp[src]; k < r->cp[src + 1]; ++k) {
        int row = r->pos[r->ri[k]];
        r->slot[k] = row >= 0 ? where[row] : -1;
      }
  }
  free(where);
  rc = 0;
out:
  free(mark);
  free(cnt);
  free(head);
  free(next);
  return rc;
}

mbdae_kin_reduction *mbdae_kin_reduction_create(mbdae_engine *e, SUNContext ctx, int nd,
                                                const double *Fy, const double *Fyp, int *rc) {
  const mbdae_problem *p = e->p;
  *rc = MBDAE_ERR_MEMORY;
  mbdae_kin_reduction *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->n = e->n;
  r->cp = p->colptr;
  r->ri = p->rowind;
  const int n = r->n;
  r->partner = malloc((size_t)n * sizeof *r->partner);
  r->pos = malloc((size_t)n * sizeof *r->pos);
  r->diag = malloc((size_t)n * sizeof *r->diag);
  r->off = malloc((size_t)n * sizeof *r->off);
  r->ratio = calloc((size_t)n, sizeof *r->ratio);
  r->slot = malloc((size_t)p->nnz * sizeof *r->slot);
  if (!r->partner || !r->pos || !r->diag || !r->off || !r->ratio || !r->slot) goto fail;
  int nk = find_rows(r, nd, Fy, Fyp);
  if (nk < 0) goto fail;
  if (nk == 0) { /* nothing to eliminate */
    *rc = MBDAE_OK;
    mbdae_kin_reduction_free(&r);
    return NULL;
  }
  r->nr = 0;
  for (int i = 0; i < n; ++i) r->pos[i] = r->partner[i] >= 0 ? -1 : r->nr++;
  if (build_pattern(r, ctx) != 0) goto fail;
  r->tmpl = N_VNew_Serial(r->nr, ctx);
  r->w = N_VNew_Serial(r->nr, ctx);
  r->b = N_VNew_Serial(r->nr, ctx);
  if (!r->tmpl || !r->w || !r->b) goto fail;
  if (p->id) {
    r->id = malloc((size_t)r->nr * sizeof *r->id);
    if (!r->id) goto fail;
    for (int i = 0; i < n; ++i)
      if (r->pos[i] >= 0) r->id[r->pos[i]] = p->id[i];
  }
  *rc = mbdae_sundials_klu_on(e, ctx, r->tmpl, r->R, r->id, &r->ls);
  if (*rc != MBDAE_OK) goto fail;
  return r;
fail:
  mbdae_kin_reduction_free(&r);
  return NULL;
}

int mbdae_kin_reduction_rows(const mbdae_kin_reduction *r) { return r ? r->n - r->nr : 0; }

int mbdae_kin_reduction_setup(mbdae_kin_reduction *r, const double *Kv) {
  const int n = r->n;
  for (int i = 0; i < n; ++i) {
    if (r->partner[i] < 0) continue;
    double a = Kv[r->diag[i]], b = Kv[r->off[i]];
    if (!(fabs(a) >= fabs(b)) || a == 0.0) return 1; /* a poor pivot: factor K */
    r->ratio[i] = b / a;
  }
  double *Rv = SUNSparseMatrix_Data(r->R);
  memset(Rv, 0, (size_t)SUNSparseMatrix_NNZ(r->R) * sizeof *Rv);
  for (int c = 0; c < n; ++c) {
    double f = r->partner[c] >= 0 ? -r->ratio[c] : 1.0;
    for (mbdae_index k = r->cp[c]; k < r->cp[c + 1]; ++k)
      if (r->slot[k] >= 0) Rv[r->slot[k]] += f * Kv[k];
  }
  if (r->mn) {
    int mrc = mbdae_mult_newton_setup(r->mn, r->R);
    if (mrc < 0) return mrc;
    r->use_mn = mrc == 0;
    if (r->use_mn) return 0;
  }
  int rc = SUNLinSolSetup(r->ls, r->R);
  return rc < 0 ? rc : rc > 0; /* a failed factorisation of R: factor K */
}

int mbdae_kin_reduction_multiplier_newton(mbdae_kin_reduction *r, mbdae_engine *e,
                                          SUNContext ctx, int nd) {
  if (r->mn) return MBDAE_OK;
  if (!r->is_mult) {
    r->is_mult = malloc((size_t)r->nr * sizeof *r->is_mult);
    if (!r->is_mult) return MBDAE_ERR_MEMORY;
    for (int i = 0; i < r->n; ++i)
      if (r->pos[i] >= 0) r->is_mult[r->pos[i]] = i >= nd;
  }
  int rc = MBDAE_OK;
  r->mn = mbdae_mult_newton_create(e, ctx, r->R, r->is_mult, &rc);
  return rc;
}

int mbdae_kin_reduction_multiplier_unknowns(const mbdae_kin_reduction *r) {
  return r ? mbdae_mult_newton_size(r->mn) : 0;
}

int mbdae_kin_reduction_solve(mbdae_kin_reduction *r, const double *Kv, const double *rhs,
                              double *x) {
  const int n = r->n;
  double *rb = N_VGetArrayPointer(r->b);
  for (int i = 0; i < n; ++i)
    if (r->pos[i] >= 0) rb[r->pos[i]] = rhs[i];
  for (int c = 0; c < n; ++c) {
    if (r->partner[c] < 0) continue;
    double xc = rhs[c] / Kv[r->diag[c]]; /* x_c's part independent of x_j */
    for (mbdae_index k = r->cp[c]; k < r->cp[c + 1]; ++k)
      if (r->slot[k] >= 0) rb[r->pos[r->ri[k]]] -= Kv[k] * xc;
  }
  int rc = r->use_mn ? mbdae_mult_newton_solve(r->mn, r->R, rb, N_VGetArrayPointer(r->w))
                     : SUNLinSolSolve(r->ls, r->R, r->w, r->b, 0.0);
  if (rc != 0) return rc;
  const double *w = N_VGetArrayPointer(r->w);
  for (int i = 0; i < n; ++i)
    if (r->pos[i] >= 0) x[i] = w[r->pos[i]];
  for (int i = 0; i < n; ++i)
    if (r->partner[i] >= 0) x[i] = rhs[i] / Kv[r->diag[i]] - r->ratio[i] * x[r->partner[i]];
  return 0;
}

void mbdae_kin_reduction_free(mbdae_kin_reduction **pr) {
  mbdae_kin_reduction *r = pr ? *pr : NULL;
  if (!r) return;
  mbdae_mult_newton_free(&r->mn);
  free(r->is_mult);
  if (r->ls) SUNLinSolFree(r->ls);
  if (r->R) SUNMatDestroy(r->R);
  if (r->tmpl) N_VDestroy(r->tmpl);
  if (r->w) N_VDestroy(r->w);
  if (r->b) N_VDestroy(r->b);
  free(r->partner);
  free(r->pos);
  free(r->diag);
  free(r->off);
  free(r->slot);
  free(r->ratio);
  free(r->id);
  free(r);
  *pr = NULL;
}
