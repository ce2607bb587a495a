/* string_net_topology.c - a net's points and strings: allocation, checks of
 * the description, the pattern of the multiplier matrix A (strings sharing a
 * point, capps eq. 2.20) and its KLU analysis, and the chain and grid
 * describing functions. */
#include "strings/string_net_internal.h"

#include <klu.h>
#include <math.h>
#include <stdlib.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"

sn_net *sn_net_create(int np, int ns, int n_extra, sn_form form) {
  if (np < 1 || ns < 0 || n_extra < 0) return NULL;
  sn_net *net = calloc(1, sizeof *net);
  if (!net) return NULL;
  net->np = np;
  net->ns = ns;
  net->n_extra = n_extra;
  net->form = form;
  net->hold = SN_HOLD_EVENT;
  net->drift_xi = 1.0;
  net->drift_w = 10.0;
  net->zeno_ratio = 1e-4;
  net->release_band = 1e-9;
  net->ordering = MBDAE_ORDERING_AMD;
  net->m = calloc((size_t)np, sizeof(double));
  net->s = calloc(ns > 0 ? (size_t)ns : 1, sizeof(sn_string));
  net->taut = calloc(ns > 0 ? (size_t)ns : 1, 1);
  net->forced = calloc(ns > 0 ? (size_t)ns : 1, 1);
  net->root_ref = calloc(ns > 0 ? (size_t)ns : 1, sizeof(double));
  net->ws = calloc(1, sizeof(sn_workspace));
  if (!net->m || !net->s || !net->taut || !net->forced || !net->root_ref || !net->ws) {
    sn_net_free(&net);
    return NULL;
  }
  net->off_r = 0;
  net->off_v = 3 * np;
  net->off_lam = 6 * np;
  net->off_mu = 6 * np + ns;
  net->n_core = 6 * np + (form == SN_FORM_DAE ? ns : form == SN_FORM_GGL ? 2 * ns : 0);
  net->n = net->n_core + n_extra;
  return net;
}

void sn_net_free(sn_net **pnet) {
  if (!pnet || !*pnet) return;
  sn_net *net = *pnet;
  sn_workspace *w = net->ws;
  if (w) {
    if (w->num) klu_free_numeric(&w->num, &w->common);
    if (w->sym) klu_free_symbolic(&w->sym, &w->common);
    free(w->Ap);
    free(w->Ai);
    free(w->shared_p);
    free(w->shared_sg);
    free(w->diag);
    free(w->Ax);
    free(w->F);
    free(w->b);
    free(w->lam);
    free(w->V);
    free(w->mask);
    free(w->bad);
    free(w->acc);
    free(w->ps);
    free(w->ss);
    free(w->gs);
    free(w->el_slot);
    free(w);
  }
  free(net->m);
  free(net->s);
  free(net->taut);
  free(net->forced);
  free(net->root_ref);
  free(net);
  *pnet = NULL;
}

int sn_net_validate(const sn_net *net, int *bad_string, const char **reason) {
  int dummy;
  const char *rdummy;
  if (!bad_string) bad_string = &dummy;
  if (!reason) reason = &rdummy;
  *bad_string = -1;
  *reason = "";
  if (!net) return MBDAE_ERR_ARGUMENT;
  for (int k = 0; k < net->np; ++k)
    if (!(net->m[k] > 0.0) || !isfinite(net->m[k])) {
      *reason = "point mass must be positive and finite";
      return MBDAE_ERR_PARAMETER;
    }
  for (int s = 0; s < net->ns; ++s) {
    const sn_string *st = &net->s[s];
    *bad_string = s;
    if (st->i < 0 || st->i >= net->np || st->j < 0 || st->j >= net->np) {
      *reason = "string joins a point that does not exist";
      return MBDAE_ERR_PARAMETER;
    }
    if (st->i == st->j) {
      *reason = "string joins a point to itself";
      return MBDAE_ERR_PARAMETER;
    }
    if (!(st->L > 0.0) || !isfinite(st->L)) {
      *reason = "string length must be positive and finite";
      return MBDAE_ERR_PARAMETER;
    }
    if (!(st->e >= 0.0 && st->e <= 1.0)) {
      *reason = "restitution must lie in [0, 1]";
      return MBDAE_ERR_PARAMETER;
    }
    if (!(st->xi >= 0.0) || !isfinite(st->xi)) {
      *reason = "Baumgarte xi must be non-negative and finite";
      return MBDAE_ERR_PARAMETER;
    }
    if (!(st->w >= 0.0) || !isfinite(st->w)) {
      *reason = "Baumgarte omega_n must be non-negative and finite";
      return MBDAE_ERR_PARAMETER;
    }
    if (net->hold == SN_HOLD_ELASTIC && (!(st->ea > 0.0) || !isfinite(st->ea))) {
      *reason = "EA must be positive and finite";
      return MBDAE_ERR_PARAMETER;
    }
    if (net->hold == SN_HOLD_ELASTIC && (!(st->eta >= 0.0) || !isfinite(st->eta))) {
      *reason = "thread damping must be non-negative and finite";
      return MBDAE_ERR_PARAMETER;
    }
  }
  if (net->hold == SN_HOLD_ELASTIC && net->form != SN_FORM_ODE) {
    *bad_string = -1;
    *reason = "elastic threads have no multipliers: create the net in the ODE layout";
    return MBDAE_ERR_PARAMETER;
  }
  if (net->form == SN_FORM_GGL && net->hold != SN_HOLD_EVENT) {
    *bad_string = -1;
    *reason = "the GGL layout holds exact taut strings (SN_HOLD_EVENT) only";
    return MBDAE_ERR_PARAMETER;
  }
  *bad_string = -1;
  return 0;
}

/* Build the pattern of A: entry (s, t) when strings s and t share a point. */
static int build_multiplier_pattern(sn_net *net) {
  sn_workspace *w = net->ws;
  int np = net->np, ns = net->ns;
  /* point -> incident strings (CSR) */
  int *cnt = calloc((size_t)np + 1, sizeof(int));
  int *inc = calloc(2 * (size_t)(ns > 0 ? ns : 1), sizeof(int));
  int *fill = calloc((size_t)np + 1, sizeof(int));
  int *mark = malloc((ns > 0 ? (size_t)ns : 1) * sizeof(int));
  int rc = MBDAE_ERR_MEMORY;
  if (!cnt || !inc || !fill || !mark) goto done;
  for (int s = 0; s < ns; ++s) {
    cnt[net->s[s].i + 1]++;
    cnt[net->s[s].j + 1]++;
  }
  for (int k = 0; k < np; ++k) cnt[k + 1] += cnt[k];
  for (int s = 0; s < ns; ++s) {
    int a = net->s[s].i, b = net->s[s].j;
    inc[cnt[a] + fill[a]++] = s;
    inc[cnt[b] + fill[b]++] = s;
  }
  for (int s = 0; s < ns; ++s) mark[s] = -1;
  /* count */
  long nnz = 0;
  for (int t = 0; t < ns; ++t) {
    int ends[2] = {net->s[t].i, net->s[t].j};
    for (int e = 0; e < 2; ++e)
      for (int q = cnt[ends[e]]; q < cnt[ends[e] + 1]; ++q)
        if (mark[inc[q]] != t) {
          mark[inc[q]] = t;
          nnz++;
        }
  }
  w->nnzA = (int)nnz;
  w->Ap = malloc(((size_t)ns + 1) * sizeof(int));
  w->Ai = malloc((nnz > 0 ? (size_t)nnz : 1) * sizeof(int));
  w->Ax = malloc((nnz > 0 ? (size_t)nnz : 1) * sizeof(double));
  w->shared_p = malloc(2 * (nnz > 0 ? (size_t)nnz : 1) * sizeof(int));
  w->shared_sg = malloc(2 * (nnz > 0 ? (size_t)nnz : 1) * sizeof(double));
  w->diag = malloc((ns > 0 ? (size_t)ns : 1) * sizeof(int));
  if (!w->Ap || !w->Ai || !w->Ax || !w->shared_p || !w->shared_sg || !w->diag) goto done;
  for (int s = 0; s < ns; ++s) mark[s] = -1;
  int pos = 0;
  w->Ap[0] = 0;
  for (int t = 0; t < ns; ++t) {
    int start = pos;
    int ends[2] = {net->s[t].i, net->s[t].j};
    for (int e = 0; e < 2; ++e)
      for (int q = cnt[ends[e]]; q < cnt[ends[e] + 1]; ++q)
        if (mark[inc[q]] != t) {
          mark[inc[q]] = t;
          w->Ai[pos++] = inc[q];
        }
    /* rows increasing within the column (insertion sort: columns are short) */
    for (int a = start + 1; a < pos; ++a) {
      int v = w->Ai[a], b = a - 1;
      while (b >= start && w->Ai[b] > v) {
        w->Ai[b + 1] = w->Ai[b];
        --b;
      }
      w->Ai[b + 1] = v;
    }
    w->Ap[t + 1] = pos;
    for (int a = start; a < pos; ++a) {
      int s = w->Ai[a], ns_sh = 0;
      w->shared_p[2 * a] = w->shared_p[2 * a + 1] = -1;
      w->shared_sg[2 * a] = w->shared_sg[2 * a + 1] = 0.0;
      int se[2] = {net->s[s].i, net->s[s].j};
      for (int x = 0; x < 2; ++x)
        for (int y = 0; y < 2; ++y)
          if (se[x] == ends[y] && ns_sh < 2) {
            /* sign of grad phi at the shared point: -1 tail, +1 head */
            w->shared_p[2 * a + ns_sh] = se[x];
            w->shared_sg[2 * a + ns_sh] = (x == 0 ? -1.0 : 1.0) * (y == 0 ? -1.0 : 1.0);
            ns_sh++;
          }
      if (s == t) w->diag[t] = a;
    }
  }
  rc = 0;
done:
  free(cnt);
  free(inc);
  free(fill);
  free(mark);
  return rc;
}

int sn_net_finalize(sn_net *net, int *bad_string, const char **reason) {
  int rc = sn_net_validate(net, bad_string, reason);
  if (rc) return rc;
  sn_workspace *w = net->ws;
  size_t ns1 = net->ns > 0 ? (size_t)net->ns : 1;
  w->F = calloc(3 * (size_t)net->np, sizeof(double));
  w->V = calloc(3 * (size_t)net->np, sizeof(double));
  w->b = calloc(ns1, sizeof(double));
  w->lam = calloc(ns1, sizeof(double));
  w->mask = calloc(ns1, 1);
  w->bad = calloc(ns1, 1);
  w->acc = calloc(3 * (size_t)net->np, sizeof(double));
  if (!w->F || !w->V || !w->b || !w->lam || !w->mask || !w->bad || !w->acc)
    return MBDAE_ERR_MEMORY;
  if (net->ns == 0) return 0;
  rc = build_multiplier_pattern(net);
  if (rc) return rc;
  klu_defaults(&w->common);
  if (net->ordering == MBDAE_ORDERING_COLAMD) w->common.ordering = 1;
  else w->common.ordering = 0;
  if (net->ordering == MBDAE_ORDERING_NATURAL)
    w->sym = klu_analyze_given(net->ns, w->Ap, w->Ai, NULL, NULL, &w->common);
  else
    w->sym = klu_analyze(net->ns, w->Ap, w->Ai, &w->common);
  if (!w->sym) return MBDAE_ERR_MEMORY;
  return 0;
}

int sn_describe_chain(sn_net *net, double m, double L, const double origin[3],
                      const double dir[3], double *R0) {
  if (net->ns != net->np - 1) return MBDAE_ERR_ARGUMENT;
  for (int k = 0; k < net->np; ++k) {
    net->m[k] = m;
    for (int c = 0; c < 3; ++c) R0[3 * k + c] = origin[c] + k * L * dir[c];
  }
  for (int s = 0; s < net->ns; ++s) {
    net->s[s].i = s;
    net->s[s].j = s + 1;
    net->s[s].L = L;
  }
  return 0;
}

int sn_grid_string_count(int n, int m) { return n * (m - 1) + m * (n - 1); }

int sn_describe_grid(sn_net *net, int n, int m, double mass, double m_corner,
                     double L, const double origin[3], const double v_common[3],
                     double t_deploy, double jitter, double *R0, double *V0) {
  if (n < 1 || m < 1 || net->np != n * m || net->ns != sn_grid_string_count(n, m) ||
      !(t_deploy > 0.0))
    return MBDAE_ERR_ARGUMENT;
  int s = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < m; ++b) {
      int k = a * m + b;
      int corner = (a == 0 || a == n - 1) && (b == 0 || b == m - 1);
      net->m[k] = corner ? m_corner : mass;
      double x[3] = {(a - 0.5 * (n - 1)) * L, (b - 0.5 * (m - 1)) * L, 0.0};
      double pk = sin(1.0 + 2.399963229728653 * k); /* fixed pattern in [-1, 1] */
      for (int c = 0; c < 3; ++c) {
        R0[3 * k + c] = origin[c];
        V0[3 * k + c] = v_common[c] + x[c] / t_deploy * (1.0 + jitter * pk);
      }
      if (b + 1 < m) { /* lateral */
        net->s[s].i = k;
        net->s[s].j = k + 1;
        net->s[s].L = L;
        s++;
      }
      if (a + 1 < n) { /* transverse */
        net->s[s].i = k;
        net->s[s].j = k + m;
        net->s[s].L = L;
        s++;
      }
    }
  return 0;
}
