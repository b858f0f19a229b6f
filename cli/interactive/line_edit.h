/* Reading lines from a person: libedit (Debian's libedit2) for editing,
 * history and completion when stdin is a terminal and the library can be
 * opened, else plain lines from stdin. libedit is opened with dlopen() on
 * the first line_edit_open(), so no other command pays for loading it
 * (and a machine without it still has a working shell, without editing).
 *
 * Signals: the host blocks SIGINT, SIGTERM and SIGHUP and reads them from
 * its signalfd while its loop runs. While a line is read they are let in
 * (ppoll) instead: Ctrl-C ends the line being typed (line_edit_read says
 * LINE_INTERRUPTED) and SIGTERM or SIGHUP ends the reading
 * (LINE_SIGNALLED). Main thread only; one line_edit per process (libedit's
 * readline interface is global). */
#ifndef MCPHOST_CLI_LINE_EDIT_H
#define MCPHOST_CLI_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct line_edit line_edit;

/* Completion: the candidates for the word before the cursor. `line` is
 * the text up to the cursor (borrowed), `start` where the word begins in
 * it. Each candidate is added with line_edit_candidate(). */
typedef void (*line_complete_fn)(void *ud, line_edit *le, const char *line,
                                 size_t start);

/* Opens the reader; `complete` may be NULL. Never NULL. */
line_edit *line_edit_open(line_complete_fn complete, void *ud);
/* Whether lines are edited (libedit on a terminal), else plain. */
bool line_edit_interactive(const line_edit *le);
void line_edit_close(line_edit *le);

/* A completion candidate (copied). `suffix` is what follows it when it
 * is the only one: ' ' for a whole word, 0 for a prefix such as "KEY=". */
void line_edit_candidate(line_edit *le, const char *word, char suffix);

typedef enum line_status {
  LINE_OK,          /* *line is a new string (caller frees) */
  LINE_EOF,         /* Ctrl-D on an empty line, or the end of stdin */
  LINE_INTERRUPTED, /* Ctrl-C: the line typed so far is dropped */
  LINE_SIGNALLED    /* SIGTERM or SIGHUP: *signo says which */
} line_status;
line_status line_edit_read(line_edit *le, const char *prompt, char **line,
                           int *signo);

/* Adds `line` to the history of this session (the up arrow). */
void line_edit_history_add(line_edit *le, const char *line);

#endif
