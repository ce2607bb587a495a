/* output_dir.h - create a run's output directory (with its parents). */
#ifndef MBDAE_DRIVER_OUTPUT_DIR_H
#define MBDAE_DRIVER_OUTPUT_DIR_H

#include <stddef.h>
#include <stdio.h>

/* mkdir -p: 0, or MBDAE_ERR_IO with "cannot create DIR: reason" in err. */
int mbdae_mkdir_p(const char *dir, char *err, size_t errlen);

/* fopen for the files of a run: the last component is never followed if it
 * is a symbolic link (O_NOFOLLOW: a pre-planted series.csv -> elsewhere is
 * refused with ELOOP, not overwritten) and must be a regular file (a FIFO
 * is refused without blocking). Modes "w", "wb", "a", "r", with "+" also
 * readable ("w+", "a+", "r+b"). NULL with errno set on failure. */
FILE *mbdae_fopen_out(const char *path, const char *mode);

/* A subdirectory of a run's directory (vtk/, animation/): created if absent,
 * and a real directory, never a symbolic link to one. 0 or MBDAE_ERR_IO
 * with errno set. */
int mbdae_subdir_make(const char *path);

/* Remove DIR/<names matching the fnmatch pattern>; nothing when DIR is not a
 * real directory (a planted link is not followed). */
void mbdae_remove_matching(const char *dir, const char *pattern);

/* The lock of an output directory: one writer at a time (two runs into one
 * directory interleaved series.csv). flock(LOCK_EX | LOCK_NB) on
 * DIR/.mbdae.lock, which holds the owner's pid while it runs; the (empty)
 * file stays after the run (removing it would let a third process lock a new file while a
 * second still holds the old one). 0 with *fd the lock, or MBDAE_ERR_IO and
 * "DIR is in use by another mbdae run, resume or sweep (pid N): refused, nothing
 * changed". Released by mbdae_dir_unlock or the process's exit. */
#define MBDAE_LOCK_FILE ".mbdae.lock"
int mbdae_dir_lock(const char *dir, int *fd, char *err, size_t errlen);
void mbdae_dir_unlock(int *fd);

/* 1 when dir is relative and has no ".." component: where a scenario's
 * output.dir may point without --out (doc/scenario-format.md). */
int mbdae_out_dir_confined(const char *dir);

/* Put a finished temporary file in place, so that a reader never sees a
 * half-written one: rename tmp to fin when ok, else (or when the rename
 * fails) remove tmp and put "cannot write FIN" in err. Frees tmp and fin.
 * 0 or MBDAE_ERR_IO. */
int mbdae_commit_file(char *tmp, char *fin, int ok, char *err, size_t errlen);

#endif
