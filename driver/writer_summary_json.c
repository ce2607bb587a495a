/* writer_summary_json.c - summary.json: status and message, model, scenario,
 * method, solver statistics, events, invariants at start/end with their
 * drift, the model's outcomes, plots and wall time. Written to a temporary
 * name and renamed, so a reader never sees half a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "solver_schema.h"
#include "json_format.h"
#include "output_dir.h"
#include "writer.h"

static void kv_str(FILE *f, const char *k, const char *v, int comma) {
  fprintf(f, "  ");
  mbdae_json_string(f, k);
  fprintf(f, ": ");
  mbdae_json_string(f, v);
  fprintf(f, "%s\n", comma ? "," : "");
}

static void kv_num(FILE *f, const char *indent, const char *k, double v, int comma) {
  fprintf(f, "%s", indent);
  mbdae_json_string(f, k);
  fprintf(f, ": ");
  mbdae_json_number(f, v);
  fprintf(f, "%s\n", comma ? "," : "");
}

static void kv_long(FILE *f, const char *indent, const char *k, long v, int comma) {
  fprintf(f, "%s", indent);
  mbdae_json_string(f, k);
  fprintf(f, ": %ld%s\n", v, comma ? "," : "");
}

static const char *choice(const mbdae_param_spec *specs, int nspecs, const char *key, int i) {
  for (int k = 0; k < nspecs; ++k)
    if (!strcmp(specs[k].key, key)) {
      for (int j = 0; specs[k].choices[j]; ++j)
        if (j == i) return specs[k].choices[j];
    }
  return "?";
}

/* The pace of an adaptive run (issue: which regime was it in): steps per
 * order, their mean, factorisations per step, restarts and the steps spent
 * climbing back after them. */
static void pace_stats(FILE *f, const mbdae_stats *st) {
  long n = 0, sum = 0;
  int top = 0;
  for (int q = 1; q <= MBDAE_STATS_ORDERS; ++q) {
    n += st->steps_by_order[q - 1];
    sum += q * st->steps_by_order[q - 1];
    if (st->steps_by_order[q - 1]) top = q;
  }
  fprintf(f, "    \"steps_by_order\": [");
  for (int q = 1; q <= top; ++q) fprintf(f, "%s%ld", q > 1 ? ", " : "", st->steps_by_order[q - 1]);
  fprintf(f, "],\n");
  kv_num(f, "    ", "mean_order", n ? (double)sum / (double)n : 0.0, 1);
  kv_num(f, "    ", "setups_per_step",
         st->steps ? (double)st->lin_setups / (double)st->steps : 0.0, 1);
  kv_long(f, "    ", "restarts", st->restarts, 1);
  kv_long(f, "    ", "ramp_steps", st->ramp_steps, 1);
  kv_long(f, "    ", "reuse_refactors", st->reuse_refactors, 1);
  kv_long(f, "    ", "grouped_roots", st->grouped_roots, 1);
  if (st->krylov_iters || st->prec_factors) {
    kv_long(f, "    ", "krylov_iters", st->krylov_iters, 1);
    kv_long(f, "    ", "prec_evals", st->prec_factors, 1);
  }
}

int mbdae_summary_json_print(FILE *f, const mbdae_scenario *s, const mbdae_run_result *res) {
  fprintf(f, "{\n");
  kv_str(f, "status", res->interrupted ? "interrupted" : mbdae_run_status_word(res->status), 1);
  kv_str(f, "status_code", mbdae_status_name(res->status), 1);
  kv_str(f, "message", res->message, 1);
  kv_str(f, "model", s->kind->name, 1);
  kv_str(f, "scenario", s->path, 1);
  kv_str(f, "description", s->description, 1);
  kv_str(f, "method", choice(mbdae_solver_specs, mbdae_solver_nspecs, "method",
                             (int)s->options.method), 1);
  kv_str(f, "linear_solver", choice(mbdae_solver_specs, mbdae_solver_nspecs, "linear_solver",
                                    (int)s->options.linsol), 1);
  if (s->options.method == MBDAE_METHOD_ARKODE)
    kv_str(f, "arkode_table", choice(mbdae_solver_specs, mbdae_solver_nspecs, "arkode_table",
                                     (int)s->options.arkode_table), 1);
  kv_num(f, "  ", "t0", s->options.t0, 1);
  kv_num(f, "  ", "t_end", s->options.t_end, 1);
  kv_num(f, "  ", "t_reached", res->stats.t_reached, 1);
  kv_str(f, "final_mode", res->final_mode, 1);
  kv_long(f, "  ", "samples", res->samples, 1);
  kv_long(f, "  ", "rows_written", res->rows, 1);
  kv_long(f, "  ", "events", res->events, 1);
  fprintf(f, "  \"stats\": {\n");
  const mbdae_stats *st = &res->stats;
  kv_long(f, "    ", "steps", st->steps, 1);
  kv_long(f, "    ", "rhs_evals", st->rhs_evals, 1);
  kv_long(f, "    ", "jac_evals", st->jac_evals, 1);
  kv_long(f, "    ", "lin_setups", st->lin_setups, 1);
  kv_long(f, "    ", "newton_iters", st->newton_iters, 1);
  kv_long(f, "    ", "newton_fails", st->newton_fails, 1);
  kv_long(f, "    ", "err_test_fails", st->err_test_fails, 1);
  kv_long(f, "    ", "root_evals", st->root_evals, 1);
  kv_long(f, "    ", "events", st->events, 1);
  kv_long(f, "    ", "calcic_fallbacks", st->calcic_fallbacks, 1);
  kv_num(f, "    ", "max_repair", st->max_repair, 1);
  kv_num(f, "    ", "last_step", st->last_step, 1);
  pace_stats(f, st);
  if (s->options.method == MBDAE_METHOD_MOREAU) {
    kv_long(f, "    ", "nonsmooth_iters", st->nonsmooth_iters, 1);
    kv_long(f, "    ", "nonsmooth_fallbacks", st->nonsmooth_fallbacks, 1);
    kv_long(f, "    ", "index_set_max", st->index_set_max, 1);
    kv_num(f, "    ", "index_set_mean", st->index_set_mean, 1);
    kv_num(f, "    ", "max_violation", st->max_violation, 1);
    kv_num(f, "    ", "max_energy_rise", st->max_energy_rise, 1);
    kv_num(f, "    ", "work_impulses", st->work_impulses, 1);
    kv_num(f, "    ", "dissipated_scheme", st->dissipated_scheme, 1);
    kv_num(f, "    ", "work_applied", st->work_applied, 1);
    kv_long(f, "    ", "projections", st->projections, 1);
    kv_num(f, "    ", "max_violation_projected", st->max_violation_before, 1);
  }
  kv_num(f, "    ", "solver_wall_time", st->wall_time, 0);
  fprintf(f, "  },\n  \"invariants\": {");
  for (int i = 0; i < res->ninv; ++i) {
    const mbdae_run_invariant *v = &res->inv[i];
    fprintf(f, "%s\n    ", i ? "," : "");
    mbdae_json_string(f, v->name);
    fprintf(f, ": {\"start\": ");
    mbdae_json_number(f, v->start);
    fprintf(f, ", \"end\": ");
    mbdae_json_number(f, v->end);
    fprintf(f, ", \"max_drift\": ");
    mbdae_json_number(f, v->max_drift);
    fprintf(f, ", \"max_flow_drift\": ");
    mbdae_json_number(f, v->max_flow_drift);
    fprintf(f, "}");
  }
  fprintf(f, "%s},\n  \"outcomes\": {", res->ninv ? "\n  " : "");
  for (int i = 0; i < res->noutcomes; ++i) {
    const mbdae_outcome *o = &res->outcomes[i];
    fprintf(f, "%s\n    ", i ? "," : "");
    mbdae_json_string(f, o->name);
    fprintf(f, ": {\"value\": ");
    mbdae_json_number(f, o->value);
    fprintf(f, ", \"unit\": ");
    mbdae_json_string(f, o->unit);
    fprintf(f, "}");
  }
  fprintf(f, "%s},\n  \"plots\": {\"written\": %d, \"note\": ", res->noutcomes ? "\n  " : "",
          res->plots_written);
  mbdae_json_string(f, res->plot_note);
  fprintf(f, "},\n");
  kv_num(f, "  ", "wall_time", res->wall_time, 0);
  fprintf(f, "}\n");
  return ferror(f) ? -1 : 0;
}

static int summary_finish(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                          char *err, size_t errlen) {
  (void)state;
  const mbdae_scenario *s = c->scenario;
  size_t n = strlen(c->dir) + 32;
  char *tmp = malloc(n), *fin = malloc(n);
  if (!tmp || !fin) {
    free(tmp);
    free(fin);
    return MBDAE_ERR_MEMORY;
  }
  snprintf(tmp, n, "%s/.summary.json.tmp", c->dir);
  snprintf(fin, n, "%s/summary.json", c->dir);
  FILE *f = mbdae_fopen_out(tmp, "w");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "cannot write %s", fin);
    free(tmp);
    free(fin);
    return MBDAE_ERR_IO;
  }
  int bad = mbdae_summary_json_print(f, s, res) != 0;
  bad |= fclose(f) != 0;
  return mbdae_commit_file(tmp, fin, !bad, err, errlen);
}

const mbdae_writer_ops mbdae_writer_summary_json = {
  "summary.json", NULL, NULL, NULL, summary_finish, NULL, NULL, NULL
};
