/* siconos_sbm.h - a dense column-major Delassus matrix in the storages
 * Siconos Numerics' LCP solvers need besides NM_DENSE: compressed columns
 * (NM_SPARSE) and sparse blocks of 1 x 1 (what lcp_nsgs_SBM works on).
 * Shared by the benchmarks that compare with Siconos; header only. */
#ifndef MBDAE_BENCH_SICONOS_SBM_H
#define MBDAE_BENCH_SICONOS_SBM_H

#include <siconos/numerics/CSparseMatrix_internal.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsSparseMatrix.h>
#include <siconos/numerics/SparseBlockMatrix.h>

/* n x n column-major dense with nnz non-zeros, in NM_SPARSE (CSC). */
static inline NumericsMatrix *siconos_csc_of_dense(int n, const double *dense, long nnz) {
  NumericsMatrix *A = NM_create(NM_SPARSE, n, n);
  NM_csc_alloc(A, nnz);
  A->matrix2->origin = NSM_CSC;
  CSparseMatrix *c = A->matrix2->csc;
  long pos = 0;
  for (int j = 0; j < n; ++j) {
    c->p[j] = (CS_INT)pos;
    for (int i = 0; i < n; ++i) {
      double v = dense[(size_t)j * (size_t)n + (size_t)i];
      if (v == 0.0) continue;
      c->i[pos] = (CS_INT)i;
      c->x[pos++] = v;
    }
  }
  c->p[n] = (CS_INT)pos;
  return A;
}

/* The same in sparse-block storage with 1 x 1 blocks. */
static inline NumericsMatrix *siconos_sbm_of_dense(int n, const double *dense, long nnz) {
  NumericsMatrix *A = siconos_csc_of_dense(n, dense, nnz);
  SparseBlockStructuredMatrix *sbm = SBM_new();
  SBM_from_csparse(1, A->matrix2->csc, sbm);
  NumericsMatrix *B = NM_new_SBM(n, n, sbm);
  NM_free(A);
  return B;
}

#endif
