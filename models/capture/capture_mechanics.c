/* capture_mechanics.c - the net capture in second-order form for event
 * capturing (Moreau-Jean, solver.method moreau): mass, forces, position
 * update and the unilateral constraints with their velocity Jacobian
 * (capture_mechanics.h; derivation in doc/capture.md "Event capturing"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_mechanics.h"
#include "mbdae/mechanics.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static void cross3(const double *a, const double *b, double *o) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

void capture_mech_free(capture_mech **pme) {
  if (!pme || !*pme) return;
  capture_mech *me = *pme;
  free(me->qidx); free(me->vidx);
  free(me->mcolptr); free(me->mrowind);
  free(me->growptr); free(me->gcolind);
  free(me->restitution); free(me->normal); free(me->offset);
  free(me->face); free(me->y);
  free(me->tangent); free(me->f_rows); free(me->mu); free(me->trowptr); free(me->tcolind);
  free(me);
  *pme = NULL;
}

int capture_mech_create(capture_model *m, capture_mech **out) {
  if (!m || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  if (m->p.control == CAPTURE_CONTROL_ERROR_STAB) return MBDAE_ERR_UNSUPPORTED;
  int np = m->np, ns = m->ns, nf = m->body->nf;
  capture_mech *me = calloc(1, sizeof *me);
  if (!me) return MBDAE_ERR_MEMORY;
  me->nq = 3 * np + 7;
  me->nv = 3 * np + 6;
  me->nrows = ns + np;
  me->mnnz = 3 * np + 3 + 9;
  me->gnnz = 6 * (mbdae_index)ns + 9 * (mbdae_index)np;
  me->qidx = malloc((size_t)me->nq * sizeof *me->qidx);
  me->vidx = malloc((size_t)me->nv * sizeof *me->vidx);
  me->mcolptr = malloc((size_t)(me->nv + 1) * sizeof *me->mcolptr);
  me->mrowind = malloc((size_t)me->mnnz * sizeof *me->mrowind);
  me->growptr = malloc((size_t)(me->nrows + 1) * sizeof *me->growptr);
  me->gcolind = malloc((size_t)me->gnnz * sizeof *me->gcolind);
  me->restitution = malloc((size_t)me->nrows * sizeof *me->restitution);
  me->normal = malloc((size_t)nf * 3 * sizeof *me->normal);
  me->offset = malloc((size_t)nf * sizeof *me->offset);
  me->face = calloc((size_t)np, sizeof *me->face);
  me->y = calloc((size_t)m->n, sizeof *me->y);
  me->tangent = malloc((size_t)nf * 6 * sizeof *me->tangent);
  me->f_rows = malloc((size_t)np * sizeof *me->f_rows);
  me->mu = malloc((size_t)np * sizeof *me->mu);
  me->trowptr = malloc((size_t)(2 * np + 1) * sizeof *me->trowptr);
  me->tcolind = malloc((size_t)18 * np * sizeof *me->tcolind);
  if (!me->qidx || !me->vidx || !me->mcolptr || !me->mrowind || !me->growptr ||
      !me->gcolind || !me->restitution || !me->normal || !me->offset || !me->face || !me->y ||
      !me->tangent || !me->f_rows || !me->mu || !me->trowptr || !me->tcolind) {
    capture_mech_free(&me);
    return MBDAE_ERR_MEMORY;
  }
  /* q = (r, P, quat), v = (v_r, U, w) inside y = [r | v | P U quat w] */
  int b = m->boff;
  for (int i = 0; i < 3 * np; ++i) {
    me->qidx[i] = i;
    me->vidx[i] = 3 * np + i;
  }
  for (int c = 0; c < 3; ++c) {
    me->qidx[3 * np + c] = b + MBDAE_RB_P + c;
    me->vidx[3 * np + c] = b + MBDAE_RB_U + c;
    me->vidx[3 * np + 3 + c] = b + MBDAE_RB_W + c;
  }
  for (int c = 0; c < 4; ++c) me->qidx[3 * np + 3 + c] = b + MBDAE_RB_Q + c;
  /* M: diagonal up to U, then the dense 3 x 3 inertia block of w */
  mbdae_index z = 0;
  for (int j = 0; j < 3 * np + 3; ++j) {
    me->mcolptr[j] = z;
    me->mrowind[z++] = j;
  }
  for (int c = 0; c < 3; ++c) {
    me->mcolptr[3 * np + 3 + c] = z;
    for (int r = 0; r < 3; ++r) me->mrowind[z++] = 3 * np + 3 + r;
  }
  me->mcolptr[me->nv] = z;
  /* G: a string touches its two points (lower index first), a contact its
   * point, U and w */
  z = 0;
  for (int k = 0; k < ns; ++k) {
    int a = m->net->s[k].i, bb = m->net->s[k].j;
    int lo = a < bb ? a : bb, hi = a < bb ? bb : a;
    me->growptr[k] = z;
    for (int c = 0; c < 3; ++c) me->gcolind[z++] = 3 * lo + c;
    for (int c = 0; c < 3; ++c) me->gcolind[z++] = 3 * hi + c;
    me->restitution[k] = m->p.e_string;
  }
  for (int j = 0; j < np; ++j) {
    me->growptr[ns + j] = z;
    for (int c = 0; c < 3; ++c) me->gcolind[z++] = 3 * j + c;
    for (int c = 0; c < 6; ++c) me->gcolind[z++] = 3 * np + c;
    me->restitution[ns + j] = m->p.e_body;
  }
  me->growptr[me->nrows] = z;
  /* face planes A_f . X = 1 (eq. 2.44): n_f = A_f / |A_f|, d_f = 1 / |A_f| */
  for (int f = 0; f < nf; ++f) {
    const double *A = &m->body->A[3 * f];
    double a = sqrt(dot3(A, A));
    for (int c = 0; c < 3; ++c) me->normal[3 * f + c] = A[c] / a;
    me->offset[f] = 1.0 / a;
    /* tangents: n x e (e the axis least along n), then n x t1 */
    const double *n = &me->normal[3 * f];
    int ax = fabs(n[0]) <= fabs(n[1]) && fabs(n[0]) <= fabs(n[2]) ? 0 : fabs(n[1]) <= fabs(n[2]) ? 1 : 2;
    double e[3] = {0.0, 0.0, 0.0}, *t1 = &me->tangent[6 * f], *t2 = &me->tangent[6 * f + 3];
    e[ax] = 1.0;
    cross3(n, e, t1);
    double tn = sqrt(dot3(t1, t1));
    for (int c = 0; c < 3; ++c) t1[c] /= tn;
    cross3(n, t1, t2);
  }
  /* T: rows 2j, 2j + 1 on the columns of contact j's row of G */
  z = 0;
  for (int j = 0; j < np; ++j) {
    me->f_rows[j] = ns + j;
    me->mu[j] = m->p.friction;
    for (int r = 0; r < 2; ++r) {
      me->trowptr[2 * j + r] = z;
      for (int c = 0; c < 9; ++c) me->tcolind[z++] = me->gcolind[me->growptr[ns + j] + c];
    }
  }
  me->trowptr[2 * np] = z;
  *out = me;
  return MBDAE_OK;
}

void capture_mech_pack(const capture_model *m, const capture_mech *me, const double *y,
                       double *q, double *v) {
  (void)m;
  if (q)
    for (int i = 0; i < me->nq; ++i) q[i] = y[me->qidx[i]];
  if (v)
    for (int i = 0; i < me->nv; ++i) v[i] = y[me->vidx[i]];
}

void capture_mech_unpack(const capture_model *m, const capture_mech *me, const double *q,
                         const double *v, double *y) {
  (void)m;
  if (q)
    for (int i = 0; i < me->nq; ++i) y[me->qidx[i]] = q[i];
  if (v)
    for (int i = 0; i < me->nv; ++i) y[me->vidx[i]] = v[i];
}

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(x[i])) return 0;
  return 1;
}

int capture_mech_mass(double t, const double *q, double *values, void *ud) {
  (void)t; (void)q;
  const capture_model *m = ud;
  int np = m->np;
  for (int i = 0; i < np; ++i)
    for (int c = 0; c < 3; ++c) values[3 * i + c] = 1.0 / m->minv[i];
  for (int c = 0; c < 3; ++c) values[3 * np + c] = m->body->mass;
  /* column c of J holds rows 0..2 (J symmetric) */
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) values[3 * np + 3 + 3 * c + r] = m->body->J[3 * r + c];
  return 0;
}

/* Thrust of the minimum-thrust law on the points (eq. 4.3 with 4.23, open
 * loop in t), nothing on the body's centre, Euler's gyroscopic term
 * -w x J w (eq. 2.90 in body axes). */
int capture_mech_forces(double t, const double *q, const double *v, double *f, void *ud) {
  (void)q;
  capture_model *m = ud;
  int np = m->np;
  if (m->p.control == CAPTURE_CONTROL_MIN_THRUST) {
    int rc = capture_control_force(m, t, NULL, f);
    if (rc) return rc;
  } else {
    memset(f, 0, (size_t)(3 * np) * sizeof *f);
  }
  for (int c = 0; c < 3; ++c) f[3 * np + c] = 0.0;
  const double *w = &v[3 * np + 3];
  double Jw[3];
  for (int r = 0; r < 3; ++r) Jw[r] = dot3(&m->body->J[3 * r], w);
  cross3(w, Jw, &f[3 * np + 3]);
  for (int c = 0; c < 3; ++c) f[3 * np + 3 + c] = -f[3 * np + 3 + c];
  return all_finite(f, 3 * np + 6) ? 0 : 1;
}

/* r and P move along their velocities; the attitude turns by the rotation
 * vector h w in body axes: quat+ = quat (x) (cos(h|w|/2), sin(h|w|/2) w/|w|)
 * (the exact flow of quat' = 1/2 quat (x) (0, w) at constant w), then
 * normalised. */
int capture_mech_position_update(double h, const double *q, const double *v, double *q_new,
                                 void *ud) {
  const capture_model *m = ud;
  int n3 = 3 * m->np + 3;
  for (int i = 0; i < n3; ++i) q_new[i] = q[i] + h * v[i];
  const double *w = &v[n3], *a = &q[n3];
  double wn = sqrt(dot3(w, w)), half = 0.5 * h * wn;
  /* sin(half) / |w|, exact to round-off for small angles */
  double s = half < 1e-4 ? 0.5 * h * (1.0 - half * half / 6.0) : sin(half) / wn;
  double d[4] = {cos(half), s * w[0], s * w[1], s * w[2]};
  double *o = &q_new[n3];
  o[0] = a[0] * d[0] - a[1] * d[1] - a[2] * d[2] - a[3] * d[3];
  o[1] = a[0] * d[1] + a[1] * d[0] + a[2] * d[3] - a[3] * d[2];
  o[2] = a[0] * d[2] - a[1] * d[3] + a[2] * d[0] + a[3] * d[1];
  o[3] = a[0] * d[3] + a[1] * d[2] - a[2] * d[1] + a[3] * d[0];
  double nrm = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
  if (!(nrm > 0.0) || !isfinite(nrm)) return 1;
  for (int c = 0; c < 4; ++c) o[c] /= nrm;
  return all_finite(q_new, n3) ? 0 : 1;
}

/* Body-axes position X = C^T (r - P) of point j and its largest signed
 * face-plane distance: returns the face, *g the distance. */
static int body_gap(const capture_model *m, const capture_mech *me, const double *C,
                    const double *r, const double *P, double *X, double *g) {
  double rho[3] = {r[0] - P[0], r[1] - P[1], r[2] - P[2]};
  for (int c = 0; c < 3; ++c) X[c] = C[c] * rho[0] + C[3 + c] * rho[1] + C[6 + c] * rho[2];
  int best = 0;
  double gmax = -HUGE_VAL;
  for (int f = 0; f < m->body->nf; ++f) {
    double gf = dot3(&me->normal[3 * f], X) - me->offset[f];
    if (gf > gmax) { gmax = gf; best = f; }
  }
  *g = gmax;
  return best;
}

int capture_mech_gap(double t, const double *q, double *g, void *ud) {
  (void)t;
  capture_model *m = ud;
  capture_mech *me = m->mech;
  int np = m->np, ns = m->ns;
  for (int k = 0; k < ns; ++k) {
    const sn_string *st = &m->net->s[k];
    const double *ri = &q[3 * st->i], *rj = &q[3 * st->j];
    double S[3] = {rj[0] - ri[0], rj[1] - ri[1], rj[2] - ri[2]};
    g[k] = st->L - sqrt(dot3(S, S));
  }
  double C[9], X[3];
  const double *P = &q[3 * np];
  mbdae_rb_rotation(&q[3 * np + 3], C);
  for (int j = 0; j < np; ++j) me->face[j] = body_gap(m, me, C, &q[3 * j], P, X, &g[ns + j]);
  return all_finite(g, ns + np) ? 0 : 1;
}

/* The 9 entries of d . X' for a direction d in body axes at the body-axes
 * point X (X' = C^T (v - U) - w x X): C d on the point's velocity, -C d on
 * U, d x X on w. */
static void contact_row(const double *C, const double *d, const double *X, double *val) {
  double dx[3];
  cross3(d, X, dx);
  for (int c = 0; c < 3; ++c) {
    double D = dot3(&C[3 * c], d);
    val[c] = D;
    val[3 + c] = -D;
    val[6 + c] = dx[c];
  }
}

int capture_mech_gap_jacobian(double t, const double *q, double *values, void *ud) {
  (void)t;
  capture_model *m = ud;
  capture_mech *me = m->mech;
  int np = m->np, ns = m->ns;
  double *val = values;
  for (int k = 0; k < ns; ++k) {
    const sn_string *st = &m->net->s[k];
    const double *ri = &q[3 * st->i], *rj = &q[3 * st->j];
    double S[3] = {rj[0] - ri[0], rj[1] - ri[1], rj[2] - ri[2]};
    double len = sqrt(dot3(S, S));
    /* coincident ends (the launch): g = L, far from active; no direction */
    double inv = len > 1e-12 * st->L ? 1.0 / len : 0.0;
    /* dg/dt = -n . (v_j - v_i): +n on v_i, -n on v_j, lower index first */
    double si = st->i < st->j ? 1.0 : -1.0;
    for (int c = 0; c < 3; ++c) {
      double n = S[c] * inv;
      val[c] = si * n;
      val[3 + c] = -si * n;
    }
    val += 6;
  }
  double C[9], X[3], g;
  const double *P = &q[3 * np];
  mbdae_rb_rotation(&q[3 * np + 3], C);
  for (int j = 0; j < np; ++j) {
    int f = body_gap(m, me, C, &q[3 * j], P, X, &g);
    me->face[j] = f;
    /* g = n_f . X - d_f, X' = C^T (v - U) - w x X:
     * g' = N . (v - U) + (n_f x X) . w, N = C n_f */
    contact_row(C, &me->normal[3 * f], X, val);
    val += 9;
  }
  return all_finite(values, (int)me->gnnz) ? 0 : 1;
}

int capture_mech_tangent_jacobian(double t, const double *q, double *values, void *ud) {
  (void)t;
  capture_model *m = ud;
  capture_mech *me = m->mech;
  int np = m->np;
  double C[9], X[3], g;
  const double *P = &q[3 * np];
  mbdae_rb_rotation(&q[3 * np + 3], C);
  double *val = values;
  for (int j = 0; j < np; ++j) {
    int f = body_gap(m, me, C, &q[3 * j], P, X, &g);
    /* as g' in capture_mech_gap_jacobian with n_f replaced by a tangent:
     * t . X' = (C t) . (v - U) + (t x X) . w */
    for (int r = 0; r < 2; ++r) {
      contact_row(C, &me->tangent[6 * f + 3 * r], X, val);
      val += 9;
    }
  }
  return all_finite(values, 18 * np) ? 0 : 1;
}

int capture_mech_impulses(double t, double h, const double *impulse, void *ud) {
  (void)t;
  capture_model *m = ud;
  capture_mech *me = m->mech;
  double big = 0.0;
  for (int k = 0; k < m->nc; ++k) big = fmax(big, fabs(impulse[k]));
  /* a row carries force when its impulse is above round-off of the step's largest */
  double thr = 1e-12 * big;
  for (int k = 0; k < m->nc; ++k) {
    int on = impulse[k] > thr && big > 0.0;
    if (on && !m->active[k]) ++m->impacts;
    if (!on && m->active[k]) ++m->releases;
    m->active[k] = on;
    m->lambda[k] = h > 0.0 ? impulse[k] / h : 0.0;
  }
  ++me->steps;
  return 0;
}

void capture_mech_release(capture_model *m) {
  if (m) capture_mech_free(&m->mech);
}

int capture_mech_attach(capture_model *m) {
  capture_mech *me = NULL;
  int rc = capture_mech_create(m, &me);
  if (rc) return rc;
  capture_mech_free(&m->mech);
  m->mech = me;
  mbdae_problem *pr = m->problem;
  rc = mbdae_problem_set_mechanics(pr, me->nq, me->nv, me->qidx, me->vidx);
  if (!rc) rc = mbdae_problem_set_mass(pr, me->mnnz, me->mcolptr, me->mrowind, 1, capture_mech_mass);
  if (!rc) rc = mbdae_problem_set_forces(pr, capture_mech_forces);
  if (!rc) rc = mbdae_problem_set_position_update(pr, capture_mech_position_update);
  if (!rc)
    rc = mbdae_problem_set_constraints(pr, me->nrows, 0, me->gnnz, me->growptr, me->gcolind,
                                       capture_mech_gap, capture_mech_gap_jacobian,
                                       me->restitution);
  if (!rc) rc = mbdae_problem_set_impulse_observer(pr, capture_mech_impulses);
  if (!rc && m->p.friction > 0.0)
    rc = mbdae_problem_set_friction(pr, m->np, me->f_rows, me->mu, 18 * (mbdae_index)m->np,
                                    me->trowptr, me->tcolind, capture_mech_tangent_jacobian);
  return rc;
}
