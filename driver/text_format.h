/* text_format.h - the few encodings the output writers share: CSV fields,
 * JSON strings and numbers, column headers "name [unit]". */
#ifndef MBDAE_DRIVER_TEXT_FORMAT_H
#define MBDAE_DRIVER_TEXT_FORMAT_H

#include <stdio.h>

/* A CSV field, quoted (RFC 4180) when it holds a comma, quote or newline. */
void mbdae_csv_field(FILE *f, const char *s);
/* A number for CSV: %.15g; nan/inf spelled as C prints them. */
void mbdae_csv_number(FILE *f, double v);
/* "name [unit]" (just "name" when unit is empty) as a CSV field. */
void mbdae_csv_header(FILE *f, const char *name, const char *unit);

/* A JSON string literal (quotes included, control characters escaped). */
void mbdae_json_string(FILE *f, const char *s);
/* A JSON number (%.17g), or null when not finite. */
void mbdae_json_number(FILE *f, double v);

#endif
