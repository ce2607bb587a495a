/* test_capture_30x30.c - the shipped scenario scenarios/capture_30x30.yaml
 * (the demo's capture with a 30 x 30 net under moreau) loads and runs
 * through the CLI, shortened with --set solver.t_end to the first contacts
 * (the net meets the prism at about t = 1.3 s). Checked: the run ends ok
 * under moreau at t_end; the net went taut (a 30 x 30 grid has 2 x 30 x 29
 * = 1740 strings) and touches the body; the largest violation and the
 * largest energy rise over a step stay within the bounds the full 10 s run
 * is documented with (doc/moreau.md, capture_moreau.csv: 8.0e-3 m and
 * 3.7e-10 J over 10 s). */
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
           "run '%s' --set solver.t_end=1.33 --set output.vtk=false --out o --no-plots --quiet",
           mbdae_test_source_path("scenarios/capture_30x30.yaml"));
  CU_ASSERT_EQUAL_FATAL(cli_run(dir, NULL, args), 0);
  char out[4200];
  snprintf(out, sizeof out, "%s/o", dir);
  char *sum = slurp(out, "summary.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"method\": \"moreau\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(sum, "\"status\": \"ok\""));
  MBDAE_ASSERT_ABS(json_number_of(sum, "t_reached"), 1.33, 1e-12);
  CU_ASSERT_EQUAL(json_number_of(sum, "steps"), 1330.0);
  int taut = -1, contacts = -1;
  const char *mode = strstr(sum, "\"final_mode\": \"moreau: ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(mode);
  CU_ASSERT_EQUAL(sscanf(mode, "\"final_mode\": \"moreau: %d taut strings, %d contacts", &taut,
                         &contacts), 2);
  CU_ASSERT(taut > 1000 && taut <= 1740);
  CU_ASSERT(contacts > 0);
  const double viol = json_number_of(sum, "max_violation");
  CU_ASSERT(viol >= 0.0 && viol < 8.0e-3);
  CU_ASSERT(json_number_of(sum, "max_energy_rise") < 1e-8);
  char *series = slurp(out, "series.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT(csv_check(series, csv_header_columns(series)) >= 27); /* t = 0 .. 1.33 every 0.05 */
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
