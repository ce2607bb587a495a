/* fuzz_checkpoint.c - libFuzzer harness for checkpoint loading: what `mbdae
 * resume RUNDIR` does with RUNDIR/checkpoint.bin (driver/cmd_resume.c).
 *
 * Input: a checkpoint file. Its last 8 bytes are replaced by the FNV-1a
 * checksum of the rest, so every mutation passes the checksum - the attack
 * of a checkpoint edited and re-summed (events = -1, a model state of 0xff,
 * segment = 2^62) - and reaches what is behind it: mbdae_checkpoint_read
 * (lengths, counts, strings), the stored scenario through the loader,
 * mbdae_checkpoint_validate against its options and, for the kinds whose
 * size does not depend on their parameters (a mutated net size would only
 * measure the allocator), the whole resume set-up of mbdae_scenario_run:
 * the model built, its state_load, the engine's carry, the output files cut
 * back and reopened (created here with the lengths the checkpoint records,
 * up to 1 MiB), the VTK frames. The run is started with the interrupt flag
 * set, so it stops at its first evaluation: the harness tests restoring,
 * not integrating. Seeds: checkpoints of failed runs (scripts/bootstrap.sh).
 *
 * Invariants (abort = a finding): a failure has a non-empty one-line
 * message; a refused checkpoint leaves *cp zeroed. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"
#include "fnv1a.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "run.h"
#include "scenario.h"

/* kinds whose state size is fixed by the kind, not by a parameter */
static const char *const fixed_size_kinds[] = {"bouncing_ball", "pendulum", "wheel",
                                               "ravine", "billiard", "rover"};

static char dir[512];

static void clean_dir(void) {
  mbdae_remove_matching(dir, "*");
  char vtk[600];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  mbdae_remove_matching(vtk, "*");
  rmdir(vtk);
}

static void remove_dir(void) {
  clean_dir();
  rmdir(dir);
}

static void check_message(int rc, const char *err) {
  if (rc == MBDAE_OK) return;
  if (!err[0] || strchr(err, '\n')) abort();
}

static int is_zero(const mbdae_checkpoint *cp) {
  static const mbdae_checkpoint zero;
  return !memcmp(cp, &zero, sizeof zero);
}

static int fixed_size(const char *kind) {
  for (size_t i = 0; i < sizeof fixed_size_kinds / sizeof *fixed_size_kinds; ++i)
    if (!strcmp(kind, fixed_size_kinds[i])) return 1;
  return 0;
}

/* The output files the checkpoint says were written, with its lengths. */
static void make_files(const mbdae_checkpoint *cp) {
  for (int f = 0; f < cp->nfiles && f < MBDAE_CHECKPOINT_MAX_FILES; ++f) {
    const char *name = cp->file_name[f];
    if (!name[0] || strchr(name, '/') || name[0] == '.' || cp->file_length[f] < 0 ||
        cp->file_length[f] > (1 << 20))
      continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);
    if (fd < 0) continue;
    if (ftruncate(fd, (off_t)cp->file_length[f]) != 0) { /* tolerated: a shorter file */ }
    close(fd);
  }
  char vtk[600];
  snprintf(vtk, sizeof vtk, "%s/vtk", dir);
  mkdir(vtk, 0777);
}

static void resume(const mbdae_checkpoint *cp) {
  mbdae_scenario s;
  char err[1024];
  int rc = mbdae_scenario_load_string(NULL, cp->scenario_name, cp->scenario_text,
                                      (const char *const *)cp->sets, cp->nsets, &s, err,
                                      sizeof err);
  check_message(rc, err);
  if (rc) return;
  rc = mbdae_checkpoint_validate(cp, &s.options, err, sizeof err);
  check_message(rc, err);
  if (rc == MBDAE_OK && fixed_size(s.kind->name)) {
    static volatile sig_atomic_t stop = SIGTERM; /* stop at the first evaluation */
    make_files(cp);
    mbdae_run_config cfg;
    mbdae_run_config_default(&cfg, &s);
    cfg.out_dir = dir;
    cfg.plots = 0;
    cfg.animation = 0;
    cfg.progress = 0;
    cfg.notes = NULL;
    cfg.every = cp->every;
    cfg.event_rows = cp->event_rows;
    cfg.checkpoint_every = cp->every_t;
    cfg.interrupt = &stop;
    cfg.scenario_text = cp->scenario_text;
    cfg.sets = (const char *const *)cp->sets;
    cfg.nsets = cp->nsets;
    cfg.resume = cp;
    mbdae_run_result *res = malloc(sizeof *res);
    if (res) {
      rc = mbdae_scenario_run(&s, &cfg, res, err, sizeof err);
      if (rc != MBDAE_OK && rc != MBDAE_STOPPED) check_message(rc, err);
      free(res);
    }
  }
  mbdae_scenario_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/mbdae_fuzz_ck_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) abort();
    atexit(remove_dir);
  }
  clean_dir();
  unsigned char *buf = malloc(size ? size : 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  if (size >= 8) { /* a valid checksum: the mutation reaches the fields */
    uint64_t sum = mbdae_fnv1a(MBDAE_FNV1A_SEED, buf, size - 8);
    memcpy(buf + size - 8, &sum, 8);
  }
  char path[600];
  snprintf(path, sizeof path, "%s/%s", dir, MBDAE_CHECKPOINT_FILE);
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size && fwrite(buf, 1, size, f) != size) abort();
  if (fclose(f) != 0) abort();
  free(buf);

  mbdae_checkpoint cp;
  char err[1024];
  int rc = mbdae_checkpoint_read(dir, &cp, err, sizeof err);
  check_message(rc, err);
  if (rc != MBDAE_OK) {
    if (!is_zero(&cp)) abort();
    return 0;
  }
  resume(&cp);
  mbdae_checkpoint_free(&cp);
  return 0;
}
