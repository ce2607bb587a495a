/** @file mbdae/status.h
 * @brief The one status-code space of the toolkit.
 *
 * 0 is success, > 0 is informational, < 0 is an error. Every function of
 * the API that can fail returns one of these codes. */
#ifndef MBDAE_STATUS_H
#define MBDAE_STATUS_H

#include "mbdae/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes: 0 success, > 0 information, < 0 error. */
enum {
  MBDAE_OK = 0,               /**< success */
  MBDAE_STOPPED = 1,          /**< an event handler or observer asked the run to stop */
  MBDAE_ERR_MEMORY = -1,      /**< an allocation failed */
  MBDAE_ERR_ARGUMENT = -2,    /**< a NULL handle, a bad size or an inconsistent option */
  MBDAE_ERR_SUNDIALS = -3,    /**< a SUNDIALS setup call failed */
  MBDAE_ERR_SOLVER = -4,      /**< the integrator failed (convergence, error test) */
  MBDAE_ERR_CALLBACK = -5,    /**< a model callback returned a fatal (< 0) status */
  MBDAE_ERR_EVENT_LIMIT = -6, /**< too many events per unit of time (Zeno guard) */
  MBDAE_ERR_INCONSISTENT = -7,/**< a state does not satisfy the residual */
  MBDAE_ERR_SCENARIO = -8,    /**< a scenario file is malformed or fails its schema */
  MBDAE_ERR_IO = -9,          /**< a file could not be read or written */
  MBDAE_ERR_UNSUPPORTED = -10,/**< a method/formulation combination that does not exist */
  MBDAE_ERR_PARAMETER = -11,  /**< a non-finite or non-physical parameter */
  MBDAE_ERR_TOO_MUCH_WORK = -12, /**< the step limit was reached before the output time */
  MBDAE_ERR_NOT_FOUND = -13,  /**< a named model, case or key does not exist */
  MBDAE_ERR_NONFINITE = -14   /**< a state, output, invariant or outcome is NaN or inf */
};

/** @brief Symbolic name of a status code.
 * @param status a status code
 * @return e.g. "MBDAE_ERR_SOLVER" (a static string, never NULL; unknown codes
 *         get a generic name) */
MBDAE_EXPORT const char *mbdae_status_name(int status);
/** @brief One-line human description of a status code.
 * @param status a status code
 * @return a static string, never NULL */
MBDAE_EXPORT const char *mbdae_status_message(int status);

#ifdef __cplusplus
}
#endif
#endif
