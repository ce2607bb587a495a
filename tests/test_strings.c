/* test_strings.c - the string network core and the string_net model kind:
 * parameter errors, analytic sparse Jacobians against finite differences,
 * the minimal pattern size, the impact map against App. I eqs. 6.17-6.19
 * (computed here), the taut-bola tension against mu |W|^2 / L, and the ODE
 * and DAE forms against each other. */
#include "cli_run.h" /* first: it sets _POSIX_C_SOURCE */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "strings/string_net.h"
#include "strings/string_net_model.h"
#include "strings_run.h"
#include "testutil.h"

extern const mbdae_model_kind mbdae_model_string_net;

static void test_param_errors(void) {
  const mbdae_model_kind *k = &mbdae_model_string_net;
  snm_params p;
  mbdae_param_error err;
  double pts[3 * 7] = {1, 0, 0, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 0, 0, 2, 0, 0.5, 0, 0, 0, 0};
  double strs[2 * 3] = {0, 1, 1.0, 1, 2, 1.0};
  strings_params_default(&p);
  p.topology = SNM_TABLE;
  p.points = pts;
  p.npoints = 3;
  p.strings = strs;
  p.nstrings = 2;
  CU_ASSERT_EQUAL(k->check(&p, &err), 0);
  strs[4] = 1; /* string 1 joins point 1 to itself */
  memset(&err, 0, sizeof err);
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "strings[1]") == 0);
  CU_ASSERT(strstr(err.msg, "itself") != NULL);
  strs[4] = 3; /* to a point that does not exist */
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "strings[1]") == 0);
  CU_ASSERT(strstr(err.msg, "does not exist") != NULL);
  strs[4] = 2;
  strs[2] = 0.0; /* non-positive length */
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "strings[0]") == 0);
  strs[2] = 1.0;
  p.xi = -0.1;
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "xi") == 0);
  p.xi = 0.5;
  p.omega_n = -1.0;
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "omega_n") == 0);
  p.omega_n = 10.0;
  strings_params_default(&p);
  p.length = -1.0;
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "length") == 0);
  /* the core validates too (for other models built on it) */
  sn_net *net = sn_net_create(2, 1, 0, SN_FORM_DAE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(net);
  net->m[0] = net->m[1] = 1.0;
  net->s[0].i = 0;
  net->s[0].j = 0;
  net->s[0].L = 1.0;
  int bad = -2;
  const char *why = NULL;
  CU_ASSERT_EQUAL(sn_net_finalize(net, &bad, &why), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(bad, 0);
  sn_net_free(&net);
  CU_ASSERT_PTR_NULL(net);
}

/* Jacobian check of a built model at a perturbed state, in both modes of
 * every string (taut flags set by `flip`); p->formulation picks index1 or
 * ggl (both under IDA). */
static void check_model_jacobian(snm_params *p, int hold) {
  const mbdae_model_kind *k = &mbdae_model_string_net;
  p->hold = hold;
  mbdae_options o;
  mbdae_options_default(&o);
  mbdae_model *m = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(p, &o, &m, &err), 0);
  mbdae_problem *pr = k->problem(m);
  int n = mbdae_problem_size(pr);
  double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
  CU_ASSERT_FATAL(y && yp);
  CU_ASSERT_EQUAL(k->initial_state(m, 0.0, y, yp), 0);
  for (int i = 0; i < n; ++i) {
    y[i] += 0.05 * sin(3.0 * i + 1.0);
    yp[i] += 0.1 * cos(5.0 * i);
  }
  sn_net *net = ((snm_model *)m)->net;
  for (int pass = 0; pass < 2; ++pass) {
    for (int s = 0; s < net->ns; ++s) net->taut[s] = (unsigned char)((s + pass) % 2);
    mbdae_jac_check jc;
    CU_ASSERT_EQUAL(mbdae_jacobian_check(pr, 0.3, y, yp, 7.5, 0.0, 1e-7, &jc), 0);
    if (jc.max_rel_err > 1e-6 || jc.pattern_misses)
      printf("\n  jacobian: rel %.3g at (%d,%d) misses %ld\n", jc.max_rel_err, jc.worst_row,
             jc.worst_col, jc.pattern_misses);
    CU_ASSERT(jc.max_rel_err < 1e-6);
    CU_ASSERT_EQUAL(jc.pattern_misses, 0);
  }
  free(y);
  free(yp);
  k->destroy(&m);
}

static void test_jacobian_bola(void) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_BOLA;
  p.m1 = 1.0;
  p.m2 = 2.0;
  p.r2[0] = 0.6;
  p.r2[1] = 0.7;
  p.v2[0] = -1.2;
  p.v2[2] = 0.4;
  p.gravity[2] = -9.81;
  p.drag = 0.3;
  check_model_jacobian(&p, SN_HOLD_EVENT);
  check_model_jacobian(&p, SN_HOLD_BAUMGARTE);
  p.formulation = 1; /* ggl: the mu blocks, the position and velocity rows */
  check_model_jacobian(&p, SN_HOLD_EVENT);
}

static void test_jacobian_grid_chain(void) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_GRID;
  p.grid_n = 4;
  p.grid_m = 3;
  p.v_common[2] = 2.0;
  p.drag = 0.05;
  check_model_jacobian(&p, SN_HOLD_BAUMGARTE);
  strings_params_default(&p);
  p.topology = SNM_CHAIN;
  p.chain_points = 7;
  p.chain_wave = 0.3;
  check_model_jacobian(&p, SN_HOLD_EVENT);
  p.formulation = 1;
  check_model_jacobian(&p, SN_HOLD_EVENT);
  strings_params_default(&p);
  p.topology = SNM_GRID;
  p.grid_n = 4;
  p.grid_m = 3;
  p.v_common[2] = 2.0;
  p.drag = 0.05;
  p.formulation = 1;
  check_model_jacobian(&p, SN_HOLD_EVENT);
}

/* Minimal pattern: a chain of N points without force Jacobian has
 * 12 N (F_R: 2 x 3, F_V: cj m 3 + own lambda-coupling diagonal 3)
 * + 25 (N - 1) (neighbour coupling 6, F_V x lambda 6, F_lambda row 12 + 1). */
static void test_pattern_minimal(void) {
  const int N = 50;
  sn_net *net = sn_net_create(N, N - 1, 0, SN_FORM_DAE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(net);
  double *R0 = calloc(3 * N, sizeof(double));
  double o[3] = {0, 0, 0}, d[3] = {1, 0, 0};
  CU_ASSERT_EQUAL(sn_describe_chain(net, 0.1, 0.5, o, d, R0), 0);
  CU_ASSERT_EQUAL(sn_net_finalize(net, NULL, NULL), 0);
  sn_pattern *pt = sn_pattern_create(net->n);
  CU_ASSERT_EQUAL(sn_net_pattern_add(net, pt), 0);
  CU_ASSERT_EQUAL(sn_pattern_finalize(pt), 0);
  CU_ASSERT_EQUAL(sn_pattern_nnz(pt), 12 * N + 25 * (N - 1));
  CU_ASSERT_EQUAL(sn_net_jacobian_bind(net, pt), 0);
  sn_pattern_free(&pt);
  sn_net_free(&net);
  /* GGL adds per string the F_R x R cross blocks (6; the own diagonals
   * are F_R's cj entries), F_R x mu (6) and the row F_mu (6 + 1) */
  net = sn_net_create(N, N - 1, 0, SN_FORM_GGL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(net);
  CU_ASSERT_EQUAL(net->n_core, 6 * N + 2 * (N - 1));
  CU_ASSERT_EQUAL(sn_describe_chain(net, 0.1, 0.5, o, d, R0), 0);
  CU_ASSERT_EQUAL(sn_net_finalize(net, NULL, NULL), 0);
  pt = sn_pattern_create(net->n);
  CU_ASSERT_EQUAL(sn_net_pattern_add(net, pt), 0);
  CU_ASSERT_EQUAL(sn_pattern_finalize(pt), 0);
  CU_ASSERT_EQUAL(sn_pattern_nnz(pt), 12 * N + 44 * (N - 1));
  CU_ASSERT_EQUAL(sn_net_jacobian_bind(net, pt), 0);
  sn_pattern_free(&pt);
  sn_net_free(&net);
  free(R0);
}

/* App. I eqs. 6.17-6.19: for one string, [m1 m2; -1 1] vn+ = [m1 m2; e -e] vn-
 * (normal components along l), tangential components unchanged. */
static void test_impact_bola_closed_form(void) {
  sn_net *net = sn_net_create(2, 1, 0, SN_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(net);
  double m1 = 1.5, m2 = 0.5, e = 0.3;
  net->m[0] = m1;
  net->m[1] = m2;
  net->s[0] = (sn_string){0, 1, 1.0, e, 0.0, 0.0, 0.0, 0.0};
  CU_ASSERT_EQUAL_FATAL(sn_net_finalize(net, NULL, NULL), 0);
  double R[6] = {0, 0, 0, 0.6, 0.8, 0}; /* |l| = 1 */
  double V[6] = {0.2, -0.1, 0.3, 1.0, 0.9, -0.2};
  double n[3] = {0.6, 0.8, 0.0};
  double v1n = V[0] * n[0] + V[1] * n[1], v2n = V[3] * n[0] + V[4] * n[1];
  /* solve the 2 x 2 system of eq. 6.19 by Cramer's rule */
  double a11 = m1, a12 = m2, a21 = -1, a22 = 1;
  double b1 = m1 * v1n + m2 * v2n, b2 = e * v1n - e * v2n;
  double det = a11 * a22 - a12 * a21;
  double u1 = (b1 * a22 - a12 * b2) / det, u2 = (a11 * b2 - a21 * b1) / det;
  double expect[6];
  for (int c = 0; c < 3; ++c) {
    expect[c] = V[c] + (u1 - v1n) * n[c];
    expect[3 + c] = V[3 + c] + (u2 - v2n) * n[c];
  }
  double E0 = 0.5 * m1 * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) +
              0.5 * m2 * (V[3] * V[3] + V[4] * V[4] + V[5] * V[5]);
  unsigned char hit[1] = {1};
  CU_ASSERT_EQUAL(sn_net_impact(net, R, V, hit, NULL), 0);
  for (int a = 0; a < 6; ++a) MBDAE_ASSERT_ABS(V[a], expect[a], 1e-14);
  double mu = m1 * m2 / (m1 + m2), wn = v2n - v1n;
  MBDAE_ASSERT_REL(net->last_energy_loss, 0.5 * mu * (1 - e * e) * wn * wn, 1e-12);
  double E1 = 0.5 * m1 * (V[0] * V[0] + V[1] * V[1] + V[2] * V[2]) +
              0.5 * m2 * (V[3] * V[3] + V[4] * V[4] + V[5] * V[5]);
  MBDAE_ASSERT_REL(E0 - E1, 0.5 * mu * (1 - e * e) * wn * wn, 1e-12);
  sn_net_free(&net);
}

/* Two strings of a 3-point chain hit at once: one impulse problem. After it
 * each string's normal relative velocity is -e times its value before,
 * momentum is conserved and kinetic energy does not grow. */
static void test_impact_simultaneous(void) {
  sn_net *net = sn_net_create(3, 2, 0, SN_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(net);
  net->m[0] = 1.0;
  net->m[1] = 2.0;
  net->m[2] = 0.7;
  net->s[0] = (sn_string){0, 1, 1.0, 0.4, 0, 0, 0, 0};
  net->s[1] = (sn_string){1, 2, 1.0, 0.4, 0, 0, 0, 0};
  CU_ASSERT_EQUAL_FATAL(sn_net_finalize(net, NULL, NULL), 0);
  double R[9] = {0, 0, 0, 1, 0, 0, 1.6, 0.8, 0};
  double V[9] = {-1.0, 0.2, 0, 0.1, 0, 0.3, 1.0, 1.5, 0};
  double c0[2], p0[3], p1[3];
  for (int s = 0; s < 2; ++s) c0[s] = sn_phi_dot(net, s, R, V);
  CU_ASSERT(c0[0] > 0 && c0[1] > 0);
  sn_momentum(net, V, p0);
  double E0 = sn_kinetic_energy(net, V);
  unsigned char hit[2] = {1, 1};
  CU_ASSERT_EQUAL(sn_net_impact(net, R, V, hit, NULL), 0);
  for (int s = 0; s < 2; ++s) MBDAE_ASSERT_ABS(sn_phi_dot(net, s, R, V), -0.4 * c0[s], 1e-13);
  sn_momentum(net, V, p1);
  for (int c = 0; c < 3; ++c) MBDAE_ASSERT_ABS(p1[c], p0[c], 1e-13);
  CU_ASSERT(sn_kinetic_energy(net, V) < E0);
  sn_net_free(&net);
}

/* A taut bola spinning without gravity: the tension is mu |W|^2 / L. In the
 * ODE form the acceleration keeps phi'' = 0; in the DAE form the consistent
 * state gives the same multiplier and a zero residual. */
static void test_taut_tension_and_forms(void) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_BOLA;
  p.m1 = 2.0;
  p.m2 = 3.0;
  p.length = 1.5;
  p.r2[1] = 1.5;
  p.v1[0] = 0.4;
  p.v2[0] = -0.8;
  p.v2[2] = 0.5;
  double mu = 6.0 / 5.0, W2 = 1.2 * 1.2 + 0.5 * 0.5;
  const mbdae_model_kind *k = &mbdae_model_string_net;
  for (int hold = 0; hold < 2; ++hold) {
    p.hold = hold;
    for (int form = 0; form < 2; ++form) {
      mbdae_options o;
      mbdae_options_default(&o);
      o.method = form ? MBDAE_METHOD_RK4 : MBDAE_METHOD_IDA;
      mbdae_model *m = NULL;
      mbdae_param_error err;
      CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &m, &err), 0);
      snm_model *sm = (snm_model *)m;
      mbdae_problem *pr = k->problem(m);
      int n = mbdae_problem_size(pr);
      double y[13] = {0}, yp[13] = {0}, res[13];
      CU_ASSERT_EQUAL(k->initial_state(m, 0.0, y, yp), 0);
      CU_ASSERT_EQUAL(sm->net->taut[0], 1);
      double lam;
      CU_ASSERT_EQUAL(sn_net_multipliers(sm->net, 0.0, y, y + 6, NULL, &lam), 0);
      MBDAE_ASSERT_REL(sn_tension(sm->net, 0, y, lam), mu * W2 / 1.5, 1e-12);
      /* phi'' / 2 = S.(a2 - a1) + |W|^2 = 0 */
      double acc = 0.0;
      for (int c = 0; c < 3; ++c) acc += (y[3 + c] - y[c]) * (yp[9 + c] - yp[6 + c]);
      MBDAE_ASSERT_ABS(acc + W2, 0.0, 1e-12);
      if (form == 0) {
        CU_ASSERT_EQUAL(n, 13);
        CU_ASSERT_EQUAL(mbdae_problem_eval(pr, 0.0, y, yp, res), 0);
        for (int a = 0; a < n; ++a) MBDAE_ASSERT_ABS(res[a], 0.0, 1e-12);
      }
      k->destroy(&m);
    }
  }
  /* formulation ggl: [R V lambda mu], the same lambda, mu = 0, and the
   * consistent state solves the residual (phi = 0 and S.W = 0 rows) */
  p.hold = SN_HOLD_EVENT;
  p.formulation = 1;
  mbdae_options o;
  mbdae_options_default(&o);
  mbdae_model *m = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &m, &err), 0);
  mbdae_problem *pr = k->problem(m);
  CU_ASSERT_EQUAL(mbdae_problem_size(pr), 14);
  double y[14] = {0}, yp[14] = {0}, res[14];
  CU_ASSERT_EQUAL(k->initial_state(m, 0.0, y, yp), 0);
  MBDAE_ASSERT_REL(sn_tension(((snm_model *)m)->net, 0, y, y[12]), mu * W2 / 1.5, 1e-12);
  CU_ASSERT_EQUAL(y[13], 0.0);
  CU_ASSERT_EQUAL(mbdae_problem_eval(pr, 0.0, y, yp, res), 0);
  for (int a = 0; a < 14; ++a) MBDAE_ASSERT_ABS(res[a], 0.0, 1e-12);
  k->destroy(&m);
}

/* formulation ggl is an index-2 DAE for IDA and holds exact strings: any
 * other method names solver.method, mode baumgarte or elastic names
 * formulation. */
static void test_ggl_refusals(void) {
  const mbdae_model_kind *k = &mbdae_model_string_net;
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_BOLA;
  p.r2[0] = 0.5;
  p.formulation = 1;
  const mbdae_method ms[] = {MBDAE_METHOD_RK4, MBDAE_METHOD_CVODE_BDF, MBDAE_METHOD_CVODE_ADAMS,
                             MBDAE_METHOD_ARKODE, MBDAE_METHOD_MOREAU};
  for (int a = 0; a < 5; ++a) {
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = ms[a];
    if (ms[a] == MBDAE_METHOD_ARKODE) o.linsol = MBDAE_LINSOL_KLU;
    mbdae_model *m = NULL;
    mbdae_param_error err;
    memset(&err, 0, sizeof err);
    CU_ASSERT_EQUAL(k->create(&p, &o, &m, &err), MBDAE_ERR_PARAMETER);
    CU_ASSERT(err.key && strcmp(err.key, "solver.method") == 0);
    CU_ASSERT(strstr(err.msg, "ggl") != NULL);
    CU_ASSERT_PTR_NULL(m);
  }
  for (int hold = 1; hold <= 2; ++hold) {
    p.hold = hold;
    mbdae_param_error err;
    memset(&err, 0, sizeof err);
    CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
    CU_ASSERT(err.key && strcmp(err.key, "formulation") == 0);
  }
  /* through the CLI: one line naming the key, exit 2, nothing written */
  const char *dir = mbdae_test_tmpdir("strings_ggl_cli");
  char args[1024];
  snprintf(args, sizeof args,
           "run '%s' --set solver.method=rk4 --set parameters.formulation=ggl -o out",
           mbdae_test_source_path("scenarios/bola_event.yaml"));
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "solver.method"));
  char *nl = strchr(cli_err, '\n');
  CU_ASSERT(nl == NULL || nl[1] == '\0');
  CU_ASSERT_FALSE(path_exists(dir, "out"));
  /* and a run: IDA's own order statistics in summary.json */
  snprintf(args, sizeof args,
           "run '%s' --set parameters.formulation=ggl --set solver.rtol=1e-8 "
           "--set solver.atol=1e-10 --quiet --no-plots -o ok",
           mbdae_test_source_path("scenarios/bola_event.yaml"));
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 0);
  char *js = slurp(dir, "ok/summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(js);
  double q = json_number_of(js, "mean_order");
  printf(" (bola, ggl, rtol 1e-8: mean order %.2f)", q);
  CU_ASSERT(q > 2.0);
  CU_ASSERT_EQUAL(json_number_of(js, "impacts"), 6.0);
  free(js);
  char *csv = slurp(dir, "ok/series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  CU_ASSERT(csv_check(csv, csv_header_columns(csv)) > 1000);
  free(csv);
}

/* A short event-mode run through the kind: the rotating chain stays taut
 * (no events) in both formulations. Under ggl, with no drift control, phi
 * and S.W stay at the tolerance's level, the motion matches the index-1
 * form's, and IDA runs above order 2 (mean order of its steps; measured 4.2). */
static void test_ggl_chain_run(void) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_CHAIN;
  p.chain_points = 20;
  p.chain_spin = 2.0;
  p.chain_wave = 0.05;
  p.length = 0.1;
  double end[2][12];
  for (int f = 0; f < 2; ++f) {
    p.formulation = f;
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = MBDAE_METHOD_IDA;
    o.linsol = MBDAE_LINSOL_KLU;
    o.t_end = 1.0;
    o.dt_out = 0.1;
    o.rtol = 1e-8;
    o.atol = 1e-10;
    static strings_log log;
    memset(&log, 0, sizeof log);
    log.nprobe = 1;
    log.probe_t[0] = 1.0;
    mbdae_stats st;
    char msg[512] = "";
    int rc = strings_run(&p, &o, &log, &st, msg, sizeof msg);
    if (rc) printf("\n  chain run (%s): %s\n", f ? "ggl" : "index1", msg);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(log.nev, 0);
    CU_ASSERT(log.probe_hit[0]);
    memcpy(end[f], log.probe_y[0], sizeof log.probe_y[0]);
    long n = 0;
    double q = 0.0;
    for (int a = 0; a < MBDAE_STATS_ORDERS; ++a) {
      n += st.steps_by_order[a];
      q += (a + 1.0) * (double)st.steps_by_order[a];
    }
    printf(" (%s: %ld steps, mean order %.2f, |phi|/L^2 %.1e, S.W/(L|W|) %.1e)",
           f ? "ggl" : "index1", st.steps, n ? q / (double)n : 0.0, log.max_taut_phi,
           log.max_taut_sw);
    if (f == 1) {
      CU_ASSERT(n > 0 && q / (double)n > 2.0);
      /* held by Newton's convergence test, i.e. at rtol's level (measured
       * 3.7e-9 and 2.4e-9; the index-1 form with its drift control: 7.6e-9
       * and 1.1e-8) */
      CU_ASSERT(log.max_taut_phi < o.rtol);
      CU_ASSERT(log.max_taut_sw < o.rtol);
    }
  }
  /* the first two points' positions and velocities agree to the tolerance */
  for (int a = 0; a < 12; ++a) MBDAE_ASSERT_ABS(end[1][a], end[0][a], 1e-6);
}

/* A flat grid spinning at w about its normal is a relative equilibrium:
 * every string at length, every point accelerating at -w^2 x. A lateral
 * string (a, b)-(a, b+1) holds the points b' > b of its row on their
 * circles: T = w^2 sum_{b' > b} m_b' y_b' (and likewise along x). */
static void test_spinning_grid_tensions(void) {
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_SPINNING_GRID;
  p.hold = SN_HOLD_EVENT;
  p.grid_n = 5;
  p.grid_m = 4;
  p.length = 0.3;
  p.grid_mass = 0.02;
  p.corner_mass = 0.07;
  p.grid_spin = 3.0;
  p.grid_wave = 0.0;
  const mbdae_model_kind *k = &mbdae_model_string_net;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  mbdae_model *m = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &m, &err), 0);
  snm_model *sm = (snm_model *)m;
  sn_net *net = sm->net;
  int n = mbdae_problem_size(k->problem(m));
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  CU_ASSERT_FATAL(y && yp);
  CU_ASSERT_EQUAL(k->initial_state(m, 0.0, y, yp), 0);
  double w2 = p.grid_spin * p.grid_spin;
  for (int q = 0; q < net->np; ++q)
    for (int c = 0; c < 2; ++c) /* V' = -w^2 r in the plane */
      MBDAE_ASSERT_ABS(yp[net->off_v + 3 * q + c], -w2 * y[3 * q + c], 1e-10);
  for (int s = 0; s < net->ns; ++s) {
    CU_ASSERT_EQUAL(net->taut[s], 1);
    MBDAE_ASSERT_ABS(sn_phi(net, s, y), 0.0, 1e-15);
    int i = net->s[s].i, j = net->s[s].j; /* j = i + 1 (lateral, y) or i + m (x) */
    int lateral = j == i + 1, a = i / p.grid_m, b = i % p.grid_m;
    double T = 0.0;
    if (lateral)
      for (int bb = b + 1; bb < p.grid_m; ++bb)
        T += w2 * net->m[a * p.grid_m + bb] * y[3 * (a * p.grid_m + bb) + 1];
    else
      for (int aa = a + 1; aa < p.grid_n; ++aa)
        T += w2 * net->m[aa * p.grid_m + b] * y[3 * (aa * p.grid_m + b)];
    CU_ASSERT(T > 0.0);
    MBDAE_ASSERT_REL(sn_tension(net, s, y, y[net->off_lam + s]), T, 1e-10);
  }
  free(y);
  free(yp);
  k->destroy(&m);
}

/* switching: state (the seed's RK4: modes from phi >= 0 at every stage, no
 * location) converges to the located solution at about first order in the
 * step (a switch inside a step is missed by up to one step). */
static double state_switching_error(double h, const double *ref) {
  snm_params p;
  strings_seed_bola(&p);
  p.hold = SN_HOLD_BAUMGARTE;
  p.switching = 1;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.rk4_step = h;
  o.t_end = 1.5;
  o.dt_out = 1.5;
  static strings_log log;
  memset(&log, 0, sizeof log);
  log.nprobe = 1;
  log.probe_t[0] = 1.5;
  CU_ASSERT_EQUAL(strings_run(&p, &o, &log, NULL, NULL, 0), 0);
  CU_ASSERT_EQUAL(log.nev, 0); /* no roots, no events */
  double e = 0.0;
  for (int c = 0; c < 6; ++c) e = fmax(e, fabs(log.probe_y[0][c] - ref[c]));
  return e;
}
static void test_switching_state(void) {
  const mbdae_model_kind *k = &mbdae_model_string_net;
  snm_params p;
  mbdae_param_error err;
  strings_seed_bola(&p);
  p.hold = SN_HOLD_EVENT;
  p.switching = 1;
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT(err.key && strcmp(err.key, "switching") == 0);
  /* located reference: RK4 at a fine step with the switches root-found */
  p.hold = SN_HOLD_BAUMGARTE;
  p.switching = 0;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  o.rk4_step = 1e-4;
  o.t_end = 1.5;
  o.dt_out = 1.5;
  static strings_log lg;
  memset(&lg, 0, sizeof lg);
  lg.nprobe = 1;
  lg.probe_t[0] = 1.5;
  CU_ASSERT_EQUAL_FATAL(strings_run(&p, &o, &lg, NULL, NULL, 0), 0);
  CU_ASSERT(lg.nev >= 2); /* the string switched on and off */
  double ref[6];
  memcpy(ref, lg.probe_y[0], sizeof ref);
  /* least-squares slope of log(error) against log(step) over 5 halvings */
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  printf("\n  state switching, end error:");
  for (int q = 0; q < 6; ++q) {
    double h = 4e-3 / (1 << q), e = state_switching_error(h, ref);
    printf(" %.2e", e);
    sx += log(h), sy += log(e), sxx += log(h) * log(h), sxy += log(h) * log(e);
  }
  double slope = (6 * sxy - sx * sy) / (6 * sxx - sx * sx);
  printf(" (h = 4 ms ... 0.125 ms): order %.2f\n", slope);
  /* about first order (1.35 measured: the switch's place in the step
   * varies), far from the 4th order of located switching */
  CU_ASSERT(slope > 0.7 && slope < 2.0);
}

int main(void) {
  const mbdae_test tests[] = {
    {"parameter errors name the key", test_param_errors},
    {"jacobian: bola, both modes", test_jacobian_bola},
    {"jacobian: grid net and chain", test_jacobian_grid_chain},
    {"pattern is exact and minimal", test_pattern_minimal},
    {"impact map = App. I eqs. 6.17-6.19", test_impact_bola_closed_form},
    {"simultaneous impacts: one impulse problem", test_impact_simultaneous},
    {"taut tension mu|W|^2/L, ODE and DAE forms", test_taut_tension_and_forms},
    {"ggl: bad method or mode names the key", test_ggl_refusals},
    {"rotating chain stays taut (IDA+KLU), index1 and ggl: no drift, order above 2",
     test_ggl_chain_run},
    {"spinning grid: tensions = w^2 sum m y (closed form)", test_spinning_grid_tensions},
    {"switching: state converges at first order", test_switching_state},
    {NULL, NULL},
  };
  return mbdae_test_main("strings", tests);
}
