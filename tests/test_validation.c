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

static void test_every_case(void) {
  int ncases = 0;
  for (int t = 0; mbdae_validation_tables[t]; ++t) {
    for (const mbdae_validation_case *c = mbdae_validation_tables[t]; c->name; ++c) {
      mbdae_validation_report rep;
      memset(&rep, 0, sizeof rep);
      printf("\n  case %s: %s\n", c->name, c->description);
      fflush(stdout);
      int rc = c->run(&rep);
      print_rows(&rep);
      if (rc != 0)
        printf("  case %s returned %d (%s)\n", c->name, rc, mbdae_status_name(rc));
      CU_ASSERT_EQUAL(rc, 0);
      CU_ASSERT(rep.nrows > 0);
      int failed = 0;
      for (int i = 0; i < rep.nrows; ++i) failed += !rep.rows[i].pass;
      if (failed) printf("  case %s: %d row(s) FAILED\n", c->name, failed);
      CU_ASSERT_EQUAL(failed, 0);
      /* the registry finds the case by its name */
      CU_ASSERT_PTR_EQUAL(mbdae_validation_find(c->name), c);
      mbdae_validation_report_clear(&rep);
      ncases++;
    }
  }
  printf("\n  %d validation cases run\n", ncases);
  CU_ASSERT(ncases > 0);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"every registered validation case passes", test_every_case},
    {NULL, NULL},
  };
  return mbdae_test_main("validation", tests);
}
