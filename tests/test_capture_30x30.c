/* test_capture_30x30.c - the shipped scenario scenarios/capture_30x30.yaml
 * (the demo's capture with a 30 x 30 net under moreau) loads and runs
 * through the CLI, shortened with --set solver.t_end to just after the net's
 * deployment (the strings go taut at t = 1 s; the whole run is a benchmark,
 * capture_moreau.csv). Checked against a closed form: the points leave the
 * launch point with the common velocity plus (offset in the grid) / T, so the
 * plastic taut event (e_string = 0) removes exactly the kinetic energy of
 * those spreading velocities, 1/2 m sum |offset|^2 / T^2 (T = deploy_time),
 * leaving the net moving as one: work_impulses of the ledger must equal its
 * negative. Also: every one of the 2 x 30 x 29 = 1740 strings enters the
 * step's problem, the run ends ok at t_end under moreau, and the largest
 * violation and energy rise over a step stay within the bounds the full
 * 10 s run is documented with (8.0e-3 m, 3.7e-10 J). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "testutil.h"

static void test_short_run(void) {
  const char *dir = mbdae_test_tmpdir("capture-30x30");
  char args[8192];
  snprintf(args, sizeof args,
           "run '%s' --set solver.t_end=1.02 --set output.vtk=false --out o --no-plots --quiet",
           mbdae_test_source_path("scenarios/capture_30x30.yaml"));
  CU_ASSERT_EQUAL_FATAL(cli_run(dir, NULL, args), 0);
  char out[4200];
  snprintf(out, sizeof out, "%s/o", dir);
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"method\": \"moreau\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"status\": \"ok\""));
  MBDAE_ASSERT_ABS(json_number_of(sum, "t_reached"), 1.02, 1e-12);
  CU_ASSERT_EQUAL(json_number_of(sum, "steps"), 1020.0);
  CU_ASSERT_EQUAL(json_number_of(sum, "index_set_max"), 1740.0);
  /* the scenario's grid: 30 x 30, spacing s = 4.05 / 29, point mass 1 / 900 kg,
   * T = 1 s; per axis sum over the grid of (i - 14.5)^2 s^2 = 30 n (n^2 - 1) / 12 s^2 */
  const int n = 30;
  const double s = 4.05 / 29.0, mp = 1.0 / 900.0, T = 1.0;
  const double sum_off2 = 2.0 * n * (n * (n * n - 1.0) / 12.0) * s * s;
  const double lost = 0.5 * mp * sum_off2 / (T * T);
  const double w = json_number_of(sum, "work_impulses");
  printf("\n  work of the impulses %.12g J, closed form %.12g J", w, -lost);
  CU_ASSERT(fabs(w + lost) <= 1e-9 * lost);
  const double viol = json_number_of(sum, "max_violation");
  CU_ASSERT(viol >= 0.0 && viol < 8.0e-3);
  CU_ASSERT(json_number_of(sum, "max_energy_rise") < 1e-8);
  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT(csv_check(series, csv_header_columns(series)) >= 21); /* t = 0 .. 1.02 every 0.05 */
  CU_ASSERT(path_exists(out, "events.csv"));
  CU_ASSERT(!path_exists(out, "vtk"));
  free(series);
  free(sum);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"30 x 30 scenario, shortened", test_short_run},
    {NULL, NULL},
  };
  return mbdae_test_main("capture_30x30", tests);
}
