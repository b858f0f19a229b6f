/* Unit tests of the stdio transport's guardian (transports/stdio/
 * guardian.c, linked directly): the process that kills the servers'
 * process groups when mcphost goes.
 *
 * What they hold: once the guardian's start returns, no process but
 * this one holds a pipe this one made before it (a copy would keep a
 * server from reading end-of-file when its stdin is closed), and none
 * ever holds one made after it; a group registered is killed when the
 * guardian's pipe closes, and one unregistered is not; the guardian then
 * exits. The test process is a subreaper, so the guardian, orphaned by
 * its double fork, is reaped here. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "guardian.h"

static int warnings;

static void on_log(const mcph_host *h, int level, const char *source,
                   const char *msg) {
  (void)h;
  (void)source;
  if (level <= MCPH_LOG_WARN) {
    fprintf(stderr, "  guardian warned: %s\n", msg);
    warnings++;
  }
}

static mcph_host host = {.struct_size = sizeof(mcph_host), .log = on_log};

/* Whether the read end `fd` is at end-of-file now, without waiting: no
 * other process holds the write end. */
static bool at_eof_now(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  if (poll(&p, 1, 0) != 1 || !(p.revents & POLLHUP)) {
    return false;
  }
  char c;
  return read(fd, &c, 1) == 0;
}

/* A child in a process group of its own, waiting to be killed. */
static pid_t group_leader(void) {
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    /* As a server's child does before its exec: nothing of ours held
     * (the guardian's pipe among it). */
    for (int fd = 3; fd < 1024; fd++) {
      close(fd);
    }
    for (;;) {
      pause();
    }
  }
  setpgid(pid, pid); /* both sides: registered before it ran */
  return pid;
}

/* Reaps one child that exits (the guardian, here: this process is the
 * subreaper it is reparented to), waiting up to 5 s: its pid, or -1. */
static pid_t reap_one(void) {
  for (int i = 0; i < 500; i++) {
    int st;
    pid_t got = waitpid(-1, &st, WNOHANG);
    if (got != 0) {
      return got;
    }
    usleep(10000);
  }
  return -1;
}

/* Whether this process has no child left, running or not reaped. */
static bool no_child_left(void) {
  return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

/* The group `leader` unregistered and ended, then the guardian stopped:
 * it exits, and nothing of the test is left. */
static void end_with(guardian *g, pid_t leader) {
  guardian_unregister(g, leader);
  kill(leader, SIGKILL);
  waitpid(leader, NULL, 0);
  guardian_stop(g);
  CHECK(reap_one() > 0); /* the guardian, gone */
  CHECK(no_child_left());
}

TEST(test_a_pipe_made_before_the_start_is_not_held_once_settled) {
  pid_t leader = group_leader(); /* before the pipe: it holds none */
  int p[2];
  CHECK(pipe(p) == 0);
  guardian g;
  guardian_init(&g, &host);
  guardian_register(&g, leader); /* starts it: `p` exists already */
  CHECK(g.fd >= 0);
  CHECK(guardian_settle(&g)); /* as before a server's stdin is closed */
  close(p[1]);
  CHECK(at_eof_now(p[0]));
  close(p[0]);
  end_with(&g, leader);
}

TEST(test_the_start_has_dropped_our_pipes_when_prepare_returns) {
  /* Its middle process is a vfork() child: by the time guardian_prepare
   * returns it has closed what it held of ours, forked the guardian and
   * called _exit (the kernel may still be tearing it down: its state is
   * not checked). Nothing to wait for before a server's stdin is
   * closed. */
  pid_t leader = group_leader();
  int p[2];
  CHECK(pipe(p) == 0);
  guardian g;
  guardian_init(&g, &host);
  guardian_prepare(&g);
  CHECK(g.mid > 0 && g.fd >= 0);
  close(p[1]);
  CHECK(at_eof_now(p[0]));
  close(p[0]);
  guardian_register(&g, leader);
  CHECK(guardian_settle(&g));
  end_with(&g, leader);
}

TEST(test_a_pipe_made_after_prepare_is_not_held_by_it) {
  guardian g;
  guardian_init(&g, &host);
  pid_t leader = group_leader();
  guardian_prepare(&g);
  int p[2];
  CHECK(pipe(p) == 0);
  guardian_register(&g, leader);
  close(p[1]); /* not settled: nothing to wait for */
  CHECK(at_eof_now(p[0]));
  close(p[0]);
  end_with(&g, leader);
}

TEST(test_a_registered_group_is_killed_when_the_pipe_closes) {
  guardian g;
  guardian_init(&g, &host);
  guardian_prepare(&g);
  pid_t kept = group_leader(), killed = group_leader();
  guardian_register(&g, killed);
  guardian_register(&g, kept);
  guardian_unregister(&g, kept);
  guardian_stop(&g); /* as when mcphost dies: end-of-file */
  int st = 0;
  CHECK(waitpid(killed, &st, 0) == killed);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  /* The guardian exits; the unregistered group lives on. */
  pid_t guard = reap_one();
  CHECK(guard > 0 && guard != kept);
  CHECK(waitpid(kept, &st, WNOHANG) == 0);
  kill(kept, SIGKILL);
  waitpid(kept, NULL, 0);
  CHECK(no_child_left());
}

TEST(test_stop_without_register_reaps_the_start) {
  guardian g;
  guardian_init(&g, &host);
  guardian_prepare(&g); /* a server whose start failed after it */
  CHECK(g.mid > 0 && g.fd >= 0);
  guardian_stop(&g);
  CHECK(g.mid == 0 && g.fd < 0);
  CHECK(reap_one() > 0); /* the guardian: its start was reaped already */
  CHECK(no_child_left());
}

/* The running guardian, this subreaper's child once its start exited:
 * its pid, found by name in /proc, or -1. */
static pid_t find_guardian(void) {
  for (int i = 0; i < 500; i++) {
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = -1;
    while (d && (e = readdir(d)) != NULL && found < 0) {
      char path[300], line[512];
      snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
      FILE *f = fopen(path, "r");
      if (!f) {
        continue;
      }
      int pid = 0, ppid = 0;
      char state;
      if (fgets(line, sizeof line, f) &&
          sscanf(line, "%d (mcphost-guard) %c %d", &pid, &state, &ppid) == 3 &&
          ppid == getpid()) {
        found = pid;
      }
      fclose(f);
    }
    if (d) {
      closedir(d);
    }
    if (found > 0) {
      return found;
    }
    usleep(10000);
  }
  return -1;
}

TEST(test_a_start_reaped_elsewhere_keeps_the_groups) {
  /* A host that ignores SIGCHLD: the kernel reaps the guardian's start,
   * and waitpid() finds nothing. The pipe must stay open, or the
   * guardian would kill the groups registered with it. */
  signal(SIGCHLD, SIG_IGN);
  guardian g;
  guardian_init(&g, &host);
  pid_t leader = group_leader();
  guardian_register(&g, leader);
  CHECK(guardian_settle(&g));
  CHECK(g.fd >= 0 && g.mid == 0);
  signal(SIGCHLD, SIG_DFL);
  guardian_stop(&g); /* now its end-of-file: the group is killed */
  int st = 0;
  CHECK(waitpid(leader, &st, 0) == leader);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  CHECK(reap_one() > 0);
  CHECK(no_child_left());
}

TEST(test_a_guardian_dead_before_its_start_was_reaped_is_replaced) {
  guardian g;
  guardian_init(&g, &host);
  pid_t first = group_leader(), second = group_leader();
  guardian_register(&g, first);
  pid_t dead = find_guardian();
  CHECK(dead > 0);
  kill(dead, SIGKILL);
  waitpid(dead, NULL, 0);
  CHECK(g.mid > 0);               /* not settled yet */
  guardian_unregister(&g, first); /* EPIPE: the pipe is dropped */
  CHECK(g.fd < 0);
  warnings = 0; /* "the process guardian has died": said, as it should */
  guardian_register(&g, second); /* a new guardian for it */
  CHECK(g.fd >= 0);
  guardian_stop(&g);
  int st = 0;
  CHECK(waitpid(second, &st, 0) == second);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  kill(first, SIGKILL);
  waitpid(first, NULL, 0);
  CHECK(reap_one() > 0);
  CHECK(no_child_left());
}

static void no_warnings(void) {
  CHECK(warnings == 0);
}

TEST(test_nothing_was_warned) {
  no_warnings();
}

int main(void) {
  /* The guardian, orphaned by its double fork, comes here. */
  signal(SIGPIPE, SIG_IGN); /* as the host does (transports/stdio/README.md) */
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
    perror("PR_SET_CHILD_SUBREAPER");
    return 1;
  }
  static const test_case tests[] = {
      T(test_a_pipe_made_before_the_start_is_not_held_once_settled),
      T(test_the_start_has_dropped_our_pipes_when_prepare_returns),
      T(test_a_pipe_made_after_prepare_is_not_held_by_it),
      T(test_a_registered_group_is_killed_when_the_pipe_closes),
      T(test_stop_without_register_reaps_the_start),
      T(test_a_start_reaped_elsewhere_keeps_the_groups),
      T(test_a_guardian_dead_before_its_start_was_reaped_is_replaced),
      T(test_nothing_was_warned)};
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
