/* string_net.c - the point-mass + string network core (see string_net.h).
 * capps 2021 eqs. 2.6-2.21 (constraint forces, multipliers), 3.1-3.2
 * (Baumgarte), App. I eqs. 6.14-6.20 (impact along the string). */
#include "strings/string_net.h"

#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"

/* Value slots of the core's DAE Jacobian entries. */
typedef struct sn_point_slots {
  mbdae_index rr[3], rv[3]; /* F_R x R (cj), F_R x V (-1) */
  mbdae_index vr[9], vv[9]; /* F_V x R_k, F_V x V_k (row-major 3x3, -1 if absent) */
} sn_point_slots;

typedef struct sn_string_slots {
  mbdae_index vi_ri[3], vi_rj[3], vj_ri[3], vj_rj[3]; /* lambda d(grad)/dR */
  mbdae_index vi_l[3], vj_l[3];                       /* F_V x lambda */
  mbdae_index l_ri[3], l_rj[3], l_vi[3], l_vj[3], l_l; /* F_lambda rows */
} sn_string_slots;

/* unilateral Baumgarte: a string kept active at its release root is
 * examined again each time phi/L^2 falls this much further */
#define SN_KEEP_BAND 1e-5

struct sn_workspace {
  /* multiplier matrix A (ns x ns, CSC, int for KLU) */
  int *Ap, *Ai;
  int nnzA;
  int *shared_p; /* per entry: up to 2 shared points (-1 none) */
  double *shared_sg;
  int *diag;     /* per column: entry index of the diagonal */
  double *Ax;
  klu_symbolic *sym;
  klu_numeric *num;
  klu_common common;
  /* scratch */
  double *F;     /* 3 np applied forces */
  double *b;     /* ns */
  double *lam;   /* ns */
  double *V;     /* 3 np */
  unsigned char *mask; /* ns */
  unsigned char *bad;  /* ns: unilateral solve */
  double *acc;         /* 3 np: unilateral solve */
  /* Jacobian slots (DAE) */
  sn_point_slots *ps;
  sn_string_slots *ss;
  int bound;
};

/* ---------------------------------------------------------------------- */

int sn_force_gravity_drag(int k, double t, const double r[3], const double v[3],
                          double f[3], double dfdr[9], double dfdv[9], void *user) {
  (void)t;
  (void)r;
  const sn_gravity_drag *gd = user;
  for (int c = 0; c < 3; ++c) f[c] = gd->m[k] * gd->g[c] - gd->c * v[c];
  if (dfdr) memset(dfdr, 0, 9 * sizeof(double));
  if (dfdv) {
    memset(dfdv, 0, 9 * sizeof(double));
    for (int c = 0; c < 3; ++c) dfdv[4 * c] = -gd->c;
  }
  return 0;
}

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
  net->n_core = 6 * np + (form == SN_FORM_DAE ? ns : 0);
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

/* ---------------------------------------------------------------------- */

static inline void str_SW(const sn_net *net, int s, const double *R, const double *V,
                          double S[3], double W[3]) {
  int i = net->s[s].i, j = net->s[s].j;
  for (int c = 0; c < 3; ++c) {
    S[c] = R[3 * j + c] - R[3 * i + c];
    if (W) W[c] = V[3 * j + c] - V[3 * i + c];
  }
}

static inline double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double sn_phi(const sn_net *net, int s, const double *R) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  return dot3(S, S) - net->s[s].L * net->s[s].L; /* capps eq. 2.7 */
}

double sn_phi_dot(const sn_net *net, int s, const double *R, const double *V) {
  double S[3], W[3];
  str_SW(net, s, R, V, S, W);
  return 2.0 * dot3(S, W); /* capps eq. 2.13 */
}

void sn_grad(const sn_net *net, int s, const double *R, double g[3]) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  for (int c = 0; c < 3; ++c) g[c] = 2.0 * S[c];
}

double sn_tension(const sn_net *net, int s, const double *R, double lambda) {
  double S[3];
  str_SW(net, s, R, NULL, S, NULL);
  return -2.0 * lambda * sqrt(dot3(S, S));
}

/* Stabilisation (xi, w) of an active string in the current hold. */
static inline void str_stab(const sn_net *net, int s, double *xi, double *w) {
  if (net->hold == SN_HOLD_BAUMGARTE) {
    *xi = net->s[s].xi;
    *w = net->s[s].w;
  } else {
    *xi = net->drift_xi;
    *w = net->drift_w;
  }
}

static int eval_forces(sn_net *net, double t, const double *R, const double *V,
                       const double *fext, double *F) {
  for (int k = 0; k < net->np; ++k) {
    double *f = F + 3 * k;
    if (net->force.fn) {
      int rc = net->force.fn(k, t, R + 3 * k, V + 3 * k, f, NULL, NULL, net->force.user);
      if (rc) return rc;
    } else {
      f[0] = f[1] = f[2] = 0.0;
    }
    if (fext)
      for (int c = 0; c < 3; ++c) f[c] += fext[3 * k + c];
  }
  return 0;
}

/* Assemble A over the strings with active[s] != 0 (identity elsewhere) and
 * factor it. capps eq. 2.20: A = (1/2) Phi_R^T M^-1 Phi_R. */
static int factor_A(sn_net *net, const double *R, const unsigned char *active) {
  sn_workspace *w = net->ws;
  for (int t = 0; t < net->ns; ++t) {
    double St[3];
    str_SW(net, t, R, NULL, St, NULL);
    for (int a = w->Ap[t]; a < w->Ap[t + 1]; ++a) {
      int s = w->Ai[a];
      if (!active[s] || !active[t]) {
        w->Ax[a] = (s == t) ? 1.0 : 0.0;
        continue;
      }
      double Ss[3];
      str_SW(net, s, R, NULL, Ss, NULL);
      double v = 0.0, sdot = dot3(Ss, St);
      for (int q = 0; q < 2; ++q) {
        int p = w->shared_p[2 * a + q];
        if (p >= 0) v += 2.0 * w->shared_sg[2 * a + q] * sdot / net->m[p];
      }
      w->Ax[a] = v;
    }
  }
  if (w->num) {
    if (klu_refactor(w->Ap, w->Ai, w->Ax, w->sym, w->num, &w->common) &&
        w->common.status == KLU_OK) {
      /* reused pivot order: check it is still sound */
      if (klu_rcond(w->sym, w->num, &w->common) && w->common.rcond > 1e-12) return 0;
    }
    klu_free_numeric(&w->num, &w->common);
  }
  w->num = klu_factor(w->Ap, w->Ai, w->Ax, w->sym, &w->common);
  if (!w->num) return w->common.status == KLU_OUT_OF_MEMORY ? MBDAE_ERR_MEMORY : 1;
  return 0;
}

static int solve_A(sn_net *net, double *x) {
  sn_workspace *w = net->ws;
  if (!klu_solve(w->sym, w->num, net->ns, 1, x, &w->common)) return 1;
  for (int s = 0; s < net->ns; ++s)
    if (!isfinite(x[s])) return 1;
  return 0;
}

/* lambda for the active set `active`, forces F already evaluated. */
static int multipliers_F(sn_net *net, const double *R, const double *V,
                         const double *F, const unsigned char *active, double *lambda) {
  if (net->ns == 0) return 0;
  int rc = factor_A(net, R, active);
  if (rc) return rc;
  for (int s = 0; s < net->ns; ++s) {
    if (!active[s]) {
      lambda[s] = 0.0;
      continue;
    }
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3], xi, wn;
    str_SW(net, s, R, V, S, W);
    str_stab(net, s, &xi, &wn);
    double phi = dot3(S, S) - net->s[s].L * net->s[s].L;
    double sa = 0.0;
    for (int c = 0; c < 3; ++c) sa += S[c] * (F[3 * j + c] / net->m[j] - F[3 * i + c] / net->m[i]);
    /* capps eq. 2.21 with nu of eq. 3.2, halved */
    lambda[s] = -sa - dot3(W, W) - 2.0 * xi * wn * dot3(S, W) - 0.5 * wn * wn * phi;
  }
  return solve_A(net, lambda);
}

/* a = M^-1 (F + sum_s lambda_s grad phi_s): the points' accelerations
 * (capps eqs. 2.3, 2.6) with the forces F and the multipliers lam. */
static void point_accelerations(const sn_net *net, const double *R, const double *F,
                                const double *lam, double *a) {
  memcpy(a, F, 3 * (size_t)net->np * sizeof *a);
  for (int s = 0; s < net->ns; ++s) {
    if (lam[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      a[3 * j + c] += 2.0 * lam[s] * S[c];
      a[3 * i + c] -= 2.0 * lam[s] * S[c];
    }
  }
  for (int q = 0; q < 3 * net->np; ++q) a[q] /= net->m[q / 3];
}

/* Unilateral strings (net->unilateral, Baumgarte hold): among the active
 * strings each one either pulls (lambda_s <= 0: tension -2 lambda_s |S|)
 * and follows eq. 3.2, or carries nothing and shortens faster than eq. 3.2
 * asks (phi'' <= nu): the linear complementarity problem of
 * doc/strings.md, solved by principal pivoting on the pulling set (all
 * infeasible strings swapped while their number falls, then the lowest
 * index alone, Murty's rule), warm-started from net->forced. A's pattern is
 * fixed (factor_A puts 1 on the diagonal of a string left out), so a new
 * set costs a refactorization. Returns 0, 1 (no solution within the
 * iteration limit: recoverable) or < 0. */
static int multipliers_unilateral(sn_net *net, const double *R, const double *V,
                                  const double *F, double *lambda) {
  sn_workspace *w = net->ws;
  int ns = net->ns, np = net->np, fewest = ns + 1, stalled = 0;
  unsigned char *set = w->mask, *forced = net->forced, *bad = w->bad;
  for (int it = 0; it < 50 + 2 * ns; ++it) {
    for (int s = 0; s < ns; ++s) set[s] = net->taut[s] && forced[s];
    int rc = multipliers_F(net, R, V, F, set, lambda);
    if (rc) return rc;
    /* accelerations with these tensions */
    double *a = w->acc, lmax = 0.0, amax = 0.0;
    point_accelerations(net, R, F, lambda, a);
    for (int s = 0; s < ns; ++s) {
      if (lambda[s] == 0.0) continue;
      double S[3];
      str_SW(net, s, R, NULL, S, NULL);
      lmax = fmax(lmax, fabs(lambda[s]) * sqrt(dot3(S, S)));
    }
    for (int q = 0; q < 3 * np; ++q) amax = fmax(amax, fabs(a[q]));
    int nbad = 0, first = -1;
    for (int s = 0; s < ns; ++s) {
      bad[s] = 0;
      if (!net->taut[s]) continue;
      int i = net->s[s].i, j = net->s[s].j;
      double S[3], W[3], xi, wn;
      str_SW(net, s, R, V, S, W);
      double Sn = sqrt(dot3(S, S));
      if (forced[s]) {
        bad[s] = lambda[s] * Sn > 1e-12 * lmax;
      } else {
        /* half of phi'' - nu (eqs. 2.21, 3.2), per unit of |S| */
        str_stab(net, s, &xi, &wn);
        double phi = dot3(S, S) - net->s[s].L * net->s[s].L, sa = 0.0;
        for (int c = 0; c < 3; ++c) sa += S[c] * (a[3 * j + c] - a[3 * i + c]);
        double over = dot3(W, W) + sa + 2.0 * xi * wn * dot3(S, W) + 0.5 * wn * wn * phi;
        bad[s] = over > 1e-12 * (amax + 1.0) * Sn;
      }
      if (bad[s]) {
        ++nbad;
        if (first < 0) first = s;
      }
    }
    if (!nbad) return 0;
    if (nbad < fewest) fewest = nbad, stalled = 0;
    else ++stalled;
    if (stalled < 3) {
      for (int s = 0; s < ns; ++s)
        if (bad[s]) forced[s] ^= 1;
    } else {
      forced[first] ^= 1;
    }
  }
  return 1;
}

/* The multipliers of the ODE form: the active set, or the unilateral LCP. */
static int multipliers_ode(sn_net *net, const double *R, const double *V,
                           const double *F, double *lambda) {
  if (net->unilateral && net->hold == SN_HOLD_BAUMGARTE)
    return multipliers_unilateral(net, R, V, F, lambda);
  return multipliers_F(net, R, V, F, net->taut, lambda);
}

/* switch_by_state: the modes at this state (capps sec. 3.3: phi >= 0). */
static void state_modes(sn_net *net, const double *R) {
  if (net->hold != SN_HOLD_BAUMGARTE || !net->switch_by_state) return;
  for (int s = 0; s < net->ns; ++s) net->taut[s] = sn_phi(net, s, R) >= 0.0;
}

int sn_net_multipliers(sn_net *net, double t, const double *R, const double *V,
                       const double *fext, double *lambda) {
  state_modes(net, R);
  int rc = eval_forces(net, t, R, V, fext, net->ws->F);
  if (rc) return rc;
  return multipliers_ode(net, R, V, net->ws->F, lambda);
}

/* V += M^-1 G x (G columns: grad phi_s). */
static void apply_impulses(const sn_net *net, const double *R, const double *x, double *V) {
  for (int s = 0; s < net->ns; ++s) {
    if (x[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      V[3 * j + c] += 2.0 * x[s] * S[c] / net->m[j];
      V[3 * i + c] -= 2.0 * x[s] * S[c] / net->m[i];
    }
  }
}

double sn_kinetic_energy(const sn_net *net, const double *V) {
  double E = 0.0;
  for (int k = 0; k < net->np; ++k) E += 0.5 * net->m[k] * dot3(V + 3 * k, V + 3 * k);
  return E;
}

void sn_momentum(const sn_net *net, const double *V, double p[3]) {
  p[0] = p[1] = p[2] = 0.0;
  for (int k = 0; k < net->np; ++k)
    for (int c = 0; c < 3; ++c) p[c] += net->m[k] * V[3 * k + c];
}

/* App. I eqs. 6.14-6.20 generalised to a network: one impulse problem. */
int sn_net_impact(sn_net *net, const double *R, double *V,
                  const unsigned char *impacting, double *p) {
  sn_workspace *w = net->ws;
  int ns = net->ns;
  double E0 = sn_kinetic_energy(net, V);
  net->last_energy_loss = 0.0;
  net->last_impulse = 0.0;
  if (ns == 0) return 0;
  unsigned char *set = w->mask;
  for (int s = 0; s < ns; ++s) set[s] = (impacting[s] || net->taut[s]) ? 1 : 0;
  double *x = w->lam;
  for (int iter = 0; iter <= ns; ++iter) {
    int rc = factor_A(net, R, set);
    if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
    for (int s = 0; s < ns; ++s) {
      x[s] = 0.0;
      if (!set[s]) continue;
      double S[3], W[3];
      str_SW(net, s, R, V, S, W);
      double c = dot3(S, W);
      double e = (impacting[s] == 1) ? net->s[s].e : 0.0; /* 2: plastic */
      x[s] = (impacting[s] ? -e * c : 0.0) - c;
    }
    if (solve_A(net, x)) return MBDAE_ERR_SOLVER;
    int dropped = 0;
    for (int s = 0; s < ns; ++s)
      if (set[s] && x[s] > 0.0) { /* would push: the string goes slack */
        set[s] = 0;
        dropped = 1;
      }
    if (!dropped) break;
  }
  apply_impulses(net, R, x, V);
  for (int s = 0; s < ns; ++s) {
    if (p) p[s] = x[s];
    if (fabs(x[s]) > net->last_impulse) {
      double S[3];
      str_SW(net, s, R, NULL, S, NULL);
      net->last_impulse = fabs(2.0 * x[s]) * sqrt(dot3(S, S));
    }
  }
  net->last_energy_loss = E0 - sn_kinetic_energy(net, V);
  return 0;
}

/* ---------------------------------------------------------------------- */

int sn_net_residual(sn_net *net, double t, const double *y, const double *yp,
                    double *res) {
  if (net->form != SN_FORM_DAE) return MBDAE_ERR_UNSUPPORTED;
  const double *R = y + net->off_r, *V = y + net->off_v, *lam = y + net->off_lam;
  const double *Rp = yp + net->off_r, *Vp = yp + net->off_v;
  state_modes(net, R);
  double *FR = res + net->off_r, *FV = res + net->off_v, *FL = res + net->off_lam;
  int np = net->np;
  int rc = eval_forces(net, t, R, V, NULL, net->ws->F);
  if (rc) return rc;
  const double *F = net->ws->F;
  for (int q = 0; q < 3 * np; ++q) {
    FR[q] = Rp[q] - V[q];                  /* capps eq. 2.3 */
    FV[q] = net->m[q / 3] * Vp[q] - F[q];  /* capps eq. 2.6 ... */
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    for (int c = 0; c < 3; ++c) { /* ... - Phi_R lambda */
      FV[3 * j + c] -= 2.0 * lam[s] * S[c];
      FV[3 * i + c] += 2.0 * lam[s] * S[c];
    }
    if (!net->taut[s]) {
      FL[s] = lam[s];
      continue;
    }
    double xi, wn, sa = 0.0;
    str_stab(net, s, &xi, &wn);
    for (int c = 0; c < 3; ++c) sa += S[c] * (Vp[3 * j + c] - Vp[3 * i + c]);
    double phi = dot3(S, S) - net->s[s].L * net->s[s].L;
    /* phi''/2 = -(xi w phi' + w^2 phi / 2): capps eqs. 2.15, 3.2 */
    FL[s] = sa + dot3(W, W) + 2.0 * xi * wn * dot3(S, W) + 0.5 * wn * wn * phi;
  }
  return 0;
}

int sn_net_rhs(sn_net *net, double t, const double *y, const double *fext,
               double *ydot, double *lambda_out) {
  const double *R = y + net->off_r, *V = y + net->off_v;
  state_modes(net, R);
  int np = net->np;
  int rc = eval_forces(net, t, R, V, fext, net->ws->F);
  if (rc) return rc;
  double *lam = lambda_out ? lambda_out : net->ws->lam;
  rc = multipliers_ode(net, R, V, net->ws->F, lam);
  if (rc) return rc < 0 ? rc : 1;
  double *Rd = ydot + net->off_r;
  memcpy(Rd, V, 3 * (size_t)np * sizeof *Rd);
  point_accelerations(net, R, net->ws->F, lam, ydot + net->off_v);
  return 0;
}

int sn_net_consistent(sn_net *net, double t, double *y, double *yp,
                      const double *fext) {
  if (net->form != SN_FORM_DAE) return MBDAE_ERR_UNSUPPORTED;
  double *lam = y + net->off_lam;
  int rc = sn_net_multipliers(net, t, y + net->off_r, y + net->off_v, fext, lam);
  if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
  const double *R = y + net->off_r, *V = y + net->off_v;
  double *Rp = yp + net->off_r, *Vp = yp + net->off_v;
  const double *F = net->ws->F; /* includes fext */
  for (int q = 0; q < 3 * net->np; ++q) {
    Rp[q] = V[q];
    Vp[q] = F[q];
  }
  for (int s = 0; s < net->ns; ++s) {
    yp[net->off_lam + s] = 0.0;
    if (lam[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      Vp[3 * j + c] += 2.0 * lam[s] * S[c];
      Vp[3 * i + c] -= 2.0 * lam[s] * S[c];
    }
  }
  for (int q = 0; q < 3 * net->np; ++q) Vp[q] /= net->m[q / 3];
  return 0;
}

/* ---------------------------------------------------------------------- */

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

/* Calls add(row, col) for every core entry; used for both the pattern and
 * the slot binding so the two can never disagree. */
static int shape_has(sn_jac_shape sh, int a, int b) {
  return sh == SN_JAC_FULL || (sh == SN_JAC_DIAG && a == b);
}

int sn_net_pattern_add(const sn_net *net, sn_pattern *p) {
  if (net->form != SN_FORM_DAE) return MBDAE_ERR_UNSUPPORTED;
  int rc = 0;
  int oR = net->off_r, oV = net->off_v, oL = net->off_lam;
  sn_jac_shape jr = net->force.fn ? net->force.jac_r : SN_JAC_NONE;
  sn_jac_shape jv = net->force.fn ? net->force.jac_v : SN_JAC_NONE;
  for (int k = 0; k < net->np && !rc; ++k)
    for (int a = 0; a < 3 && !rc; ++a) {
      rc |= sn_pattern_add(p, oR + 3 * k + a, oR + 3 * k + a);
      rc |= sn_pattern_add(p, oR + 3 * k + a, oV + 3 * k + a);
      for (int b = 0; b < 3; ++b) {
        if (shape_has(jr, a, b)) rc |= sn_pattern_add(p, oV + 3 * k + a, oR + 3 * k + b);
        if (a == b || shape_has(jv, a, b))
          rc |= sn_pattern_add(p, oV + 3 * k + a, oV + 3 * k + b);
      }
    }
  for (int s = 0; s < net->ns && !rc; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      rc |= sn_pattern_add(p, oV + 3 * i + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oV + 3 * i + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oV + 3 * i + c, oL + s);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oL + s);
      rc |= sn_pattern_add(p, oL + s, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oL + s, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oL + s, oV + 3 * i + c);
      rc |= sn_pattern_add(p, oL + s, oV + 3 * j + c);
    }
    rc |= sn_pattern_add(p, oL + s, oL + s);
  }
  return rc ? MBDAE_ERR_MEMORY : 0;
}

int sn_net_jacobian_bind(sn_net *net, const sn_pattern *p) {
  if (net->form != SN_FORM_DAE) return MBDAE_ERR_UNSUPPORTED;
  sn_workspace *w = net->ws;
  free(w->ps);
  free(w->ss);
  w->ps = malloc((size_t)net->np * sizeof *w->ps);
  w->ss = malloc((net->ns > 0 ? (size_t)net->ns : 1) * sizeof *w->ss);
  if (!w->ps || !w->ss) return MBDAE_ERR_MEMORY;
  int oR = net->off_r, oV = net->off_v, oL = net->off_lam;
  for (int k = 0; k < net->np; ++k) {
    sn_point_slots *q = &w->ps[k];
    for (int a = 0; a < 3; ++a) {
      q->rr[a] = sn_pattern_slot(p, oR + 3 * k + a, oR + 3 * k + a);
      q->rv[a] = sn_pattern_slot(p, oR + 3 * k + a, oV + 3 * k + a);
      if (q->rr[a] < 0 || q->rv[a] < 0) return MBDAE_ERR_ARGUMENT;
      for (int b = 0; b < 3; ++b) {
        q->vr[3 * a + b] = sn_pattern_slot(p, oV + 3 * k + a, oR + 3 * k + b);
        q->vv[3 * a + b] = sn_pattern_slot(p, oV + 3 * k + a, oV + 3 * k + b);
      }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    sn_string_slots *q = &w->ss[s];
    for (int c = 0; c < 3; ++c) {
      q->vi_ri[c] = sn_pattern_slot(p, oV + 3 * i + c, oR + 3 * i + c);
      q->vi_rj[c] = sn_pattern_slot(p, oV + 3 * i + c, oR + 3 * j + c);
      q->vj_ri[c] = sn_pattern_slot(p, oV + 3 * j + c, oR + 3 * i + c);
      q->vj_rj[c] = sn_pattern_slot(p, oV + 3 * j + c, oR + 3 * j + c);
      q->vi_l[c] = sn_pattern_slot(p, oV + 3 * i + c, oL + s);
      q->vj_l[c] = sn_pattern_slot(p, oV + 3 * j + c, oL + s);
      q->l_ri[c] = sn_pattern_slot(p, oL + s, oR + 3 * i + c);
      q->l_rj[c] = sn_pattern_slot(p, oL + s, oR + 3 * j + c);
      q->l_vi[c] = sn_pattern_slot(p, oL + s, oV + 3 * i + c);
      q->l_vj[c] = sn_pattern_slot(p, oL + s, oV + 3 * j + c);
      if (q->vi_ri[c] < 0 || q->vi_rj[c] < 0 || q->vj_ri[c] < 0 || q->vj_rj[c] < 0 ||
          q->vi_l[c] < 0 || q->vj_l[c] < 0 || q->l_ri[c] < 0 || q->l_rj[c] < 0 ||
          q->l_vi[c] < 0 || q->l_vj[c] < 0)
        return MBDAE_ERR_ARGUMENT;
    }
    q->l_l = sn_pattern_slot(p, oL + s, oL + s);
    if (q->l_l < 0) return MBDAE_ERR_ARGUMENT;
  }
  w->bound = 1;
  return 0;
}

int sn_net_jacobian(sn_net *net, double t, double cj, const double *y,
                    const double *yp, double *vals) {
  sn_workspace *w = net->ws;
  if (net->form != SN_FORM_DAE || !w->bound) return MBDAE_ERR_ARGUMENT;
  const double *R = y + net->off_r, *V = y + net->off_v, *lam = y + net->off_lam;
  const double *Vp = yp + net->off_v;
  state_modes(net, R);
  for (int k = 0; k < net->np; ++k) {
    const sn_point_slots *q = &w->ps[k];
    double f[3], dfdr[9], dfdv[9];
    memset(dfdr, 0, sizeof dfdr);
    memset(dfdv, 0, sizeof dfdv);
    if (net->force.fn) {
      int rc = net->force.fn(k, t, R + 3 * k, V + 3 * k, f, dfdr, dfdv, net->force.user);
      if (rc) return rc;
    }
    for (int a = 0; a < 3; ++a) {
      vals[q->rr[a]] += cj;   /* F_R = R' - V */
      vals[q->rv[a]] -= 1.0;
      vals[q->vv[4 * a]] += cj * net->m[k];
      for (int b = 0; b < 3; ++b) {
        if (q->vr[3 * a + b] >= 0) vals[q->vr[3 * a + b]] -= dfdr[3 * a + b];
        if (q->vv[3 * a + b] >= 0) vals[q->vv[3 * a + b]] -= dfdv[3 * a + b];
      }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    const sn_string_slots *q = &w->ss[s];
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    double l2 = 2.0 * lam[s];
    for (int c = 0; c < 3; ++c) {
      vals[q->vj_rj[c]] -= l2;
      vals[q->vj_ri[c]] += l2;
      vals[q->vi_rj[c]] += l2;
      vals[q->vi_ri[c]] -= l2;
      vals[q->vj_l[c]] -= 2.0 * S[c];
      vals[q->vi_l[c]] += 2.0 * S[c];
    }
    if (!net->taut[s]) {
      vals[q->l_l] += 1.0;
      continue;
    }
    double xi, wn;
    str_stab(net, s, &xi, &wn);
    for (int c = 0; c < 3; ++c) {
      double dr = (Vp[3 * j + c] - Vp[3 * i + c]) + 2.0 * xi * wn * W[c] + wn * wn * S[c];
      double dv = 2.0 * W[c] + 2.0 * xi * wn * S[c] + cj * S[c];
      vals[q->l_rj[c]] += dr;
      vals[q->l_ri[c]] -= dr;
      vals[q->l_vj[c]] += dv;
      vals[q->l_vi[c]] -= dv;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------------- */

static double reduced_mass(const sn_net *net, int s) {
  double a = net->m[net->s[s].i], b = net->m[net->s[s].j];
  return a * b / (a + b);
}

int sn_net_init_modes(sn_net *net, double t, const double *R, const double *V) {
  int ns = net->ns;
  for (int s = 0; s < ns; ++s) {
    double L2 = net->s[s].L * net->s[s].L;
    net->taut[s] = sn_phi(net, s, R) >= -net->release_band * L2 ? 1 : 0;
    if (net->hold == SN_HOLD_EVENT && net->taut[s] &&
        sn_phi_dot(net, s, R, V) > 1e-12 * net->s[s].L)
      net->taut[s] = 0; /* stretching at t0: left to the first impact */
  }
  state_modes(net, R);
  if (net->hold != SN_HOLD_EVENT) return 0;
  /* a taut string must pull: release pushing ones, re-solve (active set) */
  for (int iter = 0; iter <= ns; ++iter) {
    int rc = sn_net_multipliers(net, t, R, V, NULL, net->ws->b);
    if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
    int changed = 0;
    for (int s = 0; s < ns; ++s)
      if (net->taut[s] && net->ws->b[s] > 0.0) {
        net->taut[s] = 0;
        changed = 1;
      }
    if (!changed) break;
  }
  return 0;
}

int sn_net_check_taut_rank(sn_net *net, double t, const double *R, const double *V) {
  if (net->ns == 0) return 0;
  int rc = sn_net_init_modes(net, t, R, V);
  if (rc == MBDAE_ERR_SOLVER) return MBDAE_ERR_PARAMETER; /* A could not be factored */
  if (rc) return rc;
  rc = factor_A(net, R, net->taut);
  if (rc) return rc < 0 ? rc : MBDAE_ERR_PARAMETER;
  sn_workspace *w = net->ws;
  if (!klu_rcond(w->sym, w->num, &w->common) || !(w->common.rcond > 1e-12))
    return MBDAE_ERR_PARAMETER;
  return 0;
}

int sn_net_roots(sn_net *net, double t, const double *R, const double *V,
                 const double *lam, double *g) {
  if (net->hold == SN_HOLD_EVENT && !lam) {
    int any = 0;
    for (int s = 0; s < net->ns; ++s) any |= net->taut[s];
    if (any) {
      int rc = sn_net_multipliers(net, t, R, V, NULL, net->ws->b);
      if (rc) return rc < 0 ? rc : 1;
      lam = net->ws->b;
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    double L2 = net->s[s].L * net->s[s].L;
    /* Every root is negative in the current mode and rises through 0 when
     * the mode must change, so after a switch the state moves away from the
     * side the root fired into (the engine's dead band then holds). */
    if (net->hold == SN_HOLD_BAUMGARTE) {
      double h = sn_phi(net, s, R) / L2 - net->root_ref[s] + net->release_band;
      g[s] = net->taut[s] ? -h : h;
    } else if (!net->taut[s]) {
      g[s] = sn_phi(net, s, R) / L2;
    } else {
      g[s] = lam[s] / reduced_mass(net, s); /* < 0 while pulling */
    }
  }
  return 0;
}

int sn_net_handle_events(sn_net *net, double t, double *y, double *yp,
                         const int *dirs, mbdae_event_info *info,
                         const double *fext) {
  int ns = net->ns;
  double *R = y + net->off_r, *V = y + net->off_v;
  unsigned char *hit = NULL;
  net->last_impacts = net->last_releases = net->last_activations = net->last_plastic = 0;
  net->last_energy_loss = net->last_impulse = 0.0;
  int changed = 0;
  if (net->hold == SN_HOLD_BAUMGARTE) {
    for (int s = 0; s < ns; ++s) {
      if (dirs[s] <= 0) continue;
      if (!net->taut[s]) {
        net->taut[s] = 1; /* capps sec. 3.3: active while phi >= 0 */
        net->root_ref[s] = 0.0;
        net->last_activations++;
        changed = 1;
      } else {
        /* Grazing rule (the compliant analogue of the Zeno rule): the free
         * flight after a release dips to phi/L^2 = -(w_n/|W|)^2; when that is
         * within 10 release bands the re-contact cannot be resolved by root
         * finding, so the string stays active (it is effectively taut). */
        double S[3], W[3];
        str_SW(net, s, R, V, S, W);
        double ww = dot3(W, W), ss = dot3(S, S), sw = dot3(S, W);
        if (ww > 0.0 && sw * sw / (ss * ww) < 10.0 * net->release_band) {
          if (net->unilateral) {
            /* its release root moves a band below the present value: a
             * kept string that keeps going slack (once without tension,
             * nothing pulls it back) is examined again there instead of
             * being held slack at any depth (phi/L^2 = -0.74 measured on a
             * 10 x 10 deploying net at t = 2 s) */
            net->root_ref[s] = fmin(sn_phi(net, s, R) / (net->s[s].L * net->s[s].L), 0.0) -
                               SN_KEEP_BAND;
            changed = 1;
          }
          continue;
        }
        net->taut[s] = 0;
        net->root_ref[s] = 0.0;
        net->last_releases++;
        changed = 1;
      }
    }
  } else {
    hit = calloc(ns > 0 ? (size_t)ns : 1, 1);
    if (!hit) return MBDAE_ERR_MEMORY;
    for (int s = 0; s < ns; ++s) {
      if (dirs[s] <= 0) continue;
      if (!net->taut[s]) {
        double S[3], W[3];
        str_SW(net, s, R, V, S, W);
        double c = dot3(S, W);
        if (c <= 0.0) continue; /* not stretching: nothing to do */
        /* Zeno rule: post-impact separation speed e c / L below
         * zeno_ratio |W| -> plastic impact, the string stays taut. */
        double sep = net->s[s].e * c / net->s[s].L;
        hit[s] = (net->s[s].e == 0.0 || sep < net->zeno_ratio * sqrt(dot3(W, W))) ? 2 : 1;
        net->last_impacts++;
        if (hit[s] == 2) net->last_plastic++;
      } else {
        net->taut[s] = 0; /* tension fell to zero */
        net->last_releases++;
        changed = 1;
      }
    }
    if (net->last_impacts) {
      int rc = sn_net_impact(net, R, V, hit, NULL);
      if (rc) {
        free(hit);
        return rc;
      }
      for (int s = 0; s < ns; ++s)
        if (hit[s] == 2) net->taut[s] = 1;
      changed = 1;
    }
    free(hit);
    if (changed) {
      /* taut strings must pull; release the ones that would push */
      for (int iter = 0; iter <= ns; ++iter) {
        int rc = sn_net_multipliers(net, t, R, V, fext, net->ws->b);
        if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
        int again = 0;
        for (int s = 0; s < ns; ++s)
          if (net->taut[s] && net->ws->b[s] > 0.0) {
            net->taut[s] = 0;
            net->last_releases++;
            again = 1;
          }
        if (!again) break;
      }
    }
  }
  if (info) {
    info->label = net->last_impacts ? (net->last_plastic ? "impact-plastic" : "impact")
                  : net->last_releases ? (net->last_activations ? "switch" : "release")
                  : net->last_activations ? "activate" : "no-op";
    info->ndata = 6;
    info->data[0] = net->last_impacts;
    info->data[1] = net->last_releases;
    info->data[2] = net->last_activations;
    info->data[3] = net->last_plastic;
    info->data[4] = net->last_energy_loss;
    info->data[5] = net->last_impulse;
  }
  if (!changed) return MBDAE_EVENT_NOCHANGE;
  if (net->form == SN_FORM_DAE && yp) {
    int rc = sn_net_consistent(net, t, y, yp, fext);
    if (rc) return rc;
  }
  return MBDAE_EVENT_CONTINUE;
}

/* ---------------------------------------------------------------------- */

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
