/* scenario.c - load a scenario (YAML, libyaml) into a checked
 * mbdae_scenario: top-level keys, sections, overrides, final checks. The
 * first problem found is reported as one line naming FILE:LINE and key. */
#define _POSIX_C_SOURCE 200809L
#include "scenario.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "key_lines.h"
#include "mbdae/status.h"
#include "message_line.h"
#include "param_schema.h"
#include "solver_schema.h"
#include "text_input.h"
#include "utf8_check.h"
#include "yaml_tree.h"
#include "yaml_value.h"

struct mbdae_scenario_priv {
  mbdae_solver_fields solver;
  mbdae_output_fields output;
  mbdae_key_lines lines;
};

static const char *const top_keys[] = {"model", "description", "solver",
                                       "parameters", "output", NULL};

/* ---- messages ------------------------------------------------------------ */

static int key_error_at(const char *file, int line, const char *origin,
                        const char *key, const char *why, char *err,
                        size_t errlen) {
  if (origin)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s: --set %s: key '%s': %s", file,
               origin, key, why);
  return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:%d: key '%s': %s", file,
             line > 0 ? line : 1, key, why);
}

void mbdae_scenario_key_error(const mbdae_scenario *s, const char *key,
                              const char *why, char *err, size_t errlen) {
  const char *file = s && s->path ? s->path : "scenario";
  const mbdae_key_line *e = NULL;
  if (s && s->priv) {
    char k[256];
    snprintf(k, sizeof k, "%s", key);
    /* exact key, then an override of one of its elements, then the key
     * without trailing [i] parts, then its section */
    size_t klen = strlen(k);
    for (int i = s->priv->lines.n - 1; i >= 0; --i) {
      const mbdae_key_line *c = &s->priv->lines.v[i];
      if (!strcmp(c->key, k)) break; /* given as a whole after any element override */
      if (c->origin && !strncmp(c->key, k, klen) && c->key[klen] == '[') {
        e = c;
        break;
      }
    }
    for (; !e;) {
      if ((e = mbdae_key_lines_find(&s->priv->lines, k))) break;
      char *b = strrchr(k, '[');
      if (!b) break;
      *b = '\0';
    }
    if (!e) {
      char *dot = strchr(k, '.');
      if (dot) {
        *dot = '\0';
        e = mbdae_key_lines_find(&s->priv->lines, k);
      }
    }
  }
  key_error_at(file, e ? e->line : 1, e ? e->origin : NULL, key, why, err, errlen);
}

void mbdae_scenario_full_key(const mbdae_model_kind *kind, const char *key,
                             const char *fallback, char *out, size_t len) {
  if (!key || !*key) {
    snprintf(out, len, "%s", fallback);
    return;
  }
  if (!strncmp(key, "solver.", 7) || !strncmp(key, "output.", 7) ||
      !strncmp(key, "parameters.", 11) || !strcmp(key, "model") || !strcmp(key, "solver") ||
      !strcmp(key, "output") || !strcmp(key, "parameters")) {
    snprintf(out, len, "%s", key);
    return;
  }
  char base[128];
  snprintf(base, sizeof base, "%s", key);
  base[strcspn(base, "[.")] = '\0';
  int is_param = kind && mbdae_params_find(kind->params, kind->nparams, base) != NULL;
  if (!is_param && mbdae_params_find(mbdae_solver_specs, mbdae_solver_nspecs, base))
    snprintf(out, len, "solver.%s", key);
  else
    snprintf(out, len, "parameters.%s", key);
}

/* ---- small utilities ----------------------------------------------------- */

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

static char *stem_of(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  char *s = dup_str(*b ? b : "scenario");
  if (!s) return NULL;
  char *dot = strrchr(s, '.');
  if (dot && dot != s && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml"))) *dot = '\0';
  return s;
}

/* A mapping key as text: a non-empty plain or quoted scalar. */
static int key_text(const mbdae_ynode *k, char *buf, size_t len) {
  if (!k || k->kind != MBDAE_YNODE_SCALAR || k->tagged) return -1;
  size_t n = k->len;
  const char *t = k->text;
  if (n >= len) return -2;
  if (!t || n == 0 || memchr(t, '\0', n)) return -1;
  memcpy(buf, t, n);
  buf[n] = '\0';
  return 0;
}

static void list_keys(const mbdae_param_spec *specs, int n, const char *extra,
                      char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  if (extra) used += (size_t)snprintf(buf, len, "%s", extra);
  for (int i = 0; i < n && used < len; ++i)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", specs[i].key);
}

/* ---- parsing ------------------------------------------------------------- */

/* Parse exactly one YAML document from a file (text NULL) or a string. */
static int yaml_open(mbdae_ynode **root, const char *name, const char *text, char *err,
                     size_t errlen) {
  *root = NULL;
  char *file_text = NULL;
  size_t len = 0;
  int rc = MBDAE_OK;
  if (!text) {
    rc = mbdae_text_file_read(name, &file_text, &len, err, errlen);
    text = file_text;
  } else {
    len = strlen(text);
    rc = mbdae_text_check(name, text, len, err, errlen);
  }
  if (!rc) rc = mbdae_yaml_tree_parse(name, "a scenario", text, len, root, err, errlen);
  free(file_text);
  if (!rc && !*root)
    rc = mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
             "%s:1: empty scenario (expected a mapping with at least 'model')", name);
  return rc;
}

/* ---- sections ------------------------------------------------------------ */

/* Fill one section mapping (`solver`, `parameters`, `output`). */
static int fill_section(mbdae_scenario *s, const char *section, const mbdae_ynode *value,
                        int section_line, const mbdae_param_spec *specs, int nspecs,
                        void *base, char *err, size_t errlen) {
  char why[400];
  if (mbdae_yaml_is_null(value) && !(value && value->tagged))
    return MBDAE_OK; /* "section:" with nothing under it */
  if (value->kind != MBDAE_YNODE_MAPPING) {
    snprintf(why, sizeof why, "expected a mapping of keys, got %s", mbdae_yaml_what(value));
    return key_error_at(s->path, mbdae_yaml_line(value, section_line), NULL, section, why,
                        err, errlen);
  }
  for (size_t i = 0; i < value->n; ++i) {
    const mbdae_ynode *kn = value->pairs[i].key, *vn = value->pairs[i].value;
    int kline = mbdae_yaml_line(kn, mbdae_yaml_line(vn, section_line));
    char key[128], full[192];
    int kt = key_text(kn, key, sizeof key);
    if (kt)
      return key_error_at(s->path, kline, NULL, section,
                          kt == -2 ? "a key longer than 127 characters"
                                   : "keys must be plain strings (no sequences, mappings or aliases)",
                          err, errlen);
    snprintf(full, sizeof full, "%s.%s", section, key);
    if (mbdae_key_lines_add(&s->priv->lines, full, kline, NULL))
      return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", s->path);
    if (!strcmp(section, "output") && !strcmp(key, "dir")) {
      char *dir = NULL;
      if (mbdae_yaml_string(vn, &dir, why, sizeof why))
        return key_error_at(s->path, mbdae_yaml_line(vn, kline), NULL, full, why, err, errlen);
      if (!dir[0]) {
        free(dir);
        return key_error_at(s->path, kline, NULL, full, "must not be empty", err, errlen);
      }
      free(s->out_dir);
      s->out_dir = dir;
      continue;
    }
    const mbdae_param_spec *spec = mbdae_params_find(specs, nspecs, key);
    if (!spec) {
      char known[600];
      if (!strcmp(section, "parameters"))
        snprintf(why, sizeof why, "unknown key for model '%s' (see 'mbdae list --params %s')",
                 s->kind->name, s->kind->name);
      else {
        list_keys(specs, nspecs, !strcmp(section, "output") ? "dir" : NULL, known,
                  sizeof known);
        snprintf(why, sizeof why, "unknown key (expected one of: %.300s)", known);
      }
      return key_error_at(s->path, kline, NULL, full, why, err, errlen);
    }
    mbdae_fill_error fe;
    if (mbdae_param_set_node(spec, vn, full, kline, base, &s->priv->lines, &fe))
      return key_error_at(s->path, fe.line, NULL, fe.key, fe.why, err, errlen);
  }
  return MBDAE_OK;
}

/* The i-th kind of an explicit table, or of the whole registry (built-in and
 * registered kinds) when registry is NULL; NULL past the end. */
static const mbdae_model_kind *kind_at(const mbdae_model_kind *const *registry, int i) {
  return registry ? registry[i] : mbdae_model_kind_at(i);
}

static int model_from(mbdae_scenario *s, const mbdae_model_kind *const *registry,
                      const mbdae_ynode *vn, int line, char *err, size_t errlen) {
  char why[600], *name = NULL;
  if (mbdae_yaml_is_collection(vn)) {
    snprintf(why, sizeof why, "expected a model kind name, got %s", mbdae_yaml_what(vn));
    return key_error_at(s->path, line, NULL, "model", why, err, errlen);
  }
  if (mbdae_yaml_string(vn, &name, why, sizeof why))
    return key_error_at(s->path, line, NULL, "model", why, err, errlen);
  for (int i = 0; kind_at(registry, i); ++i)
    if (!strcmp(kind_at(registry, i)->name, name)) {
      s->kind = kind_at(registry, i);
      free(name);
      return MBDAE_OK;
    }
  size_t used = 0;
  char known[400] = "";
  for (int i = 0; kind_at(registry, i) && used < sizeof known; ++i)
    used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                             kind_at(registry, i)->name);
  snprintf(why, sizeof why, "unknown model kind '%.80s' (known: %s)", name,
           used ? known : "none");
  free(name);
  return key_error_at(s->path, line, NULL, "model", why, err, errlen);
}

static int load_root(mbdae_scenario *s, const mbdae_model_kind *const *registry,
                     const mbdae_ynode *root, char *err, size_t errlen) {
  if (!root || root->kind != MBDAE_YNODE_MAPPING)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
               "%s:%d: a scenario is a mapping of keys (model, description, solver, "
               "parameters, output), got %s", s->path, mbdae_yaml_line(root, 1),
               mbdae_yaml_what(root));
  const mbdae_ynode *val[5] = {NULL};
  int line[5] = {0}, present[5] = {0};
  for (size_t i = 0; i < root->n; ++i) {
    const mbdae_ynode *kn = root->pairs[i].key, *vn = root->pairs[i].value;
    int kline = mbdae_yaml_line(kn, mbdae_yaml_line(vn, 1));
    char key[128];
    int kt = key_text(kn, key, sizeof key);
    if (kt)
      return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:%d: %s", s->path, kline,
                 kt == -2 ? "a key longer than 127 characters"
                          : "keys must be plain strings (no sequences, mappings or aliases)");
    int k = 0;
    while (top_keys[k] && strcmp(top_keys[k], key)) ++k;
    if (!top_keys[k])
      return key_error_at(s->path, kline, NULL, key,
                          "unknown key (expected one of: model, description, solver, "
                          "parameters, output)", err, errlen);
    val[k] = vn;
    line[k] = kline;
    present[k] = 1;
    if (mbdae_key_lines_add(&s->priv->lines, key, kline, NULL))
      return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", s->path);
  }
  if (!present[0])
    return key_error_at(s->path, 1, NULL, "model", "missing required key (a model kind name, "
                        "see 'mbdae list')", err, errlen);
  int rc = model_from(s, registry, val[0], line[0], err, errlen);
  if (rc) return rc;
  s->params = calloc(1, s->kind->params_size ? s->kind->params_size : 1);
  if (!s->params) return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", s->path);
  mbdae_params_set_defaults(s->kind->params, s->kind->nparams, s->params);
  if (present[1]) {
    char why[300], *d = NULL;
    if (mbdae_yaml_is_collection(val[1])) {
      snprintf(why, sizeof why, "expected a string, got %s", mbdae_yaml_what(val[1]));
      return key_error_at(s->path, line[1], NULL, "description", why, err, errlen);
    }
    if (mbdae_yaml_string(val[1], &d, why, sizeof why))
      return key_error_at(s->path, line[1], NULL, "description", why, err, errlen);
    free(s->description);
    s->description = d;
  }
  /* sections in file order would need a second walk; the order below is
   * fixed and documented: solver, parameters, output */
  if (present[2] && (rc = fill_section(s, "solver", val[2], line[2], mbdae_solver_specs,
                                       mbdae_solver_nspecs, &s->priv->solver, err, errlen)))
    return rc;
  if (present[3] && (rc = fill_section(s, "parameters", val[3], line[3], s->kind->params,
                                       s->kind->nparams, s->params, err, errlen)))
    return rc;
  if (present[4] && (rc = fill_section(s, "output", val[4], line[4], mbdae_output_specs,
                                       mbdae_output_nspecs, &s->priv->output, err, errlen)))
    return rc;
  return MBDAE_OK;
}

/* ---- overrides ----------------------------------------------------------- */

/* --set name[i]=x / name[r][c]=x: one number of a VEC or TABLE. */
static int override_element(mbdae_scenario *s, const mbdae_param_spec *spec, void *base,
                            const long *idx, int nidx, const char *full, const char *text,
                            const char *value, char *err, size_t errlen) {
  char why[400];
  double *slot = NULL;
  if (spec->type == MBDAE_PARAM_VEC && nidx == 1) {
    if (idx[0] < 0 || idx[0] >= spec->len) {
      snprintf(why, sizeof why, "index out of range (%s has %d elements)", spec->key, spec->len);
      return key_error_at(s->path, 0, text, full, why, err, errlen);
    }
    slot = (double *)((char *)base + spec->offset) + idx[0];
  } else if (spec->type == MBDAE_PARAM_TABLE && nidx == 2) {
    int rows = *(int *)((char *)base + spec->count_offset);
    double *tab = *(double **)((char *)base + spec->offset);
    if (idx[0] < 0 || idx[0] >= rows || idx[1] < 0 || idx[1] >= spec->len) {
      snprintf(why, sizeof why, "index out of range (%s has %d rows of %d)", spec->key, rows,
               spec->len);
      return key_error_at(s->path, 0, text, full, why, err, errlen);
    }
    slot = tab + (size_t)idx[0] * (size_t)spec->len + (size_t)idx[1];
  } else {
    return key_error_at(s->path, 0, text, full,
                        "only a vec element (name[i]) or a table entry (name[row][col]) can be "
                        "indexed", err, errlen);
  }
  double v;
  if (mbdae_text_number(value, &v, why, sizeof why) ||
      mbdae_param_check_bounds(spec, v, why, sizeof why))
    return key_error_at(s->path, 0, text, full, why, err, errlen);
  *slot = v;
  return mbdae_key_lines_override(&s->priv->lines, full, text) ? MBDAE_ERR_MEMORY : 0;
}

static int apply_override(mbdae_scenario *s, const char *text, char *err, size_t errlen) {
  char why[400];
  const char *eq = text ? strchr(text, '=') : NULL;
  if (!eq || eq == text)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
               "%s: --set %s: expected KEY=VALUE (e.g. parameters.e=0.5)", s->path,
               text ? text : "(null)");
  /* everything reaches summary.json: text only (the raw bytes are not echoed) */
  size_t tlen = strlen(text), bad = mbdae_utf8_check(text, tlen);
  if (bad != tlen)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
               "%s: --set: not UTF-8 text (malformed byte 0x%02x at column %zu of '%.*s...')",
               s->path, (unsigned)(unsigned char)text[bad], bad + 1, (int)bad, text);
  char full[192];
  size_t klen = (size_t)(eq - text);
  if (klen >= sizeof full)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s: --set %s: key too long", s->path, text);
  memcpy(full, text, klen);
  full[klen] = '\0';
  const char *value = eq + 1;
  char *dot = strchr(full, '.');
  const char *key = dot ? dot + 1 : NULL;
  char section[192];
  snprintf(section, sizeof section, "%.*s", (int)(dot ? (size_t)(dot - full) : klen), full);

  if (!strcmp(section, "model") && !key)
    return key_error_at(s->path, 0, text, "model",
                        "the model kind cannot be overridden (write another scenario)",
                        err, errlen);
  if (!strcmp(section, "description") && !key) {
    char *d = dup_str(value);
    if (!d) return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
    free(s->description);
    s->description = d;
    return mbdae_key_lines_override(&s->priv->lines, "description", text) ? MBDAE_ERR_MEMORY : 0;
  }
  const mbdae_param_spec *specs = NULL;
  int nspecs = 0;
  void *base = NULL;
  if (!strcmp(section, "solver")) {
    specs = mbdae_solver_specs, nspecs = mbdae_solver_nspecs, base = &s->priv->solver;
  } else if (!strcmp(section, "parameters")) {
    specs = s->kind->params, nspecs = s->kind->nparams, base = s->params;
  } else if (!strcmp(section, "output")) {
    specs = mbdae_output_specs, nspecs = mbdae_output_nspecs, base = &s->priv->output;
  } else {
    return key_error_at(s->path, 0, text, full,
                        "unknown key (expected description, solver.KEY, parameters.KEY or "
                        "output.KEY)", err, errlen);
  }
  if (!key || !*key)
    return key_error_at(s->path, 0, text, full, "name a key inside the section", err, errlen);
  if (!strcmp(section, "output") && !strcmp(key, "dir")) {
    if (!*value) return key_error_at(s->path, 0, text, full, "must not be empty", err, errlen);
    char *d = dup_str(value);
    if (!d) return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
    free(s->out_dir);
    s->out_dir = d;
    return mbdae_key_lines_override(&s->priv->lines, full, text) ? MBDAE_ERR_MEMORY : 0;
  }
  /* an element of a VEC ("v[1]") or TABLE ("tab[2][0]") */
  char base_key[128];
  long idx[2] = {0, 0};
  int nidx = 0;
  snprintf(base_key, sizeof base_key, "%s", key);
  char *br = strchr(base_key, '[');
  if (br) {
    const char *q = key + (br - base_key);
    *br = '\0';
    while (*q == '[' && nidx < 2) {
      char *end = NULL;
      if (q[1] < '0' || q[1] > '9') break;
      idx[nidx++] = strtol(q + 1, &end, 10);
      if (*end != ']') { nidx = -1; break; }
      q = end + 1;
    }
    if (nidx <= 0 || *q)
      return key_error_at(s->path, 0, text, full,
                          "bad element index (write name[i] for a vec, name[row][col] for a table)",
                          err, errlen);
  }
  const mbdae_param_spec *spec = mbdae_params_find(specs, nspecs, base_key);
  if (spec && nidx > 0)
    return override_element(s, spec, base, idx, nidx, full, text, value, err, errlen);
  if (!spec) {
    if (specs == s->kind->params)
      snprintf(why, sizeof why, "unknown key for model '%s' (see 'mbdae list --params %s')",
               s->kind->name, s->kind->name);
    else
      snprintf(why, sizeof why, "unknown key in section '%s'", section);
    return key_error_at(s->path, 0, text, full, why, err, errlen);
  }
  /* the value is YAML: 0.5, true, ida, [1, 2, 3], [[0, 1], [1, 2]] */
  mbdae_ynode *root = NULL;
  char sub[224];
  snprintf(sub, sizeof sub, "--set %s", full);
  if (!*value)
    return key_error_at(s->path, 0, text, full, "missing value", err, errlen);
  int rc = yaml_open(&root, sub, value, why, sizeof why);
  if (rc) {
    /* why holds "NAME:LINE: reason": keep the reason */
    const char *r = strstr(why, ": ");
    r = r ? strstr(r + 2, ": ") : NULL;
    char reason[448];
    snprintf(reason, sizeof reason, "cannot read the value: %s", r ? r + 2 : why);
    return key_error_at(s->path, 0, text, full, reason, err, errlen);
  }
  mbdae_fill_error fe;
  rc = mbdae_param_set_node(spec, root, full, 0, base, NULL, &fe);
  mbdae_yaml_tree_free(root);
  if (rc) return key_error_at(s->path, 0, text, fe.key, fe.why, err, errlen);
  return mbdae_key_lines_override(&s->priv->lines, full, text) ? MBDAE_ERR_MEMORY : 0;
}

/* ---- checks after every value is in -------------------------------------- */

static int final_checks(mbdae_scenario *s, char *err, size_t errlen) {
  char key[192], why[400];
  for (int i = 0; i < s->kind->nparams; ++i) {
    const mbdae_param_spec *p = &s->kind->params[i];
    if (!(p->flags & MBDAE_PARAM_REQUIRED)) continue;
    snprintf(key, sizeof key, "parameters.%s", p->key);
    if (mbdae_key_lines_find(&s->priv->lines, key)) continue;
    snprintf(why, sizeof why, "missing required key (%s%s%s)", p->doc ? p->doc : "",
             p->unit && *p->unit ? ", " : "", p->unit ? p->unit : "");
    mbdae_scenario_key_error(s, key, why, err, errlen);
    return MBDAE_ERR_SCENARIO;
  }
  const mbdae_solver_fields *f = &s->priv->solver;
  if (!(f->t_end > f->t0)) {
    snprintf(why, sizeof why, "must be greater than t0 (%.10g), got %.10g", f->t0, f->t_end);
    mbdae_scenario_key_error(s, "solver.t_end", why, err, errlen);
    return MBDAE_ERR_SCENARIO;
  }
  mbdae_options_default(&s->options);
  mbdae_solver_fields_apply(f, &s->options);
  s->plots = s->priv->output.plots;
  s->every = s->priv->output.every;
  s->event_rows = s->priv->output.event_rows;
  s->format = s->priv->output.format;
  s->vtk = s->priv->output.vtk;
  s->animation = s->priv->output.animation;
  if (s->kind->check) {
    mbdae_param_error pe;
    memset(&pe, 0, sizeof pe);
    int rc = s->kind->check(s->params, &pe);
    if (rc) {
      pe.msg[sizeof pe.msg - 1] = '\0';
      mbdae_scenario_full_key(s->kind, pe.key, "parameters", key, sizeof key);
      mbdae_scenario_key_error(s, key, pe.msg[0] ? pe.msg : "rejected by the model's check",
                               err, errlen);
      return MBDAE_ERR_SCENARIO;
    }
  }
  return MBDAE_OK;
}

/* ---- public -------------------------------------------------------------- */

static int scenario_init(mbdae_scenario *s, const char *name) {
  memset(s, 0, sizeof *s);
  s->priv = calloc(1, sizeof *s->priv);
  s->path = dup_str(name);
  s->stem = stem_of(name);
  s->description = dup_str("");
  if (!s->priv || !s->path || !s->stem || !s->description) return MBDAE_ERR_MEMORY;
  mbdae_solver_fields_default(&s->priv->solver);
  mbdae_params_set_defaults(mbdae_output_specs, mbdae_output_nspecs, &s->priv->output);
  mbdae_options_default(&s->options);
  s->plots = s->priv->output.plots;
  s->every = s->priv->output.every;
  s->event_rows = s->priv->output.event_rows;
  s->format = s->priv->output.format;
  s->vtk = s->priv->output.vtk;
  s->animation = s->priv->output.animation;
  return MBDAE_OK;
}

static int load_any(const mbdae_model_kind *const *registry, const char *name,
                    const char *text, const char *const *overrides, int n,
                    mbdae_scenario *s, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!s) return mbdae_message_line(err, errlen, MBDAE_ERR_ARGUMENT, "no scenario to fill");
  memset(s, 0, sizeof *s);
  if (!name || (n > 0 && !overrides) || n < 0)
    return mbdae_message_line(err, errlen, MBDAE_ERR_ARGUMENT, "bad arguments to the scenario loader");
  if (!text) {
    struct stat st;
    if (stat(name, &st) != 0)
      return mbdae_message_line(err, errlen, MBDAE_ERR_IO, "%s: cannot open: %s", name, strerror(errno));
    if (S_ISDIR(st.st_mode))
      return mbdae_message_line(err, errlen, MBDAE_ERR_IO, "%s: cannot open: is a directory", name);
    FILE *fp = fopen(name, "rb");
    if (!fp) return mbdae_message_line(err, errlen, MBDAE_ERR_IO, "%s: cannot open: %s", name, strerror(errno));
    fclose(fp);
  }
  int rc = scenario_init(s, name);
  if (rc) {
    mbdae_scenario_free(s);
    return mbdae_message_line(err, errlen, rc, "%s: out of memory", name);
  }
  mbdae_ynode *root = NULL;
  rc = yaml_open(&root, name, text, err, errlen);
  if (rc) {
    mbdae_scenario_free(s);
    return rc;
  }
  rc = load_root(s, registry, root, err, errlen);
  mbdae_yaml_tree_free(root);
  for (int i = 0; !rc && i < n; ++i) rc = apply_override(s, overrides[i], err, errlen);
  if (!rc) rc = final_checks(s, err, errlen);
  if (rc) mbdae_scenario_free(s);
  return rc;
}

int mbdae_scenario_load_registry(const mbdae_model_kind *const *registry,
                                 const char *path, const char *const *overrides,
                                 int n, mbdae_scenario *s, char *err,
                                 size_t errlen) {
  return load_any(registry, path, NULL, overrides, n, s, err, errlen);
}

int mbdae_scenario_load(const char *path, const char *const *overrides, int n,
                        mbdae_scenario *s, char *err, size_t errlen) {
  return load_any(NULL, path, NULL, overrides, n, s, err, errlen);
}

int mbdae_scenario_load_string(const mbdae_model_kind *const *registry,
                               const char *name, const char *text,
                               const char *const *overrides, int n,
                               mbdae_scenario *s, char *err, size_t errlen) {
  if (!text) return mbdae_message_line(err, errlen, MBDAE_ERR_ARGUMENT, "no scenario text");
  return load_any(registry, name ? name : "scenario", text, overrides, n, s, err, errlen);
}

int mbdae_scenario_override(mbdae_scenario *s, const char *const *overrides,
                            int n, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!s || !s->priv || n < 0 || (n > 0 && !overrides))
    return mbdae_message_line(err, errlen, MBDAE_ERR_ARGUMENT, "bad arguments to mbdae_scenario_override");
  mbdae_scenario tmp;
  int rc = mbdae_scenario_copy(&tmp, s);
  if (rc) return mbdae_message_line(err, errlen, rc, "%s: out of memory", s->path);
  for (int i = 0; !rc && i < n; ++i) rc = apply_override(&tmp, overrides[i], err, errlen);
  if (!rc) rc = final_checks(&tmp, err, errlen);
  if (rc) {
    mbdae_scenario_free(&tmp);
    return rc;
  }
  mbdae_scenario_free(s);
  *s = tmp;
  return MBDAE_OK;
}

int mbdae_scenario_copy(mbdae_scenario *dst, const mbdae_scenario *src) {
  if (!dst || !src || !src->priv || !src->kind) return MBDAE_ERR_ARGUMENT;
  memset(dst, 0, sizeof *dst);
  dst->kind = src->kind;
  dst->options = src->options;
  dst->plots = src->plots;
  dst->every = src->every;
  dst->event_rows = src->event_rows;
  dst->format = src->format;
  dst->vtk = src->vtk;
  dst->animation = src->animation;
  dst->path = dup_str(src->path);
  dst->stem = dup_str(src->stem);
  dst->description = dup_str(src->description);
  dst->out_dir = src->out_dir ? dup_str(src->out_dir) : NULL;
  dst->priv = calloc(1, sizeof *dst->priv);
  dst->params = malloc(src->kind->params_size ? src->kind->params_size : 1);
  if (!dst->path || !dst->stem || !dst->description || (src->out_dir && !dst->out_dir) ||
      !dst->priv || !dst->params) {
    free(dst->params);
    dst->params = NULL;
    mbdae_scenario_free(dst);
    return MBDAE_ERR_MEMORY;
  }
  dst->priv->solver = src->priv->solver;
  dst->priv->output = src->priv->output;
  if (mbdae_params_copy(src->kind->params, src->kind->nparams, src->kind->params_size,
                        dst->params, src->params)) {
    free(dst->params);
    dst->params = NULL;
    mbdae_scenario_free(dst);
    return MBDAE_ERR_MEMORY;
  }
  if (mbdae_key_lines_copy(&dst->priv->lines, &src->priv->lines)) {
    mbdae_scenario_free(dst);
    return MBDAE_ERR_MEMORY;
  }
  return MBDAE_OK;
}

void mbdae_scenario_free(mbdae_scenario *s) {
  if (!s) return;
  if (s->kind && s->params) mbdae_params_free_tables(s->kind->params, s->kind->nparams, s->params);
  free(s->params);
  free(s->path);
  free(s->stem);
  free(s->description);
  free(s->out_dir);
  if (s->priv) mbdae_key_lines_free(&s->priv->lines);
  free(s->priv);
  memset(s, 0, sizeof *s);
}
