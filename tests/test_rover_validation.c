/* test_rover_validation.c - runs the rover validation cases
 * (validation/rover_cases.c): steady state, stability, agreement of the
 * formulations, energy audit, rolling constraint; every row must pass. */
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

static void run_case(const char *name) {
  const mbdae_validation_case *c = mbdae_validation_find(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(c);
  mbdae_validation_report rep = {0};
  int rc = c->run(&rep);
  CU_ASSERT_EQUAL(rc, 0);
  CU_ASSERT(rep.nrows > 0);
  for (int i = 0; i < rep.nrows; ++i) {
    const mbdae_validation_row *r = &rep.rows[i];
    if (!r->pass)
      printf("\n  FAIL %s: ref %.10g computed %.10g err %.3g > tol %.3g\n",
             r->quantity, r->reference, r->computed, r->error, r->tolerance);
    CU_ASSERT(r->pass);
  }
  mbdae_validation_report_clear(&rep);
}

static void test_steady(void) { run_case("rover_steady_state"); }
static void test_stability(void) { run_case("rover_stability"); }
static void test_formulations(void) { run_case("rover_formulations"); }
static void test_energy(void) { run_case("rover_energy"); }
static void test_constraint(void) { run_case("rover_constraint"); }

int main(void) {
  static const mbdae_test tests[] = {
    {"steady rolling closed form", test_steady},
    {"linear stability vs simulation", test_stability},
    {"DAE vs null-space ODE vs RK4", test_formulations},
    {"Lyapunov energy audit", test_energy},
    {"rolling constraint in the DAE", test_constraint},
    {NULL, NULL},
  };
  return mbdae_test_main("rover_validation", tests);
}
