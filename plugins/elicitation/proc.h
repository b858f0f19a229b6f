/*
 * Processes for hooks and browsers: a command line split like a shell
 * would, without any expansion. Starting them (without a shell, with the
 * signal state the host changed put back) and reaping them on the loop
 * are common/proc_spawn.h's and common/proc_watch.h's, as for the stdio
 * transport's servers.
 */
#ifndef MCPH_ELICIT_PROC_H
#define MCPH_ELICIT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <mcphost/host.h>

#include "proc_spawn.h"
#include "proc_watch.h"

/* Splits `cmd` into words: blanks separate; '...' is literal; "..." is
 * literal except \" \\ \$ \` ; a backslash outside quotes takes the next
 * character. No variables, globs or ~. Returns a new NULL-terminated
 * vector (proc_free_argv), or NULL with the reason (empty, or a quote not
 * closed). */
char **proc_split(const char *cmd, char *why, size_t n);
void proc_free_argv(char **argv);

#endif /* MCPH_ELICIT_PROC_H */
