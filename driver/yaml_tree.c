/* yaml_tree.c - build one document's node tree from libyaml's event parser
 * (yaml_parser_parse, not yaml_parser_load: that one expands aliases and
 * hides scalar styles). Built iteratively with an explicit stack of open
 * collections, bounded by MBDAE_YAML_MAX_DEPTH; every node is attached to the
 * tree as soon as it exists, so one free of the root releases everything on
 * every failure path. */
#include "yaml_tree.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "interrupt_poll.h"
#include "mbdae/status.h"
#include "message_line.h"
#include "yaml_value.h"


void mbdae_yaml_tree_free(mbdae_ynode *n) {
  if (!n) return;
  /* recursion is bounded: collections nest at most MBDAE_YAML_MAX_DEPTH deep */
  for (size_t i = 0; i < n->n; ++i) {
    if (n->kind == MBDAE_YNODE_SEQUENCE) {
      mbdae_yaml_tree_free(n->items[i]);
    } else if (n->kind == MBDAE_YNODE_MAPPING) {
      mbdae_yaml_tree_free(n->pairs[i].key);
      mbdae_yaml_tree_free(n->pairs[i].value);
    }
  }
  free(n->items);
  free(n->pairs);
  free(n->text);
  free(n);
}

mbdae_ynode *mbdae_yaml_map_get(const mbdae_ynode *map, const char *key) {
  if (!map || map->kind != MBDAE_YNODE_MAPPING || !key) return NULL;
  size_t klen = strlen(key);
  for (size_t i = 0; i < map->n; ++i) {
    const mbdae_ynode *k = map->pairs[i].key;
    if (k && k->kind == MBDAE_YNODE_SCALAR && k->len == klen && !memcmp(k->text, key, klen))
      return map->pairs[i].value;
  }
  return NULL;
}

/* Same key: scalars by text (whatever the quoting), collections item by
 * item. Aliases are never resolved, so they never compare equal. */
static int same_key(const mbdae_ynode *a, const mbdae_ynode *b) {
  if (!a || !b || a->kind != b->kind || a->n != b->n) return 0;
  switch (a->kind) {
  case MBDAE_YNODE_SCALAR:
    return a->len == b->len && !memcmp(a->text, b->text, a->len);
  case MBDAE_YNODE_SEQUENCE:
    for (size_t i = 0; i < a->n; ++i)
      if (!same_key(a->items[i], b->items[i])) return 0;
    return 1;
  case MBDAE_YNODE_MAPPING:
    for (size_t i = 0; i < a->n; ++i)
      if (!same_key(a->pairs[i].key, b->pairs[i].key) ||
          !same_key(a->pairs[i].value, b->pairs[i].value))
        return 0;
    return 1;
  case MBDAE_YNODE_ALIAS:
    break;
  }
  return 0;
}

/* Hash of a key consistent with same_key (FNV-1a over the structure);
 * aliases never compare equal, so they hash by address. */
static uint64_t key_hash(const mbdae_ynode *k) {
  uint64_t h = 1469598103934665603ULL;
#define MIX(byte) (h = (h ^ (uint64_t)(byte)) * 1099511628211ULL)
  if (!k) return h;
  MIX(k->kind);
  switch (k->kind) {
  case MBDAE_YNODE_SCALAR:
    for (size_t i = 0; i < k->len; ++i) MIX((unsigned char)k->text[i]);
    break;
  case MBDAE_YNODE_SEQUENCE:
    for (size_t i = 0; i < k->n; ++i) h = (h ^ key_hash(k->items[i])) * 1099511628211ULL;
    break;
  case MBDAE_YNODE_MAPPING:
    for (size_t i = 0; i < k->n; ++i) {
      h = (h ^ key_hash(k->pairs[i].key)) * 1099511628211ULL;
      h = (h ^ key_hash(k->pairs[i].value)) * 1099511628211ULL;
    }
    break;
  case MBDAE_YNODE_ALIAS:
    h ^= (uint64_t)(uintptr_t)k;
    break;
  }
#undef MIX
  return h;
}

/* The keys of one open mapping, for the duplicate check in O(1) per key
 * (100,000 keys took 90 s with a pairwise check): open addressing, slots
 * hold pair index + 1, at most half full. */
typedef struct key_set {
  size_t *slot;
  uint64_t *hash; /* per slot */
  size_t cap;     /* a power of two, or 0 */
  size_t count;
} key_set;

static void key_set_clear(key_set *ks) {
  free(ks->slot);
  free(ks->hash);
  memset(ks, 0, sizeof *ks);
}

/* Insert pair i of map (its key just complete); *dup receives the index of
 * an earlier equal key, or SIZE_MAX. 0, or -1 when out of memory. */
static int key_set_add(key_set *ks, const mbdae_ynode *map, size_t i, size_t *dup) {
  *dup = SIZE_MAX;
  if (2 * (ks->count + 1) > ks->cap) {
    size_t cap = ks->cap ? 2 * ks->cap : 16;
    if (cap > SIZE_MAX / (2 * sizeof(uint64_t))) return -1;
    size_t *slot = calloc(cap, sizeof *slot);
    uint64_t *hash = calloc(cap, sizeof *hash);
    if (!slot || !hash) {
      free(slot);
      free(hash);
      return -1;
    }
    for (size_t j = 0; j < ks->cap; ++j) {
      if (!ks->slot[j]) continue;
      size_t q = (size_t)ks->hash[j] & (cap - 1);
      while (slot[q]) q = (q + 1) & (cap - 1);
      slot[q] = ks->slot[j];
      hash[q] = ks->hash[j];
    }
    free(ks->slot);
    free(ks->hash);
    ks->slot = slot, ks->hash = hash, ks->cap = cap;
  }
  const mbdae_ynode *key = map->pairs[i].key;
  uint64_t h = key_hash(key);
  size_t q = (size_t)h & (ks->cap - 1);
  for (; ks->slot[q]; q = (q + 1) & (ks->cap - 1))
    if (ks->hash[q] == h && same_key(map->pairs[ks->slot[q] - 1].key, key)) {
      *dup = ks->slot[q] - 1;
      return 0;
    }
  ks->slot[q] = i + 1;
  ks->hash[q] = h;
  ks->count++;
  return 0;
}

/* Room for one more item or pair in a collection. */
static int grow(mbdae_ynode *c) {
  if (c->n < c->cap) return 0;
  size_t cap = c->cap ? 2 * c->cap : 4;
  size_t size = c->kind == MBDAE_YNODE_SEQUENCE ? sizeof *c->items : sizeof *c->pairs;
  if (cap > SIZE_MAX / size) return -1;
  void *p = realloc(c->kind == MBDAE_YNODE_SEQUENCE ? (void *)c->items : (void *)c->pairs,
                    cap * size);
  if (!p) return -1;
  if (c->kind == MBDAE_YNODE_SEQUENCE) c->items = p;
  else c->pairs = p;
  c->cap = cap;
  return 0;
}

typedef struct builder {
  const char *name;
  mbdae_ynode *root;
  mbdae_ynode *open[MBDAE_YAML_MAX_DEPTH]; /* collections being filled */
  key_set keys[MBDAE_YAML_MAX_DEPTH];      /* the keys of the open mappings */
  int depth;
} builder;

/* Hang node under the innermost open collection (or make it the root); on
 * failure node is freed. A mapping takes a key, then its value. */
static int attach(builder *b, mbdae_ynode *node, char *err, size_t errlen) {
  if (b->depth == 0) {
    b->root = node;
    return MBDAE_OK;
  }
  mbdae_ynode *top = b->open[b->depth - 1];
  if (top->kind == MBDAE_YNODE_MAPPING && top->n > 0 && !top->pairs[top->n - 1].value) {
    mbdae_ypair *p = &top->pairs[top->n - 1];
    p->value = node;
    size_t dup;
    if (key_set_add(&b->keys[b->depth - 1], top, top->n - 1, &dup))
      return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", b->name);
    if (dup != SIZE_MAX) {
      int line = mbdae_yaml_line(p->key, mbdae_yaml_line(node, 1));
      if (p->key->kind == MBDAE_YNODE_SCALAR)
        return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
                   "%s:%d: duplicate key '%.80s' (a mapping names each key once)", b->name,
                   line, p->key->text);
      return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
                 "%s:%d: duplicate key (a mapping names each key once)", b->name, line);
    }
    return MBDAE_OK;
  }
  if (grow(top)) {
    mbdae_yaml_tree_free(node);
    return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", b->name);
  }
  if (top->kind == MBDAE_YNODE_SEQUENCE) {
    top->items[top->n++] = node;
  } else {
    top->pairs[top->n].key = node;
    top->pairs[top->n].value = NULL;
    ++top->n;
  }
  return MBDAE_OK;
}

/* A node for a scalar, alias or collection-start event; NULL: no memory. */
static mbdae_ynode *node_from(const yaml_event_t *ev) {
  mbdae_ynode *n = calloc(1, sizeof *n);
  if (!n) return NULL;
  n->line = ev->start_mark.line < (size_t)INT_MAX ? (int)ev->start_mark.line + 1 : INT_MAX;
  switch (ev->type) {
  case YAML_SCALAR_EVENT: {
    const yaml_scalar_style_t st = ev->data.scalar.style;
    n->kind = MBDAE_YNODE_SCALAR;
    n->style = st == YAML_SINGLE_QUOTED_SCALAR_STYLE || st == YAML_DOUBLE_QUOTED_SCALAR_STYLE
                   ? MBDAE_YSTYLE_QUOTED
               : st == YAML_LITERAL_SCALAR_STYLE || st == YAML_FOLDED_SCALAR_STYLE
                   ? MBDAE_YSTYLE_BLOCK
                   : MBDAE_YSTYLE_PLAIN;
    n->tagged = ev->data.scalar.tag != NULL;
    n->len = ev->data.scalar.length;
    n->text = malloc(n->len + 1);
    if (!n->text) {
      free(n);
      return NULL;
    }
    if (n->len) memcpy(n->text, ev->data.scalar.value, n->len);
    n->text[n->len] = '\0';
    /* an empty plain scalar is an absent value: it has no text to point at */
    if (n->style == MBDAE_YSTYLE_PLAIN && n->len == 0) n->line = 0;
    break;
  }
  case YAML_ALIAS_EVENT:
    n->kind = MBDAE_YNODE_ALIAS;
    break;
  case YAML_SEQUENCE_START_EVENT:
    n->kind = MBDAE_YNODE_SEQUENCE;
    n->tagged = ev->data.sequence_start.tag != NULL;
    break;
  case YAML_MAPPING_START_EVENT:
    n->kind = MBDAE_YNODE_MAPPING;
    n->tagged = ev->data.mapping_start.tag != NULL;
    break;
  default:
    break;
  }
  return n;
}

/* Line breaks in text[0..end) as libyaml counts them (YAML 1.1): LF, CR,
 * CR LF, U+0085, U+2028, U+2029. */
static size_t count_breaks(const char *text, size_t end) {
  const unsigned char *t = (const unsigned char *)text;
  size_t n = 0;
  for (size_t i = 0; i < end; ++i) {
    if (t[i] == '\n') ++n;
    else if (t[i] == '\r' && !(i + 1 < end && t[i + 1] == '\n')) ++n;
    else if (t[i] == 0xc2 && i + 1 < end && t[i + 1] == 0x85) ++n;
    else if (t[i] == 0xe2 && i + 2 < end && t[i + 1] == 0x80 && (t[i + 2] | 1) == 0xa9) ++n;
  }
  return n;
}

/* 1-based line of the parser's problem. At the end of a text without a
 * final line break libyaml counts one line more than there is: clamped. */
static int problem_line(const yaml_parser_t *p, const char *text, size_t len) {
  size_t l;
  if (p->error == YAML_READER_ERROR) /* only an offset is known */
    l = count_breaks(text, p->problem_offset < len ? p->problem_offset : len);
  else {
    l = count_breaks(text, len);
    if (p->problem_mark.line < l) l = p->problem_mark.line;
  }
  return l < (size_t)INT_MAX ? (int)l + 1 : INT_MAX;
}

/* The parser's failure as one line; the context ("while scanning a quoted
 * scalar") is named when it began on another line. */
static int syntax_error(const yaml_parser_t *p, const char *name, const char *text, size_t len,
                        char *err, size_t errlen) {
  if (p->error == YAML_MEMORY_ERROR)
    return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", name);
  int line = problem_line(p, text, len);
  const char *problem = p->problem ? p->problem : "unreadable";
  size_t cl = p->context_mark.line;
  int cline = cl < (size_t)INT_MAX ? (int)cl + 1 : INT_MAX;
  if (p->context && p->error != YAML_READER_ERROR && cline != line)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:%d: YAML syntax error: %s (%s, line %d)",
               name, line, problem, p->context, cline);
  return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:%d: YAML syntax error: %s", name, line,
             problem);
}

/* Handle one event. *docs counts documents begun; the second one is parsed
 * too (a syntax error in it is reported as such), then refused by line. */
static int on_event(builder *b, const yaml_event_t *ev, const char *what, int *docs,
                    mbdae_ynode **first, char *err, size_t errlen) {
  switch (ev->type) {
  case YAML_DOCUMENT_START_EVENT:
    if (++*docs == 2) { /* keep the first document aside, build the second */
      *first = b->root;
      b->root = NULL;
    }
    return MBDAE_OK;
  case YAML_DOCUMENT_END_EVENT:
    if (*docs >= 2)
      return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO,
                 "%s:%d: %s is one YAML document (found a second one)", b->name,
                 mbdae_yaml_line(b->root, 1), what);
    return MBDAE_OK;
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT:
    if (b->depth > 0) key_set_clear(&b->keys[--b->depth]);
    return MBDAE_OK;
  case YAML_SCALAR_EVENT:
  case YAML_ALIAS_EVENT:
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT:
    break;
  default:
    return MBDAE_OK;
  }
  int opens = ev->type == YAML_SEQUENCE_START_EVENT || ev->type == YAML_MAPPING_START_EVENT;
  if (opens && b->depth >= MBDAE_YAML_MAX_DEPTH)
    return mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:%d: YAML nesting deeper than %d levels",
               b->name, (int)ev->start_mark.line + 1, MBDAE_YAML_MAX_DEPTH);
  mbdae_ynode *n = node_from(ev);
  if (!n) return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", b->name);
  int rc = attach(b, n, err, errlen);
  if (rc) return rc;
  if (opens) b->open[b->depth++] = n;
  return MBDAE_OK;
}

int mbdae_yaml_tree_parse(const char *name, const char *what, const char *text,
                          size_t len, mbdae_ynode **root, char *err, size_t errlen) {
  *root = NULL;
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return mbdae_message_line(err, errlen, MBDAE_ERR_MEMORY, "%s: out of memory", name);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  builder b;
  memset(&b, 0, sizeof b);
  b.name = name;
  mbdae_ynode *first = NULL;
  int docs = 0, rc = MBDAE_OK;
  for (unsigned long nev = 1;; ++nev) {
    /* a 256 MiB file parses for a minute: SIGINT/SIGTERM end it */
    if (nev % 4096 == 0 && mbdae_interrupt_poll()) {
      rc = mbdae_message_line(err, errlen, MBDAE_STOPPED,
                              "%s: interrupted by a signal while loading %s", name, what);
      break;
    }
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      rc = syntax_error(&parser, name, text, len, err, errlen);
      break;
    }
    int end = ev.type == YAML_STREAM_END_EVENT;
    rc = on_event(&b, &ev, what, &docs, &first, err, errlen);
    yaml_event_delete(&ev);
    if (rc || end) break;
  }
  yaml_parser_delete(&parser);
  for (int d = 0; d < MBDAE_YAML_MAX_DEPTH; ++d) key_set_clear(&b.keys[d]);
  if (docs >= 2) { /* the second document's root is only for its line */
    mbdae_yaml_tree_free(b.root);
    b.root = first;
    if (!rc) /* libyaml ends every document before the stream: unreachable */
      rc = mbdae_message_line(err, errlen, MBDAE_ERR_SCENARIO, "%s:1: %s is one YAML document", name, what);
  }
  if (rc) {
    mbdae_yaml_tree_free(b.root);
    return rc;
  }
  *root = b.root;
  return MBDAE_OK;
}
