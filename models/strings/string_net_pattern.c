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

static int int_cmp(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sort one column's rows: insertion sort for the usual few, qsort for a
 * long column (a body coupled to every point). */
static void sort_rows(int *r, long k) {
  if (k > 32) {
    qsort(r, (size_t)k, sizeof *r, int_cmp);
    return;
  }
  for (long i = 1; i < k; ++i) {
    int v = r[i];
    long j = i;
    for (; j > 0 && r[j - 1] > v; --j) r[j] = r[j - 1];
    r[j] = v;
  }
}

/* CSC by a counting sort on the column, then each column's rows sorted and
 * made unique: linear in the entries (a global qsort of millions of
 * triplets took seconds for the largest nets, a set-up nobody could stop). */
int sn_pattern_finalize(sn_pattern *p) {
  if (!p || p->colptr) return MBDAE_ERR_ARGUMENT;
  const int n = p->n;
  long *start = calloc((size_t)n + 1, sizeof *start);
  int *r = malloc((p->nt > 0 ? (size_t)p->nt : 1) * sizeof *r);
  p->colptr = calloc((size_t)n + 1, sizeof(mbdae_index));
  if (!start || !r || !p->colptr) {
    free(start);
    free(r);
    return MBDAE_ERR_MEMORY;
  }
  for (long a = 0; a < p->nt; ++a) start[p->t[a].col + 1]++;
  for (int c = 0; c < n; ++c) start[c + 1] += start[c];
  for (long a = 0; a < p->nt; ++a) r[start[p->t[a].col]++] = p->t[a].row;
  /* start[c] is now the end of column c (the beginning of c + 1) */
  long u = 0, b = 0;
  for (int c = 0; c < n; ++c) {
    long e = start[c];
    sort_rows(r + b, e - b);
    for (long a = b; a < e; ++a)
      if (a == b || r[a] != r[a - 1]) r[u++] = r[a];
    p->colptr[c + 1] = (mbdae_index)u;
    b = e;
  }
  free(start);
  p->nnz = (mbdae_index)u;
  p->rowind = malloc((u > 0 ? (size_t)u : 1) * sizeof(mbdae_index));
  if (!p->rowind) {
    free(r);
    return MBDAE_ERR_MEMORY;
  }
  for (long a = 0; a < u; ++a) p->rowind[a] = r[a];
  free(r);
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

