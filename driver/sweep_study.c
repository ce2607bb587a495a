/* sweep_study.c - read a study file (doc/sweep.md): base scenario, axes
 * (grids start/stop/step or value lists), fixed overrides, outcomes to
 * aggregate, critical-value search, plot layout, output directory. */
#include <libfyaml.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "sweep.h"
#include "text_input.h"
#include "yaml_value.h"

static int fail(char *err, size_t errlen, const char *path, struct fy_node *n,
                const char *key, const char *fmt, ...) {
  char why[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  if (err && errlen)
    snprintf(err, errlen, "%s:%d: key '%s': %s", path, n ? mbdae_yaml_line(n, 1) : 1, key, why);
  return MBDAE_ERR_SCENARIO;
}

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

void mbdae_sweep_study_free(mbdae_sweep_study *st) {
  if (!st) return;
  free(st->path); free(st->stem); free(st->base_path); free(st->description);
  free(st->out_dir);
  for (int i = 0; i < st->naxes; ++i) free(st->axes[i].values);
  for (int i = 0; i < st->nset; ++i) free(st->set[i]);
  memset(st, 0, sizeof *st);
}

static struct fy_node *get(struct fy_node *map, const char *key) {
  return map && fy_node_is_mapping(map) ? fy_node_mapping_lookup_by_string(map, key, FY_NT)
                                        : NULL;
}

static int scalar_text(struct fy_node *n, char *buf, size_t len) {
  if (!n || !fy_node_is_scalar(n)) return -1;
  size_t l = 0;
  const char *s = fy_node_get_scalar(n, &l);
  if (!s || l + 1 > len) return -1;
  memcpy(buf, s, l);
  buf[l] = '\0';
  return 0;
}

static int axis_index(const mbdae_sweep_study *st, const char *key) {
  for (int i = 0; i < st->naxes; ++i)
    if (strcmp(st->axes[i].key, key) == 0) return i;
  return -1;
}

static int read_axis(const char *path, struct fy_node *n, mbdae_sweep_axis *ax,
                     char *err, size_t errlen) {
  char why[256];
  if (!fy_node_is_mapping(n))
    return fail(err, errlen, path, n, "vary", "each entry is a mapping {key, values} or "
                "{key, start, stop, step}");
  if (scalar_text(get(n, "key"), ax->key, sizeof ax->key))
    return fail(err, errlen, path, n, "vary.key", "missing or not a scalar scenario key");
  if (!strchr(ax->key, '.'))
    return fail(err, errlen, path, n, "vary.key", "'%s' is not a dotted scenario key "
                "(e.g. parameters.e)", ax->key);
  struct fy_node *vals = get(n, "values");
  if (vals) {
    if (!fy_node_is_sequence(vals) || fy_node_sequence_item_count(vals) < 1)
      return fail(err, errlen, path, vals, "vary.values", "expected a non-empty list of numbers");
    ax->n = fy_node_sequence_item_count(vals);
    ax->values = calloc((size_t)ax->n, sizeof(double));
    if (!ax->values) return MBDAE_ERR_MEMORY;
    for (int i = 0; i < ax->n; ++i)
      if (mbdae_yaml_number(fy_node_sequence_get_by_index(vals, i), &ax->values[i], why,
                            sizeof why))
        return fail(err, errlen, path, vals, "vary.values", "%s", why);
    return MBDAE_OK;
  }
  double a, b, h;
  if (mbdae_yaml_number(get(n, "start"), &a, why, sizeof why))
    return fail(err, errlen, path, n, "vary.start", "%s", why);
  if (mbdae_yaml_number(get(n, "stop"), &b, why, sizeof why))
    return fail(err, errlen, path, n, "vary.stop", "%s", why);
  if (mbdae_yaml_number(get(n, "step"), &h, why, sizeof why))
    return fail(err, errlen, path, n, "vary.step", "%s", why);
  if (!(h > 0.0) || !(b >= a))
    return fail(err, errlen, path, n, "vary.step", "need step > 0 and stop >= start");
  double cnt = floor((b - a) / h + 1e-9) + 1.0;
  if (cnt > 1e7) return fail(err, errlen, path, n, "vary.step", "more than 1e7 values");
  ax->n = (int)cnt;
  ax->values = calloc((size_t)ax->n, sizeof(double));
  if (!ax->values) return MBDAE_ERR_MEMORY;
  /* computed, not accumulated, then rounded to 12 significant digits so that
   * 0.6 + 7 * 0.01 reads 0.67 in every file */
  for (int i = 0; i < ax->n; ++i) {
    char t[64];
    snprintf(t, sizeof t, "%.12g", a + i * h);
    ax->values[i] = strtod(t, NULL);
  }
  return MBDAE_OK;
}

static int load_root(const char *path, struct fy_node *root, mbdae_sweep_study *st,
                     char *err, size_t errlen) {
  char why[256], buf[512];
  static const char *const known[] = {"study", "description", "base", "vary", "set",
                                      "group_over", "outcomes", "critical", "plots",
                                      "output", NULL};
  if (!root || !fy_node_is_mapping(root))
    return fail(err, errlen, path, root, "study", "a study file is a mapping");
  void *it = NULL;
  struct fy_node_pair *pair;
  while ((pair = fy_node_mapping_iterate(root, &it))) {
    char key[64];
    if (scalar_text(fy_node_pair_key(pair), key, sizeof key))
      return fail(err, errlen, path, fy_node_pair_key(pair), "?", "keys must be plain strings");
    int k = 0;
    while (known[k] && strcmp(known[k], key)) ++k;
    if (!known[k])
      return fail(err, errlen, path, fy_node_pair_key(pair), key,
                  "unknown key (expected study, description, base, vary, set, group_over, "
                  "outcomes, critical, plots, output)");
  }
  /* base scenario: relative to the study file's directory */
  if (scalar_text(get(root, "base"), buf, sizeof buf))
    return fail(err, errlen, path, root, "base", "missing: the base scenario file");
  const char *slash = strrchr(path, '/');
  if (buf[0] != '/' && slash) {
    size_t dl = (size_t)(slash - path) + 1, bl = strlen(buf);
    st->base_path = malloc(dl + bl + 1);
    if (!st->base_path) return MBDAE_ERR_MEMORY;
    memcpy(st->base_path, path, dl);
    memcpy(st->base_path + dl, buf, bl + 1);
  } else {
    st->base_path = dupstr(buf);
  }
  if (!scalar_text(get(root, "description"), buf, sizeof buf)) st->description = dupstr(buf);
  else st->description = dupstr("");
  if (!scalar_text(get(root, "study"), buf, sizeof buf)) {
    free(st->stem);
    st->stem = dupstr(buf);
  }
  struct fy_node *vary = get(root, "vary");
  if (!vary || !fy_node_is_sequence(vary) || fy_node_sequence_item_count(vary) < 1)
    return fail(err, errlen, path, vary ? vary : root, "vary", "expected a non-empty list of axes");
  if (fy_node_sequence_item_count(vary) > MBDAE_SWEEP_MAX_KEYS)
    return fail(err, errlen, path, vary, "vary", "at most %d axes", MBDAE_SWEEP_MAX_KEYS);
  st->nruns = 1;
  for (int i = 0; i < fy_node_sequence_item_count(vary); ++i) {
    int rc = read_axis(path, fy_node_sequence_get_by_index(vary, i), &st->axes[i], err, errlen);
    st->naxes = i + 1;
    if (rc) return rc;
    if (axis_index(st, st->axes[i].key) != i)
      return fail(err, errlen, path, vary, "vary.key", "'%s' varied twice", st->axes[i].key);
    st->nruns *= st->axes[i].n;
  }
  if (st->nruns > 100000000L) return fail(err, errlen, path, vary, "vary", "more than 1e8 runs");
  struct fy_node *set = get(root, "set");
  if (set) {
    if (!fy_node_is_sequence(set) || fy_node_sequence_item_count(set) > MBDAE_SWEEP_MAX_SET)
      return fail(err, errlen, path, set, "set", "expected a list of at most %d \"key=value\"",
                  MBDAE_SWEEP_MAX_SET);
    for (int i = 0; i < fy_node_sequence_item_count(set); ++i) {
      if (scalar_text(fy_node_sequence_get_by_index(set, i), buf, sizeof buf) || !strchr(buf, '='))
        return fail(err, errlen, path, set, "set", "entry %d is not \"key=value\"", i);
      st->set[st->nset++] = dupstr(buf);
    }
  }
  st->group_axis = -1;
  if (!scalar_text(get(root, "group_over"), buf, sizeof buf)) {
    st->group_axis = axis_index(st, buf);
    if (st->group_axis < 0)
      return fail(err, errlen, path, get(root, "group_over"), "group_over",
                  "'%s' is not one of the varied keys", buf);
  }
  struct fy_node *outs = get(root, "outcomes");
  if (!outs || !fy_node_is_sequence(outs) || fy_node_sequence_item_count(outs) < 1 ||
      fy_node_sequence_item_count(outs) > MBDAE_SWEEP_MAX_OUTCOMES)
    return fail(err, errlen, path, outs ? outs : root, "outcomes",
                "expected a list of 1 to %d outcomes", MBDAE_SWEEP_MAX_OUTCOMES);
  for (int i = 0; i < fy_node_sequence_item_count(outs); ++i) {
    struct fy_node *o = fy_node_sequence_get_by_index(outs, i);
    mbdae_sweep_outcome *so = &st->outcomes[i];
    so->scale = 1.0;
    if (fy_node_is_scalar(o)) {
      scalar_text(o, so->name, sizeof so->name);
    } else if (scalar_text(get(o, "name"), so->name, sizeof so->name)) {
      return fail(err, errlen, path, o, "outcomes.name", "each outcome needs a name");
    }
    snprintf(so->label, sizeof so->label, "%s", so->name);
    scalar_text(get(o, "label"), so->label, sizeof so->label);
    if (get(o, "scale") && mbdae_yaml_number(get(o, "scale"), &so->scale, why, sizeof why))
      return fail(err, errlen, path, o, "outcomes.scale", "%s", why);
    if (get(o, "errorbars") && mbdae_yaml_bool(get(o, "errorbars"), &so->errorbars, why, sizeof why))
      return fail(err, errlen, path, o, "outcomes.errorbars", "%s", why);
    st->noutcomes = i + 1;
  }
  st->crit_axis = st->crit_outcome = -1;
  struct fy_node *crit = get(root, "critical");
  if (crit) {
    if (scalar_text(get(crit, "key"), buf, sizeof buf) || (st->crit_axis = axis_index(st, buf)) < 0)
      return fail(err, errlen, path, crit, "critical.key", "must name a varied key");
    if (scalar_text(get(crit, "outcome"), buf, sizeof buf))
      return fail(err, errlen, path, crit, "critical.outcome", "missing");
    for (int i = 0; i < st->noutcomes; ++i)
      if (!strcmp(st->outcomes[i].name, buf)) st->crit_outcome = i;
    if (st->crit_outcome < 0)
      return fail(err, errlen, path, crit, "critical.outcome", "'%s' is not in outcomes", buf);
    st->crit_tol = 0.05;
    if (get(crit, "tolerance") &&
        mbdae_yaml_number(get(crit, "tolerance"), &st->crit_tol, why, sizeof why))
      return fail(err, errlen, path, crit, "critical.tolerance", "%s", why);
    if (st->crit_axis == st->group_axis)
      return fail(err, errlen, path, crit, "critical.key", "cannot be the group_over key");
  }
  st->plot_x = st->plot_series = st->plot_panel = -1;
  struct fy_node *pl = get(root, "plots");
  if (pl) {
    const char *names[3] = {"x", "series", "panel"};
    int *dst[3] = {&st->plot_x, &st->plot_series, &st->plot_panel};
    for (int k = 0; k < 3; ++k) {
      if (scalar_text(get(pl, names[k]), buf, sizeof buf)) continue;
      *dst[k] = axis_index(st, buf);
      if (*dst[k] < 0 || *dst[k] == st->group_axis)
        return fail(err, errlen, path, pl, names[k], "'%s' must be a varied key other than "
                    "group_over", buf);
    }
    if (st->plot_x < 0) return fail(err, errlen, path, pl, "plots.x", "missing");
  }
  struct fy_node *out = get(root, "output");
  if (out && !scalar_text(get(out, "dir"), buf, sizeof buf)) st->out_dir = dupstr(buf);
  else {
    snprintf(buf, sizeof buf, "out/%s", st->stem);
    st->out_dir = dupstr(buf);
  }
  if (!st->base_path || !st->description || !st->out_dir) return MBDAE_ERR_MEMORY;
  return MBDAE_OK;
}

int mbdae_sweep_study_load(const char *path, mbdae_sweep_study *st, char *err,
                           size_t errlen) {
  memset(st, 0, sizeof *st);
  st->path = dupstr(path);
  const char *b = strrchr(path, '/');
  st->stem = dupstr(b ? b + 1 : path);
  if (!st->path || !st->stem) return MBDAE_ERR_MEMORY;
  char *dot = strstr(st->stem, ".yaml");
  if (dot) *dot = '\0';
  struct fy_parse_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.flags = FYPCF_QUIET | FYPCF_DEFAULT_VERSION_1_2 | FYPCF_JSON_NONE;
  char *text = NULL; /* checked UTF-8 first: libfyaml 0.7.12 can hang on malformed bytes */
  size_t len = 0;
  int rc = mbdae_text_file_read(path, &text, &len, err, errlen);
  if (rc) {
    mbdae_sweep_study_free(st);
    return rc == MBDAE_ERR_MEMORY ? rc : MBDAE_ERR_SCENARIO;
  }
  struct fy_document *doc = fy_document_build_from_string(&cfg, text, len);
  if (!doc) {
    free(text);
    if (err && errlen) snprintf(err, errlen, "%s: cannot read or parse the study file", path);
    mbdae_sweep_study_free(st);
    return MBDAE_ERR_SCENARIO;
  }
  rc = load_root(path, fy_document_root(doc), st, err, errlen);
  fy_document_destroy(doc);
  free(text);
  if (rc) mbdae_sweep_study_free(st);
  return rc;
}

void mbdae_sweep_run_indices(const mbdae_sweep_study *st, long i, int *idx) {
  for (int a = st->naxes - 1; a >= 0; --a) {
    idx[a] = (int)(i % st->axes[a].n);
    i /= st->axes[a].n;
  }
}
