/* The guardian process; see guardian.h. */
#include "guardian.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#include "env_ms.h"
#include "spawn.h"

#define LOG_SOURCE "mcphost.transport.stdio"

/* ---- the guardian process ----
 * Two ways to make it, with the same code and the same behaviour:
 *
 * Shared memory first (x86-64, natively): the middle process creates it
 * with clone(CLONE_VM), on a stack of its own in its area (below). It
 * has its own descriptors, signal handlers, session and name, and
 * mcphost's memory: no page table is copied for it, and mcphost takes no
 * copy-on-write fault for it (a cold `mcphost tools` took ~27, at ~3 us
 * each here). Running in that memory beside mcphost's threads, with the
 * thread pointer of the one that started it, it touches nothing of
 * theirs: no C library call (its system calls are made directly and set
 * no errno), no thread-local storage (no stack protector, no sanitizer),
 * only its area and the command pipe.
 *   A process that shares mcphost's memory dies with it where the kernel
 * kills a memory's every user: the out-of-memory killer's victim, and
 * (before Linux 5.16) a core dump. So the shared guardian only covers its
 * first GUARD_SHARE_MS (from the first server's start): past them (a
 * command that lasts), it forks a guardian with memory of its own (a
 * copy of mcphost's as it is then, as the fork way's is of mcphost's at
 * its start), which goes on from the same state (the pipe, the groups, a
 * command half read); the shared one then unmaps its area, stack and
 * all, and exits, in one sequence that uses no stack (a failed fork is
 * tried again as late). A short command ends before that and never pays
 * for a copy. Its area stays ours only if it is killed while it shares
 * our memory (a few pages; nothing tells mcphost whether it forked
 * first).
 *
 * A fork (every other architecture; a compiler that cannot leave out the
 * stack protector it was told to add, or a build instrumented all over
 * by ThreadSanitizer, MemorySanitizer or SafeStack: guardian.h; under
 * valgrind, which runs no clone(CLONE_VM) but a thread's; or when
 * clone() fails, as qemu-user refuses it): the middle forks it with
 * _Fork(), which runs no atfork handler, so it makes only
 * async-signal-safe calls.
 *
 * Either way its signal handlers were reset by the middle (the guardian
 * inherits them, blocked), and what it keeps is in its area. */

/* Code the guardian runs: nothing that reads thread-local storage behind
 * its back (the stack protector's canary, a sanitizer's state). */
#define GUARD_CODE                                                         \
  PROC_VFORK_CODE GUARDIAN_NO_SSP __attribute__((no_sanitize("undefined")))

/* How long a guardian shares mcphost's memory before it forks one of its
 * own (MCPHOST_GUARD_SHARE_MS). */
#define GUARD_SHARE_MS 100

/* The area: this header and the set of groups from its start, the stack
 * at its end, one mapping made by guardian_prepare (only the pages used
 * are resident). In the shared way it is the guardian's, in our memory;
 * in the fork way the guardian has a copy and ours is unmapped at once. */
#define GUARD_STACK (64 * 1024)
#define GUARD_SET_MAX (1u << 20) /* groups at once: more go unguarded */
typedef struct guard_area {
  int cmd_fd;      /* the read end of the command pipe */
  int *shared;     /* mcphost's: set by the middle, made the shared way */
  long share_ms;   /* GUARD_SHARE_MS, or as the environment says */
  uint32_t len;    /* groups in ids */
  pid_t ids[];
} guard_area;
#define GUARD_AREA_SIZE                                                     \
  ((sizeof(guard_area) + GUARD_SET_MAX * sizeof(pid_t) + 4095) / 4096 * 4096 + \
   GUARD_STACK)

/* Its system calls: direct, on x86-64 (a negative errno on failure);
 * elsewhere the C library's, in a process of its own. */
#if GUARDIAN_SHARES_MEMORY
GUARD_CODE static inline long g_sys(long n, long a, long b, long c, long d) {
  register long r10 __asm__("r10") = d;
  __asm__ volatile("syscall"
                   : "+a"(n), "+D"(a), "+S"(b), "+d"(c), "+r"(r10)
                   :
                   : "rcx", "r11", "memory");
  return n;
}
#define G_READ(fd, buf, n) g_sys(SYS_read, (fd), (long)(buf), (long)(n), 0)
#define G_KILL(pid, sig) g_sys(SYS_kill, (pid), (sig), 0, 0)
#define G_SETSID() g_sys(SYS_setsid, 0, 0, 0, 0)
#define G_PRCTL(op, arg) g_sys(SYS_prctl, (op), (long)(arg), 0, 0)
#define G_UNBLOCK_ALL()                                                    \
  g_sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&(uint64_t){0}, 0, 8)
#define G_EXIT() g_sys(SYS_exit_group, 0, 0, 0, 0)
#define G_EINTR (-EINTR)

/* munmap(a, size), then exit_group(0): the second call needs no stack. */
GUARD_CODE static _Noreturn void unmap_and_exit(void *a, size_t size) {
  long n = SYS_munmap;
  __asm__ volatile("syscall\n\t"
                   "mov %[exit], %%eax\n\t"
                   "xor %%edi, %%edi\n\t"
                   "syscall\n\t"
                   "hlt"
                   : "+a"(n), "+D"(a), "+S"(size)
                   : [exit] "i"(SYS_exit_group)
                   : "rcx", "r11", "memory");
  __builtin_unreachable();
}

/* Milliseconds on the monotonic clock. */
GUARD_CODE static inline long g_now_ms(void) {
  struct timespec t = {0, 0};
  g_sys(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&t, 0, 0);
  return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Waits up to `ms` for the pipe to be readable (or at its end): whether
 * it is (else the time ran out, or the wait failed). */
GUARD_CODE static inline bool g_wait(int fd, long ms) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return g_sys(SYS_poll, (long)&p, 1, ms > INT_MAX ? INT_MAX : ms, 0) > 0;
}

/* The fork to memory of its own. Returns true in the new guardian, after
 * the copy; the shared one ends there, or, if the fork failed, gets false
 * and goes on as it is (to try again later). */
GUARD_CODE static inline bool g_own_memory(guard_area *a) {
  long pid = g_sys(SYS_fork, 0, 0, 0, 0);
  if (pid > 0) {
    unmap_and_exit(a, GUARD_AREA_SIZE); /* the new one has its copy */
  }
  if (pid == 0) {
    /* Its memory holds a copy of mcphost's environment now: the servers
     * it guards must not read it from /proc. */
    G_PRCTL(PR_SET_DUMPABLE, 0);
  }
  return pid == 0;
}
#else
#define G_READ(fd, buf, n) read((fd), (buf), (n))
#define G_KILL(pid, sig) kill((pid), (sig))
#define G_SETSID() setsid()
#define G_PRCTL(op, arg) prctl((op), (arg), 0, 0, 0)
#define G_UNBLOCK_ALL()                                                    \
  do {                                                                     \
    sigset_t none;                                                         \
    sigemptyset(&none);                                                    \
    sigprocmask(SIG_SETMASK, &none, NULL);                                 \
  } while (0)
#define G_EXIT() _exit(0)
#define G_EINTR (-1) /* with errno EINTR: checked as such below */
#endif

/* Applies one command: '+' adds group `id`, '-' removes it. */
GUARD_CODE static inline void apply_command(guard_area *a, char op, pid_t id) {
  if (op == '+') {
    if (a->len < GUARD_SET_MAX) {
      a->ids[a->len++] = id; /* else this group goes unguarded */
    }
    return;
  }
  for (uint32_t i = 0; i < a->len; i++) {
    if (a->ids[i] == id) {
      a->ids[i] = a->ids[--a->len];
      return;
    }
  }
}

/* Holds nothing of mcphost's: not its stdout or stderr (someone may be
 * reading them to end-of-file), not a server's pipe, not the write end of
 * the command pipe. Done by the middle process in its own descriptor
 * table (vfork() shares the memory, not the table), before it makes the
 * guardian: once it has exited, no copy is left anywhere. */
static void drop_fds(int cmd_fd) {
  int null_fd = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; fd++) {
    if (null_fd >= 0 && null_fd != fd) {
      dup2(null_fd, fd);
    } else if (null_fd < 0) {
      close(fd);
    }
  }
  proc_close_fds_except(cmd_fd);
}

/* Reads "+<pgid>\n" and "-<pgid>\n" until end-of-file (mcphost is
 * gone, or stopped it), then kills every group still registered and
 * exits. A line that is not such a command is ignored. `shared`: made
 * the shared way. */
GUARD_CODE static _Noreturn void guardian_main(guard_area *a, bool shared) {
  /* Out of mcphost's session and process group: a terminal's ^C or a
   * kill of mcphost's group must not take the guardian down with it. */
  G_SETSID();
  G_PRCTL(PR_SET_NAME, "mcphost-guard");
  if (!shared) {
    /* Forked, it holds a copy of mcphost's environment: the servers it
     * guards must not read it from /proc. (Sharing mcphost's memory, it
     * is as readable there as mcphost's own, by the same flag, which is
     * mcphost's to set.) */
    G_PRCTL(PR_SET_DUMPABLE, 0);
  }
  G_UNBLOCK_ALL();
#if GUARDIAN_SHARES_MEMORY
  long fork_at = shared ? g_now_ms() + a->share_ms : 0;
#endif

  char buf[256], op = 0;
  long id = 0;
  bool started = false, bad = false;
  for (;;) {
#if GUARDIAN_SHARES_MEMORY
    if (fork_at) {
      long left = fork_at - g_now_ms();
      if (left > 0 && !g_wait(a->cmd_fd, left)) {
        continue; /* the time is up (or the wait failed): see again */
      }
      if (left <= 0) {
        if (g_own_memory(a)) {
          shared = false; /* the new guardian: no more to fork */
          fork_at = 0;
        } else {
          fork_at = g_now_ms() + a->share_ms; /* the fork failed: later */
        }
        continue;
      }
    }
#endif
    long n = G_READ(a->cmd_fd, buf, sizeof buf);
    if (n == G_EINTR && (GUARDIAN_SHARES_MEMORY || errno == EINTR)) {
      continue;
    }
    if (n <= 0) {
      break; /* end-of-file: mcphost is gone */
    }
    for (long i = 0; i < n; i++) {
      char c = buf[i];
      if (c == '\n') {
        /* kill(-1) or kill(0) would hit far more than a server */
        if (!bad && started && id > 1) {
          apply_command(a, op, (pid_t)id);
        }
        op = 0;
        id = 0;
        started = bad = false;
      } else if (!started) {
        started = true;
        op = c;
        bad = c != '+' && c != '-';
      } else if (c >= '0' && c <= '9' && id <= 99999999) {
        id = id * 10 + (c - '0');
      } else {
        bad = true;
      }
    }
  }
  for (uint32_t i = 0; i < a->len; i++) {
    G_KILL(-a->ids[i], SIGKILL);
  }
#if GUARDIAN_SHARES_MEMORY
  if (shared) {
    unmap_and_exit(a, GUARD_AREA_SIZE);
  }
#endif
  G_EXIT();
  __builtin_unreachable();
}

#if GUARDIAN_SHARES_MEMORY
GUARD_CODE static int guardian_shared(void *a) { guardian_main(a, true); }
#endif

/* The signals the guardian ignores; the rest at their default. */
static uint64_t guardian_ignores(void) {
  uint64_t ignore = 0;
  const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGTSTP};
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
    ignore |= (uint64_t)1 << (ignored[i] - 1);
  }
  return ignore;
}

/* The middle process: a vfork() child, in mcphost's memory while the
 * thread that started it waits (signals all blocked). It drops mcphost's
 * descriptors and sets the guardian's signal handlers in its own tables,
 * makes the guardian, which inherits them, and exits: 0 when a guardian
 * runs. _Fork() (glibc 2.34, musl 1.2.3) runs no atfork handler: fork()
 * would run them (the allocator's locks among them) in the memory the
 * middle shares with mcphost. */
PROC_VFORK_CODE static _Noreturn void middle_main(guard_area *a) {
  drop_fds(a->cmd_fd);
  proc_signals_reset(guardian_ignores());
#if GUARDIAN_SHARES_MEMORY
  if (!RUNNING_ON_VALGRIND) {
    /* Said in mcphost's memory, before the guardian runs: mcphost must
     * never unmap the area of a guardian that does, even if this is killed
     * meanwhile, and never read the area (the guardian may have unmapped
     * it by the time mcphost runs again). */
    int *shared = a->shared;
    *shared = 1;
    if (clone(guardian_shared, (char *)a + GUARD_AREA_SIZE,
              CLONE_VM | SIGCHLD, a) > 0) {
      _exit(0);
    }
    *shared = 0;
  }
#endif
  pid_t pid = _Fork();
  if (pid == 0) {
    guardian_main(a, false);
  }
  _exit(pid < 0 ? 1 : 0);
}

/* ---- the host side ---- */

void guardian_init(guardian *g, const mcph_host *host) {
  g->host = host;
  g->fd = -1;
  g->mid = 0;
  g->warned = false;
}

static void guardian_warn(guardian *g, const char *what, int error) {
  if (!g->warned) {
    g->warned = true;
    mcph_logf(g->host, MCPH_LOG_WARN, LOG_SOURCE,
              "%s: %s; processes that servers fork may outlive mcphost if it "
              "is killed",
              what, strerror(error));
  }
}

/* vfork() and the middle, in a function of their own that ASan leaves
 * alone (PROC_VFORK_CODE). */
PROC_VFORK_CODE static pid_t start_middle(guard_area *a) {
  pid_t mid = vfork();
  if (mid == 0) {
    middle_main(a);
  }
  return mid;
}

void guardian_prepare(guardian *g) {
  if (g->fd >= 0 || g->mid > 0) {
    return;
  }
  int fds[2];
  /* The write end non-blocking: never block the loop on a guardian that
   * does not read. */
  if (proc_make_pipe(fds, 1) != 0) {
    guardian_warn(g, "cannot start the process guardian: pipe", errno);
    return;
  }
  guard_area *a = mmap(NULL, GUARD_AREA_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (a == MAP_FAILED) {
    guardian_warn(g, "cannot start the process guardian: mmap", errno);
    close(fds[0]);
    close(fds[1]);
    return;
  }
  int shared = 0; /* set by the middle (vfork() shares this memory) */
  a->cmd_fd = fds[0];
  a->shared = &shared;
  a->share_ms = (long)env_ms("MCPHOST_GUARD_SHARE_MS", GUARD_SHARE_MS, true,
                             NULL);

  /* Through a middle process, so that the guardian is orphaned at once
   * and adopted by init (or the nearest subreaper): mcphost never has a
   * child of its own to reap for it, even if it dies early. The middle is
   * a vfork() child (middle_main): natively it has dropped our
   * descriptors, made the guardian and called _exit() when vfork()
   * returns; guardian_settle() reaps it. Signals stay blocked until then:
   * no handler of ours runs in the middle. errno is the calling
   * thread's, which the middle's calls set: kept across. */
  int saved_errno = errno;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t mid = start_middle(a);
  int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved_errno;
  close(fds[0]);
  if (!shared) {
    munmap(a, GUARD_AREA_SIZE); /* a forked guardian has its own copy */
  } /* else it is the guardian's, which unmaps it at its end */
  if (mid < 0) {
    close(fds[1]);
    guardian_warn(g, "cannot start the process guardian: fork", fork_errno);
    return;
  }
  g->mid = mid;
  g->fd = fds[1];
}

bool guardian_settle(guardian *g) {
  if (g->mid <= 0) {
    return g->fd >= 0;
  }
  pid_t mid = g->mid, got;
  int status = 0;
  while ((got = waitpid(mid, &status, 0)) < 0 && errno == EINTR) {
  }
  g->mid = 0;
  /* Only a middle process that said its fork failed means no guardian
   * reads the pipe. Not reaped here (a host that ignores SIGCHLD, or
   * reaps what it did not start), the guardian may well run and hold
   * groups registered already: closing the pipe would have it kill
   * them. A dead guardian shows at the next write (EPIPE). */
  if (got == mid && WIFEXITED(status) &&
      WEXITSTATUS(status) != 0 && g->fd >= 0) {
    close(g->fd);
    g->fd = -1;
    guardian_warn(g, "cannot start the process guardian: fork", EAGAIN);
    return false;
  }
  return g->fd >= 0;
}

/* Writes one command. Returns false only when the guardian is gone. */
static bool guardian_write(guardian *g, char op, pid_t pgid) {
  char line[32];
  int n = snprintf(line, sizeof line, "%c%ld\n", op, (long)pgid);
  ssize_t w;
  do {
    w = write(g->fd, line, (size_t)n); /* < PIPE_BUF: all or nothing */
  } while (w < 0 && errno == EINTR);
  if (w == n) {
    return true;
  }
  if (errno != EPIPE) {
    /* Full (it is stuck) or odd: this command is lost, but closing the
     * pipe would make the guardian kill every running server. */
    guardian_warn(g, "cannot write to the process guardian", errno);
    return true;
  }
  guardian_warn(g, "the process guardian has died", errno);
  close(g->fd);
  g->fd = -1;
  return false;
}

void guardian_register(guardian *g, pid_t pgid) {
  /* A second attempt starts a new guardian if the old one died (EPIPE).
   * Groups registered with the dead one stay unguarded. */
  for (int attempt = 0; attempt < 2; attempt++) {
    if (g->fd < 0) {
      guardian_settle(g); /* a start of the dead one, not reaped yet */
      guardian_prepare(g);
    }
    if (g->fd < 0) {
      return;
    }
    /* Buffered in the pipe until the guardian reads it. */
    if (guardian_write(g, '+', pgid)) {
      return;
    }
  }
}

void guardian_unregister(guardian *g, pid_t pgid) {
  if (g->fd >= 0) {
    guardian_write(g, '-', pgid);
  }
}

void guardian_stop(guardian *g) {
  guardian_settle(g);
  if (g->fd >= 0) {
    close(g->fd);
    g->fd = -1;
  }
}
