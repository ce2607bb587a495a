/* string_net_pattern.c - a sparse pattern assembled from (row, col) entries
 * in any order into CSC, with a lookup of each entry's value slot; the core
 * and its extensions add their Jacobian entries to one pattern. */
#include "strings/string_net_internal.h"

#include <stdlib.h>

#include "mbdae/status.h"

typedef struct sn_triplet {
  int row, col;
} sn_triplet;

struct sn_pattern {
  int n;
  sn_triplet *t;
  long nt, cap;
  mbdae_index *colptr, *rowind;
  mbdae_index nnz;
};

sn_pattern *sn_pattern_create(int n) {
  if (n < 1) return NULL;
  sn_pattern *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  return p;
}

void sn_pattern_free(sn_pattern **pp) {
  if (!pp || !*pp) return;
  free((*pp)->t);
  free((*pp)->colptr);
  free((*pp)->rowind);
  free(*pp);
  *pp = NULL;
}

int sn_pattern_add(sn_pattern *p, int row, int col) {
  if (!p || row < 0 || col < 0 || row >= p->n || col >= p->n || p->colptr)
    return MBDAE_ERR_ARGUMENT;
  if (p->nt == p->cap) {
    long cap = p->cap ? 2 * p->cap : 1024;
    sn_triplet *t = realloc(p->t, (size_t)cap * sizeof *t);
    if (!t) return MBDAE_ERR_MEMORY;
    p->t = t;
    p->cap = cap;
  }
  p->t[p->nt].row = row;
  p->t[p->nt].col = col;
  p->nt++;
  return 0;
}

static int triplet_cmp(const void *a, const void *b) {
  const sn_triplet *x = a, *y = b;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  if (x->row != y->row) return x->row < y->row ? -1 : 1;
  return 0;
}

int sn_pattern_finalize(sn_pattern *p) {
  if (!p || p->colptr) return MBDAE_ERR_ARGUMENT;
  qsort(p->t, (size_t)p->nt, sizeof *p->t, triplet_cmp);
  long u = 0;
  for (long a = 0; a < p->nt; ++a)
    if (u == 0 || triplet_cmp(&p->t[a], &p->t[u - 1]) != 0) p->t[u++] = p->t[a];
  p->nnz = u;
  p->colptr = calloc((size_t)p->n + 1, sizeof(mbdae_index));
  p->rowind = malloc((u > 0 ? (size_t)u : 1) * sizeof(mbdae_index));
  if (!p->colptr || !p->rowind) return MBDAE_ERR_MEMORY;
  for (long a = 0; a < u; ++a) {
    p->colptr[p->t[a].col + 1]++;
    p->rowind[a] = p->t[a].row;
  }
  for (int c = 0; c < p->n; ++c) p->colptr[c + 1] += p->colptr[c];
  free(p->t);
  p->t = NULL;
  p->nt = p->cap = 0;
  return 0;
}

mbdae_index sn_pattern_nnz(const sn_pattern *p) { return p ? p->nnz : 0; }
const mbdae_index *sn_pattern_colptr(const sn_pattern *p) { return p ? p->colptr : NULL; }
const mbdae_index *sn_pattern_rowind(const sn_pattern *p) { return p ? p->rowind : NULL; }

mbdae_index sn_pattern_slot(const sn_pattern *p, int row, int col) {
  if (!p || !p->colptr || col < 0 || col >= p->n) return -1;
  mbdae_index lo = p->colptr[col], hi = p->colptr[col + 1] - 1;
  while (lo <= hi) {
    mbdae_index mid = lo + (hi - lo) / 2;
    if (p->rowind[mid] == row) return mid;
    if (p->rowind[mid] < row) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

