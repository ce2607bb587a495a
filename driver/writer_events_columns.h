/* writer_events_columns.h - the column layout of events.csv, shared by its
 * writer and the plot writer (which looks columns up by name). */
#ifndef MBDAE_DRIVER_WRITER_EVENTS_COLUMNS_H
#define MBDAE_DRIVER_WRITER_EVENTS_COLUMNS_H

#include <stddef.h>

#include "writer.h"

/* Fixed leading columns: index, t, label, mode_before, mode_after, roots,
 * action; then <inv>_before, <inv>_after per invariant; then event data. */
enum { MBDAE_EVENTS_FIXED_COLUMNS = 7 };

int mbdae_events_ncolumns(const mbdae_output_ctx *c);
/* Name and unit of column i; returns 1 if it holds numbers, 0 for text. */
int mbdae_events_column(const mbdae_output_ctx *c, int i, char *name, size_t nlen,
                        char *unit, size_t ulen);
/* 1 when two columns share a name (a model's event data named like a fixed
 * column or <inv>_before/_after), the first such name in name; else 0. */
int mbdae_events_name_repeated(const mbdae_output_ctx *c, char *name, size_t nlen);

#endif
