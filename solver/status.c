/* status.c - names and messages of the status-code space (status.h). */
#include "mbdae/status.h"

typedef struct { int code; const char *name, *message; } status_entry;

static const status_entry status_table[] = {
  {MBDAE_OK, "MBDAE_OK", "success"},
  {MBDAE_STOPPED, "MBDAE_STOPPED", "the run was stopped by the model or the observer"},
  {MBDAE_ERR_MEMORY, "MBDAE_ERR_MEMORY", "out of memory"},
  {MBDAE_ERR_ARGUMENT, "MBDAE_ERR_ARGUMENT", "invalid argument"},
  {MBDAE_ERR_SUNDIALS, "MBDAE_ERR_SUNDIALS", "a SUNDIALS setup call failed"},
  {MBDAE_ERR_SOLVER, "MBDAE_ERR_SOLVER", "the integrator failed"},
  {MBDAE_ERR_CALLBACK, "MBDAE_ERR_CALLBACK", "a model callback failed"},
  {MBDAE_ERR_EVENT_LIMIT, "MBDAE_ERR_EVENT_LIMIT", "too many events per unit of time"},
  {MBDAE_ERR_INCONSISTENT, "MBDAE_ERR_INCONSISTENT", "state inconsistent with the residual"},
  {MBDAE_ERR_SCENARIO, "MBDAE_ERR_SCENARIO", "invalid scenario file"},
  {MBDAE_ERR_IO, "MBDAE_ERR_IO", "input/output error"},
  {MBDAE_ERR_UNSUPPORTED, "MBDAE_ERR_UNSUPPORTED", "unsupported method or formulation"},
  {MBDAE_ERR_PARAMETER, "MBDAE_ERR_PARAMETER", "non-finite or non-physical parameter"},
  {MBDAE_ERR_TOO_MUCH_WORK, "MBDAE_ERR_TOO_MUCH_WORK", "step limit reached"},
  {MBDAE_ERR_NOT_FOUND, "MBDAE_ERR_NOT_FOUND", "not found"},
  {MBDAE_ERR_NONFINITE, "MBDAE_ERR_NONFINITE", "a state, output, invariant or outcome is not finite"},
};

static const status_entry *status_lookup(int code) {
  for (unsigned i = 0; i < sizeof status_table / sizeof status_table[0]; ++i)
    if (status_table[i].code == code) return &status_table[i];
  return 0;
}

const char *mbdae_status_name(int status) {
  const status_entry *e = status_lookup(status);
  if (e) return e->name;
  return status > 0 ? "MBDAE_INFO_UNKNOWN" : "MBDAE_ERR_UNKNOWN";
}

const char *mbdae_status_message(int status) {
  const status_entry *e = status_lookup(status);
  return e ? e->message : "unknown status code";
}
