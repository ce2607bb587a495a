/* test_validation.c - run every registered validation case (every table in
 * mbdae_validation_tables), print its rows, and assert that the case
 * returned 0 and that every row passes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

static void print_rows(const mbdae_validation_report *rep) {
  for (int i = 0; i < rep->nrows; ++i) {
    const mbdae_validation_row *r = &rep->rows[i];
    printf("    %-58s ref %-22.15g got %-22.15g err %.3e%s tol %.1e  %s\n", r->quantity,
           r->reference, r->computed, r->error, r->relative ? " (rel)" : " (abs)",
           r->tolerance, r->pass ? "pass" : "FAIL");
  }
}

/* CUnit tests take no argument; tests run in registration order, so each
 * registered test runs the next case of this flat list. */
static const mbdae_validation_case *cases[512];
static int ncases, cursor;

static void run_next_case(void) {
  CU_ASSERT_FATAL(cursor < ncases);
  const mbdae_validation_case *c = cases[cursor++];
  mbdae_validation_report rep;
  memset(&rep, 0, sizeof rep);
  printf("\n  case %s: %s\n", c->name, c->description);
  fflush(stdout);
  int rc = c->run(&rep);
  print_rows(&rep);
  if (rc != 0) printf("  case %s returned %d (%s)\n", c->name, rc, mbdae_status_name(rc));
  CU_ASSERT_EQUAL(rc, 0);
  CU_ASSERT(rep.nrows > 0);
  int failed = 0;
  for (int i = 0; i < rep.nrows; ++i) failed += !rep.rows[i].pass;
  if (failed) printf("  case %s: %d row(s) FAILED\n", c->name, failed);
  CU_ASSERT_EQUAL(failed, 0);
  /* the registry finds the case by its name */
  CU_ASSERT_PTR_EQUAL(mbdae_validation_find(c->name), c);
  mbdae_validation_report_clear(&rep);
}

int main(void) {
  static mbdae_test tests[513];
  for (int t = 0; mbdae_validation_tables[t]; ++t)
    for (const mbdae_validation_case *c = mbdae_validation_tables[t]; c->name; ++c) {
      if (ncases == 512) {
        fprintf(stderr, "test_validation: more than 512 cases\n");
        return 2;
      }
      tests[ncases].name = c->name;
      tests[ncases].fn = run_next_case;
      cases[ncases++] = c;
    }
  if (ncases == 0) {
    fprintf(stderr, "test_validation: no validation case registered\n");
    return 1;
  }
  tests[ncases].name = NULL;
  tests[ncases].fn = NULL;
  return mbdae_test_main("validation", tests);
}
