/* yaml_value.c - typed reads of libfyaml nodes (numbers, integers, booleans,
 * strings) with the reason of a rejection, for scenario schema checks. */
#include "yaml_value.h"

#include <errno.h>
#include <libfyaml.h>
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

int mbdae_yaml_line(struct fy_node *n, int fallback) {
  if (!n) return fallback;
  switch (fy_node_get_type(n)) {
  case FYNT_SCALAR: {
    struct fy_token *tok = fy_node_get_scalar_token(n);
    const struct fy_mark *m = tok ? fy_token_start_mark(tok) : NULL;
    return m ? m->line + 1 : fallback;
  }
  case FYNT_SEQUENCE: {
    void *it = NULL;
    struct fy_node *c = fy_node_sequence_iterate(n, &it);
    return c ? mbdae_yaml_line(c, fallback) : fallback;
  }
  case FYNT_MAPPING: {
    void *it = NULL;
    struct fy_node_pair *p = fy_node_mapping_iterate(n, &it);
    return p ? mbdae_yaml_line(fy_node_pair_key(p), fallback) : fallback;
  }
  }
  return fallback;
}

const char *mbdae_yaml_what(struct fy_node *n) {
  if (!n) return "nothing";
  switch (fy_node_get_type(n)) {
  case FYNT_SEQUENCE: return "a sequence";
  case FYNT_MAPPING: return "a mapping";
  case FYNT_SCALAR: break;
  }
  if (fy_node_is_alias(n)) return "an alias";
  if (fy_node_is_null(n)) return "an empty value";
  enum fy_node_style st = fy_node_get_style(n);
  if (st == FYNS_SINGLE_QUOTED || st == FYNS_DOUBLE_QUOTED) return "a quoted string";
  if (st == FYNS_LITERAL || st == FYNS_FOLDED) return "a block string";
  return "a scalar";
}

int mbdae_yaml_check_plain(struct fy_node *n, char *why, size_t whylen) {
  if (!n) return fail(why, whylen, "missing value");
  if (fy_node_get_tag_token(n))
    return fail(why, whylen, "explicit YAML tags (!!str, !foo) are not supported");
  if (fy_node_get_type(n) == FYNT_SCALAR) {
    if (fy_node_is_alias(n))
      return fail(why, whylen, "YAML aliases (*name) are not supported");
    size_t len = 0;
    const char *s = fy_node_get_scalar(n, &len);
    if (fy_node_get_style(n) == FYNS_PLAIN && (!s || len == 0 || fy_node_is_null(n)))
      return fail(why, whylen, "missing value");
  }
  return MBDAE_OK;
}

/* The plain-scalar text of n in buf (NUL-terminated), or an error. */
static int plain_text(struct fy_node *n, const char *expected, char *buf,
                      size_t buflen, char *why, size_t whylen) {
  int rc = mbdae_yaml_check_plain(n, why, whylen);
  if (rc) return rc;
  if (fy_node_get_type(n) != FYNT_SCALAR || fy_node_get_style(n) != FYNS_PLAIN) {
    if (why && whylen)
      snprintf(why, whylen, "expected %s, got %s", expected, mbdae_yaml_what(n));
    return MBDAE_ERR_SCENARIO;
  }
  size_t len = 0;
  const char *s = fy_node_get_scalar(n, &len);
  if (len >= buflen) {
    if (why && whylen) snprintf(why, whylen, "expected %s, got a %zu-character scalar", expected, len);
    return MBDAE_ERR_SCENARIO;
  }
  memcpy(buf, s, len);
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

int mbdae_yaml_number(struct fy_node *n, double *v, char *why, size_t whylen) {
  char buf[128];
  int rc = plain_text(n, "a number", buf, sizeof buf, why, whylen);
  return rc ? rc : mbdae_text_number(buf, v, why, whylen);
}

int mbdae_yaml_integer(struct fy_node *n, long lo, long hi, long *v, char *why,
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

int mbdae_yaml_bool(struct fy_node *n, int *v, char *why, size_t whylen) {
  char buf[16];
  int rc = plain_text(n, "true or false", buf, sizeof buf, why, whylen);
  if (rc == MBDAE_OK) {
    if (!strcmp(buf, "true") || !strcmp(buf, "True") || !strcmp(buf, "TRUE")) { *v = 1; return MBDAE_OK; }
    if (!strcmp(buf, "false") || !strcmp(buf, "False") || !strcmp(buf, "FALSE")) { *v = 0; return MBDAE_OK; }
    if (why && whylen) snprintf(why, whylen, "expected true or false, got '%s'", buf);
    return MBDAE_ERR_SCENARIO;
  }
  if (why && whylen && fy_node_get_type(n) == FYNT_SCALAR && !fy_node_is_alias(n) &&
      !fy_node_get_tag_token(n) && !fy_node_is_null(n))
    snprintf(why, whylen, "expected true or false, got %s", mbdae_yaml_what(n));
  return MBDAE_ERR_SCENARIO;
}

int mbdae_yaml_string(struct fy_node *n, char **s, char *why, size_t whylen) {
  if (n && fy_node_get_type(n) == FYNT_SCALAR && !fy_node_is_alias(n) &&
      !fy_node_get_tag_token(n) && fy_node_get_style(n) != FYNS_PLAIN) {
    /* a quoted "" is an explicit empty string */
  } else {
    int rc = mbdae_yaml_check_plain(n, why, whylen);
    if (rc) return rc;
    if (fy_node_get_type(n) != FYNT_SCALAR) {
      if (why && whylen) snprintf(why, whylen, "expected a string, got %s", mbdae_yaml_what(n));
      return MBDAE_ERR_SCENARIO;
    }
  }
  size_t len = 0;
  const char *t = fy_node_get_scalar(n, &len);
  char *c = malloc(len + 1);
  if (!c) return fail(why, whylen, "out of memory");
  if (len) memcpy(c, t, len);
  c[len] = '\0';
  if (strlen(c) != len) {
    free(c);
    return fail(why, whylen, "strings must not contain NUL characters");
  }
  *s = c;
  return MBDAE_OK;
}
