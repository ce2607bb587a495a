/* yaml_tree.h - one YAML document as a small tree of nodes, built from
 * libyaml's event parser. Aliases stay unexpanded leaves (an alias bomb
 * cannot grow), explicit tags and scalar styles are kept for the schema
 * checks, every node knows its 1-based line, nesting is bounded and a
 * mapping names each key once. */
#ifndef MBDAE_DRIVER_YAML_TREE_H
#define MBDAE_DRIVER_YAML_TREE_H

#include <stddef.h>

/* Deepest nesting of collections accepted (a table is 4 levels deep). */
#define MBDAE_YAML_MAX_DEPTH 64

typedef enum mbdae_ynode_kind {
  MBDAE_YNODE_SCALAR,
  MBDAE_YNODE_SEQUENCE,
  MBDAE_YNODE_MAPPING,
  MBDAE_YNODE_ALIAS /* *name: never resolved */
} mbdae_ynode_kind;

typedef enum mbdae_ynode_style {
  MBDAE_YSTYLE_PLAIN,
  MBDAE_YSTYLE_QUOTED, /* 'single' or "double" */
  MBDAE_YSTYLE_BLOCK   /* | literal or > folded */
} mbdae_ynode_style;

typedef struct mbdae_ynode mbdae_ynode;

typedef struct mbdae_ypair {
  mbdae_ynode *key;
  mbdae_ynode *value;
} mbdae_ypair;

struct mbdae_ynode {
  mbdae_ynode_kind kind;
  mbdae_ynode_style style; /* scalars */
  int line;                /* 1-based; 0 for an empty plain scalar (no text) */
  int tagged;              /* an explicit tag: !!str, !foo, ! */
  char *text;              /* scalar text, NUL-terminated, may hold NULs */
  size_t len;              /* its length in bytes */
  size_t n;                /* sequence items / mapping pairs */
  size_t cap;
  mbdae_ynode **items;     /* sequence */
  mbdae_ypair *pairs;      /* mapping, in file order */
};

/* Parse text[0..len) (UTF-8, already checked) holding at most one YAML
 * document. 0 with *root the document's root, or NULL when the stream holds
 * no document; else MBDAE_ERR_SCENARIO (or MBDAE_ERR_MEMORY) with one line
 * in err naming NAME:LINE: "YAML syntax error: <libyaml's problem>",
 * "duplicate key 'k'", "YAML nesting deeper than 64 levels", or for a
 * second document "<what> is one YAML document (found a second one)". */
int mbdae_yaml_tree_parse(const char *name, const char *what, const char *text,
                          size_t len, mbdae_ynode **root, char *err, size_t errlen);

void mbdae_yaml_tree_free(mbdae_ynode *n);

/* The value of the first pair of map whose key is a scalar (any style, no
 * alias) with text key; NULL when map is not a mapping or has no such key. */
mbdae_ynode *mbdae_yaml_map_get(const mbdae_ynode *map, const char *key);

#endif
