/* cli.h - the subcommands of the `mbdae` program. Each takes its own argv
 * (argv[0] is the subcommand's name) and returns the process exit code:
 * 0 ok, 1 run or validation failure, 2 bad input or usage. */
#ifndef MBDAE_DRIVER_CLI_H
#define MBDAE_DRIVER_CLI_H

enum { MBDAE_EXIT_OK = 0, MBDAE_EXIT_FAILURE = 1, MBDAE_EXIT_USAGE = 2 };

int mbdae_cmd_run(int argc, char **argv);
int mbdae_cmd_resume(int argc, char **argv);
int mbdae_cmd_list(int argc, char **argv);
int mbdae_cmd_validate(int argc, char **argv);

#endif
