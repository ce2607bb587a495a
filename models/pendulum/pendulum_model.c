/* pendulum_model.c - the Cartesian planar pendulum: GGL index-2 and
 * Baumgarte index-1 formulations (doc/acceptance-models.md, "Pendulum"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "pendulum/pendulum.h"

void pendulum_params_default(pendulum_params *p) {
  p->length = 1.0;
  p->mass = 1.0;
  p->g = 9.81;
  p->theta0 = 1.0;
  p->omega0 = 0.0;
  p->formulation = PEND_GGL;
  p->alpha = 5.0;
  p->beta = 5.0;
}

static int param_error(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return MBDAE_ERR_PARAMETER;
}

int pendulum_params_check(const pendulum_params *p, mbdae_param_error *err) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  const double v[] = {p->length, p->mass, p->g, p->theta0, p->omega0, p->alpha, p->beta};
  const char *k[] = {"length", "mass", "g", "theta0", "omega0", "alpha", "beta"};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
    if (!isfinite(v[i])) return param_error(err, k[i], "must be finite");
  if (!(p->length > 0.0)) return param_error(err, "length", "must be > 0");
  if (!(p->mass > 0.0)) return param_error(err, "mass", "must be > 0");
  if (!(p->g > 0.0)) return param_error(err, "g", "must be > 0");
  if (!(p->alpha >= 0.0)) return param_error(err, "alpha", "must be >= 0");
  if (!(p->beta >= 0.0)) return param_error(err, "beta", "must be >= 0");
  if (p->formulation != PEND_GGL && p->formulation != PEND_BAUMGARTE)
    return param_error(err, "formulation", "must be ggl or baumgarte");
  return MBDAE_OK;
}

double pendulum_energy(const pendulum_params *p, const double *y) {
  const double v2 = y[PEND_VX] * y[PEND_VX] + y[PEND_VY] * y[PEND_VY];
  return 0.5 * p->mass * v2 + p->mass * p->g * y[PEND_Y];
}

/* Multiplier of the Baumgarte-stabilised acceleration constraint,
 * phi'' + 2 alpha phi' + beta^2 phi = 0 with m a = -m g e_y - lambda r:
 * lambda r.r / m = v.v - g y + 2 alpha phi' + beta^2 phi. */
static double baumgarte_lambda(const pendulum_params *p, const double *y,
                               double *numer, double *r2out) {
  const double x = y[PEND_X], yy = y[PEND_Y], vx = y[PEND_VX], vy = y[PEND_VY];
  const double r2 = x * x + yy * yy;
  const double phi = 0.5 * (r2 - p->length * p->length);
  const double phid = x * vx + yy * vy;
  const double N = vx * vx + vy * vy - p->g * yy + 2.0 * p->alpha * phid +
                   p->beta * p->beta * phi;
  if (numer) *numer = N;
  if (r2out) *r2out = r2;
  return p->mass * N / r2;
}

double pendulum_lambda(const pendulum_model *m, const double *y) {
  if (m->form == MBDAE_FORM_DAE) return y[PEND_LAMBDA];
  return baumgarte_lambda(&m->p, y, NULL, NULL);
}

/* DAE residuals. Index 3: m x'' = -lambda x, m y'' = -m g - lambda y,
 * phi = (x^2 + y^2 - L^2)/2 = 0, G = dphi/dq = [x, y].
 * GGL (index 2): q' = v - G^T mu, m v' = f - G^T lambda, phi = 0, G v = 0.
 * Baumgarte (index 1): phi'' + 2 alpha phi' + beta^2 phi = 0, with
 * phi'' = x vx' + y vy' + vx^2 + vy^2. */
int pendulum_residual(double t, const double *y, const double *yp, double *F,
                      void *user_data) {
  (void)t;
  const pendulum_model *m = user_data;
  const pendulum_params *p = &m->p;
  const double x = y[PEND_X], yy = y[PEND_Y], vx = y[PEND_VX], vy = y[PEND_VY];
  const double lam = y[PEND_LAMBDA];
  if (p->formulation == PEND_GGL) {
    const double mu = y[PEND_MU];
    F[0] = yp[PEND_X] - vx + x * mu;
    F[1] = yp[PEND_Y] - vy + yy * mu;
    F[2] = p->mass * yp[PEND_VX] + x * lam;
    F[3] = p->mass * yp[PEND_VY] + p->mass * p->g + yy * lam;
    F[4] = 0.5 * (x * x + yy * yy - p->length * p->length);
    F[5] = x * vx + yy * vy;
  } else {
    F[0] = yp[PEND_X] - vx;
    F[1] = yp[PEND_Y] - vy;
    F[2] = p->mass * yp[PEND_VX] + x * lam;
    F[3] = p->mass * yp[PEND_VY] + p->mass * p->g + yy * lam;
    F[4] = x * yp[PEND_VX] + yy * yp[PEND_VY] + vx * vx + vy * vy +
           2.0 * p->alpha * (x * vx + yy * vy) +
           0.5 * p->beta * p->beta * (x * x + yy * yy - p->length * p->length);
  }
  return 0;
}

/* Baumgarte with lambda eliminated: an ODE in [x, y, vx, vy]. */
int pendulum_rhs(double t, const double *y, double *f, void *user_data) {
  (void)t;
  const pendulum_model *m = user_data;
  const double lam = baumgarte_lambda(&m->p, y, NULL, NULL);
  f[0] = y[PEND_VX];
  f[1] = y[PEND_VY];
  f[2] = -y[PEND_X] * lam / m->p.mass;
  f[3] = -m->p.g - y[PEND_Y] * lam / m->p.mass;
  return 0;
}

/* CSC patterns (rows increasing within a column). */
static const mbdae_index ggl_colptr[] = {0, 4, 8, 11, 14, 16, 18};
static const mbdae_index ggl_rowind[] = {0, 2, 4, 5, 1, 3, 4, 5, 0, 2, 5,
                                         1, 3, 5, 2, 3, 0, 1};
static const mbdae_index bg_colptr[] = {0, 3, 6, 9, 12, 14};
static const mbdae_index bg_rowind[] = {0, 2, 4, 1, 3, 4, 0, 2, 4, 1, 3, 4, 2, 3};
static const mbdae_index ode_colptr[] = {0, 4, 8, 12, 16};
static const mbdae_index ode_rowind[] = {0, 1, 2, 3, 0, 1, 2, 3,
                                         0, 1, 2, 3, 0, 1, 2, 3};

void pendulum_sparse_pattern(const pendulum_model *m, mbdae_index *nnz,
                             const mbdae_index **colptr,
                             const mbdae_index **rowind) {
  if (m->form == MBDAE_FORM_ODE) {
    *nnz = 16;
    *colptr = ode_colptr;
    *rowind = ode_rowind;
  } else if (m->p.formulation == PEND_GGL) {
    *nnz = 18;
    *colptr = ggl_colptr;
    *rowind = ggl_rowind;
  } else {
    *nnz = 14;
    *colptr = bg_colptr;
    *rowind = bg_rowind;
  }
}

/* Jacobian of the ODE form, dense column-major 4 x 4. */
static void ode_jacobian(const pendulum_params *p, const double *y, double *J) {
  const double x = y[PEND_X], yy = y[PEND_Y], vx = y[PEND_VX], vy = y[PEND_VY];
  const double m = p->mass, a = p->alpha, b2 = p->beta * p->beta;
  double N, r2;
  const double lam = baumgarte_lambda(p, y, &N, &r2);
  /* d lambda / d(x, y, vx, vy) */
  double dl[4];
  dl[0] = m * (2.0 * a * vx + b2 * x) / r2 - 2.0 * m * N * x / (r2 * r2);
  dl[1] = m * (-p->g + 2.0 * a * vy + b2 * yy) / r2 - 2.0 * m * N * yy / (r2 * r2);
  dl[2] = m * (2.0 * vx + 2.0 * a * x) / r2;
  dl[3] = m * (2.0 * vy + 2.0 * a * yy) / r2;
  J[0 + 4 * 2] = 1.0;
  J[1 + 4 * 3] = 1.0;
  for (int c = 0; c < 4; ++c) {
    J[2 + 4 * c] = -x * dl[c] / m;
    J[3 + 4 * c] = -yy * dl[c] / m;
  }
  J[2 + 4 * 0] -= lam / m;
  J[3 + 4 * 1] -= lam / m;
}

int pendulum_jac_dense(double t, double cj, const double *y, const double *yp,
                       double *J, void *user_data) {
  (void)t;
  const pendulum_model *m = user_data;
  const pendulum_params *p = &m->p;
  if (m->form == MBDAE_FORM_ODE) {
    ode_jacobian(p, y, J);
    return 0;
  }
  const int n = m->n;
  const double x = y[PEND_X], yy = y[PEND_Y], vx = y[PEND_VX], vy = y[PEND_VY];
  const double lam = y[PEND_LAMBDA];
#define JD(r, c) J[(r) + n * (c)]
  if (p->formulation == PEND_GGL) {
    const double mu = y[PEND_MU];
    JD(0, 0) = cj + mu; JD(0, 2) = -1.0; JD(0, 5) = x;
    JD(1, 1) = cj + mu; JD(1, 3) = -1.0; JD(1, 5) = yy;
    JD(2, 0) = lam; JD(2, 2) = p->mass * cj; JD(2, 4) = x;
    JD(3, 1) = lam; JD(3, 3) = p->mass * cj; JD(3, 4) = yy;
    JD(4, 0) = x; JD(4, 1) = yy;
    JD(5, 0) = vx; JD(5, 1) = vy; JD(5, 2) = x; JD(5, 3) = yy;
  } else {
    const double a = p->alpha, b2 = p->beta * p->beta;
    JD(0, 0) = cj; JD(0, 2) = -1.0;
    JD(1, 1) = cj; JD(1, 3) = -1.0;
    JD(2, 0) = lam; JD(2, 2) = p->mass * cj; JD(2, 4) = x;
    JD(3, 1) = lam; JD(3, 3) = p->mass * cj; JD(3, 4) = yy;
    JD(4, 0) = yp[PEND_VX] + 2.0 * a * vx + b2 * x;
    JD(4, 1) = yp[PEND_VY] + 2.0 * a * vy + b2 * yy;
    JD(4, 2) = cj * x + 2.0 * vx + 2.0 * a * x;
    JD(4, 3) = cj * yy + 2.0 * vy + 2.0 * a * yy;
  }
#undef JD
  return 0;
}

/* Sparse values in the pattern order above: walk the pattern and read the
 * dense Jacobian, which is exact (the pattern covers every entry it sets). */
int pendulum_jac_sparse(double t, double cj, const double *y, const double *yp,
                        double *vals, void *user_data) {
  const pendulum_model *m = user_data;
  double J[PEND_NMAX * PEND_NMAX] = {0};
  int rc = pendulum_jac_dense(t, cj, y, yp, J, user_data);
  if (rc) return rc;
  mbdae_index nnz;
  const mbdae_index *colptr, *rowind;
  pendulum_sparse_pattern(m, &nnz, &colptr, &rowind);
  for (int c = 0; c < m->n; ++c)
    for (mbdae_index k = colptr[c]; k < colptr[c + 1]; ++k)
      vals[k] = J[rowind[k] + m->n * c];
  return 0;
}

int pendulum_roots(double t, const double *y, const double *yp, double *g,
                   void *user_data) {
  (void)t; (void)yp; (void)user_data;
  g[PEND_ROOT_X] = y[PEND_X];
  return 0;
}

/* Crossing of the vertical: nothing changes, the time is recorded (the
 * period is the spacing of the crossings with the same direction). */
int pendulum_event(double t, double *y, double *yp, const int *dirs,
                   mbdae_event_info *info, void *user_data) {
  (void)yp;
  pendulum_model *m = user_data;
  const int dir = dirs[PEND_ROOT_X];
  if (dir < 0) {
    if (m->crossings == 0) m->first_crossing = t;
    m->last_crossing = t;
    m->crossings++;
  }
  if (info) {
    info->label = "crossing";
    info->ndata = PEND_NEVDATA;
    info->data[PEND_EV_DIR] = dir;
    info->data[PEND_EV_VX] = y[PEND_VX];
  }
  return MBDAE_EVENT_NOCHANGE;
}

int pendulum_invariants(double t, const double *y, const double *yp,
                        double *out, void *user_data) {
  (void)t; (void)yp;
  const pendulum_model *m = user_data;
  const double L = m->p.length;
  out[PEND_INV_ENERGY] = pendulum_energy(&m->p, y);
  out[PEND_INV_PHI] = hypot(y[PEND_X], y[PEND_Y]) - L;
  out[PEND_INV_PHIDOT] = (y[PEND_X] * y[PEND_VX] + y[PEND_Y] * y[PEND_VY]) / L;
  return 0;
}

static const char *pendulum_mode_name(void *user_data) {
  const pendulum_model *m = user_data;
  return m->p.formulation == PEND_GGL ? "ggl" : "baumgarte";
}

static const char *const pend_inv_names[PEND_NINV] = {"energy", "phi", "phi_dot"};
static const char *const pend_inv_units[PEND_NINV] = {"J", "m", "m/s"};

int pendulum_create(const pendulum_params *p, mbdae_form form, pendulum_model **out) {
  if (!p || !out) return MBDAE_ERR_ARGUMENT;
  *out = NULL;
  int rc = pendulum_params_check(p, NULL);
  if (rc) return rc;
  if (p->formulation == PEND_GGL && form != MBDAE_FORM_DAE) return MBDAE_ERR_UNSUPPORTED;
  pendulum_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *p;
  m->form = form;
  m->n = form == MBDAE_FORM_ODE ? PEND_N_ODE
         : p->formulation == PEND_GGL ? PEND_N_GGL : PEND_N_BAUMGARTE;
  m->problem = mbdae_problem_create(m->n, form);
  if (!m->problem) {
    free(m);
    return MBDAE_ERR_MEMORY;
  }
  mbdae_index nnz;
  const mbdae_index *colptr, *rowind;
  pendulum_sparse_pattern(m, &nnz, &colptr, &rowind);
  const double id[PEND_NMAX] = {1.0, 1.0, 1.0, 1.0, 0.0, 0.0};
  mbdae_problem *pr = m->problem;
  rc = mbdae_problem_set_user_data(pr, m);
  if (!rc) rc = form == MBDAE_FORM_DAE ? mbdae_problem_set_residual(pr, pendulum_residual)
                                       : mbdae_problem_set_rhs(pr, pendulum_rhs);
  if (!rc && form == MBDAE_FORM_DAE) rc = mbdae_problem_set_id(pr, id);
  if (!rc) rc = mbdae_problem_set_jacobian_dense(pr, pendulum_jac_dense);
  if (!rc)
    rc = mbdae_problem_set_jacobian_sparse(pr, nnz, colptr, rowind, pendulum_jac_sparse);
  if (!rc) rc = mbdae_problem_set_roots(pr, PEND_NROOTS, pendulum_roots);
  if (!rc) rc = mbdae_problem_set_event_handler(pr, pendulum_event);
  if (!rc) rc = mbdae_problem_set_invariants(pr, PEND_NINV, pend_inv_names,
                                             pendulum_invariants);
  if (!rc) rc = mbdae_problem_set_invariant_units(pr, pend_inv_units);
  if (!rc) rc = mbdae_problem_set_mode_name(pr, pendulum_mode_name);
  if (rc) {
    pendulum_free(&m);
    return rc;
  }
  *out = m;
  return MBDAE_OK;
}

void pendulum_free(pendulum_model **m) {
  if (!m || !*m) return;
  mbdae_problem_free(&(*m)->problem);
  free(*m);
  *m = NULL;
}

/* On the manifold: phi = 0, phi' = 0, and lambda from phi'' = 0:
 * lambda = m (v.v - g y) / L^2; its derivative, with x vx + y vy = 0 and
 * v.v' = -g vy, is lambda' = -3 m g vy / L^2. mu = 0 (GGL). */
int pendulum_initial_state(pendulum_model *m, double t0, double *y, double *yp) {
  (void)t0;
  if (!m || !y) return MBDAE_ERR_ARGUMENT;
  const pendulum_params *p = &m->p;
  const double L = p->length, th = p->theta0, w = p->omega0;
  double s[PEND_NMAX];
  s[PEND_X] = L * sin(th);
  s[PEND_Y] = -L * cos(th);
  s[PEND_VX] = L * w * cos(th);
  s[PEND_VY] = L * w * sin(th);
  const double v2 = s[PEND_VX] * s[PEND_VX] + s[PEND_VY] * s[PEND_VY];
  s[PEND_LAMBDA] = p->mass * (v2 - p->g * s[PEND_Y]) / (L * L);
  s[PEND_MU] = 0.0;
  for (int i = 0; i < m->n; ++i) y[i] = s[i];
  if (yp) {
    double d[PEND_NMAX];
    d[PEND_X] = s[PEND_VX];
    d[PEND_Y] = s[PEND_VY];
    d[PEND_VX] = -s[PEND_X] * s[PEND_LAMBDA] / p->mass;
    d[PEND_VY] = -p->g - s[PEND_Y] * s[PEND_LAMBDA] / p->mass;
    d[PEND_LAMBDA] = -3.0 * p->mass * p->g * s[PEND_VY] / (L * L);
    d[PEND_MU] = 0.0;
    for (int i = 0; i < m->n; ++i) yp[i] = d[i];
  }
  m->crossings = 0;
  m->first_crossing = m->last_crossing = 0.0;
  m->energy0 = pendulum_energy(p, s);
  return MBDAE_OK;
}
