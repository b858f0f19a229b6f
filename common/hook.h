/*
 * Running a hook, the one way for every feature plugin that lets a
 * command answer for the user (elicitation, sampling): a command (split
 * like a shell, run without one) gets a JSON document on stdin and prints
 * its answer on stdout, within a deadline. Its stderr is the host's, so
 * that its messages reach the person. Nothing blocks the loop: stdin is
 * written and stdout read through fd watches, the exit is seen through a
 * pidfd. Loop thread only (hook_split and hook_parse_timeout: any).
 */
#ifndef MCPHOST_HOOK_H
#define MCPHOST_HOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/host.h>

/* More output than this is not an answer: the hook is stopped. */
#define HOOK_MAX_OUTPUT (1024 * 1024)

typedef enum hook_status {
  HOOK_OK,     /* exited with status 0; `output` is what it printed */
  HOOK_FAILED, /* could not run, non-zero exit, killed, too much output */
  HOOK_TIMEOUT /* still running at the deadline: killed */
} hook_status;

/* Called once, on the loop; `output` (NUL-terminated) and `why` are
 * borrowed for the call. The run is freed after the callback. */
typedef void (*hook_done_cb)(void *ud, hook_status st, const char *output,
                             const char *why);

typedef struct hook_run hook_run;

/* Starts `command` with `input` on its stdin. Returns the run, or NULL
 * with the reason when nothing was started (then `cb` is not called). */
hook_run *hook_start(const mcph_host *host, const char *command,
                     const char *input, uint64_t timeout_ms, hook_done_cb cb,
                     void *ud, char *why, size_t n);

/* Kills the hook and frees the run without calling back. */
void hook_abort(hook_run *r);

/* Splits `cmd` into words: blanks separate; '...' is literal; "..." is
 * literal except \" \\ \$ \` ; a backslash outside quotes takes the next
 * character. No variables, globs or ~. Returns a new NULL-terminated
 * vector (hook_free_argv), or NULL with the reason (empty, or a quote not
 * closed). */
char **hook_split(const char *cmd, char *why, size_t n);
void hook_free_argv(char **argv);

/* A hook timeout option's value: "60", "2.5", "30s" (seconds) or
 * "1500ms", at most a day. Returns 0 with *ms set (at least 1), or -1
 * for anything else (*ms untouched). */
int hook_parse_timeout(const char *v, uint64_t *ms);

/* The value of the plugin option `name` (mcph.options/1, read through
 * `svc`) as a hook timeout in milliseconds: `default_ms` when unset, and
 * when it is not a timeout, then with a warning logged as `source`.
 * [loop] */
struct mcph_host_features;
uint64_t hook_timeout_option(const mcph_host *host,
                             const struct mcph_host_features *svc,
                             const char *name, uint64_t default_ms,
                             const char *source);

#endif /* MCPHOST_HOOK_H */
