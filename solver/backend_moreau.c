/* backend_moreau.c - Moreau-Jean event-capturing time stepping (the theta
 * scheme with Newton's impact law at velocity level) on a problem's
 * mechanical form (mbdae/mechanics.h); doc/moreau.md.
 *
 * One step from (t_k, q_k, v_k) with length h:
 *   M = M(t_k, q_k);  f_theta = theta f(t_k+1, q_k, v_k) + (1 - theta) f(t_k, q_k, v_k)
 *   index set: unilateral rows with g_i(q_k) + activation h U_i <= 0, where
 *              U = G(q_k) v_k; every bilateral row
 *   Gp = G(q_k (+) h v_k), the Jacobian at the predicted end of the step
 *   M (v_k+1 - v_k) = h f_theta + Gp^T P,
 *   unilateral rows of the set: 0 <= P_i  complementary  U_i+ + e_i U_i >= 0
 *   (U+ = Gp v_k+1), bilateral rows: U_i+ = 0, the others: P_i = 0
 *   q_k+1 = q_k (+) h (theta v_k+1 + (1 - theta) v_k)   (the position update)
 * Gp is where Siconos' MoreauJeanOSI evaluates the relation's Jacobian (its
 * Newton loop starts from q_k + h v_k and, for dynamics linear in v,
 * converges in that one iteration); with G(q_k) instead, a taut string
 * turning at rate w stretches by about L (w h)^2 / 2 every step, which
 * nothing takes back (1e-3 per simulated second on the bola at h = 1e-3).
 * The impulses P are the nonsmooth problem of nonsmooth.c. Roots and event
 * handlers of the model are not used: the scheme captures the events inside
 * its steps, so cost follows steps, not events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"
#include "mbdae/status.h"
#include "mechanics_impl.h"
#include "friction.h"
#include "nonsmooth.h"

typedef struct moreau_backend {
  const mbdae_mechanics *m;
  int nq, nv, nc, nu;
  double t0;          /* start of this run's grid */
  long k;             /* steps taken from t0 */
  double t;           /* current grid time */
  double *q, *v;      /* state at t */
  double *q_prev, *v_prev, *vth; /* the last step's start and its v_theta */
  double t_prev;
  int have_prev;
  double *mx;         /* mass values (pattern order) */
  int mass_ready;
  double *f0, *f1, *r, *gap, *gx, *gxp, *U, *b, *P, *vnew, *qnew, *dv, *mdv;
  unsigned char *in_set;
  ns_solver *ns;
  /* Coulomb friction (mechanics.h): its solver, T at the predicted end, Pt */
  fc_solver *fc;
  double *tx, *Pt;
  /* whether ns and fc have each factorised the current W (a step may hand
   * W to either; a constant W is handed over once to each) */
  int ns_w_seen, fc_w_seen;
  double kinetic, potential;  /* at t */
  /* statistics */
  long steps, force_evals, iters, fallbacks, set_max;
  double set_sum, max_violation, max_rise, work_impulses, dissipated, work_applied;
  long projections;
  double max_projected;
} moreau_backend;

static double dot(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* y = M x with the CSC mass values. */
static void mass_mult(const moreau_backend *b, const double *x, double *y) {
  const mbdae_mechanics *m = b->m;
  memset(y, 0, (size_t)b->nv * sizeof *y);
  for (int j = 0; j < b->nv; ++j)
    for (mbdae_index k = m->m_colptr[j]; k < m->m_colptr[j + 1]; ++k)
      y[m->m_rowind[k]] += b->mx[k] * x[j];
}

static void gather(const moreau_backend *b, const double *y) {
  for (int i = 0; i < b->nq; ++i) b->q[i] = y[b->m->qidx[i]];
  for (int i = 0; i < b->nv; ++i) b->v[i] = y[b->m->vidx[i]];
}

static void scatter(const moreau_backend *b, const double *q, const double *v, double *y) {
  for (int i = 0; i < b->nq; ++i) y[b->m->qidx[i]] = q[i];
  for (int i = 0; i < b->nv; ++i) y[b->m->vidx[i]] = v[i];
}

/* A model callback's failure: t, which callback, and its status. */
static int callback_failed(mbdae_engine *e, const char *what, double t, int rc) {
  snprintf(e->msg, sizeof e->msg,
           "moreau: the model's %s failed (status %d) at t=%.12g in mode '%s'", what, rc, t,
           mbdae_engine_mode(e));
  return MBDAE_ERR_CALLBACK;
}

static int nonfinite(mbdae_engine *e, const char *what, const double *x, int n, double t) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(x[i])) {
      snprintf(e->msg, sizeof e->msg,
               "moreau: the model's %s returned %g in entry %d at t=%.12g in mode '%s'", what,
               x[i], i, t, mbdae_engine_mode(e));
      return MBDAE_ERR_CALLBACK;
    }
  return MBDAE_OK;
}

static int eval_mass(mbdae_engine *e, double t) {
  moreau_backend *b = e->backend;
  if (b->mass_ready && b->m->m_constant) return MBDAE_OK;
  int rc = b->m->mass(t, b->q, b->mx, e->p->user_data);
  if (rc) return callback_failed(e, "mass matrix", t, rc);
  b->mass_ready = 1;
  return nonfinite(e, "mass matrix", b->mx, (int)b->m->m_nnz, t);
}

/* Energies at the current state. */
static int eval_energy(mbdae_engine *e) {
  moreau_backend *b = e->backend;
  mass_mult(b, b->v, b->mdv);
  b->kinetic = 0.5 * dot(b->v, b->mdv, b->nv);
  b->potential = 0.0;
  if (b->m->potential) {
    int rc = b->m->potential(b->t, b->q, &b->potential, e->p->user_data);
    if (rc) return callback_failed(e, "potential", b->t, rc);
  }
  return MBDAE_OK;
}

/* g and G at the current state; the largest violation. */
static int eval_constraints(mbdae_engine *e, double *violation) {
  moreau_backend *b = e->backend;
  const mbdae_mechanics *m = b->m;
  *violation = 0.0;
  if (b->nc == 0) return MBDAE_OK;
  int rc = m->gap(b->t, b->q, b->gap, e->p->user_data);
  if (rc) return callback_failed(e, "constraint values", b->t, rc);
  rc = m->gap_jac(b->t, b->q, b->gx, e->p->user_data);
  if (rc) return callback_failed(e, "constraint Jacobian", b->t, rc);
  rc = nonfinite(e, "constraint values", b->gap, b->nc, b->t);
  if (!rc) rc = nonfinite(e, "constraint Jacobian", b->gx, (int)m->g_nnz, b->t);
  for (int i = 0; i < b->nc; ++i) {
    double vi = i < b->nu ? -b->gap[i] : fabs(b->gap[i]);
    if (vi > *violation) *violation = vi;
  }
  return rc;
}

static void moreau_destroy(mbdae_engine *e) {
  moreau_backend *b = e->backend;
  if (!b) return;
  ns_free(&b->ns);
  fc_free(&b->fc);
  double *arrays[] = {b->q, b->v, b->q_prev, b->v_prev, b->vth, b->mx, b->f0, b->f1,
                      b->r, b->gap, b->gx, b->gxp, b->U, b->b, b->P, b->vnew, b->qnew,
                      b->dv, b->mdv, b->tx, b->Pt};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i) free(arrays[i]);
  free(b->in_set);
  free(b);
  e->backend = NULL;
}

static int moreau_reinit(mbdae_engine *e) {
  moreau_backend *b = e->backend;
  /* the step grid t0 + k h of the whole run, also when it is integrated in
   * segments (mbdae_carry): a segment starts on the run's grid */
  const double h = e->o->moreau_step;
  b->t0 = e->o->carry ? e->o->carry->grid_t0 : e->t;
  b->k = (long)floor((e->t - b->t0) / h + 1e-6);
  if (b->k < 0) b->k = 0;
  b->t = e->t;
  b->have_prev = 0;
  gather(b, e->y);
  memset(e->yp, 0, (size_t)e->n * sizeof *e->yp);
  double viol;
  int rc = eval_mass(e, b->t);
  if (!rc) rc = eval_constraints(e, &viol);
  if (!rc) rc = eval_energy(e);
  return rc;
}

static int moreau_create(mbdae_engine *e) {
  const mbdae_mechanics *m = e->p->mech;
  moreau_backend *b = calloc(1, sizeof *b);
  if (!b) return MBDAE_ERR_MEMORY;
  e->backend = b;
  b->m = m;
  b->nq = m->nq;
  b->nv = m->nv;
  b->nu = m->nu;
  b->nc = m->nu + m->nb;
  size_t nq = (size_t)b->nq, nv = (size_t)b->nv, nc = (size_t)(b->nc > 0 ? b->nc : 1);
  size_t gnnz = (size_t)(m->g_nnz > 0 ? m->g_nnz : 1);
  b->q = calloc(nq, sizeof(double));
  b->q_prev = calloc(nq, sizeof(double));
  b->qnew = calloc(nq, sizeof(double));
  double **vecs[] = {&b->v, &b->v_prev, &b->vth, &b->f0, &b->f1, &b->r, &b->vnew, &b->dv, &b->mdv};
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i) *vecs[i] = calloc(nv, sizeof(double));
  b->mx = calloc((size_t)m->m_nnz, sizeof(double));
  b->gap = calloc(nc, sizeof(double));
  b->U = calloc(nc, sizeof(double));
  b->b = calloc(nc, sizeof(double));
  b->P = calloc(nc, sizeof(double));
  b->gx = calloc(gnnz, sizeof(double));
  b->gxp = calloc(gnnz, sizeof(double));
  b->in_set = calloc(nc, 1);
  for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; ++i)
    if (!*vecs[i]) return MBDAE_ERR_MEMORY;
  if (!b->q || !b->q_prev || !b->qnew || !b->mx || !b->gap || !b->U || !b->b || !b->P ||
      !b->gx || !b->gxp || !b->in_set)
    return MBDAE_ERR_MEMORY;
  char why[256] = "";
  b->ns = ns_create(b->nv, m->m_colptr, m->m_rowind, b->nc, b->nu, m->g_rowptr, m->g_colind,
                    why, sizeof why);
  if (!b->ns) {
    snprintf(e->msg, sizeof e->msg, "moreau: %s", why);
    return MBDAE_ERR_MEMORY;
  }
  if (m->nf > 0) {
    b->tx = calloc((size_t)m->t_nnz, sizeof(double));
    b->Pt = calloc(2 * (size_t)m->nf, sizeof(double));
    if (!b->tx || !b->Pt) return MBDAE_ERR_MEMORY;
    b->fc = fc_create(b->nv, m->m_colptr, m->m_rowind, b->nc, b->nu, m->g_rowptr, m->g_colind,
                      m->nf, m->f_rows, m->mu, m->t_rowptr, m->t_colind, why, sizeof why);
    if (!b->fc) {
      snprintf(e->msg, sizeof e->msg, "moreau: %s", why);
      return MBDAE_ERR_MEMORY;
    }
  }
  return moreau_reinit(e);
}

/* Position projection after a step (solver.projection): the smallest
 * correction in the metric of M that puts the violated unilateral rows
 * back on g >= 0 and the bilateral rows on g = 0,
 *     min |dq|_M^2 / 2   s.t.  g_i + G_i dq >= 0 (g_i <= 0),  g_i + G_i dq = 0 (bilateral),
 * is the same complementarity problem as the step's (W = M, r = 0, b = g),
 * repeated (Gauss-Newton) until the violation is at most projection_tol;
 * q (+) dq through the position update with h = 1. Velocities are kept (the
 * direct projection of Siconos' MoreauJeanDirectProjectionOSI). A violation
 * the iteration cannot remove in NS_PROJECTION_ITERS rounds ends the run. */
#define NS_PROJECTION_ITERS 10
static int project(mbdae_engine *e, double *viol) {
  moreau_backend *b = e->backend;
  const mbdae_mechanics *m = b->m;
  const mbdae_options *o = e->o;
  const double before = *viol;
  memset(b->r, 0, (size_t)b->nv * sizeof *b->r);
  for (int it = 1; it <= NS_PROJECTION_ITERS; ++it) {
    /* rows within the violation of their surface too: a correction that
     * pushes a violated row out must not push a satisfied neighbour in (a
     * taut string next to a point pushed out of the body), or the rounds
     * only pass the violation around */
    const double margin = *viol;
    for (int i = 0; i < b->nc; ++i) {
      b->in_set[i] = i >= b->nu || b->gap[i] <= margin;
      b->b[i] = b->gap[i];
      b->U[i] = 0.0; /* the multipliers, cold */
    }
    ns_input in = {.Wx = b->mx, .w_changed = !b->ns_w_seen, .Gx = b->gx, .r = b->r,
                   .b = b->b, .in_set = b->in_set, .tol = o->nonsmooth_tol,
                   .max_iter = o->nonsmooth_max_iter};
    ns_result res;
    char why[512] = "";
    int rc = ns_solve(b->ns, &in, b->dv, b->U, &res, why, sizeof why);
    b->ns_w_seen = 1;
    if (rc) {
      snprintf(e->msg, sizeof e->msg, "moreau: position projection at t=%.12g: %s", b->t, why);
      return MBDAE_ERR_SOLVER;
    }
    rc = mbdae_mechanics_update(m, 1.0, b->q, b->dv, b->qnew, e->p->user_data);
    if (rc) return callback_failed(e, "position update", b->t, rc);
    memcpy(b->q, b->qnew, (size_t)b->nq * sizeof *b->q);
    if ((rc = eval_constraints(e, viol))) return rc;
    if (*viol <= o->projection_tol) {
      b->projections++;
      if (before > b->max_projected) b->max_projected = before;
      return MBDAE_OK;
    }
  }
  snprintf(e->msg, sizeof e->msg,
           "moreau: position projection at t=%.12g left a violation of %.3e > projection_tol "
           "%.3e after %d rounds (from %.3e)", b->t, *viol, o->projection_tol,
           NS_PROJECTION_ITERS, before);
  return MBDAE_ERR_SOLVER;
}

/* One step of length h from (b->t, b->q, b->v); on success the state moves
 * to t + h (the grid time t_next). */
static int moreau_step(mbdae_engine *e, double h, double t_next) {
  moreau_backend *b = e->backend;
  const mbdae_mechanics *m = b->m;
  const mbdae_options *o = e->o;
  void *ud = e->p->user_data;
  const int nv = b->nv, nc = b->nc, nu = b->nu;
  const double th = o->theta, t = b->t;
  if (mbdae_options_cancelled(o)) { /* seen at every step, as at every evaluation elsewhere */
    e->interrupted = 1;
    return MBDAE_STOPPED;
  }
  int rc = eval_mass(e, t);
  if (rc) return rc;
  /* forces at the step's ends, both from (q_k, v_k) */
  rc = m->forces(t, b->q, b->v, b->f0, ud);
  if (rc) return callback_failed(e, "forces", t, rc);
  rc = m->forces(t_next, b->q, b->v, b->f1, ud);
  if (rc) return callback_failed(e, "forces", t_next, rc);
  b->force_evals += 2;
  if ((rc = nonfinite(e, "forces", b->f0, nv, t)) ||
      (rc = nonfinite(e, "forces", b->f1, nv, t_next)))
    return rc;
  /* r = M v_k + h f_theta; f1 becomes f_theta */
  mass_mult(b, b->v, b->r);
  for (int j = 0; j < nv; ++j) {
    b->f1[j] = th * b->f1[j] + (1.0 - th) * b->f0[j];
    b->r[j] += h * b->f1[j];
  }
  /* index set and the Newton law's right-hand side: w = U+ + e U- */
  int nset = 0;
  for (int i = 0; i < nc; ++i) {
    double Ui = 0.0;
    for (mbdae_index k = m->g_rowptr[i]; k < m->g_rowptr[i + 1]; ++k)
      Ui += b->gx[k] * b->v[m->g_colind[k]];
    b->U[i] = Ui;
    if (i < nu) {
      b->in_set[i] = b->gap[i] + o->activation * h * Ui <= 0.0;
      b->b[i] = m->restitution[i] * Ui;
    } else {
      b->in_set[i] = 1;
      b->b[i] = 0.0;
    }
    nset += b->in_set[i];
  }
  /* the Jacobian at the predicted end q_k (+) h v_k (only when a row is in the set) */
  const double *Gx = b->gx;
  if (nset > 0) {
    rc = mbdae_mechanics_update(m, h, b->q, b->v, b->qnew, ud);
    if (rc) return callback_failed(e, "position update", t_next, rc);
    rc = m->gap_jac(t_next, b->qnew, b->gxp, ud);
    if (rc) return callback_failed(e, "constraint Jacobian", t_next, rc);
    if ((rc = nonfinite(e, "constraint Jacobian", b->gxp, (int)m->g_nnz, t_next))) return rc;
    Gx = b->gxp;
  }
  /* friction: when a frictional contact is in the set, the friction solver
   * takes the whole problem, T at the predicted end as Gp */
  int friction = 0;
  for (int k = 0; k < m->nf && !friction; ++k) friction = b->in_set[m->f_rows[k]];
  if (m->nf > 0 && !friction) memset(b->Pt, 0, 2 * (size_t)m->nf * sizeof *b->Pt);
  if (friction) {
    rc = m->tangents(t_next, b->qnew, b->tx, ud);
    if (rc) return callback_failed(e, "tangent Jacobian", t_next, rc);
    if ((rc = nonfinite(e, "tangent Jacobian", b->tx, (int)m->t_nnz, t_next))) return rc;
  }
  const int w_changed = !m->m_constant || b->steps == 0;
  if (w_changed) b->ns_w_seen = b->fc_w_seen = 0;
  ns_result res;
  char why[512] = "";
  if (friction) {
    fc_input fin = {.Wx = b->mx, .w_changed = !b->fc_w_seen, .Gx = Gx, .Tx = b->tx, .r = b->r,
                    .b = b->b, .in_set = b->in_set, .tol = o->nonsmooth_tol,
                    .max_sweeps = NS_FRICTION_SWEEPS, .max_newton = NS_FRICTION_NEWTON};
    rc = fc_solve(b->fc, &fin, b->vnew, b->P, b->Pt, &res, why, sizeof why);
    b->fc_w_seen = rc != -2;
    b->iters += res.sweeps;
  } else {
    ns_input in = {.Wx = b->mx, .w_changed = !b->ns_w_seen, .Gx = Gx, .r = b->r, .b = b->b,
                   .in_set = b->in_set, .tol = o->nonsmooth_tol,
                   .max_iter = o->nonsmooth_max_iter};
    rc = ns_solve(b->ns, &in, b->vnew, b->P, &res, why, sizeof why);
    b->ns_w_seen = 1;
    b->iters += res.iterations;
    if (res.sweeps > 0) b->fallbacks++;
  }
  if (rc) {
    snprintf(e->msg, sizeof e->msg, "moreau: at t=%.12g (step %ld, h=%.3g): %s", t_next,
             b->steps + 1, h, why);
    return MBDAE_ERR_SOLVER;
  }
  /* v_theta, the position update, the ledger */
  for (int j = 0; j < nv; ++j) {
    b->vth[j] = th * b->vnew[j] + (1.0 - th) * b->v[j];
    b->dv[j] = b->vnew[j] - b->v[j];
  }
  rc = mbdae_mechanics_update(m, h, b->q, b->vth, b->qnew, ud);
  if (rc) return callback_failed(e, "position update", t_next, rc);
  if ((rc = nonfinite(e, "position update", b->qnew, b->nq, t_next))) return rc;
  double work_applied = h * dot(b->vth, b->f1, nv);
  double work_imp = 0.0;
  for (int i = 0; i < nc; ++i) {
    if (b->P[i] == 0.0) continue;
    double Up = 0.0;
    for (mbdae_index k = m->g_rowptr[i]; k < m->g_rowptr[i + 1]; ++k)
      Up += Gx[k] * b->vth[m->g_colind[k]];
    work_imp += b->P[i] * Up;
  }
  for (int r = 0; friction && r < 2 * m->nf; ++r) {
    if (b->Pt[r] == 0.0) continue;
    double Ut = 0.0;
    for (mbdae_index k = m->t_rowptr[r]; k < m->t_rowptr[r + 1]; ++k)
      Ut += b->tx[k] * b->vth[m->t_colind[k]];
    work_imp += b->Pt[r] * Ut;
  }
  mass_mult(b, b->dv, b->mdv);
  double diss = (th - 0.5) * dot(b->dv, b->mdv, nv);
  const double e_before = b->kinetic + b->potential;
  /* move to t_next */
  memcpy(b->q_prev, b->q, (size_t)b->nq * sizeof *b->q);
  memcpy(b->v_prev, b->v, (size_t)nv * sizeof *b->v);
  b->t_prev = t;
  b->have_prev = 1;
  memcpy(b->q, b->qnew, (size_t)b->nq * sizeof *b->q);
  memcpy(b->v, b->vnew, (size_t)nv * sizeof *b->v);
  b->t = t_next;
  b->k++;
  b->steps++;
  double viol;
  if ((rc = eval_constraints(e, &viol))) return rc;
  if (o->projection && viol > o->projection_tol && (rc = project(e, &viol))) return rc;
  if ((rc = eval_energy(e))) return rc;
  const double rise = b->kinetic + b->potential - e_before;
  b->set_sum += nset;
  if (nset > b->set_max) b->set_max = nset;
  if (viol > b->max_violation) b->max_violation = viol;
  if (b->steps == 1 || rise > b->max_rise) b->max_rise = rise;
  b->work_impulses += work_imp;
  b->dissipated += diss;
  b->work_applied += work_applied;
  if (m->impulses) {
    rc = m->impulses(t_next, h, b->P, ud);
    if (rc < 0) return callback_failed(e, "impulse observer", t_next, rc);
  }
  if (o->step_observer) {
    scatter(b, b->q, b->v, e->y);
    mbdae_step_record rec = {
      .t = t_next, .h = h, .kinetic = b->kinetic, .potential = b->potential,
      .work_applied = work_applied, .work_impulses = work_imp, .dissipated_scheme = diss,
      .energy_rise = rise, .violation = viol, .residual = res.residual, .index_set = nset,
      .positive = res.positive, .iterations = res.iterations + res.sweeps, .y = e->y};
    rc = o->step_observer(&rec, o->step_data);
    if (rc > 0) return MBDAE_STOPPED;
    if (rc < 0) {
      snprintf(e->msg, sizeof e->msg, "moreau: the step observer failed at t=%.12g", t_next);
      return MBDAE_ERR_CALLBACK;
    }
  }
  return MBDAE_OK;
}

/* The output state at tout inside the last step (t_prev, t]: positions on
 * the step's path q_prev (+) s v_theta, velocities linear in time. */
static int interpolate(mbdae_engine *e, double tout) {
  moreau_backend *b = e->backend;
  const double s = tout - b->t_prev, h = b->t - b->t_prev;
  int rc = mbdae_mechanics_update(b->m, s, b->q_prev, b->vth, b->qnew, e->p->user_data);
  if (rc) return callback_failed(e, "position update", tout, rc);
  const double a = h > 0.0 ? s / h : 1.0;
  for (int j = 0; j < b->nv; ++j) b->dv[j] = (1.0 - a) * b->v_prev[j] + a * b->v[j];
  scatter(b, b->qnew, b->dv, e->y);
  return MBDAE_OK;
}

/* Observers see the last step's mean rates: q' = (q_k+1 - q_k)/h (in the
 * layout of y; v_theta when nq = nv) and v' = (v_k+1 - v_k)/h. */
static void rates(mbdae_engine *e) {
  moreau_backend *b = e->backend;
  if (!b->have_prev) return;
  const double h = b->t - b->t_prev;
  for (int i = 0; i < b->nq; ++i) e->yp[b->m->qidx[i]] = (b->q[i] - b->q_prev[i]) / h;
  for (int j = 0; j < b->nv; ++j) e->yp[b->m->vidx[j]] = (b->v[j] - b->v_prev[j]) / h;
}

static int moreau_advance(mbdae_engine *e, double tout, int *root) {
  moreau_backend *b = e->backend;
  const mbdae_options *o = e->o;
  const double h = o->moreau_step, tiny = 1e-9 * h;
  *root = 0;
  while (b->t < tout - tiny) {
    /* grid t0 + k h computed from k; the last step ends at t_end exactly */
    double t_next = b->t0 + (double)(b->k + 1) * h;
    if (t_next > o->t_end - tiny) t_next = o->t_end;
    int rc = moreau_step(e, t_next - b->t, t_next);
    if (rc == MBDAE_STOPPED) {
      e->t = b->t;
      scatter(b, b->q, b->v, e->y);
      rates(e);
      return MBDAE_STOPPED;
    }
    if (rc) {
      e->t = b->t; /* the last good state */
      scatter(b, b->q, b->v, e->y);
      return rc;
    }
  }
  rates(e);
  if (b->t > tout + tiny && b->have_prev) {
    e->t = tout;
    return interpolate(e, tout);
  }
  e->t = fabs(b->t - tout) <= tiny ? tout : b->t;
  scatter(b, b->q, b->v, e->y);
  return MBDAE_OK;
}

static int moreau_root_info(mbdae_engine *e, int *dirs) {
  for (int i = 0; i < e->p->nroots; ++i) dirs[i] = 0;
  return MBDAE_OK;
}

static void moreau_stats(mbdae_engine *e, mbdae_stats *s) {
  moreau_backend *b = e->backend;
  memset(s, 0, sizeof *s);
  s->steps = b->steps;
  s->rhs_evals = b->force_evals;
  s->newton_iters = b->iters;
  s->nonsmooth_iters = b->iters;
  s->nonsmooth_fallbacks = b->fallbacks;
  s->index_set_max = b->set_max;
  s->index_set_mean = b->steps > 0 ? b->set_sum / (double)b->steps : 0.0;
  s->max_violation = b->max_violation;
  s->max_energy_rise = b->max_rise;
  s->work_impulses = b->work_impulses;
  s->dissipated_scheme = b->dissipated;
  s->work_applied = b->work_applied;
  s->projections = b->projections;
  s->max_violation_before = b->max_projected;
  s->last_step = e->o->moreau_step;
}

const mbdae_backend_ops mbdae_backend_moreau = {
  "moreau", moreau_create, moreau_advance, moreau_root_info, moreau_reinit, NULL,
  moreau_stats, moreau_destroy};
