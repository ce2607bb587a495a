/* writer_events_columns.c - names, units and kinds of the events.csv
 * columns. */
#include "writer_events_columns.h"

#include <stdio.h>
#include <string.h>

int mbdae_events_ncolumns(const mbdae_output_ctx *c) {
  return MBDAE_EVENTS_FIXED_COLUMNS + 2 * c->ninv + c->nevcols;
}

int mbdae_events_column(const mbdae_output_ctx *c, int i, char *name, size_t nlen,
                        char *unit, size_t ulen) {
  static const char *const fixed[MBDAE_EVENTS_FIXED_COLUMNS] = {
    "index", "t", "label", "mode_before", "mode_after", "roots", "action"};
  snprintf(unit, ulen, "%s", "");
  if (i < MBDAE_EVENTS_FIXED_COLUMNS) {
    snprintf(name, nlen, "%s", fixed[i]);
    if (i == 1) {
      /* the time unit of the series, which is the model's own */
      snprintf(unit, ulen, "%s", c->ncols > 0 ? c->cols[0].unit : "s");
    }
    return i <= 1;
  }
  i -= MBDAE_EVENTS_FIXED_COLUMNS;
  if (i < 2 * c->ninv) {
    snprintf(name, nlen, "%s_%s", c->inv_names[i / 2], i % 2 ? "after" : "before");
    if (c->inv_units) snprintf(unit, ulen, "%s", c->inv_units[i / 2]);
    return 1;
  }
  i -= 2 * c->ninv;
  snprintf(name, nlen, "%s", c->evcols[i].name);
  snprintf(unit, ulen, "%s", c->evcols[i].unit);
  return 1;
}

int mbdae_events_name_repeated(const mbdae_output_ctx *c, char *name, size_t nlen) {
  int n = mbdae_events_ncolumns(c);
  char a[64], b[64], unit[32];
  for (int i = 1; i < n; ++i) {
    mbdae_events_column(c, i, a, sizeof a, unit, sizeof unit);
    for (int j = 0; j < i; ++j) {
      mbdae_events_column(c, j, b, sizeof b, unit, sizeof unit);
      if (strcmp(a, b) == 0) {
        snprintf(name, nlen, "%s", a);
        return 1;
      }
    }
  }
  return 0;
}
