/* capture_build.c - parameters, construction, initial state and
 * diagnostics of the net-capture model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
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

void capture_params_default(capture_params *p) {
  memset(p, 0, sizeof *p);
  p->mode = CAPTURE_MODE_EVENT;
  p->rows = p->cols = 10;
  p->spacing = 0.4;
  p->point_mass = 0.01;
  p->launch_point[0] = -4.0;
  p->launch_velocity[0] = 2.0;
  p->deploy_time = 1.0;
  p->strings_on = 1;
  p->shape = CAPTURE_SHAPE_PRISM;
  p->prism_sides = 8;
  p->prism_radius = 1.0;
  p->prism_length = 2.0;
  p->box_size[0] = p->box_size[1] = p->box_size[2] = 1.0;
  p->body_mass = 10.0;
  p->body_attitude[0] = 1.0;
  p->e_string = 0.0;
  p->e_body = 0.5;
  p->stick_velocity = 1e-3;
  p->release_force = 1e-9;
  p->xi_string = p->xi_body = 0.5;
  p->omega_string = p->omega_body = 10.0;
  p->control_tf = 1.0;
  p->zeta = 1.0;
  p->omega_n = 1.0;
  p->string_ea = 5.5e4;
  p->string_damping = 0.0;
  p->contact_stiffness = 1e5;
  p->contact_exponent = 1.5;
  p->contact_restitution = 0.5;
  p->contact_reference_velocity = 1.0;
  p->friction = 0.0;
  p->friction_velocity = 0.01;
}

#define FAIL(k, ...)                                                 \
  do {                                                               \
    if (err) {                                                       \
      err->key = (k);                                                \
      snprintf(err->msg, sizeof err->msg, __VA_ARGS__);              \
    }                                                                \
    return MBDAE_ERR_PARAMETER;                                      \
  } while (0)

static int finite_n(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* Build the body from the parameters (vertices by shape). */
static int build_body(const capture_params *p, mbdae_polytope **out, mbdae_param_error *err) {
  double buf[3 * 64];
  const double *v = buf;
  int nv = 0;
  const char *key = "vertices";
  if (p->shape == CAPTURE_SHAPE_PRISM) {
    key = "prism_sides";
    if (p->prism_sides < 3 || p->prism_sides > 32) FAIL(key, "prism_sides must be in [3, 32]");
    if (!(p->prism_radius > 0.0)) FAIL("prism_radius", "must be > 0");
    if (!(p->prism_length > 0.0)) FAIL("prism_length", "must be > 0");
    nv = 2 * p->prism_sides;
    mbdae_polytope_prism_vertices(p->prism_sides, p->prism_radius, p->prism_length, buf);
  } else if (p->shape == CAPTURE_SHAPE_BOX) {
    key = "box_size";
    for (int i = 0; i < 3; ++i)
      if (!(p->box_size[i] > 0.0)) FAIL(key, "every edge length must be > 0");
    nv = 8;
    mbdae_polytope_box_vertices(p->box_size[0], p->box_size[1], p->box_size[2], buf);
  } else {
    if (!p->vertices || p->nvertices <= 0) FAIL(key, "shape 'vertices' needs a vertex table");
    v = p->vertices;
    nv = p->nvertices;
  }
  if (!(p->body_mass > 0.0) || !isfinite(p->body_mass)) FAIL("body_mass", "must be > 0");
  int why = 0, bad = -1;
  int rc = mbdae_polytope_create(v, nv, p->body_mass, p->inertia_given ? p->inertia : NULL,
                                 out, &why, &bad);
  if (rc == MBDAE_ERR_PARAMETER) {
    if (why == MBDAE_POLYTOPE_MASS) FAIL(p->inertia_given ? "inertia" : "body_mass", "%s",
                                         mbdae_polytope_reason(why));
    if (why == MBDAE_POLYTOPE_ORIGIN) FAIL("inertia_given", "%s (with a given inertia the "
                                           "vertices are relative to the centre of mass)",
                                           mbdae_polytope_reason(why));
    if (bad >= 0) FAIL(key, "%s (vertex %d)", mbdae_polytope_reason(why), bad);
    FAIL(key, "%s", mbdae_polytope_reason(why));
  }
  if (rc) FAIL(key, "cannot build the body: %s", mbdae_status_message(rc));
  return MBDAE_OK;
}

/* Unit attitude quaternion; the all-zero default means the identity. */
void capture_attitude(const capture_params *p, double *q) {
  double n = 0.0;
  for (int c = 0; c < 4; ++c) n += p->body_attitude[c] * p->body_attitude[c];
  n = sqrt(n);
  for (int c = 0; c < 4; ++c) q[c] = n > 0.0 ? p->body_attitude[c] / n : (c == 0);
}

int capture_params_check(const capture_params *p, mbdae_param_error *err) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  if (p->rows < 1 || p->cols < 1) FAIL("rows", "the net needs rows, cols >= 1");
  if (!(p->spacing > 0.0)) FAIL("spacing", "must be > 0");
  if (!(p->point_mass > 0.0)) FAIL("point_mass", "must be > 0");
  if (!(p->deploy_time > 0.0)) FAIL("deploy_time", "must be > 0");
  if (!finite_n(p->launch_point, 3)) FAIL("launch_point", "non-finite");
  if (!finite_n(p->launch_velocity, 3) || !(dot3(p->launch_velocity, p->launch_velocity) > 0.0))
    FAIL("launch_velocity", "must be a non-zero vector (it sets the net's plane)");
  if (!finite_n(p->body_attitude, 4)) FAIL("body_attitude", "non-finite");
  if (p->e_string < 0.0 || p->e_string > 1.0) FAIL("e_string", "must be in [0, 1]");
  if (p->e_body < 0.0 || p->e_body > 1.0) FAIL("e_body", "must be in [0, 1]");
  if (p->xi_string < 0.0 || p->omega_string < 0.0) FAIL("xi_string", "Baumgarte gains must be >= 0");
  if (p->xi_body < 0.0 || p->omega_body < 0.0) FAIL("xi_body", "Baumgarte gains must be >= 0");
  if (p->switching == CAPTURE_SWITCH_STATE && p->mode != CAPTURE_MODE_BAUMGARTE)
    FAIL("switching", "switching: state applies to mode: baumgarte only");
  if (p->forces == CAPTURE_FORCES_UNILATERAL && p->mode != CAPTURE_MODE_BAUMGARTE)
    FAIL("baumgarte_forces", "unilateral applies to mode: baumgarte only (event mode's "
                             "forces are unilateral already: release at zero force)");
  if (p->control != CAPTURE_CONTROL_NONE && !(p->control_tf > 0.0)) FAIL("control_tf", "must be > 0");
  if (!(p->friction >= 0.0 && isfinite(p->friction))) FAIL("friction", "must be finite and >= 0");
  if (p->mode == CAPTURE_MODE_BAUMGARTE && p->friction > 0.0)
    FAIL("friction", "applies to mode compliant (regularised) and to mode event under "
                     "solver.method moreau (Coulomb cone); mode baumgarte is frictionless");
  if (p->mode == CAPTURE_MODE_COMPLIANT) { /* capture_compliant.c */
    if (!(p->string_ea > 0.0)) FAIL("EA", "must be > 0");
    if (!(p->string_damping >= 0.0)) FAIL("string_damping", "must be >= 0");
    if (!(p->contact_stiffness > 0.0)) FAIL("contact_stiffness", "must be > 0");
    if (!(p->contact_exponent >= 1.0)) FAIL("contact_exponent", "must be >= 1");
    if (!(p->contact_restitution > 0.0 && p->contact_restitution <= 1.0))
      FAIL("contact_restitution", "must be in (0, 1] (e = 0 needs infinite damping)");
    if (!(p->contact_reference_velocity > 0.0)) FAIL("contact_reference_velocity", "must be > 0");
    if (!(p->friction >= 0.0)) FAIL("friction", "must be >= 0");
    if (!(p->friction_velocity > 0.0)) FAIL("friction_velocity", "must be > 0");
  }
  mbdae_polytope *b = NULL;
  int rc = build_body(p, &b, err);
  if (rc) return rc;
  /* the net must start outside the body */
  double C[9], rho[3], rb[3], s, q[4];
  capture_attitude(p, q);
  mbdae_rb_rotation(q, C);
  for (int c = 0; c < 3; ++c) rho[c] = p->launch_point[c] - p->body_position[c];
  for (int c = 0; c < 3; ++c) rb[c] = C[c] * rho[0] + C[3 + c] * rho[1] + C[6 + c] * rho[2];
  mbdae_polytope_face_of(b, rb, &s);
  mbdae_polytope_free(&b);
  if (!(s > 1.0)) FAIL("launch_point", "the net starts inside (or on) the body");
  return MBDAE_OK;
}

const char *capture_mode_name(void *ud) {
  capture_model *m = ud;
  int ns = 0, nc = 0;
  for (int k = 0; k < m->nc; ++k) {
    if (!m->active[k]) continue;
    if (k < m->ns) ++ns; else ++nc;
  }
  snprintf(m->modebuf, sizeof m->modebuf, "%s: %d taut strings, %d contacts",
           m->mech                         ? "moreau"
           : m->p.mode == CAPTURE_MODE_EVENT ? "event"
           : capture_switch_by_state(m)    ? "baumgarte (state switching)"
                                           : "baumgarte", ns, nc);
  return m->modebuf;
}

static const char *const inv_names[] = {"energy", "px", "py", "pz", "Lx", "Ly", "Lz"};
const char *const capture_inv_units[7] = {"J",        "kg m/s",   "kg m/s",  "kg m/s",
                                          "kg m^2/s", "kg m^2/s", "kg m^2/s"};

int capture_invariants(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t; (void)yp;
  capture_momenta(ud, y, &out[1], &out[4], &out[0]);
  return 0;
}

void capture_free(capture_model **pm) {
  if (!pm || !*pm) return;
  capture_model *m = *pm;
  capture_dae_free(m);
  capture_joint_free(m);
  capture_mech_release(m);
  capture_compliant_free(m);
  mbdae_problem_free(&m->problem);
  mbdae_polytope_free(&m->body);
  free(m->p.vertices);
  sn_net_free(&m->net);
  free(m->minv); free(m->grid); free(m->R0); free(m->V0);
  free(m->active); free(m->face); free(m->work_flag); free(m->cand); free(m->was_active); free(m->forced); free(m->lcp_bad); free(m->lcp_rows); free(m->c_ref); free(m->rows); free(m->list); free(m->first);
  free(m->K); free(m->bvec); free(m->lambda);
  free(m->Zscatter); free(m->Fwork); free(m->acc); free(m->u_minus); free(m->u_plus);
  free(m->ctrl_alpha); free(m->ctrl_beta); free(m->ctrl_Rf); free(m->ctrl_Vf);
  free(m->ctrl_work); free(m->ctrl_last);
  free(m->vert_work);
  free(m->geo_points); free(m->geo_data); free(m->geo_lines); free(m->geo_start); free(m->geo_index);
  free(m->geo_verts); free(m->geo_part); free(m->geo_taut);
  free(m);
  *pm = NULL;
}

int capture_create(const capture_params *p, capture_model **out, mbdae_param_error *err) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  int rc = capture_params_check(p, err);
  if (rc) return rc;
  capture_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p;
  m->p.vertices = NULL;
  if (p->shape == CAPTURE_SHAPE_VERTICES) {
    m->p.vertices = malloc((size_t)p->nvertices * 3 * sizeof(double));
    if (!m->p.vertices) { capture_free(&m); return MBDAE_ERR_MEMORY; }
    memcpy(m->p.vertices, p->vertices, (size_t)p->nvertices * 3 * sizeof(double));
  }
  rc = build_body(&m->p, &m->body, err);
  if (rc) { capture_free(&m); return rc; }
  int R = p->rows, Cn = p->cols;
  m->np = R * Cn;
  m->ns = p->strings_on ? R * (Cn - 1) + (R - 1) * Cn : 0;
  m->nc = m->ns + m->np;
  m->boff = 6 * m->np;
  m->n = m->boff + MBDAE_RB_N;
  m->nu = 3 * m->np + 6;
  size_t np = (size_t)m->np, nc = (size_t)m->nc,
         nu = (size_t)m->nu;
  m->minv = malloc(np * sizeof *m->minv);
  m->grid = malloc(3 * np * sizeof *m->grid);
  m->R0 = malloc(3 * np * sizeof *m->R0);
  m->V0 = malloc(3 * np * sizeof *m->V0);
  m->active = calloc(nc, sizeof *m->active);
  m->face = calloc(np, sizeof *m->face);
  m->work_flag = calloc(nc, sizeof *m->work_flag);
  m->cand = calloc(nc, 1);
  m->was_active = calloc(nc, 1);
  m->forced = calloc(nc, 1);
  m->lcp_bad = calloc(nc, 1);
  m->lcp_rows = calloc(nc, sizeof *m->lcp_rows);
  m->c_ref = calloc(nc, sizeof *m->c_ref);
  m->rows = calloc(nc, sizeof *m->rows);
  m->list = malloc(nc * sizeof *m->list);
  m->first = calloc(nc, sizeof *m->first);
  /* the joint multiplier matrix (dense envelope): none in mode compliant */
  m->K = malloc((p->mode == CAPTURE_MODE_COMPLIANT ? 1 : nc * nc) * sizeof *m->K);
  m->bvec = malloc(2 * nc * sizeof *m->bvec);
  m->lambda = calloc(nc, sizeof *m->lambda);
  m->Zscatter = calloc(nu, sizeof *m->Zscatter);
  m->Fwork = calloc(nu, sizeof *m->Fwork);
  m->acc = calloc(nu, sizeof *m->acc);
  m->u_minus = calloc(nu, sizeof *m->u_minus);
  m->u_plus = calloc(nu, sizeof *m->u_plus);
  m->ctrl_alpha = calloc(3 * np, sizeof(double));
  m->ctrl_beta = calloc(3 * np, sizeof(double));
  m->ctrl_Rf = calloc(3 * np, sizeof(double));
  m->ctrl_Vf = calloc(3 * np, sizeof(double));
  m->ctrl_work = calloc(12 * np, sizeof(double));
  m->ctrl_last = calloc(3 * np, sizeof(double));
  m->vert_work = calloc((size_t)m->body->nv * 3, sizeof(double));
  if (!m->minv || !m->R0 || !m->V0 || !m->grid || !m->active || !m->face ||
      !m->work_flag || !m->cand || !m->was_active || !m->forced || !m->lcp_bad || !m->lcp_rows || !m->c_ref || !m->rows || !m->list || !m->first || !m->K || !m->bvec || !m->lambda ||
      !m->Zscatter || !m->Fwork || !m->acc || !m->u_minus || !m->u_plus ||
      !m->ctrl_alpha || !m->ctrl_beta || !m->ctrl_Rf || !m->ctrl_Vf || !m->vert_work ||
      !m->ctrl_work || !m->ctrl_last) {
    capture_free(&m);
    return MBDAE_ERR_MEMORY;
  }
  /* the net: points, masses and strings from the string core's grid
   * describer (net in the x-y plane, spreading to length L at deploy_time) */
  m->net = sn_net_create(m->np, m->ns, MBDAE_RB_N, SN_FORM_ODE);
  if (!m->net) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  if (p->strings_on) {
    rc = sn_describe_grid(m->net, R, Cn, p->point_mass, p->point_mass, p->spacing,
                          p->launch_point, p->launch_velocity, p->deploy_time, 0.0,
                          m->R0, m->V0);
  } else {
    for (int a = 0; a < R; ++a)
      for (int b = 0; b < Cn; ++b) {
        int k = a * Cn + b;
        m->net->m[k] = p->point_mass;
        for (int c = 0; c < 3; ++c) {
          double x = c == 0 ? (a - 0.5 * (R - 1)) * p->spacing
                   : c == 1 ? (b - 0.5 * (Cn - 1)) * p->spacing : 0.0;
          m->R0[3 * k + c] = p->launch_point[c];
          m->V0[3 * k + c] = p->launch_velocity[c] + x / p->deploy_time;
        }
      }
    rc = 0;
  }
  if (rc) { capture_free(&m); return rc; }
  for (int k = 0; k < m->ns; ++k) {
    m->net->s[k].e = p->e_string;
    m->net->s[k].xi = p->xi_string;
    m->net->s[k].w = p->omega_string;
  }
  m->net->hold = p->mode == CAPTURE_MODE_EVENT ? SN_HOLD_EVENT : SN_HOLD_BAUMGARTE;
  int bad = -1;
  const char *why = NULL;
  rc = sn_net_validate(m->net, &bad, &why);
  if (rc) {
    if (err) { err->key = "spacing"; snprintf(err->msg, sizeof err->msg, "%s", why ? why : "bad net"); }
    capture_free(&m);
    return rc;
  }
  for (int a = 0; a < R; ++a)
    for (int b = 0; b < Cn; ++b) {
      int i = a * Cn + b;
      m->minv[i] = 1.0 / m->net->m[i];
      /* the extended net's offsets, as documented for sn_describe_grid */
      m->grid[3 * i + 0] = (a - 0.5 * (R - 1)) * p->spacing;
      m->grid[3 * i + 1] = (b - 0.5 * (Cn - 1)) * p->spacing;
      m->grid[3 * i + 2] = 0.0;
    }
  m->problem = mbdae_problem_create(m->n, MBDAE_FORM_ODE);
  if (!m->problem) { capture_free(&m); return MBDAE_ERR_MEMORY; }
  int r = mbdae_problem_set_user_data(m->problem, m);
  r = r ? r : mbdae_problem_set_rhs(m->problem, capture_rhs);
  if (!capture_switch_by_state(m)) {
    r = r ? r : mbdae_problem_set_roots(m->problem, m->nc + m->np, capture_roots);
    r = r ? r : mbdae_problem_set_event_handler(m->problem, capture_event);
  }
  r = r ? r : mbdae_problem_set_invariants(m->problem, 7, inv_names, capture_invariants);
  r = r ? r : mbdae_problem_set_invariant_units(m->problem, capture_inv_units);
  r = r ? r : mbdae_problem_set_mode_name(m->problem, capture_mode_name);
  if (r) { capture_free(&m); return r; }
  *out = m;
  return MBDAE_OK;
}

mbdae_problem *capture_problem(capture_model *m) { return m ? m->problem : NULL; }
int capture_npoints(const capture_model *m) { return m->np; }
int capture_nstrings(const capture_model *m) { return m->ns; }
int capture_size(const capture_model *m) { return m->n; }
int capture_body_offset(const capture_model *m) { return m->boff; }
const mbdae_polytope *capture_body(const capture_model *m) { return m->body; }
const capture_params *capture_get_params(const capture_model *m) { return &m->p; }
void capture_string_ends(const capture_model *m, int k, int *a, int *b, double *L) {
  *a = m->net->s[k].i; *b = m->net->s[k].j; *L = m->net->s[k].L;
}
long capture_impacts(const capture_model *m) { return m->impacts; }
long capture_releases(const capture_model *m) { return m->releases; }
long capture_face_switches(const capture_model *m) { return m->face_switches; }
void capture_settle_stats(const capture_model *m, long *releases, long *impacts) {
  if (releases) *releases = m->settle_releases;
  if (impacts) *impacts = m->settle_impacts;
}
void capture_settle_lcp_stats(const capture_model *m, long *lcp_releases, long *unsolved) {
  if (lcp_releases) *lcp_releases = m->settle_lcp_releases;
  if (unsolved) *unsolved = m->settle_lcp_unsolved;
}
long capture_force_switches(const capture_model *m) { return m->force_switches; }
int capture_active_contacts(const capture_model *m) {
  int n = 0;
  for (int j = 0; j < m->np; ++j) n += m->active[m->ns + j];
  return n;
}
int capture_active_strings(const capture_model *m) {
  int n = 0;
  for (int k = 0; k < m->ns; ++k) n += m->active[k];
  return n;
}

int capture_initial_state(capture_model *m, double t0, double *y) {
  if (!m || !y) return MBDAE_ERR_ARGUMENT;
  const capture_params *p = &m->p;
  memcpy(y, m->R0, (size_t)(3 * m->np) * sizeof *y);
  memcpy(&y[3 * m->np], m->V0, (size_t)(3 * m->np) * sizeof *y);
  double *bs = &y[m->boff];
  memcpy(&bs[MBDAE_RB_P], p->body_position, 3 * sizeof *bs);
  memcpy(&bs[MBDAE_RB_U], p->body_velocity, 3 * sizeof *bs);
  capture_attitude(p, &bs[MBDAE_RB_Q]);
  memcpy(&bs[MBDAE_RB_W], p->body_omega, 3 * sizeof *bs);
  m->impacts = m->releases = m->face_switches = m->force_switches = 0;
  memset(m->c_ref, 0, (size_t)m->nc * sizeof *m->c_ref);
  capture_rows(m, y);
  for (int j = 0; j < m->np; ++j) {
    double rho[3], rb[3];
    for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - bs[MBDAE_RB_P + c];
    for (int c = 0; c < 3; ++c) rb[c] = m->C[c] * rho[0] + m->C[3 + c] * rho[1] + m->C[6 + c] * rho[2];
    m->face[j] = mbdae_polytope_face_of(m->body, rb, NULL);
  }
  capture_rows(m, y);
  for (int k = 0; k < m->nc; ++k)
    m->active[k] = p->mode == CAPTURE_MODE_BAUMGARTE ? m->rows[k].c >= 0.0 : 0;
  capture_control_setup(m, t0, y);
  return MBDAE_OK;
}

void capture_momenta(const capture_model *m, const double *y, double *pl, double *L, double *E) {
  const double *bs = &y[m->boff];
  double Lb[3];
  mbdae_rb_angular_momentum(m->body->mass, m->body->J, bs, Lb);
  double e = mbdae_rb_kinetic_energy(m->body->mass, m->body->J, bs);
  for (int c = 0; c < 3; ++c) { pl[c] = m->body->mass * bs[MBDAE_RB_U + c]; L[c] = Lb[c]; }
  for (int i = 0; i < m->np; ++i) {
    double mi = 1.0 / m->minv[i], rv[3];
    const double *r = &y[3 * i], *v = &y[3 * m->np + 3 * i];
    cross3(r, v, rv);
    for (int c = 0; c < 3; ++c) { pl[c] += mi * v[c]; L[c] += mi * rv[c]; }
    e += 0.5 * mi * dot3(v, v);
  }
  *E = e;
}

void capture_constraint_values(const capture_model *m, const double *y, double *phi,
                               double *psi) {
  capture_model *mm = (capture_model *)m; /* rows are scratch storage */
  capture_rows(mm, y);
  for (int k = 0; k < m->ns; ++k) if (phi) phi[k] = m->rows[k].c;
  for (int j = 0; j < m->np; ++j) if (psi) psi[j] = m->rows[m->ns + j].c;
}

double capture_max_penetration(const capture_model *m, const double *y) {
  double C[9], worst = 0.0;
  const double *P = &y[m->boff + MBDAE_RB_P];
  mbdae_rb_rotation(&y[m->boff + MBDAE_RB_Q], C);
  for (int j = 0; j < m->np; ++j) {
    double rho[3], rb[3];
    for (int c = 0; c < 3; ++c) rho[c] = y[3 * j + c] - P[c];
    for (int c = 0; c < 3; ++c) rb[c] = C[c] * rho[0] + C[3 + c] * rho[1] + C[6 + c] * rho[2];
    /* depth below every face plane: min_p (1 - A_p.x) / |A_p| */
    double depth = HUGE_VAL;
    for (int q = 0; q < m->body->nf; ++q) {
      const double *A = &m->body->A[3 * q];
      double dq = (1.0 - dot3(A, rb)) / sqrt(dot3(A, A));
      if (dq < depth) depth = dq;
    }
    if (depth > worst) worst = depth;
  }
  return worst;
}

void capture_body_vertices(const capture_model *m, const double *y, double *out) {
  double C[9];
  const double *P = &y[m->boff + MBDAE_RB_P];
  mbdae_rb_rotation(&y[m->boff + MBDAE_RB_Q], C);
  for (int i = 0; i < m->body->nv; ++i) {
    const double *v = &m->body->v[3 * i];
    for (int c = 0; c < 3; ++c) out[3 * i + c] = P[c] + C[3 * c] * v[0] + C[3 * c + 1] * v[1] + C[3 * c + 2] * v[2];
  }
}
