/* output_dir.c - mkdir -p for output directories, and opening a file of a
 * run inside one. */
#define _POSIX_C_SOURCE 200809L
#include "output_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "mbdae/status.h"
#include "writer.h"

static int make_one(const char *path) {
  if (mkdir(path, 0777) == 0) return 0;
  if (errno == EEXIST) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    errno = ENOTDIR;
  }
  return -1;
}

int mbdae_mkdir_p(const char *dir, char *err, size_t errlen) {
  if (!dir || !*dir) {
    if (err && errlen) snprintf(err, errlen, "empty output directory name");
    return MBDAE_ERR_IO;
  }
  size_t n = strlen(dir);
  char *p = malloc(n + 1);
  if (!p) return MBDAE_ERR_MEMORY;
  memcpy(p, dir, n + 1);
  int rc = 0;
  for (char *c = p + 1; *c && !rc; ++c)
    if (*c == '/') {
      *c = '\0';
      rc = make_one(p);
      *c = '/';
    }
  if (!rc) rc = make_one(p);
  if (rc && err && errlen)
    snprintf(err, errlen, "cannot create output directory %s: %s", dir, strerror(errno));
  free(p);
  return rc ? MBDAE_ERR_IO : MBDAE_OK;
}

FILE *mbdae_fopen_out(const char *path, const char *mode) {
  /* O_NONBLOCK: a planted FIFO must not block the open (it is refused below) */
  int flags = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
  int rw = strchr(mode, '+') != NULL; /* read back too (cutting a torn row) */
  if (mode[0] == 'w') flags |= (rw ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC;
  else if (mode[0] == 'a') flags |= (rw ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
  else flags |= rw ? O_RDWR : O_RDONLY;
  int fd = open(path, flags, 0666);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) { /* a FIFO or device */
    close(fd);
    errno = EINVAL;
    return NULL;
  }
  FILE *f = fdopen(fd, mode);
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

int mbdae_subdir_make(const char *path) {
  struct stat st;
  if (mkdir(path, 0777) != 0 && errno != EEXIST) return MBDAE_ERR_IO;
  /* a planted DIR/vtk -> elsewhere is not written through */
  if (lstat(path, &st) != 0) return MBDAE_ERR_IO;
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return MBDAE_ERR_IO;
  }
  return MBDAE_OK;
}

void mbdae_remove_matching(const char *dir, const char *pattern) {
  struct stat st;
  if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return; /* never through a link */
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  char path[4400];
  while ((e = readdir(d)) != NULL)
    if (fnmatch(pattern, e->d_name, 0) == 0) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      remove(path);
    }
  closedir(d);
}

int mbdae_dir_lock(const char *dir, int *fd, char *err, size_t errlen) {
  *fd = -1;
  size_t n = strlen(dir) + sizeof "/" MBDAE_LOCK_FILE;
  char *path = malloc(n);
  if (!path) return MBDAE_ERR_MEMORY;
  snprintf(path, n, "%s/%s", dir, MBDAE_LOCK_FILE);
  int f = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (f < 0) {
    if (err && errlen) snprintf(err, errlen, "cannot lock %s: %s", path, strerror(errno));
    free(path);
    return MBDAE_ERR_IO;
  }
  if (flock(f, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    char pid[32] = "";
    ssize_t k = pread(f, pid, sizeof pid - 1, 0);
    pid[k > 0 ? k : 0] = '\0';
    pid[strcspn(pid, "\n")] = '\0';
    if (err && errlen) {
      if (e == EWOULDBLOCK)
        snprintf(err, errlen, "%s is in use by another mbdae run, resume or sweep%s%s%s: refused, "
                 "nothing changed", dir, pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
      else
        snprintf(err, errlen, "cannot lock %s: %s", path, strerror(e));
    }
    close(f);
    free(path);
    return MBDAE_ERR_IO;
  }
  char pid[32];
  int k = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
  if (ftruncate(f, 0) != 0 || pwrite(f, pid, (size_t)k, 0) != k) {
    /* the lock holds without the note */
  }
  free(path);
  *fd = f;
  return MBDAE_OK;
}

void mbdae_dir_unlock(int *fd) {
  /* the pid only while running: a finished directory is the same bytes
   * whoever wrote it; close releases the flock, the file stays (see .h) */
  if (*fd >= 0 && ftruncate(*fd, 0) != 0) { /* the lock goes anyway */ }
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

int mbdae_out_dir_confined(const char *dir) {
  if (!dir || !*dir || dir[0] == '/') return 0;
  for (const char *p = dir; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.') return 0;
    p += n;
    while (*p == '/') ++p;
  }
  return 1;
}

FILE *mbdae_output_open(const mbdae_output_ctx *c, const char *name, char *err,
                        size_t errlen) {
  size_t n = strlen(c->dir) + strlen(name) + 2;
  char *path = malloc(n);
  if (!path) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    return NULL;
  }
  snprintf(path, n, "%s/%s", c->dir, name);
  FILE *f = mbdae_fopen_out(path, "w");
  if (!f) {
    if (err && errlen) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
  }
  free(path);
  return f;
}

int mbdae_commit_file(char *tmp, char *fin, int ok, char *err, size_t errlen) {
  int rc = MBDAE_OK;
  int e = errno; /* the failed write's, when !ok */
  if (!ok || rename(tmp, fin) != 0) {
    if (ok) e = errno;
    remove(tmp);
    if (err && errlen)
      snprintf(err, errlen, "cannot write %s: %s", fin, e ? strerror(e) : "write error");
    rc = MBDAE_ERR_IO;
  }
  free(tmp);
  free(fin);
  return rc;
}
