/* test_billiard_scenarios.c - the shipped billiard scenarios pass the
 * driver's schema and the model's cross-field checks; bad input is refused
 * with the offending key named. */
#include <stdio.h>
#include <string.h>

#include "mbdae/status.h"
#include "scenario.h"
#include "testutil.h"

static const char *const files[] = {
  "scenarios/billiard_wedge_6p6.yaml",     "scenarios/billiard_hyperbola_4p5.yaml",
  "scenarios/billiard_hyperbola_5p8.yaml", "scenarios/billiard_parabola_4p5.yaml",
  "scenarios/billiard_parabola_5p4.yaml",  "scenarios/billiard_polynomial.yaml"};

static void test_load(void) {
  for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
    mbdae_scenario s;
    char err[512] = "";
    int st = mbdae_scenario_load(mbdae_test_source_path(files[i]), NULL, 0, &s, err, sizeof err);
    if (st != MBDAE_OK) printf("\n  %s: %s\n", files[i], err);
    CU_ASSERT_EQUAL(st, MBDAE_OK);
    mbdae_scenario_free(&s);
  }
}

static void expect_refused(const char *file, const char *override, const char *key) {
  mbdae_scenario s;
  char err[512] = "";
  const char *ov[1] = {override};
  int st = mbdae_scenario_load(mbdae_test_source_path(file), ov, 1, &s, err, sizeof err);
  CU_ASSERT_NOT_EQUAL(st, MBDAE_OK);
  if (!strstr(err, key)) printf("\n  %s: expected key %s in: %s\n", override, key, err);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, key));
  mbdae_scenario_free(&s);
}

static void test_bad_input(void) {
  expect_refused(files[1], "parameters.radius=0.03", "parameters.radius");
  /* (a start outside the boundary depends on t0's drive phase: it is
   * refused when the model is created, see test_billiard_model.c) */
  expect_refused(files[4], "parameters.restitution=1.5", "parameters.restitution");
  expect_refused(files[4], "parameters.mass=0", "parameters.mass");
  expect_refused(files[4], "parameters.mu_kinetic=0.9", "parameters.mu_kinetic");
  expect_refused(files[5], "parameters.poly=[0.0063, 0, 2000, 0, 0, 0, 0, 0, 0]",
                 "parameters.radius");
}

int main(void) {
  const mbdae_test tests[] = {{"shipped scenarios load", test_load},
                              {"bad input names the key", test_bad_input},
                              {NULL, NULL}};
  return mbdae_test_main("billiard_scenarios", tests);
}
