/* mbdae/validation.h - validation cases: each compares computed quantities
 * with references from closed forms, seed results or independent
 * computations, with a stated tolerance. `mbdae validate` prints them; the
 * test suite asserts every row passes. */
#ifndef MBDAE_VALIDATION_H
#define MBDAE_VALIDATION_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbdae_validation_row {
  char quantity[96];
  double reference, computed;
  double error;          /* |computed - reference| (relative if rel) */
  double tolerance;
  int relative;          /* 1: error is relative */
  int pass;
} mbdae_validation_row;

typedef struct mbdae_validation_report {
  mbdae_validation_row *rows;
  int nrows, cap;
} mbdae_validation_report;

/* Append a row; rel != 0 compares |c - r| / |r| (|c - r| when r == 0). */
int mbdae_validation_add(mbdae_validation_report *rep, const char *quantity,
                         double reference, double computed, double tol,
                         int rel);
void mbdae_validation_report_clear(mbdae_validation_report *rep);

typedef struct mbdae_validation_case {
  const char *name;
  const char *description;
  int (*run)(mbdae_validation_report *rep); /* 0 ok (rows say pass/fail), < 0 error */
} mbdae_validation_case;

/* Registry (NULL-terminated list of NULL-name-terminated tables). */
extern const mbdae_validation_case *const mbdae_validation_tables[];
const mbdae_validation_case *mbdae_validation_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
