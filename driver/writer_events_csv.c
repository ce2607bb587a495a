/* writer_events_csv.c - events.csv: one row per event with its time, label,
 * modes, fired roots ("0+;2-": root index and crossing direction), handler
 * action, the invariants before and after, and the model's event data.
 * Rows are written whole (line_file.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "line_file.h"
#include "mbdae/problem.h"
#include "mbdae/status.h"
#include "writer.h"
#include "writer_events_columns.h"

static const char *action_name(int a) {
  switch (a) {
  case MBDAE_EVENT_CONTINUE: return "continue";
  case MBDAE_EVENT_STOP: return "stop";
  case MBDAE_EVENT_NOCHANGE: return "nochange";
  }
  return "?";
}

static int events_open(const mbdae_output_ctx *c, void **state, char *err, size_t errlen) {
  mbdae_line_file *lf = malloc(sizeof *lf);
  if (!lf) return MBDAE_ERR_MEMORY;
  int rc = mbdae_line_file_open(lf, c->dir, "events.csv", err, errlen);
  if (rc) {
    free(lf);
    return rc;
  }
  *state = lf;
  int n = mbdae_events_ncolumns(c);
  for (int i = 0; i < n; ++i) {
    char name[96], unit[24];
    mbdae_events_column(c, i, name, sizeof name, unit, sizeof unit);
    if (i) mbdae_line_file_puts(lf, ",");
    mbdae_line_file_csv_header(lf, name, unit);
  }
  rc = mbdae_line_file_end_line(lf);
  return rc ? rc : mbdae_line_file_flush(lf);
}

static int events_event(void *state, const mbdae_output_ctx *c, const mbdae_event_record *ev) {
  mbdae_line_file *lf = state;
  mbdae_line_file_printf(lf, "%ld,", ev->index);
  mbdae_line_file_csv_number(lf, ev->t);
  mbdae_line_file_puts(lf, ",");
  mbdae_line_file_csv_field(lf, ev->label ? ev->label : "root");
  mbdae_line_file_puts(lf, ",");
  mbdae_line_file_csv_field(lf, ev->mode_before ? ev->mode_before : "-");
  mbdae_line_file_puts(lf, ",");
  mbdae_line_file_csv_field(lf, ev->mode_after ? ev->mode_after : "-");
  mbdae_line_file_puts(lf, ",");
  int first = 1;
  for (int i = 0; ev->dirs && i < ev->nroots; ++i)
    if (ev->dirs[i]) {
      mbdae_line_file_printf(lf, "%s%d%c", first ? "" : ";", i, ev->dirs[i] > 0 ? '+' : '-');
      first = 0;
    }
  mbdae_line_file_printf(lf, ",%s", action_name(ev->action));
  for (int i = 0; i < c->ninv; ++i) {
    mbdae_line_file_puts(lf, ",");
    if (ev->inv_before && i < ev->ninv) mbdae_line_file_csv_number(lf, ev->inv_before[i]);
    mbdae_line_file_puts(lf, ",");
    if (ev->inv_after && i < ev->ninv) mbdae_line_file_csv_number(lf, ev->inv_after[i]);
  }
  for (int i = 0; i < c->nevcols; ++i) {
    mbdae_line_file_puts(lf, ",");
    if (ev->data && i < ev->ndata) mbdae_line_file_csv_number(lf, ev->data[i]);
  }
  /* events are few and each matters: on disk at once */
  int rc = mbdae_line_file_end_line(lf);
  return rc ? rc : mbdae_line_file_flush(lf);
}

static int events_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                         char *err, size_t errlen) {
  (void)res;
  if (mbdae_line_file_flush(state)) {
    if (err && errlen)
      snprintf(err, errlen, "cannot write %s/events.csv: %s", c->dir, strerror(errno));
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

static void events_close(void *state) {
  if (!state) return;
  mbdae_line_file_close(state);
  free(state);
}

static int events_sync(void *state, long long *length) {
  return mbdae_line_file_sync(state, length);
}

static int events_reopen(const mbdae_output_ctx *c, void **state, long long length, char *err,
                         size_t errlen) {
  mbdae_line_file *lf = malloc(sizeof *lf);
  if (!lf) return MBDAE_ERR_MEMORY;
  int rc = mbdae_line_file_reopen(lf, c->dir, "events.csv", length, err, errlen);
  if (rc) {
    free(lf);
    return rc;
  }
  *state = lf;
  return MBDAE_OK;
}

const mbdae_writer_ops mbdae_writer_events_csv = {
  "events.csv", events_open, NULL, events_event, events_finish, events_close,
  events_sync, events_reopen
};
