/* cmd_validate.c - `mbdae validate [CASE...]`: run the registered
 * validation cases and print one table row per compared quantity. Exit 1
 * if any row fails or a case cannot run, 2 for an unknown case name. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"

static const char usage[] =
  "usage: mbdae validate [--list] [CASE...]\n"
  "\n"
  "Run the validation cases (all, or those named) and print a table: case,\n"
  "quantity, reference, computed, error (relative or absolute), tolerance,\n"
  "pass/FAIL. References come from closed forms, the seed papers or\n"
  "independent computations.\n"
  "\n"
  "  -l, --list   list the cases with their descriptions, run nothing\n"
  "  -h, --help   this help\n"
  "\n"
  "Exit codes: 0 every row passes, 1 a row fails or a case cannot run,\n"
  "2 unknown case or bad usage.\n";

static int selected(const char *name, int argc, char **argv, int first) {
  if (first >= argc) return 1;
  for (int i = first; i < argc; ++i)
    if (!strcmp(argv[i], name)) return 1;
  return 0;
}

int mbdae_cmd_validate(int argc, char **argv) {
  static const struct option longopts[] = {{"list", no_argument, NULL, 'l'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  int list = 0, ch;
  optind = 1;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, "lh", longopts, NULL)) != -1) {
    switch (ch) {
    case 'l': list = 1; break;
    case 'h': fputs(usage, stdout); return MBDAE_EXIT_OK;
    default:
      fprintf(stderr, "mbdae validate: bad option '%s' (see mbdae validate --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      return MBDAE_EXIT_USAGE;
    }
  }
  for (int i = optind; i < argc; ++i)
    if (!mbdae_validation_find(argv[i])) {
      fprintf(stderr, "mbdae validate: unknown case '%s' (see mbdae validate --list)\n", argv[i]);
      return MBDAE_EXIT_USAGE;
    }
  if (list) {
    for (int t = 0; mbdae_validation_tables[t]; ++t)
      for (const mbdae_validation_case *c = mbdae_validation_tables[t]; c->name; ++c)
        if (selected(c->name, argc, argv, optind))
          printf("%-34s %s\n", c->name, c->description ? c->description : "");
    return MBDAE_EXIT_OK;
  }
  printf("%-28s %-40s %14s %14s %10s %9s  %s\n", "case", "quantity", "reference", "computed",
         "error", "tol", "result");
  int ncases = 0, nrows = 0, nfail = 0, nerr = 0;
  for (int t = 0; mbdae_validation_tables[t]; ++t)
    for (const mbdae_validation_case *c = mbdae_validation_tables[t]; c->name; ++c) {
      if (!selected(c->name, argc, argv, optind)) continue;
      ++ncases;
      mbdae_validation_report rep;
      memset(&rep, 0, sizeof rep);
      int rc = c->run(&rep);
      for (int i = 0; i < rep.nrows; ++i) {
        const mbdae_validation_row *r = &rep.rows[i];
        printf("%-28s %-40s %14.8g %14.8g %9.2e%s %9.2e  %s\n", c->name, r->quantity,
               r->reference, r->computed, r->error, r->relative ? "r" : "a", r->tolerance,
               r->pass ? "pass" : "FAIL");
        ++nrows;
        if (!r->pass) ++nfail;
      }
      if (rc < 0) {
        printf("%-28s %-40s %14s %14s %10s %9s  %s\n", c->name, mbdae_status_name(rc), "-", "-",
               "-", "-", "ERROR");
        ++nerr;
      } else if (rep.nrows == 0) {
        printf("%-28s %-40s %14s %14s %10s %9s  %s\n", c->name, "(no rows)", "-", "-", "-", "-",
               "ERROR");
        ++nerr;
      }
      mbdae_validation_report_clear(&rep);
    }
  printf("\n%d cases, %d rows: %d passed, %d failed, %d cases could not run\n", ncases, nrows,
         nrows - nfail, nfail, nerr);
  return (nfail || nerr) ? MBDAE_EXIT_FAILURE : MBDAE_EXIT_OK;
}
