/* scenario_dir.c - where the shipped scenarios are, and a scenario or a
 * study named by its bare file name found there (`mbdae run ball.yaml`,
 * `mbdae sweep ravine_study_I` after install). */
#define _GNU_SOURCE /* dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mbdae/simulation.h"
#include "scenario_dir.h"

#ifndef MBDAE_SCENARIO_DIR
#define MBDAE_SCENARIO_DIR "scenarios"
#endif

/* dir/rel if that is an existing directory: its real path in out. */
static int existing_dir(const char *dir, const char *rel, char *out, size_t len) {
  char path[PATH_MAX + 128], real[PATH_MAX];
  int w = snprintf(path, sizeof path, "%s/%s", dir, rel);
  if (w <= 0 || (size_t)w >= sizeof path || !realpath(path, real) || strlen(real) >= len)
    return 0;
  DIR *d = opendir(real);
  if (!d) return 0;
  closedir(d);
  memcpy(out, real, strlen(real) + 1);
  return 1;
}

/* The directory of the file this code was loaded from (libmbdae.so, or the
 * program it is linked into) and whether that is a shared library. */
static const char anchor; /* an object of this file, for dladdr */

static int code_dir(char *dir, size_t len, int *shared) {
  Dl_info info;
  *shared = 0;
  if (dladdr(&anchor, &info) && info.dli_fname && strstr(info.dli_fname, ".so")) {
    char real[PATH_MAX];
    if (!realpath(info.dli_fname, real) || strlen(real) >= len) return 0;
    memcpy(dir, real, strlen(real) + 1);
    *shared = 1;
  } else {
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    if (n <= 0) return 0;
    dir[n] = '\0';
  }
  char *slash = strrchr(dir, '/');
  if (!slash) return 0;
  *slash = '\0';
  return 1;
}

const char *mbdae_scenario_dir(void) {
  static char found[PATH_MAX];
  const char *env = getenv("MBDAE_SCENARIO_DIR");
  if (env && *env) return env;
  char dir[PATH_MAX];
  int shared;
  if (code_dir(dir, sizeof dir, &shared)) {
#if defined(MBDAE_SCENARIO_RELDIR) && defined(MBDAE_SCENARIO_LIB_RELDIR)
    /* installed: bindir or libdir -> datadir/mbdae/scenarios (relocatable) */
    if (existing_dir(dir, shared ? MBDAE_SCENARIO_LIB_RELDIR : MBDAE_SCENARIO_RELDIR, found,
                     sizeof found))
      return found;
#endif
  }
  return MBDAE_SCENARIO_DIR; /* a build tree: the source tree's scenarios */
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* path, or DIR/sub/path(.yaml) in the shipped scenarios' directory */
static const char *resolve_in(const char *path, const char *sub, char *buf, size_t len) {
  if (!path || !*path || strchr(path, '/')) return path;
  if (is_file(path)) return path; /* here: it wins (a directory ball/ does not) */
  const char *dir = mbdae_scenario_dir();
  static const char *const suffix[] = {"", ".yaml"};
  for (int i = 0; i < 2; ++i) {
    int w = snprintf(buf, len, "%s/%s%s%s", dir, sub, path, suffix[i]);
    if (w > 0 && (size_t)w < len && is_file(buf)) return buf;
  }
  return path; /* not there either: the loader says it cannot open path */
}

const char *mbdae_scenario_resolve(const char *path, char *buf, size_t len) {
  return resolve_in(path, "", buf, len);
}

const char *mbdae_study_resolve(const char *path, char *buf, size_t len) {
  return resolve_in(path, "studies/", buf, len);
}

int mbdae_scenario_name_missing(const char *path, const char *what, char *err, size_t errlen) {
  if (!path || strchr(path, '/') || access(path, F_OK) == 0) return 0;
  if (err && errlen)
    snprintf(err, errlen,
             "%s: cannot open: no such file here, nor among the shipped %s in %s%s "
             "(`mbdae list` shows them)",
             path, what, mbdae_scenario_dir(), strcmp(what, "studies") ? "" : "/studies");
  return 1;
}
