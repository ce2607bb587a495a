/* cmd_resume.c - `mbdae resume RUNDIR [--quiet]`: continue a run from
 * RUNDIR/checkpoint.bin (doc/checkpoint.md) - the scenario text and
 * overrides stored there, the output files cut back to their lengths at the
 * checkpoint and appended to. Exit codes as `mbdae run`. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "cli.h"
#include "interrupt.h"
#include "mbdae/status.h"
#include "progress.h"
#include "run.h"
#include "scenario.h"

static const char usage[] =
  "usage: mbdae resume RUNDIR [--quiet]\n"
  "\n"
  "Continue the run whose output directory is RUNDIR from RUNDIR/checkpoint.bin,\n"
  "written by `mbdae run --checkpoint-every T` at each segment boundary or by an\n"
  "interrupted run (SIGINT/SIGTERM). The scenario and its --set overrides are\n"
  "the ones stored in the checkpoint. series.csv and events.csv are cut back to\n"
  "their lengths at the checkpoint and continued; summary.json and the plots\n"
  "are written again at the end. With --checkpoint-every the result is\n"
  "byte-identical to the uninterrupted run (checkpoint.md).\n"
  "\n"
  "  -q, --quiet   no progress bar, notes or final line\n"
  "  --plugin FILE load the plug-in the run's model kind comes from (repeatable)\n"
  "  -h, --help    this help\n"
  "\n"
  "Exit codes: 0 ok, 1 the run failed or the checkpoint is missing or corrupt,\n"
  "2 usage, 130/143 interrupted again (a new checkpoint is left).\n";

int mbdae_cmd_resume(int argc, char **argv) {
  static const struct option longopts[] = {
    {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  int quiet = 0;
  const char *dir = NULL;
  optind = 1;
  opterr = 0;
  while (optind < argc) {
    int ch = getopt_long(argc, argv, "+qh", longopts, NULL);
    if (ch == -1) {
      if (optind >= argc) break;
      if (dir) {
        fprintf(stderr, "mbdae resume: one run directory at a time (got '%s' and '%s')\n", dir,
                argv[optind]);
        return MBDAE_EXIT_USAGE;
      }
      dir = argv[optind++];
      continue;
    }
    switch (ch) {
    case 'q': quiet = 1; break;
    case 'h': fputs(usage, stdout); return MBDAE_EXIT_OK;
    default:
      fprintf(stderr, "mbdae resume: bad option '%s' (see mbdae resume --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      return MBDAE_EXIT_USAGE;
    }
  }
  if (!dir || !*dir) {
    fprintf(stderr, "mbdae resume: missing RUNDIR (see mbdae resume --help)\n");
    return MBDAE_EXIT_USAGE;
  }
  /* from here on SIGINT/SIGTERM only set a flag (see mbdae run) */
  if (mbdae_interrupt_install() != 0) return MBDAE_EXIT_FAILURE;
  char err[1024];
  mbdae_checkpoint cp;
  int rc = mbdae_checkpoint_read(dir, &cp, err, sizeof err);
  if (rc) {
    fprintf(stderr, "mbdae resume: cannot resume: %s\n", err);
    return MBDAE_EXIT_FAILURE;
  }
  mbdae_scenario s;
  rc = mbdae_scenario_load_string(NULL, cp.scenario_name, cp.scenario_text,
                                  (const char *const *)cp.sets, cp.nsets, &s, err, sizeof err);
  if (rc && mbdae_interrupt_signal) {
    fprintf(stderr, "mbdae resume: %s (%s unchanged)\n", err, dir);
    mbdae_checkpoint_free(&cp);
    return mbdae_interrupt_exit_code();
  }
  if (rc) {
    fprintf(stderr, "mbdae resume: the scenario stored in %s/%s no longer loads: %s%s\n", dir,
            MBDAE_CHECKPOINT_FILE, err,
            strstr(err, "unknown model kind") ? " (a plug-in's kind? resume with --plugin FILE)"
                                              : "");
    mbdae_checkpoint_free(&cp);
    return MBDAE_EXIT_FAILURE;
  }
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = dir;
  cfg.plots = cp.plots;
  cfg.every = cp.every;
  cfg.event_rows = cp.event_rows;
  cfg.progress = mbdae_progress_wanted(quiet);
  cfg.notes = quiet ? NULL : stderr;
  cfg.checkpoint_every = cp.every_t;
  cfg.interrupt = &mbdae_interrupt_signal;
  cfg.scenario_text = cp.scenario_text;
  cfg.sets = (const char *const *)cp.sets;
  cfg.nsets = cp.nsets;
  cfg.resume = &cp;
  mbdae_run_result *res = malloc(sizeof *res);
  if (!res) {
    free(res);
    mbdae_scenario_free(&s);
    mbdae_checkpoint_free(&cp);
    return MBDAE_EXIT_FAILURE;
  }
  rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
  int code;
  if (res->setup_interrupted) {
    fprintf(stderr, "mbdae resume: %s (%s unchanged)\n", res->message, dir);
    code = mbdae_interrupt_exit_code();
  } else if (res->interrupted && (rc == MBDAE_OK || rc == MBDAE_STOPPED)) {
    fprintf(stderr, "mbdae resume: %s [output in %s]\n", res->message, dir);
    code = mbdae_interrupt_exit_code();
  } else if (rc == MBDAE_OK || rc == MBDAE_STOPPED) {
    if (!quiet)
      printf("%s: %s at t = %g (resumed at t = %g): %ld steps, %ld events, %.3g s -> %s\n",
             s.kind->name, mbdae_run_status_word(res->status), res->stats.t_reached, cp.t,
             res->stats.steps, res->events, res->wall_time, dir);
    code = MBDAE_EXIT_OK;
  } else if (rc == MBDAE_ERR_SCENARIO || rc == MBDAE_ERR_IO || rc == MBDAE_ERR_MEMORY ||
             rc == MBDAE_ERR_ARGUMENT) {
    fprintf(stderr, "mbdae resume: cannot resume %s: %s\n", dir, err);
    code = MBDAE_EXIT_FAILURE;
  } else {
    fprintf(stderr, "mbdae resume: %s: run failed (%s): %s [output in %s]\n", s.path,
            mbdae_status_name(res->status), res->message, dir);
    code = MBDAE_EXIT_FAILURE;
  }
  free(res);
  mbdae_scenario_free(&s);
  mbdae_checkpoint_free(&cp);
  return code;
}
