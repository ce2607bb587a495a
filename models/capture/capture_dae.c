/* capture_dae.c - the DAE (IDA) form of the net-capture model: residual,
 * consistent state, roots and events (capps eqs. 2.39, 2.69, 2.90 with the
 * multipliers kept as unknowns, the acceleration-level rows of eq. 2.102
 * with Baumgarte's term, eqs. 3.1-3.2; with baumgarte_forces: unilateral
 * the forced / free split of the active rows is fixed between events and
 * switched at located roots). The Jacobian is in capture_dae_jacobian.c;
 * the derivation in doc/capture.md "DAE form". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_dae.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

/* same margin as the ODE form's roots (capture_model.c) */

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

double capdae_row_scale(const capture_model *m, int k) {
  if (k < m->ns) return 0.5 / m->net->s[k].L;
  const double *A = &m->body->A[3 * m->face[k - m->ns]];
  return 0.5 / sqrt(dot3(A, A));
}

int capdae_acceleration_row(const capture_model *m, int k) {
  if (!m->active[k]) return 0;
  return m->p.forces != CAPTURE_FORCES_UNILATERAL || m->forced[k];
}

/* y index of entry i of the generalised velocity u = (v, U, w). */
static int u_to_y(const capture_model *m, int i) {
  int np3 = 3 * m->np;
  if (i < np3) return np3 + i;
  i -= np3;
  return m->boff + (i < 3 ? MBDAE_RB_U + i : MBDAE_RB_W + i - 3);
}

/* u' from yp. */
static void accelerations_from_yp(const capture_model *m, const double *yp, double *up) {
  int np3 = 3 * m->np;
  memcpy(up, &yp[np3], (size_t)np3 * sizeof *up);
  memcpy(&up[np3], &yp[m->boff + MBDAE_RB_U], 3 * sizeof *up);
  memcpy(&up[np3 + 3], &yp[m->boff + MBDAE_RB_W], 3 * sizeof *up);
}

/* F(t, y, y') = 0, rows in the layout of y:
 *   r' - v;  m_i v_i' - F_i - sum_k (G_k^T lambda_k)_{v_i}           (eq. 2.39)
 *   P' - U;  m_P U' - sum_k (G_k^T lambda_k)_U                        (eq. 2.69)
 *   q' - 1/2 q (x) (0, w);  J w' + w x J w - sum_k (G_k^T lambda_k)_w (eq. 2.90)
 *   active k: s_k (G_k u' + gamma_k + 2 xi w c_k' + w^2 c_k)   (eqs. 2.102, 3.2)
 *   inactive k: lambda_k.
 * With unilateral forces an active row that is free (not forced) has
 * lambda_k = 0 as well (capdae_acceleration_row). */
static int dae_residual(double t, const double *y, const double *yp, double *res, void *ud) {
  capture_model *m = ud;
  const struct capture_dae *d = m->dae;
  int np = m->np, np3 = 3 * np;
  capture_rows(m, y);
  double *F = m->Fwork;
  memset(F, 0, (size_t)m->nu * sizeof *F);
  if (m->p.control == CAPTURE_CONTROL_MIN_THRUST) {
    int rc = capture_control_force(m, t, y, F);
    if (rc) return rc;
  }
  for (int i = 0; i < np3; ++i) {
    res[i] = yp[i] - y[np3 + i];
    res[np3 + i] = yp[np3 + i] / m->minv[i / 3] - F[i];
  }
  const double *bs = &y[m->boff], *bp = &yp[m->boff];
  double *rb = &res[m->boff];
  const double *J = m->body->J, *w = &bs[MBDAE_RB_W], *wp = &bp[MBDAE_RB_W];
  double qd[4], h[3];
  mbdae_rb_quat_rate(&bs[MBDAE_RB_Q], w, qd);
  for (int i = 0; i < 3; ++i) h[i] = J[3 * i] * w[0] + J[3 * i + 1] * w[1] + J[3 * i + 2] * w[2];
  double wxh[3] = {w[1] * h[2] - w[2] * h[1], w[2] * h[0] - w[0] * h[2], w[0] * h[1] - w[1] * h[0]};
  for (int i = 0; i < 3; ++i) {
    rb[MBDAE_RB_P + i] = bp[MBDAE_RB_P + i] - bs[MBDAE_RB_U + i];
    rb[MBDAE_RB_U + i] = m->body->mass * bp[MBDAE_RB_U + i];
    rb[MBDAE_RB_W + i] = J[3 * i] * wp[0] + J[3 * i + 1] * wp[1] + J[3 * i + 2] * wp[2] + wxh[i];
  }
  for (int i = 0; i < 4; ++i) rb[MBDAE_RB_Q + i] = bp[MBDAE_RB_Q + i] - qd[i];
  double *up = d->up;
  accelerations_from_yp(m, yp, up);
  for (int k = 0; k < m->nc; ++k) {
    const capture_row *r = &m->rows[k];
    double lam = y[d->loff + k], gu = 0.0;
    for (int i = 0; i < r->nz; ++i) {
      res[u_to_y(m, r->idx[i])] -= lam * r->val[i]; /* reaction G_k^T lambda_k */
      gu += r->val[i] * up[r->idx[i]];
    }
    if (!capdae_acceleration_row(m, k)) {
      res[d->loff + k] = lam;
      continue;
    }
    int is_string = k < m->ns;
    double xi = is_string ? m->p.xi_string : m->p.xi_body;
    double wn = is_string ? m->p.omega_string : m->p.omega_body;
    res[d->loff + k] = capdae_row_scale(m, k) *
                       (gu + r->gamma + 2.0 * xi * wn * r->cdot + wn * wn * r->c);
  }
  for (int i = 0; i < d->n; ++i)
    if (!isfinite(res[i])) return 1;
  return 0;
}

/* lambda and yp from the ODE part of y; pivot 0 keeps the unilateral
 * forced flags (a mode between located roots), 1 solves for them */
static int consistent(capture_model *m, double t, double *y, double *yp, int pivot) {
  int np3 = 3 * m->np;
  capture_rows(m, y);
  double *acc = m->acc;
  int rc = pivot ? capture_accelerations(m, t, y, acc) : capture_accelerations_fixed(m, t, y, acc);
  if (rc) return rc < 0 ? rc : MBDAE_ERR_CALLBACK;
  memcpy(yp, &y[np3], (size_t)np3 * sizeof *yp);          /* r' = v */
  memcpy(&yp[np3], acc, (size_t)np3 * sizeof *yp);         /* v' */
  const double *bs = &y[m->boff];
  double *bp = &yp[m->boff];
  memcpy(&bp[MBDAE_RB_P], &bs[MBDAE_RB_U], 3 * sizeof *yp);
  memcpy(&bp[MBDAE_RB_U], &acc[np3], 3 * sizeof *yp);
  mbdae_rb_quat_rate(&bs[MBDAE_RB_Q], &bs[MBDAE_RB_W], &bp[MBDAE_RB_Q]);
  memcpy(&bp[MBDAE_RB_W], &acc[np3 + 3], 3 * sizeof *yp);
  for (int k = 0; k < m->nc; ++k) {
    y[m->dae->loff + k] = m->lambda[k];
    yp[m->dae->loff + k] = 0.0;
  }
  return MBDAE_OK;
}

int capture_dae_consistent(capture_model *m, double t, double *y, double *yp) {
  if (!m || !m->dae || !y || !yp) return MBDAE_ERR_ARGUMENT;
  return consistent(m, t, y, yp, 1);
}

/* The completion (mbdae_problem_set_completion) method arkode integrates
 * the DAE through: the same solve in the current modes, flags kept. */
static int dae_complete(double t, double *y, double *yp, void *ud) {
  return consistent(ud, t, y, yp, 0);
}

int capture_dae_initial_state(capture_model *m, double t0, double *y, double *yp) {
  if (!m || !m->dae || !y || !yp) return MBDAE_ERR_ARGUMENT;
  int rc = capture_initial_state(m, t0, y);
  if (rc) return rc;
  return capture_dae_consistent(m, t0, y, yp);
}

/* The ODE form's roots (capture_roots), with the multipliers read from y:
 * held constraint (event mode): its normal force passes -release_force;
 * otherwise its gap c/cs - c_ref crosses 0; held point: face switch.
 * Unilateral forces add one root per constraint, positive where its
 * forced / free choice must switch (the ODE form needs none: its
 * right-hand side solves the complementarity problem at every call):
 *   active, forced: lambda_k |grad c_k| - release_force (the normal force
 *     -lambda_k |grad c_k| passes -release_force: it would adhere / push);
 *   active, free: (c_k'' - target_k) / |grad c_k| (the row would overrun
 *     eq. 3.2: it must be forced);
 *   inactive: -1.
 * Both start at or below 0 after a switch: a row freed at lambda_k ~ 0+
 * has c_k'' = target_k - K_kk lambda_k, one forced at c_k'' = target_k
 * has lambda_k ~ 0-, so the engine's mask reads them on the side they
 * came from. lambda_k and c_k'' are those of the state y with the flags
 * held (capture_accelerations_fixed), not y's multipliers and yp: those
 * carry the step's integration error (after a restart BDF's first-order
 * yp is off by O(h)), and a root located on them was found on the wrong
 * side by the complementarity solve at the event, which switched the row
 * back, and the same root fired again at the same t without end (measured
 * on the 10 x 10 capture at t = 1.309 s). */
static int dae_roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)yp;
  capture_model *m = ud;
  struct capture_dae *d = m->dae;
  capture_rows(m, y);
  capture_root_values(m, y, &y[d->loff], g);
  if (d->nroots == m->nc + m->np) return 0;
  int rc = capture_accelerations_fixed(m, t, y, m->acc);
  if (rc) return -1;
  double *gf = &g[m->nc + m->np];
  for (int k = 0; k < m->nc; ++k) {
    const capture_row *r = &m->rows[k];
    if (!m->active[k]) {
      gf[k] = -1.0;
    } else if (m->forced[k]) {
      gf[k] = m->lambda[k] * r->vscale - m->p.release_force;
    } else {
      double cdd = r->gamma;
      for (int i = 0; i < r->nz; ++i) cdd += r->val[i] * m->acc[r->idx[i]];
      gf[k] = (cdd - capture_baumgarte_target(m, k)) / r->vscale;
    }
  }
  return 0;
}

/* The ODE form's event map on the ODE part of y (activity, faces); with
 * unilateral forces every active row whose force root fired upward
 * switches forced <-> free; then consistent lambda and yp for the new
 * modes. With unilateral forces that is the complementarity problem
 * (capture_accelerations -> unilateral_solve) warm-started from the
 * switched flags, so the flags come out consistent at this state (a root
 * located a hair early is switched back, rows switching together are
 * solved together); the switches counted are the flags that differ from
 * the handler's entry on rows active before and after. */
static int dae_event(double t, double *y, double *yp, const int *dirs,
                     mbdae_event_info *info, void *ud) {
  capture_model *m = ud;
  struct capture_dae *d = m->dae;
  int unilateral = d->nroots > m->nc + m->np;
  if (unilateral) {
    memcpy(d->forced_entry, m->forced, (size_t)m->nc);
    for (int k = 0; k < m->nc; ++k) m->was_active[k] = (unsigned char)m->active[k];
  }
  int rc = capture_event(t, y, yp, dirs, info, ud);
  if (rc < 0 || rc == MBDAE_EVENT_STOP) return rc;
  int flips = 0;
  if (unilateral) {
    const int *fd = &dirs[m->nc + m->np];
    for (int k = 0; k < m->nc; ++k)
      if (fd[k] > 0 && m->was_active[k] && m->active[k]) {
        m->forced[k] ^= 1;
        ++flips;
      }
  }
  if (rc != MBDAE_EVENT_CONTINUE && !flips) return rc;
  int c = capture_dae_consistent(m, t, y, yp);
  if (c) return c < 0 ? c : MBDAE_ERR_CALLBACK;
  if (unilateral) {
    long sw = 0;
    for (int k = 0; k < m->nc; ++k)
      sw += m->was_active[k] && m->active[k] && m->forced[k] != d->forced_entry[k];
    m->force_switches += sw;
    if (info && sw && rc != MBDAE_EVENT_CONTINUE) info->label = "force";
  }
  return MBDAE_EVENT_CONTINUE;
}

void capture_dae_free(capture_model *m) {
  if (!m || !m->dae) return;
  struct capture_dae *d = m->dae;
  sn_pattern_free(&d->pat);
  free(d->ps);
  free(d->ss);
  free(d->jac_vals);
  free(d->up);
  free(d->forced_entry);
  free(d);
  m->dae = NULL;
}

int capture_is_dae(const capture_model *m) { return m && m->dae; }
int capture_nconstraints(const capture_model *m) { return m->nc; }
int capture_problem_size(const capture_model *m) { return m->dae ? m->dae->n : m->n; }

int capture_create_dae(const capture_params *p, capture_model **out, mbdae_param_error *err) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  if (p->control == CAPTURE_CONTROL_ERROR_STAB) {
    if (err) {
      err->key = "control";
      snprintf(err->msg, sizeof err->msg,
               "error_stabilization is solved through the ODE form's joint multiplier "
               "solve: use rk4, cvode-adams or cvode-bdf with it (ida supports none, min_thrust)");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  capture_model *m = NULL;
  int rc = capture_create(p, &m, err);
  if (rc) return rc;
  struct capture_dae *d = calloc(1, sizeof *d);
  if (!d) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  m->dae = d;
  d->loff = m->n;
  d->n = m->n + m->nc;
  d->up = calloc((size_t)m->nu, sizeof *d->up);
  d->forced_entry = malloc((size_t)m->nc > 0 ? (size_t)m->nc : 1);
  d->nroots = m->nc + m->np;
  if (m->p.mode == CAPTURE_MODE_BAUMGARTE && m->p.forces == CAPTURE_FORCES_UNILATERAL)
    d->nroots += m->nc;
  double *id = malloc((size_t)d->n * sizeof *id);
  const char *const *names = NULL;
  int ninv = mbdae_problem_invariant_count(m->problem, &names);
  mbdae_problem *pb = mbdae_problem_create(d->n, MBDAE_FORM_DAE);
  if (!d->up || !d->forced_entry || !id || !pb) {
    free(id);
    mbdae_problem_free(&pb);
    capture_free(&m);
    return MBDAE_ERR_MEMORY;
  }
  /* the ODE problem is replaced; the invariant names are static strings */
  mbdae_problem_free(&m->problem);
  m->problem = pb;
  for (int i = 0; i < d->n; ++i) id[i] = i < d->loff ? 1.0 : 0.0;
  rc = mbdae_problem_set_user_data(pb, m);
  rc = rc ? rc : mbdae_problem_set_residual(pb, dae_residual);
  rc = rc ? rc : mbdae_problem_set_id(pb, id);
  rc = rc ? rc : mbdae_problem_set_completion(pb, d->loff, dae_complete);
  if (!capture_switch_by_state(m)) {
    rc = rc ? rc : mbdae_problem_set_roots(pb, d->nroots, dae_roots);
    rc = rc ? rc : mbdae_problem_set_event_handler(pb, dae_event);
  }
  rc = rc ? rc : mbdae_problem_set_invariants(pb, ninv, names, capture_invariants);
  if (ninv == 7) rc = rc ? rc : mbdae_problem_set_invariant_units(pb, capture_inv_units);
  rc = rc ? rc : mbdae_problem_set_mode_name(pb, capture_mode_name);
  rc = rc ? rc : capdae_jacobian_setup(m);
  free(id);
  if (rc) { capture_free(&m); return rc; }
  *out = m;
  return MBDAE_OK;
}
