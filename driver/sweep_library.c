/* sweep_library.c - a parameter study run in this process and written
 * (mbdae_sweep_study_run, mbdae/simulation.h): `mbdae sweep [--resume]`
 * without MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/simulation.h"
#include "mbdae/status.h"
#include "sweep.h"

int mbdae_sweep_study_run(const char *path, const char *out_dir, int flags, char *err,
                          size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!path || (out_dir && !*out_dir)) {
    if (err && errlen) snprintf(err, errlen, "bad arguments to mbdae_sweep_study_run");
    return MBDAE_ERR_ARGUMENT;
  }
  mbdae_sweep_study st;
  int rc = mbdae_sweep_study_load(path, &st, err, errlen);
  if (rc) return rc;
  if (out_dir) {
    size_t n = strlen(out_dir) + 1;
    char *d = malloc(n);
    if (!d) {
      mbdae_sweep_study_free(&st);
      return MBDAE_ERR_MEMORY;
    }
    memcpy(d, out_dir, n);
    free(st.out_dir);
    st.out_dir = d;
  }
  mbdae_scenario work;
  char why[1024];
  rc = mbdae_scenario_load(st.base_path, (const char *const *)st.set, st.nset, &work, why,
                           sizeof why);
  if (rc) {
    if (err && errlen) snprintf(err, errlen, "base scenario: %s", why);
    mbdae_sweep_study_free(&st);
    return rc;
  }
  mbdae_sweep_tally tally;
  char msg[1024];
  rc = mbdae_sweep_perform(&st, &work, NULL, (flags & MBDAE_SIM_RESUME) != 0,
                           !(flags & MBDAE_SIM_NO_PLOTS), NULL, &tally, msg, sizeof msg);
  if (rc && err && errlen) snprintf(err, errlen, "%s", msg[0] ? msg : mbdae_status_message(rc));
  mbdae_scenario_free(&work);
  mbdae_sweep_study_free(&st);
  return rc;
}
