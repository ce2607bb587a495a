/* yaml_value.h - typed reads of YAML tree nodes (yaml_tree.h) with one-line
 * reasons. Every reader returns 0 on success or MBDAE_ERR_SCENARIO with `why` filled
 * ("expected a number, got a mapping"); nothing is written on failure. */
#ifndef MBDAE_DRIVER_YAML_VALUE_H
#define MBDAE_DRIVER_YAML_VALUE_H

#include <stddef.h>

#include "yaml_tree.h"

/* 1-based line of a node (of its first scalar for collections), or
 * `fallback` when the node has no position (an empty value). */
int mbdae_yaml_line(const mbdae_ynode *n, int fallback);

/* A short description of what the node is, for "got ..." messages. */
const char *mbdae_yaml_what(const mbdae_ynode *n);

/* Is n an absent value: NULL or an empty plain scalar (`key:` with nothing
 * after it)? `~` and `null` are text like any other (mbdae reads scalars
 * itself; no YAML 1.1/1.2 type resolution). */
int mbdae_yaml_is_null(const mbdae_ynode *n);

/* A sequence or a mapping (an alias is neither: it is refused as an alias). */
int mbdae_yaml_is_collection(const mbdae_ynode *n);

/* A node carrying a value at all: not NULL, not an empty scalar, not an
 * alias, no explicit tag. Fills why otherwise. */
int mbdae_yaml_check_plain(const mbdae_ynode *n, char *why, size_t whylen);

/* A finite number written as a plain scalar (123, -1.5e-3, 0x10). .nan,
 * .inf and values that overflow a double (1e999) are rejected. */
int mbdae_yaml_number(const mbdae_ynode *n, double *v, char *why, size_t whylen);
/* A decimal integer in [lo, hi]. */
int mbdae_yaml_integer(const mbdae_ynode *n, long lo, long hi, long *v, char *why,
                       size_t whylen);
/* true / false (also True, TRUE, False, FALSE). */
int mbdae_yaml_bool(const mbdae_ynode *n, int *v, char *why, size_t whylen);
/* Any scalar (plain or quoted) as a malloc'd NUL-terminated copy. */
int mbdae_yaml_string(const mbdae_ynode *n, char **s, char *why, size_t whylen);

/* The same conversions on raw text (command-line overrides). */
int mbdae_text_number(const char *s, double *v, char *why, size_t whylen);

#endif
