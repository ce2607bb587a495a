/* test_billiard_validation.c - every billiard validation case passes. */
#include <stdio.h>

#include "mbdae/status.h"
#include "mbdae/validation.h"
#include "testutil.h"

extern const mbdae_validation_case mbdae_validation_billiard[];

static void test_cases(void) {
  int ncases = 0;
  for (const mbdae_validation_case *c = mbdae_validation_billiard; c->name; ++c) {
    mbdae_validation_report rep = {0};
    int st = c->run(&rep);
    if (st != MBDAE_OK) printf("\n  %s: %s\n", c->name, mbdae_status_name(st));
    CU_ASSERT_EQUAL(st, MBDAE_OK);
    CU_ASSERT(rep.nrows > 0);
    for (int i = 0; i < rep.nrows; ++i) {
      const mbdae_validation_row *r = &rep.rows[i];
      if (!r->pass)
        printf("\n  %s: %s: ref %.15g computed %.15g err %.3g > tol %.3g\n", c->name,
               r->quantity, r->reference, r->computed, r->error, r->tolerance);
      CU_ASSERT(r->pass);
    }
    mbdae_validation_report_clear(&rep);
    ++ncases;
  }
  CU_ASSERT_EQUAL(ncases, 5);
}

int main(void) {
  const mbdae_test tests[] = {{"billiard validation cases", test_cases}, {NULL, NULL}};
  return mbdae_test_main("billiard_validation", tests);
}
