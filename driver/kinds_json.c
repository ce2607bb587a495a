/* kinds_json.c - the model kinds and their parameter schemas, and the
 * solver: and output: keys, as JSON (mbdae_model_kinds_json): what `mbdae
 * list --params` prints, for programs (the Python package). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_format.h"
#include "mbdae/model.h"
#include "mbdae/simulation.h"
#include "param_schema.h"
#include "solver_schema.h"

static const char *type_word(mbdae_param_type t) {
  static const char *const w[] = {"double", "int", "bool", "enum", "vec", "table"};
  return (int)t >= 0 && (int)t < 6 ? w[t] : "?";
}

static void key(FILE *f, const char *k) {
  mbdae_json_string(f, k);
  fputs(": ", f);
}

static void spec_json(FILE *f, const mbdae_param_spec *p) {
  fputs("{", f);
  key(f, "key");
  mbdae_json_string(f, p->key);
  fputs(", ", f);
  key(f, "type");
  mbdae_json_string(f, type_word(p->type));
  char text[160];
  mbdae_param_default_text(p, text, sizeof text);
  fputs(", ", f);
  key(f, "default");
  if (p->flags & MBDAE_PARAM_REQUIRED) fputs("null", f);
  else if (p->type == MBDAE_PARAM_ENUM || p->type == MBDAE_PARAM_BOOL ||
           p->type == MBDAE_PARAM_TABLE)
    mbdae_json_string(f, text); /* "ida", "true", "none" */
  else mbdae_json_number(f, p->def);
  fputs(", ", f);
  key(f, "default_text");
  mbdae_json_string(f, text);
  /* bounds: JSON has no infinity: null stands for none */
  fputs(", ", f);
  key(f, "min");
  mbdae_json_number(f, p->min);
  fputs(", ", f);
  key(f, "max");
  mbdae_json_number(f, p->max);
  fprintf(f, ", \"min_open\": %s, \"max_open\": %s, \"required\": %s",
          p->flags & MBDAE_PARAM_MIN_OPEN ? "true" : "false",
          p->flags & MBDAE_PARAM_MAX_OPEN ? "true" : "false",
          p->flags & MBDAE_PARAM_REQUIRED ? "true" : "false");
  fprintf(f, ", \"len\": %d", p->type == MBDAE_PARAM_VEC || p->type == MBDAE_PARAM_TABLE ? p->len : 1);
  fputs(", ", f);
  key(f, "choices");
  fputs("[", f);
  for (int j = 0; p->type == MBDAE_PARAM_ENUM && p->choices && p->choices[j]; ++j) {
    if (j) fputs(", ", f);
    mbdae_json_string(f, p->choices[j]);
  }
  fputs("], ", f);
  key(f, "unit");
  mbdae_json_string(f, p->unit ? p->unit : "");
  fputs(", ", f);
  key(f, "doc");
  mbdae_json_string(f, p->doc ? p->doc : "");
  fputs("}", f);
}

static void specs_json(FILE *f, const mbdae_param_spec *specs, int n, int solver) {
  fputs("[", f);
  for (int i = 0; i < n; ++i) {
    mbdae_param_spec s = solver ? mbdae_solver_spec_with_default(&specs[i]) : specs[i];
    fputs(i ? ",\n      " : "\n      ", f);
    spec_json(f, &s);
  }
  fputs("]", f);
}

char *mbdae_model_kinds_json(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  fputs("{\n  \"models\": [", f);
  for (int i = 0; i < mbdae_model_kind_count(); ++i) {
    const mbdae_model_kind *k = mbdae_model_kind_at(i);
    fputs(i ? ",\n    {" : "\n    {", f);
    key(f, "name");
    mbdae_json_string(f, k->name);
    fputs(", ", f);
    key(f, "summary");
    mbdae_json_string(f, k->summary ? k->summary : "");
    fputs(", ", f);
    key(f, "parameters");
    specs_json(f, k->params, k->nparams, 0);
    fputs("}", f);
  }
  fputs("],\n  \"solver\": ", f);
  specs_json(f, mbdae_solver_specs, mbdae_solver_nspecs, 1);
  fputs(",\n  \"output\": ", f);
  specs_json(f, mbdae_output_specs, mbdae_output_nspecs, 0);
  fputs("\n}\n", f);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) {
    free(buf);
    return NULL;
  }
  return buf;
}
