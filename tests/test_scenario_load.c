/* test_scenario_load.c - the scenario loader (driver/scenario.h) against a
 * test-only model kind: a good file round-trips into the parameter struct
 * and the solver options; every class of bad input is rejected with ONE line
 * naming FILE:LINE and the key; overrides go through the same checks; the
 * registered kinds' schemas are sane; mutated files never crash the loader. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "param_schema.h"
#include "scenario.h"
#include "solver_schema.h"
#include "sweep.h"
#include "testutil.h"
#include "toy_kind.h"

static char *data_path(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/scenario/%s", name);
  const char *p = mbdae_test_source_path(rel);
  size_t n = strlen(p) + 1;
  char *c = malloc(n);
  memcpy(c, p, n);
  return c;
}

static int load(const char *name, const char *const *sets, int n, mbdae_scenario *s, char *err,
                size_t errlen) {
  char *p = data_path(name);
  int rc = mbdae_scenario_load_registry(toy_registry, p, sets, n, s, err, errlen);
  free(p);
  return rc;
}

static void test_good_round_trip(void) {
  mbdae_scenario s;
  char err[1024];
  int rc = load("good.yaml", NULL, 0, &s, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  const toy_params *p = s.params;
  CU_ASSERT_PTR_EQUAL(s.kind, &toy_kind);
  CU_ASSERT_STRING_EQUAL(s.stem, "good");
  CU_ASSERT_STRING_EQUAL(s.description, "leaking tank, all keys");
  CU_ASSERT_EQUAL(p->k, 2.0);
  CU_ASSERT_EQUAL(p->e, 0.25);
  CU_ASSERT_EQUAL(p->y0, 1.0);       /* default */
  CU_ASSERT(isinf(p->fail_at));      /* default */
  CU_ASSERT_EQUAL(p->n, 7);
  CU_ASSERT_EQUAL(p->flag, 1);
  CU_ASSERT_EQUAL(p->mode, 2);       /* "exact" */
  CU_ASSERT_EQUAL(p->v[0], 1.0);
  CU_ASSERT_EQUAL(p->v[1], -2.5);
  CU_ASSERT_EQUAL(p->v[2], 3.0);
  CU_ASSERT_EQUAL_FATAL(p->ntab, 2);
  CU_ASSERT_EQUAL(p->tab[0], 0.0);
  CU_ASSERT_EQUAL(p->tab[1], 1.0);
  CU_ASSERT_EQUAL(p->tab[2], 2.0);
  CU_ASSERT_EQUAL(p->tab[3], 3.5);
  mbdae_options d;
  mbdae_options_default(&d);
  CU_ASSERT_EQUAL(s.options.method, MBDAE_METHOD_CVODE_BDF);
  CU_ASSERT_EQUAL(s.options.linsol, d.linsol);
  CU_ASSERT_EQUAL(s.options.t0, 0.0);
  CU_ASSERT_EQUAL(s.options.t_end, 2.5);
  CU_ASSERT_EQUAL(s.options.dt_out, 0.05);
  CU_ASSERT_EQUAL(s.options.rtol, 1e-9);
  CU_ASSERT_EQUAL(s.options.atol, 1e-12);
  CU_ASSERT_EQUAL(s.options.max_steps, 5000);
  CU_ASSERT_EQUAL(s.options.suppress_alg, 1);
  CU_ASSERT_EQUAL(s.options.window_events, 50);
  CU_ASSERT_EQUAL(s.options.window_length, 1e-6);
  CU_ASSERT_EQUAL(s.options.rk4_step, d.rk4_step);
  CU_ASSERT_EQUAL(s.options.root_band, d.root_band);
  CU_ASSERT_EQUAL(s.options.consistency_tol, d.consistency_tol);
  CU_ASSERT_PTR_NULL(s.options.observer);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s.out_dir);
  CU_ASSERT_STRING_EQUAL(s.out_dir, "out/somewhere");
  CU_ASSERT_EQUAL(s.plots, 0);
  CU_ASSERT_EQUAL(s.every, 3);
  mbdae_scenario_free(&s);
  CU_ASSERT_PTR_NULL(s.params);
  mbdae_scenario_free(&s); /* twice is harmless */
}

static void test_defaults(void) {
  mbdae_scenario s;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(load("minimal.yaml", NULL, 0, &s, err, sizeof err), MBDAE_OK);
  const toy_params *p = s.params;
  CU_ASSERT_EQUAL(p->k, 1.0);
  CU_ASSERT_EQUAL(p->e, 0.5);
  CU_ASSERT_EQUAL(p->n, 3);
  CU_ASSERT_EQUAL(p->flag, 0);
  CU_ASSERT_EQUAL(p->mode, 1);
  for (int i = 0; i < 3; ++i) CU_ASSERT_EQUAL(p->v[i], 0.25);
  CU_ASSERT_PTR_NULL(p->tab);
  CU_ASSERT_EQUAL(p->ntab, 0);
  mbdae_options d;
  mbdae_options_default(&d);
  CU_ASSERT_EQUAL(s.options.method, d.method);
  CU_ASSERT_EQUAL(s.options.t_end, d.t_end);
  CU_ASSERT_EQUAL(s.options.rtol, d.rtol);
  CU_ASSERT_EQUAL(s.options.max_steps, d.max_steps);
  CU_ASSERT_EQUAL(s.options.window_events, d.window_events);
  CU_ASSERT_PTR_NULL(s.out_dir);
  CU_ASSERT_EQUAL(s.plots, 1);
  CU_ASSERT_EQUAL(s.every, 1);
  CU_ASSERT_STRING_EQUAL(s.description, "");
  mbdae_scenario_free(&s);
}

typedef struct bad_case {
  const char *file;
  int line;
  const char *key;  /* NULL: a message without a key */
  const char *why;  /* substring of the reason */
} bad_case;

static const bad_case bad_cases[] = {
  {"bad_syntax.yaml", 0, NULL, "YAML syntax error"},
  {"bad_unknown_top.yaml", 2, "paramters", "unknown key"},
  {"bad_unknown_param.yaml", 4, "parameters.q", "unknown key for model 'toy'"},
  {"bad_unknown_solver.yaml", 4, "solver.rtoll", "unknown key (expected one of: method"},
  {"bad_type_double.yaml", 4, "parameters.e", "expected a number, got 'abc'"},
  {"bad_type_quoted.yaml", 4, "parameters.e", "expected a number, got a quoted string"},
  {"bad_type_mapping.yaml", 3, "parameters.k", "expected a number, got a mapping"},
  {"bad_int.yaml", 4, "parameters.n", "expected an integer, got '2.5'"},
  {"bad_bool.yaml", 4, "parameters.flag", "expected true or false, got 'yes'"},
  {"bad_enum.yaml", 4, "parameters.mode", "expected one of slow|fast|exact, got 'medium'"},
  {"bad_range.yaml", 4, "parameters.e", "must be in [0, 1] (got 1.5)"},
  {"bad_open_bound.yaml", 3, "parameters.k", "must be in (0, inf) (got 0)"},
  {"bad_nan.yaml", 4, "parameters.e", "must be a finite number"},
  {"bad_inf.yaml", 4, "parameters.y0", "must be a finite number"},
  {"bad_overflow.yaml", 4, "parameters.y0", "overflows a double"},
  {"bad_vec_len.yaml", 4, "parameters.v", "expected a sequence of 3 numbers, got 2"},
  {"bad_vec_elem.yaml", 7, "parameters.v[2]", "must be in [-10, 10] (got 11)"},
  {"bad_table_row.yaml", 6, "parameters.tab[1]", "expected a sequence of 2 numbers, got 3"},
  {"bad_table_elem.yaml", 6, "parameters.tab[1][0]", "must be a finite number"},
  {"bad_missing_required.yaml", 3, "parameters.k", "missing required key"},
  {"bad_missing_model.yaml", 1, "model", "missing required key"},
  {"bad_unknown_model.yaml", 2, "model", "unknown model kind 'tory' (known: toy)"},
  {"bad_check.yaml", 5, "parameters.n", "must be <= 10 when flag is set (got 50)"},
  {"bad_check_subkey.yaml", 6, "parameters.tab[1]", "row must have lo <= hi"},
  {"bad_solver_enum.yaml", 3, "solver.method", "expected one of ida|cvode-bdf|cvode-adams|rk4"},
  {"bad_t_end.yaml", 4, "solver.t_end", "must be greater than t0"},
  {"bad_output_every.yaml", 5, "output.every", "must be in [1, "},
  {"bad_empty_value.yaml", 4, "parameters.e", "missing value"},
  {"bad_alias.yaml", 4, "parameters.e", "aliases"},
  {"bad_root_sequence.yaml", 1, NULL, "a scenario is a mapping"},
  {"bad_empty.yaml", 1, NULL, "empty scenario"},
  {"bad_two_documents.yaml", 5, NULL, "one YAML document"},
  {"bad_duplicate.yaml", 4, NULL, "duplicate key"},
  {"bad_section_type.yaml", 2, "solver", "expected a mapping of keys, got a scalar"},
  {"bad_tab_indent.yaml", 3, NULL, "YAML syntax error"},
  {"bad_int_overflow.yaml", 4, "parameters.n", "must be in [-2147483648, 2147483647]"},
  {"bad_tag.yaml", 3, "parameters.k", "tags"},
  {NULL, 0, NULL, NULL}};

static void test_bad_files(void) {
  for (const bad_case *c = bad_cases; c->file; ++c) {
    mbdae_scenario s;
    char err[1024], want[512];
    char *path = data_path(c->file);
    int rc = mbdae_scenario_load_registry(toy_registry, path, NULL, 0, &s, err, sizeof err);
    int ok = rc == MBDAE_ERR_SCENARIO && s.params == NULL && s.kind == NULL &&
             strchr(err, '\n') == NULL && strstr(err, c->why) != NULL;
    if (c->line > 0 && c->key)
      snprintf(want, sizeof want, "%s:%d: key '%s': ", path, c->line, c->key);
    else if (c->line > 0)
      snprintf(want, sizeof want, "%s:%d: ", path, c->line);
    else
      snprintf(want, sizeof want, "%s:", path);
    ok = ok && strncmp(err, want, strlen(want)) == 0;
    if (!ok) printf("\n  %s: rc %d, got \"%s\", want \"%s...%s\"\n", c->file, rc, err, want, c->why);
    CU_ASSERT(ok);
    free(path);
    mbdae_scenario_free(&s);
  }
}

static void test_syntax_error_line(void) {
  /* the unclosed flow sequence of line 3 is reported at or after line 3 */
  mbdae_scenario s;
  char err[1024];
  char *path = data_path("bad_syntax.yaml");
  CU_ASSERT_EQUAL(mbdae_scenario_load_registry(toy_registry, path, NULL, 0, &s, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  int line = 0;
  const char *colon = err + strlen(path);
  CU_ASSERT(sscanf(colon, ":%d:", &line) == 1);
  CU_ASSERT(line >= 3 && line <= 5);
  free(path);
}

static void test_missing_file(void) {
  mbdae_scenario s;
  char err[1024];
  int rc = mbdae_scenario_load_registry(toy_registry, "/nonexistent/dir/x.yaml", NULL, 0, &s, err,
                                        sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_IO);
  CU_ASSERT(strstr(err, "/nonexistent/dir/x.yaml: cannot open") == err);
  rc = mbdae_scenario_load_registry(toy_registry, mbdae_test_source_path("tests/data"), NULL, 0,
                                    &s, err, sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_IO);
  CU_ASSERT(strstr(err, "is a directory") != NULL);
}

static void test_overrides(void) {
  const char *sets[] = {"parameters.e=0.75", "solver.t_end=3", "solver.method=rk4",
                        "parameters.v=[1, 2, 3]", "parameters.tab=[[1, 2], [3, 4], [5, 6]]",
                        "output.every=2", "output.dir=x/y z", "description=hello: world",
                        "parameters.flag=true", "output.plots=false"};
  mbdae_scenario s;
  char err[1024];
  int rc = load("good.yaml", sets, 10, &s, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  const toy_params *p = s.params;
  CU_ASSERT_EQUAL(p->e, 0.75);
  CU_ASSERT_EQUAL(p->k, 2.0); /* from the file */
  CU_ASSERT_EQUAL(s.options.t_end, 3.0);
  CU_ASSERT_EQUAL(s.options.method, MBDAE_METHOD_RK4);
  CU_ASSERT_EQUAL(p->v[2], 3.0);
  CU_ASSERT_EQUAL_FATAL(p->ntab, 3);
  CU_ASSERT_EQUAL(p->tab[5], 6.0);
  CU_ASSERT_EQUAL(s.every, 2);
  CU_ASSERT_EQUAL(s.plots, 0);
  CU_ASSERT_STRING_EQUAL(s.out_dir, "x/y z");
  CU_ASSERT_STRING_EQUAL(s.description, "hello: world");
  mbdae_scenario_free(&s);

  /* one element of a vec or a table */
  const char *elems[] = {"parameters.v[1]=7", "parameters.tab[1][0]=2.5"};
  CU_ASSERT_EQUAL_FATAL(load("good.yaml", elems, 2, &s, err, sizeof err), MBDAE_OK);
  p = s.params;
  CU_ASSERT_EQUAL(p->v[0], 1.0);
  CU_ASSERT_EQUAL(p->v[1], 7.0);
  CU_ASSERT_EQUAL(p->tab[2], 2.5);
  CU_ASSERT_EQUAL(p->tab[3], 3.5);
  mbdae_scenario_free(&s);

  /* an override can supply a required key */
  const char *k[] = {"parameters.k=4"};
  CU_ASSERT_EQUAL_FATAL(load("bad_missing_required.yaml", k, 1, &s, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->k, 4.0);
  mbdae_scenario_free(&s);
}

typedef struct bad_set {
  const char *set;
  const char *key; /* NULL: no key in the message */
  const char *why;
} bad_set;

static void test_override_errors(void) {
  static const bad_set cases[] = {
    {"parameters.e=2", "parameters.e", "must be in [0, 1] (got 2)"},
    {"parameters.e=.nan", "parameters.e", "must be a finite number"},
    {"parameters.e=1e999", "parameters.e", "overflows"},
    {"parameters.e=", "parameters.e", "missing value"},
    {"parameters.e=abc", "parameters.e", "expected a number"},
    {"parameters.e=[1", "parameters.e", "cannot read the value"},
    {"parameters.zz=1", "parameters.zz", "unknown key for model 'toy'"},
    {"parameters.v=[1, 2]", "parameters.v", "expected a sequence of 3 numbers, got 2"},
    {"parameters.tab=[[1, 2], [3]]", "parameters.tab[1]", "expected a sequence of 2 numbers"},
    {"solver.rtol=abc", "solver.rtol", "expected a number"},
    {"solver.method=euler", "solver.method", "expected one of"},
    {"solver.t_end=-1", "solver.t_end", "must be greater than t0"},
    {"output.every=0", "output.every", "must be in [1, "},
    {"output.color=red", "output.color", "unknown key in section 'output'"},
    {"model=bouncing_ball", "model", "cannot be overridden"},
    {"foo.bar=1", "foo.bar", "unknown key"},
    {"parameters=1", "parameters", "name a key inside the section"},
    {"parameters.v[3]=1", "parameters.v[3]", "index out of range (v has 3 elements)"},
    {"parameters.v[1]=11", "parameters.v[1]", "must be in [-10, 10] (got 11)"},
    {"parameters.v[1]=.inf", "parameters.v[1]", "must be a finite number"},
    {"parameters.v[x]=1", "parameters.v[x]", "bad element index"},
    {"parameters.e[0]=1", "parameters.e[0]", "only a vec element"},
    {"parameters.tab[0][0]=1", "parameters.tab[0][0]", "index out of range (tab has 0 rows of 2)"},
    {"parameters.flag=true", NULL, NULL}, /* fine alone ... */
    {NULL, NULL, NULL}};
  char *path = data_path("minimal.yaml");
  for (const bad_set *c = cases; c->set; ++c) {
    if (!c->why) continue;
    mbdae_scenario s;
    char err[1024], want[512];
    const char *sets[] = {c->set};
    int rc = mbdae_scenario_load_registry(toy_registry, path, sets, 1, &s, err, sizeof err);
    snprintf(want, sizeof want, "%s: --set %s: key '%s': ", path, c->set, c->key);
    int ok = rc == MBDAE_ERR_SCENARIO && strncmp(err, want, strlen(want)) == 0 &&
             strstr(err, c->why) != NULL && !strchr(err, '\n');
    if (!ok) printf("\n  --set %s: rc %d, got \"%s\", want \"%s...%s\"\n", c->set, rc, err, want,
                    c->why);
    CU_ASSERT(ok);
  }
  /* no '=' at all */
  mbdae_scenario s;
  char err[1024];
  const char *noeq[] = {"parameters.e"};
  CU_ASSERT_EQUAL(mbdae_scenario_load_registry(toy_registry, path, noeq, 1, &s, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  CU_ASSERT(strstr(err, "expected KEY=VALUE") != NULL);
  /* ... the cross-field check then names the override that broke it */
  const char *both[] = {"parameters.flag=true", "parameters.n=50"};
  CU_ASSERT_EQUAL(mbdae_scenario_load_registry(toy_registry, path, both, 2, &s, err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  char want[512];
  snprintf(want, sizeof want, "%s: --set parameters.n=50: key 'parameters.n': must be <= 10", path);
  CU_ASSERT(strncmp(err, want, strlen(want)) == 0);
  free(path);
}

static void test_override_api_atomic_and_copy(void) {
  mbdae_scenario s, c;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(load("good.yaml", NULL, 0, &s, err, sizeof err), MBDAE_OK);
  const char *bad[] = {"parameters.e=0.1", "parameters.e=7"};
  CU_ASSERT_EQUAL(mbdae_scenario_override(&s, bad, 2, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->e, 0.25); /* unchanged */
  const char *good[] = {"parameters.e=0.1", "parameters.tab=[[7, 8]]"};
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_override(&s, good, 2, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->e, 0.1);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->ntab, 1);
  /* a copy is deep: it outlives the original and owns its own table */
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_copy(&c, &s), MBDAE_OK);
  CU_ASSERT_PTR_NOT_EQUAL(((const toy_params *)c.params)->tab, ((const toy_params *)s.params)->tab);
  mbdae_scenario_free(&s);
  const toy_params *p = c.params;
  CU_ASSERT_EQUAL(p->e, 0.1);
  CU_ASSERT_EQUAL_FATAL(p->ntab, 1);
  CU_ASSERT_EQUAL(p->tab[0], 7.0);
  CU_ASSERT_EQUAL(p->tab[1], 8.0);
  CU_ASSERT_STRING_EQUAL(c.out_dir, "out/somewhere");
  /* a later check error on an overridden table row still finds its origin */
  const char *rows[] = {"parameters.tab=[[0, 1], [3, 2]]"};
  CU_ASSERT_EQUAL(mbdae_scenario_override(&c, rows, 1, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(strstr(err, ": --set parameters.tab=[[0, 1], [3, 2]]: key 'parameters.tab[1]': row") !=
            NULL);
  /* ... and so does one set by an element override */
  const char *cell[] = {"parameters.tab[0][0]=9"};
  CU_ASSERT_EQUAL(mbdae_scenario_override(&c, cell, 1, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT(strstr(err, ": --set parameters.tab[0][0]=9: key 'parameters.tab[0]': row") != NULL);
  mbdae_scenario_free(&c);
}

static void test_load_string(void) {
  mbdae_scenario s;
  char err[1024];
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load_string(toy_registry, "inline.yaml",
                                                   "model: toy\nparameters: {k: 3, e: 0}\n", NULL,
                                                   0, &s, err, sizeof err),
                        MBDAE_OK);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->k, 3.0);
  CU_ASSERT_EQUAL(((const toy_params *)s.params)->e, 0.0);
  CU_ASSERT_STRING_EQUAL(s.stem, "inline");
  mbdae_scenario_free(&s);
  CU_ASSERT_EQUAL(mbdae_scenario_load_string(toy_registry, "inline.yaml",
                                             "model: toy\nparameters:\n  k: -3\n", NULL, 0, &s,
                                             err, sizeof err),
                  MBDAE_ERR_SCENARIO);
  CU_ASSERT_STRING_EQUAL(err, "inline.yaml:3: key 'parameters.k': must be in (0, inf) (got -3)");
}

static void test_full_key(void) {
  char k[128];
  mbdae_scenario_full_key(&toy_kind, "e", "parameters", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "parameters.e");
  mbdae_scenario_full_key(&toy_kind, "tab[2]", "parameters", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "parameters.tab[2]");
  mbdae_scenario_full_key(&toy_kind, "method", "parameters", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "solver.method"); /* not a toy parameter */
  mbdae_scenario_full_key(&toy_kind, "solver.rtol", "parameters", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "solver.rtol");
  mbdae_scenario_full_key(&toy_kind, "model", "parameters", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "model");
  mbdae_scenario_full_key(&toy_kind, NULL, "solver", k, sizeof k);
  CU_ASSERT_STRING_EQUAL(k, "solver");
}

/* Every registered model kind's schema must be loadable. */
static void test_registered_schemas(void) {
  for (int i = 0; mbdae_model_kinds[i]; ++i) {
    const mbdae_model_kind *k = mbdae_model_kinds[i];
    CU_ASSERT_PTR_NOT_NULL(k->name);
    CU_ASSERT_PTR_NOT_NULL(k->create);
    CU_ASSERT_PTR_NOT_NULL(k->destroy);
    CU_ASSERT_PTR_NOT_NULL(k->problem);
    CU_ASSERT_PTR_NOT_NULL(k->initial_state);
    CU_ASSERT_PTR_NOT_NULL(k->columns);
    CU_ASSERT_PTR_NOT_NULL(k->output_row);
    CU_ASSERT(k->nplots == 0 || k->plots != NULL);
    for (int j = 0; j < k->nparams; ++j) {
      const mbdae_param_spec *s = &k->params[j];
      int ok = s->key && *s->key && s->doc;
      for (int m = 0; m < j && ok; ++m) ok = strcmp(k->params[m].key, s->key) != 0;
      size_t size = s->type == MBDAE_PARAM_DOUBLE ? sizeof(double)
                  : s->type == MBDAE_PARAM_VEC ? (size_t)(s->len > 0 ? s->len : 0) * sizeof(double)
                  : s->type == MBDAE_PARAM_TABLE ? sizeof(double *) : sizeof(int);
      ok = ok && s->offset + size <= k->params_size;
      if (s->type == MBDAE_PARAM_VEC || s->type == MBDAE_PARAM_TABLE) ok = ok && s->len > 0;
      if (s->type == MBDAE_PARAM_TABLE) ok = ok && s->count_offset + sizeof(int) <= k->params_size;
      if (s->type == MBDAE_PARAM_ENUM) {
        int nc = 0;
        while (s->choices && s->choices[nc]) ++nc;
        ok = ok && nc > 0 && (int)s->def >= 0 && (int)s->def < nc;
      }
      if (!(s->flags & MBDAE_PARAM_REQUIRED) &&
          (s->type == MBDAE_PARAM_DOUBLE || s->type == MBDAE_PARAM_INT ||
           s->type == MBDAE_PARAM_VEC)) {
        char why[200];
        ok = ok && mbdae_param_check_bounds(s, s->def, why, sizeof why) == MBDAE_OK;
      }
      if (!ok) printf("\n  kind %s: bad schema entry '%s'\n", k->name, s->key ? s->key : "(null)");
      CU_ASSERT(ok);
    }
  }
}

/* Truncations and byte mutations of a good file: the loader returns a
 * status and a one-line message, never crashes (ASan build checks leaks). */
static void test_mutations_never_crash(void) {
  char *path = data_path("good.yaml");
  FILE *f = fopen(path, "rb");
  free(path);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  char text[4096];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  char buf[4096], err[1024];
  long accepted = 0, rejected = 0;
  for (size_t cut = 0; cut <= n; ++cut) {
    memcpy(buf, text, cut);
    buf[cut] = '\0';
    mbdae_scenario s;
    int rc = mbdae_scenario_load_string(toy_registry, "cut.yaml", buf, NULL, 0, &s, err, sizeof err);
    if (rc == MBDAE_OK) ++accepted;
    else {
      ++rejected;
      CU_ASSERT(rc == MBDAE_ERR_SCENARIO && err[0] && !strchr(err, '\n'));
    }
    mbdae_scenario_free(&s);
  }
  static const char subst[] = "-:[]{}#&*!|>'\"%@`,?\t\n 0x.e";
  unsigned long seed = 12345;
  for (int it = 0; it < 3000; ++it) {
    memcpy(buf, text, n + 1);
    for (int m = 0; m < 3; ++m) {
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      size_t pos = (size_t)(seed >> 33) % n;
      seed = seed * 6364136223846793005UL + 1442695040888963407UL;
      buf[pos] = subst[(seed >> 33) % (sizeof subst - 1)];
    }
    mbdae_scenario s;
    int rc = mbdae_scenario_load_string(toy_registry, "mut.yaml", buf, NULL, 0, &s, err, sizeof err);
    if (rc == MBDAE_OK) ++accepted;
    else {
      ++rejected;
      CU_ASSERT(rc == MBDAE_ERR_SCENARIO && err[0] && !strchr(err, '\n'));
    }
    mbdae_scenario_free(&s);
  }
  CU_ASSERT(accepted > 0 && rejected > 0);
}

/* Regression (found by tests/fuzz/fuzz_scenario): the YAML library used
 * before libyaml looped forever on a malformed UTF-8 byte in a directive
 * line ("%\x93"). The
 * loader rejects any input that is not UTF-8 text (or holds a NUL) first,
 * from a string, a file and a --set value, naming the line. */
static void test_malformed_utf8_rejected(void) {
  static const char *const texts[] = {
    "%\x93\n", "model: toy\n%a\xc3\n", "model: toy\nparameters:\n  k: 1\n%\xff x\n",
    "model: toy\ndescription: \"\xed\xa0\x80\"\n", "model: toy\n# \xc0\xaf overlong\n"};
  static const int lines[] = {1, 2, 4, 2, 2};
  char err[1024];
  for (int i = 0; i < 5; ++i) {
    mbdae_scenario s;
    int rc = mbdae_scenario_load_string(toy_registry, "u.yaml", texts[i], NULL, 0, &s, err,
                                        sizeof err);
    CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
    char want[64];
    snprintf(want, sizeof want, "u.yaml:%d: not UTF-8 text", lines[i]);
    if (!strstr(err, want)) printf("\n  %s (expected %s)\n", err, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, want));
    mbdae_scenario_free(&s);
  }
  /* well-formed multi-byte text is fine */
  mbdae_scenario s;
  int rc = mbdae_scenario_load_string(toy_registry, "u.yaml",
                                      "model: toy\ndescription: \"\xc3\xa9 \xe2\x82\xac "
                                      "\xf0\x9f\x98\x80\"\nparameters:\n  k: 1\n",
                                      NULL, 0, &s, err, sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  mbdae_scenario_free(&s);
  /* a file, with a NUL byte on line 3 and with the hanging directive */
  const char *dir = mbdae_test_tmpdir("scenario-utf8");
  static const char nul_text[] = "model: toy\nparameters:\n  k: 1\0\n";
  static const char dir_text[] = "model: toy\n%\x93\n";
  const char *bodies[] = {nul_text, dir_text};
  const size_t sizes[] = {sizeof nul_text - 1, sizeof dir_text - 1};
  const char *wants[] = {"bad.yaml:3: not UTF-8 text (NUL byte 0x00 at column 7)",
                         "bad.yaml:2: not UTF-8 text (malformed byte 0x93 at column 2)"};
  for (int i = 0; i < 2; ++i) {
    char path[4200];
    snprintf(path, sizeof path, "%s/bad.yaml", dir);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(bodies[i], 1, sizes[i], f);
    fclose(f);
    rc = mbdae_scenario_load_registry(toy_registry, path, NULL, 0, &s, err, sizeof err);
    CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
    if (!strstr(err, wants[i])) printf("\n  %s (expected %s)\n", err, wants[i]);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, wants[i]));
    mbdae_scenario_free(&s);
  }
  /* a --set value goes through the same YAML reader */
  const char *set[] = {"parameters.mode=%\x93"};
  rc = mbdae_scenario_load_string(toy_registry, "u.yaml", "model: toy\nparameters:\n  k: 1\n",
                                  set, 1, &s, err, sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "not UTF-8 text"));
  mbdae_scenario_free(&s);
  /* the study loader (mbdae sweep) reads its file the same way */
  char path[4200];
  snprintf(path, sizeof path, "%s/study.yaml", dir);
  FILE *f = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  fputs("study: s\n%\x93\n", f);
  fclose(f);
  mbdae_sweep_study st;
  rc = mbdae_sweep_study_load(path, &st, err, sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "study.yaml:2: not UTF-8 text"));
}

int main(void) {
  static const mbdae_test tests[] = {
    {"good file round-trips into the param struct", test_good_round_trip},
    {"defaults", test_defaults},
    {"every bad-input class: FILE:LINE key why", test_bad_files},
    {"syntax error line", test_syntax_error_line},
    {"missing file", test_missing_file},
    {"overrides", test_overrides},
    {"override errors", test_override_errors},
    {"override API is atomic, copy is deep", test_override_api_atomic_and_copy},
    {"load from a string", test_load_string},
    {"model error keys to scenario keys", test_full_key},
    {"registered kinds' schemas", test_registered_schemas},
    {"mutated files never crash", test_mutations_never_crash},
    {"malformed UTF-8 is rejected, never hangs", test_malformed_utf8_rejected},
    {NULL, NULL}};
  return mbdae_test_main("scenario_load", tests);
}
