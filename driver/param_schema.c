/* param_schema.c - schema-driven conversion of YAML values into a model's
 * (or the driver's) parameter struct, with bounds and finiteness checks. */
#include "param_schema.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "yaml_value.h"

static void *at(void *base, size_t off) { return (char *)base + off; }

void mbdae_params_set_defaults(const mbdae_param_spec *specs, int n, void *base) {
  for (int i = 0; i < n; ++i) {
    const mbdae_param_spec *s = &specs[i];
    switch (s->type) {
    case MBDAE_PARAM_DOUBLE: *(double *)at(base, s->offset) = s->def; break;
    case MBDAE_PARAM_INT:
    case MBDAE_PARAM_BOOL:
    case MBDAE_PARAM_ENUM: *(int *)at(base, s->offset) = (int)s->def; break;
    case MBDAE_PARAM_VEC:
      for (int k = 0; k < s->len; ++k) ((double *)at(base, s->offset))[k] = s->def;
      break;
    case MBDAE_PARAM_TABLE:
      *(double **)at(base, s->offset) = NULL;
      *(int *)at(base, s->count_offset) = 0;
      break;
    }
  }
}

const mbdae_param_spec *mbdae_params_find(const mbdae_param_spec *specs, int n,
                                          const char *key) {
  for (int i = 0; i < n; ++i)
    if (strcmp(specs[i].key, key) == 0) return &specs[i];
  return NULL;
}

static void fmt_num(char *buf, size_t len, double v) {
  if (isinf(v)) snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
  else snprintf(buf, len, "%.10g", v);
}

int mbdae_param_check_bounds(const mbdae_param_spec *s, double v, char *why,
                             size_t whylen) {
  int lo_open = (s->flags & MBDAE_PARAM_MIN_OPEN) != 0;
  int hi_open = (s->flags & MBDAE_PARAM_MAX_OPEN) != 0;
  int ok_lo = lo_open ? v > s->min : v >= s->min;
  int ok_hi = hi_open ? v < s->max : v <= s->max;
  if (ok_lo && ok_hi) return MBDAE_OK;
  char range[96], got[40];
  mbdae_param_range_text(s, range, sizeof range);
  fmt_num(got, sizeof got, v);
  if (why && whylen) snprintf(why, whylen, "must be in %s (got %s)", range, got);
  return MBDAE_ERR_SCENARIO;
}

static int set_err(mbdae_fill_error *err, const char *key, int line,
                   const char *why) {
  if (err) {
    /* both texts are cut to the fields on purpose */
    snprintf(err->key, sizeof err->key, "%.*s", (int)sizeof err->key - 1, key);
    err->line = line;
    snprintf(err->why, sizeof err->why, "%.*s", (int)sizeof err->why - 1, why);
  }
  return MBDAE_ERR_SCENARIO;
}

/* A bounded finite number from n. */
static int read_number(const mbdae_param_spec *s, const mbdae_ynode *n,
                       const char *key, int line, double *v,
                       mbdae_fill_error *err) {
  char why[320];
  int rc = mbdae_yaml_number(n, v, why, sizeof why);
  if (!rc) rc = mbdae_param_check_bounds(s, *v, why, sizeof why);
  return rc ? set_err(err, key, mbdae_yaml_line(n, line), why) : MBDAE_OK;
}

/* A sequence of exactly len numbers into out[]. */
static int read_row(const mbdae_param_spec *s, const mbdae_ynode *n,
                    const char *key, int line, double *out,
                    mbdae_fill_error *err) {
  char why[320];
  int rc = mbdae_yaml_check_plain(n, why, sizeof why);
  if (rc) return set_err(err, key, line, why);
  if (n->kind != MBDAE_YNODE_SEQUENCE) {
    snprintf(why, sizeof why, "expected a sequence of %d numbers, got %s",
             s->len, mbdae_yaml_what(n));
    return set_err(err, key, mbdae_yaml_line(n, line), why);
  }
  int count = n->n > (size_t)INT_MAX ? INT_MAX : (int)n->n;
  if (count != s->len) {
    snprintf(why, sizeof why, "expected a sequence of %d numbers, got %d", s->len, count);
    return set_err(err, key, mbdae_yaml_line(n, line), why);
  }
  char sub[224];
  for (int k = 0; k < s->len; ++k) {
    snprintf(sub, sizeof sub, "%s[%d]", key, k);
    if ((rc = read_number(s, n->items[k], sub, mbdae_yaml_line(n, line), &out[k], err)))
      return rc;
  }
  return MBDAE_OK;
}

int mbdae_param_set_node(const mbdae_param_spec *s, const mbdae_ynode *n,
                         const char *key, int key_line, void *base,
                         mbdae_key_lines *lines, mbdae_fill_error *err) {
  char why[320];
  int line = mbdae_yaml_line(n, key_line);
  int rc;
  switch (s->type) {
  case MBDAE_PARAM_DOUBLE: {
    double v;
    if ((rc = read_number(s, n, key, key_line, &v, err))) return rc;
    *(double *)at(base, s->offset) = v;
    return MBDAE_OK;
  }
  case MBDAE_PARAM_INT: {
    long v;
    if ((rc = mbdae_yaml_integer(n, INT_MIN, INT_MAX, &v, why, sizeof why)))
      return set_err(err, key, line, why);
    if ((rc = mbdae_param_check_bounds(s, (double)v, why, sizeof why)))
      return set_err(err, key, line, why);
    *(int *)at(base, s->offset) = (int)v;
    return MBDAE_OK;
  }
  case MBDAE_PARAM_BOOL: {
    int v;
    if ((rc = mbdae_yaml_bool(n, &v, why, sizeof why))) return set_err(err, key, line, why);
    *(int *)at(base, s->offset) = v;
    return MBDAE_OK;
  }
  case MBDAE_PARAM_ENUM: {
    char *str = NULL;
    char range[200];
    mbdae_param_range_text(s, range, sizeof range);
    if (mbdae_yaml_is_collection(n)) {
      snprintf(why, sizeof why, "expected one of %.200s, got %s", range, mbdae_yaml_what(n));
      return set_err(err, key, line, why);
    }
    if ((rc = mbdae_yaml_string(n, &str, why, sizeof why))) return set_err(err, key, line, why);
    for (int k = 0; s->choices && s->choices[k]; ++k)
      if (strcmp(s->choices[k], str) == 0) {
        free(str);
        *(int *)at(base, s->offset) = k;
        return MBDAE_OK;
      }
    snprintf(why, sizeof why, "expected one of %.200s, got '%.60s'", range, str);
    free(str);
    return set_err(err, key, line, why);
  }
  case MBDAE_PARAM_VEC: {
    double tmp[256];
    if (s->len <= 0 || s->len > 256) return set_err(err, key, line, "schema error: bad VEC length");
    if ((rc = read_row(s, n, key, key_line, tmp, err))) return rc;
    memcpy(at(base, s->offset), tmp, (size_t)s->len * sizeof(double));
    if (lines) {
      char sub[224];
      for (int k = 0; k < s->len; ++k) {
        snprintf(sub, sizeof sub, "%s[%d]", key, k);
        if (mbdae_key_lines_add(lines, sub, mbdae_yaml_line(n->items[k], line), NULL))
          return set_err(err, key, line, "out of memory");
      }
    }
    return MBDAE_OK;
  }
  case MBDAE_PARAM_TABLE: {
    if (s->len <= 0) return set_err(err, key, line, "schema error: bad TABLE width");
    if ((rc = mbdae_yaml_check_plain(n, why, sizeof why))) return set_err(err, key, line, why);
    if (n->kind != MBDAE_YNODE_SEQUENCE) {
      snprintf(why, sizeof why, "expected a sequence of rows of %d numbers, got %s",
               s->len, mbdae_yaml_what(n));
      return set_err(err, key, line, why);
    }
    if (n->n > (size_t)INT_MAX) return set_err(err, key, line, "table too large");
    int rows = (int)n->n;
    double *tab = NULL;
    if (rows > 0) {
      if ((size_t)rows > ((size_t)INT_MAX) / (size_t)s->len)
        return set_err(err, key, line, "table too large");
      tab = malloc((size_t)rows * (size_t)s->len * sizeof *tab);
      if (!tab) return set_err(err, key, line, "out of memory");
    }
    char sub[224];
    for (int r = 0; r < rows; ++r) {
      const mbdae_ynode *c = n->items[r];
      snprintf(sub, sizeof sub, "%s[%d]", key, r);
      int rline = mbdae_yaml_line(c, line);
      if ((rc = read_row(s, c, sub, rline, tab + (size_t)r * (size_t)s->len, err))) {
        free(tab);
        return rc;
      }
      if (lines && mbdae_key_lines_add(lines, sub, rline, NULL)) {
        free(tab);
        return set_err(err, key, line, "out of memory");
      }
    }
    free(*(double **)at(base, s->offset));
    *(double **)at(base, s->offset) = tab;
    *(int *)at(base, s->count_offset) = rows;
    return MBDAE_OK;
  }
  }
  return set_err(err, key, line, "schema error: unknown parameter type");
}

int mbdae_params_copy(const mbdae_param_spec *specs, int n, size_t size,
                      void *dst, const void *src) {
  memcpy(dst, src, size);
  for (int i = 0; i < n; ++i) /* no aliasing of src's arrays, even on failure */
    if (specs[i].type == MBDAE_PARAM_TABLE) *(double **)at(dst, specs[i].offset) = NULL;
  for (int i = 0; i < n; ++i) {
    const mbdae_param_spec *s = &specs[i];
    if (s->type != MBDAE_PARAM_TABLE) continue;
    const double *a = *(double *const *)((const char *)src + s->offset);
    int rows = *(const int *)((const char *)src + s->count_offset);
    if (!a || rows <= 0) continue;
    size_t bytes = (size_t)rows * (size_t)s->len * sizeof(double);
    double *c = malloc(bytes);
    if (!c) {
      mbdae_params_free_tables(specs, n, dst);
      return MBDAE_ERR_MEMORY;
    }
    memcpy(c, a, bytes);
    *(double **)at(dst, s->offset) = c;
  }
  return MBDAE_OK;
}

void mbdae_params_free_tables(const mbdae_param_spec *specs, int n, void *base) {
  if (!base) return;
  for (int i = 0; i < n; ++i)
    if (specs[i].type == MBDAE_PARAM_TABLE) {
      double **p = (double **)at(base, specs[i].offset);
      free(*p);
      *p = NULL;
      *(int *)at(base, specs[i].count_offset) = 0;
    }
}

void mbdae_param_type_text(const mbdae_param_spec *s, char *buf, size_t len) {
  switch (s->type) {
  case MBDAE_PARAM_DOUBLE: snprintf(buf, len, "double"); return;
  case MBDAE_PARAM_INT: snprintf(buf, len, "int"); return;
  case MBDAE_PARAM_BOOL: snprintf(buf, len, "bool"); return;
  case MBDAE_PARAM_ENUM: snprintf(buf, len, "enum"); return;
  case MBDAE_PARAM_VEC: snprintf(buf, len, "vec[%d]", s->len); return;
  case MBDAE_PARAM_TABLE: snprintf(buf, len, "table[*x%d]", s->len); return;
  }
  snprintf(buf, len, "?");
}

void mbdae_param_range_text(const mbdae_param_spec *s, char *buf, size_t len) {
  if (s->type == MBDAE_PARAM_BOOL) {
    snprintf(buf, len, "true|false");
    return;
  }
  if (s->type == MBDAE_PARAM_ENUM) {
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; s->choices && s->choices[k] && used < len; ++k) {
      int w = snprintf(buf + used, len - used, "%s%s", k ? "|" : "", s->choices[k]);
      if (w < 0) break;
      used += (size_t)w;
    }
    return;
  }
  char lo[40], hi[40];
  fmt_num(lo, sizeof lo, s->min);
  fmt_num(hi, sizeof hi, s->max);
  snprintf(buf, len, "%c%s, %s%c",
           (s->flags & MBDAE_PARAM_MIN_OPEN) || isinf(s->min) ? '(' : '[', lo, hi,
           (s->flags & MBDAE_PARAM_MAX_OPEN) || isinf(s->max) ? ')' : ']');
}

void mbdae_param_default_text(const mbdae_param_spec *s, char *buf, size_t len) {
  if (s->flags & MBDAE_PARAM_REQUIRED) {
    snprintf(buf, len, "required");
    return;
  }
  char num[40];
  switch (s->type) {
  case MBDAE_PARAM_DOUBLE: fmt_num(buf, len, s->def); return;
  case MBDAE_PARAM_INT: snprintf(buf, len, "%d", (int)s->def); return;
  case MBDAE_PARAM_BOOL: snprintf(buf, len, "%s", s->def != 0 ? "true" : "false"); return;
  case MBDAE_PARAM_ENUM: {
    int k = (int)s->def, m = 0;
    while (s->choices && s->choices[m]) ++m;
    snprintf(buf, len, "%s", (k >= 0 && k < m) ? s->choices[k] : "?");
    return;
  }
  case MBDAE_PARAM_VEC:
    fmt_num(num, sizeof num, s->def);
    snprintf(buf, len, "[%s x %d]", num, s->len);
    return;
  case MBDAE_PARAM_TABLE: snprintf(buf, len, "[] (no rows)"); return;
  }
  snprintf(buf, len, "?");
}
