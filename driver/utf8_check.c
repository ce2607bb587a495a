/* utf8_check.c - well-formed UTF-8 (RFC 3629, table 3-7 of the Unicode
 * standard): the first bad byte of a buffer. */
#include "utf8_check.h"

size_t mbdae_utf8_check(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < n) {
    unsigned c = u[i];
    if (c == 0) return i;
    if (c < 0x80) {
      ++i;
      continue;
    }
    int more;
    unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) more = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) lo = 0xA0;      /* overlong */
      else if (c == 0xED) hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) lo = 0x90;      /* overlong */
      else if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    } else
      return i; /* continuation byte, C0/C1 or F5..FF */
    if (n - i <= (size_t)more) return i;
    if (u[i + 1] < lo || u[i + 1] > hi) return i;
    for (int k = 2; k <= more; ++k)
      if (u[i + (size_t)k] < 0x80 || u[i + (size_t)k] > 0xBF) return i;
    i += (size_t)more + 1;
  }
  return n;
}
