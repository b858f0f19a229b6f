/*
 * Processes for hooks and browsers: a command line split like a shell
 * would, without any expansion; spawning without a shell, with the
 * signal state the host changed put back; and reaping on the loop through
 * a pidfd (or a 50 ms poll where pidfd_open is missing), never SIGCHLD,
 * which belongs to the host.
 */
#ifndef MCPH_ELICIT_PROC_H
#define MCPH_ELICIT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <mcphost/host.h>

/* Splits `cmd` into words: blanks separate; '...' is literal; "..." is
 * literal except \" \\ \$ \` ; a backslash outside quotes takes the next
 * character. No variables, globs or ~. Returns a new NULL-terminated
 * vector (proc_free_argv), or NULL with the reason (empty, or a quote not
 * closed). */
char **proc_split(const char *cmd, char *why, size_t n);
void proc_free_argv(char **argv);

/* Starts argv[0] (looked up in PATH) with the given fds as its stdin,
 * stdout and stderr (-1: /dev/null; -2: inherit), in a new process group,
 * or a new session when `new_session`. Returns 0 and *pid, or -1 with the
 * reason (including "not found" when the exec fails). */
int proc_spawn(char *const argv[], int in_fd, int out_fd, int err_fd,
               bool new_session, pid_t *pid, char *why, size_t n);

/* Calls cb(ud, wait status) on the loop once `pid` exited, and reaps it.
 * The watch frees itself after the callback. */
typedef struct proc_watch proc_watch;
typedef void (*proc_exit_cb)(void *ud, int wstatus);
int proc_watch_start(const mcph_host *host, pid_t pid, proc_exit_cb cb,
                     void *ud, proc_watch **out);
/* Stops watching without reaping (the process is left to run). */
void proc_watch_cancel(proc_watch *w);
/* Kills `pid`'s process group with SIGKILL and reaps `pid`, waiting for
 * it (a killed process goes at once). */
void proc_kill(pid_t pid);

/* A wait status as words: "exited with status 3", "killed by signal 9". */
void proc_describe(int wstatus, char *buf, size_t n);

#endif /* MCPH_ELICIT_PROC_H */
