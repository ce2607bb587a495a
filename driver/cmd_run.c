/* cmd_run.c - `mbdae run SCENARIO [--out DIR] [--quiet] [--set KEY=VALUE]...
 * [--no-plots] [--format csv|mat|both]`: load and check the scenario, run it, write the output
 * directory. Exit 0 ok, 1 run failure, 2 bad input. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "progress.h"
#include "run.h"
#include "scenario.h"
#include "scenario_dir.h"
#include "text_input.h"

static const char usage[] =
  "usage: mbdae run SCENARIO [--out DIR] [--quiet] [--set KEY=VALUE]... [--no-plots]\n"
  "                 [--format csv|mat|both] [--plugin FILE]...\n"
  "\n"
  "Check SCENARIO (a YAML file, see scenario-format.md) against its schema,\n"
  "run it, and write DIR/series.csv, DIR/events.csv, DIR/summary.json and the\n"
  "model's PNG plots (when gnuplot is installed). A SCENARIO that is not a file\n"
  "here and has no '/' is looked up among the shipped scenarios (`ball.yaml` or\n"
  "`ball`; `mbdae list` shows them).\n"
  "\n"
  "  -o, --out DIR        output directory (default: output.dir of the scenario,\n"
  "                       else out/<scenario file stem> in the current directory)\n"
  "  -s, --set KEY=VALUE  override one scenario value before the checks, e.g.\n"
  "                       --set parameters.e=0.5 --set solver.t_end=3 (repeatable)\n"
  "  -q, --quiet          no progress bar, notes or final line (errors still go\n"
  "                       to stderr)\n"
  "      --no-plots       do not render PNG plots\n"
  "  -f, --format F       csv (series.csv, events.csv), mat (results.mat for\n"
  "                       MATLAB/Octave) or both; same as --set output.format=F\n"
  "      --checkpoint-every T\n"
  "                       integrate in segments of T simulated seconds (whole\n"
  "                       output intervals) and checkpoint DIR/checkpoint.bin at\n"
  "                       each boundary; `mbdae resume DIR` continues a killed\n"
  "                       run with byte-identical output (checkpoint.md)\n"
  "      --plugin FILE    load model kinds from a shared object first\n"
  "                       (repeatable; first-model-kind.md)\n"
  "  -h, --help           this help\n"
  "\n"
  "SIGINT/SIGTERM stop the run at the next output sample, leave a checkpoint\n"
  "and summary.json \"interrupted\" and exit 130/143; `mbdae resume DIR` goes on.\n"
  "\n"
  "Exit codes: 0 ok, 1 the run failed (summary.json says why), 2 bad input\n"
  "(one line FILE:LINE: key '...': reason on stderr; nothing written).\n";

int mbdae_cmd_run(int argc, char **argv) {
  static const struct option longopts[] = {
    {"out", required_argument, NULL, 'o'}, {"set", required_argument, NULL, 's'},
    {"quiet", no_argument, NULL, 'q'},     {"no-plots", no_argument, NULL, 'P'},
    {"help", no_argument, NULL, 'h'},      {"format", required_argument, NULL, 'f'},
    {"checkpoint-every", required_argument, NULL, 'C'},
    {NULL, 0, NULL, 0}};
  double checkpoint_every = 0.0;
  const char *out = NULL;
  int quiet = 0, no_plots = 0, nset = 0;
  const char **sets = calloc((size_t)argc + 1, sizeof *sets);
  const char *format = NULL; /* --format F: applied as the last override */
  if (!sets) return MBDAE_EXIT_FAILURE;
  optind = 1;
  opterr = 0;
  const char *path = NULL;
  /* "+": stop at each non-option, so options may come before or after
   * the scenario whatever POSIXLY_CORRECT says */
  while (optind < argc) {
    int ch = getopt_long(argc, argv, "+:o:s:f:qh", longopts, NULL);
    if (ch == -1) {
      if (optind >= argc) break; /* a trailing "--" */
      if (path) {
        fprintf(stderr, "mbdae run: one scenario at a time (got '%s' and '%s')\n", path,
                argv[optind]);
        free(sets);
        return MBDAE_EXIT_USAGE;
      }
      path = argv[optind++];
      continue;
    }
    switch (ch) {
    case 'o': out = optarg; break;
    case 's': sets[nset++] = optarg; break;
    case 'q': quiet = 1; break;
    case 'P': no_plots = 1; break;
    case 'f': format = optarg; break;
    case 'C': {
      char *end = NULL;
      checkpoint_every = strtod(optarg, &end);
      if (!end || end == optarg || *end || !(checkpoint_every > 0.0) ||
          checkpoint_every > 1e300) {
        fprintf(stderr, "mbdae run: --checkpoint-every needs a positive time, not '%s'\n", optarg);
        free(sets);
        return MBDAE_EXIT_USAGE;
      }
      break;
    }
    case 'h':
      fputs(usage, stdout);
      free(sets);
      return MBDAE_EXIT_OK;
    case ':':
      fprintf(stderr, "mbdae run: option '%s' needs a value (see mbdae run --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      free(sets);
      return MBDAE_EXIT_USAGE;
    default:
      fprintf(stderr, "mbdae run: bad option '%s' (see mbdae run --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      free(sets);
      return MBDAE_EXIT_USAGE;
    }
  }
  /* from here on SIGINT/SIGTERM only set a flag: a signal that arrives while
   * the scenario loads stops the run at its first sample */
  if (mbdae_interrupt_install() != 0) {
    free(sets);
    return MBDAE_EXIT_FAILURE;
  }
  if (!path) {
    fprintf(stderr, "mbdae run: missing SCENARIO (see mbdae run --help)\n");
    free(sets);
    return MBDAE_EXIT_USAGE;
  }
  if (out && !*out) {
    fprintf(stderr, "mbdae run: --out needs a directory name\n");
    free(sets);
    return MBDAE_EXIT_USAGE;
  }
  char err[1024];
  mbdae_scenario s;
  char *format_set = NULL; /* "output.format=F", checked by the schema like any --set */
  if (format) {
    size_t n = strlen(format) + sizeof "output.format=";
    format_set = malloc(n);
    if (!format_set) {
      free(sets);
      return MBDAE_EXIT_FAILURE;
    }
    snprintf(format_set, n, "output.format=%s", format);
    sets[nset++] = format_set;
  }
  /* the text itself is run (and kept in checkpoints, so `mbdae resume`
   * does not depend on the file staying as it was) */
  char found[4096];
  path = mbdae_scenario_resolve(path, found, sizeof found); /* a bare shipped name */
  char *text = NULL;
  size_t text_len = 0;
  int rc = mbdae_scenario_name_missing(path, "scenarios", err, sizeof err)
               ? MBDAE_ERR_IO
               : mbdae_text_file_read(path, &text, &text_len, err, sizeof err);
  if (!rc) rc = mbdae_scenario_load_string(NULL, path, text, sets, nset, &s, err, sizeof err);
  if (!rc && mbdae_interrupt_signal) {
    snprintf(err, sizeof err, "%s: interrupted by a signal after loading it", path);
    mbdae_scenario_free(&s);
    rc = MBDAE_STOPPED;
  }
  if (rc) {
    int stopped = mbdae_interrupt_signal != 0;
    if (stopped) fprintf(stderr, "mbdae run: %s; nothing written\n", err);
    else fprintf(stderr, "%s\n", err);
    free(text);
    free(sets);
    free(format_set);
    return stopped ? mbdae_interrupt_exit_code()
           : rc == MBDAE_ERR_MEMORY ? MBDAE_EXIT_FAILURE : MBDAE_EXIT_USAGE;
  }
  char defdir[4096];
  if (!out && s.out_dir && !mbdae_out_dir_confined(s.out_dir)) {
    /* a scenario file (perhaps someone else's) writes below the current
     * directory only; --out is the user's own choice */
    mbdae_scenario_key_error(&s, "output.dir",
                             "must be a relative path without '..' components (the scenario "
                             "may only write below the current directory); use --out DIR to "
                             "write elsewhere", err, sizeof err);
    fprintf(stderr, "%s\n", err);
    free(text);
    free(sets);
    free(format_set);
    mbdae_scenario_free(&s);
    return MBDAE_EXIT_USAGE;
  }
  if (!out) out = s.out_dir;
  if (!out) {
    snprintf(defdir, sizeof defdir, "out/%s", s.stem);
    out = defdir;
  }
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  cfg.plots = s.plots && !no_plots;
  cfg.progress = mbdae_progress_wanted(quiet);
  cfg.notes = quiet ? NULL : stderr;
  cfg.checkpoint_every = checkpoint_every;
  cfg.interrupt = &mbdae_interrupt_signal;
  cfg.scenario_text = text;
  cfg.sets = sets;
  cfg.nsets = nset;
  mbdae_run_result *res = malloc(sizeof *res);
  if (!res) {
    free(text);
    free(sets);
    free(format_set);
    mbdae_scenario_free(&s);
    return MBDAE_EXIT_FAILURE;
  }
  rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
  int code;
  if (res->setup_interrupted) {
    fprintf(stderr, "mbdae run: %s: %s\n", s.path, res->message);
    code = mbdae_interrupt_exit_code();
  } else if (res->interrupted && (rc == MBDAE_OK || rc == MBDAE_STOPPED)) {
    fprintf(stderr, "mbdae run: %s [output in %s]\n", res->message, out);
    code = mbdae_interrupt_exit_code();
  } else if (rc == MBDAE_ERR_SCENARIO) {
    fprintf(stderr, "%s\n", err);
    code = MBDAE_EXIT_USAGE;
  } else if (rc == MBDAE_OK || rc == MBDAE_STOPPED) {
    if (!quiet)
      printf("%s: %s at t = %g: %ld steps, %ld events, %.3g s -> %s\n", s.kind->name,
             mbdae_run_status_word(res->status), res->stats.t_reached, res->stats.steps,
             res->events, res->wall_time, out);
    code = MBDAE_EXIT_OK;
  } else if (rc == MBDAE_ERR_IO || rc == MBDAE_ERR_MEMORY) {
    fprintf(stderr, "mbdae run: %s\n", err);
    code = MBDAE_EXIT_FAILURE;
  } else {
    fprintf(stderr, "mbdae run: %s: run failed (%s): %s [output in %s]\n", s.path,
            mbdae_status_name(res->status), res->message, out);
    code = MBDAE_EXIT_FAILURE;
  }
  free(res);
  free(text);
  free(sets);
  free(format_set);
  mbdae_scenario_free(&s);
  return code;
}
