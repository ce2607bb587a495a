/* writer_vtk.h - VTK time series for ParaView: DIR/vtk/frame_NNNNNN.vtp per
 * output sample plus the index DIR/animation.pvd, for model kinds that
 * provide geometry (mbdae/geometry.h). */
#ifndef MBDAE_DRIVER_WRITER_VTK_H
#define MBDAE_DRIVER_WRITER_VTK_H

#include "mbdae/model.h"

typedef struct mbdae_vtk mbdae_vtk;

/* NULL when the kind has no geometry or the files cannot be created
 * (then *failed is set). Frames closer than min_dt (the output interval)
 * to the previous one (pre-event states) are skipped. */
mbdae_vtk *mbdae_vtk_open(const char *kind, const char *dir, double min_dt, int *failed);
/* Write one frame of the model's state y at time t. 0 or MBDAE_ERR_IO. */
int mbdae_vtk_frame(mbdae_vtk *v, mbdae_model *model, double t, const double *y);
/* Write the .pvd index and free. 0 or MBDAE_ERR_IO. */
int mbdae_vtk_close(mbdae_vtk **v);

#endif
