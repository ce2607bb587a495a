/* writer_series_csv.c - series.csv: one row per written output sample
 * (every k-th sample, the final one, and each pre- and post-event state),
 * with a "name [unit]" header and a last column row_kind (sample, pre-event,
 * post-event), so a time that repeats at an event is told apart and the
 * samples alone are a unique time index. Rows are written whole
 * (line_file.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "line_file.h"
#include "mbdae/status.h"
#include "writer.h"

static int series_open(const mbdae_output_ctx *c, void **state, char *err, size_t errlen) {
  mbdae_line_file *lf = malloc(sizeof *lf);
  if (!lf) return MBDAE_ERR_MEMORY;
  int rc = mbdae_line_file_open(lf, c->dir, "series.csv", err, errlen);
  if (rc) {
    free(lf);
    return rc;
  }
  *state = lf;
  for (int i = 0; i < c->ncols; ++i) {
    if (i) mbdae_line_file_puts(lf, ",");
    mbdae_line_file_csv_header(lf, c->cols[i].name, c->cols[i].unit);
  }
  mbdae_line_file_puts(lf, ",row_kind");
  rc = mbdae_line_file_end_line(lf);
  return rc ? rc : mbdae_line_file_flush(lf);
}

static int series_sample(void *state, const mbdae_output_ctx *c, const double *row) {
  mbdae_line_file *lf = state;
  for (int i = 0; i < c->ncols; ++i) {
    if (i) mbdae_line_file_puts(lf, ",");
    mbdae_line_file_csv_number(lf, row[i]);
  }
  static const char *const kinds[] = {",sample", ",pre-event", ",post-event"};
  mbdae_line_file_puts(lf, kinds[c->row_kind >= 0 && c->row_kind <= 2 ? c->row_kind : 0]);
  return mbdae_line_file_end_line(lf);
}

static int series_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                         char *err, size_t errlen) {
  (void)res;
  if (mbdae_line_file_flush(state)) {
    if (err && errlen)
      snprintf(err, errlen, "cannot write %s/series.csv: %s", c->dir, strerror(errno));
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

static void series_close(void *state) {
  if (!state) return;
  mbdae_line_file_close(state);
  free(state);
}

static int series_sync(void *state, long long *length) {
  return mbdae_line_file_sync(state, length);
}

static int series_reopen(const mbdae_output_ctx *c, void **state, long long length, char *err,
                         size_t errlen) {
  mbdae_line_file *lf = malloc(sizeof *lf);
  if (!lf) return MBDAE_ERR_MEMORY;
  int rc = mbdae_line_file_reopen(lf, c->dir, "series.csv", length, err, errlen);
  if (rc) {
    free(lf);
    return rc;
  }
  *state = lf;
  return MBDAE_OK;
}

const mbdae_writer_ops mbdae_writer_series_csv = {
  "series.csv", series_open, series_sample, NULL, series_finish, series_close,
  series_sync, series_reopen
};
