/* jaccheck.c - compare an analytic Jacobian with central differences.
 * For a DAE the checked matrix is dF/dy + cj dF/dyp, for an ODE df/dy. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/jaccheck.h"
#include "mbdae/status.h"
#include "problem_impl.h"

static int in_pattern(const mbdae_problem *p, int row, int col) {
  for (mbdae_index k = p->colptr[col]; k < p->colptr[col + 1]; ++k)
    if (p->rowind[k] == row) return 1;
  return 0;
}

int mbdae_jacobian_check(const mbdae_problem *p, double t, const double *y,
                         const double *yp, double cj, double rel_step,
                         double miss_tol, mbdae_jac_check *out) {
  if (!p || !y || !out || (p->form == MBDAE_FORM_DAE && !yp)) return MBDAE_ERR_ARGUMENT;
  if (!p->jac_dense && !p->jac_sparse) return MBDAE_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  out->worst_row = out->worst_col = out->miss_row = out->miss_col = -1;
  const size_t n = (size_t)p->n;
  const int dae = p->form == MBDAE_FORM_DAE;
  if (rel_step <= 0) rel_step = cbrt(DBL_EPSILON);
  double *Ja = malloc(n * n * sizeof *Ja);
  double *yy = malloc(n * sizeof *yy), *yyp = dae ? malloc(n * sizeof *yyp) : NULL;
  double *fp = malloc(n * sizeof *fp), *fm = malloc(n * sizeof *fm);
  int rc = MBDAE_OK;
  if (!Ja || !yy || (dae && !yyp) || !fp || !fm) {
    rc = MBDAE_ERR_MEMORY;
    goto done;
  }
  rc = mbdae_problem_eval_jacobian_dense(p, t, cj, y, yp, Ja);
  if (rc != 0) goto done;
  /* with a sparse Jacobian only, Ja came from the pattern: misses are real */
  const int sparse = p->jac_sparse != NULL && p->colptr != NULL;
  memcpy(yy, y, n * sizeof *yy);
  if (dae) memcpy(yyp, yp, n * sizeof *yyp);
  for (size_t j = 0; j < n; ++j) {
    double hy = rel_step * fmax(1.0, fabs(y[j]));
    /* column j of dF/dy: perturb y_j */
    yy[j] = y[j] + hy;
    rc = mbdae_problem_eval(p, t, yy, dae ? yyp : NULL, fp);
    yy[j] = y[j] - hy;
    if (rc == 0) rc = mbdae_problem_eval(p, t, yy, dae ? yyp : NULL, fm);
    yy[j] = y[j];
    if (rc != 0) goto done;
    double *fd = malloc(n * sizeof *fd);
    if (!fd) { rc = MBDAE_ERR_MEMORY; goto done; }
    for (size_t i = 0; i < n; ++i) fd[i] = (fp[i] - fm[i]) / (2 * hy);
    if (dae && cj != 0.0) { /* + cj dF/dyp_j */
      double hp = rel_step * fmax(1.0, fabs(yp[j]));
      yyp[j] = yp[j] + hp;
      rc = mbdae_problem_eval(p, t, yy, yyp, fp);
      yyp[j] = yp[j] - hp;
      if (rc == 0) rc = mbdae_problem_eval(p, t, yy, yyp, fm);
      yyp[j] = yp[j];
      if (rc != 0) { free(fd); goto done; }
      for (size_t i = 0; i < n; ++i) fd[i] += cj * (fp[i] - fm[i]) / (2 * hp);
    }
    for (size_t i = 0; i < n; ++i) {
      double a = Ja[j * n + i];
      double err = fabs(a - fd[i]);
      double rel = err / fmax(1.0, fabs(fd[i]));
      if (rel > out->max_rel_err || isnan(err)) {
        out->max_rel_err = isnan(err) ? INFINITY : rel;
        out->worst_row = (int)i;
        out->worst_col = (int)j;
        out->worst_analytic = a;
        out->worst_fd = fd[i];
      }
      if (err > out->max_abs_err || isnan(err)) out->max_abs_err = isnan(err) ? INFINITY : err;
      if (sparse && fabs(fd[i]) > miss_tol && !in_pattern(p, (int)i, (int)j)) {
        if (out->pattern_misses == 0) out->miss_row = (int)i, out->miss_col = (int)j;
        out->pattern_misses++;
      }
    }
    free(fd);
  }
done:
  free(Ja);
  free(yy);
  free(yyp);
  free(fp);
  free(fm);
  return rc < 0 ? rc : (rc > 0 ? MBDAE_ERR_CALLBACK : MBDAE_OK);
}
