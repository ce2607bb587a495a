/* param_schema.h - fill a parameter struct from YAML nodes following a
 * schema (mbdae_param_spec[], include/mbdae/model.h): types, bounds,
 * finiteness, defaults, TABLE ownership. Used for a model's `parameters:`
 * and for the driver's own `solver:` and `output:` sections. */
#ifndef MBDAE_DRIVER_PARAM_SCHEMA_H
#define MBDAE_DRIVER_PARAM_SCHEMA_H

#include <stddef.h>

#include "key_lines.h"
#include "mbdae/model.h"

#include "yaml_tree.h"

/* Where a rejected value was and why. */
typedef struct mbdae_fill_error {
  char key[192];   /* full dotted key: "parameters.v[2]" */
  int line;        /* 1-based, 0 if not from the file */
  char why[320];
} mbdae_fill_error;

/* Defaults of every entry: scalars and VEC elements get def, TABLEs NULL/0. */
void mbdae_params_set_defaults(const mbdae_param_spec *specs, int n, void *base);

/* The spec named key, or NULL. */
const mbdae_param_spec *mbdae_params_find(const mbdae_param_spec *specs, int n,
                                          const char *key);

/* Convert `value` (the node given for spec) and store it at spec->offset.
 * fullkey names it in messages; key_line is the line of its key (used when
 * the value has no position). Element lines of VEC/TABLE values are added
 * to lines (may be NULL) as "fullkey[i]". On failure nothing is stored. */
int mbdae_param_set_node(const mbdae_param_spec *spec, const mbdae_ynode *value,
                         const char *fullkey, int key_line, void *base,
                         mbdae_key_lines *lines, mbdae_fill_error *err);

/* Bounds of spec for the number v: 0 or MBDAE_ERR_SCENARIO with why. */
int mbdae_param_check_bounds(const mbdae_param_spec *spec, double v, char *why,
                             size_t whylen);

/* Deep copy (TABLE arrays duplicated) / release of TABLE arrays. */
int mbdae_params_copy(const mbdae_param_spec *specs, int n, size_t size,
                      void *dst, const void *src);
void mbdae_params_free_tables(const mbdae_param_spec *specs, int n, void *base);

/* "double", "int", "bool", "enum", "vec[3]", "table[*x2]". */
void mbdae_param_type_text(const mbdae_param_spec *spec, char *buf, size_t len);
/* "(0, inf)", "[0, 1]", "ida|cvode-bdf|...", "-" */
void mbdae_param_range_text(const mbdae_param_spec *spec, char *buf, size_t len);
/* The default as text: "0.5", "true", "ida", "[0, 0, 0]", "required", "none". */
void mbdae_param_default_text(const mbdae_param_spec *spec, char *buf, size_t len);

#endif
