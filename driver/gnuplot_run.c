/* gnuplot_run.c - find gnuplot in PATH and run a script with it. */
#define _POSIX_C_SOURCE 200809L
#include "gnuplot_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int mbdae_gnuplot_find(char *buf, size_t len) {
  const char *path = getenv("PATH");
  if (!path || !*path) return -1;
  const char *p = path;
  while (*p) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n > 0 && n + 9 < len) {
      memcpy(buf, p, n);
      snprintf(buf + n, len - n, "/gnuplot");
      struct stat st;
      if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) return 0;
    }
    if (!end) break;
    p = end + 1;
  }
  return -1;
}

int mbdae_gnuplot_run(const char *gnuplot, const char *dir, const char *script, const char *log) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(126);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int in = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    if (in >= 0) dup2(in, 0);
    execl(gnuplot, "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno == EINTR) continue;
    return -1;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
