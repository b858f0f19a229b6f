/* The mcphost command line: option parsing, connecting the servers a
 * command needs, and printing. No protocol logic lives here: it drives
 * the host library's sessions. */
#ifndef MCPHOST_CLI_H
#define MCPHOST_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "../host.h"
#include "../config_scopes.h"
#include "../session.h"
#include "../size_limits.h"

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

typedef struct cli {
  host *h;
  bool json;
  bool quiet_progress;
  uint64_t connect_timeout_ms;
  uint64_t request_timeout_ms;
  uint64_t tool_timeout_ms;
  const char *output_dir; /* for images and blobs; NULL: private temp dir */
  const char *log_level;  /* --log-level: sent with logging/setLevel */
  int last_error_code;     /* the last JSON-RPC error cli_request saw */
  cJSON *last_error_data;  /* and its data (owned), or NULL */
  session **sessions;     /* parallel to h->cfg.servers; NULL = unused */
  size_t nsessions;
  unsigned files_written;
  bool save_failed; /* a result could not be saved: the exit is not 0 */
  bool bad_content; /* a server sent content that breaks MCP: exit 4 */
  bool open_line;   /* the last text printed has no final newline */
  int output_errno; /* the first failed write to stdout not made through
                       stdio (batch), or 0 */
  limits lim; /* name, description and output lengths (size_limits.h) */
  bool output_cut; /* a text result was cut by a limit asked for */
#define CLI_ESC_KEEP 16
  char *esc_ring[CLI_ESC_KEEP]; /* cli_esc's strings */
  unsigned esc_next;
  /* ---- configuration scopes (load.c) and permissions (permission.c) ---- */
  config_sources sources;   /* what the command line asked for */
  const char **allow_tools; /* --allow patterns: answers to "ask" */
  size_t nallow_tools;
  /* ---- plugin commands and services (plugin_cmds.c) ---- */
  char *policy_text;       /* the last policy() answer */
  struct mcph_run *run;    /* the plugin command running, if any */
  /* ---- roots (roots.h): --root, resolved (owned), and --no-roots ---- */
  char **root_dirs;
  size_t nroot_dirs;
  bool no_roots;
  /* ---- failures (failure.c) ---- */
  char *error_message; /* the first cli_error, for --json (owned) */
  char *error_server;  /* the server it names, or NULL (owned) */
  bool result_printed; /* a JSON result went to stdout */
} cli;

/* failure.c */
/* What went wrong, as far as the exit code is concerned. */
typedef struct cli_failure {
  const session *s;    /* the server involved, or NULL */
  rpc_status status;   /* a request's outcome; RPC_OK: no request failed */
  int rpc_code;        /* the JSON-RPC error code (RPC_ERR_REMOTE) */
  const char *message; /* the JSON-RPC error message, or NULL */
  const char *item;    /* the tool, prompt or URI asked for, or NULL */
  int mcph_status;     /* a plugin's MCPH_E* status, or 0 */
} cli_failure;
/* The one map from a failure to an exit code. In order: a plugin's
 * status; a failed request (a JSON-RPC error that says the tool, prompt
 * or resource does not exist is EXIT_NOT_FOUND: -32002, or -32602 whose
 * message says "not found" or "unknown tool|prompt" and names `item` when
 * given); the session's failure. */
int cli_exit_code(const cli_failure *f);
/* The exit code for a session that failed to connect or went away. */
int cli_exit_for_failure(const session *s);
/* A run a signal ended exits 128 + its number (SIGTERM 143, SIGINT 130). */
int cli_exit_for_signal(int rc, int signal_number);
/* Prints "mcphost: <message>" on stderr (out_error) and keeps the first
 * one for the --json error object; `server` may be NULL. */
void cli_error(cli *c, const char *server, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* At exit: under --json, a failed command that printed no result writes
 * {"error": {"code": EXIT, "message": ..., "server": NAME|null}} on
 * stdout. Frees what cli_error kept. */
void cli_finish(cli *c, int rc);

/* connect.c */
/* Creates the session of config entry `idx` with the command line's
 * settings (log level). */
session *cli_new_session(cli *c, size_t idx);
/* Connects the given config indexes concurrently and waits until each is
 * connected or failed. Returns the number connected. */
size_t cli_connect(cli *c, const size_t *idx, size_t n);
/* Connects every configured server. */
size_t cli_connect_all(cli *c);
/* Closes every session gracefully, waits for the transports, frees. */
void cli_shutdown(cli *c);
/* Sends a request and runs the loop until its answer. On success returns
 * EXIT_OK with *result set (caller frees); else an exit code with
 * `why` filled. `progress` may be NULL. */
typedef void (*cli_progress_fn)(cli *c, const cJSON *params);
int cli_request(cli *c, session *s, const char *method, cJSON *params,
                uint64_t timeout_ms, cli_progress_fn progress, cJSON **result,
                char *why, size_t why_len);
/* What a request's answer is to the sanitizer (sanitize_kind): the
 * results the CLI shows or hands to a script are SANITIZE_RESULT. */
int cli_result_kind(const char *method);
/* Index of a configured server by name (exact, then normalized); -1. */
long cli_find_server(const cli *c, const char *name);

/* Parses a TOOL or PROMPT reference ("mcp__SERVER__NAME" or
 * "SERVER/NAME") to a configured server's index and the item part (a new
 * string; normalized when *qualified). Returns EXIT_OK, or an exit code
 * with `why` filled. */
int cli_resolve_ref(const cli *c, const char *ref, const char *what,
                    size_t *server_idx, char **item, bool *qualified,
                    char *why, size_t why_len);

/* The session of config entry `idx`, created when there is none yet. */
session *cli_session(cli *c, size_t idx);

/* plugin_cmds.c */
/* Offers the "mcph.host.servers/1" service to plugins. */
void cli_offer_services(cli *c);
/* A command a plugin adds (mcph.command/1). */
typedef struct plugin_command {
  const plugin *p;
  const mcph_command *cmd;
} plugin_command;
bool cli_find_plugin_command(const cli *c, const char *name,
                             plugin_command *out);
/* The "Plugin commands:" part of --help. */
void cli_print_plugin_commands(const cli *c, FILE *f);
/* Runs it until it finishes or Ctrl-C; returns its exit code. */
int cli_run_plugin_command(cli *c, const plugin_command *pc, int argc,
                           char **argv);
/* Frees what plugin commands and services left (after the host). */
void cli_plugin_cmds_free(cli *c);

/* tool_call.c */
/* tools/call with progress, retried after URL elicitations (-32042), at
 * most 3 times. Returns EXIT_OK with *result, or an exit code and `why`. */
int cli_call_tool(cli *c, session *s, const char *tool, const cJSON *args,
                  cli_progress_fn progress, cJSON **result, char *why,
                  size_t why_len);

/* commands.c */
int cmd_servers(cli *c, int argc, char **argv);
int cmd_tools(cli *c, int argc, char **argv);
int cmd_resources(cli *c, int argc, char **argv);
int cmd_prompts(cli *c, int argc, char **argv);
int cmd_plugins(cli *c, int argc, char **argv);
/* Whether a plugin directory can be searched; else why not (`why`). */
bool cli_plugin_dir_usable(const char *dir, char *why, size_t why_len);

/* call.c */
int cmd_call(cli *c, int argc, char **argv);
int cmd_read(cli *c, int argc, char **argv);
int cmd_prompt(cli *c, int argc, char **argv);

/* main.c */
/* Whether `word` ("--NAME" or "--NAME=VALUE") is a built-in global
 * option, for hints when one comes where arguments are read. */
bool cli_global_option(const char *word);

/* help.c */
/* `mcphost COMMAND --help` for a built-in command other than mcp (which
 * has its own), or NULL. */
const char *cli_command_help(const char *name);

/* batch.c */
int cmd_batch(cli *c, int argc, char **argv);

/* output.c */
/* Prints MCP content blocks for people: text as is (in a pipe or a file
 * byte for byte: a newline between two text blocks only when the first
 * lacks one, never after the last), images, audio and blobs written to
 * files with a line naming the file. */
void out_content(cli *c, const cJSON *content);
void out_resource_contents(cli *c, const cJSON *contents);
/* A write to stdout made without stdio failed with `err`: said at exit
 * (cli_check_output). */
void cli_output_failed(cli *c, int err);
/* At exit, after the last output: flushes and checks stdout. A failed
 * write prints "mcphost: cannot write the output: REASON" and gives
 * EXIT_OUTPUT in place of 0, 1 or 9; a pipe whose reader went away
 * (EPIPE) ends quietly with 128 + SIGPIPE, as a filter killed by the
 * signal would. */
int cli_check_output(cli *c, int rc);
/* A prompt message's "[ROLE]" line, on a line of its own. */
void out_role(cli *c, const char *role);
/* Prints `v` as indented JSON; on a terminal with DEL, C1 and invisible
 * characters as \u escapes (the same values). */
void out_json(const cJSON *v);
/* For --json: cuts the text of a tools/call, resources/read or
 * prompts/get result in place to a limit asked for (cli_output_limit),
 * each cut said on stderr. */
void out_cut_result(cli *c, cJSON *result);
/* The characters of one result's text that may be printed, 0 for all:
 * the limit on a terminal, or the one asked for everywhere. */
size_t cli_output_limit(const cli *c);
/* `rc`, or EXIT_TRUNCATED for a success whose output was cut as asked. */
int cli_output_rc(const cli *c, int rc);
/* A progress notification as a line on stderr. */
void out_progress(cli *c, const cJSON *params);
/* Text from a server or a config file for one line of output: controls,
 * newlines (and, but with --sanitize=off, invisible and bidi characters)
 * as visible escapes (text_escape.h). Owned by `c`, valid until
 * CLI_ESC_KEEP more calls; NULL is "". */
const char *cli_esc(cli *c, const char *s);
void cli_esc_free(cli *c);
/* Prints "mcphost: <message>" on stderr, redacted (redact.h) and
 * sanitized: an error can quote a server, an HTTP peer or a header. */
void out_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes `data` to a new private file with an extension for `mime`;
 * returns the path (new string) or NULL with `why` filled. */
/* Checks (and creates, 0700) the --output-dir before anything connects.
 * Returns 0, or -1 with a sentence in `why`. */
int out_check_dir(cli *c, char *why, size_t why_len);
char *out_save_blob(cli *c, const unsigned char *data, size_t len,
                    const char *mime, char *why, size_t why_len);

/* load.c */
/* Loads every configuration scope into c->h->cfg (c->sources, plus the
 * plugins' server sources) and prints its errors, warnings and, with -v,
 * notes. */
void cli_load_config(cli *c);
/* Loads every scope into `cfg` (which should be empty) as
 * cli_load_config does, printing nothing. */
void cli_load_scopes(cli *c, config *cfg);
/* After an add or import: a warning for each server the duplicate rule
 * skips that is one of `names` or has one of them as its winner. */
void cli_warn_skipped(cli *c, const char *const *names, size_t n);
/* EXIT_OK when config entry `idx` may start; else prints why (how to
 * approve a pending server, which rule denies it) and returns
 * EXIT_DENIED. */
int cli_check_startable(cli *c, size_t idx);

/* permission.c */
/* Before connecting: refuses (EXIT_DENIED, reason printed) a call that a
 * deny rule forbids. `normalized`: `tool` is the mcp__ form's tool part. */
int cli_permission_precheck(cli *c, size_t idx, const char *tool,
                            bool normalized);
/* The whole decision for calling `tool` (its real name) of server `idx`
 * with `args` (`description`: the tool's, or NULL): deny refuses; ask takes --allow, else asks the terminal
 * and permission plugins, running the loop until one answers. Returns
 * EXIT_OK, EXIT_DENIED or EXIT_INTERRUPTED (reason printed). */
int cli_check_permission(cli *c, size_t idx, const char *tool,
                         const char *description, const cJSON *args);
/* Without asking anyone (batch): deny and unanswered ask refuse, with
 * `why` filled. */
int cli_permission_now(cli *c, size_t idx, const char *tool, bool normalized,
                       char *why, size_t why_len);

/* mcp_cmd.c: mcphost mcp ... (add, list, get, approve, ...) */
int cmd_mcp(cli *c, int argc, char **argv);
/* import.c: mcphost mcp import claude-desktop|claude-code */
int cmd_mcp_import(cli *c, int argc, char **argv);

#endif
