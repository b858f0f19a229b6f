/*
 * The IDE's notifications as `mcphost ide watch` prints them.
 *
 * Text, one line each, every string the IDE sent escaped (text_escape:
 * controls, newlines, invisible and bidi characters shown as <U+XXXX>),
 * numbers as the IDE sent them (VS Code counts lines and characters from
 * 0):
 *   selection_changed FILE START_LINE:START_CHAR-END_LINE:END_CHAR "TEXT"
 *   selection_changed FILE LINE:CHAR (empty)
 *   at_mentioned FILE LINE_START-LINE_END
 *   METHOD PARAMS          (diagnostics_changed and any other: the params
 *                           as compact JSON, escaped)
 * JSON: {"server": S, "method": M, "params": {...}} per line, the params
 * exactly as sent (on a terminal, invisible characters as \uXXXX).
 *
 * Pure functions, any thread.
 */
#ifndef MCPH_IDE_NOTIFY_H
#define MCPH_IDE_NOTIFY_H

#include <stdbool.h>

/* The line for one notification, with its '\n'; a new string (free with
 * free()). `terminal`: stdout is a terminal. */
char *ide_notify_line(const char *server, const char *method,
                      const char *params_json, bool json, bool terminal);

#endif
