/* text_format.c - CSV and JSON encodings shared by the output writers. */
#include "text_format.h"

#include <math.h>
#include <string.h>

void mbdae_csv_field(FILE *f, const char *s) {
  if (!s) s = "";
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
  }
  fputc('"', f);
}

void mbdae_csv_number(FILE *f, double v) { fprintf(f, "%.15g", v); }

void mbdae_csv_header(FILE *f, const char *name, const char *unit) {
  char buf[160];
  if (unit && *unit) snprintf(buf, sizeof buf, "%s [%s]", name, unit);
  else snprintf(buf, sizeof buf, "%s", name);
  mbdae_csv_field(f, buf);
}

void mbdae_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    switch (*p) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      if (*p < 0x20) fprintf(f, "\\u%04x", *p);
      else fputc(*p, f);
    }
  }
  fputc('"', f);
}

void mbdae_json_number(FILE *f, double v) {
  if (isfinite(v)) fprintf(f, "%.17g", v);
  else fputs("null", f);
}
