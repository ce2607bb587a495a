/* plugin.c - model kinds from a shared object (mbdae_plugin_load,
 * `mbdae run --plugin FILE`): dlopen it and call its entry point, which
 * registers its kinds (mbdae/model.h). The object stays loaded for the rest
 * of the process: the registry points into it. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/model.h"
#include "mbdae/simulation.h"
#include "mbdae/status.h"

int mbdae_plugin_load(const char *path, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!path || !*path) {
    if (err && errlen) snprintf(err, errlen, "plug-in: no file name");
    return MBDAE_ERR_ARGUMENT;
  }
  /* RTLD_GLOBAL: a plug-in's own undefined mbdae_* symbols resolve against
   * the program that loads it (the `mbdae` command exports the API) */
  void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    const char *why = dlerror();
    if (err && errlen) snprintf(err, errlen, "plug-in %s: cannot load: %s", path, why ? why : "?");
    return MBDAE_ERR_IO;
  }
  mbdae_plugin_init_fn init;
  void *sym = dlsym(h, MBDAE_PLUGIN_INIT_SYMBOL);
  /* POSIX: a function pointer goes through an object pointer from dlsym */
  memcpy(&init, &sym, sizeof init);
  if (!sym) {
    if (err && errlen)
      snprintf(err, errlen, "plug-in %s: no entry point %s (export it with MBDAE_EXPORT)", path,
               MBDAE_PLUGIN_INIT_SYMBOL);
    dlclose(h);
    return MBDAE_ERR_NOT_FOUND;
  }
  int rc = init();
  if (rc < 0) {
    if (err && errlen)
      snprintf(err, errlen, "plug-in %s: %s() failed: %s", path, MBDAE_PLUGIN_INIT_SYMBOL,
               mbdae_status_message(rc));
    /* kinds it registered before failing point into it: keep it loaded */
    return rc;
  }
  return MBDAE_OK;
}
