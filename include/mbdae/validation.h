/** @file mbdae/validation.h
 * @brief Validation cases: each compares computed quantities with references
 *        from closed forms, seed results or independent computations, with a
 *        stated tolerance.
 *
 * `mbdae validate` prints them; the test suite asserts every row passes. */
#ifndef MBDAE_VALIDATION_H
#define MBDAE_VALIDATION_H

#include "mbdae/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One compared quantity. */
typedef struct mbdae_validation_row {
  char quantity[96];     /**< what is compared, with its unit */
  double reference, computed; /**< the value the code computed */
  double error;          /**< |computed - reference| (relative if rel) */
  double tolerance;      /**< the row passes when error <= tolerance */
  int relative;          /**< 1: error is relative */
  int pass;              /**< 1: the row passed */
} mbdae_validation_row;
/** @var mbdae_validation_row::reference
 *  the reference value */

/** The rows of one case (a growable array; zero-initialise before use). */
typedef struct mbdae_validation_report {
  mbdae_validation_row *rows; /**< nrows rows */
  int nrows, cap;        /**< rows allocated */
} mbdae_validation_report;
/** @var mbdae_validation_report::nrows
 *  rows in use */

/** @brief Append a row to a report.
 * @param rep       the report
 * @param quantity  what is compared (copied, cut to the row's field)
 * @param reference the reference value
 * @param computed  the computed value
 * @param tol       tolerance on the error
 * @param rel       != 0: the error is |c - r| / |r| (|c - r| when r == 0),
 *                  else |c - r|
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (NULL) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_validation_add(mbdae_validation_report *rep, const char *quantity,
                                      double reference, double computed, double tol,
                                      int rel);
/** @brief Free the rows of a report and empty it.
 * @param rep the report (may hold no rows) */
MBDAE_EXPORT void mbdae_validation_report_clear(mbdae_validation_report *rep);

/** A named validation case. */
typedef struct mbdae_validation_case {
  const char *name;        /**< unique name (`mbdae validate NAME`) */
  const char *description; /**< one line: what is validated against what */
  /** Run the case, appending its rows to rep: 0 ok (rows say pass/fail), < 0 error. */
  int (*run)(mbdae_validation_report *rep);
} mbdae_validation_case;

/** Registry: a NULL-terminated list of tables, each terminated by an entry
 *  whose name is NULL. */
MBDAE_EXPORT extern const mbdae_validation_case *const mbdae_validation_tables[];
/** @brief Find a case by name in the registry.
 * @param name the case name
 * @return the case, or NULL when there is none of that name */
MBDAE_EXPORT const mbdae_validation_case *mbdae_validation_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
