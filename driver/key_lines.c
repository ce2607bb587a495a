/* key_lines.c - a small append-only map from scenario keys to the place
 * (line or override) they were given. */
#include "key_lines.h"

#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

int mbdae_key_lines_add(mbdae_key_lines *kl, const char *key, int line,
                        const char *origin) {
  if (kl->n == kl->cap) {
    int cap = kl->cap ? 2 * kl->cap : 32;
    mbdae_key_line *v = realloc(kl->v, (size_t)cap * sizeof *v);
    if (!v) return MBDAE_ERR_MEMORY;
    kl->v = v;
    kl->cap = cap;
  }
  mbdae_key_line *e = &kl->v[kl->n];
  e->key = dup_str(key);
  e->origin = origin ? dup_str(origin) : NULL;
  if (!e->key || (origin && !e->origin)) {
    free(e->key);
    free(e->origin);
    return MBDAE_ERR_MEMORY;
  }
  e->line = line;
  kl->n++;
  return MBDAE_OK;
}

int mbdae_key_lines_override(mbdae_key_lines *kl, const char *key,
                             const char *origin) {
  size_t klen = strlen(key);
  int w = 0;
  for (int i = 0; i < kl->n; ++i) {
    mbdae_key_line *e = &kl->v[i];
    int same = strncmp(e->key, key, klen) == 0 &&
               (e->key[klen] == '\0' || e->key[klen] == '[');
    if (same) {
      free(e->key);
      free(e->origin);
    } else {
      kl->v[w++] = *e;
    }
  }
  kl->n = w;
  return mbdae_key_lines_add(kl, key, 0, origin);
}

const mbdae_key_line *mbdae_key_lines_find(const mbdae_key_lines *kl,
                                           const char *key) {
  for (int i = kl->n - 1; i >= 0; --i)
    if (strcmp(kl->v[i].key, key) == 0) return &kl->v[i];
  return NULL;
}

int mbdae_key_lines_copy(mbdae_key_lines *dst, const mbdae_key_lines *src) {
  memset(dst, 0, sizeof *dst);
  for (int i = 0; i < src->n; ++i) {
    int rc = mbdae_key_lines_add(dst, src->v[i].key, src->v[i].line, src->v[i].origin);
    if (rc) {
      mbdae_key_lines_free(dst);
      return rc;
    }
  }
  return MBDAE_OK;
}

void mbdae_key_lines_free(mbdae_key_lines *kl) {
  if (!kl) return;
  for (int i = 0; i < kl->n; ++i) {
    free(kl->v[i].key);
    free(kl->v[i].origin);
  }
  free(kl->v);
  memset(kl, 0, sizeof *kl);
}
