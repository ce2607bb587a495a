/* main.c - the `mbdae` command: dispatch to a subcommand (driver/cli.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

static const char usage[] =
  "usage: mbdae COMMAND [OPTIONS]\n"
  "\n"
  "Simulate constrained multibody systems with non-smooth events.\n"
  "\n"
  "commands:\n"
  "  run SCENARIO   check and run a scenario file, write its output directory\n"
  "  resume RUNDIR  continue a checkpointed or interrupted run (doc/checkpoint.md)\n"
  "  list           model kinds, shipped scenarios, parameter schemas\n"
  "  validate       run the validation cases and print the comparison table\n"
  "  sweep STUDY    run a parameter study over a base scenario (doc/sweep.md)\n"
  "\n"
  "`mbdae COMMAND --help` describes each command. Exit codes: 0 ok,\n"
  "1 run or validation failure, 2 bad input or usage.\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage, stderr);
    return MBDAE_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
    fputs(usage, stdout);
    return MBDAE_EXIT_OK;
  }
  if (!strcmp(cmd, "run")) return mbdae_cmd_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "resume")) return mbdae_cmd_resume(argc - 1, argv + 1);
  if (!strcmp(cmd, "list")) return mbdae_cmd_list(argc - 1, argv + 1);
  if (!strcmp(cmd, "validate")) return mbdae_cmd_validate(argc - 1, argv + 1);
  if (!strcmp(cmd, "sweep")) return mbdae_cmd_sweep(argc - 1, argv + 1);
  fprintf(stderr, "mbdae: unknown command '%s' (see mbdae --help)\n", cmd);
  return MBDAE_EXIT_USAGE;
}
