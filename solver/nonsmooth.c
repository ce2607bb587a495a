/* nonsmooth.c - the one-step nonsmooth problem (nonsmooth.h): a primal-dual
 * active-set (semismooth Newton on the min-map) iteration, each iterate a
 * sparse linear system factorised by ns_factor.h (LDL^T, KLU as
 * fallback), block principal pivoting once it
 * cycles (pivot_flip), projected Gauss-Seidel as the fallback, and a dense
 * Lemke (ns_lemke.h) as the last resort, which also proves a problem
 * infeasible (lemke_fallback).
 *
 * The linear system of an iterate. With A the rows taken as active, the
 * velocities split into E, those whose column of W holds only W_jj and
 * which few rows of G touch (a net's points), and K, the others (a body's
 * translation, that every contact row touches, and its inertia block).
 * Eliminating v_E = W_EE^-1 (r_E + G_AE^T P_A) from
 *     W v = r + G_A^T P_A,   G_A v + b_A = -E_A P_A   (E_A = NS_EPS_REL D_ii)
 * leaves the symmetric quasi-definite system of |A| + |K| unknowns
 *     [ G_AE W_EE^-1 G_AE^T + E_A   G_AK  ] [ P_A ]   [ -(G_AE W_EE^-1 r_E + b_A) ]
 *     [ G_AK^T                     -W_KK  ] [ v_K ] = [ -r_K                      ]
 * (the Delassus matrix of the active rows where W is diagonal, the KKT
 * system where it is not). Its pattern follows A, so it is analysed when A
 * changes and only refactorised when the iteration or the next step meets
 * the same A again. Keeping K out of the elimination keeps the contact rows
 * from coupling all to all through the body. On the 30 x 30 capture a run
 * to t = 1.6 s costs a third of the CPU of the full KKT system of all rows
 * and velocities (n = 5,346; doc/moreau.md).
 *
 * Within one solve the reduced system of A is the principal submatrix on
 * A + K of one fixed symmetric matrix (the Delassus entries of two rows do
 * not depend on the set). So a later iterate, whose set differs from a
 * factorised one by a few rows, is solved as that factor bordered by the
 * added rows' columns and unit columns for the dropped rows (ns_border.h):
 * a solve per new row instead of an analysis and a factorisation of the
 * whole system. The bordered result is kept only if it meets the iterate's
 * own linear system to NS_BORDER_RES times the tolerance. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <klu.h>

#include "nonsmooth.h"
#include "mass_factor.h"
#include "ns_border.h"
#include "ns_factor.h"
#include "ns_lemke.h"

/* Active sets remembered to detect a cycling iteration: the folded 100 x 100
 * net's step from t = 1.835 s cycled through 21 sets under the plain update,
 * unseen by a memory of 16 until the cap (Gauss-Seidel then stopped at
 * 1.4e-5); with 64 it pivots and converges in 59 iterates. */
#define NS_CYCLE_MEMORY 64
/* Block pivots allowed without a new least count of infeasible rows
 * before a single pivot (pivot_flip). */
#define NS_PIVOT_TRIES 1
/* A diagonal velocity is eliminated when at most this many rows touch it
 * (each such velocity adds up to its count squared entries). */
#define NS_ELIM_ROWS 32
/* Later iterates of one solve are bordered solves on the factor of an
 * earlier iterate (ns_border.h) while they differ from it by at most
 * NS_BORDER_MAX rows (added plus removed) and at most NS_BORDER_SLOTS
 * distinct rows have been bordered since that factorisation; otherwise the
 * iterate is factorised and becomes the base. */
#define NS_BORDER_MAX 128
#define NS_BORDER_SLOTS 256
/* A bordered solve is accepted when the residual of the iterate's linear
 * system, in velocity units, is at most NS_BORDER_RES times the solve's
 * tolerance (after up to two steps of refinement); otherwise the iterate is
 * factorised. */
#define NS_BORDER_RES 1e-3
/* Symmetric Gauss-Seidel sweeps (forward and backward) of the taut-front
 * prediction after an infeasible iterate (front_flip). */
#define NS_FRONT_SWEEPS 10
/* Iterates of front_flip allowed without a new least count of infeasible
 * rows; then the plain update (and pivoting after a cycle) finishes the
 * solve, as it did before the prediction. */
#define NS_FRONT_TRIES 3
/* The prediction is used on an iterate that leaves more than NS_FRONT_ROWS
 * infeasible rows (a wide front), or once the plain update has taken
 * NS_FRONT_DEEP iterates in the solve (a deep one: a chain pulled at one
 * end turns taut one link per iterate). Elsewhere its sweeps cost more than
 * the iterates they save. Measured on every step of the capture, each solved
 * both ways (30 x 30 over 10 s, 10 x 10 over 3 s): with the prediction after
 * every infeasible iterate 24.2 / 0.50 CPU s in the solves against 23.4 /
 * 0.40 without it; gated on the first iterate's count, best from 30 to 80
 * rows (64: 20.6 / 0.385); gated per iterate at 64, 21.6 against 23.0 for the
 * first-iterate gate and 26.4 ungated on the same steps, 0.378 on the
 * 10 x 10. With at most 64 infeasible rows first, 63 of the 10,000 30 x 30
 * solves and 28 of the 3,000 10 x 10 ones needed more than 6 plain iterates
 * (0.4 s and 0.013 s of their solves). */
#define NS_FRONT_ROWS 64
#define NS_FRONT_DEEP 6

struct ns_solver {
  int nv, nc, nu, n;
  /* W (CSC) and G (CSR), int copies */
  int *wp, *wi, w_nnz, w_diag; /* w_diag: W is diagonal */
  int *wdpos;                  /* position of W_jj in Wx */
  int *gp, *gi, g_nnz;
  /* G by columns: column j holds the entries tk[tp[j] .. tp[j+1]) of G, of rows grow[] */
  int *tp, *tk, *grow;
  /* velocities: kpos[j] = -1 if eliminated, else its place among the nk kept */
  int *kpos, *kept, nk;
  /* the reduced system of the current active set (CSC, n_red = na + nk) */
  int *rpos;                   /* nc: place of an active row, -1 otherwise */
  int *rp, *ri, r_cap, n_red, na;
  double *rx;
  int *mark;                   /* assembly: position of a row in the current column */
  klu_common common;
  klu_symbolic *wsym;
  klu_numeric *wnum;
  ns_factor *rf;               /* the reduced system's factor */
  /* W_KK (CSC over the kept velocities) for the Gauss-Seidel fallback, and
   * Z = W_KK^-1 G_SK^T of the set's rows (nk x nset, column by row) */
  int *kp, *ki, *kwpos;
  klu_symbolic *ksym;
  klu_numeric *knum;
  double *kx, *zk;
  size_t zk_cap;
  /* work */
  double *wdiag, *vfree, *dii, *w, *rhs, *yx;
  unsigned char *on, *seen;
  unsigned char *fact_on;      /* the active set of the system last analysed and factorised */
  int have_fact;
  long refactors, factors;
  /* bordered solves: the base is the factorised system of rows brpos >= 0
   * (bna of them, then the nk kept velocities); base_ok while it belongs
   * to the current ns_solve (the values of W and G) */
  ns_border *bd;
  int *brpos, bna, base_ok, cur_bordered;
  int *bpos, *blist, *bslot, nb;   /* the current border: position of row i, rows, slots */
  int *bidx, *bmark;               /* a column's entries; bmark: where an unknown is listed */
  double *bval, *bV, *bf, *bg, *bdx;
  double *gsP, *gsv, *gsd; /* front_flip: Gauss-Seidel copies of P and v, its diagonal */
  double *bt; /* the base's solution M_B^-1 f_B: every bordered iterate's first solve */
  double lin_tol;
  long bordered;
  uint64_t ring[NS_CYCLE_MEMORY];
};

/* The state of the pivoting rule after a cycle (pivot_flip). */
typedef struct pivot_rule {
  int best;  /* least count of infeasible rows so far */
  int tries; /* block pivots left without a new least */
} pivot_rule;

static int *int_copy(const mbdae_index *src, mbdae_index n) {
  int *d = malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  if (d)
    for (mbdae_index i = 0; i < n; ++i) d[i] = (int)src[i];
  return d;
}

void ns_free(ns_solver **sp) {
  if (!sp || !*sp) return;
  ns_solver *s = *sp;
  ns_factor_free(&s->rf);
  if (s->wnum) klu_free_numeric(&s->wnum, &s->common);
  if (s->wsym) klu_free_symbolic(&s->wsym, &s->common);
  if (s->knum) klu_free_numeric(&s->knum, &s->common);
  if (s->ksym) klu_free_symbolic(&s->ksym, &s->common);
  free(s->kp), free(s->ki), free(s->kwpos), free(s->kx), free(s->zk);
  free(s->wp), free(s->wi), free(s->wdpos), free(s->gp), free(s->gi);
  free(s->tp), free(s->tk), free(s->grow), free(s->kpos), free(s->kept);
  free(s->rpos), free(s->rp), free(s->ri), free(s->rx), free(s->mark);
  free(s->wdiag), free(s->vfree), free(s->dii), free(s->w), free(s->rhs), free(s->yx);
  free(s->on), free(s->seen), free(s->fact_on);
  ns_border_free(&s->bd);
  free(s->brpos), free(s->bpos), free(s->blist), free(s->bslot), free(s->bidx);
  free(s->bval), free(s->bmark), free(s->bV), free(s->bf), free(s->bg), free(s->bdx);
  free(s->bt);
  free(s->gsP), free(s->gsv), free(s->gsd);
  free(s);
  *sp = NULL;
}

/* G by columns, the eliminated and kept velocities, and room for the
 * largest reduced system (every row active). */
static int build_reduced(ns_solver *s) {
  const int nv = s->nv, nc = s->nc;
  s->tp = calloc((size_t)nv + 1, sizeof *s->tp);
  s->tk = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->tk);
  s->grow = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->grow);
  s->kpos = malloc((size_t)nv * sizeof *s->kpos);
  s->kept = malloc((size_t)nv * sizeof *s->kept);
  s->rpos = malloc((size_t)nc * sizeof *s->rpos);
  s->rp = malloc((size_t)(nc + nv + 1) * sizeof *s->rp);
  s->mark = malloc((size_t)(nc + nv) * sizeof *s->mark);
  int *next = malloc((size_t)nv * sizeof *next);
  int ok = s->tp && s->tk && s->grow && s->kpos && s->kept && s->rpos && s->rp && s->mark && next;
  if (ok) {
    for (int k = 0; k < s->g_nnz; ++k) s->tp[s->gi[k] + 1]++;
    for (int j = 0; j < nv; ++j) s->tp[j + 1] += s->tp[j];
    memcpy(next, s->tp, (size_t)nv * sizeof *next);
    for (int i = 0; i < nc; ++i)
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
        s->tk[next[s->gi[k]]++] = k;
        s->grow[k] = i;
      }
    /* eliminated: W_jj is alone in its row and column of W and few rows
     * of G touch j (next[] marks the coupled velocities) */
    memset(next, 0, (size_t)nv * sizeof *next);
    for (int j = 0; j < nv; ++j)
      for (int k = s->wp[j]; k < s->wp[j + 1]; ++k)
        if (s->wi[k] != j) next[j] = next[s->wi[k]] = 1;
    s->nk = 0;
    for (int j = 0; j < nv; ++j) {
      int alone = !next[j] && s->wp[j + 1] - s->wp[j] == 1;
      s->kpos[j] = alone && s->tp[j + 1] - s->tp[j] <= NS_ELIM_ROWS ? -1 : s->nk++;
      if (s->kpos[j] >= 0) s->kept[s->kpos[j]] = j;
    }
    /* entries: per eliminated column up to count^2, per G entry in a kept
     * column two, the kept block of W, a diagonal per row */
    size_t cap = (size_t)s->w_nnz + (size_t)nc;
    for (int j = 0; j < nv; ++j) {
      size_t c = (size_t)(s->tp[j + 1] - s->tp[j]);
      cap += s->kpos[j] < 0 ? c * c : 2 * c;
    }
    if (cap > (size_t)INT32_MAX) ok = 0;
    s->r_cap = (int)cap;
  }
  free(next);
  if (ok) {
    s->ri = malloc((size_t)s->r_cap * sizeof *s->ri);
    s->rx = malloc((size_t)s->r_cap * sizeof *s->rx);
    ok = s->ri && s->rx;
  }
  /* W_KK: every entry of a kept column lies in a kept row (an eliminated
   * velocity's W_jj is alone in its row and column) */
  if (ok && s->nk > 0) {
    int nnz = 0;
    for (int kc = 0; kc < s->nk; ++kc) nnz += s->wp[s->kept[kc] + 1] - s->wp[s->kept[kc]];
    s->kp = malloc(((size_t)s->nk + 1) * sizeof *s->kp);
    s->ki = malloc((size_t)nnz * sizeof *s->ki);
    s->kwpos = malloc((size_t)nnz * sizeof *s->kwpos);
    s->kx = malloc((size_t)nnz * sizeof *s->kx);
    ok = s->kp && s->ki && s->kwpos && s->kx;
    if (ok) {
      int pos = 0;
      for (int kc = 0; kc < s->nk; ++kc) {
        const int j = s->kept[kc];
        s->kp[kc] = pos;
        for (int k = s->wp[j]; k < s->wp[j + 1]; ++k) {
          s->ki[pos] = s->kpos[s->wi[k]];
          s->kwpos[pos++] = k;
        }
      }
      s->kp[s->nk] = pos;
      s->ksym = klu_analyze(s->nk, s->kp, s->ki, &s->common);
      ok = s->ksym != NULL;
    }
  }
  return ok ? 0 : -1;
}

ns_solver *ns_create(int nv, const mbdae_index *w_colptr, const mbdae_index *w_rowind,
                     int nc, int nu, const mbdae_index *g_rowptr,
                     const mbdae_index *g_colind, char *msg, size_t msglen) {
  ns_solver *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(msg, msglen, "out of memory creating the nonsmooth solver");
    return NULL;
  }
  s->nv = nv;
  s->nc = nc;
  s->nu = nu;
  s->n = nv + nc;
  s->w_nnz = (int)w_colptr[nv];
  s->g_nnz = nc > 0 ? (int)g_rowptr[nc] : 0;
  s->wp = int_copy(w_colptr, nv + 1);
  s->wi = int_copy(w_rowind, s->w_nnz);
  s->gp = nc > 0 ? int_copy(g_rowptr, nc + 1) : calloc(1, sizeof(int));
  s->gi = nc > 0 ? int_copy(g_colind, s->g_nnz) : calloc(1, sizeof(int));
  s->wdpos = malloc((size_t)nv * sizeof *s->wdpos);
  size_t nn = (size_t)s->n, ncc = (size_t)(nc > 0 ? nc : 1);
  s->wdiag = malloc((size_t)nv * sizeof *s->wdiag);
  s->vfree = malloc((size_t)nv * sizeof *s->vfree);
  s->dii = malloc(ncc * sizeof *s->dii);
  s->w = malloc(ncc * sizeof *s->w);
  s->rhs = malloc(nn * sizeof *s->rhs);
  s->yx = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->yx);
  s->on = calloc(ncc, 1);
  s->seen = calloc(ncc, 1);
  s->fact_on = calloc(ncc, 1);
  if (!s->fact_on ||!s->wp || !s->wi || !s->gp || !s->gi || !s->wdpos || !s->wdiag || !s->vfree ||
      !s->dii || !s->w || !s->rhs || !s->yx || !s->on || !s->seen) {
    snprintf(msg, msglen, "out of memory creating the nonsmooth solver (nv=%d, rows=%d)", nv, nc);
    ns_free(&s);
    return NULL;
  }
  if (ns_mass_analyse(nv, s->wp, s->wi, s->wdpos, &s->w_diag, &s->wsym, &s->common, msg,
                      msglen)) {
    ns_free(&s);
    return NULL;
  }
  if (nc > 0) {
    const size_t nr = (size_t)nc + (size_t)nv + 1, kb = NS_BORDER_MAX;
    s->bd = ns_border_create(NS_BORDER_SLOTS, NS_BORDER_MAX);
    s->rf = ns_factor_create(NS_FACTOR_AUTO);
    s->brpos = malloc((size_t)nc * sizeof *s->brpos);
    s->bpos = malloc((size_t)nc * sizeof *s->bpos);
    s->blist = malloc(kb * sizeof *s->blist);
    s->bslot = malloc(kb * sizeof *s->bslot);
    s->bidx = malloc(nr * sizeof *s->bidx);
    s->bval = malloc(nr * sizeof *s->bval);
    s->bmark = malloc(nr * sizeof *s->bmark);
    s->bV = malloc(kb * kb * sizeof *s->bV);
    s->bf = malloc(nr * sizeof *s->bf);
    s->bg = malloc(kb * sizeof *s->bg);
    s->bdx = malloc(nr * sizeof *s->bdx);
    s->bt = malloc(nr * sizeof *s->bt);
    s->gsP = malloc((size_t)nc * sizeof *s->gsP);
    s->gsv = malloc((size_t)nv * sizeof *s->gsv);
    s->gsd = malloc((size_t)nc * sizeof *s->gsd);
    if (!s->bd || !s->rf || !s->brpos || !s->bpos || !s->blist || !s->bslot || !s->bidx || !s->bval ||
        !s->bmark || !s->bV || !s->bf || !s->bg || !s->bdx || !s->bt || !s->gsP || !s->gsv || !s->gsd) {
      snprintf(msg, msglen, "out of memory creating the nonsmooth solver (nv=%d, rows=%d)", nv,
               nc);
      ns_free(&s);
      return NULL;
    }
    for (int i = 0; i < nc; ++i) s->bpos[i] = -1;
    for (size_t i = 0; i < nr; ++i) s->bmark[i] = -1;
  }
  if (nc > 0 && build_reduced(s)) {
    snprintf(msg, msglen, "out of memory building the reduced system (nv=%d, rows=%d)", nv, nc);
    ns_free(&s);
    return NULL;
  }
  return s;
}

/* W^-1 x in place. */
static int w_solve(ns_solver *s, double *x) {
  if (s->w_diag) {
    for (int j = 0; j < s->nv; ++j) x[j] /= s->wdiag[j];
    return 0;
  }
  return klu_solve(s->wsym, s->wnum, s->nv, 1, x, &s->common) ? 0 : -2;
}

static double row_dot(const ns_solver *s, const double *gx, int i, const double *v) {
  double a = 0.0;
  for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) a += gx[k] * v[s->gi[k]];
  return a;
}

/* max over the set of |min(D_ii P_i, w_i)| (bilateral |w_i|), w = G v + b. */
static double residual(ns_solver *s, const ns_input *in, const double *v, const double *P) {
  double r = 0.0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) continue;
    double wi = row_dot(s, in->Gx, i, v) + in->b[i];
    s->w[i] = wi;
    double ri = i < s->nu ? fabs(fmin(s->dii[i] * P[i], wi)) : fabs(wi);
    if (!(ri <= r)) r = ri; /* NaN propagates */
  }
  return r;
}

static uint64_t set_hash(const ns_solver *s, const unsigned char *in_set) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < s->nu; ++i)
    if (in_set[i]) h = (h ^ (uint64_t)(s->on[i] + 1u + 2u * (unsigned)i)) * 1099511628211ull;
  return h;
}

/* Add x at (row, current column) of the reduced system; the column's
 * entries start at `start`, a repeated row is summed. */
static void add_entry(ns_solver *s, int start, int *pos, int row, double x) {
  if (s->mark[row] < start) {
    s->mark[row] = *pos;
    s->ri[*pos] = row;
    s->rx[(*pos)++] = x;
  } else {
    s->rx[s->mark[row]] += x;
  }
}

/* Assemble the reduced system (file comment) of the active set on = in_set
 * && s->on, and its right-hand side in s->rhs. */
static void reduced_assemble(ns_solver *s, const ns_input *in) {
  const int nc = s->nc;
  int na = 0;
  for (int i = 0; i < nc; ++i) s->rpos[i] = in->in_set[i] && s->on[i] ? na++ : -1;
  s->na = na;
  s->n_red = na + s->nk;
  for (int c = 0; c < s->n_red; ++c) s->mark[c] = -1;
  int pos = 0;
  /* columns of the active rows: Delassus part, G_AK^T below, the eps diagonal */
  for (int a = 0; a < nc; ++a) {
    const int ca = s->rpos[a];
    if (ca < 0) continue;
    const int start = pos;
    s->rp[ca] = pos;
    double q = in->b[a];
    for (int k = s->gp[a]; k < s->gp[a + 1]; ++k) {
      const int j = s->gi[k];
      const double gaj = in->Gx[k];
      if (s->kpos[j] >= 0) {
        add_entry(s, start, &pos, na + s->kpos[j], gaj);
        continue;
      }
      const double winv = 1.0 / s->wdiag[j];
      q += gaj * s->vfree[j];
      for (int c = s->tp[j]; c < s->tp[j + 1]; ++c) {
        const int kk = s->tk[c], row = s->rpos[s->grow[kk]];
        if (row >= 0) add_entry(s, start, &pos, row, gaj * winv * in->Gx[kk]);
      }
    }
    add_entry(s, start, &pos, ca, NS_EPS_REL * s->dii[a]);
    s->rhs[ca] = -q;
  }
  /* columns of the kept velocities: G_AK, then -W_KK */
  for (int kc = 0; kc < s->nk; ++kc) {
    const int j = s->kept[kc], col = na + kc;
    const int start = pos;
    s->rp[col] = pos;
    for (int c = s->tp[j]; c < s->tp[j + 1]; ++c) {
      const int kk = s->tk[c], row = s->rpos[s->grow[kk]];
      if (row >= 0) add_entry(s, start, &pos, row, in->Gx[kk]);
    }
    for (int k = s->wp[j]; k < s->wp[j + 1]; ++k)
      add_entry(s, start, &pos, na + s->kpos[s->wi[k]], -in->Wx[k]);
    s->rhs[col] = -in->r[j];
  }
  s->rp[s->n_red] = pos;
}

/* v from the reduced solution x (P_A, v_K): v_E = vfree_E + W_EE^-1 G_AE^T P_A. */
static void reduced_velocities(const ns_solver *s, const ns_input *in, const double *x,
                               double *v) {
  for (int j = 0; j < s->nv; ++j) {
    if (s->kpos[j] >= 0) {
      v[j] = x[s->na + s->kpos[j]];
      continue;
    }
    double acc = 0.0;
    for (int c = s->tp[j]; c < s->tp[j + 1]; ++c) {
      const int kk = s->tk[c], row = s->rpos[s->grow[kk]];
      if (row >= 0) acc += in->Gx[kk] * x[row];
    }
    v[j] = s->vfree[j] + acc / s->wdiag[j];
  }
}

/* The places of the active set on = in_set && s->on in the reduced system
 * (rpos, na, n_red) and its right-hand side (reduced_assemble's) in rhs. */
static void active_rhs(ns_solver *s, const ns_input *in, double *rhs) {
  int na = 0;
  for (int i = 0; i < s->nc; ++i) s->rpos[i] = in->in_set[i] && s->on[i] ? na++ : -1;
  s->na = na;
  s->n_red = na + s->nk;
  for (int a = 0; a < s->nc; ++a) {
    if (s->rpos[a] < 0) continue;
    double q = in->b[a];
    for (int k = s->gp[a]; k < s->gp[a + 1]; ++k)
      if (s->kpos[s->gi[k]] < 0) q += in->Gx[k] * s->vfree[s->gi[k]];
    rhs[s->rpos[a]] = -q;
  }
  for (int kc = 0; kc < s->nk; ++kc) rhs[na + kc] = -in->r[s->kept[kc]];
}

/* Column a of the reduced system of every row over the base's unknowns
 * (rows brpos >= 0, then the kept velocities) into bidx/bval; the entries
 * with added rows (bpos >= 0) into column c of the border block V. */
static void border_entry(ns_solver *s, int *nnz, int pos, double x) {
  if (s->bmark[pos] < 0) {
    s->bmark[pos] = *nnz;
    s->bidx[*nnz] = pos;
    s->bval[(*nnz)++] = x;
  } else {
    s->bval[s->bmark[pos]] += x;
  }
}

static int border_column(ns_solver *s, const ns_input *in, int a, int c) {
  int nnz = 0;
  for (int k = s->gp[a]; k < s->gp[a + 1]; ++k) {
    const int j = s->gi[k];
    const double gaj = in->Gx[k];
    if (s->kpos[j] >= 0) {
      border_entry(s, &nnz, s->bna + s->kpos[j], gaj);
      continue;
    }
    const double f = gaj / s->wdiag[j];
    for (int t = s->tp[j]; t < s->tp[j + 1]; ++t) {
      const int kk = s->tk[t], row = s->grow[kk];
      if (s->brpos[row] >= 0)
        border_entry(s, &nnz, s->brpos[row], f * in->Gx[kk]);
      else if (s->bpos[row] >= 0 && s->rpos[row] >= 0) {
        s->bV[c * s->nb + s->bpos[row]] += f * in->Gx[kk];
      }
    }
  }
  for (int e = 0; e < nnz; ++e) s->bmark[s->bidx[e]] = -1;
  return nnz;
}

/* Solve the current reduced system in place (x: its right-hand side on
 * entry, in the current layout) with the prepared border on the base. */
static int border_apply(ns_solver *s, double *x) {
  for (int i = 0; i < s->nc; ++i) {
    if (s->brpos[i] >= 0) s->bf[s->brpos[i]] = s->rpos[i] >= 0 ? x[s->rpos[i]] : 0.0;
    if (s->bpos[i] >= 0) s->bg[s->bpos[i]] = s->rpos[i] >= 0 ? x[s->rpos[i]] : 0.0;
  }
  for (int kc = 0; kc < s->nk; ++kc) s->bf[s->bna + kc] = x[s->na + kc];
  if (ns_border_apply(s->bd, s->bf, s->bg)) return -2;
  for (int i = 0; i < s->nc; ++i)
    if (s->rpos[i] >= 0) x[s->rpos[i]] = s->brpos[i] >= 0 ? s->bf[s->brpos[i]] : s->bg[s->bpos[i]];
  for (int kc = 0; kc < s->nk; ++kc) x[s->na + kc] = s->bf[s->bna + kc];
  return 0;
}

/* The current reduced system solved with the prepared border from the
 * base's own solution (bt): its right-hand side is the base's on every base
 * row, kept or dropped (a dropped row's unit column frees its equation, so
 * its right-hand side changes no unknown), hence M_B^-1 f needs no solve.
 * rhs: the current system's right-hand side (for the added rows); x: its
 * solution, in the current layout (may be rhs). */
static void border_apply_base(ns_solver *s, const double *rhs, double *x) {
  memcpy(s->bf, s->bt, (size_t)(s->bna + s->nk) * sizeof *s->bf);
  for (int p = 0; p < s->nb; ++p) {
    const int i = s->blist[p];
    s->bg[p] = s->rpos[i] >= 0 ? rhs[s->rpos[i]] : 0.0;
  }
  ns_border_apply_solved(s->bd, s->bf, s->bg);
  for (int i = 0; i < s->nc; ++i)
    if (s->rpos[i] >= 0) x[s->rpos[i]] = s->brpos[i] >= 0 ? s->bf[s->brpos[i]] : s->bg[s->bpos[i]];
  for (int kc = 0; kc < s->nk; ++kc) x[s->na + kc] = s->bf[s->bna + kc];
}

/* The residual M x - rhs of the current reduced system at (v, P) into d
 * (current layout); returns its largest entry in velocity units (kept rows
 * divided by W_jj). */
static double reduced_residual(ns_solver *s, const ns_input *in, const double *v,
                               const double *P, double *d) {
  double m = 0.0;
  for (int a = 0; a < s->nc; ++a) {
    if (s->rpos[a] < 0) continue;
    const double ra = row_dot(s, in->Gx, a, v) + in->b[a] + NS_EPS_REL * s->dii[a] * P[a];
    d[s->rpos[a]] = ra;
    if (!(fabs(ra) <= m)) m = fabs(ra);
  }
  for (int kc = 0; kc < s->nk; ++kc) {
    const int j = s->kept[kc];
    double rk = in->r[j];
    for (int t = s->tp[j]; t < s->tp[j + 1]; ++t) {
      const int kk = s->tk[t];
      if (s->rpos[s->grow[kk]] >= 0) rk += in->Gx[kk] * P[s->grow[kk]];
    }
    for (int k = s->wp[j]; k < s->wp[j + 1]; ++k) rk -= in->Wx[k] * v[s->wi[k]];
    d[s->na + kc] = rk;
    if (!(fabs(rk) / s->wdiag[j] <= m)) m = fabs(rk) / s->wdiag[j];
  }
  return m;
}

/* The current active set solved by a bordered system on the base: returns
 * 0 with v, P, and s->rhs holding the reduced solution, or 1 when the
 * iterate must be factorised (too many rows changed, slots full, singular
 * capacitance or a residual above s->lin_tol). */
static int border_solve(ns_solver *s, const ns_input *in, double *v, double *P) {
  const int nc = s->nc;
  for (int i = 0; i < s->nb; ++i) s->bpos[s->blist[i]] = -1;
  s->nb = 0;
  for (int i = 0; i < nc; ++i) {
    const int cur = in->in_set[i] && s->on[i];
    if (cur == (s->brpos[i] >= 0)) continue;
    if (s->nb == NS_BORDER_MAX) {
      for (int p = 0; p < s->nb; ++p) s->bpos[s->blist[p]] = -1;
      s->nb = 0;
      return 1;
    }
    s->bpos[i] = s->nb;
    s->blist[s->nb++] = i;
  }
  active_rhs(s, in, s->rhs);
  const int k = s->nb;
  memset(s->bV, 0, (size_t)k * (size_t)k * sizeof *s->bV);
  for (int c = 0; c < k; ++c) {
    const int i = s->blist[c];
    if (s->rpos[i] >= 0) { /* added row: its column, and V's column */
      int nnz = border_column(s, in, i, c);
      s->bV[c * k + c] += NS_EPS_REL * s->dii[i];
      int slot = ns_border_find(s->bd, i);
      if (slot < 0) slot = ns_border_add(s->bd, i, nnz, s->bidx, s->bval);
      if (slot < 0) return 1;
      s->bslot[c] = slot;
    } else { /* removed base row: the unit column, V zero */
      int slot = ns_border_find(s->bd, nc + i);
      if (slot < 0) {
        const double one = 1.0;
        slot = ns_border_add(s->bd, nc + i, 1, &s->brpos[i], &one);
      }
      if (slot < 0) return 1;
      s->bslot[c] = slot;
    }
  }
  if (ns_border_prepare(s->bd, k, s->bslot, s->bV)) return 1;
  border_apply_base(s, s->rhs, s->rhs);
  s->cur_bordered = 1;
  reduced_velocities(s, in, s->rhs, v);
  for (int i = 0; i < nc; ++i) P[i] = s->rpos[i] >= 0 ? s->rhs[s->rpos[i]] : 0.0;
  /* accepted when the iterate's own linear system is met, after up to two
   * steps of refinement with the bordered solve */
  for (int ref = 0;; ++ref) {
    const double m = reduced_residual(s, in, v, P, s->bdx);
    if (m <= s->lin_tol) return 0;
    if (ref == 2 || !(m < INFINITY)) break;
    for (int c = 0; c < s->n_red; ++c) s->bdx[c] = -s->bdx[c];
    if (border_apply(s, s->bdx)) break;
    for (int c = 0; c < s->n_red; ++c) s->rhs[c] += s->bdx[c];
    reduced_velocities(s, in, s->rhs, v);
    for (int i = 0; i < nc; ++i) P[i] = s->rpos[i] >= 0 ? s->rhs[s->rpos[i]] : 0.0;
  }
  s->cur_bordered = 0;
  return 1;
}

/* Factor the reduced system for the current active set and solve: v, P. */
static int active_solve(ns_solver *s, const ns_input *in, double *v, double *P) {
  const int nc = s->nc;
  s->cur_bordered = 0;
  if (s->base_ok && border_solve(s, in, v, P) == 0) {
    s->bordered++;
    return 0;
  }
  reduced_assemble(s, in);
  if (s->n_red == 0) { /* nothing active, no kept velocity */
    memcpy(v, s->vfree, (size_t)s->nv * sizeof *v);
    for (int i = 0; i < nc; ++i) P[i] = 0.0;
    return 0;
  }
  /* the same active set as the last factorisation: same pattern, refactorise
   * with its analysis (and KLU's pivot order), unless the factor is poor */
  int same = s->have_fact;
  for (int i = 0; same && i < nc; ++i) same = s->fact_on[i] == (s->rpos[i] >= 0);
  if (same && ns_factor_refactor(s->rf, s->rp, s->ri, s->rx) == 0) {
    s->refactors++;
  } else {
    const int rc = ns_factor_factor(s->rf, s->n_red, s->na, s->rp, s->ri, s->rx, same);
    s->have_fact = rc == 0;
    s->base_ok = 0;
    if (rc) return rc == -3 ? -3 : -2;
    s->factors++;
    for (int i = 0; i < nc; ++i) s->fact_on[i] = s->rpos[i] >= 0;
  }
  /* this factor is the base of the next iterates' bordered solves */
  memcpy(s->brpos, s->rpos, (size_t)nc * sizeof *s->brpos);
  s->bna = s->na;
  s->base_ok = s->bd && ns_border_rebase(s->bd, s->n_red, s->rf) == 0;
  if (ns_factor_solve(s->rf, 1, s->rhs)) return -2;
  memcpy(s->bt, s->rhs, (size_t)s->n_red * sizeof *s->bt);
  reduced_velocities(s, in, s->rhs, v);
  for (int i = 0; i < nc; ++i) P[i] = s->rpos[i] >= 0 ? s->rhs[s->rpos[i]] : 0.0;
  return 0;
}

/* One step of iterative refinement towards the unregularised system with the
 * current factors: an active row solved G_i v + eps_i P_i = -b_i, so the
 * residual of G_i v = -b_i is eps_i P_i; correct by the regularised
 * system's inverse of it (velocity right-hand side zero). */
static int active_refine(ns_solver *s, const ns_input *in, double *v, double *P) {
  if (!s->have_fact || s->n_red == 0) return -2;
  for (int i = 0; i < s->nc; ++i)
    if (s->rpos[i] >= 0) s->rhs[s->rpos[i]] = NS_EPS_REL * s->dii[i] * P[i];
  for (int kc = 0; kc < s->nk; ++kc) s->rhs[s->na + kc] = 0.0;
  if (s->cur_bordered ? border_apply(s, s->rhs) != 0 : ns_factor_solve(s->rf, 1, s->rhs) != 0)
    return -2;
  for (int j = 0; j < s->nv; ++j) {
    if (s->kpos[j] >= 0) {
      v[j] += s->rhs[s->na + s->kpos[j]];
      continue;
    }
    double acc = 0.0;
    for (int c = s->tp[j]; c < s->tp[j + 1]; ++c) {
      const int kk = s->tk[c], row = s->rpos[s->grow[kk]];
      if (row >= 0) acc += in->Gx[kk] * s->rhs[row];
    }
    v[j] += acc / s->wdiag[j];
  }
  for (int i = 0; i < s->nc; ++i)
    if (s->rpos[i] >= 0) P[i] += s->rhs[s->rpos[i]];
  return 0;
}

/* Projected Gauss-Seidel on the set from the impulses P, in velocity form:
 * v = vfree + W^-1 G^T P kept up to date row by row. W = diag(W_EE) + W_KK
 * (file comment), so y_i = W^-1 G_i^T is G_iE / W_jj on G's pattern plus
 * the dense column z_i = W_KK^-1 G_iK^T over the nk kept velocities: the
 * storage is nnz(G) + nk x nset, never nv x nset. */
static int pgs(ns_solver *s, const ns_input *in, double tolw, double *v, double *P,
               ns_result *res) {
  const int nv = s->nv, nk = s->nk;
  int nset = 0;
  for (int i = 0; i < s->nc; ++i) nset += in->in_set[i];
  const size_t need = (size_t)nk * (size_t)nset;
  if (need > (size_t)NS_PGS_MAX_KEPT) return -3;
  if (need > s->zk_cap) {
    free(s->zk);
    s->zk = malloc(need * sizeof *s->zk);
    s->zk_cap = s->zk ? need : 0;
    if (!s->zk) return -3;
  }
  if (nk > 0 && !s->w_diag) {
    for (int k = 0; k < s->kp[nk]; ++k) s->kx[k] = in->Wx[s->kwpos[k]];
    if (s->knum) klu_free_numeric(&s->knum, &s->common);
    s->knum = klu_factor(s->kp, s->ki, s->kx, s->ksym, &s->common);
    if (!s->knum || s->common.status != KLU_OK) return -2;
  }
  int c = 0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) {
      P[i] = 0.0;
      continue;
    }
    if (i < s->nu && P[i] < 0.0) P[i] = 0.0;
    double *z = nk > 0 ? s->zk + (size_t)c * (size_t)nk : NULL;
    for (int kc = 0; kc < nk; ++kc) z[kc] = 0.0;
    double d = 0.0;
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
      const int j = s->gi[k];
      if (s->kpos[j] >= 0) {
        z[s->kpos[j]] += in->Gx[k];
      } else {
        s->yx[k] = in->Gx[k] / s->wdiag[j];
        d += in->Gx[k] * s->yx[k];
      }
    }
    if (nk > 0) {
      if (s->w_diag) {
        for (int kc = 0; kc < nk; ++kc) z[kc] /= s->wdiag[s->kept[kc]];
      } else if (!klu_solve(s->ksym, s->knum, nk, 1, z, &s->common)) {
        return -2;
      }
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k)
        if (s->kpos[s->gi[k]] >= 0) d += in->Gx[k] * z[s->kpos[s->gi[k]]];
    }
    s->dii[i] = d > 0.0 ? d : DBL_MIN;
    c++;
  }
  /* v += y_i dp for the row of set position c */
#define PGS_ADD(i, c, dp)                                                              \
  do {                                                                                 \
    for (int k_ = s->gp[i]; k_ < s->gp[(i) + 1]; ++k_)                                 \
      if (s->kpos[s->gi[k_]] < 0) v[s->gi[k_]] += s->yx[k_] * (dp);                    \
    for (int kc_ = 0; kc_ < nk; ++kc_)                                                 \
      v[s->kept[kc_]] += s->zk[(size_t)(c) * (size_t)nk + (size_t)kc_] * (dp);         \
  } while (0)
  memcpy(v, s->vfree, (size_t)nv * sizeof *v);
  c = 0;
  for (int i = 0; i < s->nc; ++i) {
    if (!in->in_set[i]) continue;
    if (P[i] != 0.0) PGS_ADD(i, c, P[i]);
    c++;
  }
  for (int sweep = 1; sweep <= NS_PGS_SWEEPS; ++sweep) {
    c = 0;
    for (int i = 0; i < s->nc; ++i) {
      if (!in->in_set[i]) continue;
      double wi = row_dot(s, in->Gx, i, v) + in->b[i];
      double pn = P[i] - wi / s->dii[i];
      if (i < s->nu && pn < 0.0) pn = 0.0;
      double dp = pn - P[i];
      P[i] = pn;
      if (dp != 0.0) PGS_ADD(i, c, dp);
      c++;
    }
    res->sweeps = sweep;
    res->residual = residual(s, in, v, P);
    if (res->residual <= tolw) return 0;
  }
#undef PGS_ADD
  return -1;
}

/* The primal-dual active-set update: every row takes the side of
 * min(D_ii P_i, w_i) = 0 its iterate points to, except that an active row
 * whose impulse meets the tolerance (D_ii P_i >= -tolw) stays active. Such
 * a row carries no load in this iterate (a link beyond a row that is about
 * to be dropped), and its sign is round-off; dropped, a chain of them comes
 * back one link per iterate, as the taut front did on the 100 x 100 capture
 * at t = 1.26 s (28 of the 170 rows the first iterate dropped were within
 * the tolerance; all 28 came back, over 30 iterates; 6 iterates in all
 * when they stay). Returns whether the set changed. */
static unsigned char pdas_on(const ns_solver *s, const double *P, double tolw, int i) {
  return s->dii[i] * P[i] - s->w[i] > 0.0 || (s->on[i] && s->dii[i] * P[i] >= -tolw);
}

static int pdas_flip(ns_solver *s, const ns_input *in, const double *P, double tolw) {
  int changed = 0;
  for (int i = 0; i < s->nu; ++i) {
    if (!in->in_set[i]) continue;
    unsigned char on = pdas_on(s, P, tolw, i);
    changed |= on != s->on[i];
    s->on[i] = on;
  }
  return changed;
}

/* After a cycle: block principal pivoting (Judice & Pires 1994). The rows
 * infeasible beyond the tolerance (active with P_i < 0, inactive with
 * w_i < 0) all change side while their count keeps reaching a new least
 * (NS_PIVOT_TRIES more tries without one); otherwise only the first of them
 * in row order changes side (Murty's least-index rule). D + E is positive
 * definite, hence a P-matrix, so the LCP it solves has one solution and
 * this rule reaches it in finitely many iterates, where the plain update
 * can cycle when D is not an M-matrix: strings of a folded net meet at
 * obtuse angles (D_ij of either sign), and the 100 x 100 capture met a
 * cycle of four sets over ten string rows at t = 1.81 s (17,922 rows; seven
 * pivots after it). Returns whether the set changed. */
static int pivot_flip(ns_solver *s, const ns_input *in, const double *P, double tolw,
                      pivot_rule *pr) {
  int count = 0, first = -1;
  for (int i = 0; i < s->nu; ++i) {
    if (!in->in_set[i]) continue;
    if (s->on[i] ? s->dii[i] * P[i] < -tolw : s->w[i] < -tolw) {
      s->seen[i] = 1;
      if (first < 0) first = i;
      count++;
    } else {
      s->seen[i] = 0;
    }
  }
  if (count == 0) return 0;
  int block = 0;
  if (count < pr->best) {
    pr->best = count;
    pr->tries = NS_PIVOT_TRIES;
    block = 1;
  } else if (pr->tries > 0) {
    pr->tries--;
    block = 1;
  }
  if (!block) {
    s->on[first] = !s->on[first];
    return 1;
  }
  for (int i = 0; i < s->nu; ++i)
    if (in->in_set[i] && s->seen[i]) s->on[i] = !s->on[i];
  return 1;
}

/* One Gauss-Seidel update of row i on the prediction's copies (front_flip). */
static void front_row(ns_solver *s, const ns_input *in, int i) {
  if (!(s->gsd[i] > 0.0)) return;
  double wi = in->b[i];
  for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) wi += in->Gx[k] * s->gsv[s->gi[k]];
  double pn = s->gsP[i] - wi / s->gsd[i];
  if (i < s->nu && pn < 0.0) pn = 0.0;
  const double dp = pn - s->gsP[i];
  if (dp == 0.0) return;
  s->gsP[i] = pn;
  for (int k = s->gp[i]; k < s->gp[i + 1]; ++k)
    if (s->kpos[s->gi[k]] < 0) s->gsv[s->gi[k]] += in->Gx[k] * dp / s->wdiag[s->gi[k]];
}

/* The active-set update of an infeasible iterate with the taut front
 * predicted. pdas_flip's update adds only the rows the iterate violates, so
 * a front of slack rows that turn taut in a row (a chain pulled at one end,
 * a net wrapping a body) is crossed one link per iterate: each link is
 * violated only once the link behind it pulls. Here NS_FRONT_SWEEPS
 * symmetric projected Gauss-Seidel sweeps from the iterate (P clipped at
 * zero) carry the pull along the front at the cost of a few products with G
 * (on a chain a forward sweep crosses it in one pass, its impulses halving
 * per link); a row becomes active if either pdas_flip's update or the
 * sweeps (D_ii P_i > tolw) take it as active, so a row the iterate loads
 * negatively but the sweeps load positively stays (no drop-and-return).
 * Velocities kept out of the elimination (a body's) are held fixed in the
 * sweeps; a problem with no eliminated velocity falls back to pdas_flip's
 * update. Projected Gauss-Seidel with subspace minimisation on the set it
 * identifies (Silcowitz, Niebe & Erleben 2010) uses it the same way. The
 * union is no Newton step, and nothing bounds its iterates: on the 100 x 100
 * capture at t = 1.818 s it wandered through 150 sets without repeating
 * one. So ns_solve uses it only while the count of infeasible rows keeps
 * reaching a new least (NS_FRONT_TRIES), and after a repeated set the
 * cycle guard and pivot_flip decide, as before. Replayed
 * 100 x 100 wrap steps (t = 1.26-1.35 s): 6-43 iterates down to 3-5
 * (doc/moreau.md). Returns whether the set changed. */
static int front_flip(ns_solver *s, const ns_input *in, const double *v, const double *P,
                      double tolw) {
  const int nc = s->nc;
  memcpy(s->gsv, v, (size_t)s->nv * sizeof *s->gsv);
  for (int i = 0; i < nc; ++i) {
    double d = 0.0;
    if (in->in_set[i])
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k)
        if (s->kpos[s->gi[k]] < 0) d += in->Gx[k] * in->Gx[k] / s->wdiag[s->gi[k]];
    s->gsd[i] = d;
    s->gsP[i] = in->in_set[i] ? P[i] : 0.0;
    if (i < s->nu && s->gsP[i] < 0.0) { /* clipped: its share of v taken back */
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k)
        if (s->kpos[s->gi[k]] < 0) s->gsv[s->gi[k]] -= in->Gx[k] * s->gsP[i] / s->wdiag[s->gi[k]];
      s->gsP[i] = 0.0;
    }
  }
  for (int sweep = 0; sweep < NS_FRONT_SWEEPS; ++sweep) {
    for (int i = 0; i < nc; ++i)
      if (in->in_set[i]) front_row(s, in, i);
    for (int i = nc - 1; i >= 0; --i)
      if (in->in_set[i]) front_row(s, in, i);
  }
  int changed = 0;
  for (int i = 0; i < s->nu; ++i) {
    if (!in->in_set[i]) continue;
    const unsigned char on = pdas_on(s, P, tolw, i) || s->dii[i] * s->gsP[i] > tolw;
    changed |= on != s->on[i];
    s->on[i] = on;
  }
  return changed;
}

/* The dense Lemke fallback's outcome (lemke_fallback). */
typedef struct lemke_outcome {
  int rows;          /* rows of its LCP (a bilateral row twice) */
  int status;        /* ns_lemke_status, or -4 refused for size */
  int cert_rows;     /* infeasible: rows of the certificate y (y_i != 0) */
  double cert_gty;   /* max |G^T y| over max sum |G_ij y_i|: 0 for a proof */
  double cert_bty;   /* b^T y / |y|_1: below -tolw for a proof */
  double residual;   /* solved: the residual of its answer */
} lemke_outcome;

/* Certificates of infeasibility are accepted when |G^T y| is this small
 * relative to its terms (round-off of the tableau's ray). */
#define NS_CERT_REL 1e-8

/* The last resort, where the active-set iteration and Gauss-Seidel failed:
 * the LCP of the set in Delassus form, D = G W^-1 G^T and q = G vfree + b,
 * solved densely by Lemke (ns_lemke.h); a bilateral row is two opposite
 * unilateral rows (G_i v + b_i >= 0 and -(G_i v + b_i) >= 0), so D stays
 * positive semidefinite and a secondary ray proves infeasibility. Returns
 * 0 solved to the tolerance (v, P), -4 infeasible (lo holds the checked
 * certificate), -1 no answer, -3 out of memory. */
static int lemke_fallback(ns_solver *s, const ns_input *in, double tolw, double *v, double *P,
                          ns_result *res, lemke_outcome *lo) {
  const int nv = s->nv, nc = s->nc;
  int n = 0;
  for (int i = 0; i < nc; ++i)
    if (in->in_set[i]) n += i < s->nu ? 1 : 2;
  lo->rows = n;
  if (n > NS_LEMKE_MAX_ROWS) {
    lo->status = -4;
    return -1;
  }
  const size_t nn = (size_t)n;
  int *row = malloc(nn * sizeof *row);
  double *sg = malloc(nn * sizeof *sg), *D = malloc(nn * nn * sizeof *D);
  double *q = malloc(nn * sizeof *q), *z = malloc(nn * sizeof *z), *ray = malloc(nn * sizeof *ray);
  double *y = malloc(2 * (size_t)nv * sizeof *y);
  int rc = -3;
  if (!row || !sg || !D || !q || !z || !ray || !y) goto done;
  n = 0;
  for (int i = 0; i < nc; ++i) {
    if (!in->in_set[i]) continue;
    row[n] = i, sg[n++] = 1.0;
    if (i >= s->nu) row[n] = i, sg[n++] = -1.0;
  }
  for (int a = 0; a < n; ++a) { /* column a: G (W^-1 G_a^T) */
    const int i = row[a];
    for (int j = 0; j < nv; ++j) y[j] = 0.0;
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) y[s->gi[k]] += in->Gx[k];
    if (w_solve(s, y)) {
      rc = -1;
      goto done;
    }
    for (int c = 0; c < n; ++c) D[c + (size_t)a * nn] = sg[c] * sg[a] * row_dot(s, in->Gx, row[c], y);
    q[a] = sg[a] * (row_dot(s, in->Gx, i, s->vfree) + in->b[i]);
  }
  lo->status = (int)ns_lemke(n, D, q, z, ray, &res->lemke_pivots);
  if (lo->status == NS_LEMKE_NOMEM) goto done;
  rc = -1;
  if (lo->status == NS_LEMKE_SOLVED) {
    for (int i = 0; i < nc; ++i) P[i] = 0.0;
    for (int a = 0; a < n; ++a) P[row[a]] += sg[a] * z[a];
    for (int j = 0; j < nv; ++j) y[j] = 0.0;
    for (int i = 0; i < nc; ++i)
      for (int k = s->gp[i]; P[i] != 0.0 && k < s->gp[i + 1]; ++k) y[s->gi[k]] += in->Gx[k] * P[i];
    if (w_solve(s, y)) goto done;
    for (int j = 0; j < nv; ++j) v[j] = s->vfree[j] + y[j];
    lo->residual = residual(s, in, v, P);
    if (lo->residual <= tolw) rc = 0, res->residual = lo->residual;
  } else if (lo->status == NS_LEMKE_RAY) {
    /* the ray's z part, folded back onto the rows: y^T (G v + b) >= 0 for
     * every feasible v, so G^T y = 0 with b^T y < 0 admits none */
    double *gty = y, *gabs = y + nv, ysum = 0.0, bty = 0.0;
    for (int j = 0; j < 2 * nv; ++j) y[j] = 0.0;
    for (int i = 0; i < nc; ++i) P[i] = 0.0; /* P: y by row, for now */
    for (int a = 0; a < n; ++a) P[row[a]] += sg[a] * ray[a];
    lo->cert_rows = 0;
    for (int i = 0; i < nc; ++i) {
      if (P[i] == 0.0) continue;
      lo->cert_rows++;
      ysum += fabs(P[i]);
      bty += in->b[i] * P[i];
      for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
        gty[s->gi[k]] += in->Gx[k] * P[i];
        gabs[s->gi[k]] += fabs(in->Gx[k] * P[i]);
      }
    }
    double gmax = 0.0, amax = 0.0;
    for (int j = 0; j < nv; ++j) gmax = fmax(gmax, fabs(gty[j])), amax = fmax(amax, gabs[j]);
    lo->cert_gty = amax > 0.0 ? gmax / amax : 0.0;
    lo->cert_bty = ysum > 0.0 ? bty / ysum : 0.0;
    for (int i = 0; i < nc; ++i) P[i] = 0.0;
    if (ysum > 0.0 && lo->cert_gty <= NS_CERT_REL && lo->cert_bty < -tolw) rc = -4;
  }
done:
  free(row);
  free(sg);
  free(D);
  free(q);
  free(z);
  free(ray);
  free(y);
  return rc;
}

int ns_iteration_cap(int max_iter, int nset) {
  const double scale = ceil(sqrt((double)nset / (double)NS_ITER_ROWS));
  const double cap = (double)max_iter * (scale > 1.0 ? scale : 1.0);
  return cap < (double)INT32_MAX ? (int)cap : INT32_MAX;
}

int ns_solve(ns_solver *s, const ns_input *in, double *v, double *P, ns_result *res,
             char *msg, size_t msglen) {
  const int nv = s->nv, nc = s->nc;
  memset(res, 0, sizeof *res);
  s->base_ok = 0; /* a factor of the previous call's values is no base */
  s->cur_bordered = 0;
  /* W: diagonal, or KLU's numeric factorisation when its values changed */
  if (in->w_changed || (!s->w_diag && !s->wnum)) {
    if (ns_mass_factor(nv, s->w_diag, s->wp, s->wi, s->wdpos, in->Wx, s->wsym, &s->wnum,
                       &s->common, s->wdiag, msg, msglen))
      return -2;
  }
  memcpy(s->vfree, in->r, (size_t)nv * sizeof *s->vfree);
  if (w_solve(s, s->vfree)) {
    snprintf(msg, msglen, "KLU solve with the mass matrix failed");
    return -2;
  }
  memcpy(v, s->vfree, (size_t)nv * sizeof *v);
  /* the set, its free constraint velocities and the scale of the tolerance */
  int nset = 0, bilateral = 0;
  double vref = 0.0;
  for (int i = 0; i < nc; ++i) {
    if (!in->in_set[i]) {
      P[i] = 0.0;
      continue;
    }
    nset++;
    bilateral |= i >= s->nu;
    double d = 0.0, e = 0.0;
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) {
      const double gk = in->Gx[k], wj = s->wdiag[s->gi[k]], vj = s->vfree[s->gi[k]];
      d += gk * gk / wj;
      e += wj * vj * vj;
    }
    s->dii[i] = d > 0.0 ? d : DBL_MIN;
    s->w[i] = row_dot(s, in->Gx, i, s->vfree) + in->b[i];
    /* the size of the terms of w_i, so that round-off stays below the tolerance */
    double terms = fabs(in->b[i]);
    for (int k = s->gp[i]; k < s->gp[i + 1]; ++k) terms += fabs(in->Gx[k] * s->vfree[s->gi[k]]);
    vref = fmax(vref, fmax(fabs(s->w[i]), terms));
    /* floor: the largest constraint velocity row i reaches with the kinetic
     * energy its velocities have, sqrt(D_ii) ||vfree||_W over the row's
     * velocities (W's diagonal). Every term G_ik^2 / W_kk * W_kk vfree_k^2 is
     * a constraint velocity squared whether v_k is a point's velocity or a
     * body's angular velocity (G_ik then a lever arm, W_kk an inertia), and by
     * Cauchy-Schwarz it bounds sum_k |G_ik vfree_k|, so it is of the size of
     * `terms` and stays a velocity of the step when every term is zero (a
     * flat net moving along its normal: each string's w_i = 0 exactly). */
    vref = fmax(vref, sqrt(d * e));
  }
  res->index_set = nset;
  if (nset == 0) return 0;
  if (!(vref > 0.0)) vref = DBL_MIN;
  if (!isfinite(vref)) {
    snprintf(msg, msglen, "non-finite free constraint velocity");
    return -2;
  }
  res->vref = vref;
  const double tolw = in->tol * vref;
  s->lin_tol = NS_BORDER_RES * tolw;
  if (!bilateral) {
    int free_ok = 1;
    for (int i = 0; i < nc && free_ok; ++i)
      if (in->in_set[i] && s->w[i] < -tolw) free_ok = 0;
    if (free_ok) {
      for (int i = 0; i < nc; ++i) P[i] = 0.0;
      res->residual = residual(s, in, v, P);
      return 0;
    }
  }
  /* primal-dual active set: on = {P - w / D > 0}, first from the warm start */
  for (int i = 0; i < nc; ++i)
    s->on[i] = in->in_set[i] && (i >= s->nu || P[i] > 0.0 || s->w[i] < -tolw);
  /* the iteration cap grows with the set: on a net the taut front moves
   * about one string link per iterate, so the count grows with the net's
   * diameter, about sqrt(rows) (ns_iteration_cap) */
  const int max_iter = ns_iteration_cap(in->max_iter, nset);
  int nring = 0, cycled = 0;
  pivot_rule pr = {.best = INT32_MAX};
  /* front_flip on a wide or deep front (NS_FRONT_ROWS, NS_FRONT_DEEP) while
   * the count of infeasible rows keeps reaching a new least (NS_FRONT_TRIES
   * iterates of it without one end it for this solve); front_last: the last
   * update was front_flip's */
  int front_best = INT32_MAX, front_tries = NS_FRONT_TRIES, front_last = 0;
  /* after a cycle, pivoting (pivot_flip) may use as many iterates again */
  for (int it = 1; it <= (cycled && max_iter <= INT32_MAX / 2 ? 2 * max_iter : max_iter); ++it) {
    if (!cycled) {
      uint64_t h = set_hash(s, in->in_set);
      for (int r = 0; r < nring && r < NS_CYCLE_MEMORY; ++r)
        if (s->ring[r] == h) cycled = res->cycled = 1;
      if (!cycled) s->ring[nring++ % NS_CYCLE_MEMORY] = h;
    }
    int rc = active_solve(s, in, v, P);
    res->iterations = it;
    if (rc) break; /* singular: Gauss-Seidel may still find the impulses */
    int infeasible = 0, changed = 0;
    for (int i = 0; i < nc; ++i) {
      if (!in->in_set[i]) continue;
      s->w[i] = row_dot(s, in->Gx, i, v) + in->b[i];
      if (i >= s->nu) continue;
      if (s->on[i] ? P[i] * s->dii[i] < -tolw : s->w[i] < -tolw) infeasible++;
    }
    const int feasible = infeasible == 0;
    if (front_tries > 0 && infeasible < front_best) {
      front_best = infeasible;
      front_tries = NS_FRONT_TRIES;
    } else if (front_last && front_tries > 0 && --front_tries == 0) {
      res->front_stopped = 1; /* the prediction is off for the rest of the solve */
    }
    /* front_flip may keep every infeasible row (the sweeps load them):
     * then the plain update, which always moves an infeasible row */
    front_last = !cycled && !feasible && front_tries > 0 &&
                 (infeasible > NS_FRONT_ROWS || it > NS_FRONT_DEEP);
    if (front_last) {
      changed = front_flip(s, in, v, P, tolw);
      res->front_iterates++;
    }
    if (!cycled && !changed) changed = pdas_flip(s, in, P, tolw);
    if (feasible) {
      res->residual = residual(s, in, v, P);
      /* the regularisation limits the residual to about NS_EPS_REL D_ii P_i:
       * refine when that is what stands above the tolerance */
      for (int ref = 0; ref < 2 && res->residual > tolw && !changed; ++ref)
        if (active_refine(s, in, v, P) == 0) res->residual = residual(s, in, v, P);
      if (res->residual <= tolw) {
        for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
        return 0;
      }
    }
    if (cycled) changed = pivot_flip(s, in, P, tolw, &pr);
    if (!changed) break;
  }
  int rc = pgs(s, in, tolw, v, P, res);
  lemke_outcome lo = {0};
  if (rc == -1) rc = lemke_fallback(s, in, tolw, v, P, res, &lo);
  for (int i = 0; i < nc; ++i) res->positive += P[i] > 0.0;
  if (rc == 0) return 0;
  if (rc == -4)
    snprintf(msg, msglen,
             "nonsmooth problem infeasible: no velocity meets the %d rows of the set (%d of "
             "them bilateral) to the tolerance %.3e; certificate y over %d rows (y >= 0 on "
             "unilateral ones): |G^T y| %.1e of its terms, b^T y / |y|_1 = %.3e (Lemke's "
             "secondary ray after %d pivots; %d active-set iterations, %d Gauss-Seidel sweeps before)",
             nset, lo.rows - nset, tolw, lo.cert_rows, lo.cert_gty, lo.cert_bty, res->lemke_pivots,
             res->iterations, res->sweeps);
  else if (rc == -3 && lo.rows > 0)
    snprintf(msg, msglen, "out of memory for the dense Lemke fallback of %d rows", lo.rows);
  else if (rc == -3)
    snprintf(msg, msglen,
             "the Gauss-Seidel fallback needs %d x %d doubles for W^-1 G^T of the kept "
             "velocities (limit %d, or out of memory)", s->nk, nset, NS_PGS_MAX_KEPT);
  else if (rc == -2)
    snprintf(msg, msglen, "singular mass matrix block in the Gauss-Seidel fallback (KLU status %d)",
             s->common.status);
  else {
    /* what the Lemke fallback met, if it ran */
    char why[192] = "";
    if (lo.status == -4)
      snprintf(why, sizeof why, "; the dense Lemke fallback takes at most %d rows, this set %d",
               NS_LEMKE_MAX_ROWS, lo.rows);
    else if (lo.status == NS_LEMKE_PIVOT_CAP)
      snprintf(why, sizeof why, "; the dense Lemke fallback stopped at its cap of %d pivots",
               res->lemke_pivots);
    else if (lo.status == NS_LEMKE_RAY)
      snprintf(why, sizeof why,
               "; Lemke's ray after %d pivots proves nothing (|G^T y| %.1e of its terms, "
               "b^T y / |y|_1 = %.3e)", res->lemke_pivots, lo.cert_gty, lo.cert_bty);
    else if (lo.rows > 0)
      snprintf(why, sizeof why, "; Lemke's answer after %d pivots leaves residual %.3e",
               res->lemke_pivots, lo.residual);
    snprintf(msg, msglen,
             "nonsmooth solve did not converge: %d active-set iterations (cap %d%s), %d "
             "Gauss-Seidel sweeps, residual %.3e > %.3e (tolerance %.1e x %.3e), %d rows in the set%s",
             res->iterations, max_iter, cycled ? ", twice after a cycle" : "", res->sweeps, res->residual, tolw,
             in->tol, vref, nset, why);
  }
  return rc;
}

int ns_last_reduced(const ns_solver *s, int *na, const int **colptr, const int **rowind,
                    const double **values) {
  if (!s->have_fact) return 0;
  *na = s->bna;
  *colptr = s->rp;
  *rowind = s->ri;
  *values = s->rx;
  return s->bna + s->nk;
}

int ns_set_factor(ns_solver *s, ns_factor_kind kind) {
  if (s->nc == 0) return 0;
  ns_factor *f = ns_factor_create(kind);
  if (!f) return -3;
  ns_factor_free(&s->rf);
  s->rf = f;
  s->have_fact = 0;
  s->base_ok = 0;
  return 0;
}

ns_factor_kind ns_factor_used(const ns_solver *s) {
  return s->rf && s->have_fact ? ns_factor_current(s->rf) : NS_FACTOR_AUTO;
}
