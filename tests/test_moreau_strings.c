/* test_moreau_strings.c - string nets under event capturing (method moreau):
 * the strings' constraint Jacobian against finite differences, the bola
 * against its closed form (capps App. I, validation/strings_bola_exact.c)
 * and the Siconos peer's figures (an independent code, same scheme), the
 * deploying net against the analytic end energy, momenta conserved to
 * round-off and energy never rising over a step. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "strings_bola_exact.h"
#include "strings_moreau.h"
#include "strings_run.h"
#include "testutil.h"

/* A small net off the grid (no two points together), every G entry checked. */
static void test_jacobian_fd(void) {
  snm_params p;
  strings_params_default(&p);
  if (strings_siconos_net(&p, 3, 0.2)) CU_FAIL_FATAL("memory");
  for (int k = 0; k < p.npoints; ++k) /* perturb the grid */
    for (int c = 1; c < 4; ++c) p.points[7 * k + c] += 0.01 * sin(1.3 * k + 0.7 * c);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  snm_model *m = NULL;
  mbdae_param_error pe;
  CU_ASSERT_EQUAL_FATAL(snm_create(&p, &o, &m, &pe), MBDAE_OK);
  strings_table_free(&p);
  double y[54];
  CU_ASSERT_EQUAL_FATAL(m->net->n, 54);
  snm_initial_state(m, 0.0, y, NULL);
  mbdae_mechanics_check_result r;
  CU_ASSERT_EQUAL(mbdae_mechanics_check(m->problem, 0.0, y, 0.0, 1e-7, &r), MBDAE_OK);
  printf("\n  G: max rel err %.2e, misses %ld\n", r.g_max_rel_err, r.g_pattern_misses);
  CU_ASSERT(r.g_max_rel_err < 1e-8);
  CU_ASSERT_EQUAL(r.g_pattern_misses, 0);
  CU_ASSERT_EQUAL(r.mass_asymmetry, 0.0);
  int nq, nv, nu, nb;
  mbdae_problem_mechanics_sizes(m->problem, &nq, &nv, &nu, &nb);
  CU_ASSERT(nq == 27 && nv == 27 && nu == 12 && nb == 0);
  snm_free(&m);
}

/* The seed's bola, h = 1e-3, theta = 1/2. */
static void test_bola(void) {
  snm_params p;
  strings_seed_bola(&p);
  bola_exact b;
  strings_seed_bola_exact(&b, &p);
  CU_ASSERT_EQUAL_FATAL(bola_exact_solve(&b, 3.0), 0);
  mbdae_options o;
  mbdae_options_default(&o);
  o.moreau_step = 1e-3;
  o.t_end = 3.0;
  o.dt_out = 0.5;
  moreau_metrics mm;
  memset(&mm, 0, sizeof mm);
  mm.window0 = 1.4;
  mm.window1 = 3.0;
  mm.probe_t = 2.0;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(strings_moreau_run(&p, &o, &mm, msg, sizeof msg), MBDAE_OK);
  /* closed form: first impact, accumulation, energy after it, rotation rate */
  const double E_after = 120.608125; /* E0 - sum of the impacts' losses */
  double lost = 0.0;
  for (int k = 0; k < b.nimp; ++k) lost += b.dE[k];
  MBDAE_ASSERT_REL(mm.E0 - lost, E_after, 1e-6);
  CU_ASSERT(mm.t_first_impulse - b.t_imp[0] >= 0.0 && mm.t_first_impulse - b.t_imp[0] <= 1e-3);
  MBDAE_ASSERT_ABS(mm.t_taut, b.t_inf, 15e-3);
  MBDAE_ASSERT_REL(mm.E_probe, E_after, 3e-6);
  MBDAE_ASSERT_ABS(mm.omega_end, 0.75, 2e-3);
  /* the Siconos peer, same scheme (results_2026-11-26.jsonl): identical to round-off */
  MBDAE_ASSERT_ABS(mm.t_first_impulse, 0.578, 1e-9);
  MBDAE_ASSERT_ABS(mm.t_taut, 1.336, 1e-9);
  MBDAE_ASSERT_ABS(mm.E_probe, 120.60782421826684, 1e-9);
  MBDAE_ASSERT_REL(mm.max_stretch_window, 9.71266617177946e-06, 1e-5);
  MBDAE_ASSERT_ABS(mm.omega_end, 0.7489800429004926, 1e-9);
  /* energy never rises beyond round-off (doc/moreau.md: gravity on both
   * points leaves the relative motion force-free) */
  CU_ASSERT(mm.max_rise <= 1e-12 * mm.E0);
}

/* Deploying nets (the Siconos peer's), e = 0 and 0.15, no external force. */
static void deploy_case(int n, double e) {
  snm_params p;
  strings_params_default(&p);
  if (strings_siconos_net(&p, n, e)) CU_FAIL_FATAL("memory");
  mbdae_options o;
  mbdae_options_default(&o);
  o.moreau_step = 1e-3;
  o.t_end = 0.7;
  o.dt_out = 0.1;
  moreau_metrics mm;
  memset(&mm, 0, sizeof mm);
  mm.window1 = o.t_end;
  mm.probe_t = o.t_end;
  char msg[512];
  int rc = strings_moreau_run(&p, &o, &mm, msg, sizeof msg);
  strings_table_free(&p);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  const int ns = 2 * n * (n - 1);
  const double Mtot = 0.01 * (n * n - 4) + 0.2;
  printf("\n  n=%d e=%.2f: E_end %.12g (exact %.12g), rise %.1e, |dp| %.1e, |dH| %.1e, "
         "stretch %.2e, taut %d, lcp steps %ld", n, e, mm.K_end,
         strings_siconos_net_end_energy(n, e, mm.E0), mm.max_rise, mm.max_momentum_err,
         mm.max_angmom_err, mm.max_excess, mm.taut_end, mm.lcp_steps);
  MBDAE_ASSERT_REL(mm.K_end, strings_siconos_net_end_energy(n, e, mm.E0), 1e-9);
  CU_ASSERT(mm.max_momentum_err <= 1e-14 * Mtot);
  CU_ASSERT(mm.max_angmom_err <= 1e-14 * Mtot);
  CU_ASSERT(mm.max_rise <= 1e-12 * mm.E0);
  /* stretch: at most h times the largest separation speed (2 m/s x 2 / 2) */
  CU_ASSERT(mm.max_excess <= 2e-3);
  CU_ASSERT_EQUAL(mm.taut_end, e == 0.0 ? ns : 0);
}

/* solver.projection: the bola's string is put back to its length after
 * every step (violation <= projection_tol), energy still never rises (no
 * potential along the string: gravity acts on both points alike). */
static void test_bola_projection(void) {
  snm_params p;
  strings_seed_bola(&p);
  mbdae_options o;
  mbdae_options_default(&o);
  o.moreau_step = 1e-3;
  o.t_end = 3.0;
  o.dt_out = 0.5;
  o.projection = 1;
  o.projection_tol = 1e-10;
  moreau_metrics mm;
  memset(&mm, 0, sizeof mm);
  mm.window0 = 1.4;
  mm.window1 = 3.0;
  mm.probe_t = 2.0;
  char msg[512];
  CU_ASSERT_EQUAL_FATAL(strings_moreau_run(&p, &o, &mm, msg, sizeof msg), MBDAE_OK);
  CU_ASSERT(mm.max_excess <= 1e-10);
  CU_ASSERT(mm.stats.max_violation <= 1e-10);
  CU_ASSERT(mm.stats.projections > 1000);
  MBDAE_ASSERT_REL(mm.E_probe, 120.608125, 1e-5);
  MBDAE_ASSERT_ABS(mm.omega_end, 0.75, 2e-3);
  CU_ASSERT(mm.max_rise <= 1e-12 * mm.E0);
}

static void test_deploying_nets(void) {
  deploy_case(5, 0.0);
  deploy_case(5, 0.15);
  deploy_case(10, 0.0);
}

/* A scenario with mode: baumgarte is refused under moreau. */
static void test_refuses_baumgarte(void) {
  snm_params p;
  strings_seed_bola(&p);
  p.hold = 1;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_MOREAU;
  snm_model *m = NULL;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  CU_ASSERT_EQUAL(snm_create(&p, &o, &m, &pe), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(pe.key, "mode");
  CU_ASSERT_PTR_NULL(m);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"string G against finite differences", test_jacobian_fd},
    {"bola: closed form and the Siconos peer", test_bola},
    {"deploying nets: end energy, momenta, energy never rises", test_deploying_nets},
    {"bola with position projection", test_bola_projection},
    {"mode baumgarte refused", test_refuses_baumgarte},
    {NULL, NULL}};
  return mbdae_test_main("moreau_strings", tests);
}
