/* The mcphost command line: option parsing and printing. The protocol
 * is the client library's, reached through its public API alone
 * (<mcphost/client.h>: the client, its operations, its callbacks); the
 * CLI gives it settings and an asker, and maps its statuses to exit
 * codes. No header of the library is included here
 * (tests/integration/test_cli_headers.sh).
 * What the gateway may use of the CLI (the exit codes, the helpers it
 * shares) is declared in frontend.h. */
#ifndef MCPHOST_CLI_H
#define MCPHOST_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <mcphost/abi.h>
#include <mcphost/client.h>

#include "cli/frontend.h"
#include "cli/options.h"
#include "util.h"
#include "size_limits.h"

typedef struct cli {
  bool json;
  bool all_tools; /* tools --all: also the tools a model is not shown */
  bool quiet_progress;
  uint64_t connect_timeout_ms;
  uint64_t request_timeout_ms;
  uint64_t tool_timeout_ms;
  uint64_t server_exit_ms; /* MCPHOST_STDIO_EXIT_MS */
  bool timeout_given;     /* --timeout was given */
  /* --timeout, MCP_TOOL_TIMEOUT / MCPHOST_REQUEST_TIMEOUT was given:
   * that deadline is a hard total (mcp_client_options). */
  bool tool_timeout_given, request_timeout_given;
  const char *output_dir; /* for images and blobs; NULL: private temp dir */
  const char *protocol;   /* --protocol: auto, modern or legacy */
  const char *log_level;  /* --log-level: sent with logging/setLevel */
  /* The CLI's client of the public API (sdk/include/mcphost/client.h),
   * made with mcphost_client_new: every command goes through it. */
  mcphost_client *api;
  /* SIGINT, SIGTERM and SIGHUP as a descriptor on the client's loop
   * (main.c): the library takes no signal. */
  int sigfd;
  mcphost_watch *sigwatch;
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
  /* ---- configuration scopes (load.c) ---- */
  mcphost_config_sources sources; /* what the command line asked for */
  /* ---- plugin commands (plugin_cmds.c) ---- */
  struct cli_command_info *commands_found; /* cli_find_plugin_command's */
  /* ---- permission questions (permission.c) ---- */
  int ask_tty;           /* where asks read y/N: -1 none; -2 not chosen */
  /* stdout's width for cut descriptions: 0 not a terminal; -1 not asked
   * yet (asked once a command, not once a line: one ioctl each). */
  int out_cols;
  bool ask_tty_owned;    /* opened (/dev/tty): closed at the end */
  /* Of the cli that made the client (its on_ask's ud): */
  struct cli_ask *asks;   /* waiting for the terminal, in order */
  struct cli_ask *asking; /* on the terminal now */
  struct cli *command;    /* in a session, the command running: its
                             terminal takes the questions */
  /* ---- roots (roots.h): --root, resolved (owned), and --no-roots ---- */
  char **root_dirs;
  size_t nroot_dirs;
  bool no_roots;
  /* ---- failures (failure.c) ---- */
  char *error_message; /* the first cli_error, for --json (owned) */
  char *error_long;    /* a server's long message (mcphost_error's
                          message_long) of the last operation (owned) */
  char *error_server;  /* the server it names, or NULL (owned) */
  bool result_printed; /* a JSON result went to stdout */
  /* ---- sessions (daemon.h) ---- */
  int argc; /* the whole command line, for the session's key */
  char **argv;
  const struct cli_shared *shared; /* run in a session, or NULL */
} cli;

/* failure.c */
/* The exit code of a client API status (MCPHOST_E*: the kinds are the
 * exit codes', docs/embedding.md). */
int cli_exit_for_api(int code);
/* A run a signal ended exits 128 + its number (SIGTERM 143, SIGINT 130). */
int cli_exit_for_signal(int rc, int signal_number);
/* The one message for a name that is not known: "PREFIX "WORD" (did you
 * mean ...?)TAIL" by cli_error, the suggestions from `names`. Returns
 * EXIT_USAGE. */
int cli_unknown(cli *c, const char *prefix, const char *word,
                const char *const *names, size_t n, const char *tail);
/* At exit: under --json, a failed command that printed no result writes
 * {"error": {"code": EXIT, "message": ..., "server": NAME|null}} on
 * stdout. Frees what cli_error kept. */
void cli_finish(cli *c, int rc);

/* connect.c: the CLI's side of the client */
/* Gives the client the command line's settings (timeouts, log level,
 * roots, name limits); before a command runs. */
void cli_client_options(cli *c);
/* Every one of them set, and servers that crash connected again: a
 * session's own settings, put back after each command. */
void cli_client_options_kept(cli *c);
/* Connects the given config indexes (mcphost_connect_servers) and waits
 * until each is connected or failed. Returns the number connected. */
size_t cli_connect(cli *c, const size_t *idx, size_t n);
/* The same with mcphost_connect_servers's `flags` (MCPHOST_CONNECT_*). */
size_t cli_connect_flags(cli *c, const size_t *idx, size_t n, unsigned flags);
/* Every server that may start. */
size_t cli_connect_all(cli *c);
/* mcphost_server_status of `name` (an object; NULL when it is not
 * configured), or with `name` NULL every server's (an array in index
 * order; [] on an error). The caller frees it. */
cJSON *cli_server_status(cli *c, const char *name, unsigned flags);
/* Whether a status of cli_server_status says connected. */
bool cli_server_ready(const cJSON *status);
/* The exit code for a server that is not connected: its "code"'s. */
int cli_exit_for_server(const cJSON *status);
/* Prints "no server named ..." with the closest configured names and
 * returns EXIT_NOT_FOUND. */
int cli_no_server(cli *c, const char *name);
/* An operation of `kind` on `server` for cli_run: `name` its name (the
 * kind's: a URI, a list's kind, a prompt), or for MCPHOST_OP_REQUEST
 * its method; `arguments` JSON text or NULL; `flags` MCPHOST_REQUEST_*.
 * The strings are borrowed. */
mcphost_request cli_request(int kind, const char *server, const char *name,
                            const char *arguments, uint32_t flags);
/* Runs one operation of the client API (mcphost_start) to its end:
 * progress on stderr unless quiet, the "still running" line, Ctrl-C
 * withdraws it. EXIT_OK with *result (the result's tree; the caller
 * frees it), else the exit code with `err` set. `real` (may be NULL)
 * gets the tool's or prompt's real name once found (a new string,
 * replacing *real). */
int cli_run(cli *c, const mcphost_request *rq, cJSON **result,
            mcphost_error *err, char **real);
/* Prints the error (cli_error) and returns its exit code. */
int cli_fail(cli *c, const mcphost_error *e);
/* Runs the client's loop until *done, or until a signal arrives (Ctrl-C:
 * mcphost_interrupted): returns true when a signal ended the wait. */
bool cli_wait(cli *c, const int *done);
/* The same with a deadline (mcphost_now_ms; 0: none): 0 once *done, 1
 * when a signal ended the wait, -1 at the deadline. */
int cli_wait_until(cli *c, const int *done, uint64_t deadline);

/* plugin_check.c: mcphost plugin check FILE (mcphost_plugin_check) */
int cmd_plugin(cli *c, int argc, char **argv);

/* plugin_cmds.c */
/* A command a plugin adds (mcph.command/1), as mcphost_command_info
 * gives it: usage and help NULL when the plugin gives none. */
typedef struct cli_command_info {
  const char *name, *usage, *help;
  struct cli_command_info *next; /* c->commands_found */
} cli_command_info;
typedef struct plugin_command {
  const cli_command_info *cmd; /* NULL: none (cli_plugin_cmds_free) */
} plugin_command;
bool cli_find_plugin_command(cli *c, const char *name, plugin_command *out);
/* The names of the plugins' commands (*n of them), for "did you mean":
 * one block, freed with free(). */
const char **cli_plugin_command_names(const cli *c, size_t *n);
/* The "Plugin commands:" part of --help. */
void cli_print_plugin_commands(const cli *c, FILE *f);
/* Runs it until it finishes or Ctrl-C; returns its exit code. */
int cli_run_plugin_command(cli *c, const plugin_command *pc, int argc,
                           char **argv);
/* Frees what plugin commands and services left (after the host). */
void cli_plugin_cmds_free(cli *c);

/* commands.c */
int cmd_servers(cli *c, int argc, char **argv);
/* reconnect [SERVER]: the shell's and the session's (daemon_cmd.c):
 * each server (or SERVER) connected again now (mcp_client_reconnect). */
int cmd_reconnect(cli *c, int argc, char **argv);
int cmd_tools(cli *c, int argc, char **argv);
int cmd_resources(cli *c, int argc, char **argv);
int cmd_prompts(cli *c, int argc, char **argv);
int cmd_plugins(cli *c, int argc, char **argv);
/* Says on stderr each --plugin-dir that is no usable directory, and why. */
void cli_warn_plugin_dirs(cli *c);

/* ping.c */
/* task_cmd.c: mcphost task status|result|cancel|list. */
int cmd_task(cli *c, int argc, char **argv);
/* A detached call's answer (a CreateTaskResult): its task id on stdout
 * (--json: the result), how to finish it on stderr. Returns false when
 * `result` holds no task (the server ran the call at once). */
bool cli_print_detached(cli *c, size_t idx, const cJSON *result);
/* call.c: a tool result for people (content, else structured content)
 * or, with --json, as it is. */
void cli_print_tool_result(cli *c, cJSON *result);
int cmd_ping(cli *c, int argc, char **argv);

/* tool_cmd.c */
int cmd_tool(cli *c, int argc, char **argv);

/* call.c */
int cmd_call(cli *c, int argc, char **argv);
int cmd_read(cli *c, int argc, char **argv);
int cmd_prompt(cli *c, int argc, char **argv);

/* main.c */
/* The built-in command names, one a line. */
void cli_print_commands(FILE *f);

/* help.c */
/* `mcphost --help` without what plugins add. */
void cli_print_usage(FILE *f);
/* `mcphost COMMAND --help` for a built-in command other than mcp (which
 * has its own), or NULL. */
const char *cli_command_help(const char *name);

/* batch.c */
int cmd_batch(cli *c, int argc, char **argv);

/* shell.c: mcphost shell, one interactive session on the client */
int cmd_shell(cli *c, int argc, char **argv);

/* completion.c: mcphost completion bash|zsh|fish, and complete -- WORDS */
int cmd_completion(cli *c, int argc, char **argv);
/* What the next word of command `name` is, after `npos` positional words
 * (`first` the first of them, or NULL): the one rule of the completion
 * scripts and the shell. COMPLETES_ARGUMENT: an argument of tool
 * `first`. */
typedef enum cli_completes {
  COMPLETES_NOTHING,
  COMPLETES_SERVER,
  COMPLETES_TOOL,
  COMPLETES_PROMPT,
  COMPLETES_ARGUMENT,
  COMPLETES_MCP_SUBCOMMAND,
  COMPLETES_IMPORT_CLIENT,
  COMPLETES_SHELL_NAME,
  COMPLETES_TASK_ACTION,
  COMPLETES_PLUGIN_SUBCOMMAND
} cli_completes;
cli_completes cli_completes_after(const char *name, int npos,
                                  const char *first);

/* names_cache.c: the names completion offers without connecting */
/* Keeps the assigned names (`kind`: "tools" or "prompts") a listing of
 * `server` saw, and the server's own names of the `items` listed, in
 * place of those kept before. */
void cli_names_record(cli *c, const char *server, const char *kind,
                      char *const *names, const cJSON *items, size_t n);
/* The name mcphost_name_assign gives `item` of `server` as the server's
 * only one, under the default limit (a new string). */
char *cli_qualify(const char *server, const char *item);
/* call.c: `n` argument words parsed by mcphost_args_parse (`flags`:
 * MCPHOST_ARGS_STDIN), as the tree a call takes (mcp_call.words); NULL
 * with `err` set. */
cJSON *cli_args_words(int n, char *const *words, unsigned flags,
                      mcphost_error *err);
/* tool_cmd.c: mcphost_tool_signature of `tool` (a tools/list item) under
 * `name`; a new string (mcphost_free). */
char *cli_tool_signature(const char *name, const cJSON *tool);
/* Prints the kept names of `kind` of every server of `servers` (as
 * cli_load_preview gives them), one a line: the assigned ones, or with
 * `own` SERVER/NAME. */
void cli_names_print(cli *c, const cJSON *servers, const char *kind, bool own,
                     FILE *f);
/* Whether a name may be offered to a shell's completion: an assigned one
 * (mcphost_name_assign: [A-Za-z0-9_-]), or with `own` a server's own,
 * which may also hold '.', as MCP's tool names may; anything else is not
 * put on a command line. */
bool cli_plain_name(const char *s, bool own);

/* output.c */
/* Prints MCP content blocks for people: text as is (in a pipe or a file
 * byte for byte: a newline between two text blocks only when the first
 * lacks one, never after the last), images, audio and blobs written to
 * files with a line naming the file. */
void out_content(cli *c, const cJSON *content);
void out_resource_contents(cli *c, const cJSON *contents);
/* The same for a caller that knows whether stdout is a terminal (`tty`):
 * batch asks once, not for every answer. */
int out_json_append_tty(strbuf *out, const cJSON *v, bool pretty, bool tty);
/* At exit, after the last output: flushes and checks stdout. A failed
 * write prints "mcphost: cannot write the output: REASON" and gives
 * EXIT_OUTPUT in place of 0, 1 or 9; a pipe whose reader went away
 * (EPIPE) ends quietly with 128 + SIGPIPE, as a filter killed by the
 * signal would. */
int cli_check_output(cli *c, int rc);
/* A prompt message's "[ROLE]" line, on a line of its own. */
void out_role(cli *c, const char *role);
/* Prints `v` as indented JSON by out_json_append and a newline. */
void out_json(const cJSON *v);
/* The columns `s` takes on a terminal (display_width), and `s` printed
 * padded with spaces to `width` columns: the one way tables align. */
size_t out_width(const char *s);
void out_pad(const char *s, size_t width);
/* Prints `v` as one line of JSON (out_json_append) and a newline. */
void out_json_line(const cJSON *v);
/* The characters of one result's text that may be printed, 0 for all:
 * the limit on a terminal, or the one asked for everywhere. */
size_t cli_output_limit(const cli *c);
/* `rc`, or EXIT_TRUNCATED for a success whose output was cut as asked. */
int cli_output_rc(const cli *c, int rc);
/* A progress notification as a line on stderr. */
void out_progress(cli *c, const cJSON *params);
/* A task's status line on stderr: "task ID: STATUS (MESSAGE)"
 * (task_cmd.c). */
void out_task_status(cli *c, const cJSON *task);
/* Text from a server or a config file for one line of output: controls,
 * newlines (and, but with --sanitize=off, invisible and bidi characters)
 * as visible escapes (text_escape.h). Owned by `c`, valid until
 * CLI_ESC_KEEP more calls (or `s` itself when nothing is escaped: as
 * long as `s`); NULL is "". */
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
/* Loads every configuration scope into the client (c->sources, plus the
 * plugins' server sources) and prints its errors, warnings and, with -v,
 * notes. */
void cli_load_config(cli *c);
/* As cli_load_config, the command line's sources checked alone first:
 * EXIT_OK, or EXIT_USAGE with every error said (nothing loaded). In a
 * session only the check: the session loaded the rest. */
int cli_load_checked(cli *c);
/* Gives the client c->sources for its configuration files' functions
 * (mcphost_set_config_sources: `mcp add` writes where a load would
 * read), before or without a load. */
void cli_set_sources(cli *c);
/* The servers every scope and c->sources give now, loaded apart as
 * cli_load_config would load them, printing nothing
 * (mcphost_config_preview): an array of {"name", "scope", "state",
 * "reason", "winner"}, or {} on an error. The caller frees it. */
cJSON *cli_load_preview(cli *c);
/* After an add or import: a warning for each server the duplicate rule
 * skips that is one of `names` or has one of them as its winner. */
void cli_warn_skipped(cli *c, const char *const *names, size_t n);

/* permission.c */
/* The CLI's question where a permission rule asks, the client API's
 * on_ask and on_ask_end (their ud the cli): y/N on the terminal, one
 * question at a time, raced by the library against the permission
 * plugins after the --allow patterns (the "allow" option). `call` asks
 * on its terminal when stdin and stderr are one; batch, whose stdin
 * carries requests, on /dev/tty when the process has one
 * (cli_ask_on_dev_tty). */
int cli_on_ask(void *ud, const mcphost_ask_info *q);
void cli_on_ask_end(void *ud, uint64_t id, int allowed, const char *why);
void cli_ask_on_dev_tty(cli *c);
void cli_asker_free(cli *c);

/* mcp_cmd.c: mcphost mcp ... (add, list, get, approve, ...) */
int cmd_mcp(cli *c, int argc, char **argv);
/* import.c: mcphost mcp import claude-desktop|claude-code */
int cmd_mcp_import(cli *c, int argc, char **argv);
/* Whether `name` is one of `mcphost mcp`'s own commands (add, list, ...). */
bool cli_mcp_command(const char *name);
/* Whether `s` names a scope `mcphost mcp` writes (local, user, project). */
bool cli_mcp_scope(const char *s);
/* The tree of a JSON result of the API (`text`, which it frees); {} for
 * NULL. */
cJSON *cli_api_json(char *text);

/* ---- issue 19, part A: grep, complete, subscribe, resource links ---- */

/* commands.c: listing several servers at once */
enum { L_TOOLS, L_RESOURCES, L_TEMPLATES, L_PROMPTS, L_KINDS };
typedef struct listing {
  cJSON *items[L_KINDS]; /* NULL: not asked, not declared or failed */
  char *error[L_KINDS];  /* why the listing failed, or NULL */
} listing;
/* Lists the `want` kinds (1u << L_*) on every connected server among
 * `idx`, concurrently; a kind a server did not declare is not asked.
 * Returns n listings (free with cli_listing_free). */
listing *cli_list_many(cli *c, const size_t *idx, size_t n, unsigned want);
void cli_listing_free(listing *ls, size_t n);
/* Server `idx`'s state (mcphost_server_get); zero but for struct_size
 * past the last server. */
mcphost_server_state cli_server_state(cli *c, size_t idx);
/* The optional SERVER after the command (argv[0]) as config indexes
 * (*idx: new array): that one, or every server that may start. */
int cli_targets(cli *c, int argc, char **argv, size_t **idx, size_t *n,
                bool note_pending);
/* Connects `idx` (cli_connect) and says which failed to; the exit code
 * of the first. */
int cli_connect_report(cli *c, const size_t *idx, size_t n);

/* term.c: the terminal */
typedef enum cli_style {
  CLI_STYLE_MATCH, /* a match (grep) */
  CLI_STYLE_GOOD,  /* a state that is well (connected) */
  CLI_STYLE_BAD,   /* a state that is not (failed) */
  CLI_STYLE_HEAD,  /* a heading */
  CLI_STYLE_DIM    /* what matters less */
} cli_style;
/* Whether output to `fd` is coloured: only a terminal, never with a
 * non-empty NO_COLOR (no-color.org) or TERM=dumb. */
bool cli_colour(int fd);
/* Appends `len` bytes of `text` to `out`, in style `s` when `on`. */
void cli_paint(strbuf *out, bool on, cli_style s, const char *text,
               size_t len);
/* The columns of the terminal on `fd`; 0 when it is none. */
unsigned cli_term_cols(int fd);
/* Server text for several lines: escaped as cli_esc, newlines kept. A
 * new string. */
char *cli_esc_lines(const cli *c, const char *s);
/* The line a description is shown by in one line (listings, grep): its
 * first line with text, without the blanks before it (many servers start
 * a description with a newline and an indent). Sets *len to its length
 * and *more to whether text follows on a later line. NULL (*len 0, *more
 * false) when `desc` is NULL or blank. Points into `desc`. */
const char *cli_first_line(const char *desc, size_t *len, bool *more);
/* A UTF-8 LC_CTYPE (the person's, else C.UTF-8), for the commands that
 * read typed text or match patterns; once (term.c). */
void cli_utf8_ctype(void);
/* Prints `text` (escaped already) wrapped at spaces to `cols` (0: 80),
 * each line after `indent` spaces; a longer word stays whole. */
void cli_print_wrapped(const char *text, size_t indent, size_t cols);

/* server_details.c: `servers -v` under a connected server, from its
 * status (cli_server_status). */
void cli_print_server_details(cli *c, const cJSON *status);

/* grep.c, complete.c, subscribe.c */
int cmd_grep(cli *c, int argc, char **argv);
int cmd_complete(cli *c, int argc, char **argv);
int cmd_subscribe(cli *c, int argc, char **argv);

/* follow_links.c: --follow-links */
/* The most links --follow-links reads by default, and at most. */
#define CLI_LINKS_DEFAULT 10
#define CLI_LINKS_MAX 100
/* Parses "--follow-links" or "--follow-links=N" into *max (0 when `word`
 * is neither). Returns EXIT_OK, or EXIT_USAGE with the reason said. */
int cli_follow_links_option(cli *c, const char *word, unsigned *max);
/* What --follow-links has done across the contents of one result. */
typedef struct cli_links {
  unsigned max;  /* the most links read */
  unsigned read; /* links read so far */
  cJSON *seen;   /* URIs read or embedded: a string array (owned) */
  cJSON *json;   /* --json: [{"uri", "contents" | "error"}], else NULL */
} cli_links;
/* Reads the resource links of `content` (a content array, or a block)
 * from `server`, each URI once and none the content embeds, until
 * l->max were read, and prints each one's contents after a "[linked
 * resource URI]" line (--json: appends to l->json). A link that cannot
 * be read is said on stderr; the command's exit stays. */
void cli_follow_links(cli *c, const char *server, const cJSON *content,
                      cli_links *l);
/* A tool result (or, with "messages", a prompt's) and its links, up to
 * l->max: `print` prints the result for people, then each link follows;
 * with --json one object {"result": RESULT, "links": [...]}. Frees what
 * `l` holds. */
void cli_print_with_links(cli *c, const char *server, cJSON *result,
                          cli_links *l, void (*print)(cli *c, cJSON *result));

/* find_item.c */
/* Resolves a tool or prompt reference (`kind`: MCPHOST_OP_FIND_TOOL or
 * MCPHOST_OP_FIND_PROMPT), checks that its server may start and finds
 * its declaration: EXIT_OK with *item (the caller frees it), else the
 * exit code, the error said; but a failed find is left unsaid in
 * `find_err` when it is not NULL (then the caller says it). *server is
 * the server's name (the client's) once the reference named one, NULL
 * before. */
int cli_find_item(cli *c, const char *ref, int kind, const char **server,
                  cJSON **item, mcphost_error *find_err);

/* prompt_help.c: a prompt for people (prompt NAME --help, tool NAME) */
void cli_print_prompt(cli *c, const char *qualified, const cJSON *prompt);
/* `prompt PROMPT --help`: the prompt's arguments. */
int cmd_prompt_help(cli *c, int argc, char **argv);

#endif
