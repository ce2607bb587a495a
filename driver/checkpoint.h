/* checkpoint.h - the checkpoint file of a run (RUNDIR/checkpoint.bin, see
 * doc/checkpoint.md): everything `mbdae resume` needs to continue the run
 * exactly - the scenario text and overrides, the restart time, y and y'
 * bit for bit, the model's internal state bytes, the engine state carried
 * across segments, the driver's counters and the byte lengths of the output
 * files. Binary, native byte order (same binary, same machine), closed by
 * a 64-bit FNV-1a checksum; written to a temporary name, fsync'ed, renamed. */
#ifndef MBDAE_DRIVER_CHECKPOINT_H
#define MBDAE_DRIVER_CHECKPOINT_H

#include <stddef.h>

#include "mbdae/engine.h"
#include "run.h"

#define MBDAE_CHECKPOINT_FILE "checkpoint.bin"
/* Largest checkpoint file read (a scenario text of at most 256 MiB and the
 * state; anything larger is refused before it is read) */
#define MBDAE_CHECKPOINT_MAX_BYTES ((uint64_t)1 << 30)
#define MBDAE_CHECKPOINT_MAX_FILES 8

typedef struct mbdae_checkpoint {
  /* what runs */
  char *scenario_name;        /* the scenario path as given (messages, summary.json) */
  char *scenario_text;        /* its YAML text at the start of the run */
  int nsets;
  char **sets;                /* --set overrides */
  double every_t;             /* --checkpoint-every (0: none, an interruption) */
  int plots, every, event_rows;
  /* where it restarts */
  long segment;               /* index of the segment starting at t */
  int skip_first;             /* the sample at t is already written */
  double t;
  int n;
  double *y, *yp;
  size_t model_size;
  unsigned char *model_state;
  /* the engine's carry (mbdae_carry) */
  long events;
  int window_n;
  double *window;
  int nroots;
  mbdae_root_mask_state *masks;
  double grid_t0;
  mbdae_stats stats;          /* accumulated over earlier segments */
  /* the driver's observer state */
  long samples, rows, grid_k;
  double last_t;
  int last_was_sample;
  int has_held;
  double held_t;
  int nrow;
  double *held;
  int ninv;
  mbdae_run_invariant inv[MBDAE_RUN_MAX_INVARIANTS];
  double inv_seg[MBDAE_RUN_MAX_INVARIANTS];
  /* output files (writers with sync/reopen) and VTK frames */
  int nfiles;
  char file_name[MBDAE_CHECKPOINT_MAX_FILES][32];
  long long file_length[MBDAE_CHECKPOINT_MAX_FILES];
  long nframes;
  double *frame_times;
} mbdae_checkpoint;

/* Serialize cp and write DIR/checkpoint.bin atomically (temporary file,
 * fsync, rename, fsync of DIR). 0 or MBDAE_ERR_IO/MEMORY with err filled. */
int mbdae_checkpoint_write(const char *dir, const mbdae_checkpoint *cp, char *err,
                           size_t errlen);

/* Read and verify DIR/checkpoint.bin into cp (free with
 * mbdae_checkpoint_free). MBDAE_ERR_NOT_FOUND when there is none,
 * MBDAE_ERR_IO when it is unreadable, truncated, corrupt or from another
 * format version; err says which. */
int mbdae_checkpoint_read(const char *dir, mbdae_checkpoint *cp, char *err, size_t errlen);

/* Every count, index, time and value a checkpoint restores, against the
 * scenario's options (o: t0, t_end, dt_out): a checkpoint edited with a
 * recomputed checksum (events = -1, segment = 2^62, NaN states) is refused
 * with what is wrong, never restored. The model's bytes are the kind's
 * state_load's to check. 0 or MBDAE_ERR_IO. */
int mbdae_checkpoint_validate(const mbdae_checkpoint *cp, const mbdae_options *o, char *err,
                              size_t errlen);

/* Remove DIR/.checkpoint.bin.tmp, the temporary of a checkpoint write that
 * was killed (SIGKILL) before its rename; called under the directory's lock
 * by every run and resume. */
void mbdae_checkpoint_remove_partial(const char *dir);

/* Remove DIR/checkpoint.bin (a finished run). */
void mbdae_checkpoint_remove(const char *dir);

/* Free the arrays and strings of cp (not cp itself) and zero it. */
void mbdae_checkpoint_free(mbdae_checkpoint *cp);

#endif
