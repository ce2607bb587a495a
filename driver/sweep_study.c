/* sweep_study.c - read a study file (doc/sweep.md): base scenario, axes
 * (grids start/stop/step or value lists), fixed overrides, outcomes to
 * aggregate, critical-value search, plot layout, output directory. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "sweep.h"
#include "scenario_dir.h"
#include "text_input.h"
#include "yaml_tree.h"
#include "yaml_value.h"

static int fail(char *err, size_t errlen, const char *path, const mbdae_ynode *n,
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

static const mbdae_ynode *get(const mbdae_ynode *map, const char *key) {
  return mbdae_yaml_map_get(map, key);
}

static int is_seq(const mbdae_ynode *n) { return n && n->kind == MBDAE_YNODE_SEQUENCE; }
static int is_map(const mbdae_ynode *n) { return n && n->kind == MBDAE_YNODE_MAPPING; }

/* Items of a sequence (0 for anything else), as an int. */
static int count(const mbdae_ynode *n) {
  if (!is_seq(n)) return 0;
  return n->n > (size_t)INT_MAX ? INT_MAX : (int)n->n;
}

static int scalar_text(const mbdae_ynode *n, char *buf, size_t len) {
  if (!n || n->kind != MBDAE_YNODE_SCALAR) return -1;
  size_t l = n->len;
  if (l + 1 > len) return -1;
  memcpy(buf, n->text, l);
  buf[l] = '\0';
  return 0;
}

static int axis_index(const mbdae_sweep_study *st, const char *key) {
  for (int i = 0; i < st->naxes; ++i)
    if (strcmp(st->axes[i].key, key) == 0) return i;
  return -1;
}

static int read_axis(const char *path, const mbdae_ynode *n, mbdae_sweep_axis *ax,
                     char *err, size_t errlen) {
  char why[256];
  if (!is_map(n))
    return fail(err, errlen, path, n, "vary", "each entry is a mapping {key, values} or "
                "{key, start, stop, step}");
  if (scalar_text(get(n, "key"), ax->key, sizeof ax->key))
    return fail(err, errlen, path, n, "vary.key", "missing or not a scalar scenario key");
  if (!strchr(ax->key, '.'))
    return fail(err, errlen, path, n, "vary.key", "'%s' is not a dotted scenario key "
                "(e.g. parameters.e)", ax->key);
  const mbdae_ynode *vals = get(n, "values");
  if (vals) {
    if (!is_seq(vals) || count(vals) < 1)
      return fail(err, errlen, path, vals, "vary.values", "expected a non-empty list of numbers");
    ax->n = count(vals);
    ax->values = calloc((size_t)ax->n, sizeof(double));
    if (!ax->values) return MBDAE_ERR_MEMORY;
    for (int i = 0; i < ax->n; ++i)
      if (mbdae_yaml_number(vals->items[i], &ax->values[i], why,
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

static int load_root(const char *path, const mbdae_ynode *root, mbdae_sweep_study *st,
                     char *err, size_t errlen) {
  char why[256], buf[512];
  static const char *const known[] = {"study", "description", "base", "vary", "set",
                                      "group_over", "outcomes", "critical", "plots",
                                      "output", NULL};
  if (!root || !is_map(root))
    return fail(err, errlen, path, root, "study", "a study file is a mapping");
  for (size_t i = 0; i < root->n; ++i) {
    const mbdae_ynode *kn = root->pairs[i].key;
    char key[64];
    if (scalar_text(kn, key, sizeof key))
      return fail(err, errlen, path, kn, "?", "keys must be plain strings");
    int k = 0;
    while (known[k] && strcmp(known[k], key)) ++k;
    if (!known[k])
      return fail(err, errlen, path, kn, key,
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
  const mbdae_ynode *vary = get(root, "vary");
  if (!vary || !is_seq(vary) || count(vary) < 1)
    return fail(err, errlen, path, vary ? vary : root, "vary", "expected a non-empty list of axes");
  if (count(vary) > MBDAE_SWEEP_MAX_KEYS)
    return fail(err, errlen, path, vary, "vary", "at most %d axes", MBDAE_SWEEP_MAX_KEYS);
  st->nruns = 1;
  for (int i = 0; i < count(vary); ++i) {
    int rc = read_axis(path, vary->items[i], &st->axes[i], err, errlen);
    st->naxes = i + 1;
    if (rc) return rc;
    if (axis_index(st, st->axes[i].key) != i)
      return fail(err, errlen, path, vary, "vary.key", "'%s' varied twice", st->axes[i].key);
    st->nruns *= st->axes[i].n;
  }
  if (st->nruns > 100000000L) return fail(err, errlen, path, vary, "vary", "more than 1e8 runs");
  const mbdae_ynode *set = get(root, "set");
  if (set) {
    if (!is_seq(set) || count(set) > MBDAE_SWEEP_MAX_SET)
      return fail(err, errlen, path, set, "set", "expected a list of at most %d \"key=value\"",
                  MBDAE_SWEEP_MAX_SET);
    for (int i = 0; i < count(set); ++i) {
      if (scalar_text(set->items[i], buf, sizeof buf) || !strchr(buf, '='))
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
  const mbdae_ynode *outs = get(root, "outcomes");
  if (!outs || !is_seq(outs) || count(outs) < 1 ||
      count(outs) > MBDAE_SWEEP_MAX_OUTCOMES)
    return fail(err, errlen, path, outs ? outs : root, "outcomes",
                "expected a list of 1 to %d outcomes", MBDAE_SWEEP_MAX_OUTCOMES);
  for (int i = 0; i < count(outs); ++i) {
    const mbdae_ynode *o = outs->items[i];
    mbdae_sweep_outcome *so = &st->outcomes[i];
    so->scale = 1.0;
    if (o && o->kind == MBDAE_YNODE_SCALAR) {
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
  const mbdae_ynode *crit = get(root, "critical");
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
  const mbdae_ynode *pl = get(root, "plots");
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
  const mbdae_ynode *out = get(root, "output");
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
  /* a bare name: here, else a shipped study (`mbdae sweep ravine_study_I`);
   * the base scenario is then relative to the file found */
  char found[4096];
  path = mbdae_study_resolve(path, found, sizeof found);
  if (mbdae_scenario_name_missing(path, "studies", err, errlen)) return MBDAE_ERR_IO;
  st->path = dupstr(path);
  const char *b = strrchr(path, '/');
  st->stem = dupstr(b ? b + 1 : path);
  if (!st->path || !st->stem) return MBDAE_ERR_MEMORY;
  char *dot = strstr(st->stem, ".yaml");
  if (dot) *dot = '\0';
  char *text = NULL; /* checked UTF-8 text without NULs */
  size_t len = 0;
  int rc = mbdae_text_file_read(path, &text, &len, err, errlen);
  if (rc) {
    mbdae_sweep_study_free(st);
    return rc == MBDAE_ERR_MEMORY ? rc : MBDAE_ERR_SCENARIO;
  }
  mbdae_ynode *root = NULL;
  rc = mbdae_yaml_tree_parse(path, "a study file", text, len, &root, err, errlen);
  free(text);
  if (rc) {
    mbdae_sweep_study_free(st);
    return rc;
  }
  rc = load_root(path, root, st, err, errlen);
  mbdae_yaml_tree_free(root);
  if (rc) mbdae_sweep_study_free(st);
  return rc;
}

void mbdae_sweep_run_indices(const mbdae_sweep_study *st, long i, int *idx) {
  for (int a = st->naxes - 1; a >= 0; --a) {
    idx[a] = (int)(i % st->axes[a].n);
    i /= st->axes[a].n;
  }
}
