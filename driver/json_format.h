/* json_format.h - JSON encodings for summary.json: strings and numbers. */
#ifndef MBDAE_DRIVER_JSON_FORMAT_H
#define MBDAE_DRIVER_JSON_FORMAT_H

#include <stdio.h>

/* A JSON string literal (quotes included, control characters escaped). */
void mbdae_json_string(FILE *f, const char *s);
/* A JSON number (%.17g), or null when not finite. */
void mbdae_json_number(FILE *f, double v);

#endif
