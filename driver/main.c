/* main.c - the `mbdae` command: load the plug-ins named on the command line
 * (or in $MBDAE_PLUGINS), then dispatch to a subcommand (driver/cli.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mbdae/simulation.h"
#include "sweep.h"

static const char usage[] =
  "usage: mbdae [--plugin FILE]... COMMAND [OPTIONS]\n"
  "\n"
  "Simulate constrained multibody systems with non-smooth events.\n"
  "\n"
  "commands:\n"
  "  run SCENARIO   check and run a scenario file, write its output directory\n"
  "  resume RUNDIR  continue a checkpointed or interrupted run\n"
  "  list           model kinds, shipped scenarios, parameter schemas\n"
  "  validate       run the validation cases and print the comparison table\n"
  "  sweep STUDY    run a parameter study over a base scenario\n"
  "  help COMMAND   the help of COMMAND (same as mbdae COMMAND --help)\n"
  "\n"
  "options (before or after the command):\n"
  "  --plugin FILE  load model kinds from a shared object (repeatable; also\n"
  "                 $MBDAE_PLUGINS, a ':'-separated list); see\n"
  "                 first-model-kind.md\n"
  "  --version      print the version\n"
  "  -h, --help     this help\n"
  "\n"
  "`mbdae COMMAND --help` describes each command. A SCENARIO that is not a\n"
  "file here is looked up by name among the shipped scenarios (`mbdae run\n"
  "ball.yaml` or `mbdae run ball`; `mbdae list` shows them).\n"
  "\n"
  "environment:\n"
  "  MBDAE_PLUGINS       plug-ins to load first, a ':'-separated list of files\n"
  "  MBDAE_SCENARIO_DIR  where scenario names are looked up (default: the\n"
  "                      shipped scenarios, <prefix>/share/mbdae/scenarios)\n"
  "\n"
  "The documents named in the help texts (*.md) are installed in\n"
  "<prefix>/share/doc/mbdae (/usr/share/doc/mbdae for a /usr install) and are\n"
  "doc/ in the source tree; `man mbdae` holds every command's help.\n"
  "\n"
  "Exit codes: 0 ok, 1 run or validation failure, 2 bad input or usage.\n";

static int load_plugin(const char *path) {
  char err[1024];
  if (mbdae_plugin_load(path, err, sizeof err) == 0) return 0;
  fprintf(stderr, "mbdae: %s\n", err);
  return -1;
}

/* $MBDAE_PLUGINS: FILE[:FILE...] */
static int load_env_plugins(void) {
  const char *env = getenv("MBDAE_PLUGINS");
  if (!env || !*env) return 0;
  size_t n = strlen(env) + 1;
  char *list = malloc(n);
  if (!list) return -1;
  memcpy(list, env, n);
  int rc = 0;
  for (char *p = list, *next; p && !rc; p = next) {
    next = strchr(p, ':');
    if (next) *next++ = '\0';
    if (*p) rc = load_plugin(p);
  }
  free(list);
  return rc;
}

/* Take every --plugin FILE / --plugin=FILE out of argv (the subcommands do
 * not see them) and load it. Returns 0, or 2 for a usage error, 1 when a
 * plug-in could not be loaded. */
static int take_plugins(int *argc, char **argv) {
  int k = 1;
  for (int i = 1; i < *argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) { /* the rest are not options */
      while (i < *argc) argv[k++] = argv[i++];
      break;
    }
    if (!strcmp(a, "--plugin")) {
      if (i + 1 >= *argc) {
        fprintf(stderr, "mbdae: --plugin needs a file (see mbdae --help)\n");
        return MBDAE_EXIT_USAGE;
      }
      if (load_plugin(argv[++i])) return MBDAE_EXIT_FAILURE;
    } else if (!strncmp(a, "--plugin=", 9)) {
      if (load_plugin(a + 9)) return MBDAE_EXIT_FAILURE;
    } else {
      argv[k++] = argv[i];
    }
  }
  argv[k] = NULL;
  *argc = k;
  return 0;
}

typedef int (*command_fn)(int argc, char **argv);

static command_fn find_command(const char *name) {
  static const struct { const char *name; command_fn fn; } commands[] = {
    {"run", mbdae_cmd_run},           {"resume", mbdae_cmd_resume},
    {"list", mbdae_cmd_list},         {"validate", mbdae_cmd_validate},
    {"sweep", mbdae_cmd_sweep},       {NULL, NULL}};
  for (int i = 0; commands[i].name; ++i)
    if (!strcmp(commands[i].name, name)) return commands[i].fn;
  return NULL;
}

int main(int argc, char **argv) {
  /* a file size limit (RLIMIT_FSIZE) makes write(2) fail with EFBIG, which
   * the writers report with the file's name, instead of killing the process
   * with its output half-written */
  signal(SIGXFSZ, SIG_IGN);
  if (load_env_plugins()) return MBDAE_EXIT_FAILURE;
  int rc = take_plugins(&argc, argv);
  if (rc) return rc;
  if (argc < 2) {
    fputs(usage, stderr);
    return MBDAE_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
    fputs(usage, stdout);
    return MBDAE_EXIT_OK;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
    printf("mbdae %s\n", mbdae_version());
    return MBDAE_EXIT_OK;
  }
  if (!strcmp(cmd, "help")) {
    if (argc < 3) {
      fputs(usage, stdout);
      return MBDAE_EXIT_OK;
    }
    command_fn fn = find_command(argv[2]);
    if (!fn) {
      fprintf(stderr, "mbdae help: unknown command '%s' (see mbdae --help)\n", argv[2]);
      return MBDAE_EXIT_USAGE;
    }
    char *help_argv[] = {argv[2], "--help", NULL};
    return fn(2, help_argv);
  }
  command_fn fn = find_command(cmd);
  if (fn) return fn(argc - 1, argv + 1);
  fprintf(stderr, "mbdae: unknown command '%s' (see mbdae --help)\n", cmd);
  return MBDAE_EXIT_USAGE;
}
