/* json_check.h - a tiny strict JSON syntax checker for the driver tests
 * (summary.json must parse); header-only, recursive descent. */
#ifndef MBDAE_TEST_JSON_CHECK_H
#define MBDAE_TEST_JSON_CHECK_H

#include <string.h>

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
  return p;
}

static const char *json_string(const char *p) {
  if (*p != '"') return NULL;
  for (++p; *p && *p != '"'; ++p) {
    if ((unsigned char)*p < 0x20) return NULL;
    if (*p == '\\') {
      ++p;
      if (*p == 'u') {
        for (int i = 1; i <= 4; ++i)
          if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
        p += 4;
      } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
        return NULL;
      }
    }
  }
  return *p == '"' ? p + 1 : NULL;
}

static const char *json_number(const char *p) {
  const char *s = p;
  if (*p == '-') ++p;
  if (*p == '0') ++p;
  else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') ++p;
  else return NULL;
  if (*p == '.') {
    ++p;
    if (!(*p >= '0' && *p <= '9')) return NULL;
    while (*p >= '0' && *p <= '9') ++p;
  }
  if (*p == 'e' || *p == 'E') {
    ++p;
    if (*p == '+' || *p == '-') ++p;
    if (!(*p >= '0' && *p <= '9')) return NULL;
    while (*p >= '0' && *p <= '9') ++p;
  }
  return p > s ? p : NULL;
}

static const char *json_value(const char *p, int depth) {
  if (depth > 64) return NULL;
  p = json_ws(p);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    int obj = *p == '{';
    p = json_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (obj) {
        p = json_string(json_ws(p));
        if (!p) return NULL;
        p = json_ws(p);
        if (*p != ':') return NULL;
        ++p;
      }
      p = json_value(p, depth + 1);
      if (!p) return NULL;
      p = json_ws(p);
      if (*p == ',') { ++p; continue; }
      if (*p == close) return p + 1;
      return NULL;
    }
  }
  if (*p == '"') return json_string(p);
  if (!strncmp(p, "true", 4)) return p + 4;
  if (!strncmp(p, "false", 5)) return p + 5;
  if (!strncmp(p, "null", 4)) return p + 4;
  return json_number(p);
}

/* 1 if text is exactly one JSON value (surrounding whitespace allowed). */
static int json_valid(const char *text) {
  const char *p = json_value(text, 0);
  return p && *json_ws(p) == '\0';
}

#endif
