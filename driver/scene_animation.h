/* scene_animation.h - a model's 3-D scene as pictures (output.animation):
 * per-frame gnuplot data written alongside the VTK frames (writer_vtk.c),
 * rendered at the end to PNG frames and an animated GIF. */
#ifndef MBDAE_DRIVER_SCENE_ANIMATION_H
#define MBDAE_DRIVER_SCENE_ANIMATION_H

#include <stddef.h>

#include "mbdae/geometry.h"

/* At most this many pictures: the frames are thinned evenly. */
#define MBDAE_ANIMATION_MAX_FRAMES 100

/* Write DIR/animation/frame_NUMBER.dat for the scene g at time t (the
 * segments, polygon outlines and vertex cells, coloured by the `part` cell
 * array; taut strings and points in contact highlighted). 0 or
 * MBDAE_ERR_IO. */
int mbdae_animation_frame(const char *dir, long number, double t, const mbdae_geometry *g);

/* Remove DIR/animation/frame_NUMBER.dat (a thinned frame). */
void mbdae_animation_drop(const char *dir, long number);

/* Remove what an earlier run left: DIR/animation/ frames, script and log,
 * and DIR/animation.gif. */
void mbdae_animation_clear(const char *dir);

/* Render the frames (n, their times and numbers; at most
 * MBDAE_ANIMATION_MAX_FRAMES of them, evenly spread) with gnuplot:
 * DIR/animation/animation.gp, DIR/animation/frame_NNNNNN.png,
 * DIR/animation.gif. Never fails the run: returns 0, with a one-line note
 * ("" if none) when gnuplot is missing or failed. */
int mbdae_animation_render(const char *dir, const double *times, const long *numbers, long n,
                           const char *title, char *note, size_t notelen);

#endif
