/* ns_border.c - bordered solves on a factorised base (ns_border.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ns_border.h"

/* The kept columns Z take at most this many doubles (64 MB): a large base
 * keeps fewer columns at once, and its iteration refactorises sooner. */
#define NS_BORDER_BUDGET ((size_t)1 << 23)

struct ns_border {
  int slots, k_max;
  int slots_now;            /* the slots a base of this size may use */
  /* the base */
  int n;
  ns_factor *fac;
  /* kept columns: name, sparse u in the pool, z = M_B^-1 u (n each) */
  int used, solved;         /* slots [solved, used) hold u, not yet z */
  int *id, *ustart, *unnz;
  int *uidx;
  double *uval;
  int pool_len, pool_cap;
  double *z;                /* slot s: z + s * n */
  size_t z_cap;             /* doubles */
  /* the prepared border: its slots, S = V - U^T Z in LU form */
  int k;
  int *kslot, *piv;
  double *S, *work;
};

void ns_border_free(ns_border **bp) {
  if (!bp || !*bp) return;
  ns_border *b = *bp;
  free(b->id), free(b->ustart), free(b->unnz), free(b->uidx), free(b->uval), free(b->z);
  free(b->kslot), free(b->piv), free(b->S), free(b->work);
  free(b);
  *bp = NULL;
}

ns_border *ns_border_create(int slots, int k_max) {
  ns_border *b = calloc(1, sizeof *b);
  if (!b || slots < 1 || k_max < 1) {
    free(b);
    return NULL;
  }
  b->slots = slots;
  b->k_max = k_max;
  b->id = malloc((size_t)slots * sizeof *b->id);
  b->ustart = malloc((size_t)slots * sizeof *b->ustart);
  b->unnz = malloc((size_t)slots * sizeof *b->unnz);
  b->kslot = malloc((size_t)k_max * sizeof *b->kslot);
  b->piv = malloc((size_t)k_max * sizeof *b->piv);
  b->S = malloc((size_t)k_max * (size_t)k_max * sizeof *b->S);
  b->work = malloc((size_t)k_max * sizeof *b->work);
  if (!b->id || !b->ustart || !b->unnz || !b->kslot || !b->piv || !b->S || !b->work)
    ns_border_free(&b);
  return b;
}

int ns_border_rebase(ns_border *b, int n, ns_factor *fac) {
  b->used = 0;
  b->solved = 0;
  b->pool_len = 0;
  b->k = 0;
  size_t fit = NS_BORDER_BUDGET / (size_t)(n > 0 ? n : 1);
  b->slots_now = fit < (size_t)b->slots ? (fit > 0 ? (int)fit : 1) : b->slots;
  const size_t need = (size_t)b->slots_now * (size_t)(n > 0 ? n : 1);
  if (need > b->z_cap) {
    free(b->z);
    b->z = malloc(need * sizeof *b->z);
    b->z_cap = b->z ? need : 0;
    if (!b->z) {
      b->n = -1;
      return -1;
    }
  }
  b->n = n;
  b->fac = fac;
  return 0;
}

int ns_border_find(const ns_border *b, int id) {
  for (int s = 0; s < b->used; ++s)
    if (b->id[s] == id) return s;
  return -1;
}

int ns_border_add(ns_border *b, int id, int nnz, const int *idx, const double *val) {
  if (b->used == b->slots_now || b->n < 0) return -1;
  if (b->pool_len + nnz > b->pool_cap) {
    int cap = 2 * (b->pool_len + nnz) + 64;
    int *ni = realloc(b->uidx, (size_t)cap * sizeof *ni);
    if (ni) b->uidx = ni;
    double *nx = ni ? realloc(b->uval, (size_t)cap * sizeof *nx) : NULL;
    if (!nx) return -1;
    b->uval = nx;
    b->pool_cap = cap;
  }
  const int s = b->used;
  double *z = b->z + (size_t)s * (size_t)b->n;
  memset(z, 0, (size_t)b->n * sizeof *z);
  for (int e = 0; e < nnz; ++e) {
    z[idx[e]] = val[e];
    b->uidx[b->pool_len + e] = idx[e];
    b->uval[b->pool_len + e] = val[e];
  }
  b->id[s] = id;
  b->ustart[s] = b->pool_len;
  b->unnz[s] = nnz;
  b->pool_len += nnz;
  b->used++;
  return s;
}

/* u_p^T x for the kept column in slot p */
static double u_dot(const ns_border *b, int p, const double *x) {
  double a = 0.0;
  for (int e = b->ustart[p]; e < b->ustart[p] + b->unnz[p]; ++e) a += b->uval[e] * x[b->uidx[e]];
  return a;
}

int ns_border_prepare(ns_border *b, int k, const int *slots, const double *V) {
  if (k > b->k_max) return -1;
  /* the new columns' solves at once (a block solve sweeps the factor once
   * for several right-hand sides) */
  if (b->solved < b->used) {
    if (ns_factor_solve(b->fac, b->used - b->solved, b->z + (size_t)b->solved * (size_t)b->n))
      return -2;
    b->solved = b->used;
  }
  b->k = k;
  memcpy(b->kslot, slots, (size_t)k * sizeof *slots);
  double *S = b->S;
  double big = 0.0;
  for (int q = 0; q < k; ++q) {
    const double *zq = b->z + (size_t)slots[q] * (size_t)b->n;
    for (int p = 0; p < k; ++p) {
      S[q * k + p] = V[q * k + p] - u_dot(b, slots[p], zq);
      big = fmax(big, fabs(S[q * k + p]));
    }
  }
  if (!isfinite(big)) return -2;
  /* LU with partial pivoting, column major: S[col * k + row] */
  for (int c = 0; c < k; ++c) {
    int p = c;
    for (int r = c + 1; r < k; ++r)
      if (fabs(S[c * k + r]) > fabs(S[c * k + p])) p = r;
    b->piv[c] = p;
    if (!(fabs(S[c * k + p]) > 1e-15 * big)) return -2;
    if (p != c)
      for (int j = 0; j < k; ++j) {
        double t = S[j * k + c];
        S[j * k + c] = S[j * k + p];
        S[j * k + p] = t;
      }
    const double d = S[c * k + c];
    for (int r = c + 1; r < k; ++r) S[c * k + r] /= d;
    for (int j = c + 1; j < k; ++j) {
      const double f = S[j * k + c];
      if (f != 0.0)
        for (int r = c + 1; r < k; ++r) S[j * k + r] -= f * S[c * k + r];
    }
  }
  return 0;
}

int ns_border_apply(ns_border *b, double *f, double *g) {
  if (b->n > 0 && ns_factor_solve(b->fac, 1, f)) return -2;
  ns_border_apply_solved(b, f, g);
  return 0;
}

void ns_border_apply_solved(ns_border *b, double *f, double *g) {
  const int k = b->k;
  if (k == 0) return;
  const double *S = b->S;
  double *y = b->work;
  for (int p = 0; p < k; ++p) y[p] = g[p] - u_dot(b, b->kslot[p], f);
  /* the row interchanges first: L's columns hold the rows in their final
   * order (prepare swaps whole rows) */
  for (int c = 0; c < k; ++c) {
    const int p = b->piv[c];
    double t = y[c];
    y[c] = y[p];
    y[p] = t;
  }
  for (int c = 0; c < k; ++c)
    for (int r = c + 1; r < k; ++r) y[r] -= S[c * k + r] * y[c];
  for (int c = k - 1; c >= 0; --c) {
    y[c] /= S[c * k + c];
    for (int r = 0; r < c; ++r) y[r] -= S[c * k + r] * y[c];
  }
  for (int q = 0; q < k; ++q) {
    const double *zq = b->z + (size_t)b->kslot[q] * (size_t)b->n;
    for (int i = 0; i < b->n; ++i) f[i] -= zq[i] * y[q];
    g[q] = y[q];
  }
}
