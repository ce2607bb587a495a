/* registry.c - the model kinds known to the driver: the built-in table
 * (one line per kind, each defined in its own models/<name>/ file) and the
 * kinds registered at run time by a user's program or a plug-in
 * (mbdae_model_kind_register). The scenario loader, `mbdae list`, the
 * writers, sweeps and checkpoints see both alike. */
#include <stdio.h>
#include <string.h>

#include "mbdae/model.h"
#include "mbdae/status.h"

/* MODEL-KIND-DECLARATIONS (keep this marker) */
extern const mbdae_model_kind mbdae_model_net_capture;
extern const mbdae_model_kind mbdae_model_wheel;
extern const mbdae_model_kind mbdae_model_string_net;
extern const mbdae_model_kind mbdae_model_rover;
extern const mbdae_model_kind mbdae_model_ravine;
extern const mbdae_model_kind mbdae_model_billiard;
extern const mbdae_model_kind mbdae_model_bouncing_ball;
extern const mbdae_model_kind mbdae_model_pendulum;
extern const mbdae_model_kind mbdae_model_tow;

const mbdae_model_kind *const mbdae_model_kinds[] = {
  /* MODEL-KIND-ENTRIES (keep this marker) */
  &mbdae_model_net_capture,
  &mbdae_model_wheel,
  &mbdae_model_string_net,
  &mbdae_model_rover,
  &mbdae_model_ravine,
  &mbdae_model_billiard,
  &mbdae_model_bouncing_ball,
  &mbdae_model_pendulum,
  &mbdae_model_tow,
  NULL
};
enum { NBUILTIN = (int)(sizeof mbdae_model_kinds / sizeof mbdae_model_kinds[0]) - 1 };

/* Registered kinds, in registration order (tables owned by the caller). */
static const mbdae_model_kind *registered[MBDAE_MODEL_KINDS_MAX_REGISTERED];
static int nregistered;

int mbdae_model_kind_count(void) { return NBUILTIN + nregistered; }

const mbdae_model_kind *mbdae_model_kind_at(int i) {
  if (i < 0) return NULL;
  if (i < NBUILTIN) return mbdae_model_kinds[i];
  i -= NBUILTIN;
  return i < nregistered ? registered[i] : NULL;
}

const mbdae_model_kind *mbdae_model_kind_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; i < mbdae_model_kind_count(); ++i) {
    const mbdae_model_kind *k = mbdae_model_kind_at(i);
    if (strcmp(k->name, name) == 0) return k;
  }
  return NULL;
}

static int reject(char *err, size_t errlen, const char *name, const char *why) {
  if (err && errlen)
    snprintf(err, errlen, "model kind '%s': %s", name ? name : "(no name)", why);
  return MBDAE_ERR_ARGUMENT;
}

/* A scenario's `model:` value and the summary.json key: [a-z][a-z0-9_]*. */
static int good_name(const char *s) {
  if (!s || !(*s >= 'a' && *s <= 'z')) return 0;
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')) return 0;
  return 1;
}

/* The schema's entries must fit the parameter struct the driver fills. */
static const char *bad_schema(const mbdae_model_kind *k) {
  if (k->nparams < 0 || (k->nparams > 0 && !k->params)) return "nparams and params disagree";
  for (int i = 0; i < k->nparams; ++i) {
    const mbdae_param_spec *p = &k->params[i];
    size_t width;
    switch (p->type) {
    case MBDAE_PARAM_DOUBLE: width = sizeof(double); break;
    case MBDAE_PARAM_INT:
    case MBDAE_PARAM_BOOL: width = sizeof(int); break;
    case MBDAE_PARAM_ENUM:
      if (!p->choices || !p->choices[0]) return "an enum parameter has no choices";
      width = sizeof(int);
      break;
    case MBDAE_PARAM_VEC:
      if (p->len < 1) return "a vec parameter has no length";
      width = (size_t)p->len * sizeof(double);
      break;
    case MBDAE_PARAM_TABLE:
      if (p->len < 1) return "a table parameter has no columns";
      if (p->count_offset > k->params_size || k->params_size - p->count_offset < sizeof(int))
        return "a table's row count lies outside params_size";
      width = sizeof(double *);
      break;
    default: return "a parameter has an unknown type";
    }
    if (!p->key || !*p->key) return "a parameter has no key";
    if (p->offset > k->params_size || k->params_size - p->offset < width)
      return "a parameter lies outside params_size";
  }
  return NULL;
}

int mbdae_model_kind_register(const mbdae_model_kind *kind, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!kind) return reject(err, errlen, NULL, "no table");
  for (int i = 0; i < nregistered; ++i)
    if (registered[i] == kind) return MBDAE_OK; /* the same table again */
  if (!good_name(kind->name))
    return reject(err, errlen, kind->name, "the name must be [a-z][a-z0-9_]*");
  if (mbdae_model_kind_find(kind->name))
    return reject(err, errlen, kind->name, "a kind of that name exists");
  if (!kind->create || !kind->destroy || !kind->problem || !kind->initial_state ||
      !kind->columns || !kind->output_row)
    return reject(err, errlen, kind->name,
                  "create, destroy, problem, initial_state, columns and output_row are required");
  if (kind->params_size == 0 && kind->nparams > 0)
    return reject(err, errlen, kind->name, "parameters without params_size");
  const char *why = bad_schema(kind);
  if (why) return reject(err, errlen, kind->name, why);
  if (kind->nplots < 0 || (kind->nplots > 0 && !kind->plots))
    return reject(err, errlen, kind->name, "nplots and plots disagree");
  int nstate = !!kind->state_size + !!kind->state_save + !!kind->state_load;
  if (nstate != 0 && nstate != 3)
    return reject(err, errlen, kind->name,
                  "state_size, state_save and state_load go together (or all NULL)");
  if (nstate && kind->state_fields)
    return reject(err, errlen, kind->name,
                  "state_fields or state_size/state_save/state_load, not both");
  if (nregistered == MBDAE_MODEL_KINDS_MAX_REGISTERED)
    return reject(err, errlen, kind->name, "too many registered kinds");
  registered[nregistered++] = kind;
  return MBDAE_OK;
}
