/* onestep_io.h - the one-step nonsmooth problem of method moreau (solver/
 * nonsmooth.h) as a text file, so that problems taken from real steps can be
 * solved again by other solvers (benchmarks/siconos/bench_lcp_siconos.c):
 *
 *   mbdae-onestep 1
 *   nv nc nu
 *   t h                         (the step's start and length)
 *   W: nnz, then nv+1 column starts, nnz row indices, nnz values (CSC)
 *   G: nnz, then nc+1 row starts, nnz column indices, nnz values (CSR)
 *   r (nv), b (nc), in_set (nc), P0 (nc: the previous step's impulses)
 *
 * Version 2 (a problem with Coulomb friction, mbdae_problem_set_friction;
 * solver/friction.h) has "mbdae-onestep 2" and, after P0:
 *
 *   nf, then nf normal rows, nf coefficients mu
 *   T: nnz, then 2 nf + 1 row starts, nnz column indices, nnz values (CSR,
 *      at the predicted end as G)
 *   Pt0 (2 nf: the tangential warm start; 0 when the writer does not know it)
 *
 * W v = r + G^T P; w = G v + b; rows in the set: 0 <= P  complementary
 * w >= 0 (unilateral, i < nu), w = 0 (bilateral); the others P = 0.
 * onestep_build() forms it from a state exactly as the backend does
 * (solver/backend_moreau.c: forces theta-weighted at (q_k, v_k), activation
 * g + a h G v <= 0, G at the predicted end q_k (+) h v_k, b = e G v_k). */
#ifndef MBDAE_BENCH_ONESTEP_IO_H
#define MBDAE_BENCH_ONESTEP_IO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"
#include "mechanics_impl.h"
#include "problem_impl.h"

typedef struct onestep {
  int nv, nc, nu;
  double t, h;
  long w_nnz, g_nnz;
  long *wp, *wi, *gp, *gi;
  double *wx, *gx, *r, *b, *P0;
  unsigned char *in_set;
  /* friction (version 2; nf = 0 otherwise) */
  int nf;
  long t_nnz;
  int *frows;
  long *tp, *ti;
  double *mu, *tx, *Pt0;
} onestep;

static inline void onestep_free(onestep *s) {
  free(s->wp), free(s->wi), free(s->gp), free(s->gi);
  free(s->wx), free(s->gx), free(s->r), free(s->b), free(s->P0), free(s->in_set);
  free(s->frows), free(s->tp), free(s->ti), free(s->mu), free(s->tx), free(s->Pt0);
  memset(s, 0, sizeof *s);
}

static inline int onestep_alloc(onestep *s) {
  size_t nv = (size_t)s->nv, nc = (size_t)(s->nc > 0 ? s->nc : 1);
  s->wp = malloc((nv + 1) * sizeof *s->wp);
  s->wi = malloc((size_t)s->w_nnz * sizeof *s->wi);
  s->wx = malloc((size_t)s->w_nnz * sizeof *s->wx);
  s->gp = malloc((nc + 1) * sizeof *s->gp);
  s->gi = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->gi);
  s->gx = malloc((size_t)(s->g_nnz > 0 ? s->g_nnz : 1) * sizeof *s->gx);
  s->r = malloc(nv * sizeof *s->r);
  s->b = calloc(nc, sizeof *s->b);
  s->P0 = calloc(nc, sizeof *s->P0);
  s->in_set = calloc(nc, 1);
  return s->wp && s->wi && s->wx && s->gp && s->gi && s->gx && s->r && s->b && s->P0 &&
                 s->in_set
             ? 0
             : MBDAE_ERR_MEMORY;
}

/* The friction arrays for nf contacts and t_nnz entries of T. */
static inline int onestep_alloc_friction(onestep *s) {
  size_t nf = (size_t)(s->nf > 0 ? s->nf : 1), nz = (size_t)(s->t_nnz > 0 ? s->t_nnz : 1);
  s->frows = malloc(nf * sizeof *s->frows);
  s->mu = malloc(nf * sizeof *s->mu);
  s->tp = malloc((2 * nf + 1) * sizeof *s->tp);
  s->ti = malloc(nz * sizeof *s->ti);
  s->tx = malloc(nz * sizeof *s->tx);
  s->Pt0 = calloc(2 * nf, sizeof *s->Pt0);
  return s->frows && s->mu && s->tp && s->ti && s->tx && s->Pt0 ? 0 : MBDAE_ERR_MEMORY;
}

/* The problem of the step of length h from state y at t (P0 may be NULL). */
static inline int onestep_build(const mbdae_problem *p, const mbdae_options *o, double t, double h,
                         const double *y, const double *P0, onestep *s) {
  const mbdae_mechanics *m = p->mech;
  void *ud = p->user_data;
  memset(s, 0, sizeof *s);
  s->nv = m->nv;
  s->nu = m->nu;
  s->nc = m->nu + m->nb;
  s->t = t;
  s->h = h;
  s->w_nnz = (long)m->m_nnz;
  s->g_nnz = (long)m->g_nnz;
  if (onestep_alloc(s)) return MBDAE_ERR_MEMORY;
  const int nv = m->nv, nq = m->nq, nc = s->nc;
  double *q = malloc((size_t)nq * sizeof *q), *v = malloc((size_t)nv * sizeof *v);
  double *f0 = malloc((size_t)nv * sizeof *f0), *f1 = malloc((size_t)nv * sizeof *f1);
  double *gap = malloc((size_t)(nc + 1) * sizeof *gap), *qp = malloc((size_t)nq * sizeof *qp);
  int rc = q && v && f0 && f1 && gap && qp ? 0 : MBDAE_ERR_MEMORY;
  if (!rc) {
    for (int i = 0; i < nq; ++i) q[i] = y[m->qidx[i]];
    for (int i = 0; i < nv; ++i) v[i] = y[m->vidx[i]];
    for (int j = 0; j <= nv; ++j) s->wp[j] = (long)m->m_colptr[j];
    for (long k = 0; k < s->w_nnz; ++k) s->wi[k] = (long)m->m_rowind[k];
    for (int i = 0; i <= nc; ++i) s->gp[i] = nc > 0 ? (long)m->g_rowptr[i] : 0;
    for (long k = 0; k < s->g_nnz; ++k) s->gi[k] = (long)m->g_colind[k];
    if (m->mass(t, q, s->wx, ud) || m->forces(t, q, v, f0, ud) || m->forces(t + h, q, v, f1, ud))
      rc = MBDAE_ERR_CALLBACK;
  }
  if (!rc) {
    for (int j = 0; j < nv; ++j) s->r[j] = 0.0;
    for (int j = 0; j < nv; ++j)
      for (long k = s->wp[j]; k < s->wp[j + 1]; ++k) s->r[s->wi[k]] += s->wx[k] * v[j];
    for (int j = 0; j < nv; ++j) s->r[j] += h * (o->theta * f1[j] + (1.0 - o->theta) * f0[j]);
  }
  if (!rc && nc > 0) {
    if (m->gap(t, q, gap, ud) || m->gap_jac(t, q, s->gx, ud)) rc = MBDAE_ERR_CALLBACK;
    for (int i = 0; !rc && i < nc; ++i) {
      double U = 0.0;
      for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) U += s->gx[k] * v[s->gi[k]];
      s->in_set[i] = i >= s->nu || gap[i] + o->activation * h * U <= 0.0;
      s->b[i] = i < s->nu ? m->restitution[i] * U : 0.0;
      s->P0[i] = P0 ? P0[i] : 0.0;
    }
    if (!rc && (mbdae_mechanics_update(m, h, q, v, qp, ud) || m->gap_jac(t + h, qp, s->gx, ud)))
      rc = MBDAE_ERR_CALLBACK;
    /* friction: T at the predicted end, as the backend; Pt0 = 0 (the tangential
     * impulses of the step before are not reported to observers) */
    if (!rc && m->nf > 0) {
      s->nf = m->nf;
      s->t_nnz = (long)m->t_nnz;
      rc = onestep_alloc_friction(s);
      for (int k = 0; !rc && k < m->nf; ++k) {
        s->frows[k] = m->f_rows[k];
        s->mu[k] = m->mu[k];
      }
      for (int r = 0; !rc && r <= 2 * m->nf; ++r) s->tp[r] = (long)m->t_rowptr[r];
      for (long k = 0; !rc && k < s->t_nnz; ++k) s->ti[k] = (long)m->t_colind[k];
      if (!rc && m->tangents(t + h, qp, s->tx, ud)) rc = MBDAE_ERR_CALLBACK;
    }
  }
  free(q), free(v), free(f0), free(f1), free(gap), free(qp);
  if (rc) onestep_free(s);
  return rc;
}

static inline int onestep_write(const char *path, const onestep *s) {
  FILE *f = fopen(path, "w");
  if (!f) return MBDAE_ERR_IO;
  fprintf(f, "mbdae-onestep %d\n%d %d %d\n%.17g %.17g\n%ld\n", s->nf > 0 ? 2 : 1, s->nv, s->nc, s->nu, s->t, s->h,
          s->w_nnz);
  for (int j = 0; j <= s->nv; ++j) fprintf(f, "%ld%c", s->wp[j], j == s->nv ? '\n' : ' ');
  for (long k = 0; k < s->w_nnz; ++k) fprintf(f, "%ld%c", s->wi[k], k == s->w_nnz - 1 ? '\n' : ' ');
  for (long k = 0; k < s->w_nnz; ++k) fprintf(f, "%.17g%c", s->wx[k], k == s->w_nnz - 1 ? '\n' : ' ');
  fprintf(f, "%ld\n", s->g_nnz);
  for (int i = 0; i <= s->nc; ++i) fprintf(f, "%ld%c", s->gp[i], i == s->nc ? '\n' : ' ');
  for (long k = 0; k < s->g_nnz; ++k) fprintf(f, "%ld ", s->gi[k]);
  fprintf(f, "\n");
  for (long k = 0; k < s->g_nnz; ++k) fprintf(f, "%.17g ", s->gx[k]);
  fprintf(f, "\n");
  for (int j = 0; j < s->nv; ++j) fprintf(f, "%.17g ", s->r[j]);
  fprintf(f, "\n");
  for (int i = 0; i < s->nc; ++i) fprintf(f, "%.17g ", s->b[i]);
  fprintf(f, "\n");
  for (int i = 0; i < s->nc; ++i) fprintf(f, "%d ", s->in_set[i]);
  fprintf(f, "\n");
  for (int i = 0; i < s->nc; ++i) fprintf(f, "%.17g ", s->P0[i]);
  fprintf(f, "\n");
  if (s->nf > 0) {
    fprintf(f, "%d\n", s->nf);
    for (int k = 0; k < s->nf; ++k) fprintf(f, "%d ", s->frows[k]);
    fprintf(f, "\n");
    for (int k = 0; k < s->nf; ++k) fprintf(f, "%.17g ", s->mu[k]);
    fprintf(f, "\n%ld\n", s->t_nnz);
    for (int r = 0; r <= 2 * s->nf; ++r) fprintf(f, "%ld ", s->tp[r]);
    fprintf(f, "\n");
    for (long k = 0; k < s->t_nnz; ++k) fprintf(f, "%ld ", s->ti[k]);
    fprintf(f, "\n");
    for (long k = 0; k < s->t_nnz; ++k) fprintf(f, "%.17g ", s->tx[k]);
    fprintf(f, "\n");
    for (int r = 0; r < 2 * s->nf; ++r) fprintf(f, "%.17g ", s->Pt0[r]);
    fprintf(f, "\n");
  }
  int bad = ferror(f);
  return fclose(f) || bad ? MBDAE_ERR_IO : 0;
}

/* Read a file written by onestep_write; 0, MBDAE_ERR_IO or MBDAE_ERR_SCENARIO
 * (not that format). */
static inline int onestep_read(const char *path, onestep *s) {
  memset(s, 0, sizeof *s);
  FILE *f = fopen(path, "r");
  if (!f) return MBDAE_ERR_IO;
  int version = 0, ok = fscanf(f, "mbdae-onestep %d", &version) == 1 &&
                        (version == 1 || version == 2) &&
                        fscanf(f, "%d %d %d %lf %lf %ld", &s->nv, &s->nc, &s->nu, &s->t, &s->h,
                               &s->w_nnz) == 6 &&
                        s->nv > 0 && s->nc >= 0 && s->w_nnz > 0;
  if (ok) {
    /* G's nnz comes after W: read W's arrays into temporaries first */
    long *wp = malloc(((size_t)s->nv + 1) * sizeof *wp), *wi = malloc((size_t)s->w_nnz * sizeof *wi);
    double *wx = malloc((size_t)s->w_nnz * sizeof *wx);
    ok = wp && wi && wx;
    for (int j = 0; ok && j <= s->nv; ++j) ok = fscanf(f, "%ld", &wp[j]) == 1;
    for (long k = 0; ok && k < s->w_nnz; ++k) ok = fscanf(f, "%ld", &wi[k]) == 1;
    for (long k = 0; ok && k < s->w_nnz; ++k) ok = fscanf(f, "%lf", &wx[k]) == 1;
    ok = ok && fscanf(f, "%ld", &s->g_nnz) == 1 && s->g_nnz >= 0 && !onestep_alloc(s);
    if (ok) {
      memcpy(s->wp, wp, ((size_t)s->nv + 1) * sizeof *wp);
      memcpy(s->wi, wi, (size_t)s->w_nnz * sizeof *wi);
      memcpy(s->wx, wx, (size_t)s->w_nnz * sizeof *wx);
    }
    free(wp), free(wi), free(wx);
  }
  for (int i = 0; ok && i <= s->nc; ++i) ok = fscanf(f, "%ld", &s->gp[i]) == 1;
  for (long k = 0; ok && k < s->g_nnz; ++k) ok = fscanf(f, "%ld", &s->gi[k]) == 1;
  for (long k = 0; ok && k < s->g_nnz; ++k) ok = fscanf(f, "%lf", &s->gx[k]) == 1;
  for (int j = 0; ok && j < s->nv; ++j) ok = fscanf(f, "%lf", &s->r[j]) == 1;
  for (int i = 0; ok && i < s->nc; ++i) ok = fscanf(f, "%lf", &s->b[i]) == 1;
  for (int i = 0; ok && i < s->nc; ++i) {
    int a;
    ok = fscanf(f, "%d", &a) == 1;
    s->in_set[i] = (unsigned char)(a != 0);
  }
  for (int i = 0; ok && i < s->nc; ++i) ok = fscanf(f, "%lf", &s->P0[i]) == 1;
  if (ok && version == 2) {
    ok = fscanf(f, "%d", &s->nf) == 1 && s->nf > 0 && s->nf <= s->nc;
    if (ok) {
      s->t_nnz = 0;
      ok = !onestep_alloc_friction(s); /* T's arrays sized once its nnz is read */
    }
    for (int k = 0; ok && k < s->nf; ++k)
      ok = fscanf(f, "%d", &s->frows[k]) == 1 && s->frows[k] >= 0 && s->frows[k] < s->nu;
    for (int k = 0; ok && k < s->nf; ++k) ok = fscanf(f, "%lf", &s->mu[k]) == 1 && s->mu[k] >= 0.0;
    ok = ok && fscanf(f, "%ld", &s->t_nnz) == 1 && s->t_nnz >= 0;
    if (ok) {
      free(s->ti), free(s->tx);
      s->ti = malloc((size_t)(s->t_nnz > 0 ? s->t_nnz : 1) * sizeof *s->ti);
      s->tx = malloc((size_t)(s->t_nnz > 0 ? s->t_nnz : 1) * sizeof *s->tx);
      ok = s->ti && s->tx;
    }
    for (int r = 0; ok && r <= 2 * s->nf; ++r) ok = fscanf(f, "%ld", &s->tp[r]) == 1;
    for (long k = 0; ok && k < s->t_nnz; ++k)
      ok = fscanf(f, "%ld", &s->ti[k]) == 1 && s->ti[k] >= 0 && s->ti[k] < s->nv;
    for (long k = 0; ok && k < s->t_nnz; ++k) ok = fscanf(f, "%lf", &s->tx[k]) == 1;
    for (int r = 0; ok && r < 2 * s->nf; ++r) ok = fscanf(f, "%lf", &s->Pt0[r]) == 1;
  }
  fclose(f);
  if (!ok) {
    onestep_free(s);
    return MBDAE_ERR_SCENARIO;
  }
  return 0;
}

#endif
