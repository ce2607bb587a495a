/* writer_events_csv.c - events.csv: one row per event with its time, label,
 * modes, fired roots ("0+;2-": root index and crossing direction), handler
 * action, the invariants before and after, and the model's event data. */
#include <stdio.h>
#include <string.h>

#include "mbdae/problem.h"
#include "mbdae/status.h"
#include "text_format.h"
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
  FILE *f = mbdae_output_open(c, "events.csv", err, errlen);
  if (!f) return MBDAE_ERR_IO;
  int n = mbdae_events_ncolumns(c);
  for (int i = 0; i < n; ++i) {
    char name[96], unit[24];
    mbdae_events_column(c, i, name, sizeof name, unit, sizeof unit);
    if (i) fputc(',', f);
    mbdae_csv_header(f, name, unit);
  }
  fputc('\n', f);
  *state = f;
  return ferror(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static int events_event(void *state, const mbdae_output_ctx *c, const mbdae_event_record *ev) {
  FILE *f = state;
  fprintf(f, "%ld,", ev->index);
  mbdae_csv_number(f, ev->t);
  fputc(',', f);
  mbdae_csv_field(f, ev->label ? ev->label : "root");
  fputc(',', f);
  mbdae_csv_field(f, ev->mode_before ? ev->mode_before : "-");
  fputc(',', f);
  mbdae_csv_field(f, ev->mode_after ? ev->mode_after : "-");
  fputc(',', f);
  int first = 1;
  for (int i = 0; ev->dirs && i < ev->nroots; ++i)
    if (ev->dirs[i]) {
      fprintf(f, "%s%d%c", first ? "" : ";", i, ev->dirs[i] > 0 ? '+' : '-');
      first = 0;
    }
  fprintf(f, ",%s", action_name(ev->action));
  for (int i = 0; i < c->ninv; ++i) {
    fputc(',', f);
    if (ev->inv_before && i < ev->ninv) mbdae_csv_number(f, ev->inv_before[i]);
    fputc(',', f);
    if (ev->inv_after && i < ev->ninv) mbdae_csv_number(f, ev->inv_after[i]);
  }
  for (int i = 0; i < c->nevcols; ++i) {
    fputc(',', f);
    if (ev->data && i < ev->ndata) mbdae_csv_number(f, ev->data[i]);
  }
  fputc('\n', f);
  return ferror(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static int events_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                         char *err, size_t errlen) {
  (void)res;
  if (fflush(state) != 0 || ferror(state)) {
    if (err && errlen) snprintf(err, errlen, "cannot write %s/events.csv", c->dir);
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

static void events_close(void *state) {
  if (state) fclose(state);
}

const mbdae_writer_ops mbdae_writer_events_csv = {
  "events.csv", events_open, NULL, events_event, events_finish, events_close
};
