/* test_plots.c - plots of many curves (driver/writer_plots.c): more than a
 * dozen columns of series.csv are written once to STEM.dat, curve after
 * curve, and drawn by one gnuplot command. The test reads series.csv itself
 * and checks that every curve of phi.dat is its column, in row order, and
 * that small plots still read series.csv directly. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_util.h"
#include "testutil.h"

static int have_gnuplot(void) {
  const char *path = getenv("PATH");
  if (!path) return 0;
  char *copy = strdup(path);
  int found = 0;
  for (char *dir = copy ? strtok(copy, ":") : NULL; dir && !found; dir = strtok(NULL, ":")) {
    char exe[4200];
    snprintf(exe, sizeof exe, "%s/gnuplot", dir);
    found = access(exe, X_OK) == 0;
  }
  free(copy);
  return found;
}

/* Columns of a CSV header line whose name starts with prefix. */
static int header_columns(const char *header, const char *prefix, int *cols, int max) {
  int n = 0, col = 0;
  for (const char *q = header; *q && *q != '\n'; ++col) {
    if (strncmp(q, prefix, strlen(prefix)) == 0 && n < max) cols[n++] = col;
    const char *comma = strpbrk(q, ",\n");
    if (!comma || *comma == '\n') break;
    q = comma + 1;
  }
  return n;
}

/* Field col of a CSV line as a number. */
static double field(const char *line, int col) {
  for (int c = 0; c < col; ++c) {
    line = strchr(line, ',');
    if (!line) return NAN;
    ++line;
  }
  return strtod(line, NULL);
}

static void test_many_curves_one_pass(void) {
  if (!have_gnuplot()) {
    printf("\n  skipped: gnuplot is not in PATH (bootstrap.sh installs gnuplot-nox)\n");
    return;
  }
  const char *bin = getenv("MBDAE_BINARY"), *src = getenv("MBDAE_SOURCE_DIR");
  CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  const char *dir = mbdae_test_tmpdir("plots-many");
  char cmd[9000];
  snprintf(cmd, sizeof cmd,
           "'%s' run '%s/scenarios/net_deploy.yaml' --out '%s' --quiet --set solver.t_end=0.3",
           bin, src, dir);
  CU_ASSERT_EQUAL_FATAL(system(cmd), 0);

  char *series = slurp(dir, "series.csv");
  char *dat = slurp(dir, "phi.dat");
  char *gp = slurp(dir, "plots.gp");
  CU_ASSERT_PTR_NOT_NULL_FATAL(series);
  CU_ASSERT_PTR_NOT_NULL_FATAL(dat);
  CU_ASSERT_PTR_NOT_NULL_FATAL(gp);
  int cols[512];
  int ncurves = header_columns(series, "phi_", cols, 512);
  CU_ASSERT_FATAL(ncurves > 12); /* 60 strings in the 6 x 6 net */

  /* every curve k = 1..ncurves: its rows are (t, phi_k) of series.csv */
  const char *d = dat;
  long checked = 0;
  for (int k = 0; k < ncurves; ++k) {
    const char *row = strchr(series, '\n') + 1;
    for (; *row; row = strchr(row, '\n') + 1) {
      double x, y;
      int idx, used = 0;
      CU_ASSERT_EQUAL_FATAL(sscanf(d, "%lf %lf %d%n", &x, &y, &idx, &used), 3);
      MBDAE_ASSERT_ABS(x, field(row, 0), 1e-8 * (1.0 + fabs(x)));
      MBDAE_ASSERT_ABS(y, field(row, cols[k]), 1e-8 * (1.0 + fabs(y)));
      CU_ASSERT_EQUAL(idx, k + 1);
      d = strchr(d + used, '\n') + 1;
      ++checked;
      if (!strchr(row, '\n')[1]) break;
    }
    CU_ASSERT_EQUAL(*d, '\n'); /* a blank line ends each curve */
    ++d;
  }
  CU_ASSERT_EQUAL(*d, '\0');
  CU_ASSERT(checked > 12 * 10);

  /* one plot command for the wide plot, per-column commands for the small one */
  CU_ASSERT(strstr(gp, "plot 'phi.dat' using 1:2:3 with lines lw 1.5 lc variable notitle") !=
            NULL);
  CU_ASSERT(strstr(gp, "plot 'series.csv' skip 1 using 1:2 with lines lw 1.5 title 'energy [J]'") !=
            NULL);
  CU_ASSERT(path_exists(dir, "phi.png"));
  struct stat st;
  char png[4200];
  snprintf(png, sizeof png, "%s/phi.png", dir);
  CU_ASSERT(stat(png, &st) == 0 && st.st_size > 0);
  int all[1024]; /* series.csv itself: complete rows of the header's width */
  CU_ASSERT(csv_check(series, header_columns(series, "", all, 1024)) > 0);
  free(series);
  free(dat);
  free(gp);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"more than a dozen curves: one table, one plot command", test_many_curves_one_pass},
    {NULL, NULL}};
  return mbdae_test_main("plots", tests);
}
