/* Unit tests of the stdio transport's guardian (transports/stdio/
 * guardian.c, linked directly): the process that kills the servers'
 * process groups when mcphost goes.
 *
 * What they hold: once the guardian's start returns, no process but
 * this one holds a pipe this one made before it (a copy would keep a
 * server from reading end-of-file when its stdin is closed), and none
 * ever holds one made after it; a group registered is killed when the
 * guardian's pipe closes, and one unregistered is not; the guardian then
 * exits. On x86-64 the guardian shares this process's memory, its area
 * there (stack and groups) gone when it ends, until the time it shares
 * it is up: then it forks a guardian with memory of its own that holds
 * the same groups. The test process is a subreaper, so the guardian,
 * orphaned by its start, is reaped here. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
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
    /* Gone with the test, should it die: no leader left holding the test
     * runner's output. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
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

/* Whether the group leader `pid` (our child) ended by SIGKILL: waits. */
static bool killed(pid_t pid) {
  int st = 0;
  return waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
         WTERMSIG(st) == SIGKILL;
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
  pid_t kept = group_leader(), doomed = group_leader();
  guardian_register(&g, doomed);
  guardian_register(&g, kept);
  guardian_unregister(&g, kept);
  guardian_stop(&g); /* as when mcphost dies: end-of-file */
  CHECK(killed(doomed));
  /* The guardian exits; the unregistered group lives on. */
  pid_t guard = reap_one();
  CHECK(guard > 0 && guard != kept);
  CHECK(waitpid(kept, NULL, WNOHANG) == 0);
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
  CHECK(killed(leader));
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
  CHECK(killed(second));
  kill(first, SIGKILL);
  waitpid(first, NULL, 0);
  CHECK(reap_one() > 0);
  CHECK(no_child_left());
}


/* The size of process `pid`'s memory in KiB (VmSize in /proc/PID/status,
 * which anyone may read), or -1. */
static long vm_size_kib(pid_t pid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  long kib = -1;
  while (f && kib < 0 && fgets(line, sizeof line, f)) {
    if (sscanf(line, "VmSize: %ld kB", &kib) != 1) {
      kib = -1;
    }
  }
  if (f) {
    fclose(f);
  }
  return kib;
}

/* Whether process `pid` shares this process's memory: 64 MiB mapped here
 * (reserved, not used) shows in its size too. */
static bool shares_our_memory(pid_t pid) {
  long before = vm_size_kib(pid);
  size_t len = 64u << 20;
  void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  long after = vm_size_kib(pid);
  munmap(p, len);
  return p != MAP_FAILED && before > 0 && after - before >= 65536;
}

#if GUARDIAN_SHARES_MEMORY
TEST(test_the_guardian_shares_our_memory_and_unmaps_its_area_at_its_end) {
  /* Nothing of this process is copied for it; its area (4 MiB of
   * address space and its stack) is mapped in this memory while it runs,
   * and gone once it has ended. */
  long ours = vm_size_kib(getpid());
  guardian g;
  guardian_init(&g, &host);
  pid_t leader = group_leader();
  guardian_register(&g, leader);
  CHECK(guardian_settle(&g));
  pid_t guard = find_guardian();
  CHECK(guard > 0 && shares_our_memory(guard));
  CHECK(vm_size_kib(getpid()) - ours >= 4096);
  guardian_stop(&g);
  CHECK(killed(leader));
  CHECK(reap_one() == guard);
  CHECK(vm_size_kib(getpid()) - ours < 4096);
  CHECK(no_child_left());
}

TEST(test_past_its_share_the_guardian_forks_one_with_memory_of_its_own) {
  /* As a command that lasts: the guardian that shared this memory forks
   * one of its own, which holds the groups registered before and after,
   * and ends; its area leaves this memory with it. */
  setenv("MCPHOST_GUARD_SHARE_MS", "50", 1);
  long ours = vm_size_kib(getpid());
  guardian g;
  guardian_init(&g, &host);
  pid_t before = group_leader(), after = group_leader();
  /* `before` registered in two writes, the fork between them: the new
   * guardian goes on from the half the shared one read. */
  char line[32];
  int len = snprintf(line, sizeof line, "+%d\n", (int)before);
  guardian_prepare(&g);
  CHECK(guardian_settle(&g));
  CHECK(write(g.fd, line, 2) == 2);
  /* The shared one (the previous test shows it) ends once it has forked:
   * reaped here, the one it forked adopted here. */
  pid_t shared = reap_one();
  CHECK(shared > 0);
  CHECK(vm_size_kib(getpid()) - ours < 4096);
  pid_t own = find_guardian();
  CHECK(own > 0 && own != shared && !shares_our_memory(own));
  CHECK(write(g.fd, line + 2, (size_t)len - 2) == len - 2);
  guardian_register(&g, after);
  guardian_stop(&g);
  CHECK(killed(before));
  CHECK(killed(after));
  CHECK(reap_one() == own);
  CHECK(no_child_left());
  setenv("MCPHOST_GUARD_SHARE_MS", "600000", 1);
}

TEST(test_a_guardian_that_forks_at_once_leaves_our_memory_alone) {
  /* With no time to share, the shared guardian forks and unmaps its area
   * at once, while its start may still be returning (which therefore
   * neither reads nor unmaps the area after its vfork(): guardian.c): the
   * groups are kept by the new one, and the area leaves our memory. */
  setenv("MCPHOST_GUARD_SHARE_MS", "0", 1);
  long ours = vm_size_kib(getpid());
  for (int i = 0; i < 20; i++) {
    guardian g;
    guardian_init(&g, &host);
    pid_t leader = group_leader();
    guardian_register(&g, leader);
    CHECK(guardian_settle(&g));
    pid_t shared = reap_one();
    CHECK(shared > 0);
    guardian_stop(&g);
    CHECK(killed(leader));
    CHECK(reap_one() > 0);
    CHECK(no_child_left());
  }
  CHECK(vm_size_kib(getpid()) - ours < 4096);
  setenv("MCPHOST_GUARD_SHARE_MS", "600000", 1);
}
#endif

static void no_warnings(void) {
  CHECK(warnings == 0);
}

TEST(test_nothing_was_warned) {
  no_warnings();
}

int main(void) {
  /* The guardian, orphaned by its double fork, comes here. */
  signal(SIGPIPE, SIG_IGN); /* as the host does (transports/stdio/README.md) */
  /* A guardian shares this memory for its first 100 ms, then forks one of
   * its own: here it does so only where a test says. */
  setenv("MCPHOST_GUARD_SHARE_MS", "600000", 1);
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
#if GUARDIAN_SHARES_MEMORY
      T(test_the_guardian_shares_our_memory_and_unmaps_its_area_at_its_end),
      T(test_past_its_share_the_guardian_forks_one_with_memory_of_its_own),
      T(test_a_guardian_that_forks_at_once_leaves_our_memory_alone),
#endif
      T(test_nothing_was_warned)};
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
