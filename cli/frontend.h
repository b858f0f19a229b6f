/* What the CLI gives a front end it runs as one of its commands (the
 * gateway, gateway/gateway.h): the command's context (`cli`, read
 * through the accessors below), its exit codes, and the few helpers
 * that make such a command behave as the others do (errors said and
 * kept for --json, servers chosen by name and checked as `call` checks
 * them, --allow, results cut as `call` cuts them, stdout written and
 * checked as the CLI writes it). A front end other than the CLI's own
 * commands includes this header and no other of cli/
 * (tests/integration/test_cli_headers.sh). */
#ifndef MCPHOST_CLI_FRONTEND_H
#define MCPHOST_CLI_FRONTEND_H

#include <cjson/cJSON.h>
#include <mcphost/client.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "size_limits.h"
#include "util.h"

/* Exit codes (documented in --help and the README). */
enum {
  EXIT_OK = 0,
  EXIT_TOOL_ERROR = 1,   /* the tool ran and reported isError */
  EXIT_USAGE = 2,        /* bad command line */
  EXIT_SERVER = 3,       /* a server failed, is unreachable or misconfigured */
  EXIT_PROTOCOL = 4,     /* the server answered with an error or broke MCP */
  EXIT_TIMEOUT = 5,      /* a deadline passed */
  EXIT_NOT_FOUND = 6,    /* no such server, tool, prompt or resource */
  EXIT_AUTH = 7,         /* the server needs authorization (needs-auth) */
  EXIT_DENIED = 8,       /* refused by policy, approval or a permission rule */
  EXIT_TRUNCATED = 9,    /* done, but a text result was cut as
                            --max-output-chars / MCPHOST_MAX_OUTPUT_CHARS
                            asked */
  EXIT_OUTPUT = 10,      /* the output could not be written */
  EXIT_INTERRUPTED = 130 /* Ctrl-C; a signal N ends as 128 + N */
};

/* One command line being run (cli.h). */
typedef struct cli cli;

/* frontend.c: the name, description and output lengths it was given. */
const limits *cli_limits(const cli *c);
/* Its client of the public API (sdk/include/mcphost/client.h), made in
 * MCPHOST_LOOP_CALLER mode: the loop a front end's descriptors and timers
 * go on. */
mcphost_client *cli_api(const cli *c);
/* Runs the client's loop until *done, or until a
 * signal the CLI takes (SIGINT, SIGTERM, SIGHUP, or a session's
 * caller's) interrupts the command: 0, or -2 on a signal. */
int cli_run_until(cli *c, const int *done);
/* An option of its client whose value is a number or a flag
 * (mcphost_get_option: "sanitize", "verbose", ...); 0 when unknown. */
int64_t cli_option_value(const cli *c, const char *name);
/* An entry of the client's log (mcphost_log: "mcphost: LEVEL: ..." on
 * stderr when the verbosity lets `level`, an enum mcphost_log_level,
 * through); `source` may be NULL. */
void cli_log(cli *c, int level, const char *source, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* main.c: the running command's hook for the servers' notifications
 * (mcphost_options.on_notify: list_changed, resources/updated, log
 * messages, cancellations of their own requests, ...); NULL: none. A
 * command that listens (batch, serve) sets it and clears it at its end:
 * one command runs at a time, in a session too. */
void cli_on_notify(mcphost_notify_fn fn, void *ud);
/* main.c: the running command's hook for the servers' own requests
 * (mcphost_options.on_request: elicitation, sampling, roots), as
 * cli_on_notify; NULL: none (the library and the plugins answer). */
void cli_on_request(mcphost_request_fn fn, void *ud);
/* main.c: the running command's hook for the servers' connections
 * coming and going (mcphost_options.on_state), as cli_on_notify. */
void cli_on_state(mcphost_state_fn fn, void *ud);
/* permission.c: the running command puts the permission questions
 * (mcphost_options.on_ask, on_ask_end) its own way, in place of the
 * terminal's y/N, until it calls this again with NULLs. */
void cli_take_asks(mcphost_ask_fn ask, mcphost_ask_end_fn end, void *ud);

/* failure.c: prints "mcphost: <message>" on stderr (out_error) and keeps
 * the first one for the --json error object; `server` may be NULL. */
void cli_error(cli *c, const char *server, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* connect.c: index of a configured server by name (exact, then
 * normalized); -1. */
long cli_find_server(const cli *c, const char *name);

/* load.c: EXIT_OK when config entry `idx` may start; else prints why (how
 * to approve a pending server, which rule denies it) and returns
 * EXIT_DENIED. */
int cli_check_startable(cli *c, size_t idx);

/* permission.c: whether an --allow pattern answers the ask for `tool`
 * (mcp__ name). */
bool cli_allowed_by_option(const cli *c, const char *tool);

/* output.c */
/* Appends `v` as JSON text to `out` (indented when `pretty`, else as
 * json_write); when stdout is a terminal, DEL, C1 and invisible
 * characters as \u escapes (the same values), else the bytes as they are.
 * The one writer of JSON for stdout: out_json and batch. Returns 0, or
 * MCPH_EINVAL as json_write (`out` then as it was). */
int out_json_append(strbuf *out, const cJSON *v, bool pretty);
/* A write to stdout made without stdio failed with `err`: said at exit
 * (cli_check_output). */
void cli_output_failed(cli *c, int err);
/* For --json: cuts the text of a tools/call, resources/read or
 * prompts/get result in place to a limit asked for (cli_output_limit),
 * each cut said on stderr. */
void out_cut_result(cli *c, cJSON *result);

/* names_cache.c: the names mcphost_name_assign gives the `items` of
 * `server` (a list's array, each with its "name"), as `tools` lists
 * them: one allocation, freed with mcphost_free; *n the array's size,
 * *prefix_len (may be NULL) the length of "mcp__SERVER__". */
char **cli_names_assign(const char *server, const cJSON *items, size_t max_len,
                        size_t *n, size_t *prefix_len);

/* lines.c */
typedef void (*cli_line_fn)(void *ud, const char *line, size_t len);
/* Reads what `fd` has into `in` and passes each complete line to `fn`
 * (borrowed for the call; without its newline and trailing '\r' or
 * spaces; empty lines skipped). Returns 1 while more may come (also on
 * EAGAIN), 0 at the end of the input (a last line without a newline
 * passed too). */
int cli_read_lines(int fd, strbuf *in, cli_line_fn fn, void *ud);
/* The two halves of cli_read_lines, for a reader that takes lines only
 * as it has room for them. cli_read_more reads what `fd` has into `in`
 * (at the end, a last line gets its newline): 1 while more may come, 0
 * at the end. cli_take_lines passes the complete lines of `in` to `fn`,
 * as cli_read_lines does, while `more` (NULL: always) says so before
 * each; those not passed stay in `in`. */
int cli_read_more(int fd, strbuf *in);
void cli_take_lines(strbuf *in, cli_line_fn fn, bool (*more)(void *ud),
                    void *ud);

#endif
