/* Opening a URL in the user's browser: the one rule, for the host's UI
 * service, the elicitation plugin and the OAuth plugin (docs/security.md).
 * $BROWSER is a ':'-separated list of commands, tried in order until one
 * starts (xdg-open when it is unset or empty). Each is split into words
 * as a shell would, without one (split_words.h). A word that is exactly
 * "%s" becomes the URL, as it is; "%s" in a word with other text (a
 * shell's command line, as in BROWSER="sh -c 'firefox %s'") gets the URL
 * with the characters a shell gives a meaning to percent-encoded; with no
 * "%s" the URL is one more argument. The browser starts in a new session
 * with stdin, stdout and stderr on /dev/null. Any thread; no global state
 * (getenv only). Compiled into the host and plugins (mcphost_proc). */
#ifndef MCPHOST_COMMON_BROWSER_H
#define MCPHOST_COMMON_BROWSER_H

#include <stddef.h>
#include <sys/types.h>

/* One $BROWSER entry with `url` placed as above: a new NULL-terminated
 * argv (free with browser_free_argv), or NULL with `why` filled for an
 * empty entry or an unterminated quote. */
char **browser_argv(const char *entry, const char *url, char *why, size_t n);

/* Frees what browser_argv returned; NULL is fine. */
void browser_free_argv(char **argv);

/* Starts the first $BROWSER command that starts. Returns 0 with *pid (the
 * caller reaps it: waitpid or proc_watch) and, when `command` is not NULL,
 * *command (its argv[0], a new string); or -1 with `why` filled (the last
 * command's failure) and nothing running. */
int browser_start(const char *url, pid_t *pid, char **command, char *why,
                  size_t n);

#endif
