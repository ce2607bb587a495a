/* test_strings_elastic.c - string_net's elastic threads (mode: elastic,
 * models/strings/string_net_elastic.c): the exact sparse Jacobian of the ODE
 * (df/dy) and of IDA's y' - f(y) against central differences on a grid net
 * with drag at slack, taut and mixed states and near the thread's kinks;
 * tensions through the multipliers' path; bad parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/jaccheck.h"
#include "mbdae/status.h"
#include "strings/string_net_model.h"
#include "jac_mutant.h"
#include "strings_run.h"
#include "testutil.h"

static double prnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 32767.5 - 1.0;
}

static snm_model *make(int ida) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_SPINNING_GRID;
  p.hold = SN_HOLD_ELASTIC;
  p.grid_n = 3;
  p.grid_m = 4;
  p.length = 0.5;
  p.ea = 3e3;
  p.string_damping = 40.0;
  p.drag = 0.2;
  p.gravity[2] = -9.81;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = ida ? MBDAE_METHOD_IDA : MBDAE_METHOD_CVODE_BDF;
  o.linsol = MBDAE_LINSOL_KLU;
  snm_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(snm_create(&p, &o, &m, NULL), 0);
  CU_ASSERT_EQUAL(mbdae_problem_form(m->problem), ida ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  return m;
}

/* the grid laid out at spacing s L, jittered, random velocities */
static void place(snm_model *m, double *y, double s, unsigned seed) {
  sn_net *net = m->net;
  int n = 3, mm = 4;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < mm; ++b) {
      int k = a * mm + b;
      y[3 * k] = a * 0.5 * s + 0.002 * prnd(&seed);
      y[3 * k + 1] = b * 0.5 * s + 0.002 * prnd(&seed);
      y[3 * k + 2] = 0.002 * prnd(&seed);
      for (int c = 0; c < 3; ++c) y[net->off_v + 3 * k + c] = 0.3 * prnd(&seed);
    }
}

static void check(snm_model *m, const double *y, const char *what, double step, double tol) {
  int n = m->net->n;
  double *yp = calloc((size_t)n, sizeof *yp);
  CU_ASSERT_EQUAL(sn_net_rhs(m->net, 0.2, y, NULL, yp, NULL), 0);
  int dae = mbdae_problem_form(m->problem) == MBDAE_FORM_DAE;
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(m->problem, 0.2, y, dae ? yp : NULL, 29.0, step,
                                             1e-7, &jc), MBDAE_OK);
  if (!(jc.max_rel_err < tol) || jc.pattern_misses)
    printf("\n  %s (%s): rel err %.3g at (%d, %d): %.9g vs fd %.9g; %ld misses\n", what,
           dae ? "dae" : "ode", jc.max_rel_err, jc.worst_row, jc.worst_col, jc.worst_analytic,
           jc.worst_fd, jc.pattern_misses);
  CU_ASSERT(jc.max_rel_err < tol);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
  /* one entry of the accelerations' rows off by 100 tol: caught there */
  int ov = m->net->off_v;
  jac_mutant_block(m->problem, 0.2, y, dae ? yp : NULL, 29.0, step, tol, ov, 2 * ov, 0, n);
  free(yp);
}

static void test_jacobian(void) {
  for (int ida = 0; ida < 2; ++ida) {
    snm_model *m = make(ida);
    int n = m->net->n;
    double *y = calloc((size_t)n, sizeof *y);
    place(m, y, 1.02, 3u); /* every thread stretched */
    check(m, y, "taut", 0.0, 1e-6);
    place(m, y, 0.98, 5u); /* every thread slack: drag and gravity only */
    check(m, y, "slack", 0.0, 1e-6);
    place(m, y, 1.0, 9u); /* jitter: some slack, some taut (2e-3 from the kink) */
    check(m, y, "mixed", 1e-7, 1e-4);
    free(y);
    snm_free(&m);
  }
}

/* tensions through sn_net_multipliers (the ODE's lambda = -T/(2|S|)) */
static void test_tension(void) {
  snm_model *m = make(0);
  sn_net *net = m->net;
  double *y = calloc((size_t)net->n, sizeof *y), lam[32];
  place(m, y, 1.02, 3u);
  CU_ASSERT_EQUAL(sn_net_multipliers(net, 0.0, y, y + net->off_v, NULL, lam), 0);
  for (int s = 0; s < net->ns; ++s) {
    double S[3], W[3];
    int i = net->s[s].i, j = net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      S[c] = y[3 * j + c] - y[3 * i + c];
      W[c] = y[net->off_v + 3 * j + c] - y[net->off_v + 3 * i + c];
    }
    double len = sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]), eps = len / 0.5 - 1.0;
    double epsd = (S[0] * W[0] + S[1] * W[1] + S[2] * W[2]) / len / 0.5;
    double T = fmax(0.0, 3e3 * eps + 40.0 * eps * epsd);
    MBDAE_ASSERT_REL(sn_tension(net, s, y, lam[s]), T, 1e-12);
    CU_ASSERT(net->taut[s]);
  }
  free(y);
  snm_free(&m);
}

static void test_bad(void) {
  snm_params p;
  mbdae_param_error err;
  strings_params_default(&p);
  p.hold = SN_HOLD_ELASTIC;
  p.ea = 0.0;
  CU_ASSERT_EQUAL(snm_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "EA");
  p.ea = 1e3;
  p.string_damping = -1.0;
  CU_ASSERT_EQUAL(snm_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "string_damping");
}

int main(void) {
  static const mbdae_test tests[] = {
    {"elastic strings: sparse Jacobian vs central differences", test_jacobian},
    {"elastic strings: tensions through the multipliers", test_tension},
    {"elastic strings: bad parameters", test_bad},
    {NULL, NULL}};
  return mbdae_test_main("strings_elastic", tests);
}
