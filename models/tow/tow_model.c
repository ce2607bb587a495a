/* tow_model.c - equations, construction, initial state and energy ledger of
 * the tethered tow (tow.h, doc/tow.md). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compliant/first_order.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "tow/tow.h"

void tow_params_default(tow_params *p) {
  memset(p, 0, sizeof *p);
  p->tether_length = 100.0;
  p->tether_nodes = 100;
  p->tether_ea = 2.2e5;       /* 2 mm Kevlar 29: 70.5 GPa x pi (1 mm)^2 */
  p->tether_damping = 0.0;
  p->tether_density = 4.5e-3; /* 1440 kg/m^3 x pi (1 mm)^2 */
  p->direction[0] = 1.0;
  p->chaser_mass = 500.0;
  p->shape = TOW_SHAPE_BOX;
  p->box_size[0] = 3.0;
  p->box_size[1] = p->box_size[2] = 2.0;
  p->prism_sides = 8;
  p->prism_radius = 1.0;
  p->prism_length = 3.0;
  p->body_mass = 1000.0;
  p->body_attitude[0] = 1.0;
  p->attachment[0] = 1.5;
}

#define FAIL(k, ...)                                                 \
  do {                                                               \
    if (err) {                                                       \
      err->key = (k);                                                \
      snprintf(err->msg, sizeof err->msg, __VA_ARGS__);              \
    }                                                                \
    return MBDAE_ERR_PARAMETER;                                      \
  } while (0)

static int build_body(const tow_params *p, mbdae_polytope **out, mbdae_param_error *err) {
  double v[64 * 3];
  int nv;
  if (p->shape == TOW_SHAPE_PRISM) {
    if (p->prism_sides < 3 || p->prism_sides > 32) FAIL("prism_sides", "must be in [3, 32]");
    nv = 2 * p->prism_sides;
    mbdae_polytope_prism_vertices(p->prism_sides, p->prism_radius, p->prism_length, v);
  } else {
    nv = 8;
    mbdae_polytope_box_vertices(p->box_size[0], p->box_size[1], p->box_size[2], v);
  }
  int why = 0;
  int rc = mbdae_polytope_create(v, nv, p->body_mass, NULL, out, &why, NULL);
  if (rc == MBDAE_ERR_PARAMETER) FAIL("shape", "%s", mbdae_polytope_reason(why));
  return rc;
}

int tow_params_check(const tow_params *p, mbdae_param_error *err) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  if (!(p->tether_length > 0.0)) FAIL("tether_length", "must be > 0");
  if (p->tether_nodes < 2) FAIL("tether_nodes", "a tether needs at least 2 nodes");
  if (!(p->tether_ea > 0.0)) FAIL("EA", "must be > 0");
  if (!(p->tether_damping >= 0.0)) FAIL("tether_damping", "must be >= 0");
  if (!(p->tether_onset >= 0.0 && p->tether_onset < p->tether_length / (p->tether_nodes + 1)))
    FAIL("tether_onset", "must be >= 0 and below the thread's rest length");
  if (!(p->tether_density > 0.0)) FAIL("tether_density", "must be > 0");
  if (!(p->ledger_tol >= 0.0 && isfinite(p->ledger_tol)))
    FAIL("ledger_tolerance", "must be finite and >= 0 (0: the integrator's own weights)");
  if (!(p->initial_slack >= 0.0 && p->initial_slack < 1.0)) FAIL("initial_slack", "must be in [0, 1)");
  double d2 = 0.0;
  for (int c = 0; c < 3; ++c) d2 += p->direction[c] * p->direction[c];
  if (!(d2 > 0.0) || !isfinite(d2)) FAIL("direction", "must be a finite non-zero vector");
  if (!(p->chaser_mass > 0.0)) FAIL("chaser_mass", "must be > 0");
  if (!(p->body_mass > 0.0)) FAIL("body_mass", "must be > 0");
  if (!(p->thrust_period >= 0.0)) FAIL("thrust_period", "must be >= 0");
  int rc = tow_thrust_check(p, err);
  if (rc) return rc;
  double q2 = 0.0;
  for (int c = 0; c < 4; ++c) q2 += p->body_attitude[c] * p->body_attitude[c];
  if (!isfinite(q2)) FAIL("body_attitude", "not finite");
  mbdae_polytope *b = NULL;
  rc = build_body(p, &b, err);
  if (rc) return rc;
  /* the attachment point must be on or in the body (A_f . rho <= 1) */
  double worst = 0.0;
  for (int f = 0; f < b->nf; ++f) {
    const double *A = &b->A[3 * f];
    worst = fmax(worst, A[0] * p->attachment[0] + A[1] * p->attachment[1] + A[2] * p->attachment[2]);
  }
  mbdae_polytope_free(&b);
  if (worst > 1.0 + 1e-9) FAIL("attachment", "lies outside the body (body frame, from its centre)");
  return MBDAE_OK;
}

static void unit_q(const tow_params *p, double q[4]) {
  double n = 0.0;
  for (int c = 0; c < 4; ++c) n += p->body_attitude[c] * p->body_attitude[c];
  n = sqrt(n);
  for (int c = 0; c < 4; ++c) q[c] = n > 0.0 ? p->body_attitude[c] / n : (c == 0);
}

void tow_attachment(const tow_model *m, const double *y, double xa[3], double va[3]) {
  const double *bs = &y[m->boff], *ra = m->p.attachment;
  double C[9], wr[3];
  mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
  const double *w = &bs[MBDAE_RB_W];
  wr[0] = w[1] * ra[2] - w[2] * ra[1];
  wr[1] = w[2] * ra[0] - w[0] * ra[2];
  wr[2] = w[0] * ra[1] - w[1] * ra[0];
  for (int c = 0; c < 3; ++c) {
    double Cr = C[3 * c] * ra[0] + C[3 * c + 1] * ra[1] + C[3 * c + 2] * ra[2];
    double Cw = C[3 * c] * wr[0] + C[3 * c + 1] * wr[1] + C[3 * c + 2] * wr[2];
    if (xa) xa[c] = bs[MBDAE_RB_P + c] + Cr;
    if (va) va[c] = bs[MBDAE_RB_U + c] + Cw;
  }
}

/* S = head - tail and W of thread k (k = 0..N; k = N ends at the body) */
static void thread_SW(const tow_model *m, const double *y, const double *xa, const double *va,
                      int k, double S[3], double W[3]) {
  int np = m->npt;
  const double *R = y, *V = &y[3 * np];
  for (int c = 0; c < 3; ++c) {
    double hx = k < m->N ? R[3 * (k + 1) + c] : xa[c];
    double hv = k < m->N ? V[3 * (k + 1) + c] : va[c];
    S[c] = hx - R[3 * k + c];
    W[c] = hv - V[3 * k + c];
  }
}

int tow_rhs(tow_model *m, double t, const double *y, double *f) {
  int np = m->npt;
  const double *V = &y[3 * np], *bs = &y[m->boff];
  double *a = &f[3 * np]; /* forces first, divided by the masses below */
  memcpy(f, V, 3 * (size_t)np * sizeof *f);
  for (int k = 0; k < np; ++k)
    for (int c = 0; c < 3; ++c) a[3 * k + c] = m->m[k] * m->p.gravity[c];
  double F[3];
  tow_thrust(&m->p, t, F);
  for (int c = 0; c < 3; ++c) a[c] += F[c];
  double xa[3], va[3], Fb[3] = {0.0, 0.0, 0.0}, C[9], D = 0.0;
  tow_attachment(m, y, xa, va);
  for (int k = 0; k <= m->N; ++k) {
    double S[3], W[3], fh[3], diss;
    thread_SW(m, y, xa, va, k, S, W);
    if (elastic_thread_force(&m->th, S, W, fh, NULL, NULL, &diss) == 0.0 && diss == 0.0)
      continue; /* slack */
    D += diss;
    for (int c = 0; c < 3; ++c) {
      a[3 * k + c] -= fh[c];
      if (k < m->N) a[3 * (k + 1) + c] += fh[c];
      else Fb[c] = fh[c];
    }
  }
  for (int i = 0; i < 3 * np; ++i) a[i] /= m->m[i / 3];
  /* body: the attachment force at x_a, gravity */
  double *fb = &f[m->boff], tau[3], Fbb[3];
  const double *ra = m->p.attachment;
  mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
  for (int c = 0; c < 3; ++c) { /* body axes */
    Fbb[c] = C[c] * Fb[0] + C[3 + c] * Fb[1] + C[6 + c] * Fb[2];
    fb[MBDAE_RB_P + c] = bs[MBDAE_RB_U + c];
    fb[MBDAE_RB_U + c] = Fb[c] / m->body->mass + m->p.gravity[c];
  }
  tau[0] = ra[1] * Fbb[2] - ra[2] * Fbb[1];
  tau[1] = ra[2] * Fbb[0] - ra[0] * Fbb[2];
  tau[2] = ra[0] * Fbb[1] - ra[1] * Fbb[0];
  mbdae_rb_quat_rate(&bs[MBDAE_RB_Q], &bs[MBDAE_RB_W], &fb[MBDAE_RB_Q]);
  mbdae_rb_euler(m->body->J, m->body->Jinv, &bs[MBDAE_RB_W], tau, &fb[MBDAE_RB_W]);
  f[m->iw] = F[0] * V[0] + F[1] * V[1] + F[2] * V[2];
  f[m->id] = D;
  for (int i = 0; i < m->n; ++i)
    if (!isfinite(f[i])) return 1;
  return 0;
}

void tow_ledger_eval(const tow_model *m, double t, const double *y, tow_ledger *L) {
  memset(L, 0, sizeof *L);
  int np = m->npt;
  const double *R = y, *V = &y[3 * np], *bs = &y[m->boff];
  double p[3] = {0, 0, 0}, Mtot = m->body->mass;
  for (int k = 0; k < np; ++k) {
    const double *v = &V[3 * k];
    L->kinetic += 0.5 * m->m[k] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int c = 0; c < 3; ++c) {
      L->potential -= m->m[k] * m->p.gravity[c] * R[3 * k + c];
      p[c] += m->m[k] * v[c];
    }
    Mtot += m->m[k];
  }
  L->kinetic += mbdae_rb_kinetic_energy(m->body->mass, m->body->J, bs);
  for (int c = 0; c < 3; ++c) {
    L->potential -= m->body->mass * m->p.gravity[c] * bs[MBDAE_RB_P + c];
    p[c] += m->body->mass * bs[MBDAE_RB_U + c];
  }
  double xa[3], va[3];
  tow_attachment(m, y, xa, va);
  for (int k = 0; k <= m->N; ++k) {
    double S[3], W[3];
    thread_SW(m, y, xa, va, k, S, W);
    double e = elastic_thread_energy(&m->th, S);
    L->elastic += e;
    L->taut += e > 0.0;
    double T = elastic_thread_force(&m->th, S, W, NULL, NULL, NULL, NULL);
    if (T > L->max_tension) L->max_tension = T;
  }
  L->work = y[m->iw];
  L->dissipated = y[m->id];
  double E = L->kinetic + L->elastic + L->potential;
  L->residual = E - (m->E0 + L->work - L->dissipated);
  double scale = fmax(fmax(fabs(m->E0) + fabs(L->work), fabs(E)), fabs(L->dissipated));
  L->residual_rel = fabs(L->residual) / fmax(scale, 1e-300);
  double I[3], I0[3], dp = 0.0, ps = 0.0;
  tow_impulse(&m->p, t, I);
  tow_impulse(&m->p, m->t0, I0);
  for (int c = 0; c < 3; ++c) {
    double ext = I[c] - I0[c] + Mtot * m->p.gravity[c] * (t - m->t0);
    double r = p[c] - m->p0[c] - ext;
    dp += r * r;
    ps = fmax(ps, fmax(fabs(ext), fabs(m->p0[c])));
  }
  L->momentum_residual_rel = sqrt(dp) / fmax(ps, 1e-300);
  double sep = 0.0;
  for (int c = 0; c < 3; ++c) sep += (xa[c] - R[c]) * (xa[c] - R[c]);
  L->separation = sqrt(sep);
}

/* Error weights for ledger_tolerance eps > 0: the error test's weight of
 * each unknown raised to |dG/dy_i| / tol_E, tol_E = eps S with S the
 * ledger's scale (that of its closure), G the ledger (kinetic + elastic +
 * potential - W + D): m v for a velocity, the elastic force (tension
 * without its damping part) for a position, M U and J w for the body, the
 * attachment's elastic force through C(q) rho_a for the attitude, 1 for W
 * and D. A local error e then passes only if every state's share
 * |dG/dy_i e_i| of the ledger's error is within sqrt(n) tol_E. */
/* *w raised to |g|/tol, but never asking for less than 100 units of
 * round-off of the unknown yi itself (CVODE's "too much accuracy"
 * otherwise: a 500 kg chaser at 6 m/s against 1e-11 J) */
static void raise_weight(double *w, double yi, double g, double tol) {
  double cap = yi != 0.0 ? 1.0 / (100.0 * DBL_EPSILON * fabs(yi)) : INFINITY;
  *w = fmax(*w, fmin(fabs(g) / tol, cap));
}

static int tow_weights(tow_model *m, const double *y, double *w) {
  /* the ledger's scale, as in its closure: max(E0 + |W|, |D|) (E = E0 + W - D
   * to the closure) */
  const double tol = m->p.ledger_tol *
                     fmax(fmax(fabs(m->E0) + fabs(y[m->iw]), fabs(y[m->id])), 1e-300);
  int np = m->npt;
  const double *V = &y[3 * np], *bs = &y[m->boff];
  double *wr = w, *wv = &w[3 * np], *wb = &w[m->boff];
#define RAISE(x, g) raise_weight(&(x), y[&(x) - w], (g), tol)
  RAISE(w[m->iw], 1.0);
  RAISE(w[m->id], 1.0);
  for (int k = 0; k < np; ++k)
    for (int c = 0; c < 3; ++c) RAISE(wv[3 * k + c], m->m[k] * V[3 * k + c]);
  double xa[3], va[3], zero[3] = {0.0, 0.0, 0.0}, Fa[3] = {0.0, 0.0, 0.0};
  double *gr = m->grad; /* the elastic force on each point */
  memset(gr, 0, 3 * (size_t)np * sizeof *gr);
  tow_attachment(m, y, xa, va);
  for (int k = 0; k <= m->N; ++k) {
    double S[3], W[3], fh[3];
    thread_SW(m, y, xa, va, k, S, W);
    if (elastic_thread_force(&m->th, S, zero, fh, NULL, NULL, NULL) == 0.0) continue;
    for (int c = 0; c < 3; ++c) {
      gr[3 * k + c] -= fh[c];
      if (k < m->N) gr[3 * (k + 1) + c] += fh[c];
      else Fa[c] = fh[c];
    }
  }
  for (int i = 0; i < 3 * np; ++i) RAISE(wr[i], gr[i]);
  double Jw[3];
  for (int c = 0; c < 3; ++c) {
    RAISE(wb[MBDAE_RB_P + c], Fa[c]);
    RAISE(wb[MBDAE_RB_U + c], m->body->mass * bs[MBDAE_RB_U + c]);
    Jw[c] = 0.0;
    for (int d = 0; d < 3; ++d) Jw[c] += m->body->J[3 * c + d] * bs[MBDAE_RB_W + d];
  }
  for (int c = 0; c < 3; ++c) RAISE(wb[MBDAE_RB_W + c], Jw[c]);
  /* the attachment moves with the attitude: dE_el/dq_k = -Fa . (dC/dq_k rho) */
  double dC[36];
  const double *ra = m->p.attachment;
  mbdae_rb_rotation_dq(&bs[MBDAE_RB_Q], dC);
  for (int k = 0; k < 4; ++k) {
    double g = 0.0;
    for (int c = 0; c < 3; ++c)
      g += Fa[c] * (dC[9 * k + 3 * c] * ra[0] + dC[9 * k + 3 * c + 1] * ra[1] +
                    dC[9 * k + 3 * c + 2] * ra[2]);
    RAISE(wb[MBDAE_RB_Q + k], g);
  }
#undef RAISE
  return 0;
}

/* --- problem callbacks --------------------------------------------------- */

static int cb_weights(const double *y, double *w, void *ud) { return tow_weights(ud, y, w); }

static int cb_rhs(double t, const double *y, double *f, void *ud) { return tow_rhs(ud, t, y, f); }

static int cb_residual(double t, const double *y, const double *yp, double *res, void *ud) {
  tow_model *m = ud;
  int rc = tow_rhs(m, t, y, m->f);
  if (rc) return rc;
  for (int i = 0; i < m->n; ++i) res[i] = yp[i] - m->f[i];
  return 0;
}

static int cb_jac_sparse(double t, double cj, const double *y, const double *yp, double *vals,
                         void *ud) {
  (void)yp;
  return tow_jacobian_values(ud, t, cj, y, vals);
}

static int cb_jac_dense(double t, double cj, const double *y, const double *yp, double *out,
                        void *ud) {
  (void)yp;
  tow_model *m = ud;
  mbdae_index nnz = sn_pattern_nnz(m->pat);
  memset(m->dense_vals, 0, (size_t)nnz * sizeof *m->dense_vals);
  int rc = tow_jacobian_values(m, t, cj, y, m->dense_vals);
  if (rc) return rc;
  first_order_scatter_dense(m->pat, m->n, m->dense_vals, out);
  return 0;
}

static const char *const inv_names[] = {"ledger", "momentum_residual_rel"};
static const char *const inv_units[] = {"J", "-"};

static int cb_invariants(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)yp;
  tow_ledger L;
  tow_ledger_eval(ud, t, y, &L);
  out[0] = L.residual;
  out[1] = L.momentum_residual_rel;
  return 0;
}

static const char *cb_mode(void *ud) {
  tow_model *m = ud;
  snprintf(m->modebuf, sizeof m->modebuf, "tow (%d threads)", m->N + 1);
  return m->modebuf;
}

void tow_free(tow_model **pm) {
  if (!pm || !*pm) return;
  tow_model *m = *pm;
  mbdae_problem_free(&m->problem);
  mbdae_polytope_free(&m->body);
  sn_pattern_free(&m->pat);
  free(m->slot);
  free(m->dense_vals);
  free(m->p.thrust);
  free(m->m);
  free(m->f);
  free(m->y0);
  free(m->grad);
  free(m);
  *pm = NULL;
}

int tow_create(const tow_params *p, int dae, tow_model **out, mbdae_param_error *err) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  int rc = tow_params_check(p, err);
  if (rc) return rc;
  tow_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p;
  m->p.thrust = NULL;
  if (p->nthrust > 0) {
    m->p.thrust = malloc((size_t)p->nthrust * 4 * sizeof(double));
    if (!m->p.thrust) { tow_free(&m); return MBDAE_ERR_MEMORY; }
    memcpy(m->p.thrust, p->thrust, (size_t)p->nthrust * 4 * sizeof(double));
  }
  rc = build_body(p, &m->body, err);
  if (rc) { tow_free(&m); return rc; }
  m->dae = dae;
  m->N = p->tether_nodes;
  m->npt = m->N + 1;
  m->boff = 6 * m->npt;
  m->iw = m->boff + MBDAE_RB_N;
  m->id = m->iw + 1;
  m->n = m->id + 1;
  m->th.L = p->tether_length / (m->N + 1);
  m->th.ea = p->tether_ea;
  m->th.eta = p->tether_damping;
  m->th.onset = p->tether_onset;
  m->m = malloc((size_t)m->npt * sizeof *m->m);
  m->f = calloc((size_t)m->n, sizeof *m->f);
  m->y0 = calloc((size_t)m->n, sizeof *m->y0);
  m->grad = calloc(3 * (size_t)m->npt, sizeof *m->grad);
  if (!m->m || !m->f || !m->y0 || !m->grad) { tow_free(&m); return MBDAE_ERR_MEMORY; }
  m->m[0] = p->chaser_mass;
  for (int k = 1; k < m->npt; ++k) m->m[k] = p->tether_density * p->tether_length / m->N;
  rc = tow_jacobian_setup(m);
  if (rc) { tow_free(&m); return rc; }
  int r = first_order_problem(&m->problem, m->n, dae, m, cb_residual, cb_rhs, m->pat, cb_jac_sparse,
                              cb_jac_dense, &m->dense_vals);
  mbdae_problem *pb = m->problem;
  r = r ? r : mbdae_problem_set_invariants(pb, 2, inv_names, cb_invariants);
  r = r ? r : mbdae_problem_set_invariant_units(pb, inv_units);
  r = r ? r : mbdae_problem_set_mode_name(pb, cb_mode);
  if (p->ledger_tol > 0.0) r = r ? r : mbdae_problem_set_error_weights(pb, cb_weights);
  if (r) { tow_free(&m); return r; }
  *out = m;
  return MBDAE_OK;
}

int tow_initial_state(tow_model *m, double t0, double *y, double *yp) {
  const tow_params *p = &m->p;
  memset(y, 0, (size_t)m->n * sizeof *y);
  double d[3], dn = 0.0, q[4], C[9];
  for (int c = 0; c < 3; ++c) dn += p->direction[c] * p->direction[c];
  for (int c = 0; c < 3; ++c) d[c] = p->direction[c] / sqrt(dn);
  unit_q(p, q);
  mbdae_rb_rotation(q, C);
  /* chaser, then the nodes evenly on the straight line to the attachment
   * point, which lies (1 - slack) L_t behind the chaser along -direction */
  double span = p->tether_length * (1.0 - p->initial_slack);
  int np = m->npt;
  for (int k = 0; k < np; ++k)
    for (int c = 0; c < 3; ++c) {
      y[3 * k + c] = p->chaser_position[c] - d[c] * span * k / (m->N + 1);
      y[3 * np + 3 * k + c] = p->chaser_velocity[c];
    }
  double *bs = &y[m->boff];
  for (int c = 0; c < 3; ++c) {
    double xa = p->chaser_position[c] - d[c] * span;
    bs[MBDAE_RB_P + c] = xa - (C[3 * c] * p->attachment[0] + C[3 * c + 1] * p->attachment[1] +
                               C[3 * c + 2] * p->attachment[2]);
  }
  memcpy(&bs[MBDAE_RB_Q], q, 4 * sizeof *q);
  memcpy(&bs[MBDAE_RB_W], p->body_omega, 3 * sizeof *bs);
  memcpy(&bs[MBDAE_RB_U], p->chaser_velocity, 3 * sizeof *bs); /* moving with the chaser */
  m->t0 = t0;
  m->t_last = t0;
  memcpy(m->y0, y, (size_t)m->n * sizeof *y);
  m->E0 = 0.0;
  tow_ledger L;
  tow_ledger_eval(m, t0, y, &L);
  m->E0 = L.kinetic + L.elastic + L.potential;
  for (int c = 0; c < 3; ++c) m->p0[c] = m->body->mass * bs[MBDAE_RB_U + c];
  for (int k = 0; k < np; ++k) {
    for (int c = 0; c < 3; ++c) m->p0[c] += m->m[k] * y[3 * np + 3 * k + c];
  }
  m->max_ledger_rel = m->max_momentum_rel = m->max_tension = 0.0;
  m->slack_taut_switches = 0;
  m->last_taut = L.taut;
  if (yp) {
    int rc = tow_rhs(m, t0, y, yp);
    if (rc) return rc > 0 ? MBDAE_ERR_CALLBACK : rc;
  }
  return MBDAE_OK;
}
