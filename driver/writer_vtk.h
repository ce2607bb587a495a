/* writer_vtk.h - the scene of model kinds that provide geometry
 * (mbdae/geometry.h), one frame per output sample: VTK PolyData for ParaView
 * (DIR/vtk/frame_NNNNNN.vtp, base64 binary arrays, the time as TimeValue
 * field data, plus the index DIR/animation.pvd; output.vtk) and/or the
 * gnuplot animation (scene_animation.h; output.animation). */
#ifndef MBDAE_DRIVER_WRITER_VTK_H
#define MBDAE_DRIVER_WRITER_VTK_H

#include "mbdae/model.h"

typedef struct mbdae_vtk mbdae_vtk;

/* At most this many frame files: when a run reaches it, every other frame
 * is dropped and the spacing doubles. A frame's file is named by its output
 * sample number, (t - t0) / dt_out, so names can have gaps (output.every,
 * thinning); animation.pvd lists them. */
#define MBDAE_VTK_MAX_FRAMES 2000

/* Flags of mbdae_vtk_open. */
#define MBDAE_SCENE_VTK 1       /* write the VTK frames and animation.pvd */
#define MBDAE_SCENE_ANIMATION 2 /* write the animation's frame data (render: mbdae_vtk_render) */
#define MBDAE_SCENE_FRESH 4     /* a new run: remove the frames an earlier run left in dir */

/* NULL when the kind has no geometry, flags ask for nothing, or the files
 * cannot be created (then *failed is set). Frames closer than min_dt (the
 * output interval) to the previous one (pre-event states), or than the
 * spacing of the first two frames when that is larger (output.every,
 * thinning), are skipped. */
mbdae_vtk *mbdae_vtk_open(const char *kind, const char *dir, double min_dt, int flags,
                          int *failed);
/* Remove the scene files an earlier run left in dir (VTK frames, .pvd,
 * animation): what a run that writes no scene calls. */
void mbdae_vtk_clear(const char *dir);
/* Write one frame of the model's state y at time t (or skip it, see
 * above). 0, MBDAE_ERR_IO, MBDAE_ERR_MEMORY or the provider's error. */
int mbdae_vtk_frame(mbdae_vtk *v, mbdae_model *model, double t, const double *y);
/* Checkpoints: the frames written so far (count, and their times in *times). */
long mbdae_vtk_frames(const mbdae_vtk *v, const double **times);
/* Resume: go on after n frames written at these times. 0, MBDAE_ERR_MEMORY, or
 * MBDAE_ERR_NOT_FOUND when one of their files is missing (vtk/ deleted). */
int mbdae_vtk_restore(mbdae_vtk *v, const double *times, long n);
/* With MBDAE_SCENE_ANIMATION: render the animation of the frames so far
 * (mbdae_animation_render). Never fails; note gets why nothing was drawn. */
void mbdae_vtk_render(mbdae_vtk *v, const char *title, char *note, size_t notelen);
/* Write the .pvd index (MBDAE_SCENE_VTK) and free. 0 or MBDAE_ERR_IO. */
int mbdae_vtk_close(mbdae_vtk **v);

#endif
