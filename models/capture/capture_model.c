/* capture_model.c - net + convex polytope dynamics (capps eqs. 2.5-2.103):
 * multipliers of the active string and contact constraints from the
 * acceleration-level equations (eq. 2.102), with Baumgarte's term (eq. 3.2),
 * in event-driven (impacts, persistent contact, release) or compliant mode. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "capture/point_contact.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

/* relative gap (c / L^2 or psi) at which a free constraint's root fires */
#define CAPTURE_ROOT_MARGIN 1e-12
/* event mode: a free row at its surface closing so slowly that it would
 * overshoot less than this (relative c) is left free; the engine's default
 * dead band around a root it just fired (root_band) */
#define CAPTURE_OVERSHOOT 1e-10
/* unilateral Baumgarte: a row held below its surface is examined again each
 * time it falls this much further (relative c, as the roots) */
#define CAPTURE_KEEP_BAND 1e-5

static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ---- constraint rows ---------------------------------------------------- */

/* Row of string k from the string core (strings/string_net.h): phi =
 * S.S - L^2 (eq. 2.7), S = r_j - r_i, G = [-grad on v_i, grad on v_j] with
 * grad = 2S (eq. 2.16), gamma = 2 W.W (the V-part of eq. 2.15, W = v_j - v_i). */
static void string_row(capture_model *m, const double *y, int k, capture_row *row) {
  const sn_string *st = &m->net->s[k];
  int a = st->i, b = st->j;
  const double *V = &y[3 * m->np];
  double g[3], W[3];
  sn_grad(m->net, k, y, g);
  for (int i = 0; i < 3; ++i) W[i] = V[3 * b + i] - V[3 * a + i];
  row->c = sn_phi(m->net, k, y);
  row->cdot = sn_phi_dot(m->net, k, y, V);
  row->gamma = 2.0 * dot3(W, W);
  row->nz = 6;
  for (int i = 0; i < 3; ++i) {
    row->idx[i] = 3 * a + i;
    row->val[i] = -g[i];
    row->z[i] = row->val[i] * m->minv[a];
    row->idx[3 + i] = 3 * b + i;
    row->val[3 + i] = g[i];
    row->z[3 + i] = row->val[3 + i] * m->minv[b];
  }
  row->vscale = 2.0 * st->L; /* phi' = 2 L v_n on the string */
}

/* Row of the contact of point j with its current face (eqs. 2.52-2.58 with
 * the body's translation and rotation, point_contact.h). */
static void contact_row(capture_model *m, const double *y, int j, capture_row *row) {
  const double *bs = &y[m->boff];
  mbdae_contact_kin k;
  mbdae_contact_eval(&m->body->A[3 * m->face[j]], m->C, &y[3 * j],
                     &y[3 * m->np + 3 * j], &bs[MBDAE_RB_P], &bs[MBDAE_RB_U],
                     &bs[MBDAE_RB_W], &k);
  row->c = k.psi;
  row->cdot = k.psidot;
  row->gamma = k.gamma;
  row->s = k.s;
  row->nz = 9;
  int ub = 3 * m->np; /* velocity index of U in u */
  const double *Ji = m->body->Jinv;
  for (int i = 0; i < 3; ++i) {
    row->idx[i] = 3 * j + i;
    row->val[i] = k.Gv[i];
    row->z[i] = k.Gv[i] * m->minv[j];
    row->idx[3 + i] = ub + i;
    row->val[3 + i] = k.GU[i];
    row->z[3 + i] = k.GU[i] / m->body->mass;
    row->idx[6 + i] = ub + 3 + i;
    row->val[6 + i] = k.Gw[i];
  }
  for (int i = 0; i < 3; ++i)
    row->z[6 + i] = Ji[3 * i] * k.Gw[0] + Ji[3 * i + 1] * k.Gw[1] + Ji[3 * i + 2] * k.Gw[2];
  /* |psi'| = 2 s |b| v_n: normal speed from the plane vector's length */
  row->vscale = 2.0 * fabs(k.s) * sqrt(dot3(k.b, k.b));
}

/* Face of point j: the largest A_p^T rho_B (sec. 3.4.2). */
static int current_face(const capture_model *m, const double *y, int j) {
  const double *P = &y[m->boff + MBDAE_RB_P];
  double rho[3], rb[3];
  for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - P[c];
  for (int c = 0; c < 3; ++c) rb[c] = m->C[c] * rho[0] + m->C[3 + c] * rho[1] + m->C[6 + c] * rho[2];
  return mbdae_polytope_face_of(m->body, rb, NULL);
}

/* A point not held on the body always uses its current face, so its psi is
 * 1 - (max_p A_p^T rho_B)^2, continuous across edges; a held point keeps
 * its face until a face-switch event (an edge or vertex crossing). */
void capture_rows(capture_model *m, const double *y) {
  int by_state = capture_switch_by_state(m);
  mbdae_rb_rotation(&y[m->boff + MBDAE_RB_Q], m->C);
  for (int k = 0; k < m->ns; ++k) string_row(m, y, k, &m->rows[k]);
  for (int j = 0; j < m->np; ++j) {
    /* (event capturing holds no face: the gap takes the nearest plane) */
    if (by_state || m->mech || !m->active[m->ns + j]) m->face[j] = current_face(m, y, j);
    contact_row(m, y, j, &m->rows[m->ns + j]);
  }
  /* switching by state (capps sec. 3.3, as the seed's fixed-step RK4 does it
   * at every stage): a constraint is active while c >= 0, on the face the
   * point is over now (sec. 3.4.2); nothing is located */
  if (by_state)
    for (int k = 0; k < m->nc; ++k) m->active[k] = m->rows[k].c >= 0.0;
}

int capture_switch_by_state(const capture_model *m) {
  return m->p.mode == CAPTURE_MODE_BAUMGARTE && m->p.switching == CAPTURE_SWITCH_STATE;
}

/* u as a vector (velocities of points, body U and w). */
static void velocities(const capture_model *m, const double *y, double *u) {
  memcpy(u, &y[3 * m->np], (size_t)(3 * m->np) * sizeof *u);
  memcpy(&u[3 * m->np], &y[m->boff + MBDAE_RB_U], 3 * sizeof *u);
  memcpy(&u[3 * m->np + 3], &y[m->boff + MBDAE_RB_W], 3 * sizeof *u);
}

/* The scale of row k's relative gap c / c_s (roots, bands): L^2 for a
 * string, 1 for a contact. */
static double row_cscale(const capture_model *m, int k) {
  return k < m->ns ? m->net->s[k].L * m->net->s[k].L : 1.0;
}

static double row_dot(const capture_row *r, const double *u) {
  double s = 0.0;
  for (int i = 0; i < r->nz; ++i) s += r->val[i] * u[r->idx[i]];
  return s;
}

/* K = G Mg^-1 G^T over the listed rows (dense, row-major n x n). */
static void assemble_K(capture_model *m, const int *list, int n) {
  double *Z = m->Zscatter;
  for (int l = 0; l < n; ++l) {
    const capture_row *rl = &m->rows[list[l]];
    for (int i = 0; i < rl->nz; ++i) Z[rl->idx[i]] += rl->z[i];
    for (int k = l; k < n; ++k) {
      double s = row_dot(&m->rows[list[k]], Z);
      m->K[(size_t)k * n + l] = s;
      m->K[(size_t)l * n + k] = s;
    }
    for (int i = 0; i < rl->nz; ++i) Z[rl->idx[i]] = 0.0;
  }
}

/* Factor K = L D L^T in place, skipping the zero envelope of each row
 * (constraints couple only through shared points or the body, so with the
 * string core's ordering the strings' block is banded); a pivot below the
 * tolerance (a redundant constraint) gets a zero multiplier component. */
static void factor_K(capture_model *m, int n) {
  double *K = m->K, dmax = 0.0;
  int *fi = m->first;
  for (int i = 0; i < n; ++i) {
    dmax = fmax(dmax, K[(size_t)i * n + i]);
    int f = 0;
    while (f < i && K[(size_t)i * n + f] == 0.0) ++f;
    fi[i] = f;
  }
  double tol = 1e-13 * dmax;
  for (int j = 0; j < n; ++j) {
    double *Kj = &K[(size_t)j * n];
    double d = Kj[j];
    for (int k = fi[j]; k < j; ++k) d -= Kj[k] * Kj[k] * K[(size_t)k * n + k];
    int zero = !(d > tol);
    Kj[j] = zero ? 0.0 : d;
    for (int i = j + 1; i < n; ++i) {
      if (fi[i] > j) continue; /* outside row i's envelope: stays 0 */
      double *Ki = &K[(size_t)i * n];
      double sum = Ki[j];
      int k0 = fi[i] > fi[j] ? fi[i] : fi[j];
      for (int k = k0; k < j; ++k) sum -= Ki[k] * Kj[k] * K[(size_t)k * n + k];
      Ki[j] = zero ? 0.0 : sum / d;
    }
  }
}

static void solve_dense(const capture_model *m, int n, double *b) {
  const double *K = m->K;
  const int *fi = m->first;
  for (int i = 0; i < n; ++i)
    for (int k = fi[i]; k < i; ++k) b[i] -= K[(size_t)i * n + k] * b[k];
  for (int i = 0; i < n; ++i) b[i] = K[(size_t)i * n + i] > 0.0 ? b[i] / K[(size_t)i * n + i] : 0.0;
  for (int i = n - 1; i >= 0; --i)
    for (int k = fi[i]; k < i; ++k) b[k] -= K[(size_t)i * n + k] * b[i];
}

/* Factor the joint matrix of the listed rows: sparse (capture_joint.c) from
 * CAPTURE_SPARSE_ROWS rows on, where it is cheaper than the dense envelope
 * (measured, benchmarks/log/2026-11-23.md), and densely below that or when the
 * sparse factorization finds the matrix numerically singular (redundant
 * rows then get a zero multiplier component, as the dense LDL^T does). */
#define CAPTURE_SPARSE_ROWS 20
static int factor_joint(capture_model *m, const int *list, int n) {
  if (n >= CAPTURE_SPARSE_ROWS) {
    int rc = capture_joint_factor(m, list, n);
    if (rc <= 0) return rc;
  } else {
    capture_joint_unuse(m);
  }
  assemble_K(m, list, n);
  factor_K(m, n);
  return 0;
}

/* Solve K x = b (in place) with the last factorization of factor_joint. */
static void solve_factored(capture_model *m, int n, double *b) {
  if (capture_joint_in_use(m)) capture_joint_solve(m, n, b);
  else solve_dense(m, n, b);
}

/* Apply Mg^-1 G^T x over the listed rows to the vector u. */
static void add_reactions(const capture_model *m, const int *list, int n,
                          const double *x, double *u) {
  for (int l = 0; l < n; ++l) {
    const capture_row *r = &m->rows[list[l]];
    for (int i = 0; i < r->nz; ++i) u[r->idx[i]] += r->z[i] * x[l];
  }
}

/* Response of the generalised accelerations to a thrust Uf on the points
 * with the active set factored in K (list of n rows): out = Mg^-1 Uf -
 * Mg^-1 G^T K^-1 G Mg^-1 Uf (the seed's G of eq. 4.40 on the point block). */
static void thrust_response(capture_model *m, int n, const double *Uf, double *out, double *tmp) {
  int np = m->np;
  memset(out, 0, (size_t)m->nu * sizeof *out);
  for (int i = 0; i < np; ++i)
    for (int c = 0; c < 3; ++c) out[3 * i + c] = Uf[3 * i + c] * m->minv[i];
  if (n == 0) return;
  for (int l = 0; l < n; ++l) tmp[l] = -row_dot(&m->rows[m->list[l]], out);
  solve_factored(m, n, tmp);
  add_reactions(m, m->list, n, tmp, out);
}

/* Error-stabilising thrust (eqs. 4.30-4.42): the least-squares, minimum-norm
 * U of G U = a_d - B_E by CGLS (G is singular on constrained directions, so
 * the seed's G^-1 is replaced by the pseudo-inverse). acc holds B_E (the
 * accelerations without thrust) on entry and the total on return. */
static int error_stab(capture_model *m, double t, const double *y, int n, double *acc) {
  int np3 = 3 * m->np;
  double *x = m->ctrl_work, *r = x + np3, *pdir = r + np3, *s = pdir + np3,
         *q = m->u_minus, *tmp = m->bvec + n;
  double zs = 2.0 * m->p.zeta * m->p.omega_n, w2 = m->p.omega_n * m->p.omega_n;
  (void)t;
  /* residual b = a_d - B_E on the point block */
  for (int i = 0; i < np3; ++i) {
    double E = y[i] - m->ctrl_Rf[i], Ed = y[np3 + i] - m->ctrl_Vf[i];
    r[i] = -zs * Ed - w2 * E - acc[i];
    x[i] = 0.0;
  }
  /* CGLS on the symmetric G: s = G^T r = G r */
  thrust_response(m, n, r, q, tmp);
  memcpy(s, q, (size_t)np3 * sizeof *s);
  memcpy(pdir, s, (size_t)np3 * sizeof *s);
  double gamma = 0.0, g0;
  for (int i = 0; i < np3; ++i) gamma += s[i] * s[i];
  g0 = gamma;
  for (int it = 0; it < 4 * np3 && gamma > 1e-28 * g0 && gamma > 0.0; ++it) {
    thrust_response(m, n, pdir, q, tmp);
    double qq = 0.0;
    for (int i = 0; i < np3; ++i) qq += q[i] * q[i];
    if (!(qq > 0.0)) break;
    double alpha = gamma / qq;
    for (int i = 0; i < np3; ++i) { x[i] += alpha * pdir[i]; r[i] -= alpha * q[i]; }
    thrust_response(m, n, r, q, tmp);
    double gn = 0.0;
    for (int i = 0; i < np3; ++i) gn += q[i] * q[i];
    double beta = gn / gamma;
    gamma = gn;
    for (int i = 0; i < np3; ++i) pdir[i] = q[i] + beta * pdir[i];
  }
  thrust_response(m, n, x, q, tmp);
  for (int i = 0; i < m->nu; ++i) acc[i] += q[i];
  /* multipliers of the total: lambda(0) + response part */
  for (int i = 0; i < np3; ++i) m->ctrl_last[i] = x[i];
  return 0;
}

/* Baumgarte target of row k: c'' = -2 xi w c' - w^2 c (eq. 3.2). */
double capture_baumgarte_target(const capture_model *m, int k) {
  const capture_row *r = &m->rows[k];
  int is_string = k < m->ns;
  double xi = is_string ? m->p.xi_string : m->p.xi_body;
  double wn = is_string ? m->p.omega_string : m->p.omega_body;
  return -2.0 * xi * wn * r->cdot - wn * wn * r->c;
}

/* Unilateral compliant forces (baumgarte_forces: unilateral). A string can
 * only pull and a contact only push, so among the active rows (c >= 0, as
 * in eq. 3.1) each one either carries a force of the right sign and follows
 * eq. 3.2, or carries none and separates faster than eq. 3.2 asks:
 *   lambda_k <= 0,  c_k'' <= target_k,  lambda_k (c_k'' - target_k) = 0
 * (the normal force is -lambda_k |grad c_k|, as in event mode). This linear
 * complementarity problem has K = G Mg^-1 G^T, positive semi-definite; it is
 * solved by principal pivoting on the forced set, warm-started from the last
 * one: all infeasible rows are swapped at once while that reduces their
 * number, then one at a time, lowest index first (Murty's rule, finite for
 * a positive definite K). From CAPTURE_SPARSE_ROWS active rows on, the
 * sparse joint matrix of all active rows is factored with the free ones
 * masked (capture_joint.c), so a new forced set needs no new analysis.
 * Returns 0, 1 (no solution within the iteration limit: recoverable, the
 * integrator retries with a smaller step) or < 0. On return acc and lambda
 * hold the solution and m->list[0 .. m->nforced) the rows of the last
 * factorization (free rows among them carry 0). pivot 0: one solve with
 * the current flags, left as they are (the DAE form's roots). */
static int unilateral_solve(capture_model *m, int n_active, double *acc, int pivot) {
  int nu = m->nu;
  double *acc0 = m->u_plus;
  memcpy(acc0, acc, (size_t)nu * sizeof *acc0);
  int *act = m->lcp_rows;
  memcpy(act, m->list, (size_t)n_active * sizeof *act);
  unsigned char *F = m->forced, *bad = m->lcp_bad;
  int maxit = 50 + 2 * n_active, fewest = n_active + 1, stalled = 0;
  for (int it = 0; it < maxit; ++it) {
    int n = 0, rc = 1;
    if (n_active >= CAPTURE_SPARSE_ROWS) {
      rc = capture_joint_factor_masked(m, act, n_active, F);
      if (rc < 0) return rc;
      if (rc == 0) {
        memcpy(m->list, act, (size_t)n_active * sizeof *act);
        n = n_active;
      }
    }
    if (rc) { /* dense LDL^T over the forced rows */
      for (int l = 0; l < n_active; ++l)
        if (F[act[l]]) m->list[n++] = act[l];
      capture_joint_unuse(m);
      if (n > 0) {
        assemble_K(m, m->list, n);
        factor_K(m, n);
      }
    }
    memcpy(acc, acc0, (size_t)nu * sizeof *acc);
    for (int l = 0; l < n_active; ++l) m->lambda[act[l]] = 0.0;
    if (n > 0) {
      for (int l = 0; l < n; ++l) {
        const capture_row *r = &m->rows[m->list[l]];
        m->bvec[l] = F[m->list[l]]
                         ? capture_baumgarte_target(m, m->list[l]) - (row_dot(r, acc) + r->gamma)
                         : 0.0;
      }
      solve_factored(m, n, m->bvec);
      for (int l = 0; l < n; ++l) m->lambda[m->list[l]] = m->bvec[l];
      add_reactions(m, m->list, n, m->bvec, acc);
    }
    m->nforced = n;
    if (!pivot) return 0;
    /* infeasible: a forced row of the wrong sign, a free one overrun
     * (tolerances relative to the largest force and acceleration) */
    double fmx = 0.0, amx = 0.0;
    for (int l = 0; l < n_active; ++l)
      fmx = fmax(fmx, fabs(m->lambda[act[l]] * m->rows[act[l]].vscale));
    for (int i = 0; i < nu; ++i) amx = fmax(amx, fabs(acc[i]));
    double ftol = 1e-12 * fmx, atol = 1e-12 * (amx + 1.0);
    int nbad = 0, first = -1;
    for (int l = 0; l < n_active; ++l) {
      int k = act[l];
      const capture_row *r = &m->rows[k];
      bad[k] = F[k] ? m->lambda[k] * r->vscale > ftol
                    : row_dot(r, acc) + r->gamma - capture_baumgarte_target(m, k) >
                          atol * r->vscale;
      if (bad[k]) {
        ++nbad;
        if (first < 0) first = k;
      }
    }
    if (!nbad) return 0;
    if (nbad < fewest) fewest = nbad, stalled = 0;
    else ++stalled;
    if (stalled < 3) {
      for (int l = 0; l < n_active; ++l)
        if (bad[act[l]]) F[act[l]] ^= 1;
    } else {
      F[first] ^= 1;
    }
  }
  return 1;
}

/* Generalised accelerations u' at (t, y) with the current modes; rows must
 * be evaluated. Fills m->lambda for every constraint (0 when inactive).
 * lcp: the active rows are unilateral, each forced or free by the
 * complementarity problem of unilateral_solve (the Baumgarte unilateral
 * forces; event mode's closed rows after an event map, settle_modes);
 * else all are held. pivot 0: the forced flags are kept, not solved for. */
static int accelerations(capture_model *m, double t, const double *y, double *acc, int pivot,
                         int lcp) {
  int np = m->np;
  const double *bs = &y[m->boff];
  int stab = m->p.control == CAPTURE_CONTROL_ERROR_STAB &&
             (m->p.control_t_end <= 0.0 || t - m->ctrl_t0 < m->p.control_t_end);
  /* external forces: thrust on the points (eq. 4.3), none on the body */
  double *F = m->Fwork;
  memset(F, 0, (size_t)m->nu * sizeof *F);
  if (m->p.control == CAPTURE_CONTROL_MIN_THRUST) {
    int rc = capture_control_force(m, t, y, F);
    if (rc) return rc;
  }
  for (int i = 0; i < np; ++i)
    for (int c = 0; c < 3; ++c) acc[3 * i + c] = F[3 * i + c] * m->minv[i];
  for (int c = 0; c < 3; ++c) acc[3 * np + c] = 0.0;
  double zero[3] = {0, 0, 0};
  mbdae_rb_euler(m->body->J, m->body->Jinv, &bs[MBDAE_RB_W], zero, &acc[3 * np + 3]);
  /* active constraints: G_k u' + gamma_k = -2 xi w c' - w^2 c (eqs. 2.102, 3.1-3.2) */
  int n = 0;
  for (int k = 0; k < m->nc; ++k) {
    m->lambda[k] = 0.0;
    if (m->active[k]) m->list[n++] = k;
  }
  if (n > 0 && lcp) {
    int rc = unilateral_solve(m, n, acc, pivot);
    if (rc) return rc;
    n = m->nforced;
  } else if (n > 0) {
    int rc = factor_joint(m, m->list, n);
    if (rc) return rc;
    for (int l = 0; l < n; ++l) {
      const capture_row *r = &m->rows[m->list[l]];
      int is_string = m->list[l] < m->ns;
      double xi = is_string ? m->p.xi_string : m->p.xi_body;
      double wn = is_string ? m->p.omega_string : m->p.omega_body;
      m->bvec[l] = -(row_dot(r, acc) + r->gamma + 2.0 * xi * wn * r->cdot + wn * wn * r->c);
    }
    solve_factored(m, n, m->bvec);
    for (int l = 0; l < n; ++l) m->lambda[m->list[l]] = m->bvec[l];
    add_reactions(m, m->list, n, m->bvec, acc);
  }
  if (stab) {
    int rc = error_stab(m, t, y, n, acc);
    if (rc) return rc;
    /* multipliers including the thrust's share */
    if (n > 0) {
      double *tmp = m->bvec;
      double *xm = m->u_plus;
      memset(xm, 0, (size_t)m->nu * sizeof *xm);
      for (int i = 0; i < np; ++i)
        for (int c = 0; c < 3; ++c) xm[3 * i + c] = m->ctrl_last[3 * i + c] * m->minv[i];
      for (int l = 0; l < n; ++l) tmp[l] = -row_dot(&m->rows[m->list[l]], xm);
      solve_factored(m, n, tmp);
      for (int l = 0; l < n; ++l) m->lambda[m->list[l]] += tmp[l];
    }
  }
  return 0;
}

static int unilateral_forces(const capture_model *m) {
  return m->p.mode == CAPTURE_MODE_BAUMGARTE && m->p.forces == CAPTURE_FORCES_UNILATERAL;
}

int capture_accelerations(capture_model *m, double t, const double *y, double *acc) {
  return accelerations(m, t, y, acc, 1, unilateral_forces(m));
}

int capture_accelerations_fixed(capture_model *m, double t, const double *y, double *acc) {
  return accelerations(m, t, y, acc, 0, unilateral_forces(m));
}

int capture_rhs(double t, const double *y, double *f, void *ud) {
  capture_model *m = ud;
  int np = m->np;
  capture_rows(m, y);
  double *acc = m->acc;
  int rc = capture_accelerations(m, t, y, acc);
  if (rc) return rc;
  memcpy(f, &y[3 * np], (size_t)(3 * np) * sizeof *f);          /* r' = v */
  memcpy(&f[3 * np], acc, (size_t)(3 * np) * sizeof *f);          /* v' */
  const double *bs = &y[m->boff];
  double *fb = &f[m->boff];
  memcpy(&fb[MBDAE_RB_P], &bs[MBDAE_RB_U], 3 * sizeof *f);        /* P' = U */
  memcpy(&fb[MBDAE_RB_U], &acc[3 * np], 3 * sizeof *f);           /* eq. 2.69 */
  mbdae_rb_quat_rate(&bs[MBDAE_RB_Q], &bs[MBDAE_RB_W], &fb[MBDAE_RB_Q]);
  memcpy(&fb[MBDAE_RB_W], &acc[3 * np + 3], 3 * sizeof *f);       /* eq. 2.90 */
  for (int i = 0; i < m->n; ++i)
    if (!isfinite(f[i])) return 1;
  return 0;
}

/* ---- roots and events ---------------------------------------------------- */

int capture_roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)yp;
  capture_model *m = ud;
  int need_lambda = 0;
  if (m->p.mode == CAPTURE_MODE_EVENT)
    for (int k = 0; k < m->nc; ++k) need_lambda |= m->active[k];
  if (need_lambda) {
    capture_rows(m, y);
    int rc = capture_accelerations(m, t, y, m->acc);
    if (rc) return rc;
  } else {
    capture_rows(m, y);
  }
  capture_root_values(m, y, m->lambda, g);
  return 0;
}

void capture_root_values(const capture_model *m, const double *y, const double *lambda,
                         double *g) {
  int unilateral = unilateral_forces(m);
  for (int k = 0; k < m->nc; ++k) {
    const capture_row *r = &m->rows[k];
    double cs = row_cscale(m, k);
    if (m->p.mode == CAPTURE_MODE_EVENT && m->active[k])
      /* the normal force f = -lambda |grad c| falls to -release_force:
       * release (a hair below zero, so a force-free taut string moving
       * rigidly with the net does not chatter) */
      g[k] = lambda[k] * r->vscale - m->p.release_force;
    else if (unilateral && m->active[k])
      /* unilateral Baumgarte: an active row's root is the free one's
       * negated (the string net's convention): negative in the current
       * mode, rising through 0 when the mode must change, so a row that
       * keeps stretching after its activation moves away from its root
       * (with one sign for both, the engine's dead band reported that
       * continued stretch as a second crossing: a spurious event per
       * activation) */
      g[k] = -(r->c / cs - m->c_ref[k] - CAPTURE_ROOT_MARGIN);
    else /* gap closes; a constraint released at c_ref (held constraints
          * sit at c ~ 0 up to the drift control's error) starts on the
          * free side of its root, so a re-stretch / re-entry is seen */
      g[k] = r->c / cs - m->c_ref[k] - CAPTURE_ROOT_MARGIN;
  }
  /* face of each held point: s_p - max_{q != p} s_q falls through 0 (sec. 3.4.2) */
  const double *P = &y[m->boff + MBDAE_RB_P];
  for (int j = 0; j < m->np; ++j) {
    if (!m->active[m->ns + j]) { g[m->nc + j] = 1.0; continue; }
    double rho[3], rb[3];
    for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - P[c];
    for (int c = 0; c < 3; ++c) rb[c] = m->C[c] * rho[0] + m->C[3 + c] * rho[1] + m->C[6 + c] * rho[2];
    double s = dot3(&m->body->A[3 * m->face[j]], rb);
    g[m->nc + j] = s - mbdae_polytope_second_max(m->body, rb, m->face[j]);
  }
}

static void set_velocities(capture_model *m, double *y, const double *u) {
  memcpy(&y[3 * m->np], u, (size_t)(3 * m->np) * sizeof *u);
  memcpy(&y[m->boff + MBDAE_RB_U], &u[3 * m->np], 3 * sizeof *u);
  memcpy(&y[m->boff + MBDAE_RB_W], &u[3 * m->np + 3], 3 * sizeof *u);
}

static double kinetic(const capture_model *m, const double *u) {
  double e = 0.0;
  for (int i = 0; i < m->np; ++i) e += 0.5 / m->minv[i] * dot3(&u[3 * i], &u[3 * i]);
  const double *U = &u[3 * m->np], *w = &u[3 * m->np + 3];
  e += 0.5 * m->body->mass * dot3(U, U);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) e += 0.5 * w[i] * m->body->J[3 * i + k] * w[k];
  return e;
}

/* Impacts (event mode): the impacting set I gets Newton restitution, the
 * held set A stays on its constraint (target: no normal velocity), from one
 * impulse vector Pi with K Pi = target - G u- (frictionless,
 * momentum-conserving: G^T Pi is internal). A constraint whose impulse
 * would pull (contact) or push (string) is dropped, the worst first, and
 * the solve repeated - an impacting one leaves the impact, a held one is
 * released; a dropped one that would still close its gap is put back (as
 * an impact); if the per-constraint restitution would raise the kinetic
 * energy the impact is made plastic. This is an active-set solution of the
 * impact complementarity problem (impulse >= 0, separation speed >= 0,
 * one of them zero) for each constraint. */
static int resolve_impacts(capture_model *m, double *y, int *isimpact,
                           mbdae_event_info *info) {
  int nu = m->nu;
  double *um = m->u_minus, *up = m->u_plus;
  velocities(m, y, um);
  double E0 = kinetic(m, um);
  int plastic = 0, nimp = 0;
  /* candidates: the impacting constraints and every held one */
  unsigned char *cand = m->cand;
  for (int k = 0; k < m->nc; ++k) cand[k] = (unsigned char)(isimpact[k] || m->active[k]);
  double impulse_sum = 0.0;
  for (int iter = 0; iter < 4 * m->nc + 4; ++iter) {
    int n = 0;
    for (int k = 0; k < m->nc; ++k)
      if (m->active[k] || isimpact[k]) m->list[n++] = k;
    if (n == 0) return 0;
    int rc = factor_joint(m, m->list, n);
    if (rc) return rc;
    for (int l = 0; l < n; ++l) {
      int k = m->list[l];
      double vm = row_dot(&m->rows[k], um), target = 0.0;
      if (isimpact[k] && !plastic) {
        double e = k < m->ns ? m->p.e_string : m->p.e_body;
        target = -e * vm;
        /* Zeno rule: a slow rebound becomes persistent contact */
        if (fabs(target) < m->p.stick_velocity * m->rows[k].vscale) target = 0.0;
      }
      m->bvec[l] = target - vm;
    }
    solve_factored(m, n, m->bvec);
    /* the constraint whose impulse pulls the wrong way most is dropped,
     * one at a time (a simple active-set rule): an impacting one leaves
     * the impact, a held one is released (a contact or string cannot
     * transmit an adhesive impulse either) */
    double pscale = 0.0, worst = 0.0;
    int lw = -1;
    for (int l = 0; l < n; ++l) pscale = fmax(pscale, fabs(m->bvec[l]) * m->rows[m->list[l]].vscale);
    for (int l = 0; l < n; ++l) {
      double v = m->bvec[l] * m->rows[m->list[l]].vscale;
      int k = m->list[l];
      int droppable = isimpact[k] || (m->p.release_held && cand[k] == 1);
      if (droppable && v > 1e-10 * pscale && v > worst) { worst = v; lw = l; }
    }
    if (lw >= 0) {
      int k = m->list[lw];
      if (isimpact[k]) isimpact[k] = 0;
      else m->active[k] = 0, cand[k] = 3; /* held -> released */
      continue;
    }
    memcpy(up, um, (size_t)nu * sizeof *up);
    add_reactions(m, m->list, n, m->bvec, up);
    if (!plastic && kinetic(m, up) > E0) { plastic = 1; continue; }
    /* a dropped candidate that would still close its gap goes back in (as
     * an impact); a released held one that would not separate faster than
     * the Zeno rule's stick velocity is held for good (the rule that makes
     * a slow rebound persistent; without it a plastic net released and
     * re-tightened its strings in an endless cascade) */
    int readd = 0;
    for (int k = 0; k < m->nc && iter < m->nc; ++k) {
      if (!cand[k] || isimpact[k] || m->active[k]) continue;
      double vp = row_dot(&m->rows[k], up), vs = m->rows[k].vscale;
      if (cand[k] == 3 && vp > -m->p.stick_velocity * vs) {
        m->active[k] = 1, cand[k] = 2, readd = 1;
      } else if (cand[k] != 3 && vp > 1e-9 * vs) {
        isimpact[k] = 1, readd = 1;
      }
    }
    if (readd) continue;
    for (int k = 0; k < m->nc; ++k) m->releases += cand[k] == 3;
    /* new modes: on the constraint -> persistent, separating -> free */
    for (int l = 0; l < n; ++l) {
      int k = m->list[l];
      double vp = row_dot(&m->rows[k], up);
      /* |Pi_k| |grad phi_k| = |Pi_k| vscale_k: the impulse (N s) the
       * constraint gives each point it acts on */
      if (isimpact[k]) { ++nimp; impulse_sum += fabs(m->bvec[l]) * m->rows[k].vscale; }
      m->active[k] = vp > -m->p.stick_velocity * m->rows[k].vscale;
    }
    m->impacts += nimp;
    set_velocities(m, y, up);
    if (info) {
      info->ndata = 4;
      info->data[0] = nimp;
      info->data[1] = impulse_sum;
      info->data[2] = E0;
      info->data[3] = kinetic(m, up);
    }
    return 0;
  }
  return MBDAE_ERR_CALLBACK;
}

/* The relative gap a row released now starts its free root from: held
 * constraints sit at c ~ 0 up to the drift control's error, so a string
 * released a hair long is watched from there (a re-stretch is seen). */
static void set_release_ref(capture_model *m, int k) {
  double cs = row_cscale(m, k);
  m->c_ref[k] = m->rows[k].c > 0.0 ? m->rows[k].c / cs : 0.0;
}

/* A free row's root value: its relative gap past the reference it was
 * released at, less the root's margin (> 0: past its surface). */
static double free_root(const capture_model *m, int k) {
  double cs = row_cscale(m, k);
  return m->rows[k].c / cs - m->c_ref[k] - CAPTURE_ROOT_MARGIN;
}
/* At its surface: within the root's margin below it. */
static int at_surface(const capture_model *m, int k) {
  return free_root(m, k) > -2.0 * CAPTURE_ROOT_MARGIN;
}

/* Rows an event map left on the wrong side of their roots: a held row whose
 * force passed -release_force (a string that pushes, a contact that pulls;
 * push[k] = 1) and a free row closing past its surface, or closing at its
 * surface fast enough to stretch (press in) more than CAPTURE_OVERSHOOT
 * past it against its present acceleration (close[k] = 1): c' > 0 and
 * (c'' >= 0 or c'^2 / (2 |c''|) > CAPTURE_OVERSHOOT c_s). Such a row takes
 * part in the event's impact: left free it crosses its root a hair later,
 * and sequential plastic impacts of strings that share points hand the
 * closing speed back and forth (the shipped demo at t = 1.5497 s: strings
 * 81 and 62, 0.26 m/s down to 3e-5 m/s in 14 impacts within 2.1e-6 s, each
 * a hair past its last release), a cascade whose limit is the simultaneous
 * impact of all. One
 * closing more slowly (a row released at this event by its force root,
 * closing by the integration's noise: 4x4 capture of test_capture_dae at
 * t = 0.7976 s, c' ~ 1e-10 m/s against c'' ~ -1e-7 m/s^2) turns within
 * the engine's dead band around a root it just fired (root_band 1e-10),
 * unseen, as it would without this rule.
 * Returns their number; rows and accelerations at y (multipliers of the
 * held rows). */
static int wrong_side_rows(capture_model *m, double t, const double *y, unsigned char *push,
                           int *close, int *rc) {
  int nbad = 0;
  *rc = 0;
  capture_rows(m, y);
  double *acc = m->acc;
  int r0 = capture_accelerations(m, t, y, acc);
  if (r0) { *rc = r0 < 0 ? r0 : MBDAE_ERR_SOLVER; return 0; }
  for (int k = 0; k < m->nc; ++k) {
    const capture_row *r = &m->rows[k];
    push[k] = (unsigned char)(m->active[k] &&
                              m->lambda[k] * r->vscale - m->p.release_force > 0.0);
    close[k] = 0;
    if (!m->active[k] && r->cdot > 0.0) {
      double g = free_root(m, k);
      if (g > 0.0) {
        close[k] = 1;
      } else if (at_surface(m, k)) {
        double cs = row_cscale(m, k);
        double cdd = row_dot(r, acc) + r->gamma;
        close[k] = cdd >= 0.0 || r->cdot * r->cdot > -2.0 * cdd * CAPTURE_OVERSHOOT * cs;
      }
    }
    nbad += push[k] + close[k];
  }
  return nbad;
}

static void release_row(capture_model *m, int k, mbdae_event_info *info) {
  m->active[k] = 0;
  set_release_ref(m, k);
  ++m->releases;
  ++m->settle_releases;
  if (info && !info->label) info->label = "release";
}

/* The closed rows (held, and those this event's impacts made persistent)
 * settled at the acceleration level, as the curb wheel settles its
 * contacts after every event (wheel_model.c): each closed row k either
 * carries a force of its sign and follows eq. 3.2, or carries none and
 * separates faster than eq. 3.2 asks,
 *   lambda_k <= 0,  c_k'' <= target_k,  lambda_k (c_k'' - target_k) = 0
 * (the normal force is -lambda_k |grad c_k|: a string's tension, a
 * contact's pressure), solved by unilateral_solve's principal pivoting
 * from all forced. Exactly the rows that come out with lambda_k = 0 and
 * c_k'' below the target (beyond round-off) are released; a row with
 * neither force nor separating acceleration stays held. Changes modes, no
 * velocity. Returns 0, 1 (no solution within the pivoting limit: the
 * caller's one-at-a-time rule takes over) or < 0. */
static int release_by_lcp(capture_model *m, double t, const double *y, mbdae_event_info *info) {
  int n = 0;
  for (int k = 0; k < m->nc; ++k) {
    m->forced[k] = (unsigned char)m->active[k];
    n += m->active[k];
  }
  if (!n) return 0;
  capture_rows(m, y);
  double *acc = m->acc;
  int rc = accelerations(m, t, y, acc, 1, 1);
  if (rc) return rc;
  double amx = 0.0;
  for (int i = 0; i < m->nu; ++i) amx = fmax(amx, fabs(acc[i]));
  double atol = 1e-9 * (amx + 1.0);
  for (int k = 0; k < m->nc; ++k) {
    if (!m->active[k] || m->forced[k]) continue;
    const capture_row *r = &m->rows[k];
    double sep = capture_baumgarte_target(m, k) - (row_dot(r, acc) + r->gamma);
    if (sep > atol * r->vscale) {
      release_row(m, k, info);
      ++m->settle_lcp_releases;
    }
  }
  return 0;
}

/* After an event map every root must lie on its own side: the engine sees a
 * root only when it crosses 0, and only roots that fired are handed to this
 * handler, so a root the map moved across 0 is never seen. The map does
 * move them: an impact changes the velocities, and with them every held
 * row's centripetal term; a release changes the others' share of the load.
 * Measured on the 10 x 10 demo (arkode, esdirk43i6, rtol 1e-6): after the
 * event at t = 1.84361 s string 146 was still held with its force root at
 * +4.3e-5 - a string that pushes, never released, and with the event window
 * at 1 the run ended with a string 0.147 m beyond its length and status ok.
 * So, as string_net's "taut strings must pull": free rows closing at or
 * past their surface are resolved as impacts (held rows stay on their
 * surface through them), until none is left; then, if a held row pushes
 * or pulls, the closed rows are settled by their complementarity problem
 * (release_by_lcp, which releases rows but changes no velocity); and
 * again, until no root is on its wrong side. A held row that still pushes
 * or pulls after the problem (no solution within the pivoting limit) is
 * released the worst first, one at a time. Each pass changes the modes; the passes are bounded
 * by the number of rows, and a map that does not settle within them fails,
 * naming t and the rows left on the wrong side.
 * That one-at-a-time rule alone (f4fdfc3) released, with a string an impact
 * had just made taut, rows the complementarity problem keeps: on the 6 x 6
 * capture with release_held (validation case capture_moreau_vs_event) three
 * strings re-tightened in turn every ~5e-8 s at t = 1.4575 s until the
 * engine's Zeno guard stopped the run, and the shipped demo stopped at
 * t = 1.5497 s. c8601e3 then exempted every string an impact made taut
 * until the net's next event: strings that could push meanwhile, unseen. */
static int settle_modes(capture_model *m, double t, double *y, mbdae_event_info *info) {
  unsigned char *push = m->cand;
  int *close = m->work_flag, rc = 0, lcp_tried = 0;
  for (int pass = 0;; ++pass) {
    int nbad = wrong_side_rows(m, t, y, push, close, &rc);
    if (rc) return rc;
    if (!nbad) return 0;
    if (pass > m->nc) {
      snprintf(m->eventbuf, sizeof m->eventbuf,
               "event map not settled at t=%.12g: %d constraint rows on the wrong side of "
               "their roots after %d passes", t, nbad, pass);
      if (info) info->label = m->eventbuf;
      return MBDAE_ERR_INCONSISTENT;
    }
    int nclose = 0;
    for (int k = 0; k < m->nc; ++k) nclose += close[k];
    if (nclose) { /* impacts first: they change the velocities */
      rc = resolve_impacts(m, y, close, info);
      if (rc) return rc;
      m->settle_impacts += nclose;
      if (info) info->label = "impact";
      lcp_tried = 0;
      continue;
    }
    /* a held row pushes or pulls: the closed rows' complementarity problem
     * (with every held row pulling or pressing, all held is its solution) */
    if (!lcp_tried) {
      lcp_tried = 1;
      rc = release_by_lcp(m, t, y, info);
      if (rc < 0) return rc;
      if (rc > 0) ++m->settle_lcp_unsolved;
      continue;
    }
    /* the worst first, one at a time: the others' loads change with it */
    int kw = -1;
    double worst = 0.0;
    for (int k = 0; k < m->nc; ++k) {
      double f = m->lambda[k] * m->rows[k].vscale;
      if (push[k] && (kw < 0 || f > worst)) kw = k, worst = f;
    }
    release_row(m, kw, info);
  }
}

int capture_event(double t, double *y, double *yp, const int *dirs,
                  mbdae_event_info *info, void *ud) {
  (void)yp;
  capture_model *m = ud;
  capture_rows(m, y);
  if (m->p.mode == CAPTURE_MODE_EVENT) {
    int any = 0;
    for (int k = 0; k < m->nc; ++k) m->was_active[k] = (unsigned char)m->active[k];
    /* impacts: a constraint free at entry whose gap closed while closing */
    for (int k = 0; k < m->nc; ++k)
      m->work_flag[k] = !m->active[k] && dirs[k] > 0 && m->rows[k].cdot > 0.0;
    /* releases first (multipliers at this state) */
    int need_lambda = 0;
    for (int k = 0; k < m->nc; ++k) need_lambda |= m->active[k] && dirs[k] > 0;
    if (need_lambda) {
      int rc = capture_accelerations(m, t, y, m->acc);
      if (rc) return rc;
      for (int k = 0; k < m->nc; ++k)
        if (m->active[k] && dirs[k] > 0) { /* the force passed -release_force */
          m->active[k] = 0;
          ++m->releases;
          any = 1;
          if (info) info->label = "release";
        }
    }
    /* face switches (a point crossing an edge or vertex) */
    for (int j = 0; j < m->np; ++j) {
      if (dirs[m->nc + j] == 0) continue;
      double rho[3], rb[3];
      const double *P = &y[m->boff + MBDAE_RB_P];
      for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - P[c];
      for (int c = 0; c < 3; ++c) rb[c] = m->C[c] * rho[0] + m->C[3 + c] * rho[1] + m->C[6 + c] * rho[2];
      int nf = mbdae_polytope_face_of(m->body, rb, NULL);
      if (nf == m->face[j]) continue;
      m->face[j] = nf;
      ++m->face_switches;
      any = 1;
      if (info && !info->label) info->label = "face";
      int k = m->ns + j;
      capture_row *r = &m->rows[k];
      contact_row(m, y, j, r);
      if (m->active[k]) {
        double vt = m->p.stick_velocity * r->vscale;
        if (r->cdot > vt) { m->active[k] = 0; m->work_flag[k] = 1; }
        else if (r->cdot < -vt) { m->active[k] = 0; ++m->releases; }
      }
    }
    int nimp = 0;
    for (int k = 0; k < m->nc; ++k) nimp += m->work_flag[k];
    if (nimp) {
      int rc = resolve_impacts(m, y, m->work_flag, info);
      if (rc) return rc;
      if (info) info->label = "impact";
      any = 1;
    }
    if (!any) return MBDAE_EVENT_NOCHANGE; /* no map: no root moved */
    for (int k = 0; k < m->nc; ++k)
      if (m->was_active[k] && !m->active[k]) set_release_ref(m, k);
    int rc = settle_modes(m, t, y, info);
    return rc ? rc : MBDAE_EVENT_CONTINUE;
  }
  /* Baumgarte-compliant mode: a constraint is active while c >= 0 (sec. 3.3) */
  int changed = 0;
  for (int j = 0; j < m->np; ++j) {
    if (dirs[m->nc + j] == 0) continue;
    double rho[3], rb[3];
    const double *P = &y[m->boff + MBDAE_RB_P];
    for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - P[c];
    for (int c = 0; c < 3; ++c) rb[c] = m->C[c] * rho[0] + m->C[3 + c] * rho[1] + m->C[6 + c] * rho[2];
    int nf = mbdae_polytope_face_of(m->body, rb, NULL);
    if (nf != m->face[j]) { m->face[j] = nf; ++m->face_switches; changed = 1; contact_row(m, y, j, &m->rows[m->ns + j]); }
  }
  int unilateral = m->p.forces == CAPTURE_FORCES_UNILATERAL;
  for (int k = 0; k < m->nc; ++k) {
    if (unilateral) {
      /* both roots rise through 0 at a switch (capture_root_values): a
       * free row activates; an active one going slack is released when it
       * separates (below) or carries no force (nothing changes for the
       * motion, and its later re-stretch is a root again) */
      int a = m->active[k];
      if (dirs[k] > 0)
        a = !m->active[k] ||
            (m->forced[k] && m->rows[k].cdot > -m->p.stick_velocity * m->rows[k].vscale);
      if (a != m->active[k]) {
        m->active[k] = a;
        m->c_ref[k] = 0.0; /* both roots back at the surface c = 0 */
        changed = 1;
        if (a) ++m->impacts; else ++m->releases;
      } else if (dirs[k] > 0 && a) {
        /* kept: a forced row on its surface (eq. 3.2 holds c ~ 0 up to
         * round-off) stays held, and its root moves a band below the
         * present value, so a row that keeps falling is examined again
         * there. Without that, a row kept once was held at any depth: once
         * free, nothing brought it back (a contact held 50 face depths
         * away, a string held slack until its end points met and its row
         * vanished, the 30 x 30 capture's blow-up at t = 1.76-1.92 s). */
        double cs = row_cscale(m, k);
        m->c_ref[k] = fmin(m->rows[k].c / cs, 0.0) - CAPTURE_KEEP_BAND;
        changed = 1;
      }
      continue;
    }
    int a = dirs[k] > 0 ? 1 : dirs[k] < 0 ? 0 : m->active[k];
    /* An active constraint obeys c'' = -2 xi w c' - w^2 c: with xi >= 1 it
     * decays to 0 from above and never crosses, so a downward crossing with
     * c' ~ 0 is round-off at c ~ 0, not a release. Releasing there is also
     * unsafe: the engine's dead band reads the root as still on its
     * pre-crossing (positive) side, so if c then grows again within the
     * band (a string pulled, a point pressed in) the re-activation is never
     * seen and the constraint stays off while violated. Only a crossing
     * that separates (c' below -stick_velocity |grad c|) releases. */
    if (!a && m->active[k] && m->rows[k].cdot > -m->p.stick_velocity * m->rows[k].vscale)
      a = 1;
    if (a != m->active[k]) {
      m->active[k] = a;
      changed = 1;
      if (a) ++m->impacts; else ++m->releases;
    }
  }
  if (info) info->label = changed ? "switch" : "none";
  return changed ? MBDAE_EVENT_CONTINUE : MBDAE_EVENT_NOCHANGE;
}
