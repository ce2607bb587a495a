/* string_net_model.c - builds a string network from snm_params and wires it
 * to an mbdae_problem (DAE for IDA, ODE for CVODE/RK4). */
#include "strings/string_net_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

static int fail(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

static int counts(const snm_params *p, int *np, int *ns) {
  switch (p->topology) {
  case SNM_BOLA: *np = 2; *ns = 1; return 0;
  case SNM_CHAIN: *np = p->chain_points; *ns = p->chain_points - 1; return 0;
  case SNM_GRID:
  case SNM_SPINNING_GRID:
    *np = p->grid_n * p->grid_m;
    *ns = sn_grid_string_count(p->grid_n, p->grid_m);
    return 0;
  case SNM_TABLE: *np = p->npoints; *ns = p->nstrings; return 0;
  default: return MBDAE_ERR_PARAMETER;
  }
}

/* Memory of a net of np points, measured: 570 MB for a 1e5-point chain
 * (IDA + KLU, ~5.7 kB per point with the solver's vectors and factors);
 * 6 kB per point is checked before anything is allocated. */
static int check_memory(const snm_params *p, mbdae_param_error *err) {
  static char what[96];
  int np = 0, ns = 0;
  if (counts(p, &np, &ns)) return 0;
  const char *key = p->topology == SNM_CHAIN ? "chain_points"
                    : p->topology == SNM_TABLE ? "points" : "grid_n";
  snprintf(what, sizeof what, "a net of %d points", np);
  return mbdae_param_check_memory(err, key, 6e3 * (double)np, what);
}

int snm_params_check(const snm_params *p, mbdae_param_error *err) {
  static char key[48];
  if (!p) return MBDAE_ERR_ARGUMENT;
  if (check_memory(p, err)) return MBDAE_ERR_PARAMETER;
  if (!(p->xi >= 0.0)) return fail(err, "xi", "xi must be non-negative");
  if (!(p->omega_n >= 0.0)) return fail(err, "omega_n", "omega_n must be non-negative");
  if (!(p->length > 0.0)) return fail(err, "length", "string length must be positive");
  if (!(p->e >= 0.0 && p->e <= 1.0)) return fail(err, "e", "restitution must lie in [0, 1]");
  if (p->switching == 1 && p->hold != 1)
    return fail(err, "switching", "switching: state applies to mode: baumgarte only");
  if (p->hold == 2 && !(p->ea > 0.0)) return fail(err, "EA", "must be > 0");
  if (p->hold == 2 && !(p->string_damping >= 0.0))
    return fail(err, "string_damping", "must be >= 0");
  if (p->formulation == 1 && p->hold != 0)
    return fail(err, "formulation", "formulation: ggl holds exact taut strings: it applies to "
                                    "mode: event only");
  if (p->forces == 1 && p->hold != 1)
    return fail(err, "forces", "forces: unilateral applies to mode: baumgarte only (event "
                               "mode's strings are unilateral already: slack at zero tension)");
  switch (p->topology) {
  case SNM_BOLA: {
    if (!(p->m1 > 0.0)) return fail(err, "m1", "mass must be positive");
    if (!(p->m2 > 0.0)) return fail(err, "m2", "mass must be positive");
    double d2 = 0.0;
    for (int c = 0; c < 3; ++c) d2 += (p->r2[c] - p->r1[c]) * (p->r2[c] - p->r1[c]);
    if (d2 > p->length * p->length * (1.0 + 1e-12))
      return fail(err, "r2", "the bola's points start farther apart than the string length");
    return 0;
  }
  case SNM_CHAIN:
    if (p->chain_points < 2) return fail(err, "chain_points", "a chain needs at least 2 points");
    if (!(p->chain_mass > 0.0)) return fail(err, "chain_mass", "mass must be positive");
    return 0;
  case SNM_GRID:
    if (p->grid_n < 1 || p->grid_m < 1 || p->grid_n * p->grid_m < 2)
      return fail(err, "grid_n", "a grid net needs at least 2 points");
    if (!(p->grid_mass > 0.0)) return fail(err, "grid_mass", "mass must be positive");
    if (!(p->corner_mass > 0.0)) return fail(err, "corner_mass", "mass must be positive");
    if (!(p->t_deploy > 0.0)) return fail(err, "t_deploy", "deployment time must be positive");
    return 0;
  case SNM_SPINNING_GRID:
    if (p->grid_n < 1 || p->grid_m < 1 || p->grid_n * p->grid_m < 2)
      return fail(err, "grid_n", "a grid net needs at least 2 points");
    if (!(p->grid_mass > 0.0)) return fail(err, "grid_mass", "mass must be positive");
    if (!(p->corner_mass > 0.0)) return fail(err, "corner_mass", "mass must be positive");
    return 0;
  case SNM_TABLE:
    if (p->npoints < 1 || !p->points) return fail(err, "points", "no points given");
    for (int k = 0; k < p->npoints; ++k)
      if (!(p->points[7 * k] > 0.0)) {
        snprintf(key, sizeof key, "points[%d]", k);
        return fail(err, key, "point mass must be positive");
      }
    for (int s = 0; s < p->nstrings; ++s) {
      const double *r = p->strings + 3 * s;
      snprintf(key, sizeof key, "strings[%d]", s);
      if (r[0] != floor(r[0]) || r[1] != floor(r[1]))
        return fail(err, key, "point indices must be integers");
      if (r[0] < 0 || r[0] >= p->npoints || r[1] < 0 || r[1] >= p->npoints)
        return fail(err, key, "string joins a point that does not exist");
      if (r[0] == r[1]) return fail(err, key, "string joins a point to itself");
      if (!(r[2] > 0.0)) return fail(err, key, "string length must be positive");
    }
    return 0;
  default:
    return fail(err, "topology", "unknown topology");
  }
}

double snm_energy(const snm_model *m, const double *y) {
  const sn_net *net = m->net;
  double E = sn_kinetic_energy(net, y + net->off_v);
  if (net->hold == SN_HOLD_ELASTIC) E += sn_elastic_energy(net, y + net->off_r);
  for (int k = 0; k < net->np; ++k)
    for (int c = 0; c < 3; ++c) E -= net->m[k] * m->p.gravity[c] * y[net->off_r + 3 * k + c];
  return E;
}

/* --- problem callbacks -------------------------------------------------- */

static int cb_residual(double t, const double *y, const double *yp, double *out, void *ud) {
  snm_model *m = ud;
  return sn_net_residual(m->net, t, y, yp, out);
}

/* DAE form, for method arkode: lambda and yp from R, V in the current modes */
static int cb_complete(double t, double *y, double *yp, void *ud) {
  snm_model *m = ud;
  return sn_net_consistent(m->net, t, y, yp, NULL);
}

static int cb_rhs(double t, const double *y, double *out, void *ud) {
  snm_model *m = ud;
  return sn_net_rhs(m->net, t, y, NULL, out, NULL);
}

static int cb_jac_sparse(double t, double cj, const double *y, const double *yp,
                         double *out, void *ud) {
  snm_model *m = ud;
  return sn_net_jacobian(m->net, t, cj, y, yp, out);
}

/* elastic threads: the ODE's df/dy, or y' - f(y) = 0 under IDA */
static int cb_elastic_residual(double t, const double *y, const double *yp, double *out,
                               void *ud) {
  snm_model *m = ud;
  int rc = sn_net_rhs(m->net, t, y, NULL, m->f, NULL);
  if (rc) return rc;
  for (int q = 0; q < m->net->n; ++q) out[q] = yp[q] - m->f[q];
  return 0;
}

static int cb_elastic_jac(double t, double cj, const double *y, const double *yp,
                          double *out, void *ud) {
  (void)yp;
  snm_model *m = ud;
  return sn_elastic_jacobian(m->net, t, cj, m->elastic_dae, y, out);
}

static int cb_jac_dense(double t, double cj, const double *y, const double *yp,
                        double *out, void *ud) {
  snm_model *m = ud;
  mbdae_index nnz = sn_pattern_nnz(m->pattern);
  memset(m->jac_vals, 0, (size_t)nnz * sizeof(double));
  int rc = m->net->hold == SN_HOLD_ELASTIC
               ? sn_elastic_jacobian(m->net, t, cj, m->elastic_dae, y, m->jac_vals)
               : sn_net_jacobian(m->net, t, cj, y, yp, m->jac_vals);
  if (rc) return rc;
  const mbdae_index *cp = sn_pattern_colptr(m->pattern), *ri = sn_pattern_rowind(m->pattern);
  int n = m->net->n;
  for (int c = 0; c < n; ++c)
    for (mbdae_index a = cp[c]; a < cp[c + 1]; ++a) out[(size_t)c * n + ri[a]] += m->jac_vals[a];
  return 0;
}

static int cb_roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)yp;
  snm_model *m = ud;
  sn_net *net = m->net;
  const double *lam = net->form != SN_FORM_ODE ? y + net->off_lam : NULL;
  return sn_net_roots(net, t, y + net->off_r, y + net->off_v, lam, g);
}

static int cb_event(double t, double *y, double *yp, const int *dirs,
                    mbdae_event_info *info, void *ud) {
  snm_model *m = ud;
  int rc = sn_net_handle_events(m->net, t, y, m->net->form != SN_FORM_ODE ? yp : NULL,
                                dirs, info, NULL);
  if (rc < 0) return rc;
  m->impacts += m->net->last_impacts;
  m->releases += m->net->last_releases;
  m->activations += m->net->last_activations;
  m->plastic += m->net->last_plastic;
  m->energy_lost += m->net->last_energy_loss;
  return rc;
}

static const char *const snm_inv_names[] = {"energy", "momentum_x", "momentum_y", "momentum_z"};
static const char *const snm_inv_units[] = {"J", "kg m/s", "kg m/s", "kg m/s"};

static int cb_invariants(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t;
  (void)yp;
  snm_model *m = ud;
  out[0] = snm_energy(m, y);
  sn_momentum(m->net, y + m->net->off_v, out + 1);
  return 0;
}

static const char *cb_mode(void *ud) {
  snm_model *m = ud;
  const sn_net *net = m->net;
  int taut = 0;
  for (int s = 0; s < net->ns; ++s) taut += net->taut[s];
  if (m->event_capturing) taut = m->impulse_taut;
  if (net->ns == 1) return taut ? "taut" : "slack";
  snprintf(m->mode_buf, sizeof m->mode_buf, "taut %d/%d", taut, net->ns);
  return m->mode_buf;
}

/* --- construction -------------------------------------------------------- */

/* Formulation ggl (index 2): a Newton correction of lambda or mu carries the
 * round-off of the constraint rows amplified by cj = O(1/h) (|d mu| ~ eps cj,
 * |d lambda| ~ eps cj m |W| / L), so with the positions' atol the Newton
 * iteration fails on noise once h is small (the bola at atol 1e-12: 58
 * convergence failures down to h = 2.7e-10 s, then IDA_CONV_FAIL). Unless
 * the caller gave per-component tolerances, their atol is GGL_ATOL_REL of
 * their natural scales: lambda ~ M (U^2 / L + |g|) / L, mu ~ U / L (M the
 * total mass, U the largest speed about the centre of mass plus sqrt(|g| L),
 * L the shortest string). For the same reason the first step is
 * 1e-5 L / U unless the caller chose one: IDA's own guess (2e-13 s on a
 * spinning 20-point chain) makes eps cj exceed any such tolerance, and at
 * 1e-6 L / U the bola's first step after 3 to 4 of 14 segment boundaries
 * (--checkpoint-every 0.012 ... 0.5 s, rtol 1e-8 and 1e-6) failed alike. As for
 * the pendulum's GGL form, lambda and mu are outside the local error test
 * (suppress_alg). */
#define GGL_ATOL_REL 1e-9

static int ggl_solver_settings(snm_model *m, mbdae_options *o) {
  const sn_net *net = m->net;
  double M = 0.0, p[3] = {0, 0, 0}, L = HUGE_VAL, g = 0.0, U = 0.0;
  for (int k = 0; k < net->np; ++k) {
    M += net->m[k];
    for (int c = 0; c < 3; ++c) p[c] += net->m[k] * m->V0[3 * k + c];
  }
  for (int s = 0; s < net->ns; ++s) L = fmin(L, net->s[s].L);
  for (int c = 0; c < 3; ++c) g += m->p.gravity[c] * m->p.gravity[c];
  g = sqrt(g);
  for (int k = 0; k < net->np; ++k) {
    double u = 0.0;
    for (int c = 0; c < 3; ++c) {
      double d = m->V0[3 * k + c] - p[c] / M;
      u += d * d;
    }
    U = fmax(U, sqrt(u));
  }
  if (net->ns == 0) L = 1.0;
  U += sqrt(g * L);
  if (o->h_init <= 0.0) o->h_init = 1e-5 * L / U;
  if (o->atol_vec) return 0;
  double lam = GGL_ATOL_REL * M * (U * U / L + g) / L, mu = GGL_ATOL_REL * U / L;
  m->atol = malloc((size_t)net->n * sizeof *m->atol);
  if (!m->atol) return MBDAE_ERR_MEMORY;
  for (int q = 0; q < net->n; ++q)
    m->atol[q] = q < net->off_lam ? o->atol
                 : q < net->off_mu ? fmax(o->atol, lam) : fmax(o->atol, mu);
  o->atol_vec = m->atol;
  return 0;
}

static int describe(snm_model *m) {
  const snm_params *p = &m->p;
  sn_net *net = m->net;
  double *R0 = m->R0, *V0 = m->V0;
  switch (p->topology) {
  case SNM_BOLA:
    net->m[0] = p->m1;
    net->m[1] = p->m2;
    net->s[0].i = 0;
    net->s[0].j = 1;
    net->s[0].L = p->length;
    for (int c = 0; c < 3; ++c) {
      R0[c] = p->r1[c];
      R0[3 + c] = p->r2[c];
      V0[c] = p->v1[c];
      V0[3 + c] = p->v2[c];
    }
    return 0;
  case SNM_CHAIN: {
    int N = p->chain_points;
    double origin[3] = {-0.5 * (N - 1) * p->length, 0.0, 0.0}, dir[3] = {1.0, 0.0, 0.0};
    int rc = sn_describe_chain(net, p->chain_mass, p->length, origin, dir, R0);
    if (rc) return rc;
    for (int k = 0; k < N; ++k) {
      double x = R0[3 * k];
      for (int c = 0; c < 3; ++c) R0[3 * k + c] += p->origin[c];
      V0[3 * k + 0] = 0.0;
      V0[3 * k + 1] = p->chain_spin * x; /* rigid spin about z */
      V0[3 * k + 2] = p->chain_wave * sin(3.14159265358979323846 * k / (N - 1));
    }
    return 0;
  }
  case SNM_GRID:
    return sn_describe_grid(net, p->grid_n, p->grid_m, p->grid_mass, p->corner_mass,
                            p->length, p->origin, p->v_common, p->t_deploy, p->jitter,
                            R0, V0);
  case SNM_SPINNING_GRID: {
    /* strings and masses as the deploying grid; then lay it out flat: point
     * (a, b) at x = (a - (n-1)/2) L, y = (b - (m-1)/2) L, so every string is
     * exactly at length. A rigid spin w about z stretches every string (the
     * tension of a lateral string is the sum of m w^2 x over the points
     * outward of it), so all strings start taut. */
    int n = p->grid_n, mm = p->grid_m;
    double zero[3] = {0, 0, 0};
    int rc = sn_describe_grid(net, n, mm, p->grid_mass, p->corner_mass, p->length, zero,
                              zero, 1.0, 0.0, R0, V0);
    if (rc) return rc;
    const double pi = 3.14159265358979323846;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < mm; ++b) {
        int k = a * mm + b;
        double x = (a - 0.5 * (n - 1)) * p->length, y = (b - 0.5 * (mm - 1)) * p->length;
        double bump = (n > 1 ? sin(pi * a / (n - 1)) : 1.0) * (mm > 1 ? sin(pi * b / (mm - 1)) : 1.0);
        R0[3 * k + 0] = p->origin[0] + x;
        R0[3 * k + 1] = p->origin[1] + y;
        R0[3 * k + 2] = p->origin[2];
        V0[3 * k + 0] = -p->grid_spin * y;
        V0[3 * k + 1] = p->grid_spin * x;
        V0[3 * k + 2] = p->grid_wave * bump;
      }
    return 0;
  }
  case SNM_TABLE:
    for (int k = 0; k < p->npoints; ++k) {
      const double *r = p->points + 7 * k;
      net->m[k] = r[0];
      for (int c = 0; c < 3; ++c) {
        R0[3 * k + c] = r[1 + c];
        V0[3 * k + c] = r[4 + c];
      }
    }
    for (int s = 0; s < p->nstrings; ++s) {
      net->s[s].i = (int)p->strings[3 * s];
      net->s[s].j = (int)p->strings[3 * s + 1];
      net->s[s].L = p->strings[3 * s + 2];
    }
    return 0;
  default:
    return MBDAE_ERR_PARAMETER;
  }
}

/* A large net's set-up takes seconds: between its phases, an interruption
 * (SIGINT/SIGTERM, seen by the driver) ends it with MBDAE_STOPPED. */
static int cancelled(const mbdae_options *o) {
  return mbdae_options_cancelled(o) ? MBDAE_STOPPED : MBDAE_OK;
}

int snm_create(const snm_params *p, mbdae_options *o, snm_model **out,
               mbdae_param_error *err) {
  int rc = snm_params_check(p, err);
  if (rc) return rc;
  int np = 0, ns = 0;
  if (counts(p, &np, &ns)) return MBDAE_ERR_PARAMETER;
  /* ida integrates the DAE form; so does arkode with klu, through the
   * completion (the ODE form has no sparse Jacobian: doc/arkode.md) */
  sn_form form = o->method == MBDAE_METHOD_IDA ||
                         (o->method == MBDAE_METHOD_ARKODE && o->linsol == MBDAE_LINSOL_KLU)
                     ? SN_FORM_DAE
                     : SN_FORM_ODE;
  int elastic = p->hold == 2;
  if (elastic) form = SN_FORM_ODE; /* no multipliers: IDA solves y' - f(y) = 0 */
  if (p->formulation == 1) {
    /* index 2: IDA only (arkode takes semi-explicit index 1 DAEs) */
    if (o->method != MBDAE_METHOD_IDA) {
      if (err) {
        err->key = "solver.method";
        snprintf(err->msg, sizeof err->msg,
                 "method %s cannot take formulation ggl (an index-2 DAE): use method ida, "
                 "or formulation index1 with %s",
                 mbdae_method_name(o->method), mbdae_method_name(o->method));
      }
      return MBDAE_ERR_PARAMETER;
    }
    form = SN_FORM_GGL;
  }
  if (o->method == MBDAE_METHOD_MOREAU && p->hold != 0)
    return fail(err, "mode", "method moreau holds strings as unilateral constraints with "
                             "impacts (mode: event); baumgarte compliance is for the other methods");
  if (form == SN_FORM_DAE && p->forces == 1)
    return fail(err, "forces", "forces: unilateral solves the tension signs inside the ODE "
                               "form's right-hand side: use solver.method rk4, cvode-adams, "
                               "cvode-bdf or arkode with linear_solver dense (ida and arkode "
                               "with klu integrate the DAE form: bilateral only)");
  /* The multipliers solve an acceleration-level equation (they behave like
   * index-2 variables in BDF's local error estimate, which then rejects
   * nearly every step): exclude them from IDA's error test. */
  if (form != SN_FORM_ODE) o->suppress_alg = 1;
  if (elastic && o->method == MBDAE_METHOD_MOREAU)
    return fail(err, "mode", "elastic threads are forces without impacts: use ida, cvode-bdf, "
                             "cvode-adams or rk4");
  snm_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p; /* points/strings: the caller's tables, read by describe() only */
  m->net = sn_net_create(np, ns, 0, form);
  m->R0 = calloc(3 * (size_t)np, sizeof(double));
  m->V0 = calloc(3 * (size_t)np, sizeof(double));
  m->lam_out = calloc(ns > 0 ? (size_t)ns : 1, sizeof(double));
  m->tension = calloc(ns > 0 ? (size_t)ns : 1, sizeof(double));
  if (!m->net || !m->R0 || !m->V0 || !m->lam_out || !m->tension) {
    snm_free(&m);
    return MBDAE_ERR_MEMORY;
  }
  sn_net *net = m->net;
  rc = describe(m);
  if (!rc) rc = cancelled(o);
  if (rc) goto fail_rc;
  m->p.points = NULL; /* owned by the caller (driver): not kept */
  m->p.strings = NULL;
  net->hold = p->hold == 2 ? SN_HOLD_ELASTIC : p->hold == 1 ? SN_HOLD_BAUMGARTE : SN_HOLD_EVENT;
  m->elastic_dae = elastic && o->method == MBDAE_METHOD_IDA;
  net->drift_xi = p->drift_xi;
  net->drift_w = p->drift_omega;
  net->zeno_ratio = p->zeno_ratio;
  net->release_band = p->release_band;
  net->switch_by_state = p->hold == 1 && p->switching == 1;
  net->unilateral = p->hold == 1 && p->forces == 1;
  net->ordering = o->ordering == MBDAE_ORDERING_COLAMD ? MBDAE_ORDERING_COLAMD
                  : o->ordering == MBDAE_ORDERING_NATURAL ? MBDAE_ORDERING_NATURAL
                                                          : MBDAE_ORDERING_AMD;
  for (int s = 0; s < ns; ++s) {
    net->s[s].e = p->e;
    net->s[s].xi = p->xi;
    net->s[s].w = p->omega_n;
    net->s[s].ea = p->ea;
    net->s[s].eta = p->string_damping;
  }
  m->gd.c = p->drag;
  m->gd.m = net->m;
  for (int c = 0; c < 3; ++c) m->gd.g[c] = p->gravity[c];
  net->force.fn = sn_force_gravity_drag;
  net->force.user = &m->gd;
  net->force.jac_r = SN_JAC_NONE;
  net->force.jac_v = p->drag != 0.0 ? SN_JAC_DIAG : SN_JAC_NONE;
  int bad = -1;
  const char *why = "";
  rc = sn_net_finalize(net, &bad, &why);
  if (rc) {
    if (rc == MBDAE_ERR_PARAMETER && err) {
      static char key[48];
      snprintf(key, sizeof key, "strings[%d]", bad);
      err->key = bad >= 0 ? key : "points";
      snprintf(err->msg, sizeof err->msg, "%s", why);
    }
    goto fail_rc;
  }
  rc = cancelled(o);
  if (rc) goto fail_rc;
  rc = sn_net_check_taut_rank(net, o->t0, m->R0, m->V0);
  if (rc == MBDAE_ERR_PARAMETER && err) {
    err->key = "topology";
    snprintf(err->msg, sizeof err->msg,
             "singular constraint Jacobian at t0: the taut strings' constraint gradients are "
             "linearly dependent (e.g. two points at the same place joined by taut strings to "
             "the same points), so the string forces are not determined");
  }
  if (!rc) rc = cancelled(o);
  if (rc) goto fail_rc;
  m->problem = mbdae_problem_create(
      net->n, form != SN_FORM_ODE || m->elastic_dae ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  if (!m->problem) {
    rc = MBDAE_ERR_MEMORY;
    goto fail_rc;
  }
  mbdae_problem *pb = m->problem;
  rc = mbdae_problem_set_user_data(pb, m);
  if (!rc && elastic) {
    /* elastic threads (string_net_elastic.c): ODE with its exact df/dy, or
     * y' - f(y) = 0 under IDA; no roots, no events */
    if (m->elastic_dae) {
      rc = mbdae_problem_set_residual(pb, cb_elastic_residual);
      double *id = malloc((size_t)net->n * sizeof(double));
      m->f = malloc((size_t)net->n * sizeof(double));
      if (!id || !m->f) rc = MBDAE_ERR_MEMORY;
      for (int q = 0; !rc && q < net->n; ++q) id[q] = 1.0;
      if (!rc) rc = mbdae_problem_set_id(pb, id);
      free(id);
    } else {
      rc = mbdae_problem_set_rhs(pb, cb_rhs);
    }
    m->pattern = sn_pattern_create(net->n);
    if (!rc && !m->pattern) rc = MBDAE_ERR_MEMORY;
    if (!rc) rc = sn_elastic_pattern_add(net, m->pattern);
    if (!rc) rc = cancelled(o);
    if (!rc) rc = sn_pattern_finalize(m->pattern);
    if (!rc) rc = cancelled(o);
    if (!rc) rc = sn_elastic_jacobian_bind(net, m->pattern);
    if (!rc) {
      m->jac_vals = malloc((size_t)sn_pattern_nnz(m->pattern) * sizeof(double));
      if (!m->jac_vals) rc = MBDAE_ERR_MEMORY;
    }
    if (!rc)
      rc = mbdae_problem_set_jacobian_sparse(pb, sn_pattern_nnz(m->pattern),
                                             sn_pattern_colptr(m->pattern),
                                             sn_pattern_rowind(m->pattern), cb_elastic_jac);
    if (!rc && net->n <= 3000) rc = mbdae_problem_set_jacobian_dense(pb, cb_jac_dense);
  } else if (!rc && form != SN_FORM_ODE) {
    rc = mbdae_problem_set_residual(pb, cb_residual);
    double *id = malloc((size_t)net->n * sizeof(double));
    if (!id) rc = MBDAE_ERR_MEMORY;
    if (!rc) {
      for (int q = 0; q < net->n; ++q) id[q] = q < net->off_lam ? 1.0 : 0.0;
      rc = mbdae_problem_set_id(pb, id);
    }
    if (!rc && form == SN_FORM_DAE)
      rc = mbdae_problem_set_completion(pb, net->off_lam, cb_complete);
    /* a segment boundary of ggl: lambda, mu = 0, y' as after an event
     * (IDACalcIC cannot solve the index-2 system) */
    if (!rc && form == SN_FORM_GGL) rc = mbdae_problem_set_restart_state(pb, cb_complete);
    free(id);
    m->pattern = sn_pattern_create(net->n);
    if (!rc && !m->pattern) rc = MBDAE_ERR_MEMORY;
    if (!rc) rc = sn_net_pattern_add(net, m->pattern);
    if (!rc) rc = cancelled(o);
    if (!rc) rc = sn_pattern_finalize(m->pattern);
    if (!rc) rc = cancelled(o);
    if (!rc) rc = sn_net_jacobian_bind(net, m->pattern);
    if (!rc) {
      m->jac_vals = malloc((size_t)sn_pattern_nnz(m->pattern) * sizeof(double));
      if (!m->jac_vals) rc = MBDAE_ERR_MEMORY;
    }
    if (!rc)
      rc = mbdae_problem_set_jacobian_sparse(pb, sn_pattern_nnz(m->pattern),
                                             sn_pattern_colptr(m->pattern),
                                             sn_pattern_rowind(m->pattern), cb_jac_sparse);
    if (!rc && net->n <= 3000) rc = mbdae_problem_set_jacobian_dense(pb, cb_jac_dense);
  } else if (!rc) {
    rc = mbdae_problem_set_rhs(pb, cb_rhs); /* ODE Jacobian: the integrator's own DQ */
  }
  /* switching by state: no roots, the modes follow phi at every evaluation */
  if (!rc && ns > 0 && !net->switch_by_state && !elastic)
    rc = mbdae_problem_set_roots(pb, ns, cb_roots);
  if (!rc) rc = mbdae_problem_set_event_handler(pb, cb_event);
  if (!rc) rc = mbdae_problem_set_invariants(pb, 4, snm_inv_names, cb_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(pb, snm_inv_units);
  if (!rc) rc = mbdae_problem_set_mode_name(pb, cb_mode);
  if (!rc && o->method == MBDAE_METHOD_MOREAU) rc = snm_set_mechanics(m);
  if (!rc && form == SN_FORM_GGL) rc = ggl_solver_settings(m, o);
  if (rc) goto fail_rc;
  m->detailed = 6 * np + 2 * ns <= p->max_output_columns;
  *out = m;
  return 0;
fail_rc:
  snm_free(&m);
  return rc;
}

void snm_free(snm_model **pm) {
  if (!pm || !*pm) return;
  snm_model *m = *pm;
  mbdae_problem_free(&m->problem);
  sn_pattern_free(&m->pattern);
  sn_net_free(&m->net);
  free(m->R0);
  free(m->V0);
  free(m->jac_vals);
  free(m->f);
  free(m->lam_out);
  free(m->tension);
  free(m->atol);
  free(m->impulse_tension);
  free(m);
  *pm = NULL;
}

int snm_initial_state(snm_model *m, double t0, double *y, double *yp) {
  sn_net *net = m->net;
  memset(y, 0, (size_t)net->n * sizeof(double));
  memcpy(y + net->off_r, m->R0, 3 * (size_t)net->np * sizeof(double));
  memcpy(y + net->off_v, m->V0, 3 * (size_t)net->np * sizeof(double));
  int rc = sn_net_init_modes(net, t0, y + net->off_r, y + net->off_v);
  if (rc) return rc;
  if (net->form != SN_FORM_ODE) {
    if (!yp) return MBDAE_ERR_ARGUMENT;
    memset(yp, 0, (size_t)net->n * sizeof(double));
    return sn_net_consistent(net, t0, y, yp, NULL);
  }
  if (yp) return sn_net_rhs(net, t0, y, NULL, yp, NULL);
  return 0;
}
