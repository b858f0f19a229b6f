/*
 * The guardian: a small process that kills the servers' process groups
 * when mcphost dies, even by SIGKILL.
 *
 * A server's own process dies with mcphost through PR_SET_PDEATHSIG, but
 * what it forked (npx -> node, uv run -> python, sh -c ...) would live on.
 * The guardian is started right after the first spawn (it never execs;
 * on x86-64 it shares mcphost's memory for its first 100 ms, then forks
 * one with memory of its own; elsewhere it is a fork: guardian.c)
 * and reads commands from a pipe whose only write end
 * mcphost holds: "+<pgid>\n" registers a process group, "-<pgid>\n"
 * forgets it. When the pipe reaches end-of-file, because mcphost exited
 * or died, it sends SIGKILL to every group still registered and exits.
 *
 * One guardian per plugin instance. All functions: loop thread.
 */
#ifndef MCPH_STDIO_GUARDIAN_H
#define MCPH_STDIO_GUARDIAN_H

#include <stdbool.h>
#include <sys/types.h>

#include <mcphost/host.h>

/* Whether the guardian first shares mcphost's memory (guardian.c): on
 * x86-64, unless the compiler adds a stack protector it cannot leave out
 * of the guardian's code (it would read thread-local storage), or
 * instruments all code with a runtime of its own (ThreadSanitizer,
 * MemorySanitizer, SafeStack: their state is thread-local too). */
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define GUARDIAN_NO_SSP __attribute__((no_stack_protector))
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define GUARDIAN_INSTRUMENTED 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(safe_stack)
#define GUARDIAN_INSTRUMENTED 1
#endif
#endif
#if defined(__x86_64__) && !defined(GUARDIAN_INSTRUMENTED) &&              \
    (defined(GUARDIAN_NO_SSP) ||                                           \
     !(defined(__SSP__) || defined(__SSP_STRONG__) ||                      \
       defined(__SSP_ALL__) || defined(__SSP_EXPLICIT__)))
#define GUARDIAN_SHARES_MEMORY 1
#else
#define GUARDIAN_SHARES_MEMORY 0
#endif
#ifndef GUARDIAN_NO_SSP
#define GUARDIAN_NO_SSP
#endif

typedef struct guardian {
  const mcph_host *host; /* for logging */
  int fd;                /* write end of the command pipe, or -1 */
  pid_t mid;             /* the middle process of its start, not reaped
                            yet, or 0 (guardian.c) */
  bool warned;           /* a failure was logged once already */
} guardian;

/* Initializes `g` without starting anything. `host` is borrowed. */
void guardian_init(guardian *g, const mcph_host *host);

/* Starts the guardian if it is not running, without waiting for the
 * guardian itself. The middle process of its start (a vfork() child)
 * first drops every descriptor of ours it holds, so the guardian never
 * has one; natively it has done so when this returns. Where vfork()
 * runs as fork() (valgrind, qemu-user) it may still hold a copy of a
 * server's stdin, which would keep the server from reading end-of-file
 * when mcphost closes it, until guardian_settle has reaped it. A failure
 * is logged. */
void guardian_prepare(guardian *g);

/* Reaps what guardian_prepare started (its middle process, waiting for
 * it: natively it has called _exit() already), if not done yet: call it
 * before closing a server's stdin. False when no guardian runs: its start
 * said its fork failed (the pipe is then closed, and the failure logged),
 * or there is no pipe. A start reaped by someone else (a host ignoring
 * SIGCHLD) leaves the pipe open: the guardian may hold groups already,
 * and would kill them at its end-of-file. */
bool guardian_settle(guardian *g);

/* Registers a process group, starting the guardian first if it is not
 * running (or died). A failure is logged and otherwise ignored: the server
 * still runs, only without this protection. */
void guardian_register(guardian *g, pid_t pgid);

/* Forgets a process group. Call it before reaping the group's leader, so
 * that a recycled id is never killed. */
void guardian_unregister(guardian *g, pid_t pgid);

/* Closes the pipe; the guardian kills any group still registered (none,
 * when every transport was destroyed), unmaps what it kept in our memory
 * and exits. Its start is reaped first if it was not; the guardian itself
 * is not our child (see guardian.c). */
void guardian_stop(guardian *g);

#endif /* MCPH_STDIO_GUARDIAN_H */
