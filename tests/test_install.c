/* test_install.c - `cmake --install` into a temporary prefix, then a user's
 * project (tests/data/install) built against the installed tree both ways:
 * find_package(mbdae) with mbdae::mbdae (shared) and mbdae::mbdae_static,
 * and pkg-config (shared, and static with Libs.private); the programs run
 * and their result is compared with the closed form. Also the installed
 * `mbdae` command lists and runs the installed scenarios (by path and by
 * name), the documents its help names, its man page and bash completion are
 * installed, and one example
 * (examples/pendulum_wall.c) builds and passes against the installed tree.
 *
 * The build-tree facts (build dir, cmake, compiler, pkg-config, GNUInstallDirs
 * directories) come as compile definitions from tests/CMakeLists.txt. */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "testutil.h"

static char tmp[1024];    /* this run's scratch directory */
static char prefix[1100]; /* tmp/prefix: the install prefix */
static int installed;

/* Run cmd through the shell with stdout+stderr captured into out (the tail
 * if it is long); returns the exit status (-1 if it could not run). */
static int run(const char *cmd, char *out, size_t len) {
  size_t flen = strlen(cmd) + 16;
  char *full = malloc(flen);
  if (!full) return -1;
  snprintf(full, flen, "( %s ) 2>&1", cmd);
  FILE *f = popen(full, "r");
  free(full);
  if (!f) return -1;
  size_t n = 0;
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (got >= len) got = len - 1;
    if (n + got >= len) { /* keep the tail: drop the oldest bytes */
      size_t drop = n + got - (len - 1);
      memmove(out, out + drop, n - drop);
      n -= drop;
    }
    memcpy(out + n, chunk, got);
    n += got;
  }
  out[n] = '\0';
  int st = pclose(f);
  int rc = st == -1 ? -1 : (WIFEXITED(st) ? WEXITSTATUS(st) : 128);
  if (rc != 0) printf("\n  command failed (%d): %s\n%s\n", rc, cmd, out);
  return rc;
}

static int exists(const char *dir, const char *rel) {
  char path[2048];
  struct stat sb;
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  int ok = stat(path, &sb) == 0;
  if (!ok) printf("\n  missing: %s\n", path);
  return ok;
}

/* The value printed after "key " in a program's output, NAN if absent. */
static double value_of(const char *out, const char *key) {
  const char *p = strstr(out, key);
  double v;
  if (!p || sscanf(p + strlen(key), "%lf", &v) != 1) return NAN;
  return v;
}

/* A decay.c program's output: stopped at y = 1/2, i.e. t = ln 2 / k. */
static void check_decay_output(const char *out) {
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "status MBDAE_STOPPED"));
  double k = value_of(out, "k ");
  CU_ASSERT(k > 0);
  MBDAE_ASSERT_REL(value_of(out, "t_half "), log(2.0) / k, 1e-8);
  MBDAE_ASSERT_REL(value_of(out, "y(t_half) "), 0.5, 1e-8); /* it called libm */
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "model bouncing_ball found"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "validation tables found"));
}

static void test_install_tree(void) {
  char cmd[16384], out[16384];
  snprintf(cmd, sizeof cmd, "'%s' --install '%s' --prefix '%s'", MBDAE_TEST_CMAKE,
           MBDAE_TEST_BUILD_DIR, prefix);
  CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
  installed = 1;
  const char *files[] = {MBDAE_TEST_INCLUDEDIR "/mbdae/mbdae.h",
                         MBDAE_TEST_INCLUDEDIR "/mbdae/engine.h",
                         MBDAE_TEST_INCLUDEDIR "/mbdae/problem.h",
                         MBDAE_TEST_INCLUDEDIR "/mbdae/status.h",
                         MBDAE_TEST_LIBDIR "/libmbdae.so",
                         MBDAE_TEST_LIBDIR "/libmbdae.a",
                         MBDAE_TEST_LIBDIR "/cmake/mbdae/mbdaeConfig.cmake",
                         MBDAE_TEST_LIBDIR "/cmake/mbdae/mbdaeConfigVersion.cmake",
                         MBDAE_TEST_LIBDIR "/cmake/mbdae/mbdaeTargets.cmake",
                         MBDAE_TEST_LIBDIR "/pkgconfig/mbdae.pc",
                         MBDAE_TEST_BINDIR "/mbdae",
                         MBDAE_TEST_DATADIR "/mbdae/scenarios/ball.yaml",
                         NULL};
  for (int i = 0; files[i]; ++i) CU_ASSERT(exists(prefix, files[i]));
}

/* The installed command, run from a directory without scenarios/, lists
 * the installed scenarios (not the source tree's). */
static void test_installed_command(void) {
  CU_ASSERT_TRUE_FATAL(installed);
  char cmd[16384], out[65536], want[2048];
  snprintf(cmd, sizeof cmd, "cd '%s' && env -u MBDAE_SCENARIO_DIR '%s/%s/mbdae' list", tmp,
           prefix, MBDAE_TEST_BINDIR);
  CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
  char real[1024];
  CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(prefix, real));
  snprintf(want, sizeof want, "Scenarios in %s/%s/mbdae/scenarios:", real, MBDAE_TEST_DATADIR);
  if (!strstr(out, want)) printf("\n  expected '%s' in:\n%s\n", want, out);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "ball.yaml"));
  /* the installed studies, for `mbdae sweep NAME` */
  snprintf(want, sizeof want, "Studies in %s/%s/mbdae/scenarios/studies (mbdae sweep NAME):", real,
           MBDAE_TEST_DATADIR);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, want));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "ravine_study_ci.yaml"));
  CU_ASSERT_PTR_NULL(strstr(out, "INVALID")); /* their base scenarios installed beside them */
  CU_ASSERT_PTR_NULL(strstr(out, MBDAE_TEST_SOURCE_DIR "/scenarios"));
  /* and runs an installed scenario */
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s/%s/mbdae' run '%s/%s/mbdae/scenarios/ball.yaml' "
           "--out '%s/ball' --quiet", tmp, prefix, MBDAE_TEST_BINDIR, prefix,
           MBDAE_TEST_DATADIR, tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT(exists(tmp, "ball/series.csv"));
  CU_ASSERT(exists(tmp, "ball/summary.json"));
  /* ... named by its file name or its stem, from a directory without it
   * (tmp holds the directory ball/ of the run above: a directory here does
   * not shadow the shipped name, only a file does) */
  const char *names[] = {"ball.yaml", "ball"};
  for (int i = 0; i < 2; ++i) {
    snprintf(cmd, sizeof cmd, "cd '%s' && env -u MBDAE_SCENARIO_DIR '%s/%s/mbdae' run %s "
             "--out 'by_name_%d' --quiet --no-plots --set solver.t_end=0.5", tmp, prefix,
             MBDAE_TEST_BINDIR, names[i], i);
    CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
    CU_ASSERT(exists(tmp, i ? "by_name_1/events.csv" : "by_name_0/events.csv"));
  }
  /* a name that is nowhere: exit 2, the name in the message */
  snprintf(cmd, sizeof cmd, "cd '%s' && env -u MBDAE_SCENARIO_DIR '%s/%s/mbdae' run no_such "
           "--quiet; echo \"exit $?\"", tmp, prefix, MBDAE_TEST_BINDIR);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "no_such"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "exit 2"));
}

/* Every document a help text names (`first-model-kind.md`, ...) is installed
 * in <prefix>/<docdir>, with the README; the man page holds every command's
 * help; the bash completion is where bash-completion looks. */
static void test_installed_docs(void) {
  CU_ASSERT_TRUE_FATAL(installed);
  char cmd[16384], out[65536];
  CU_ASSERT(exists(prefix, MBDAE_TEST_DOCDIR "/README.md"));
  CU_ASSERT(exists(prefix, MBDAE_TEST_DOCDIR "/user-guide.md"));
  CU_ASSERT(exists(prefix, MBDAE_TEST_DOCDIR "/images/net_capture.png"));
  const char *helps[] = {"--help", "help run", "help resume", "help list", "help validate",
                         "help sweep", NULL};
  int cited = 0;
  for (int h = 0; helps[h]; ++h) {
    snprintf(cmd, sizeof cmd, "'%s/%s/mbdae' %s", prefix, MBDAE_TEST_BINDIR, helps[h]);
    CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
    /* each word ending in .md (a "doc/" in front names the same file) */
    for (const char *p = strstr(out, ".md"); p; p = strstr(p + 3, ".md")) {
      const char *b = p;
      while (b > out && (b[-1] == '-' || b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
                         (b[-1] >= '0' && b[-1] <= '9')))
        --b;
      if (b == p || p[3] == '_' || (p[3] >= 'a' && p[3] <= 'z')) continue;
      char rel[512];
      snprintf(rel, sizeof rel, "%s/%.*s.md", MBDAE_TEST_DOCDIR, (int)(p - b), b);
      CU_ASSERT(exists(prefix, rel));
      ++cited;
    }
  }
  CU_ASSERT(cited >= 5); /* scenario-format, checkpoint, first-model-kind, sweep, ... */
  /* the installed README's links into doc/ point next to it */
  snprintf(cmd, sizeof cmd, "grep -c '](doc/' '%s/%s/README.md'; grep -c '](images/' "
           "'%s/%s/README.md'", prefix, MBDAE_TEST_DOCDIR, prefix, MBDAE_TEST_DOCDIR);
  run(cmd, out, sizeof out);
  CU_ASSERT(strncmp(out, "0\n", 2) == 0 && atoi(out + 2) >= 1);

  if (MBDAE_TEST_HELP2MAN[0]) {
    CU_ASSERT_FATAL(exists(prefix, MBDAE_TEST_MANDIR "/man1/mbdae.1"));
    snprintf(cmd, sizeof cmd, "cat '%s/%s/man1/mbdae.1'", prefix, MBDAE_TEST_MANDIR);
    CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
    const char *want[] = {".SH SYNOPSIS", ".SS \"mbdae run\"", ".SS \"mbdae resume\"",
                          ".SS \"mbdae list\"", ".SS \"mbdae validate\"",
                          ".SS \"mbdae sweep\"", "checkpoint\\-every", "MBDAE_SCENARIO_DIR",
                          "share/doc/mbdae", NULL};
    for (int i = 0; want[i]; ++i) {
      if (!strstr(out, want[i])) printf("\n  mbdae.1 lacks %s\n", want[i]);
      CU_ASSERT_PTR_NOT_NULL(strstr(out, want[i]));
    }
    /* man finds it under the prefix and renders it */
    snprintf(cmd, sizeof cmd, "command -v man >/dev/null || { echo 'no man: not rendered'; "
             "exit 0; }; MANPATH='%s/%s' MANWIDTH=80 man mbdae | grep -c 'mbdae sweep'",
             prefix, MBDAE_TEST_MANDIR);
    CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  } else {
    printf("\n  help2man was not found at configure time: no man page to check\n");
  }
  CU_ASSERT(exists(prefix, MBDAE_TEST_DATADIR "/bash-completion/completions/mbdae"));
  snprintf(cmd, sizeof cmd, "bash -c \"source '%s/%s/bash-completion/completions/mbdae' && "
           "complete -p mbdae\"", prefix, MBDAE_TEST_DATADIR);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "complete -F _mbdae mbdae"));
}

static void test_find_package(void) {
  CU_ASSERT_TRUE_FATAL(installed);
  char cmd[16384], out[65536];
  snprintf(cmd, sizeof cmd,
           "'%s' -S '%s/tests/data/install' -B '%s/consumer' -G '%s' "
           "-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER='%s' -DCMAKE_PREFIX_PATH='%s' "
           "-DMBDAE_EXAMPLE='%s/examples/pendulum_wall.c' "
           "-DMBDAE_PLUGIN='%s/examples/plugin/double_pendulum_wall.c' "
           "&& '%s' --build '%s/consumer'",
           MBDAE_TEST_CMAKE, MBDAE_TEST_SOURCE_DIR, tmp, MBDAE_TEST_GENERATOR, MBDAE_TEST_CC,
           prefix, MBDAE_TEST_SOURCE_DIR, MBDAE_TEST_SOURCE_DIR, MBDAE_TEST_CMAKE, tmp);
  CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);

  snprintf(cmd, sizeof cmd, "'%s/consumer/decay_shared'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  check_decay_output(out);
  /* the shared variant really uses the installed libmbdae.so */
  snprintf(cmd, sizeof cmd, "LD_TRACE_LOADED_OBJECTS=1 '%s/consumer/decay_shared'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, prefix));

  snprintf(cmd, sizeof cmd, "'%s/consumer/decay_static'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  check_decay_output(out);
  snprintf(cmd, sizeof cmd, "LD_TRACE_LOADED_OBJECTS=1 '%s/consumer/decay_static'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NULL(strstr(out, "libmbdae"));

  snprintf(cmd, sizeof cmd, "'%s/consumer/example'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "all checks passed"));

  /* the plug-in built against the installed headers, run by the installed command */
  snprintf(cmd, sizeof cmd, "cd '%s' && '%s/%s/mbdae' run --plugin '%s/consumer/libplugin.so' "
           "'%s/examples/plugin/double_pendulum_wall.yaml' --out '%s/dpw' --quiet --no-plots",
           tmp, prefix, MBDAE_TEST_BINDIR, tmp, MBDAE_TEST_SOURCE_DIR, tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT(exists(tmp, "dpw/events.csv"));
}

/* The installed Python package loads the installed library (a path
 * relative to itself) and finds the installed scenarios by name.
 * (MBDAE_TEST_PYTHON_ENV: a sanitized build's LD_PRELOAD of the runtimes.) */
static void test_installed_python(void) {
  CU_ASSERT_TRUE_FATAL(installed);
  if (!MBDAE_TEST_PYTHON[0]) {
    printf("\n  no python3: the installed package is not tried\n");
    return;
  }
  char cmd[16384], out[16384];
  CU_ASSERT(exists(prefix, MBDAE_TEST_PYTHONDIR "/mbdae/__init__.py"));
  snprintf(cmd, sizeof cmd,
           "cd '%s' && env -u MBDAE_SCENARIO_DIR -u MBDAE_LIBRARY PYTHONPATH='%s/%s' %s '%s' -c "
           "\"import mbdae; r = mbdae.run('ball.yaml', set={'solver.t_end': 1.0}); "
           "print(mbdae.library_path); print('impacts', r.outcome('impacts')); "
           "print('dir', mbdae.scenario_dir())\"",
           tmp, prefix, MBDAE_TEST_PYTHONDIR, MBDAE_TEST_PYTHON_ENV, MBDAE_TEST_PYTHON);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(out, prefix)); /* the installed library */
  CU_ASSERT_PTR_NULL(strstr(out, MBDAE_TEST_BUILD_DIR "/lib"));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "impacts 1")); /* t1 = 0.45 s, t2 = 1.08 s */
  CU_ASSERT_PTR_NOT_NULL(strstr(out, "/" MBDAE_TEST_DATADIR "/mbdae/scenarios"));
}

static void test_pkg_config(void) {
  CU_ASSERT_TRUE_FATAL(installed);
  char cmd[16384], out[65536], pc[2048], src[2048];
  snprintf(pc, sizeof pc, "PKG_CONFIG_PATH='%s/%s/pkgconfig' '%s'", prefix, MBDAE_TEST_LIBDIR,
           MBDAE_TEST_PKG_CONFIG);
  snprintf(src, sizeof src, "%s/tests/data/install/decay.c", MBDAE_TEST_SOURCE_DIR);

  /* shared: cc app.c $(pkg-config --cflags --libs mbdae) */
  snprintf(cmd, sizeof cmd,
           "%s --modversion mbdae && '%s' -std=c11 '%s' -o '%s/pc_shared' "
           "$(%s --cflags --libs mbdae) -Wl,-rpath,\"$(%s --variable=libdir mbdae)\"",
           pc, MBDAE_TEST_CC, src, tmp, pc, pc);
  CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
  snprintf(cmd, sizeof cmd, "'%s/pc_shared'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  check_decay_output(out);

  /* static: the archive, then what `pkg-config --static --libs` lists
   * (Libs.private must be complete); --as-needed drops the unused .so, so
   * the program must not load libmbdae.so. */
  snprintf(cmd, sizeof cmd,
           "'%s' -std=c11 '%s' -o '%s/pc_static' $(%s --cflags mbdae) -Wl,--as-needed "
           "\"$(%s --variable=libdir mbdae)/libmbdae.a\" $(%s --static --libs mbdae)",
           MBDAE_TEST_CC, src, tmp, pc, pc, pc);
  CU_ASSERT_EQUAL_FATAL(run(cmd, out, sizeof out), 0);
  snprintf(cmd, sizeof cmd, "'%s/pc_static'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  check_decay_output(out);
  snprintf(cmd, sizeof cmd, "LD_TRACE_LOADED_OBJECTS=1 '%s/pc_static'", tmp);
  CU_ASSERT_EQUAL(run(cmd, out, sizeof out), 0);
  CU_ASSERT_PTR_NULL(strstr(out, "libmbdae"));
}

int main(void) {
  snprintf(tmp, sizeof tmp, "%s", mbdae_test_tmpdir("install"));
  snprintf(prefix, sizeof prefix, "%s/prefix", tmp);
  static const mbdae_test tests[] = {
    {"cmake --install into a temporary prefix", test_install_tree},
    {"installed mbdae lists and runs the installed scenarios", test_installed_command},
    {"installed documents, man page, bash completion", test_installed_docs},
    {"find_package(mbdae): shared, static, an example", test_find_package},
    {"pkg-config mbdae: shared and static", test_pkg_config},
    {"the installed Python package", test_installed_python},
    {NULL, NULL}};
  int rc = mbdae_test_main("install", tests);
  if (rc == 0) {
    char cmd[1100], out[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    run(cmd, out, sizeof out);
  } else {
    printf("install test files kept in %s\n", tmp);
  }
  return rc;
}
