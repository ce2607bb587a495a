/* test_capture_moreau_friction.c - Coulomb friction at the net capture's
 * contacts under event capturing (parameters.friction with mode event and
 * solver.method moreau; models/capture/capture_mechanics.c's tangent rows,
 * solver/friction.c), through the CLI.
 *
 * Closed form: a flat 2 x 2 net (strings taut, moving as one at 2 m/s along
 * z) meets the -z face of a box that is 1e6 times heavier and slides along
 * x at u = 0.2 m/s while closing at 0.5 m/s: relative normal speed
 * w_n = 2.5 m/s, relative tangential speed |w_t| = u. A plastic impact
 * (e_body = 0) takes P_n = m w_n per point (the four points are struck
 * alike, so the strings carry no impulse); Coulomb's law gives the
 * tangential impulse min(mu P_n, m |w_t|), so the net's x velocity after the
 * impact is mu w_n when mu w_n < u (sliding) and u otherwise (sticking).
 * With no force pressing the points on afterwards, that velocity is kept:
 * read as the slope of net_center_x in series.csv. Bad input: a negative or
 * non-finite coefficient, and friction in mode event under an event-driven
 * method, are refused in one line naming parameters.friction, exit 2,
 * nothing written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "testutil.h"

static const char *scenario(const char *dir) {
  static char path[4200];
  snprintf(path, sizeof path, "%s/slide.yaml", dir);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  fputs("model: net_capture\n"
        "solver:\n  method: moreau\n  t_end: 1.5\n  dt_out: 0.05\n  moreau_step: 0.001\n"
        "parameters:\n  mode: event\n  rows: 2\n  cols: 2\n  spacing: 0.2\n"
        "  point_mass: 0.01\n  launch_point: [0.0, 0.0, -3.0]\n"
        "  launch_velocity: [0.0, 0.0, 2.0]\n  deploy_time: 0.5\n  shape: box\n"
        "  box_size: [1.0, 1.0, 1.0]\n  body_mass: 1.0e6\n"
        "  body_velocity: [0.2, 0.0, -0.5]\n  body_omega: [0.0, 0.0, 0.0]\n"
        "  e_string: 0.0\n  e_body: 0.0\n",
        f);
  fclose(f);
  return path;
}

/* The net's x velocity after the impact: slope of net_center_x between the
 * samples at t = 1.3 and 1.5 s (the impact is at t = 0.5 + 1.5 / 2.5 = 1.1 s). */
static double slide_velocity(const char *dir, const char *out) {
  char *csv = slurp(dir, out);
  if (!csv) return NAN;
  if (csv_check(csv, csv_header_columns(csv)) < 30) { /* t = 0 .. 1.5 every 0.05 */
    free(csv);
    return NAN;
  }
  int col = -1, k = 0;
  const char *p = csv;
  for (; *p && *p != '\n'; ++k) {
    if (!strncmp(p, "net_center_x", 12)) col = k;
    while (*p && *p != ',' && *p != '\n') ++p;
    if (*p == ',') ++p;
  }
  double t1 = NAN, x1 = NAN, t2 = NAN, x2 = NAN;
  while (col >= 0 && *p == '\n') {
    ++p;
    double t = strtod(p, NULL), x = NAN;
    const char *c = p;
    for (int i = 0; i < col && *c && *c != '\n'; ++i) {
      while (*c && *c != ',' && *c != '\n') ++c;
      if (*c == ',') ++c;
    }
    x = strtod(c, NULL);
    if (fabs(t - 1.3) < 1e-9) t1 = t, x1 = x;
    if (fabs(t - 1.5) < 1e-9) t2 = t, x2 = x;
    while (*p && *p != '\n') ++p;
  }
  free(csv);
  return (x2 - x1) / (t2 - t1);
}

static void test_closed_form(void) {
  const char *dir = mbdae_test_tmpdir("capture-friction");
  const char *path = scenario(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(path);
  const double u = 0.2, wn = 2.5;
  const double mus[3] = {0.0, 0.05, 0.3};
  for (int i = 0; i < 3; ++i) {
    char args[8192];
    snprintf(args, sizeof args,
             "run '%s' --set parameters.friction=%g --out o%d --no-plots --quiet "
             "--set output.vtk=false",
             path, mus[i], i);
    CU_ASSERT_EQUAL_FATAL(cli_run(dir, NULL, args), 0);
    char name[64];
    snprintf(name, sizeof name, "o%d/series.csv", i);
    const double expect = fmin(mus[i] * wn, u);
    const double got = slide_velocity(dir, name);
    printf("\n  mu %g: x velocity after the impact %.9f m/s (closed form %.9f)", mus[i], got,
           expect);
    MBDAE_ASSERT_ABS(got, expect, 1e-6);
    /* the impulses stay in the cone, so the energy never rises */
    snprintf(name, sizeof name, "o%d/summary.json", i);
    char *js = slurp(dir, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(js);
    CU_ASSERT(json_number_of(js, "max_energy_rise") < 1e-9);
    free(js);
  }
}

static void refused(const char *dir, const char *path, const char *sets) {
  char args[8192];
  snprintf(args, sizeof args, "run '%s' %s --out bad --quiet --no-plots", path, sets);
  CU_ASSERT_EQUAL(cli_run(dir, NULL, args), 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(cli_err, "parameters.friction"));
  const char *nl = strchr(cli_err, '\n'); /* one line */
  CU_ASSERT(nl == NULL || nl[1] == '\0');
  CU_ASSERT_FALSE(path_exists(dir, "bad"));
}

static void test_bad_input(void) {
  const char *dir = mbdae_test_tmpdir("capture-friction-bad");
  const char *path = scenario(dir);
  CU_ASSERT_PTR_NOT_NULL_FATAL(path);
  refused(dir, path, "--set parameters.friction=-0.1");
  refused(dir, path, "--set parameters.friction=nan");
  refused(dir, path, "--set parameters.friction=inf");
  refused(dir, path, "--set parameters.friction=0.3 --set solver.method=cvode-adams");
  refused(dir, path, "--set parameters.friction=0.3 --set solver.method=rk4");
}

int main(void) {
  static const mbdae_test tests[] = {
    {"sliding and sticking impact against the closed form", test_closed_form},
    {"bad friction input", test_bad_input},
    {NULL, NULL},
  };
  return mbdae_test_main("capture_moreau_friction", tests);
}
