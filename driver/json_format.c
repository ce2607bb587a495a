/* json_format.c - JSON string and number encodings for summary.json. */
#include "json_format.h"

#include <math.h>
#include <string.h>

#include "utf8_check.h"

/* Well-formed UTF-8 is copied (with JSON's escapes); every byte that is not
 * part of a well-formed sequence (a non-UTF-8 --set value or file name)
 * becomes U+FFFD, so the file stays valid JSON. */
void mbdae_json_string(FILE *f, const char *s) {
  fputc('"', f);
  const char *p = s ? s : "";
  size_t n = strlen(p);
  while (n > 0) {
    size_t good = mbdae_utf8_check(p, n);
    for (size_t i = 0; i < good; ++i) {
      unsigned char c = (unsigned char)p[i];
      switch (c) {
      case '"': fputs("\\\"", f); break;
      case '\\': fputs("\\\\", f); break;
      case '\n': fputs("\\n", f); break;
      case '\r': fputs("\\r", f); break;
      case '\t': fputs("\\t", f); break;
      default:
        if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
      }
    }
    if (good == n) break;
    fputs("\\ufffd", f);
    p += good + 1;
    n -= good + 1;
  }
  fputc('"', f);
}

void mbdae_json_number(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.17g", v);
  else fputs("null", f);
}
