/* klu_ordering.c - nested-dissection ordering from METIS for KLU.
 *
 * KLU orders each block of its block-triangular form with AMD, COLAMD or a
 * user hook. Direct factorisation of a 2-D grid (a net) costs O(N^1.5) only
 * with a nested-dissection ordering; METIS_NodeND provides one. KLU calls the
 * hook with the block's CSC pattern; we symmetrise it (METIS wants the graph
 * of A + A^T without self loops) and return METIS' permutation, whose k-th
 * entry is the original index placed k-th - KLU's Perm convention. The
 * return value is KLU's estimate of nnz(L); 0 reports failure.
 *
 * Algebraic unknowns (a DAE's multipliers, id = 0) have a zero diagonal in
 * IDA's iteration matrix when their constraint is active. Left where nested
 * dissection puts them, they are often eliminated before the velocities
 * that give them a pivot, and KLU's partial pivoting then leaves the
 * ordering (a 40 x 40 spinning net: 2 254 off-diagonal pivots, twice AMD's
 * fill). So, given the id vector, each algebraic unknown is moved to just
 * after the last of its differential neighbours in METIS' order, where its
 * Schur-complement diagonal (G M^-1 G^T / cj) is non-zero. */
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"

/* Move each algebraic unknown (id[v] == 0) after its last differential
 * neighbour in Perm; adjacency (xadj, adj) of A + A^T. */
static int delay_algebraic(long n, const idx_t *xadj, const idx_t *adj,
                           const double *id, long *Perm) {
  long *pos = malloc((size_t)n * sizeof *pos), *anchor = malloc((size_t)n * sizeof *anchor);
  long *head = malloc((size_t)n * sizeof *head), *next = malloc((size_t)n * sizeof *next);
  long *out = malloc((size_t)n * sizeof *out);
  int ok = pos && anchor && head && next && out;
  if (ok) {
    for (long k = 0; k < n; ++k) pos[Perm[k]] = k, head[k] = -1;
    for (long v = 0; v < n; ++v) {
      anchor[v] = pos[v];
      if (id[v] != 0.0) continue;
      for (idx_t k = xadj[v]; k < xadj[v + 1]; ++k)
        if (id[adj[k]] != 0.0 && pos[adj[k]] > anchor[v]) anchor[v] = pos[adj[k]];
    }
    /* bucket the algebraic unknowns by anchor, keeping METIS' relative order */
    for (long k = n - 1; k >= 0; --k) {
      long v = Perm[k];
      if (id[v] != 0.0) continue;
      next[v] = head[anchor[v]];
      head[anchor[v]] = v;
    }
    long w = 0;
    for (long k = 0; k < n; ++k) {
      if (id[Perm[k]] != 0.0) out[w++] = Perm[k];
      for (long v = head[k]; v >= 0; v = next[v]) out[w++] = v;
    }
    memcpy(Perm, out, (size_t)n * sizeof *Perm);
  }
  free(pos);
  free(anchor);
  free(head);
  free(next);
  free(out);
  return ok;
}

long mbdae_klu_metis_order(long n, long *Ap, long *Ai, long *Perm, const double *id) {
  if (n <= 0) return 0;
  if (n == 1) {
    Perm[0] = 0;
    return 1;
  }
  /* count the entries of A + A^T off the diagonal (duplicates removed later) */
  long nz = Ap[n];
  idx_t *deg = calloc((size_t)n + 1, sizeof *deg);
  idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
  idx_t *adj = malloc(2 * (size_t)(nz > 0 ? nz : 1) * sizeof *adj);
  idx_t *perm = malloc((size_t)n * sizeof *perm);
  idx_t *iperm = malloc((size_t)n * sizeof *iperm);
  idx_t *mark = malloc((size_t)n * sizeof *mark);
  long result = 0;
  if (!deg || !xadj || !adj || !perm || !iperm || !mark) goto out;
  for (long j = 0; j < n; ++j)
    for (long k = Ap[j]; k < Ap[j + 1]; ++k) {
      long i = Ai[k];
      if (i == j) continue;
      deg[i]++;
      deg[j]++;
    }
  xadj[0] = 0;
  for (long i = 0; i < n; ++i) xadj[i + 1] = xadj[i] + deg[i];
  for (long i = 0; i < n; ++i) deg[i] = xadj[i]; /* fill positions */
  for (long j = 0; j < n; ++j)
    for (long k = Ap[j]; k < Ap[j + 1]; ++k) {
      long i = Ai[k];
      if (i == j) continue;
      adj[deg[i]++] = (idx_t)j;
      adj[deg[j]++] = (idx_t)i;
    }
  /* remove duplicate neighbours (an entry present as both (i,j) and (j,i)) */
  for (long i = 0; i < n; ++i) mark[i] = -1;
  idx_t w = 0;
  for (long i = 0; i < n; ++i) {
    idx_t start = xadj[i], end = xadj[i + 1];
    xadj[i] = w;
    for (idx_t k = start; k < end; ++k) {
      idx_t v = adj[k];
      if (mark[v] == (idx_t)i) continue;
      mark[v] = (idx_t)i;
      adj[w++] = v;
    }
  }
  xadj[n] = w;
  idx_t nv = (idx_t)n;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  if (w == 0) { /* no off-diagonal entries: any order is fill-free */
    for (long i = 0; i < n; ++i) Perm[i] = i;
    result = n;
    goto out;
  }
  if (METIS_NodeND(&nv, xadj, adj, NULL, options, perm, iperm) != METIS_OK) goto out;
  for (long k = 0; k < n; ++k) Perm[k] = (long)perm[k];
  if (id && !delay_algebraic(n, xadj, adj, id, Perm)) goto out;
  result = nz + n;
out:
  free(deg);
  free(xadj);
  free(adj);
  free(perm);
  free(iperm);
  free(mark);
  return result;
}
