/* toy_kind.h - a test-only model kind for the driver tests: a leaking tank
 * y' = -k y that is refilled by 1 whenever its level falls through the
 * threshold e (root g = y - e). Closed form: y(t) = y0 exp(-k t); first
 * refill at ln(y0 / e) / k, then every ln((e + 1) / e) / k. ODE form for
 * cvode/rk4, DAE form (F = y' + k y) for IDA. Its schema has one entry of
 * each parameter type, and a cross-field check, to exercise the loader. */
#ifndef MBDAE_TEST_TOY_KIND_H
#define MBDAE_TEST_TOY_KIND_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/model.h"
#include "mbdae/status.h"

typedef struct toy_params {
  double k;        /* leak rate, 1/s (required, > 0) */
  double e;        /* refill threshold, [0, 1] */
  double y0;       /* initial level */
  double fail_at;  /* the right-hand side fails fatally after this time */
  int n;           /* an int in [1, 100] */
  int flag;        /* a bool */
  int mode;        /* an enum */
  double v[3];     /* a vec in [-10, 10] */
  double *tab;     /* a table of rows of 2 */
  int ntab;
} toy_params;

static const char *const toy_modes[] = {"slow", "fast", "exact", NULL};

#define TOY_OFF(f) offsetof(toy_params, f)
static const mbdae_param_spec toy_specs[] = {
  {"k", MBDAE_PARAM_DOUBLE, TOY_OFF(k), MBDAE_PARAM_REQUIRED | MBDAE_PARAM_MIN_OPEN, 0, 0,
   HUGE_VAL, 0, NULL, 0, "1/s", "leak rate"},
  {"e", MBDAE_PARAM_DOUBLE, TOY_OFF(e), 0, 0.5, 0, 1, 0, NULL, 0, "m", "refill threshold"},
  {"y0", MBDAE_PARAM_DOUBLE, TOY_OFF(y0), 0, 1.0, 0, HUGE_VAL, 0, NULL, 0, "m",
   "initial level"},
  {"fail_at", MBDAE_PARAM_DOUBLE, TOY_OFF(fail_at), MBDAE_PARAM_MIN_OPEN, HUGE_VAL, 0,
   HUGE_VAL, 0, NULL, 0, "s", "the rhs fails after this time"},
  {"n", MBDAE_PARAM_INT, TOY_OFF(n), 0, 3, 1, 100, 0, NULL, 0, "", "an int"},
  {"flag", MBDAE_PARAM_BOOL, TOY_OFF(flag), 0, 0, 0, 1, 0, NULL, 0, "", "a bool"},
  {"mode", MBDAE_PARAM_ENUM, TOY_OFF(mode), 0, 1, 0, 0, 0, toy_modes, 0, "", "an enum"},
  {"v", MBDAE_PARAM_VEC, TOY_OFF(v), 0, 0.25, -10, 10, 3, NULL, 0, "m", "a vec"},
  {"tab", MBDAE_PARAM_TABLE, TOY_OFF(tab), 0, 0, -HUGE_VAL, HUGE_VAL, 2, NULL, TOY_OFF(ntab),
   "", "a table: rows (lo, hi) with lo <= hi"},
};

static int toy_check(const void *params, mbdae_param_error *err) {
  const toy_params *p = params;
  static char key[32];
  if (p->flag && p->n > 10) {
    err->key = "n";
    snprintf(err->msg, sizeof err->msg, "must be <= 10 when flag is set (got %d)", p->n);
    return MBDAE_ERR_PARAMETER;
  }
  for (int i = 0; i < p->ntab; ++i)
    if (p->tab[2 * i] > p->tab[2 * i + 1]) {
      snprintf(key, sizeof key, "tab[%d]", i);
      err->key = key;
      snprintf(err->msg, sizeof err->msg, "row must have lo <= hi");
      return MBDAE_ERR_PARAMETER;
    }
  return MBDAE_OK;
}

struct mbdae_model {
  toy_params p;
  mbdae_form form;
  mbdae_problem *problem;
  int refills;
};

static int toy_rhs(double t, const double *y, double *f, void *ud) {
  struct mbdae_model *m = ud;
  if (t > m->p.fail_at) return -1;
  f[0] = -m->p.k * y[0];
  return 0;
}
static int toy_res(double t, const double *y, const double *yp, double *F, void *ud) {
  struct mbdae_model *m = ud;
  if (t > m->p.fail_at) return -1;
  F[0] = yp[0] + m->p.k * y[0];
  return 0;
}
static int toy_jac(double t, double cj, const double *y, const double *yp, double *J,
                   void *ud) {
  struct mbdae_model *m = ud;
  (void)t, (void)y, (void)yp;
  J[0] = m->form == MBDAE_FORM_DAE ? m->p.k + cj : -m->p.k;
  return 0;
}
static int toy_root(double t, const double *y, const double *yp, double *g, void *ud) {
  struct mbdae_model *m = ud;
  (void)t, (void)yp;
  g[0] = y[0] - m->p.e;
  return 0;
}
static int toy_event(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                     void *ud) {
  struct mbdae_model *m = ud;
  (void)t;
  if (dirs[0] >= 0) return MBDAE_EVENT_NOCHANGE;
  info->label = "refill";
  info->ndata = 2;
  info->data[0] = y[0];
  y[0] += 1.0;
  if (yp) yp[0] = -m->p.k * y[0];
  info->data[1] = y[0];
  m->refills++;
  return MBDAE_EVENT_CONTINUE;
}
static const char *const toy_inv_names[] = {"level"};
static int toy_inv(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t, (void)yp, (void)ud;
  out[0] = y[0];
  return 0;
}
static const char *toy_mode_name(void *ud) {
  (void)ud;
  return "leaking";
}

static int toy_create(const void *params, mbdae_options *o, mbdae_model **out,
                      mbdae_param_error *err) {
  struct mbdae_model *m = calloc(1, sizeof *m);
  if (!m) return MBDAE_ERR_MEMORY;
  m->p = *(const toy_params *)params;
  m->p.tab = NULL; /* owned by the scenario */
  m->form = o->method == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  if (o->linsol == MBDAE_LINSOL_KLU && m->p.mode != 0) { /* "slow": left to the engine */
    free(m);
    err->key = "solver.linear_solver";
    snprintf(err->msg, sizeof err->msg, "the toy has no sparse Jacobian (use dense)");
    return MBDAE_ERR_UNSUPPORTED;
  }
  m->problem = mbdae_problem_create(1, m->form);
  if (!m->problem) {
    free(m);
    return MBDAE_ERR_MEMORY;
  }
  mbdae_problem_set_user_data(m->problem, m);
  if (m->form == MBDAE_FORM_DAE) {
    double id = 1.0;
    mbdae_problem_set_residual(m->problem, toy_res);
    mbdae_problem_set_id(m->problem, &id);
  } else {
    mbdae_problem_set_rhs(m->problem, toy_rhs);
  }
  mbdae_problem_set_jacobian_dense(m->problem, toy_jac);
  mbdae_problem_set_roots(m->problem, 1, toy_root);
  mbdae_problem_set_event_handler(m->problem, toy_event);
  mbdae_problem_set_invariants(m->problem, 1, toy_inv_names, toy_inv);
  mbdae_problem_set_mode_name(m->problem, toy_mode_name);
  *out = m;
  return MBDAE_OK;
}
static void toy_destroy(mbdae_model **m) {
  if (!m || !*m) return;
  mbdae_problem_free(&(*m)->problem);
  free(*m);
  *m = NULL;
}
static mbdae_problem *toy_problem(mbdae_model *m) { return m->problem; }
static int toy_initial(mbdae_model *m, double t0, double *y, double *yp) {
  (void)t0;
  m->refills = 0;
  y[0] = m->p.y0;
  if (yp) yp[0] = -m->p.k * y[0];
  return MBDAE_OK;
}
static int toy_columns(mbdae_model *m, mbdae_column *cols, int max) {
  (void)m;
  if (!cols) return 2;
  if (max >= 2) {
    snprintf(cols[0].name, sizeof cols[0].name, "y");
    snprintf(cols[0].unit, sizeof cols[0].unit, "m");
    snprintf(cols[1].name, sizeof cols[1].name, "ydot");
    snprintf(cols[1].unit, sizeof cols[1].unit, "m/s");
  }
  return 2;
}
static int toy_row(mbdae_model *m, double t, const double *y, const double *yp, double *row) {
  (void)t, (void)yp;
  row[0] = y[0];
  row[1] = -m->p.k * y[0];
  return 0;
}
static int toy_event_columns(mbdae_model *m, mbdae_column *cols, int max) {
  (void)m;
  if (!cols) return 2;
  if (max >= 2) {
    snprintf(cols[0].name, sizeof cols[0].name, "y_before");
    snprintf(cols[0].unit, sizeof cols[0].unit, "m");
    snprintf(cols[1].name, sizeof cols[1].name, "y_after");
    snprintf(cols[1].unit, sizeof cols[1].unit, "m");
  }
  return 2;
}
static int toy_outcomes(mbdae_model *m, const double *y, const double *yp, mbdae_outcome *out,
                        int max) {
  (void)yp;
  if (max < 2) return 0;
  snprintf(out[0].name, sizeof out[0].name, "refills");
  out[0].unit[0] = '\0';
  out[0].value = m->refills;
  snprintf(out[1].name, sizeof out[1].name, "y_end");
  snprintf(out[1].unit, sizeof out[1].unit, "m");
  out[1].value = y[0];
  return 2;
}
static const mbdae_plot_spec toy_plots[] = {
  {"level", "tank level", "samples", "t", "y*", "t [s]", "y [m]", 0},
  {"refills", "refills", "events", "t", "y_*", "t [s]", "y [m]", 1},
};

static const mbdae_model_kind toy_kind = {
  "toy", "leaking tank refilled at a threshold (test-only kind)", sizeof(toy_params),
  toy_specs, (int)(sizeof toy_specs / sizeof toy_specs[0]), toy_check, toy_create,
  toy_destroy, toy_problem, toy_initial, toy_columns, toy_row, toy_event_columns,
  toy_outcomes, toy_plots, 2, NULL, NULL, NULL, NULL, NULL};

static const mbdae_model_kind *const toy_registry[] = {&toy_kind, NULL};

#endif
