/* kind_state.c - checkpoints of a model's internal state (doc/checkpoint.md):
 * the byte cursor a kind's field list runs on, and the kind-independent
 * size/save/load that run one field list to count, save and load. */
#include <string.h>

#include "mbdae/model.h"
#include "mbdae/status.h"

/* A cursor with neither w nor r counts: the dry run behind the size. */
static int counting(const mbdae_state_cursor *c) { return !c->w && !c->r; }

void mbdae_state_put(mbdae_state_cursor *c, const void *src, size_t n) {
  if (counting(c)) {
    c->pos += n;
    return;
  }
  if (c->failed || !c->w || n > c->size - c->pos) {
    c->failed = 1;
    return;
  }
  if (n) memcpy(c->w + c->pos, src, n);
  c->pos += n;
}

void mbdae_state_get(mbdae_state_cursor *c, void *dst, size_t n) {
  if (counting(c)) {
    c->pos += n;
    return;
  }
  if (c->failed || !c->r || n > c->size - c->pos) {
    c->failed = 1;
    return;
  }
  if (n) memcpy(dst, c->r + c->pos, n);
  c->pos += n;
}

void mbdae_state_io(mbdae_state_cursor *c, void *p, size_t n) {
  if (c->r) mbdae_state_get(c, p, n);
  else mbdae_state_put(c, p, n);
}

int mbdae_state_done(const mbdae_state_cursor *c) {
  return (!c->failed && c->pos == c->size) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

int mbdae_model_state_supported(const mbdae_model_kind *kind) {
  return kind && (kind->state_fields ||
                  (kind->state_size && kind->state_save && kind->state_load));
}

/* The field list only reads the model when the cursor counts or saves. */
static mbdae_model *fields_model(const mbdae_model *model) { return (mbdae_model *)model; }

size_t mbdae_model_state_size(const mbdae_model_kind *kind, const mbdae_model *model) {
  if (!kind->state_fields) return kind->state_size ? kind->state_size(model) : 0;
  mbdae_state_cursor c = {.w = NULL, .r = NULL};
  kind->state_fields(fields_model(model), &c);
  return c.pos;
}

int mbdae_model_state_save(const mbdae_model_kind *kind, const mbdae_model *model, void *buf,
                           size_t size) {
  if (!mbdae_model_state_supported(kind) || (size && !buf)) return MBDAE_ERR_ARGUMENT;
  if (!kind->state_fields) return kind->state_save(model, buf, size);
  unsigned char none;
  mbdae_state_cursor c = {.w = size ? buf : &none, .size = size};
  kind->state_fields(fields_model(model), &c);
  return mbdae_state_done(&c);
}

int mbdae_model_state_load(const mbdae_model_kind *kind, mbdae_model *model, const void *buf,
                           size_t size) {
  if (!mbdae_model_state_supported(kind) || (size && !buf)) return MBDAE_ERR_ARGUMENT;
  int rc;
  if (!kind->state_fields) {
    rc = kind->state_load(model, buf, size);
  } else {
    /* a state of another size belongs to another model: refuse before any
     * field is overwritten */
    if (size != mbdae_model_state_size(kind, model)) return MBDAE_ERR_ARGUMENT;
    static const unsigned char none = 0;
    mbdae_state_cursor c = {.r = size ? buf : &none, .size = size};
    kind->state_fields(model, &c);
    rc = mbdae_state_done(&c);
  }
  /* trusted only past the checksum: the kind checks what it got */
  if (rc == MBDAE_OK && kind->state_check) rc = kind->state_check(model);
  return rc;
}
