/* ida_krylov.h - IDA's Newton systems by SPGMR with a preconditioner
 * (linear_solver spgmr / spgmr-jacobi; doc/engine.md, "Krylov"). */
#ifndef MBDAE_IDA_KRYLOV_H
#define MBDAE_IDA_KRYLOV_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_nvector.h>

#include "engine_impl.h"

typedef struct mbdae_ida_krylov mbdae_ida_krylov;

/* Create the SPGMR solver (*LS, owned by the caller) and its preconditioner
 * data for IDA memory mem; attach both to mem with IDASetLinearSolver and
 * IDASetPreconditioner (user data: the engine, whose backend hands the
 * preconditioner back through mbdae_ida_krylov_of). Fills e->msg on failure. */
int mbdae_ida_krylov_create(mbdae_engine *e, SUNContext ctx, N_Vector y, void *mem,
                            SUNLinearSolver *LS, mbdae_ida_krylov **k);
/* After IDAReInit: the next set-up evaluates and factors afresh. */
void mbdae_ida_krylov_reset(mbdae_ida_krylov *k);
/* The preconditioner's Jacobian evaluations (s->prec_factors). */
void mbdae_ida_krylov_stats(const mbdae_ida_krylov *k, mbdae_stats *s);
void mbdae_ida_krylov_free(mbdae_ida_krylov **k);

/* The preconditioner of engine e (defined by the IDA backend). */
mbdae_ida_krylov *mbdae_ida_krylov_of(mbdae_engine *e);

#endif
