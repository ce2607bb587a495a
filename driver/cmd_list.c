/* cmd_list.c - `mbdae list`: the model kinds and the shipped scenario files;
 * `mbdae list --params MODEL`: a kind's parameter schema; `mbdae list
 * --solver`: the solver: and output: keys with the engine's defaults. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "list_markdown.h"
#include "mbdae/model.h"
#include "mbdae/simulation.h"
#include "param_schema.h"
#include "scenario.h"
#include "solver_schema.h"
#include "sweep.h"

static const char usage[] =
  "usage: mbdae list [--params MODEL | --solver | --markdown]\n"
  "\n"
  "Without options: the model kinds with their summaries, and the scenario\n"
  "files shipped with mbdae (the source tree's or the installed scenarios/,\n"
  "or $MBDAE_SCENARIO_DIR when set) and in ./scenarios.\n"
  "\n"
  "  -p, --params MODEL  the parameter schema of MODEL: key, type, default,\n"
  "                      range, unit, description\n"
  "  -S, --solver        the keys of the solver: and output: sections\n"
  "  -m, --markdown      every section's keys and every model's parameters as\n"
  "                      Markdown (scenario-reference.md is this output)\n"
  "      --plugin FILE   load model kinds from a shared object first (repeatable)\n"
  "  -h, --help          this help\n";

static void print_specs(const char *title, const mbdae_param_spec *specs, int n, int solver,
                        const char *extra_row) {
  printf("%s\n", title);
  printf("  %-18s %-11s %-14s %-28s %-8s %s\n", "key", "type", "default", "range", "unit",
         "description");
  if (extra_row) fputs(extra_row, stdout);
  for (int i = 0; i < n; ++i) {
    mbdae_param_spec s = solver ? mbdae_solver_spec_with_default(&specs[i]) : specs[i];
    char type[32], def[64], range[160];
    mbdae_param_type_text(&s, type, sizeof type);
    mbdae_param_default_text(&s, def, sizeof def);
    mbdae_param_range_text(&s, range, sizeof range);
    printf("  %-18s %-11s %-14s %-28s %-8s %s\n", s.key, type, def, range,
           s.unit && *s.unit ? s.unit : "-", s.doc ? s.doc : "");
  }
}

/* A description on one line: whitespace runs become one space, and a long
 * text is cut with "..." to fit len. */
static void one_line(const char *in, char *out, size_t len) {
  size_t k = 0;
  int space = 0;
  for (; *in && k + 1 < len; ++in) {
    if (*in == ' ' || *in == '\n' || *in == '\t' || *in == '\r') {
      space = k > 0;
      continue;
    }
    if (space && k + 2 < len) out[k++] = ' ';
    space = 0;
    out[k++] = *in;
  }
  out[k] = '\0';
  if (*in && len > 4) snprintf(out + len - 4, 4, "...");
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The scenario files of dir, or (studies) the study files of dir/studies,
 * each with what it runs and its description; a file that does not load
 * is listed as INVALID with the reason. */
static void list_dir(const char *dir, int studies) {
  char sub[PATH_MAX + 16];
  if (studies) {
    snprintf(sub, sizeof sub, "%s/studies", dir);
    dir = sub;
  }
  DIR *d = opendir(dir);
  if (!d) return;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    int yaml = (l > 5 && !strcmp(e->d_name + l - 5, ".yaml")) ||
               (l > 4 && !strcmp(e->d_name + l - 4, ".yml"));
    if (!yaml) continue;
    if (n == cap) {
      size_t c2 = cap ? 2 * cap : 16;
      char **v = realloc(names, c2 * sizeof *v);
      if (!v) break;
      names = v;
      cap = c2;
    }
    names[n] = malloc(l + 1);
    if (!names[n]) break;
    memcpy(names[n++], e->d_name, l + 1);
  }
  closedir(d);
  if (studies && n == 0) {
    free(names);
    return;
  }
  printf(studies ? "\nStudies in %s (mbdae sweep NAME):\n" : "\nScenarios in %s:\n", dir);
  if (n == 0) printf("  (none)\n");
  if (n) qsort(names, n, sizeof *names, cmp_str); /* names is NULL when n is 0 */
  for (size_t i = 0; i < n; ++i) {
    char path[PATH_MAX + 256], err[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    mbdae_scenario s;
    mbdae_sweep_study st;
    if (studies) {
      int ok = mbdae_sweep_study_load(path, &st, err, sizeof err) == 0;
      if (ok && access(st.base_path, R_OK) != 0) { /* the loader does not open it */
        snprintf(err, sizeof err, "%.480s: key 'base': cannot open %.480s", path, st.base_path);
        mbdae_sweep_study_free(&st);
        ok = 0;
      }
      if (ok) {
        char d[128], runs[32];
        one_line(st.description, d, sizeof d);
        snprintf(runs, sizeof runs, "%ld runs", st.nruns);
        printf("  %-36s %-14s %s\n", names[i], runs, d);
        mbdae_sweep_study_free(&st);
      } else {
        printf("  %-36s %-14s INVALID: %s\n", names[i], "?", err);
      }
    } else if (mbdae_scenario_load(path, NULL, 0, &s, err, sizeof err) == 0) {
      char d[128];
      one_line(s.description, d, sizeof d);
      printf("  %-36s %-14s %s\n", names[i], s.kind->name, d);
      mbdae_scenario_free(&s);
    } else {
      printf("  %-36s %-14s INVALID: %s\n", names[i], "?", err);
    }
    free(names[i]);
  }
  free(names);
}

static int same_dir(const char *a, const char *b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (!realpath(a, ra) || !realpath(b, rb)) return 0;
  return strcmp(ra, rb) == 0;
}

int mbdae_cmd_list(int argc, char **argv) {
  static const struct option longopts[] = {{"params", required_argument, NULL, 'p'},
                                           {"markdown", no_argument, NULL, 'm'},
                                           {"solver", no_argument, NULL, 'S'},
                                           {"help", no_argument, NULL, 'h'},
                                           {NULL, 0, NULL, 0}};
  const char *model = NULL;
  int solver = 0, ch;
  optind = 1;
  opterr = 0;
  int markdown = 0;
  while ((ch = getopt_long(argc, argv, ":p:Smh", longopts, NULL)) != -1) {
    switch (ch) {
    case 'p': model = optarg; break;
    case 'S': solver = 1; break;
    case 'm': markdown = 1; break;
    case 'h': fputs(usage, stdout); return MBDAE_EXIT_OK;
    case ':':
      fprintf(stderr, "mbdae list: option '%s' needs a value (see mbdae list --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      return MBDAE_EXIT_USAGE;
    default:
      fprintf(stderr, "mbdae list: bad option '%s' (see mbdae list --help)\n",
              argv[optind - 1] ? argv[optind - 1] : "?");
      return MBDAE_EXIT_USAGE;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "mbdae list: unexpected argument '%s' (see mbdae list --help)\n",
            argv[optind]);
    return MBDAE_EXIT_USAGE;
  }
  if (model) {
    const mbdae_model_kind *k = mbdae_model_kind_find(model);
    if (!k) {
      fprintf(stderr, "mbdae list: unknown model kind '%s' (see mbdae list)\n", model);
      return MBDAE_EXIT_USAGE;
    }
    char title[256];
    snprintf(title, sizeof title, "%s: %s\n\nparameters:", k->name, k->summary ? k->summary : "");
    print_specs(title, k->params, k->nparams, 0, NULL);
    return MBDAE_EXIT_OK;
  }
  if (markdown)
    return mbdae_list_markdown(stdout) == 0 && fflush(stdout) == 0 ? MBDAE_EXIT_OK
                                                                   : MBDAE_EXIT_FAILURE;
  if (solver) {
    char dir[256];
    snprintf(dir, sizeof dir, "  %-18s %-11s %-14s %-28s %-8s %s\n", "dir", "string",
             "out/<stem>", "-", "-", "output directory (relative to the current directory)");
    print_specs("solver:", mbdae_solver_specs, mbdae_solver_nspecs, 1, NULL);
    print_specs("\noutput:", mbdae_output_specs, mbdae_output_nspecs, 0, dir);
    return MBDAE_EXIT_OK;
  }
  printf("Model kinds:\n");
  int nk = 0;
  for (; nk < mbdae_model_kind_count(); ++nk) {
    const mbdae_model_kind *k = mbdae_model_kind_at(nk);
    printf("  %-18s %s\n", k->name, k->summary ? k->summary : "");
  }
  if (!nk) printf("  (none)\n");
  const char *shipped = mbdae_scenario_dir();
  list_dir(shipped, 0);
  list_dir(shipped, 1);
  if (!same_dir("scenarios", shipped)) {
    DIR *d = opendir("scenarios");
    if (d) {
      closedir(d);
      list_dir("scenarios", 0);
      list_dir("scenarios", 1);
    }
  }
  return MBDAE_EXIT_OK;
}
