/* yaml_value.c - typed reads of YAML tree nodes (numbers, integers, booleans,
 * strings) with the reason of a rejection, for scenario schema checks. */
#include "yaml_value.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

static int fail(char *why, size_t whylen, const char *msg) {
  if (why && whylen) snprintf(why, whylen, "%s", msg);
  return MBDAE_ERR_SCENARIO;
}

int mbdae_yaml_line(const mbdae_ynode *n, int fallback) {
  if (!n) return fallback;
  switch (n->kind) {
  case MBDAE_YNODE_SCALAR:
  case MBDAE_YNODE_ALIAS:
    return n->line > 0 ? n->line : fallback;
  case MBDAE_YNODE_SEQUENCE:
    return n->n ? mbdae_yaml_line(n->items[0], fallback) : fallback;
  case MBDAE_YNODE_MAPPING:
    return n->n ? mbdae_yaml_line(n->pairs[0].key, fallback) : fallback;
  }
  return fallback;
}

int mbdae_yaml_is_null(const mbdae_ynode *n) {
  return !n || (n->kind == MBDAE_YNODE_SCALAR && n->style == MBDAE_YSTYLE_PLAIN && n->len == 0);
}

int mbdae_yaml_is_collection(const mbdae_ynode *n) {
  return n && (n->kind == MBDAE_YNODE_SEQUENCE || n->kind == MBDAE_YNODE_MAPPING);
}

const char *mbdae_yaml_what(const mbdae_ynode *n) {
  if (!n) return "nothing";
  switch (n->kind) {
  case MBDAE_YNODE_SEQUENCE: return "a sequence";
  case MBDAE_YNODE_MAPPING: return "a mapping";
  case MBDAE_YNODE_ALIAS: return "an alias";
  case MBDAE_YNODE_SCALAR: break;
  }
  if (mbdae_yaml_is_null(n)) return "an empty value";
  if (n->style == MBDAE_YSTYLE_QUOTED) return "a quoted string";
  if (n->style == MBDAE_YSTYLE_BLOCK) return "a block string";
  return "a scalar";
}

int mbdae_yaml_check_plain(const mbdae_ynode *n, char *why, size_t whylen) {
  if (!n) return fail(why, whylen, "missing value");
  if (n->tagged)
    return fail(why, whylen, "explicit YAML tags (!!str, !foo) are not supported");
  if (n->kind == MBDAE_YNODE_ALIAS)
    return fail(why, whylen, "YAML aliases (*name) are not supported");
  if (mbdae_yaml_is_null(n)) return fail(why, whylen, "missing value");
  return MBDAE_OK;
}

/* The plain-scalar text of n in buf (NUL-terminated), or an error. */
static int plain_text(const mbdae_ynode *n, const char *expected, char *buf,
                      size_t buflen, char *why, size_t whylen) {
  int rc = mbdae_yaml_check_plain(n, why, whylen);
  if (rc) return rc;
  if (n->kind != MBDAE_YNODE_SCALAR || n->style != MBDAE_YSTYLE_PLAIN) {
    if (why && whylen)
      snprintf(why, whylen, "expected %s, got %s", expected, mbdae_yaml_what(n));
    return MBDAE_ERR_SCENARIO;
  }
  size_t len = n->len;
  if (len >= buflen) {
    if (why && whylen) snprintf(why, whylen, "expected %s, got a %zu-character scalar", expected, len);
    return MBDAE_ERR_SCENARIO;
  }
  memcpy(buf, n->text, len);
  buf[len] = '\0';
  return MBDAE_OK;
}

int mbdae_text_number(const char *s, double *v, char *why, size_t whylen) {
  /* YAML spellings of non-finite values, and C's, are rejected by name. */
  const char *p = s;
  if (*p == '+' || *p == '-') ++p;
  {
    static const char *const names[] = {".nan", ".inf", "nan", "inf", "infinity", NULL};
    for (int i = 0; names[i]; ++i) {
      size_t k = strlen(names[i]), j = 0;
      while (j < k && p[j] && (p[j] | 0x20) == names[i][j]) ++j;
      if (j == k && p[j] == '\0') {
        if (why && whylen) snprintf(why, whylen, "must be a finite number (got %s)", s);
        return MBDAE_ERR_SCENARIO;
      }
    }
  }
  if (*s == '\0' || *s == ' ' || *s == '\t') {
    if (why && whylen) snprintf(why, whylen, "expected a number, got '%s'", s);
    return MBDAE_ERR_SCENARIO;
  }
  errno = 0;
  char *end = NULL;
  double x = strtod(s, &end);
  if (end == s || *end != '\0') {
    if (why && whylen) snprintf(why, whylen, "expected a number, got '%s'", s);
    return MBDAE_ERR_SCENARIO;
  }
  if (!isfinite(x)) {
    if (why && whylen) snprintf(why, whylen, "must be a finite number (got %s, which overflows a double)", s);
    return MBDAE_ERR_SCENARIO;
  }
  *v = x; /* an underflow to 0 or a subnormal is a finite value: accepted */
  return MBDAE_OK;
}

int mbdae_yaml_number(const mbdae_ynode *n, double *v, char *why, size_t whylen) {
  char buf[128];
  int rc = plain_text(n, "a number", buf, sizeof buf, why, whylen);
  return rc ? rc : mbdae_text_number(buf, v, why, whylen);
}

int mbdae_yaml_integer(const mbdae_ynode *n, long lo, long hi, long *v, char *why,
                       size_t whylen) {
  char buf[128];
  int rc = plain_text(n, "an integer", buf, sizeof buf, why, whylen);
  if (rc) return rc;
  errno = 0;
  char *end = NULL;
  long x = strtol(buf, &end, 10);
  if (end == buf || *end != '\0' || buf[0] == ' ') {
    if (why && whylen) snprintf(why, whylen, "expected an integer, got '%s'", buf);
    return MBDAE_ERR_SCENARIO;
  }
  if (errno == ERANGE || x < lo || x > hi) {
    if (why && whylen) snprintf(why, whylen, "must be in [%ld, %ld] (got %s)", lo, hi, buf);
    return MBDAE_ERR_SCENARIO;
  }
  *v = x;
  return MBDAE_OK;
}

int mbdae_yaml_bool(const mbdae_ynode *n, int *v, char *why, size_t whylen) {
  char buf[16];
  int rc = plain_text(n, "true or false", buf, sizeof buf, why, whylen);
  if (rc == MBDAE_OK) {
    if (!strcmp(buf, "true") || !strcmp(buf, "True") || !strcmp(buf, "TRUE")) { *v = 1; return MBDAE_OK; }
    if (!strcmp(buf, "false") || !strcmp(buf, "False") || !strcmp(buf, "FALSE")) { *v = 0; return MBDAE_OK; }
    if (why && whylen) snprintf(why, whylen, "expected true or false, got '%s'", buf);
    return MBDAE_ERR_SCENARIO;
  }
  if (why && whylen && n && n->kind == MBDAE_YNODE_SCALAR && !n->tagged &&
      !mbdae_yaml_is_null(n))
    snprintf(why, whylen, "expected true or false, got %s", mbdae_yaml_what(n));
  return MBDAE_ERR_SCENARIO;
}

int mbdae_yaml_string(const mbdae_ynode *n, char **s, char *why, size_t whylen) {
  if (n && n->kind == MBDAE_YNODE_SCALAR && !n->tagged && n->style != MBDAE_YSTYLE_PLAIN) {
    /* a quoted "" is an explicit empty string */
  } else {
    int rc = mbdae_yaml_check_plain(n, why, whylen);
    if (rc) return rc;
    if (n->kind != MBDAE_YNODE_SCALAR) {
      if (why && whylen) snprintf(why, whylen, "expected a string, got %s", mbdae_yaml_what(n));
      return MBDAE_ERR_SCENARIO;
    }
  }
  size_t len = n->len;
  char *c = malloc(len + 1);
  if (!c) return fail(why, whylen, "out of memory");
  if (len) memcpy(c, n->text, len);
  c[len] = '\0';
  if (strlen(c) != len) {
    free(c);
    return fail(why, whylen, "strings must not contain NUL characters");
  }
  *s = c;
  return MBDAE_OK;
}
