/* capture_compliant.c - net_capture with physically compliant threads and
 * contact (mode: compliant): every thread is an elastic_thread (EA, eta,
 * rest length = spacing), every point meets the body through the
 * Hunt-Crossley contact of compliant_contact.h. Forces only: no multipliers,
 * no roots, no events; slack/taut and contact onset are kinks of the
 * right-hand side, left to the integrator's error control. */
#include "capture/capture_compliant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compliant/first_order.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

int capture_is_compliant(const capture_model *m) { return m && m->comp; }

void capture_compliant_free(capture_model *m) {
  capture_compliant *cc = m->comp;
  if (!cc) return;
  free(cc->th);
  free(cc->F);
  free(cc->f);
  sn_pattern_free(&cc->pat);
  free(cc->ps);
  free(cc->ss);
  free(cc->dense_vals);
  free(cc);
  m->comp = NULL;
}

int capcomp_rhs_eval(capture_model *m, double t, const double *y, double *f) {
  capture_compliant *cc = m->comp;
  int np = m->np;
  const double *R = y, *V = &y[3 * np], *bs = &y[m->boff];
  double *F = cc->F;
  memset(F, 0, 3 * (size_t)np * sizeof *F);
  if (m->p.control == CAPTURE_CONTROL_MIN_THRUST) {
    int rc = capture_control_force(m, t, y, F);
    if (rc) return rc;
  }
  for (int s = 0; s < m->ns; ++s) {
    int i = m->net->s[s].i, j = m->net->s[s].j;
    double S[3], W[3], fh[3];
    for (int c = 0; c < 3; ++c) {
      S[c] = R[3 * j + c] - R[3 * i + c];
      W[c] = V[3 * j + c] - V[3 * i + c];
    }
    if (elastic_thread_force(&cc->th[s], S, W, fh, NULL, NULL, NULL) == 0.0) continue;
    for (int c = 0; c < 3; ++c) {
      F[3 * j + c] += fh[c];
      F[3 * i + c] -= fh[c];
    }
  }
  double C[9], Fb[3] = {0, 0, 0}, tau[3] = {0, 0, 0};
  mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
  for (int j = 0; j < np; ++j) {
    cc_result cr;
    if (!cc_point_contact(&cc->contact, m->body, cc->rmax, C, NULL, &R[3 * j], &V[3 * j], bs,
                          0, &cr))
      continue;
    for (int c = 0; c < 3; ++c) {
      F[3 * j + c] += cr.F[c];
      Fb[c] -= cr.F[c];
      tau[c] += cr.tau[c];
    }
  }
  memcpy(f, V, 3 * (size_t)np * sizeof *f);
  for (int i = 0; i < 3 * np; ++i) f[3 * np + i] = F[i] * m->minv[i / 3];
  double *fb = &f[m->boff];
  for (int c = 0; c < 3; ++c) {
    fb[MBDAE_RB_P + c] = bs[MBDAE_RB_U + c];
    fb[MBDAE_RB_U + c] = Fb[c] / m->body->mass;
  }
  mbdae_rb_quat_rate(&bs[MBDAE_RB_Q], &bs[MBDAE_RB_W], &fb[MBDAE_RB_Q]);
  mbdae_rb_euler(m->body->J, m->body->Jinv, &bs[MBDAE_RB_W], tau, &fb[MBDAE_RB_W]);
  for (int i = 0; i < m->n; ++i)
    if (!isfinite(f[i])) return 1;
  return 0;
}

int capture_compliant_rhs(capture_model *m, double t, const double *y, double *f) {
  return capcomp_rhs_eval(m, t, y, f);
}

static int cb_rhs(double t, const double *y, double *f, void *ud) {
  return capcomp_rhs_eval(ud, t, y, f);
}

static int cb_residual(double t, const double *y, const double *yp, double *res, void *ud) {
  capture_model *m = ud;
  int rc = capcomp_rhs_eval(m, t, y, m->comp->f);
  if (rc) return rc;
  for (int i = 0; i < m->n; ++i) res[i] = yp[i] - m->comp->f[i];
  return 0;
}

static int cb_jac_sparse(double t, double cj, const double *y, const double *yp,
                         double *vals, void *ud) {
  (void)yp;
  return capcomp_jacobian_values(ud, t, cj, y, vals);
}

static int cb_jac_dense(double t, double cj, const double *y, const double *yp,
                        double *out, void *ud) {
  (void)yp;
  capture_model *m = ud;
  capture_compliant *cc = m->comp;
  mbdae_index nnz = sn_pattern_nnz(cc->pat);
  memset(cc->dense_vals, 0, (size_t)nnz * sizeof *cc->dense_vals);
  int rc = capcomp_jacobian_values(m, t, cj, y, cc->dense_vals);
  if (rc) return rc;
  first_order_scatter_dense(cc->pat, m->n, cc->dense_vals, out);
  return 0;
}

void capture_compliant_energies(const capture_model *m, const double *y, double *kinetic,
                                double *elastic, double *contact, int *taut, int *contacts) {
  double pl[3], L[3], E = 0.0, Eel = 0.0, Ec = 0.0;
  int nt = 0, nc = 0;
  capture_momenta(m, y, pl, L, &E);
  const capture_compliant *cc = m->comp;
  int np = m->np;
  for (int s = 0; s < m->ns; ++s) {
    int i = m->net->s[s].i, j = m->net->s[s].j;
    double S[3];
    for (int c = 0; c < 3; ++c) S[c] = y[3 * j + c] - y[3 * i + c];
    double e = cc ? elastic_thread_energy(&cc->th[s], S) : 0.0;
    Eel += e;
    nt += e > 0.0;
  }
  if (cc) {
    double C[9];
    const double *bs = &y[m->boff];
    mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
    for (int j = 0; j < np; ++j) {
      double d = cc_point_depth(m->body, C, &y[3 * j], &bs[MBDAE_RB_P], NULL);
      if (d > 0.0) {
        ++nc;
        Ec += hc_energy(&cc->contact.normal, d);
      }
    }
  }
  if (kinetic) *kinetic = E;
  if (elastic) *elastic = Eel;
  if (contact) *contact = Ec;
  if (taut) *taut = nt;
  if (contacts) *contacts = nc;
}

static const char *comp_mode_name(void *ud) {
  capture_model *m = ud;
  (void)m;
  return "compliant";
}

static const char *const inv_names[] = {"energy", "px", "py", "pz", "Lx", "Ly", "Lz"};

/* energy: kinetic + elastic + contact (conserved without damping and friction) */
static int comp_invariants(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t; (void)yp;
  capture_model *m = ud;
  double ek, eel, ec;
  capture_momenta(m, y, &out[1], &out[4], &out[0]);
  capture_compliant_energies(m, y, &ek, &eel, &ec, NULL, NULL);
  out[0] = ek + eel + ec;
  return 0;
}

#define FAIL(k, ...)                                                 \
  do {                                                               \
    if (err) {                                                       \
      err->key = (k);                                                \
      snprintf(err->msg, sizeof err->msg, __VA_ARGS__);              \
    }                                                                \
    capture_free(&m);                                                \
    return MBDAE_ERR_PARAMETER;                                      \
  } while (0)

int capture_create_compliant(const capture_params *p, int dae, capture_model **out,
                             mbdae_param_error *err) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  capture_model *m = NULL;
  if (p->control == CAPTURE_CONTROL_ERROR_STAB) {
    if (err) {
      err->key = "control";
      snprintf(err->msg, sizeof err->msg,
               "error_stabilization solves the thrust jointly with the constraint forces; "
               "mode: compliant has none: use control none or min_thrust");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  int rc = capture_create(p, &m, err);
  if (rc) return rc;
  capture_compliant *cc = calloc(1, sizeof *cc);
  if (!cc) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  m->comp = cc;
  cc->dae = dae;
  cc->contact.normal.k = p->contact_stiffness;
  cc->contact.normal.p = p->contact_exponent;
  rc = hc_damping_for_restitution(p->contact_restitution, p->contact_reference_velocity,
                                  &cc->contact.normal.a);
  if (rc) FAIL("contact_restitution", "no damping gives this restitution (below e(1e12))");
  cc->contact.mu = p->friction;
  cc->contact.v_eps = p->friction_velocity;
  cc->rmax = cc_body_radius(m->body) * (1.0 + 1e-12);
  cc->th = calloc(m->ns > 0 ? (size_t)m->ns : 1, sizeof *cc->th);
  cc->F = calloc(3 * (size_t)m->np, sizeof *cc->F);
  cc->f = calloc((size_t)m->n, sizeof *cc->f);
  if (!cc->th || !cc->F || !cc->f) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  for (int s = 0; s < m->ns; ++s) {
    cc->th[s].L = m->net->s[s].L;
    cc->th[s].ea = p->string_ea;
    cc->th[s].eta = p->string_damping;
  }
  rc = capcomp_jacobian_setup(m);
  if (rc) { capture_free(&m); return rc; }
  /* replace the constraint form's problem by the compliant one */
  mbdae_problem_free(&m->problem);
  int r = first_order_problem(&m->problem, m->n, dae, m, cb_residual, cb_rhs, cc->pat, cb_jac_sparse,
                              cb_jac_dense, &cc->dense_vals);
  mbdae_problem *pb = m->problem;
  r = r ? r : mbdae_problem_set_invariants(pb, 7, inv_names, comp_invariants);
  r = r ? r : mbdae_problem_set_invariant_units(pb, capture_inv_units);
  r = r ? r : mbdae_problem_set_mode_name(pb, comp_mode_name);
  if (r) { capture_free(&m); return r; }
  *out = m;
  return MBDAE_OK;
}
