/* writer_series_csv.c - series.csv: one row per written output sample
 * (every k-th sample, the final one, and each post-event state), with a
 * "name [unit]" header. */
#include <stdio.h>
#include <stdlib.h>

#include "mbdae/status.h"
#include "text_format.h"
#include "writer.h"

static int series_open(const mbdae_output_ctx *c, void **state, char *err, size_t errlen) {
  FILE *f = mbdae_output_open(c, "series.csv", err, errlen);
  if (!f) return MBDAE_ERR_IO;
  for (int i = 0; i < c->ncols; ++i) {
    if (i) fputc(',', f);
    mbdae_csv_header(f, c->cols[i].name, c->cols[i].unit);
  }
  fputc('\n', f);
  *state = f;
  return ferror(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static int series_sample(void *state, const mbdae_output_ctx *c, const double *row) {
  FILE *f = state;
  for (int i = 0; i < c->ncols; ++i) {
    if (i) fputc(',', f);
    mbdae_csv_number(f, row[i]);
  }
  fputc('\n', f);
  return ferror(f) ? MBDAE_ERR_IO : MBDAE_OK;
}

static int series_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                         char *err, size_t errlen) {
  (void)res;
  if (fflush(state) != 0 || ferror(state)) {
    if (err && errlen) snprintf(err, errlen, "cannot write %s/series.csv", c->dir);
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

static void series_close(void *state) {
  if (state) fclose(state);
}

const mbdae_writer_ops mbdae_writer_series_csv = {
  "series.csv", series_open, series_sample, NULL, series_finish, series_close
};
