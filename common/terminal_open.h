/* The terminal of the person running the command: /dev/tty, or the one
 * $MCPHOST_TTY names. A command run in a session process (which has no
 * controlling terminal) gets its caller's terminal that way
 * (docs/sessions.md). For the permission asks and the elicitation
 * plugin's questions. Any thread; no state. */
#ifndef MCPHOST_TERMINAL_OPEN_H
#define MCPHOST_TERMINAL_OPEN_H

/* open(2) of that terminal with `oflags` (O_NOCTTY added); the fd or -1
 * with errno set. */
int terminal_open(int oflags);

#endif
