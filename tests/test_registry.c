/* test_registry.c - model kinds registered at run time (mbdae/model.h) and
 * run through the library's scenario API (mbdae/simulation.h): the checks
 * a table must pass, the registry's order and lookup, a registered kind
 * loaded, checked, run with its series and events kept in memory (row
 * kinds, event columns, summary), geometry registration, plug-in loading
 * failures and the schema JSON. The toy kind's closed form: level y0 e^-kt,
 * first refill at ln(y0/e)/k, then every ln((e+1)/e)/k. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "mbdae/geometry.h"
#include "mbdae/simulation.h"
#include "testutil.h"
#include "toy_kind.h"

static int refused(const mbdae_model_kind *k, const char *why) {
  char err[256] = "";
  int rc = mbdae_model_kind_register(k, err, sizeof err);
  if (rc != MBDAE_ERR_ARGUMENT || !strstr(err, why))
    printf("\n  register: rc %d, '%s' (wanted '%s')", rc, err, why);
  return rc == MBDAE_ERR_ARGUMENT && strstr(err, why) != NULL;
}

static size_t half_state_size(const mbdae_model *m) {
  (void)m;
  return 0;
}

static void test_register_refuses_bad_tables(void) {
  int n0 = mbdae_model_kind_count();
  CU_ASSERT(refused(NULL, "no table"));
  mbdae_model_kind k = toy_kind;
  k.name = "Toy";
  CU_ASSERT(refused(&k, "[a-z][a-z0-9_]*"));
  k.name = "pendulum";
  CU_ASSERT(refused(&k, "a kind of that name exists"));
  k = toy_kind;
  k.name = "toy_no_create";
  k.create = NULL;
  CU_ASSERT(refused(&k, "are required"));
  k = toy_kind;
  k.name = "toy_small";
  k.params_size = sizeof(double); /* the schema reaches further */
  CU_ASSERT(refused(&k, "outside params_size"));
  k = toy_kind;
  k.name = "toy_half_state";
  k.state_size = half_state_size; /* without save and load */
  CU_ASSERT(refused(&k, "go together"));
  k = toy_kind;
  k.name = "toy_plots";
  k.plots = NULL;
  CU_ASSERT(refused(&k, "nplots"));
  CU_ASSERT_EQUAL(mbdae_model_kind_count(), n0); /* nothing was added */
}

static void test_register_and_find(void) {
  int n0 = mbdae_model_kind_count();
  CU_ASSERT_EQUAL(mbdae_model_kind_at(0), mbdae_model_kinds[0]);
  CU_ASSERT_PTR_NULL(mbdae_model_kind_find("toy"));
  CU_ASSERT_EQUAL(mbdae_model_kind_register(&toy_kind, NULL, 0), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_model_kind_register(&toy_kind, NULL, 0), MBDAE_OK); /* again */
  CU_ASSERT_EQUAL(mbdae_model_kind_count(), n0 + 1);
  CU_ASSERT_PTR_EQUAL(mbdae_model_kind_at(n0), &toy_kind);
  CU_ASSERT_PTR_NULL(mbdae_model_kind_at(n0 + 1));
  CU_ASSERT_PTR_NULL(mbdae_model_kind_at(-1));
  CU_ASSERT_PTR_EQUAL(mbdae_model_kind_find("toy"), &toy_kind);
  CU_ASSERT_PTR_NOT_NULL(mbdae_model_kind_find("pendulum"));
  /* a copy of the table under the same name is another kind: refused */
  mbdae_model_kind copy = toy_kind;
  CU_ASSERT(refused(&copy, "exists"));
}

static const char toy_yaml[] =
  "model: toy\n"
  "solver:\n"
  "  method: cvode-bdf\n"
  "  t_end: 2.0\n"
  "  dt_out: 0.1\n"
  "  rtol: 1.0e-10\n"
  "  atol: 1.0e-12\n"
  "parameters:\n"
  "  k: 1.5\n"
  "  e: 0.25\n"
  "  y0: 1.0\n";

static int column_of(const mbdae_simulation *sim, const char *name, int events) {
  for (int j = 0;; ++j) {
    const char *c = events ? mbdae_simulation_event_column(sim, j, NULL)
                           : mbdae_simulation_series_column(sim, j, NULL);
    if (!c) return -1;
    if (!strcmp(c, name)) return j;
  }
}

static void test_registered_kind_runs(void) {
  CU_ASSERT_EQUAL_FATAL(mbdae_model_kind_register(&toy_kind, NULL, 0), MBDAE_OK);
  char err[1024];
  mbdae_simulation *sim = NULL;
  /* the loader checks a registered kind's schema like a built-in one's */
  const char *bad[] = {"parameters.k=-1"};
  CU_ASSERT_EQUAL(mbdae_simulation_load_text("toy.yaml", toy_yaml, bad, 1, &sim, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NULL(sim);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "toy.yaml: --set parameters.k=-1: key 'parameters.k'"));
  const char *noisy = "model: toy\nparameters:\n  k: 1\n  kk: 2\n";
  CU_ASSERT_EQUAL(mbdae_simulation_load_text("toy.yaml", noisy, NULL, 0, &sim, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "toy.yaml:4: key 'parameters.kk'"));

  CU_ASSERT_EQUAL_FATAL(
    mbdae_simulation_load_text("toy.yaml", toy_yaml, NULL, 0, &sim, err, sizeof err), MBDAE_OK);
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_model(sim), "toy");
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_default_dir(sim), "out/toy");
  CU_ASSERT_EQUAL(mbdae_simulation_status(sim), MBDAE_ERR_NOT_FOUND); /* not run yet */
  CU_ASSERT_EQUAL(mbdae_simulation_series(sim, NULL, NULL, NULL), MBDAE_ERR_NOT_FOUND);
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_run(sim, NULL, MBDAE_SIM_KEEP, err, sizeof err),
                        MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_simulation_status(sim), MBDAE_OK);
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_message(sim), "");

  const double k = 1.5, e = 0.25;
  const double t1 = log(1.0 / e) / k, dt = log((e + 1.0) / e) / k;
  const double *rows, *ev;
  long nrows, nev;
  int ncols, nevcols;
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_series(sim, &rows, &nrows, &ncols), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(mbdae_simulation_events(sim, &ev, &nev, &nevcols), MBDAE_OK);
  const int *kinds = mbdae_simulation_series_kinds(sim);
  CU_ASSERT_PTR_NOT_NULL_FATAL(kinds);
  const long nexpect = (long)floor((2.0 - t1) / dt) + 1; /* refills in [0, 2] */
  CU_ASSERT_EQUAL(nev, nexpect);
  const char *unit = NULL;
  CU_ASSERT_STRING_EQUAL(mbdae_simulation_series_column(sim, 0, &unit), "t");
  CU_ASSERT_STRING_EQUAL(unit, "s");
  CU_ASSERT_PTR_NULL(mbdae_simulation_series_column(sim, ncols, NULL));
  int cy = column_of(sim, "y", 0);
  CU_ASSERT_FATAL(cy > 0);
  /* rows: 21 samples, a pre- and a post-event row per refill */
  CU_ASSERT_EQUAL(nrows, 21 + 2 * nev);
  long npre = 0, npost = 0;
  for (long i = 0; i < nrows; ++i) {
    const double *r = rows + i * ncols;
    if (kinds[i] == MBDAE_SERIES_PRE_EVENT) {
      MBDAE_ASSERT_REL(r[0], t1 + (double)npre * dt, 1e-8);
      MBDAE_ASSERT_REL(r[cy], e, 1e-8);
      npre++;
    } else if (kinds[i] == MBDAE_SERIES_POST_EVENT) {
      CU_ASSERT(i > 0 && kinds[i - 1] == MBDAE_SERIES_PRE_EVENT && rows[(i - 1) * ncols] == r[0]);
      MBDAE_ASSERT_REL(r[cy], e + 1.0, 1e-8);
      npost++;
    } else {
      CU_ASSERT_EQUAL(kinds[i], MBDAE_SERIES_SAMPLE);
      double t = r[0];
      CU_ASSERT(fabs(remainder(t, 0.1)) < 1e-9); /* on the output grid */
    }
  }
  CU_ASSERT_EQUAL(npre, nev);
  CU_ASSERT_EQUAL(npost, nev);
  /* events: index, t, the invariant before/after, the model's data */
  CU_ASSERT_EQUAL(nevcols, 2 + 2 + 2);
  CU_ASSERT_EQUAL(column_of(sim, "t", 1), 1);
  int cb = column_of(sim, "level_before", 1), ca = column_of(sim, "level_after", 1);
  int cd = column_of(sim, "y_after", 1);
  CU_ASSERT_FATAL(cb > 1 && ca > 1 && cd > 1);
  mbdae_simulation_event_column(sim, cd, &unit);
  CU_ASSERT_STRING_EQUAL(unit, "m");
  for (long i = 0; i < nev; ++i) {
    const double *r = ev + i * nevcols;
    CU_ASSERT_EQUAL(r[0], (double)i);
    MBDAE_ASSERT_REL(r[1], t1 + (double)i * dt, 1e-8);
    MBDAE_ASSERT_REL(r[cb], e, 1e-8);
    MBDAE_ASSERT_REL(r[ca], e + 1.0, 1e-8);
    CU_ASSERT_STRING_EQUAL(mbdae_simulation_event_text(sim, i, 0), "refill");
    CU_ASSERT_STRING_EQUAL(mbdae_simulation_event_text(sim, i, 1), "leaking");
    CU_ASSERT_STRING_EQUAL(mbdae_simulation_event_text(sim, i, 3), "continue");
  }
  CU_ASSERT_PTR_NULL(mbdae_simulation_event_text(sim, nev, 0));
  CU_ASSERT_PTR_NULL(mbdae_simulation_event_text(sim, 0, 4));
  char *summary = mbdae_simulation_summary_json(sim);
  CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
  CU_ASSERT(json_valid(summary));
  CU_ASSERT_PTR_NOT_NULL(strstr(summary, "\"model\": \"toy\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(summary, "\"refills\": {\"value\": "));
  mbdae_free(summary);

  /* an override and a second run; without MBDAE_SIM_KEEP nothing is kept */
  const char *faster[] = {"parameters.k=3"};
  CU_ASSERT_EQUAL(mbdae_simulation_override(sim, faster, 1, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_simulation_run(sim, NULL, 0, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_simulation_series(sim, NULL, NULL, NULL), MBDAE_ERR_NOT_FOUND);
  summary = mbdae_simulation_summary_json(sim);
  CU_ASSERT_PTR_NOT_NULL(summary && strstr(summary, "\"status\": \"ok\""));
  mbdae_free(summary);
  /* a failing override leaves it as it was */
  const char *worse[] = {"parameters.e=7"};
  CU_ASSERT_EQUAL(mbdae_simulation_override(sim, worse, 1, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "parameters.e"));
  mbdae_simulation_free(&sim);
  CU_ASSERT_PTR_NULL(sim);
  mbdae_simulation_free(&sim); /* harmless */
}

static int toy_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  (void)model, (void)y, (void)g;
  return 0;
}

static void test_geometry_registration(void) {
  CU_ASSERT_EQUAL(mbdae_geometry_register("no_such_kind", toy_geometry), MBDAE_ERR_NOT_FOUND);
  CU_ASSERT_EQUAL(mbdae_geometry_register("toy", NULL), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_model_kind_register(&toy_kind, NULL, 0), MBDAE_OK);
  CU_ASSERT_PTR_NULL(mbdae_geometry_find("toy"));
  CU_ASSERT_EQUAL(mbdae_geometry_register("toy", toy_geometry), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_geometry_register("toy", toy_geometry), MBDAE_OK);
  CU_ASSERT_PTR_NOT_NULL(mbdae_geometry_find("toy"));
  /* a built-in kind keeps its own provider */
  CU_ASSERT_EQUAL(mbdae_geometry_register("pendulum", toy_geometry), MBDAE_ERR_ARGUMENT);
}

static void test_plugin_load_failures(void) {
  char err[512];
  CU_ASSERT_EQUAL(mbdae_plugin_load("/nonexistent/libnothing.so", err, sizeof err), MBDAE_ERR_IO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "/nonexistent/libnothing.so: cannot load"));
  /* a shared object without the entry point */
  CU_ASSERT_EQUAL(mbdae_plugin_load("libm.so.6", err, sizeof err), MBDAE_ERR_NOT_FOUND);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, MBDAE_PLUGIN_INIT_SYMBOL));
  CU_ASSERT_EQUAL(mbdae_plugin_load(NULL, err, sizeof err), MBDAE_ERR_ARGUMENT);
}

static void test_kinds_json(void) {
  CU_ASSERT_EQUAL(mbdae_model_kind_register(&toy_kind, NULL, 0), MBDAE_OK);
  char *js = mbdae_model_kinds_json();
  CU_ASSERT_PTR_NOT_NULL_FATAL(js);
  CU_ASSERT(json_valid(js));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "{\"name\": \"toy\", \"summary\": "));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "{\"name\": \"pendulum\""));
  /* required: no default; open lower bound; unbounded above: null */
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "{\"key\": \"k\", \"type\": \"double\", \"default\": null"));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"min\": 0, \"max\": null, \"min_open\": true"));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"choices\": [\"slow\", \"fast\", \"exact\"]"));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "\"solver\": ["));
  CU_ASSERT_PTR_NOT_NULL(strstr(js, "{\"key\": \"method\", \"type\": \"enum\""));
  mbdae_free(js);
  CU_ASSERT_PTR_NOT_NULL(mbdae_version());
  CU_ASSERT_PTR_NOT_NULL(strchr(mbdae_version(), '.'));
}

int main(void) {
  static const mbdae_test tests[] = {
    {"register refuses incomplete or clashing tables", test_register_refuses_bad_tables},
    {"register, count, at, find", test_register_and_find},
    {"a registered kind: schema checks, run, series kinds, events, summary",
     test_registered_kind_runs},
    {"geometry of a registered kind", test_geometry_registration},
    {"plug-in loading failures", test_plugin_load_failures},
    {"kinds and schemas as JSON", test_kinds_json},
    {NULL, NULL}};
  return mbdae_test_main("registry", tests);
}
