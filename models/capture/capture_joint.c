/* capture_joint.c - sparse joint multiplier solve of the net-capture model.
 *
 * K = G Mg^-1 G^T (capps eq. 2.102, doc/capture.md) is dense in the contacts:
 * every contact row has the body's six velocities, so all contacts couple.
 * Splitting G = [G_v | G_b] (points | body U, w) and introducing the body's
 * reaction acceleration beta = Mb^-1 G_b^T lambda gives the augmented,
 * symmetric and sparse system
 *
 *     [ G_v M^-1 G_v^T   G_b ] [lambda]   [b]
 *     [ G_b^T           -Mb  ] [ beta ] = [0],
 *
 * whose Schur complement on lambda is K (eliminate beta: K lambda = b). Its
 * (1,1) block couples two rows only through a shared point (a string with the
 * strings and the contact at its end points), so the fill of a net stays
 * that of a 2-D grid. KLU factors it; the pattern depends only on the list of
 * rows (not on faces or values), so it is analysed again only when the list
 * changes, and refactored with the previous pivot order otherwise.
 *
 * Rank deficiency: the dense LDL^T gives a redundant row a zero multiplier
 * component. KLU has no such option, so a factorization whose pivot ratio
 * (klu_rcond) is below CAPTURE_JOINT_RCOND is refused (return 1) and the
 * caller uses the dense LDL^T for that matrix.
 *
 * Masked rows (unilateral forces, capture_model.c): a row of the list that
 * carries no force keeps its own diagonal and loses its couplings (and its
 * right-hand side), so its multiplier is exactly 0 and the others solve the
 * system without it - the same pattern for every forced subset of the list,
 * so no new analysis when only the forced set changes. */
#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_internal.h"
#include "mbdae/status.h"

/* min |U_kk| / max |U_kk| below which the matrix is treated as singular */
#define CAPTURE_JOINT_RCOND 1e-12

/* one contribution K_p(a, b) += sum_c val_a[ia + c] z_b[ib + c] at Ax[pos] */
typedef struct joint_pair {
  int a, b, ia, ib, pos;
} joint_pair;

/* one (row, col) entry before compression */
typedef struct joint_trip {
  int row, col, src;
} joint_trip;

struct capture_joint {
  int n, N, cap;          /* rows, n + 6, capacity of list */
  int *list;              /* the rows of the analysed pattern */
  unsigned char *mask;    /* per list entry: 1 carries force, 0 masked */
  int masked;             /* some entry of mask is 0 */
  int valid;              /* pattern built and analysed for list[0..n) */
  int in_use;             /* the last factorization is this one (not dense) */
  int *Ap, *Ai;
  double *Ax, *x;
  joint_pair *pairs;
  int npairs;
  int *body_pos;          /* per row: 6 Ax positions of (l, n+c), then 6 of (n+c, l); -1 none */
  int mb_pos[12];         /* U diagonal (3) and the J block (9) */
  klu_symbolic *sym;
  klu_numeric *num;
  klu_common common;
  long analyses, factorizations, dense_fallbacks;
};

static void release_pattern(capture_joint *j) {
  if (j->num) klu_free_numeric(&j->num, &j->common);
  if (j->sym) klu_free_symbolic(&j->sym, &j->common);
  free(j->Ap); free(j->Ai); free(j->Ax); free(j->x);
  free(j->pairs); free(j->body_pos);
  j->Ap = j->Ai = NULL;
  j->Ax = j->x = NULL;
  j->pairs = NULL;
  j->body_pos = NULL;
  j->valid = 0;
}

void capture_joint_free(capture_model *m) {
  if (!m || !m->joint) return;
  release_pattern(m->joint);
  free(m->joint->list);
  free(m->joint->mask);
  free(m->joint);
  m->joint = NULL;
}

static int cmp_trip(const void *pa, const void *pb) {
  const joint_trip *a = pa, *b = pb;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  return 0;
}

/* point index of entry i of a row, or -1 for a body velocity */
static int entry_point(const capture_model *m, const capture_row *r, int i) {
  return r->idx[i] < 3 * m->np ? r->idx[i] / 3 : -1;
}

/* CSC pattern of the augmented matrix over list[0..n), its fill maps and
 * KLU's analysis. */
static int build_pattern(capture_model *m, capture_joint *j, const int *list, int n) {
  release_pattern(j);
  int np = m->np, N = n + 6;
  /* incidence: rows touching each point (at most 4 strings and 1 contact,
   * counted generally) with the offset of that point's triple in the row */
  int *cnt = calloc((size_t)np + 1, sizeof *cnt);
  if (!cnt) return MBDAE_ERR_MEMORY;
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    for (int i = 0; i < r->nz; i += 3) {
      int p = entry_point(m, r, i);
      if (p >= 0) ++cnt[p + 1];
    }
  }
  for (int p = 0; p < np; ++p) cnt[p + 1] += cnt[p];
  int ninc = cnt[np];
  int *inc_row = malloc(((size_t)ninc + 1) * sizeof *inc_row);
  int *inc_off = malloc(((size_t)ninc + 1) * sizeof *inc_off);
  int *fillp = malloc(((size_t)np + 1) * sizeof *fillp);
  size_t npairs = 0;
  if (!inc_row || !inc_off || !fillp) {
    free(cnt); free(inc_row); free(inc_off); free(fillp);
    return MBDAE_ERR_MEMORY;
  }
  memcpy(fillp, cnt, (size_t)np * sizeof *fillp);
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    for (int i = 0; i < r->nz; i += 3) {
      int p = entry_point(m, r, i);
      if (p < 0) continue;
      inc_row[fillp[p]] = l;
      inc_off[fillp[p]++] = i;
    }
  }
  for (int p = 0; p < np; ++p) {
    size_t d = (size_t)(cnt[p + 1] - cnt[p]);
    npairs += d * d;
  }
  int ncontact = 0;
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    for (int i = 0; i < r->nz; ++i)
      if (entry_point(m, r, i) < 0) { ++ncontact; break; }
  }
  size_t ntrip = npairs + 12 * (size_t)ncontact + 12;
  joint_trip *tr = malloc(ntrip * sizeof *tr);
  j->pairs = malloc((npairs > 0 ? npairs : 1) * sizeof *j->pairs);
  j->body_pos = malloc(12 * ((size_t)n > 0 ? (size_t)n : 1) * sizeof *j->body_pos);
  j->Ap = malloc(((size_t)N + 1) * sizeof *j->Ap);
  int rc = MBDAE_ERR_MEMORY;
  if (!tr || !j->pairs || !j->body_pos || !j->Ap) goto done;
  /* triplets: src >= 0 a pair, -1 - k a body entry (k = 12 l + e), then
   * -1 - 12 n - e the body block */
  size_t t = 0;
  for (int p = 0; p < np; ++p)
    for (int u = cnt[p]; u < cnt[p + 1]; ++u)
      for (int v = cnt[p]; v < cnt[p + 1]; ++v) {
        joint_pair *pr = &j->pairs[t];
        pr->a = inc_row[u];
        pr->ia = inc_off[u];
        pr->b = inc_row[v];
        pr->ib = inc_off[v];
        tr[t].row = pr->a;
        tr[t].col = pr->b;
        tr[t].src = (int)t;
        ++t;
      }
  j->npairs = (int)npairs;
  for (int l = 0; l < 12 * n; ++l) j->body_pos[l] = -1;
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    for (int i = 0; i < r->nz; ++i) {
      if (entry_point(m, r, i) >= 0) continue;
      int c = r->idx[i] - 3 * np; /* 0..5: U, w */
      tr[t].row = l; tr[t].col = n + c; tr[t].src = -1 - (12 * l + c); ++t;
      tr[t].row = n + c; tr[t].col = l; tr[t].src = -1 - (12 * l + 6 + c); ++t;
    }
  }
  for (int e = 0; e < 12; ++e) {
    tr[t].row = n + (e < 3 ? e : 3 + (e - 3) / 3);
    tr[t].col = n + (e < 3 ? e : 3 + (e - 3) % 3);
    tr[t].src = -1 - (12 * n + e);
    ++t;
  }
  qsort(tr, t, sizeof *tr, cmp_trip);
  /* compress duplicates (a string meets itself at both ends) */
  int nnz = 0;
  for (size_t q = 0; q < t; ++q)
    if (q == 0 || tr[q].row != tr[q - 1].row || tr[q].col != tr[q - 1].col) ++nnz;
  j->Ai = malloc((size_t)nnz * sizeof *j->Ai);
  j->Ax = malloc((size_t)nnz * sizeof *j->Ax);
  j->x = malloc((size_t)N * sizeof *j->x);
  if (!j->Ai || !j->Ax || !j->x) goto done;
  for (int c = 0; c <= N; ++c) j->Ap[c] = 0;
  int pos = -1;
  for (size_t q = 0; q < t; ++q) {
    if (q == 0 || tr[q].row != tr[q - 1].row || tr[q].col != tr[q - 1].col) {
      ++pos;
      j->Ai[pos] = tr[q].row;
      ++j->Ap[tr[q].col + 1];
    }
    int s = tr[q].src;
    if (s >= 0) j->pairs[s].pos = pos;
    else if (-1 - s < 12 * n) j->body_pos[-1 - s] = pos;
    else j->mb_pos[-1 - s - 12 * n] = pos;
  }
  for (int c = 0; c < N; ++c) j->Ap[c + 1] += j->Ap[c];
  j->common.ordering = 0; /* AMD: the body's dense rows go last */
  j->sym = klu_analyze(N, j->Ap, j->Ai, &j->common);
  if (!j->sym) goto done;
  if (j->cap < n) {
    int *nl = realloc(j->list, (size_t)n * sizeof *nl);
    if (!nl) goto done;
    j->list = nl;
    unsigned char *nm = realloc(j->mask, (size_t)n);
    if (!nm) goto done;
    j->mask = nm;
    j->cap = n;
  }
  if (n > 0) memcpy(j->list, list, (size_t)n * sizeof *list);
  j->n = n;
  j->N = N;
  j->valid = 1;
  ++j->analyses;
  rc = 0;
done:
  free(cnt); free(inc_row); free(inc_off); free(fillp); free(tr);
  if (rc) release_pattern(j);
  return rc;
}

/* Values of the augmented matrix at the current rows; a masked row keeps
 * only its diagonal. */
static void fill_values(const capture_model *m, capture_joint *j) {
  const int *list = j->list;
  const unsigned char *mask = j->mask;
  int n = j->n;
  memset(j->Ax, 0, (size_t)j->Ap[j->N] * sizeof *j->Ax);
  for (int q = 0; q < j->npairs; ++q) {
    const joint_pair *pr = &j->pairs[q];
    if (pr->a != pr->b && !(mask[pr->a] && mask[pr->b])) continue;
    const capture_row *ra = &m->rows[list[pr->a]], *rb = &m->rows[list[pr->b]];
    j->Ax[pr->pos] += ra->val[pr->ia] * rb->z[pr->ib] + ra->val[pr->ia + 1] * rb->z[pr->ib + 1] +
                      ra->val[pr->ia + 2] * rb->z[pr->ib + 2];
  }
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    if (!mask[l]) continue;
    for (int i = 0; i < r->nz; ++i) {
      if (r->idx[i] < 3 * m->np) continue;
      int c = r->idx[i] - 3 * m->np;
      j->Ax[j->body_pos[12 * l + c]] += r->val[i];
      j->Ax[j->body_pos[12 * l + 6 + c]] += r->val[i];
    }
  }
  for (int e = 0; e < 3; ++e) j->Ax[j->mb_pos[e]] = -m->body->mass;
  for (int e = 0; e < 9; ++e) j->Ax[j->mb_pos[3 + e]] = -m->body->J[e];
}

int capture_joint_factor(capture_model *m, const int *list, int n) {
  return capture_joint_factor_masked(m, list, n, NULL);
}

int capture_joint_factor_masked(capture_model *m, const int *list, int n,
                                const unsigned char *forced) {
  if (!m->joint) {
    m->joint = calloc(1, sizeof *m->joint);
    if (!m->joint) return MBDAE_ERR_MEMORY;
    klu_defaults(&m->joint->common);
  }
  capture_joint *j = m->joint;
  j->in_use = 0;
  if (!j->valid || j->n != n || (n > 0 && memcmp(j->list, list, (size_t)n * sizeof *list))) {
    int rc = build_pattern(m, j, list, n);
    if (rc) return rc;
  }
  j->masked = 0;
  for (int l = 0; l < n; ++l) {
    j->mask[l] = forced ? forced[list[l]] != 0 : 1;
    j->masked |= !j->mask[l];
  }
  fill_values(m, j);
  if (j->num) {
    /* reused pivot order: keep it while it stays sound */
    if (klu_refactor(j->Ap, j->Ai, j->Ax, j->sym, j->num, &j->common) &&
        j->common.status == KLU_OK && klu_rcond(j->sym, j->num, &j->common) &&
        j->common.rcond > CAPTURE_JOINT_RCOND) {
      ++j->factorizations;
      j->in_use = 1;
      return 0;
    }
    klu_free_numeric(&j->num, &j->common);
  }
  j->num = klu_factor(j->Ap, j->Ai, j->Ax, j->sym, &j->common);
  if (!j->num) {
    if (j->common.status == KLU_OUT_OF_MEMORY) return MBDAE_ERR_MEMORY;
    ++j->dense_fallbacks;
    return 1;
  }
  ++j->factorizations;
  if (!klu_rcond(j->sym, j->num, &j->common) || !(j->common.rcond > CAPTURE_JOINT_RCOND)) {
    klu_free_numeric(&j->num, &j->common);
    ++j->dense_fallbacks;
    return 1;
  }
  j->in_use = 1;
  return 0;
}

void capture_joint_unuse(capture_model *m) {
  if (m->joint) m->joint->in_use = 0;
}

int capture_joint_in_use(const capture_model *m) {
  return m->joint && m->joint->in_use;
}

void capture_joint_solve(capture_model *m, int n, double *b) {
  capture_joint *j = m->joint;
  memcpy(j->x, b, (size_t)n * sizeof *b);
  for (int c = 0; c < 6; ++c) j->x[n + c] = 0.0;
  if (j->masked)
    for (int l = 0; l < n; ++l)
      if (!j->mask[l]) j->x[l] = 0.0;
  klu_solve(j->sym, j->num, j->N, 1, j->x, &j->common);
  memcpy(b, j->x, (size_t)n * sizeof *b);
}

void capture_joint_stats(const capture_model *m, long *analyses, long *factorizations,
                         long *dense_fallbacks) {
  const capture_joint *j = m->joint;
  *analyses = j ? j->analyses : 0;
  *factorizations = j ? j->factorizations : 0;
  *dense_fallbacks = j ? j->dense_fallbacks : 0;
}
