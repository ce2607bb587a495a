/* test_event_columns.c - the event columns every writer uses: each
 * invariant before and after the event with the unit its problem declares
 * (mbdae_problem_set_invariant_units: "energy_before [J]"), one name per
 * column for every built-in kind (results.mat and DataFrames need them
 * unique), and a kind whose event data repeats a name refused before
 * anything is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_util.h"
#include "mbdae/simulation.h"
#include "testutil.h"
#include "toy_kind.h"

/* --- the problem API ---------------------------------------------------- */

static int inv_dummy(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t, (void)y, (void)yp, (void)ud;
  out[0] = out[1] = 0.0;
  return 0;
}

static void test_problem_units(void) {
  static const char *const names[] = {"energy", "gap"};
  static const char *const units[] = {"J", "m"};
  mbdae_problem *p = mbdae_problem_create(1, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  /* no invariants yet: nothing to give units to */
  CU_ASSERT_EQUAL(mbdae_problem_set_invariant_units(p, units), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_invariants(p, 2, names, inv_dummy), MBDAE_OK);
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, 0), ""); /* none set */
  CU_ASSERT_EQUAL(mbdae_problem_set_invariant_units(p, NULL), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_set_invariant_units(p, units), MBDAE_OK);
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, 0), "J");
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, 1), "m");
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, 2), ""); /* out of range */
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, -1), "");
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(NULL, 0), "");
  /* new names forget the units given for the old ones */
  CU_ASSERT_EQUAL(mbdae_problem_set_invariants(p, 2, names, inv_dummy), MBDAE_OK);
  CU_ASSERT_STRING_EQUAL(mbdae_problem_invariant_unit(p, 0), "");
  mbdae_problem_free(&p);
}

/* --- a registered kind: units reach events.csv and memory; a repeated
 *     name is refused ----------------------------------------------------- */

static int toy_create_with_units(const void *params, mbdae_options *o, mbdae_model **model,
                                 mbdae_param_error *err) {
  static const char *const units[] = {"m"};
  int rc = toy_create(params, o, model, err);
  if (!rc) rc = mbdae_problem_set_invariant_units(toy_problem(*model), units);
  return rc;
}

/* event data named like the invariant's own column */
static int toy_clashing_event_columns(mbdae_model *m, mbdae_column *cols, int max) {
  int n = toy_event_columns(m, cols, max);
  if (cols && max >= 1) snprintf(cols[0].name, sizeof cols[0].name, "level_before");
  return n;
}

static const char *const toy_text = "model: %s\nsolver:\n  method: cvode-bdf\n  t_end: 2\n"
                                    "  dt_out: 0.5\nparameters:\n  k: 1.5\n  e: 0.25\n";

static void test_units_reach_writers(void) {
  static mbdae_model_kind k; /* the registry keeps the pointer */
  k = toy_kind;
  k.name = "toy_units";
  k.create = toy_create_with_units;
  CU_ASSERT_EQUAL_FATAL(mbdae_model_kind_register(&k, NULL, 0), MBDAE_OK);
  char text[256], err[1024];
  snprintf(text, sizeof text, toy_text, "toy_units");
  mbdae_simulation *sim = NULL;
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_load_text("toy.yaml", text, NULL, 0, &sim, err, sizeof err),
                        MBDAE_OK);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", mbdae_test_tmpdir("event_columns_units"));
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_run(sim, dir, MBDAE_SIM_KEEP, err, sizeof err), MBDAE_OK);
  char *events = slurp(dir, "events.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  const char *hdr = "index,t [s],label,mode_before,mode_after,roots,action,level_before [m],"
                    "level_after [m],y_before [m],y_after [m]\n";
  CU_ASSERT(strncmp(events, hdr, strlen(hdr)) == 0);
  CU_ASSERT_EQUAL(csv_check(events, 11), 2); /* refills at 0.924, 1.997 (toy_kind.h) */
  free(events);
  const char *unit = NULL;
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_event_column(sim, 2, &unit), "level_before");
  CU_ASSERT_STRING_EQUAL(unit, "m");
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_event_column(sim, 3, &unit), "level_after");
  CU_ASSERT_STRING_EQUAL(unit, "m");
  mbdae_simulation_free(&sim);
}

static void test_repeated_name_refused(void) {
  static mbdae_model_kind k; /* the registry keeps the pointer */
  k = toy_kind;
  k.name = "toy_clash";
  k.event_columns = toy_clashing_event_columns;
  CU_ASSERT_EQUAL_FATAL(mbdae_model_kind_register(&k, NULL, 0), MBDAE_OK);
  char text[256], err[1024] = "";
  snprintf(text, sizeof text, toy_text, "toy_clash");
  mbdae_simulation *sim = NULL;
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_load_text("toy.yaml", text, NULL, 0, &sim, err, sizeof err),
                        MBDAE_OK);
  char out[4200];
  snprintf(out, sizeof out, "%s/run", mbdae_test_tmpdir("event_columns_clash"));
  CU_ASSERT_EQUAL(mbdae_simulation_run(sim, out, 0, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "names two event columns 'level_before'"));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "key 'model'"));
  CU_ASSERT_FALSE(path_exists(out, NULL)); /* nothing written */
  mbdae_simulation_free(&sim);
}

/* --- every built-in kind ------------------------------------------------- */

typedef struct {
  const char *scenario;
  const char *set[3];
} briefly;

static const briefly cases[] = {
  {"ball", {"solver.t_end=0.5"}},
  {"pendulum_ggl", {"solver.t_end=0.1"}},
  {"bola_event", {"solver.t_end=0.1"}},
  {"net_deploy", {"solver.t_end=0.05"}},
  {"capture_demo", {"solver.t_end=0.02", "parameters.rows=3", "parameters.cols=3"}},
  {"capture_demo", {"solver.t_end=0.02", "parameters.rows=3", "parameters.cols=3"}},
  {"capture_ida", {"solver.t_end=0.02", "parameters.rows=3", "parameters.cols=3"}},
  {"capture_baumgarte", {"solver.t_end=0.02", "parameters.rows=3", "parameters.cols=3"}},
  {"ravine_example_4_2", {"solver.t_end=0.2"}},
  {"rover_sim1_consistent", {"solver.t_end=0.05"}},
  {"wheel_beta0", {"solver.t_end=0.01"}},
  {"billiard_polynomial", {"solver.t_end=0.5"}},
  {"tow", {"solver.t_end=2"}},
  {"capture_elastic", {"solver.t_end=0.02", "parameters.rows=3", "parameters.cols=3"}},
};

static int nset(const briefly *b) {
  int n = 0;
  while (n < 3 && b->set[n]) ++n;
  return n;
}

static void test_builtin_kinds(void) {
  char seen[64] = {0}; /* the built-in kinds run: every one must be */
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    char rel[256], path[4096], err[1024] = "";
    snprintf(rel, sizeof rel, "scenarios/%s.yaml", cases[c].scenario);
    snprintf(path, sizeof path, "%s", mbdae_test_source_path(rel));
    const char *set[4];
    int n = nset(&cases[c]);
    for (int i = 0; i < n; ++i) set[i] = cases[c].set[i];
    if (c == 5) set[n++] = "parameters.mode=compliant";
    mbdae_simulation *sim = NULL;
    int rc = mbdae_simulation_load(path, set, n, &sim, err, sizeof err);
    if (rc) printf("\n  %s: %s", path, err);
    CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
    for (int i = 0; i < mbdae_model_kind_count() && i < 64; ++i)
      if (strcmp(mbdae_model_kind_at(i)->name, mbdae_simulation_model(sim)) == 0) seen[i] = 1;
    rc = mbdae_simulation_run(sim, NULL, MBDAE_SIM_KEEP, err, sizeof err);
    if (rc) printf("\n  %s: %s", path, err);
    CU_ASSERT_EQUAL(rc, MBDAE_OK);
    int ncols = 0;
    CU_ASSERT_EQUAL_FATAL(mbdae_simulation_events(sim, NULL, NULL, &ncols), MBDAE_OK);
    CU_ASSERT(ncols > 2);
    int energy = 0;
    for (int j = 0; j < ncols; ++j) {
      const char *unit = NULL, *name = mbdae_simulation_event_column(sim, j, &unit);
      CU_ASSERT_PTR_NOT_NULL_FATAL(name);
      /* every numeric column but the index carries a unit ("-": a count) */
      if (j > 0 && !unit[0]) printf("\n  %s: event column '%s' has no unit", path, name);
      CU_ASSERT(j == 0 || unit[0]);
      for (int i = 0; i < j; ++i)
        if (strcmp(name, mbdae_simulation_event_column(sim, i, NULL)) == 0) {
          printf("\n  %s: event column '%s' twice", path, name);
          CU_FAIL("repeated event column");
        }
      if (strcmp(name, "energy_before") == 0 || strcmp(name, "energy_after") == 0) {
        CU_ASSERT_STRING_EQUAL(unit, "J");
        ++energy;
      }
    }
    /* every kind but the rover (Lyapunov function V) and the tow (its
     * energy ledger) logs its energy */
    int other = !strncmp(cases[c].scenario, "rover", 5) || !strcmp(cases[c].scenario, "tow");
    CU_ASSERT_EQUAL(energy, other ? 0 : 2);
    mbdae_simulation_free(&sim);
  }
  /* a new built-in kind needs a case above (registered test kinds aside) */
  for (int i = 0; i < mbdae_model_kind_count() && i < 64; ++i) {
    const char *name = mbdae_model_kind_at(i)->name;
    if (strncmp(name, "toy", 3) == 0) continue;
    if (!seen[i]) printf("\n  model kind %s has no case in test_event_columns.c", name);
    CU_ASSERT(seen[i]);
  }
}

int main(void) {
  static const mbdae_test tests[] = {
    {"invariant units in the problem API", test_problem_units},
    {"units reach events.csv and the kept events", test_units_reach_writers},
    {"a repeated event column name is refused, nothing written", test_repeated_name_refused},
    {"every built-in kind: units on every event column, no name twice", test_builtin_kinds},
    {NULL, NULL}};
  return mbdae_test_main("event_columns", tests);
}
