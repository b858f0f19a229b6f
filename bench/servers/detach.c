/*
 * bench-detach CMD [ARG...]: runs CMD as its child and never reaps it.
 * The footprint guard (bench/footprint.py) starts the demo server through
 * it for the peak RSS of mcphost alone: the maximum RSS a parent learns
 * of a process (GNU time's %M) is the largest of the process's own and
 * those of the children it waited for, and the server a client waited for
 * would be counted as the client's. This process stays small, stays
 * mcphost's child until the server exits (so mcphost sees its server
 * end), gives its exit status on, and leaves the server to be reaped by
 * init.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;

static void forward(int sig) {
  kill(child, sig);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CMD [ARG...]\n", argv[0]);
    return 2;
  }
  child = fork();
  if (child < 0) {
    perror("fork");
    return 1;
  }
  if (child == 0) {
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    _exit(127);
  }
  signal(SIGTERM, forward);
  signal(SIGINT, forward);
  signal(SIGHUP, forward);
  int fd = pidfd_open(child, 0);
  if (fd < 0) {
    perror("pidfd_open");
    return 1;
  }
  /* WNOWAIT: its status without reaping it (a reap would count its
   * peak RSS as this process's children's). */
  siginfo_t si = {0};
  while (waitid(P_PIDFD, (id_t)fd, &si, WEXITED | WNOWAIT) != 0) {
    if (errno != EINTR) {
      perror("waitid");
      return 1;
    }
  }
  return si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
}
