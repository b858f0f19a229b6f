/*
 * libmcphost — the MCP client as a C library, for programs that embed it
 * (docs/embedding.md). The `mcphost` executable is one client of the same
 * code: configuration scopes, policy, permissions, sanitizing, every
 * transport and feature as a plugin, both protocol eras.
 *
 * Link with `pkg-config --cflags --libs libmcphost`, or CMake's
 * `find_package(McpHost)` and the target `McpHost::client`.
 *
 * The rules are the plugin ABI's (abi.h), with the prefix `mcphost_`:
 *   - Versions. MCPHOST_API_MAJOR changes never within libmcphost.so.1;
 *     the minor only adds. mcphost_options carries the version the
 *     caller was compiled against (MCPHOST_OPTIONS_INIT sets it), and
 *     mcphost_client_new refuses a major it is not, or a minor newer than
 *     the library's (MCPHOST_EABI): the handshake.
 *   - struct_size. Every struct the caller fills starts with
 *     `uint32_t struct_size` (sizeof as the caller built it; the _INIT
 *     macros set it); structs grow only at their end, and the library
 *     reads no field the caller's size does not cover.
 *   - Threads: every function carries a tag.
 *       [any thread]  any thread, concurrently with the library's loop;
 *       [loop]        the thread that runs the library's loop: in
 *                     MCPHOST_LOOP_THREAD mode the library's own thread
 *                     (every callback runs there), in MCPHOST_LOOP_CALLER
 *                     mode the thread that calls mcphost_perform;
 *       [not loop]    any thread but the loop's (it waits for the loop).
 *     A callback returns promptly: it runs on the loop, which every
 *     server of the client shares.
 *   - Ownership. A string passed in is borrowed for the call (the
 *     library copies what it keeps). A string a callback receives is
 *     borrowed for the callback. A string the library returns through a
 *     `char **` is the caller's, freed with mcphost_free.
 *   - Errors. Functions return MCPHOST_OK (0) or a negative
 *     enum mcphost_status, and fill a caller-owned mcphost_error when one
 *     is given (it may be NULL). mcphost_status_name names a code.
 *   - JSON. Arguments and results are JSON text in and out; a result is
 *     passed on as the server sent it (every token and string byte kept;
 *     only the whitespace between tokens may differ), so any language
 *     binds this header without a JSON library of this one's.
 *   - Signals. The library does not take SIGINT, SIGTERM or SIGHUP; it
 *     ignores SIGPIPE (a server's closed pipe is an error, not the end of
 *     the program).
 *
 * This header compiles as C11 and as C++.
 */
#ifndef MCPHOST_CLIENT_H
#define MCPHOST_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API version this header describes.
 *   1.0  the client, its configuration, connect, lists, calls, reads,
 *        prompts, completions, subscriptions, notifications, the
 *        servers' requests, the two loop modes, in-process servers */
#define MCPHOST_API_MAJOR 1
#define MCPHOST_API_MINOR 0

/* Status codes: 0 is success, errors are negative. Codes are only ever
 * added. The kinds of failure are those of `mcphost call`'s exit codes
 * (docs/embedding.md maps them). */
enum mcphost_status {
  MCPHOST_OK = 0,
  MCPHOST_EUSAGE = -1,    /* a bad argument, reference or configuration */
  MCPHOST_ESERVER = -2,   /* a server failed, is unreachable or
                             misconfigured */
  MCPHOST_EPROTOCOL = -3, /* the server answered with an error or broke
                             MCP (rpc_code: its JSON-RPC code) */
  MCPHOST_ETIMEDOUT = -4, /* a deadline passed */
  MCPHOST_ENOTFOUND = -5, /* no such server, tool, prompt or resource */
  MCPHOST_EAUTH = -6,     /* the server needs authorization */
  MCPHOST_EDENIED = -7,   /* refused by policy, approval or a permission
                             rule */
  MCPHOST_ECANCELED = -8, /* cancelled (mcphost_cancel, the client freed) */
  MCPHOST_ENOMEM = -9,    /* out of memory */
  MCPHOST_EABI = -10,     /* a version or struct_size the library refuses */
  MCPHOST_ESTATE = -11    /* not now: the wrong loop mode or thread, or
                             no connection (mcphost_inproc_send) */
};

/* [any thread] The name of a status code ("MCPHOST_ETIMEDOUT"); static.
 * A code this library does not know gives "MCPHOST_E?". */
const char *mcphost_status_name(int code);

/* [any thread] The library's version ("0.1.0"; static) and, when not
 * NULL, the API version it implements. */
const char *mcphost_version(int *api_major, int *api_minor);

/* The struct_size an _INIT macro sets, without a C-style cast in C++ (a
 * program built with -Wold-style-cast uses the macros too). */
#ifdef __cplusplus
#define MCPHOST_SIZEOF_(type) static_cast<uint32_t>(sizeof(type))
#else
#define MCPHOST_SIZEOF_(type) ((uint32_t)sizeof(type))
#endif

#define MCPHOST_ERROR_MAX 1024
#define MCPHOST_NAME_MAX 256

/* An error report: owned by the caller, who sets struct_size
 * (MCPHOST_ERROR_INIT); filled by the library, never its struct_size. */
typedef struct mcphost_error {
  uint32_t struct_size;
  int32_t code;     /* an enum mcphost_status */
  int32_t rpc_code; /* the JSON-RPC error code a server answered, or 0 */
  char message[MCPHOST_ERROR_MAX]; /* a sentence; "" with MCPHOST_OK */
  char server[MCPHOST_NAME_MAX];   /* the configured server at fault, or "" */
  /* A server's message too long for `message` (which holds its first
   * MCPHOST_ERROR_MAX - 1 bytes): the whole of it, as the server sent
   * it; NULL when `message` holds it all. Only in the error a callback
   * is given (`done`), borrowed for the call: a program that passes the
   * message on (the gateway) takes it from here. NULL in an error a
   * function fills. */
  const char *message_long;
} mcphost_error;

#define MCPHOST_ERROR_INIT                                                     \
  { MCPHOST_SIZEOF_(mcphost_error), 0, 0, "", "", NULL }

/* [any thread] Frees a string the library returned; NULL is fine. */
void mcphost_free(void *p);

/* ---- the client ---- */

typedef struct mcphost_client mcphost_client;

enum mcphost_loop_mode {
  /* The library runs its loop on a thread of its own: functions tagged
   * [any thread] and [not loop] may be called from any other thread;
   * every callback runs on the library's thread. */
  MCPHOST_LOOP_THREAD = 0,
  /* The caller runs the loop from its own event loop (poll, epoll, a
   * GUI's): it waits for mcphost_fd to be readable or mcphost_timeout_ms
   * to pass, then calls mcphost_perform. The [loop] and [not loop]
   * functions are then called on that one thread (the waiting ones,
   * mcphost_run and mcphost_connect, run the loop themselves); the [any
   * thread] ones still from any thread. */
  MCPHOST_LOOP_CALLER = 1
};

/* A notification a server sent (after the library's own handling: a
 * tool list is dropped on notifications/tools/list_changed): `server`
 * is the configured name, `params_json` the params as JSON text ("{}"
 * without any). list_changed and notifications/resources/updated (of a
 * subscription) come this way. [loop] */
typedef void (*mcphost_notify_fn)(void *ud, const char *server,
                                  const char *method, const char *params_json);

/* A server's own request (elicitation/create, sampling/createMessage,
 * roots/list, ...; not ping), offered to the embedding program before
 * the library and the feature plugins. Return 1 to take it: answer it
 * exactly once with mcphost_respond, now or later (the handle is valid
 * until then); 0 leaves it to the library (roots) and the feature
 * plugins (elicitation, sampling), as the CLI does. [loop] */
typedef struct mcphost_server_request mcphost_server_request;
typedef int (*mcphost_request_fn)(void *ud, const char *server,
                                  const char *method, const char *params_json,
                                  mcphost_server_request *req);

/* A permission rule says "ask" for a tool call (docs/config.md): the
 * question, its strings borrowed for the callback. */
typedef struct mcphost_ask_info {
  uint32_t struct_size;
  uint64_t id;                /* for mcphost_ask_answer */
  const char *tool;           /* mcp__server__tool */
  const char *server;         /* the configured name */
  const char *tool_name;      /* the server's own name for it */
  const char *arguments_json; /* the call's arguments, a JSON object */
  const char *reason;         /* the rule that asks */
  const char *description;    /* the tool's description, or NULL */
  /* The operation whose call asks (mcphost_start's id): a program that
   * serves clients of its own puts the question to the client whose
   * request that operation is. */
  int64_t op;
} mcphost_ask_info;

/* The program's question, asked beside the permission plugins (the first
 * definite answer wins, as the CLI's y/N on a terminal does). Return 1 to
 * ask: answer with mcphost_ask_answer(q->id), now or later; 0: the
 * plugins alone decide, and without one that answers the call is
 * refused. [loop] */
typedef int (*mcphost_ask_fn)(void *ud, const mcphost_ask_info *q);

/* A question the program took (mcphost_ask_fn returned 1) is settled
 * without its answer: a permission plugin answered first, or nobody did
 * in time (`allowed` and `why` are that answer), or it was withdrawn
 * because its call ended or was cancelled (`allowed` 0, `why` NULL).
 * The program stops asking (a prompt on a screen is taken down); an
 * answer to `id` after this is ignored. Not called after the program's
 * own answer. `why` is borrowed for the call. [loop] */
typedef void (*mcphost_ask_end_fn)(void *ud, uint64_t id, int allowed,
                                   const char *why);

/* Server `server` (the configured name, borrowed for the call) connected,
 * or its connection failed or ended. [loop] */
typedef void (*mcphost_state_fn)(void *ud, const char *server);

/* The levels of the library's log (the plugin ABI's MCPH_LOG_*). */
enum mcphost_log_level {
  MCPHOST_LOG_ERROR = 0,
  MCPHOST_LOG_WARN = 1,
  MCPHOST_LOG_INFO = 2,
  MCPHOST_LOG_DEBUG = 3,
  MCPHOST_LOG_TRACE = 4
};

/* An entry of the library's log, instead of stderr: the configuration's
 * errors, warnings and notes (an entry skipped, a policy's verdict, a
 * project server awaiting approval), a plugin's or a server's log line,
 * a transport's trouble; those `verbosity` lets through. `level`: an
 * enum mcphost_log_level. `source`: the configured server or the
 * plugin the entry is about, or NULL. `message`: its text as stderr
 * would show it (escaped, redacted), without "mcphost: LEVEL: " or the
 * last newline. Borrowed for the call. On the loop, or on the thread of
 * mcphost_client_new or mcphost_client_free while they load or unload
 * the plugins and the configuration. */
typedef void (*mcphost_log_fn)(void *ud, int level, const char *source,
                               const char *message);

typedef struct mcphost_options {
  uint32_t struct_size;
  uint32_t api_major; /* MCPHOST_API_MAJOR, as compiled */
  uint32_t api_minor; /* MCPHOST_API_MINOR, as compiled */
  int32_t loop_mode;  /* enum mcphost_loop_mode */
  /* Plugin directories searched before MCPHOST_PLUGIN_PATH and the
   * built-in one (lib/mcphost/plugins beside the library), first wins:
   * the CLI's --plugin-dir. */
  const char *const *plugin_dirs;
  size_t nplugin_dirs;
  /* The configuration, loaded as the CLI loads it: every scope
   * (enterprise, local, project, user, the plugins' servers) and these,
   * each a file name or JSON text ({"mcpServers": {...}}), as the CLI's
   * --mcp-config. A bad one fails mcphost_client_new (MCPHOST_EUSAGE). */
  const char *const *configs;
  size_t nconfigs;
  /* Only `configs`, no other scope (--strict-mcp-config): the servers
   * come from the caller alone. The enterprise policy still applies. */
  int32_t strict;
  /* Pending project servers count as approved (--approve-project). */
  int32_t approve_project;
  /* Deadlines in milliseconds, 0: the CLI's defaults (MCP_TIMEOUT,
   * MCP_TOOL_TIMEOUT, MCPHOST_REQUEST_TIMEOUT or 30 s, 10 min, 60 s). A
   * tool call's default deadline restarts at each progress
   * notification; one given here is a total. */
  uint64_t connect_timeout_ms;
  uint64_t tool_timeout_ms;
  uint64_t request_timeout_ms;
  /* The library's log (on stderr, or to on_log): 0 errors and warnings
   * (the default), 1 info, 2 debug, 3 trace (the CLI's -v). */
  int32_t verbosity;
  mcphost_notify_fn on_notify;   /* NULL: none */
  mcphost_request_fn on_request; /* NULL: the library and plugins answer */
  /* NULL: a rule that asks is put to the permission plugins alone, for
   * at most request_timeout_ms (the CLI's way off a terminal); so is a
   * question the program does not take. */
  mcphost_ask_fn on_ask;
  void *ud; /* the callbacks' */
  /* NULL: the log goes to stderr, as the CLI's. */
  mcphost_log_fn on_log;
  /* 1: load no configuration now (`configs`, `strict` and
   * `approve_project` stay empty): the program sets its options first
   * (mcphost_set_option, the plugins' own among them) and then calls
   * mcphost_load_config, as the CLI does with its command line. */
  int32_t defer_config;
  /* NULL: the program learns of no question settled without it. */
  mcphost_ask_end_fn on_ask_end;
  /* NULL: none. A server's connection came up or went away (connected,
   * failed, lost, closed): its state is mcphost_server_get's. */
  mcphost_state_fn on_state;
} mcphost_options;

#define MCPHOST_OPTIONS_INIT                                                   \
  {                                                                            \
    MCPHOST_SIZEOF_(mcphost_options), MCPHOST_API_MAJOR, MCPHOST_API_MINOR,    \
        MCPHOST_LOOP_THREAD, NULL, 0, NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL,   \
        NULL, NULL, NULL, 0, NULL, NULL                                        \
  }

/* [any thread] A new client: loads the plugins and the configuration
 * (nothing connects yet; with `defer_config`, the plugins alone) and, in
 * MCPHOST_LOOP_THREAD mode, starts its thread (with `defer_config`:
 * mcphost_load_config starts it). The strings of `o` are copied. *out is the
 * caller's, freed with mcphost_client_free. */
int mcphost_client_new(const mcphost_options *o, mcphost_client **out,
                       mcphost_error *err);

/* [not loop] Ends every operation still running (their `done` runs,
 * MCPHOST_ECANCELED), closes every server gracefully (a stdio server's
 * time to exit), stops the thread and frees the client. A request the
 * program took and did not answer is answered with an error. NULL is
 * fine. In MCPHOST_LOOP_CALLER mode: the loop's thread, outside a
 * callback. */
void mcphost_client_free(mcphost_client *c);

/* [any thread] The configured servers, in priority order (those of the
 * configuration read again, once it is: a front end's session); the
 * names are the client's, valid until it is freed. */
size_t mcphost_server_count(const mcphost_client *c);
const char *mcphost_server_name(const mcphost_client *c, size_t i);

/* ---- operations ---- */

enum mcphost_op_kind {
  /* Connects `server` (nothing else), or finds it connected. The result
   * is {"serverInfo": ..., "protocolVersion": "...", "capabilities":
   * ...}. */
  MCPHOST_OP_CONNECT = 1,
  /* Calls the tool `name` with `arguments` (a JSON object; NULL: {}):
   * the permission rules, the arguments checked against its
   * inputSchema, URL elicitations and tasks as `mcphost call`. The
   * result is the CallToolResult (isError is a result, not an error:
   * mcphost_result_text). */
  MCPHOST_OP_CALL_TOOL,
  /* Every item of the kind `name`: "tools", "resources",
   * "resourceTemplates" or "prompts", as {NAME: [...]} (each page, in
   * order). */
  MCPHOST_OP_LIST,
  /* resources/read of the URI `name`. */
  MCPHOST_OP_READ,
  /* prompts/get of the prompt `name` with `arguments` (an object of
   * strings). */
  MCPHOST_OP_GET_PROMPT,
  /* Any other request: `method` with `arguments` as its params
   * (completion/complete, resources/subscribe, resources/unsubscribe,
   * ping, ...). */
  MCPHOST_OP_REQUEST,
  /* The declaration of the tool `name` (a reference, as CALL_TOOL's),
   * from the server's tool list (kept as a call keeps it): the tools/list
   * item as the server sent it. MCPHOST_ENOTFOUND when it lists none so
   * named (the message says which names are close). */
  MCPHOST_OP_FIND_TOOL,
  /* The declaration of the prompt `name` (a reference), from
   * prompts/list: its real name and argument order, as `mcphost prompt`
   * reads them before prompts/get. */
  MCPHOST_OP_FIND_PROMPT,
  /* The task `name` (its taskId) on `server`, followed with tasks/get to
   * its end and tasks/result, as a call run as a task is: the result the
   * tool call gave (`mcphost task result`). The task is left running
   * when the operation is cancelled. */
  MCPHOST_OP_TASK_RESULT
};

/* mcphost_request.flags */
enum mcphost_request_flag {
  /* When the operation ends with a JSON-RPC error the server answered
   * (MCPHOST_EPROTOCOL or another code, with rpc_code set) and that error
   * has `data`, the data comes back as JSON text where a result would:
   * to `done` as `result_json` beside `err`, or in mcphost_run's
   * *result_json while it returns the error. Passed on as the server
   * sent it, as a result is (MCP servers put structured detail there:
   * a -32042 answer's data.elicitations). Without the flag, or without
   * data, there is no text with an error. */
  MCPHOST_REQUEST_ERROR_DATA = 1,
  /* The result (CALL_TOOL, READ, GET_PROMPT) is bound for a model, not
   * shown to a person: its text is sanitized as text for a model
   * (docs/safety.md), as the gateway serves it. */
  MCPHOST_REQUEST_FOR_MODEL = 2,
  /* LIST: a server that did not declare the kind's capability answers
   * {NAME: null} without being asked (without the flag it is asked all
   * the same). */
  MCPHOST_REQUEST_IF_DECLARED = 4,
  /* CALL_TOOL: a tool whose execution.taskSupport is "optional" runs as
   * a task too (`mcphost call --task`); one that takes no task is then
   * MCPHOST_EUSAGE. A tool that requires a task always runs as one. */
  MCPHOST_REQUEST_TASK = 8,
  /* CALL_TOOL: the operation ends once the server created the task, with
   * the CreateTaskResult ({"task": {"taskId": ...}}) as its result; the
   * task is then the server's to run (MCPHOST_OP_TASK_RESULT, or
   * tasks/get and tasks/cancel as MCPHOST_OP_REQUEST, finish it later).
   * Implies MCPHOST_REQUEST_TASK (`mcphost call --detach`). */
  MCPHOST_REQUEST_DETACH = 16,
  /* CALL_TOOL: the arguments are not checked against the tool's
   * inputSchema before the call, and a word the schema cannot take goes
   * by the rule without a schema (`mcphost call --no-validate`). */
  MCPHOST_REQUEST_NO_CHECK = 32,
  /* GET_PROMPT with a server: `name` is the prompt's own name as the
   * server lists it (found with MCPHOST_OP_FIND_PROMPT): prompts/get is
   * sent without looking it up in prompts/list first. */
  MCPHOST_REQUEST_EXACT_NAME = 64,
  /* `done`'s result_json (or error data) is the caller's, to free with
   * mcphost_free: a result kept as the server's text is handed over as
   * it is, never copied (a program that queues large results to write
   * them later, as `mcphost batch` does). */
  MCPHOST_REQUEST_TAKE_RESULT = 128,
  /* Begins inside mcphost_start when it is called from a callback of
   * the client's (on the loop's thread), where without the flag it
   * begins once that callback returned: what it sends goes out in the
   * order the program started its operations, and a question it asks
   * at once (a permission rule) comes from inside mcphost_start. `done`
   * may then run before mcphost_start returns (a server that fails at
   * once, a connected server for CONNECT). Elsewhere the flag changes
   * nothing. */
  MCPHOST_REQUEST_NOW = 256
};

typedef struct mcphost_request {
  uint32_t struct_size;
  int32_t kind; /* enum mcphost_op_kind */
  /* The configured server. NULL for CALL_TOOL and GET_PROMPT: `name` is
   * then a reference, "SERVER/NAME" or "mcp__SERVER__NAME", as the CLI
   * takes it. */
  const char *server;
  const char *name;      /* see the kinds; NULL for CONNECT, REQUEST */
  const char *method;    /* REQUEST */
  const char *arguments; /* JSON text, or NULL */
  /* A deadline for this operation alone (ms from its start, a total), 0:
   * the client's. When it passes the operation ends with
   * MCPHOST_ETIMEDOUT and what it waited for is cancelled on the wire. */
  uint64_t timeout_ms;
  uint32_t flags; /* enum mcphost_request_flag, or'ed; 0: none */
  /* CALL_TOOL: the command line's argument words, as mcphost_args_parse
   * gives them (a JSON array; NULL: none), set over `arguments` by the
   * tool's inputSchema once it is found (KEY=42 is a number where the
   * schema says so, a string where it says string), as `mcphost call`
   * does. A reference the server does not list takes them by the rule
   * without a schema. */
  const char *words;
} mcphost_request;

#define MCPHOST_REQUEST_INIT                                                   \
  { MCPHOST_SIZEOF_(mcphost_request), 0, NULL, NULL, NULL, NULL, 0, 0, NULL }

/* What an operation started with mcphost_start reports, on the loop.
 * `progress` (may be NULL): a notifications/progress of the request, its
 * params as JSON text. `done` runs exactly once: the result as JSON text
 * (`result_json`, `len` bytes, NUL-terminated; NULL on an error) or the
 * error (`err`, NULL on success). Both borrowed for the call. With
 * MCPHOST_REQUEST_ERROR_DATA an error may come with its JSON-RPC error's
 * data as `result_json`: `err` says which it is. */
typedef struct mcphost_callbacks {
  uint32_t struct_size;
  void (*progress)(void *ud, const char *params_json);
  void (*done)(void *ud, const char *result_json, size_t len,
               const mcphost_error *err);
  void *ud;
  /* (May be NULL.) The tool or prompt was found (CALL_TOOL, GET_PROMPT,
   * FIND_TOOL, FIND_PROMPT): `server` the configured name, `item_json`
   * its declaration as the server listed it (its real name, schema,
   * description). Once, before `done`. */
  void (*resolved)(void *ud, const char *server, const char *item_json);
  /* (May be NULL.) A call that runs as a task, and TASK_RESULT: the Task
   * object ({"taskId", "status", "statusMessage", ...}) each time its
   * status or message changed. */
  void (*task)(void *ud, const char *task_json);
} mcphost_callbacks;

#define MCPHOST_CALLBACKS_INIT                                                 \
  { MCPHOST_SIZEOF_(mcphost_callbacks), NULL, NULL, NULL, NULL, NULL }

/* [any thread] Starts an operation. Returns its id (> 0) for
 * mcphost_cancel, or a negative status when it could not start (`done`
 * does not run then). The strings of `rq` are copied. In
 * MCPHOST_LOOP_THREAD mode `done` may run before this returns, on the
 * library's thread; in MCPHOST_LOOP_CALLER mode, never before: from
 * mcphost_perform. */
int64_t mcphost_start(mcphost_client *c, const mcphost_request *rq,
                      const mcphost_callbacks *cb, mcphost_error *err);

/* [any thread] Cancels operation `id`: what it waits for is withdrawn (a
 * request is cancelled on the wire) and its `done` runs with
 * MCPHOST_ECANCELED, unless it ended already (then nothing happens). */
void mcphost_cancel(mcphost_client *c, int64_t id);

/* [not loop] Runs an operation to its end: MCPHOST_OK with the result
 * (*result_json: the caller's, mcphost_free; *len when `len` is not NULL)
 * or the error (*result_json NULL, or with MCPHOST_REQUEST_ERROR_DATA the
 * error's data, the caller's as well). */
int mcphost_run(mcphost_client *c, const mcphost_request *rq,
                char **result_json, size_t *len, mcphost_error *err);

/* [any thread] The configured server a tool or prompt reference names
 * ("SERVER/NAME" or "mcp__SERVER__NAME"; `what`: "tool" or "prompt", for
 * the messages), as an operation given that reference finds it: *server
 * the client's name for it (valid until the client is freed); *item (may
 * be NULL) the item part, the caller's (mcphost_free), normalized as
 * the mcp__ form is. Nothing is connected. MCPHOST_EUSAGE for a
 * malformed reference, MCPHOST_ENOTFOUND for a server not configured
 * (the message names it, with the closest names). */
int mcphost_resolve_ref(const mcphost_client *c, const char *ref,
                        const char *what, const char **server, char **item,
                        mcphost_error *err);

/* [not loop] MCPHOST_OP_CONNECT of `server`, without its result. */
int mcphost_connect(mcphost_client *c, const char *server, mcphost_error *err);

/* [any thread] The text of a CallToolResult or a resources/read result
 * (`json`, `len` bytes) as `mcphost call` and `mcphost read` print it to
 * a pipe: the text of each text item ("content", or "contents") as it
 * is, a newline between two when the first does not end with one;
 * structuredContent as indented JSON and a newline when there is no
 * content. *text (the caller's, mcphost_free) may hold U+0000: *text_len
 * (may be NULL) is its length. *is_error (may be NULL): the result's
 * isError. MCPHOST_EUSAGE when `json` is not a JSON object. */
int mcphost_result_text(const char *json, size_t len, char **text,
                        size_t *text_len, int *is_error, mcphost_error *err);

/* ---- the servers' requests the program took (mcphost_request_fn) ---- */

/* [any thread] Answers a request taken with mcphost_request_fn, exactly
 * once: `result_json` (a JSON object), or when it is NULL the JSON-RPC
 * error `rpc_code` with `message`. Frees `req`. MCPHOST_EUSAGE when
 * `result_json` is not a JSON object (`req` stays valid then). */
int mcphost_respond(mcphost_client *c, mcphost_server_request *req,
                    const char *result_json, int rpc_code, const char *message,
                    mcphost_error *err);

/* [any thread] Answers the question `id` the program asked
 * (mcphost_ask_fn returned 1): `allowed` or not, `why` (may be NULL)
 * saying why. An answer to a question already settled (a plugin
 * answered first, the call ended) is ignored. */
int mcphost_ask_answer(mcphost_client *c, uint64_t id, int allowed,
                       const char *why, mcphost_error *err);

/* ---- MCPHOST_LOOP_CALLER mode: the caller's loop ---- */

/* [loop] The file descriptor to wait on for reading (one for the whole
 * client; it stays the same for the client's life). */
int mcphost_fd(const mcphost_client *c);
/* [loop] How long the caller may wait at most before calling
 * mcphost_perform (ms; 0: now; -1: until mcphost_fd is readable). */
int mcphost_timeout_ms(const mcphost_client *c);
/* [loop] Runs what is ready, without waiting: reads and writes, timers
 * due, callbacks. Returns the number of operations started and not ended
 * yet (0: none runs; an operation started since the last call counts). */
int mcphost_perform(mcphost_client *c);

/* ---- configuration files: the scopes mcphost writes ----
 * What `mcphost mcp add`, `remove`, `approve` and `import` do, for a
 * program that manages the servers it (or mcphost) will use. `scope` is
 * "local" (this project's record in the user settings), "user" (the user
 * settings) or "project" (./.mcp.json); anything else is MCPHOST_EUSAGE.
 * The files are docs/config.md's: a write is locked and atomic and keeps
 * every key it does not change; a project file that links out of its
 * tree, or is another scope's file, is refused (MCPHOST_ESERVER, as is a
 * file that cannot be written or is not valid JSON: the message names
 * the file and the key).
 *
 * `c` may be NULL: the files are then found from the process's working
 * directory and environment ($HOME, $XDG_CONFIG_HOME), nothing is
 * loaded, and an entry is checked by the loader's rules alone. With a
 * client, they are its configuration's files (a project file may never
 * be one of its `configs`), and an entry is also checked by the
 * transport plugin that serves its type (created and destroyed, without
 * any I/O), as the CLI checks it. A change reaches a client's loaded
 * configuration only when it is loaded again.
 *
 * Threads: with `c` NULL, any thread; with a client, [loop] or [not
 * loop] as mcphost_inproc_register. Every result is JSON text, the
 * caller's (mcphost_free); *result_json is NULL on an error unless said
 * otherwise. `result_json` may be NULL. */

/* mcphost_config_add's flags. */
#define MCPHOST_CONFIG_CHECK_ONLY 1u /* check the entry; write nothing */

/* Adds the server `name` (letters, digits, '-' and '_') with the entry
 * `entry_json` (a JSON object, as in "mcpServers") to `scope`. A name the
 * scope holds with the same entry is left as it is; with another entry
 * it is MCPHOST_EUSAGE ("already exists": remove it first). A bad entry
 * is MCPHOST_EUSAGE with the field named, and nothing is written. A new
 * project file is mode 0644 unless an entry holds env or headers (0600).
 * A project server added is not approved by this: mcphost_project_choice.
 * Result: {"name", "type", "scope", "file", "where", "shown": {"target"}}
 * ("where" names the file for a person: "local config (FILE, private to
 * DIR)"; "target" the command line, quoted as a shell takes it, or the
 * URL without password and query). */
int mcphost_config_add(mcphost_client *c, const char *scope, const char *name,
                       const char *entry_json, unsigned flags,
                       char **result_json, mcphost_error *err);

/* Removes the server `name` from `scope`: MCPHOST_ENOTFOUND when the
 * scope has none. Result: {"name", "scope", "file", "where"}. */
int mcphost_config_remove(mcphost_client *c, const char *scope,
                          const char *name, char **result_json,
                          mcphost_error *err);

/* The entries the scope's file holds as written (`scope` NULL: local,
 * project and user, in that order), read without a lock and before any
 * policy: [{"name", "scope", "file", "where", "entry"}]. A file that is
 * missing, unreadable or refused gives none. */
int mcphost_config_entries(mcphost_client *c, const char *scope,
                           char **result_json, mcphost_error *err);

/* The transport types an entry may name: those the client's plugins
 * serve, a JSON array of strings. Needs a client. */
int mcphost_config_types(mcphost_client *c, char **result_json,
                         mcphost_error *err);

/* The servers of the client's loaded configuration, in priority order
 * (mcphost_server_name's), each with its scope and the policy's verdict,
 * as `mcphost mcp list --json` shows them: [{"name", "scope", "source",
 * "type", "command", "args", "url" (as written, never expanded), "env",
 * "headers" (their names only: the values are often tokens),
 * "variables" (the ${VAR} it reads), "reads" (the files, variables and
 * servers its keys name), "headersHelper", "state" ("active",
 * "approved", "pending", "rejected", "denied", "disabled", "skipped",
 * "in-process"), "reason" (why it does not start), "shown": {"target"
 * (the command line, else the URL), "args", "url" (without password and
 * query), "reads"}: lines for a person, "reads" escaped}]. Needs a
 * client. */
int mcphost_config_servers(mcphost_client *c, char **result_json,
                           mcphost_error *err);

/* mcphost_project_choice's flags. */
#define MCPHOST_CHOICE_BY_NAME 1u /* names alone: see below */

/* A choice about this project's .mcp.json servers, kept in the user
 * settings: `choice` "approve" (use them here as they are now: each is
 * found as the loader finds it, and what it runs is recorded, so that a
 * change needs approving again), "reject" (never use them here) or
 * "reset" (forget every approval and rejection: pending again;
 * `names_json` is then ignored). `names_json`: a JSON array of names.
 * With MCPHOST_CHOICE_BY_NAME the names are recorded as given, found or
 * not, and an approval records no entry (a name approved before keeps
 * its record): a choice made elsewhere, as an import carries over.
 * Nothing is written unless every name is found (MCPHOST_ENOTFOUND,
 * naming the first). Result, given with MCPHOST_ENOTFOUND too:
 * {"project": DIR, "searched": [the .mcp.json files looked in],
 * "servers": [{"name", "found", "file", "errors": [...], "warnings":
 * [...], and for an approval "summary" (what it runs, a line per part)
 * and "changes" (what changed since its last approval)}]}. */
int mcphost_project_choice(mcphost_client *c, const char *choice,
                           const char *names_json, unsigned flags,
                           char **result_json, mcphost_error *err);

/* Reads the servers another client configured: `client` "cursor",
 * "vscode", "windsurf", "codex", "claude-desktop" or "claude-code" (else
 * MCPHOST_EUSAGE), from `file` or, when NULL, where that client keeps
 * them (MCPHOST_ENOTFOUND when it cannot be read, naming the file and,
 * for Codex's TOML, the line). Their variables become mcphost's
 * (docs/config.md, "Importing"). Result: {"client", "file", "servers":
 * {NAME: entry} (those that pass the loader's checks), "rejected":
 * [sentence] (those that do not), "skipped": [{"name", "why"}] (what
 * mcphost cannot run), "notes": [sentence]}; for claude-code also
 * "project": {"key", "servers", "enabledMcpjsonServers",
 * "disabledMcpjsonServers"}, this project's record there. */
int mcphost_import_read(mcphost_client *c, const char *client, const char *file,
                        char **result_json, mcphost_error *err);

/* Copies the servers `servers_json` ({NAME: entry}, as
 * mcphost_import_read gives them) into `scope`: an entry whose content
 * is there already, under its name or a renamed copy (NAME_1, ...), is
 * left out; a name taken by another entry is written as NAME_1, NAME_2,
 * ... Every entry is checked first (MCPHOST_EUSAGE, nothing written).
 * Result: {"scope", "file", "where", "added": [names as written],
 * "skipped": [names already there]}. */
int mcphost_config_import(mcphost_client *c, const char *scope,
                          const char *servers_json, char **result_json,
                          mcphost_error *err);

/* ---- a front end: options, configuration loaded later, the loop ----
 * What a front end such as the mcphost executable does in this order:
 * the client with its plugins first (mcphost_options.defer_config), then
 * its command line (mcphost_set_option: the library's options and those
 * the plugins declare), then the configuration (mcphost_load_config);
 * and its own file descriptors and timers (a terminal, a listening
 * socket, a signal's pipe) on the client's loop, which it runs in
 * MCPHOST_LOOP_CALLER mode (mcphost_run_until). */

/* [not loop] before mcphost_load_config; [loop] after. Sets option
 * `name` (the CLI's long option without its dashes) to `value` (NULL for
 * an option that takes none):
 *   "timeout"       MS, every deadline (connect, request, tool), a total
 *   "connect-timeout"  MS, each connect's deadline (initialize's);
 *                   default MCP_TIMEOUT's, else 30000
 *   "request-timeout"  MS, a list's, read's, prompt's, completion's
 *                   deadline, a hard total; NULL: the default, 60000
 *                   restarted at each progress notification
 *                   (MCPHOST_REQUEST_TIMEOUT sets the first default)
 *   "tool-timeout"  MS, a tool call's deadline, a hard total; NULL: the
 *                   default, 600000 restarted at each progress
 *                   notification (MCP_TOOL_TIMEOUT sets the first default)
 *   "server-exit"   MS, how long a stdio server may take to exit once its
 *                   stdin is closed, before SIGTERM (default
 *                   MCPHOST_STDIO_EXIT_MS's, else 2000)
 *   "list-cache-ttl"  MS, how long a tool list resolves names without
 *                   being asked for again (0: always asked; default
 *                   MCPHOST_LIST_CACHE_TTL's, else 20000)
 *   "name-chars"    N, the longest mcp__SERVER__TOOL name (32 .. 1024;
 *                   default MCPHOST_MAX_NAME_CHARS's, else 64)
 *   "protocol"      auto, modern or legacy, for every server; NULL: each
 *                   entry's own "protocol"
 *   "log-level"     the level asked of servers (logging/setLevel); NULL:
 *                   none asked
 *   "root"          DIR, a root offered to servers (relative to the
 *                   working directory; once per root, in order); NULL:
 *                   none of those given so far any more
 *   "no-roots"      no root at all ("0": roots again)
 *   "sanitize"      full, display or off: what is done to server text
 *   "verbose"       0 .. 3, the library's log on stderr (-v, -vv, -vvv)
 *   "quiet"         a server's stray output logged at info; "0" off
 *                   again, "1" or NULL on
 *   "allow"         PATTERN, a tool call the program allows where a
 *                   permission rule asks, before anyone is asked
 *                   (mcp__SERVER__TOOL, `*` a wildcard, mcp__SERVER
 *                   every tool of it; once per pattern); NULL: none
 *                   any more. A deny rule still refuses.
 *   "ask-timeout"   MS, how long a question the program does not take
 *                   waits for the permission plugins (default: the
 *                   request deadline; "timeout" sets it too)

 *   "keep"          a server that crashed is connected again by
 *                   itself (a long-running program); "0": not any more
 *   "capabilities"  JSON, an object of client capabilities every new
 *                   connection declares beside the library's and the
 *                   plugins' ({"elicitation": {"form": {}, "url": {}},
 *                   "sampling": {}}: a program that answers those
 *                   requests itself, through on_request); NULL: none
 *   any option a loaded plugin declares (mcph.options/1), which the
 *   plugin reads (`value` NULL for one that takes none).
 * Servers that are connected keep their settings. MCPHOST_EUSAGE for a
 * name nobody knows or a bad value, the message naming both. */
int mcphost_set_option(mcphost_client *c, const char *name, const char *value,
                       mcphost_error *err);

/* [loop] or [not loop] The value of option `name` whose value is a
 * number or a flag, as mcphost_set_option left it, in *value:
 *   "sanitize"  the mode, an enum mcphost_sanitize_mode
 *               (MCPHOST_SANITIZE_DEFAULT when never set)
 *   "verbose"   0 .. 3
 *   "quiet", "no-roots", "keep"   1 set, 0 not
 *   "timeout", "tool-timeout"   the tool call's deadline in ms (0: none)
 *   "connect-timeout", "request-timeout", "server-exit",
 *   "list-cache-ttl"   in ms
 *   "name-chars"   the longest mcp__ name
 * MCPHOST_ENOTFOUND for any other name (a text option, a plugin's),
 * the message naming it. */
int mcphost_get_option(mcphost_client *c, const char *name, int64_t *value,
                       mcphost_error *err);

/* [loop] What the loaded plugins declare as options (mcph.options/1),
 * in the plugins' search order, as declared: option `i` (0 ..) in *out,
 * or MCPHOST_ENOTFOUND past the last. A front end takes the first of a
 * name and leaves a name its own options take (mcphost_set_option's own
 * names come before any plugin's). The strings are the client's, valid
 * until it is freed. */
typedef struct mcphost_option_info {
  uint32_t struct_size;
  const char *name;   /* without the dashes */
  const char *arg;    /* the value's placeholder ("DIR"), or NULL: none */
  const char *help;   /* one line, or NULL */
  const char *plugin; /* the plugin's id */
} mcphost_option_info;

#define MCPHOST_OPTION_INFO_INIT                                               \
  { MCPHOST_SIZEOF_(mcphost_option_info), NULL, NULL, NULL, NULL }

int mcphost_plugin_option(const mcphost_client *c, size_t i,
                          mcphost_option_info *out);

/* Where mcphost_load_config reads the servers from: the CLI's command
 * line. Every scope (enterprise, local, project, user, the plugins'
 * servers) and these, in this order. */
typedef struct mcphost_config_sources {
  uint32_t struct_size;
  /* --server: a server's command line ("NAME=COMMAND ARGS" or "COMMAND
   * ARGS"). */
  const char *const *server_specs;
  size_t nserver_specs;
  /* --url: a remote server's URL ("NAME=URL" or "URL"), of type
   * `url_type` (--transport; NULL: http, with the sse fallback). */
  const char *const *urls;
  size_t nurls;
  const char *url_type;
  /* --mcp-config: each a file name or JSON text ({"mcpServers": ...}). */
  const char *const *configs;
  size_t nconfigs;
  int32_t strict;          /* only these, no other scope */
  int32_t approve_project; /* pending project servers count as approved */
  /* 1: the program serves no in-process server (the mcphost executable):
   * a "type": "sdk" entry is listed and never started. */
  int32_t no_inproc;
  /* 1: these sources are not checked alone first: one that cannot be
   * read is an error of the configuration like a bad entry's, said and
   * counted, and the rest loads (what `mcphost mcp list` shows). */
  int32_t no_check;
  /* 1: an approval given without a record of what it approves (a blanket
   * setting, a name alone) is bound to what the server runs, on this load
   * and each reload, in the user settings, so that a later change of the
   * entry needs approving again (the CLI's way); one that cannot be
   * recorded is a warning on the library's log. */
  int32_t bind_approvals;
} mcphost_config_sources;

#define MCPHOST_CONFIG_SOURCES_INIT                                            \
  {                                                                            \
    MCPHOST_SIZEOF_(mcphost_config_sources), NULL, 0, NULL, 0, NULL, NULL, 0,  \
        0, 0, 0, 0, 0                                                          \
  }

/* [not loop] Loads the configuration of a client made with
 * `defer_config`, once, as the CLI does: MCPHOST_EUSAGE when a source
 * given here is bad (unless `no_check`) (a file that cannot be read, text that
 * is not a configuration, a --transport no plugin serves: every such error, one
 * line each, in err->message) and nothing is loaded. Otherwise
 * MCPHOST_OK: a bad entry of a scope costs that entry alone, said on
 * the library's log and counted by mcphost_config_errors, and
 * mcphost_server_count may be 0; the caller decides what that means.
 * MCPHOST_ESTATE when the configuration is loaded already (the sources
 * given are checked all the same: MCPHOST_EUSAGE first). In
 * MCPHOST_LOOP_THREAD mode the client's thread starts here. */
int mcphost_load_config(mcphost_client *c, const mcphost_config_sources *src,
                        mcphost_error *err);

/* [any thread] How many entries of the loaded configuration were left
 * out for an error. */
size_t mcphost_config_errors(const mcphost_client *c);

/* The events of a watched file descriptor. */
enum mcphost_fd_events {
  MCPHOST_FD_READ = 1,
  MCPHOST_FD_WRITE = 2,
  MCPHOST_FD_ERROR = 4, /* reported, never asked for */
  MCPHOST_FD_HUP = 8    /* reported, never asked for */
};

typedef struct mcphost_watch mcphost_watch;
typedef struct mcphost_timer mcphost_timer;
/* `events`: the enum mcphost_fd_events that happened. [loop] */
typedef void (*mcphost_fd_fn)(void *ud, int fd, unsigned events);
/* [loop] */
typedef void (*mcphost_fn)(void *ud);

/* [loop] Watches `fd` (the program's; it stays open while watched) for
 * `events` (MCPHOST_FD_READ, MCPHOST_FD_WRITE): `fn` runs on the loop
 * whenever one is ready. *out is the watch, for mcphost_watch_update and
 * mcphost_unwatch. MCPHOST_EUSAGE for a descriptor the loop cannot
 * watch (a regular file, one watched already). */
int mcphost_watch_fd(mcphost_client *c, int fd, unsigned events,
                     mcphost_fd_fn fn, void *ud, mcphost_watch **out,
                     mcphost_error *err);
/* [loop] What a watch waits for from now on. */
int mcphost_watch_update(mcphost_client *c, mcphost_watch *w, unsigned events,
                         mcphost_error *err);
/* [loop] Ends and frees the watch (also from inside its own callback);
 * NULL is fine. */
void mcphost_unwatch(mcphost_client *c, mcphost_watch *w);

/* [loop] Runs `fn` once on the loop after `delay_ms`; the timer is gone
 * once it ran. NULL when out of memory. */
mcphost_timer *mcphost_timer_start(mcphost_client *c, uint64_t delay_ms,
                                   mcphost_fn fn, void *ud);
/* [loop] Cancels a timer that has not run; NULL is fine. */
void mcphost_timer_cancel(mcphost_client *c, mcphost_timer *t);

/* [any thread] Runs `fn` on the loop soon, in the order posted (it wakes
 * the loop: mcphost_fd becomes readable). MCPHOST_ENOMEM when it cannot
 * be queued. */
int mcphost_post(mcphost_client *c, mcphost_fn fn, void *ud,
                 mcphost_error *err);

/* [any thread] The loop's clock: milliseconds of a monotonic clock, what
 * mcphost_run_until's deadline counts in. */
uint64_t mcphost_now_ms(void);

/* [loop] MCPHOST_LOOP_CALLER mode: runs the loop, waiting, until *done
 * is not 0 (a callback sets it), or the deadline (mcphost_now_ms; 0:
 * none) passes. MCPHOST_OK when done, MCPHOST_ETIMEDOUT at the
 * deadline, MCPHOST_ESTATE in MCPHOST_LOOP_THREAD mode. */
int mcphost_run_until(mcphost_client *c, const int *done, uint64_t deadline_ms);

/* ---- plugins: what is loaded, and the commands plugins add ----
 * The plugins are those of the directories mcphost_options.plugin_dirs
 * names, then MCPHOST_PLUGIN_PATH's, then the built-in directory, loaded
 * by mcphost_client_new as the CLI loads them (`mcphost plugins`). */

/* [not loop] The plugins as a JSON object (*json: the caller's,
 * mcphost_free; *len when `len` is not NULL):
 *   "searchPath": [{"dir": D, "origin": "plugin_dirs" | "MCPHOST_PLUGIN_PATH"
 *                   | "built-in", "missing": WHY (only when D is not a
 *                   usable directory)}], in search order;
 *   "plugins": [...], each file found, as `mcphost plugins --json`
 *                   prints them (docs/cli.md): "file", "status" ("loaded"
 *                   or "refused"), "id", "name", "version", "description",
 *                   "abi", "transports" ([{"type", "active", "shadowedBy"}]),
 *                   "serverSource", "permissionDecider", "warning" or
 *                   "error" (the loader's reason);
 *   "builtin": [{"type": T, "id": ID, "description": TEXT, "local": B}],
 *                   the transport types the library serves itself ("sdk":
 *                   mcphost_inproc_register).
 * A plugin loaded deferred (ABI 1.6) is described from its provides list
 * and not woken. `flags`: 0 (MCPHOST_EUSAGE otherwise; for later use).
 * mcphost_plugin_dir, mcphost_plugin_get and mcphost_plugin_type give the
 * same without JSON. */
int mcphost_plugins_json(mcphost_client *c, unsigned flags, char **json,
                         size_t *len, mcphost_error *err);

/* A plugin file found, as mcphost_plugin_get fills it: the strings are
 * the client's, valid until it is freed. */
typedef struct mcphost_plugin_info {
  uint32_t struct_size;
  const char *file;
  int32_t loaded; /* 1: loaded (initialized, or deferred); 0: refused */
  const char *id, *name, *version, *description; /* NULL: not given */
  uint32_t abi_major, abi_minor;                 /* 0.0: not known */
  const char *error; /* refused: why; loaded: the loader's warning, or NULL */
  /* A server source's description ("" when it gives none); NULL: the
   * plugin is no server source. */
  const char *server_source;
  int32_t permission_decider; /* 1: it answers permission questions */
  size_t ntypes;              /* its transport types (mcphost_plugin_type) */
  /* 1: no file, the library's own (file "(built in)"; the "sdk" type). */
  int32_t builtin;
} mcphost_plugin_info;

#define MCPHOST_PLUGIN_INFO_INIT                                               \
  {                                                                            \
    MCPHOST_SIZEOF_(mcphost_plugin_info), NULL, 0, NULL, NULL, NULL, NULL, 0,  \
        0, NULL, NULL, 0, 0, 0                                                 \
  }

/* [not loop] Plugin `i`: the files of the search path first (in search
 * order, loaded or refused: mcphost_plugins_json's "plugins"), then the
 * library's built-in transports ("builtin", with `builtin` 1), without
 * JSON. MCPHOST_OK with *info filled (the fields its struct_size covers),
 * MCPHOST_ENOTFOUND past the last one. A deferred plugin is not woken. */
int mcphost_plugin_get(mcphost_client *c, size_t i, mcphost_plugin_info *info,
                       mcphost_error *err);

/* [not loop] Directory `i` of the plugin search path (in search order):
 * *dir, *origin ("plugin_dirs", "MCPHOST_PLUGIN_PATH" or "built-in"),
 * and in `missing` (`missing_len` bytes, may be NULL) "" or why `dir` is
 * no usable directory. MCPHOST_ENOTFOUND past the last one. */
int mcphost_plugin_dir(mcphost_client *c, size_t i, const char **dir,
                       const char **origin, char *missing, size_t missing_len,
                       mcphost_error *err);

/* [not loop] Transport type `k` of plugin `i`: *type, and
 * *shadowed_by the file of the plugin that serves it instead (the first
 * in the search path), or NULL when plugin `i` serves it.
 * MCPHOST_ENOTFOUND past the last one. */
int mcphost_plugin_type(mcphost_client *c, size_t i, size_t k,
                        const char **type, const char **shadowed_by,
                        mcphost_error *err);

/* [not loop] Whether the plugin `file` loads, and what it offers, as
 * `mcphost plugin check FILE --json` reports it (docs/cli.md): a JSON
 * object in *report_json (the caller's, mcphost_free) with "file" (made
 * absolute), "verdict" ("loadable" or "not loadable"), "class" and
 * "reason" (the first error's; null when loadable), "exitCode" (the
 * CLI's: 0, or 20-29 by class), "step", "plugin", "errors", "warnings"
 * and the facts found. The plugin is loaded in a child process, this
 * program started again (/proc/self/exe) with MCPHOST_PLUGIN_PROBE=1 in
 * its environment, which the library takes over before main() runs: a
 * plugin that crashes, exits, hangs or writes to stdout costs the child
 * only. After `timeout_ms` (0: 10 s) the child and its process group are
 * killed. A missing file, or one that is no plugin, is a verdict ("file",
 * "load"), not an error: MCPHOST_OK whenever the check ran.
 * MCPHOST_EUSAGE without a file; MCPHOST_ESERVER when the child cannot be
 * started; MCPHOST_ECANCELED when a signal the client takes
 * (MCPHOST_LOOP_CALLER) interrupted it. */
int mcphost_plugin_check(mcphost_client *c, const char *file,
                         uint64_t timeout_ms, char **report_json, size_t *len,
                         mcphost_error *err);

/* mcphost_commands_json flags. */
enum mcphost_commands_flags {
  /* Each command's "usage" and "help" too. A deferred plugin that lists
   * command names is initialized to give them; without this flag its
   * names come from its provides list and it stays asleep. */
  MCPHOST_COMMANDS_HELP = 1u << 0
};

/* [not loop] The commands the loaded plugins add (the OAuth plugin's
 * "mcp login", the MCPB plugin's "bundle", ...), in search order, as a
 * JSON array (*json: the caller's, mcphost_free): [{"name": N}], with
 * MCPHOST_COMMANDS_HELP [{"name": N, "usage": U, "help": H}] (usage and
 * help "" when the plugin gives none). Unknown `flags` bits:
 * MCPHOST_EUSAGE. */
int mcphost_commands_json(mcphost_client *c, unsigned flags, char **json,
                          size_t *len, mcphost_error *err);

/* [not loop] The command `name` as {"name": N, "usage": U, "help": H}
 * (*json: the caller's, mcphost_free): only the plugin that offers it is
 * initialized, when deferred. MCPHOST_ENOTFOUND when no plugin offers
 * `name`, the message naming it and the closest names. */
int mcphost_command_info(mcphost_client *c, const char *name, char **json,
                         size_t *len, mcphost_error *err);

/* A plugin command to run: what `mcphost NAME ARGS...` runs. */
typedef struct mcphost_command {
  uint32_t struct_size;
  const char *name; /* as mcphost_commands_json names it ("mcp login") */
  /* The command's words, argv[0] its last word ("login"), as the CLI
   * passes them; the strings are borrowed for the call. */
  int argc;
  const char *const *argv;
  int32_t json; /* 1: JSON output (the CLI's --json before the command) */
} mcphost_command;

#define MCPHOST_COMMAND_INIT                                                   \
  { MCPHOST_SIZEOF_(mcphost_command), NULL, 0, NULL, 0 }

/* [not loop] Runs the plugin command `cmd` until it finishes, on the
 * loop (the plugin writes its output on the process's stdout and stderr,
 * as in the CLI; the configuration is the client's). MCPHOST_OK with
 * *exit_status the command's exit status (0 success; the CLI's codes,
 * docs/cli.md). An error when it did not run to its end: MCPHOST_ENOTFOUND
 * when no plugin offers `name` (the message names it and the closest
 * names), MCPHOST_EUSAGE for a bad `cmd`, MCPHOST_ESTATE while another
 * command runs on this client, the code of the plugin's refusal with its
 * message, MCPHOST_ECANCELED after mcphost_command_interrupt (or a
 * SIGINT the client handles) once the command had a grace of 2 s to
 * finish. */
int mcphost_command_run(mcphost_client *c, const mcphost_command *cmd,
                        int *exit_status, mcphost_error *err);

/* [any thread] Asks the command mcphost_command_run runs to finish (the
 * plugin's interrupt, as the CLI's Ctrl-C). Nothing when none runs. */
void mcphost_command_interrupt(mcphost_client *c);

/* ---- names, signatures, arguments, text shown, protocol data ----
 * The rules the CLI and the gateway apply to what they name, match,
 * describe and show, so that a program embedding the library does as
 * they do. Pure functions of their arguments (no client, no I/O but
 * the files an argument word names): [any thread]. */

/* The default limit of a whole mcp__ name: the model APIs' (the CLI's
 * MCPHOST_MAX_NAME_CHARS). */
#define MCPHOST_NAME_LEN_DEFAULT 64

/* [any thread] Names one server's tools (or prompts) as a model sees
 * them, as `mcphost tools` lists them: "mcp__SERVER__ITEM", each part
 * reduced to [A-Za-z0-9_-], the whole within `max_len` bytes (0:
 * MCPHOST_NAME_LEN_DEFAULT; less than 32 counts as 32), a long part cut
 * and given a hash, no two alike; the same list gives the same names
 * whatever its order. `originals[i]` is the i-th item's name as the
 * server listed it, NULL for an item without one. *names: `n` names
 * (NULL where the original is) in ONE allocation, freed with
 * mcphost_free(*names) alone. *prefix_len (may be NULL): the length of
 * the "mcp__SERVER__" that begins each name; an item whose name past it
 * is not its original was renamed. MCPHOST_EUSAGE without `server` or
 * `names`, or with n > 0 and no `originals`. */
int mcphost_name_assign(const char *server, const char *const *originals,
                        size_t n, size_t max_len, char ***names,
                        size_t *prefix_len, mcphost_error *err);

/* [any thread] 1 when a model may see the tool `tool` of a server of
 * transport `type` ("stdio", "http", "ws-ide", ...), else 0: as Claude
 * Code, of an IDE's tools only getDiagnostics and executeCode; every
 * other server's tools are all visible. 0 for a NULL `tool`. */
int mcphost_name_model_visible(const char *type, const char *tool);

/* [any thread] A tool's signature in one line, for people, from its
 * inputSchema: `name(path: string, depth?: integer = 2, mode?:
 * "a"|"b")` ("?" not required, "= V" the default). `tool_json` is a
 * tools/list item (`len` bytes of JSON text). The text is the server's,
 * not escaped (mcphost_display_text). *sig: the caller's, mcphost_free.
 * MCPHOST_EUSAGE when `tool_json` is not a JSON object. */
int mcphost_tool_signature(const char *name, const char *tool_json, size_t len,
                           char **sig, mcphost_error *err);

/* [any thread] The type of a schema as a signature shows it ("string",
 * "integer[]", "\"a\"|\"b\"", "{a: T, b?: T}", "any"): of `schema_json`
 * itself when `param` is NULL, else of its property `param` ("any" when
 * it has none of that name), and then *required (may be NULL) is 1 when
 * the schema's "required" lists `param`. *type: the caller's,
 * mcphost_free. MCPHOST_EUSAGE when `schema_json` is not JSON. */
int mcphost_schema_type(const char *schema_json, size_t len, const char *param,
                        char **type, int *required, mcphost_error *err);

/* Flags of the argument functions. MCPHOST_ARGS_STDIN: "@-" reads
 * stdin (else it is refused). MCPHOST_ARGS_LENIENT (mcphost_args_build):
 * a value the schema cannot take goes by the rule without a schema, and
 * nothing is checked (the CLI's --no-validate). */
#define MCPHOST_ARGS_STDIN 1u
#define MCPHOST_ARGS_LENIENT 2u

/* [any thread] A tool's argument words as `mcphost call` and `batch`
 * take them, parsed before the tool is known (docs/cli.md, "Tool
 * arguments"): KEY=VALUE (coerced later by the parameter's schema),
 * KEY:=JSON (JSON as it is), KEY=@FILE and KEY:=@FILE (the file's
 * content; "@-" stdin with MCPHOST_ARGS_STDIN), a dotted key for a
 * nested member. *words_json: a JSON array of {"key": K, "text": T} and
 * {"key": K, "json": V}, the caller's (mcphost_free), for
 * mcphost_args_build. MCPHOST_EUSAGE naming
 * the word (a word without "=", a file that cannot be read, bad JSON). */
int mcphost_args_parse(int n, const char *const *words, unsigned flags,
                       char **words_json, mcphost_error *err);

/* [any thread] The text of an argument value: `value` itself, or for
 * "@FILE" the file's content ("@-": stdin, with MCPHOST_ARGS_STDIN), as
 * the CLI reads --args. *text: the caller's, mcphost_free.
 * MCPHOST_EUSAGE with a message beginning with `what` (e.g. "--args")
 * and naming the file and the reason. */
int mcphost_args_text(const char *what, const char *value, unsigned flags,
                      char **text, mcphost_error *err);

/* [any thread] A tool's arguments: a copy of `base_json` (an object, or
 * NULL for {}) with each word of `words_json` (mcphost_args_parse's;
 * NULL: none) set, coerced by `schema_json` (the tool's inputSchema, or
 * NULL for the rule without one), then checked against it (required
 * parameters, unknown keys, types, enums) unless MCPHOST_ARGS_LENIENT:
 * what `mcphost call` sends. All three NUL-terminated JSON text.
 * *args_json: the caller's, mcphost_free. MCPHOST_EUSAGE naming the
 * parameter (or the argument that is not JSON). */
int mcphost_args_build(const char *schema_json, const char *base_json,
                       const char *words_json, unsigned flags, char **args_json,
                       mcphost_error *err);

/* The MCP logging levels (RFC 5424), ranked "debug" 0 to "emergency" 7:
 * logging/setLevel's, notifications/message's and the CLI's
 * --log-level. */
#define MCPHOST_LOG_LEVELS 8
/* [any thread] The rank of `name`, 0 to 7; -1 (MCPHOST_EUSAGE) for any
 * other string and for NULL. */
int mcphost_log_level_rank(const char *name);
/* [any thread] The name of rank `rank` (static), NULL outside 0 to 7. */
const char *mcphost_log_level_name(int rank);

/* The two protocol eras: initialize's (legacy) and the stateless one
 * (2026-07-28 on, modern: each request's _meta names the version). */
enum mcphost_era { MCPHOST_ERA_LEGACY = 0, MCPHOST_ERA_MODERN = 1 };
/* [any thread] The i-th protocol version the library speaks in `era`,
 * newest first (static): i = 0 is the one it asks for; NULL past the
 * last, and for an era it does not know. */
const char *mcphost_protocol_version(int era, size_t i);
/* [any thread] 1 when `version` is one of `era`'s, else 0. */
int mcphost_protocol_supported(int era, const char *version);

/* --sanitize: what happens to a server's text (docs/safety.md). */
enum mcphost_sanitize_mode {
  MCPHOST_SANITIZE_DEFAULT = 0, /* names and model text full; results
                                   kept as sent */
  MCPHOST_SANITIZE_FULL = 1,    /* everything full, results too */
  MCPHOST_SANITIZE_DISPLAY = 2, /* names and results kept, shown escaped */
  MCPHOST_SANITIZE_OFF = 3      /* kept, shown with only controls escaped */
};
/* [any thread] The mode named "full", "display" or "off" (the CLI's
 * --sanitize), or MCPHOST_EUSAGE for any other string and for NULL. */
int mcphost_sanitize_mode(const char *name);

/* mcphost_display_text's flag: newline and tab escaped too, for one
 * line (a name, a log line). */
#define MCPHOST_DISPLAY_NEWLINES 1u
/* [any thread] A server's text (`len` bytes, NULs included) made safe to
 * show on a terminal, as the CLI shows it: every control character a
 * terminal would obey (ESC, CR, C1, DEL; newline and tab with
 * MCPHOST_DISPLAY_NEWLINES) and, but with MCPHOST_SANITIZE_OFF, the
 * invisible and bidi characters written as "<U+XXXX>", an invalid byte
 * as "<0xNN>"; nothing removed, nothing normalized. `mode`: an enum
 * mcphost_sanitize_mode. *out: the caller's (mcphost_free), *out_len its
 * length (may be NULL). MCPHOST_EUSAGE without `text` (with len > 0) or
 * `out`, or for a mode it does not know. */
int mcphost_display_text(const char *text, size_t len, int mode, unsigned flags,
                         char **out, size_t *out_len, mcphost_error *err);

/* [any thread] The Unicode version of the sanitizer's tables ("15.1";
 * static) and, when `icu` is not NULL, the ICU version they were
 * generated from at build time. */
const char *mcphost_unicode_version(const char **icu);

/* ---- permission asks ---- */

/* [loop] 1 when a pattern given with mcphost_set_option("allow")
 * answers the question of tool `tool` (mcp__SERVER__TOOL), else 0: for
 * a program that asks its own way (the gateway puts the question to its
 * client) and honours the same patterns. */
int mcphost_ask_allowed(const mcphost_client *c, const char *tool);

/* ---- a front end's operations: its signals, the status line ----
 * What a program that runs its own loop (MCPHOST_LOOP_CALLER) and takes
 * its own signals does around mcphost_start, as `mcphost call` does:
 * Ctrl-C withdraws the operation, and a progress line on a terminal is
 * redrawn in place without mixing with the library's log. */

/* [loop] The program took signal `signo` (SIGINT, SIGTERM, SIGHUP: the
 * library takes none), as the CLI passes on its Ctrl-C: the waits of
 * the client's own that the signal ends end (mcphost_plugin_check, and
 * mcphost_command_run after the command's interrupt), the program's own
 * see it with mcphost_interrupted, and mcphost_client_free cuts a
 * server's time to exit short after SIGINT. It stays until
 * mcphost_interrupt_clear. */
void mcphost_interrupt(mcphost_client *c, int signo);

/* [loop] The signal mcphost_interrupt gave and not cleared, or 0. */
int mcphost_interrupted(const mcphost_client *c);

/* [loop] The interruption was dealt with (a command that ends its own
 * wait on Ctrl-C and goes on): mcphost_interrupted is 0 again. */
void mcphost_interrupt_clear(mcphost_client *c);

/* [loop] A status line on stderr (a progress report): on a terminal one
 * line redrawn in place, cut to its width; elsewhere (a pipe, a file,
 * TERM=dumb) a line each. The library's log ends it before a line of its
 * own, and so must the program before it writes to stderr or stdout
 * below it (mcphost_status_end). `text` is printed as it is: escape
 * what a server sent first (mcphost_display_text). */
void mcphost_status_line(mcphost_client *c, const char *text);

/* [loop] Ends the status line a terminal shows in place (a newline
 * after it), so what follows starts on a line of its own; nothing when
 * none is open. */
void mcphost_status_end(mcphost_client *c);

/* ---- servers: status and connecting ----
 * Each configured server's health, as `mcphost servers` and `mcphost mcp
 * list` show it, and connecting a set of servers at once, as they do. A
 * server's index is mcphost_server_name's. Threads: [loop] or [not loop]
 * as mcphost_inproc_register (the waiting one, mcphost_connect_servers,
 * [not loop]). */

/* [loop] or [not loop] The configured server `name`: its own name, else
 * as it appears in an mcp__ name (normalized, shortened), in *index
 * (mcphost_server_name's). MCPHOST_ENOTFOUND when none is, the message
 * naming it and the closest configured names: `no server named "NAME" is
 * configured (did you mean "N2"?)`. MCPHOST_EUSAGE without a name. */
int mcphost_server_find(mcphost_client *c, const char *name, size_t *index,
                        mcphost_error *err);

/* mcphost_server_status's flags. */
#define MCPHOST_STATUS_NOTES 1u /* each server's "notes" too */
/* Without the longer part of a connected server's handshake
 * ("capabilities", "instructions"): a check of which servers are up, and
 * who and which protocol each is. */
#define MCPHOST_STATUS_BRIEF 2u

/* [loop] or [not loop] The status of the server `name` (found as
 * mcphost_server_find finds it) as a JSON object, or with `name` NULL of
 * every configured server as an array in index order (*json: the
 * caller's, mcphost_free; *len when `len` is not NULL). Nothing connects.
 *   "name", "type" (as configured), "scope" ("local", "project", "user",
 *   "enterprise", a plugin's label, ...), "source" (the file or plugin it
 *   came from);
 *   "state": what the configuration lets it do, as
 *   mcphost_config_servers says it ("active", "approved", "pending",
 *   "rejected", "denied", "disabled", "skipped", "in-process"), and
 *   "reason" when the configuration gives one (why it does not start;
 *   for a pending one, what to approve); "startable": true for "active"
 *   and "approved";
 *   "connection": "idle" (never used), "connecting", "connected",
 *   "failed", "needs-auth", "reconnecting" (lost; the next attempt is
 *   due), "closing", "closed"; "transport": the type that serves it
 *   ("sse" for an http entry that fell back to it);
 *   not connected: "error" (why, when it failed or went away: the first
 *   line a sentence, the lines after it, if any, a stdio server's last
 *   lines of stderr) and "code", the kind of failure (an enum
 *   mcphost_status: MCPHOST_EAUTH for needs-auth, MCPHOST_ETIMEDOUT, ...;
 *   MCPHOST_ESERVER for one never used);
 *   connected: "code" 0, "protocolVersion", "era" ("modern" or
 *   "legacy"), "serverInfo" (initialize's, passed on as the server sent
 *   it; absent when it gave none), "capabilities" and "instructions"
 *   (when it gave them);
 *   "upstream": for a connector served through a proxy (claude.ai), the
 *   URL of the server behind it, without password and query;
 *   with MCPHOST_STATUS_NOTES, "notes": [{"plugin": ID, "note": LINE}],
 *   what the feature plugins say of it (why one skips it, ...).
 * Server text in it is the server's, not escaped (mcphost_display_text).
 * MCPHOST_ENOTFOUND for a name not configured (as mcphost_server_find),
 * MCPHOST_EUSAGE for unknown `flags` bits. */
int mcphost_server_status(mcphost_client *c, const char *name, unsigned flags,
                          char **json, size_t *len, mcphost_error *err);

/* A server's state without JSON (mcphost_server_get): what a check of
 * which servers may start and which are up reads. */
typedef struct mcphost_server_state {
  uint32_t struct_size;
  int32_t startable; /* the status's "startable" */
  int32_t used;      /* 1: its "connection" is not "idle" */
  int32_t connected; /* 1: connected ("code" 0) */
  int32_t code;      /* the status's "code" */
  /* The configured "type" ("stdio", "http", "sdk", ...): the client's,
   * valid until the configuration is loaded again. */
  const char *type;
  /* What the connected server declared (MCPHOST_CAP_*); 0 when it is not
   * connected. */
  uint32_t caps;
  /* 1: the configured type runs a process on this machine (stdio, or a
   * plugin's type it declares local): the server, and what it keeps in
   * its process, ends with the client that started it. */
  int32_t local;
  /* 1: its connection holds an MCP session (Streamable HTTP's
   * Mcp-Session-Id), which ends with the connection: what the server
   * keeps per session (a task, a subscription) is not known to a later
   * one. */
  int32_t mcp_session;
} mcphost_server_state;

/* mcphost_server_state.caps: the capabilities a server declared at
 * initialize (its "capabilities" object's members). */
#define MCPHOST_CAP_TOOLS 1u
#define MCPHOST_CAP_RESOURCES 2u
#define MCPHOST_CAP_PROMPTS 4u
#define MCPHOST_CAP_COMPLETIONS 8u
#define MCPHOST_CAP_LOGGING 16u

#define MCPHOST_SERVER_STATE_INIT                                              \
  { MCPHOST_SIZEOF_(mcphost_server_state), 0, 0, 0, 0, NULL, 0, 0, 0 }

/* [loop] or [not loop] Server `index`'s state (mcphost_server_status's,
 * the fields its struct_size covers), without JSON. MCPHOST_ENOTFOUND
 * past the last server. */
int mcphost_server_get(mcphost_client *c, size_t index,
                       mcphost_server_state *out, mcphost_error *err);

/* mcphost_connect_servers's flags. */
/* Only the servers never used: a connection already made, lost or being
 * made again is left as it is and not waited for (what `mcphost
 * servers` shows as it is). */
#define MCPHOST_CONNECT_UNUSED 1u
/* Each server connected again now (`reconnect`): a live connection is
 * closed first, one waiting for its next attempt makes it at once, one
 * that gave up tries again with its attempts renewed. */
#define MCPHOST_CONNECT_AGAIN 2u

/* [not loop] Connects the servers `names` (`n` of them, found as
 * mcphost_server_find finds them; `names` NULL: every server that may
 * start), concurrently (remote ones first; at most 3 local and 20
 * remote connects at once, as Claude Code), and waits until each is
 * connected or failed: a failure is a status (mcphost_server_status:
 * "error", "code"), not an error of this function, and so is a server
 * the configuration does not let start. MCPHOST_OK with *nconnected
 * (may be NULL) the number of them connected (with
 * MCPHOST_CONNECT_UNUSED, of those it connected). MCPHOST_ENOTFOUND for
 * a name not configured, before anything connects (the message naming
 * it and the closest names); MCPHOST_EUSAGE for unknown `flags` bits;
 * MCPHOST_ESTATE on the library's own thread (a callback in
 * MCPHOST_LOOP_THREAD mode). Each connect has the client's
 * connect deadline (connect_timeout_ms); in MCPHOST_LOOP_CALLER mode
 * this runs the loop until the last is settled. */
int mcphost_connect_servers(mcphost_client *c, const char *const *names,
                            size_t n, unsigned flags, size_t *nconnected,
                            mcphost_error *err);

/* ---- a long-running front end: roots, servers that may start ----
 * What `mcphost batch` does beside its operations: the roots offered
 * changed while servers run, and a list over every server that may
 * start. A program that runs for long also sets the option "keep"
 * (mcphost_set_option): a server that crashed is connected again. */

/* [loop] or [not loop] as mcphost_inproc_register. The roots offered to
 * server `server` (NULL: every server) from now on: `dirs_json` a JSON
 * array of directories, each relative to the working directory unless
 * absolute, "~/" from $HOME. A connected server gets them at once and is
 * told (notifications/roots/list_changed); the others at their next
 * connection. *roots_json (may be NULL; the caller's): the roots as
 * offered, [{"uri": "file://...", "name": ...}]. MCPHOST_EUSAGE, and
 * nothing changes, when roots are off (the option "no-roots"), or for
 * an element that is no existing directory: the message names it,
 * `"roots"[I]: WHY`; MCPHOST_ENOTFOUND for a server not configured. */
int mcphost_set_roots(mcphost_client *c, const char *server,
                      const char *dirs_json, char **roots_json,
                      mcphost_error *err);

/* ---- the gateway ----
 * What a front end that serves the configured servers to clients of its
 * own (`mcphost serve`) uses beside the operations and the loop. */

/* [loop] An entry of the program's own in the client's log, beside the
 * library's and under the same rules: on stderr as the library writes
 * its entries ("mcphost: warning: [SOURCE] MESSAGE", escaped and
 * redacted), or to mcphost_options.on_log, when the verbosity lets
 * `level` (an enum mcphost_log_level) through. `source`: what it is
 * about (a server, a part of the program), or NULL. MCPHOST_EUSAGE for
 * an unknown level or no message. */
int mcphost_log(mcphost_client *c, int level, const char *source,
                const char *message, mcphost_error *err);

/* ---- a command's servers: the configuration's warnings ----
 * What a command that uses the servers says about them, as the mcphost
 * executable's `servers`, `mcp list`, `mcp get` and `subscribe` do.
 * Threads: [loop] or [not loop] as mcphost_inproc_register. */

/* The configuration's warnings about servers (an entry's unknown key, a
 * variable that is not set, ...), said on the library's log as it says
 * those of the configuration as a whole when it is loaded (on stderr,
 * escaped, or to mcphost_options.on_log): with `server` NULL every one
 * about any server, said before or not (a program that lists every
 * server shows them with the list); with a configured name (exactly as
 * configured) those about that server not said yet, which its first
 * connection would otherwise say. A name no warning is about says
 * nothing. With MCPHOST_REPORT_LOAD (`server` NULL) the loaded
 * configuration's whole report instead: its errors, warnings and (with
 * "verbose" 1 or more) notes, as mcphost_load_config said them, for a
 * front end that shares one loaded client between its commands (a
 * session) and shows each command what its own load would have; nothing
 * before a load. MCPHOST_OK; MCPHOST_EUSAGE for unknown `flags` bits or
 * a `server` with MCPHOST_REPORT_LOAD. */
#define MCPHOST_REPORT_LOAD 1u
int mcphost_config_report(mcphost_client *c, const char *server,
                          unsigned flags, mcphost_error *err);


/* ---- a session: one client for a long run of tasks ----
 * What `mcphost session` does with the client it keeps for one command
 * line after another: it watches the files its configuration comes
 * from, reads the configuration again when one changes (while no
 * connection holds the old one), sets the options again before each
 * task (mcphost_set_option: every one, as a task may have changed it),
 * and closes the servers before it lets go of what others wait on. */

/* [loop] or [not loop] as mcphost_server_status. The files the loaded
 * configuration is read from, whether each exists now or not (one made
 * later is read the next time): the user's settings, the managed
 * (enterprise) files, the project files from the working directory up
 * (deepest first), then the `configs` given as files (JSON text given
 * is none); every file once, as a JSON array of paths (*json: the
 * caller's, mcphost_free; *len when `len` is not NULL). A program that
 * watches them calls mcphost_reload_config when one changes.
 * MCPHOST_ESTATE before the configuration is loaded. */
int mcphost_config_files(mcphost_client *c, char **json, size_t *len,
                         mcphost_error *err);

/* [loop] or [not loop] as mcphost_server_status. Reads the
 * configuration again from the same sources, as it was loaded (the
 * scopes, the plugins' servers, the sources given to
 * mcphost_load_config), said on the library's log as the first load;
 * mcphost_server_count, mcphost_server_name and mcphost_config_errors
 * are the new one's from then on. MCPHOST_ESTATE, and the configuration
 * stays, before it is loaded or once a server was used with it
 * (connections and what the client keeps per server point into it):
 * the message says which. */
int mcphost_reload_config(mcphost_client *c, mcphost_error *err);

/* [not loop] Ends every operation still running (their `done` runs,
 * MCPHOST_ECANCELED), answers a request the program took and did not
 * answer with an error, and closes every server gracefully, as
 * mcphost_client_free begins, and waits for that; the client is not
 * freed (mcphost_client_free still is the caller's) and takes no new
 * operation. For a program that gives up something others wait on (a
 * lock) only once its servers are gone. NULL is fine. In
 * MCPHOST_LOOP_CALLER mode: the loop's thread, outside a callback. */
void mcphost_client_shutdown(mcphost_client *c);

/* ---- an interactive front end: its paths, the loop caught up, its
 * signals, its servers closed ----
 * What a program that runs several commands on one client (the
 * `mcphost shell`, a session) does between them and at its end, beside
 * the front end's functions above. */

/* mcphost_path's directories (the plugin ABI's MCPH_PATH_*). */
enum mcphost_path {
  MCPHOST_PATH_CWD = 0,   /* the working directory the client started in */
  MCPHOST_PATH_STATE = 1, /* per-user state ($XDG_STATE_HOME/mcphost) */
  MCPHOST_PATH_LOGS = 2,  /* per-user logs (a stdio server's stderr) */
  MCPHOST_PATH_CACHE = 3  /* per-user cache ($XDG_CACHE_HOME/mcphost) */
};

/* [any thread] The client's directory `which` (an enum mcphost_path), an
 * absolute path, as the library and its plugins use it (a relative
 * --root or --output-dir is taken from MCPHOST_PATH_CWD); NULL for an
 * unknown `which` or when there is none (no home directory). The
 * client's, valid until it is freed; nothing is created. */
const char *mcphost_path(const mcphost_client *c, int which);

/* [any thread] The directory `dir` names as a root, as
 * mcphost_set_option("root") takes it (relative to MCPHOST_PATH_CWD,
 * "~/" from $HOME), made absolute with its links resolved: in *abs (the
 * caller's, mcphost_free), for a program that checks a --root before it
 * sets it. MCPHOST_EUSAGE when it is no existing directory, the message
 * "--root DIR: WHY". */
int mcphost_root_resolve(const mcphost_client *c, const char *dir, char **abs,
                         mcphost_error *err);

/* [loop] MCPHOST_LOOP_CALLER mode: runs what is ready now and what that
 * makes ready, without waiting (a bounded number of turns): a program
 * that left the loop standing (a prompt waiting for a line) takes in what
 * happened meanwhile (a server's exit, a reconnection due) before it
 * starts more. */
void mcphost_run_ready(mcphost_client *c);

/* [loop] MCPHOST_LOOP_CALLER mode: as mcphost_run_until, and it also
 * ends when a signal the program passed on (mcphost_interrupt) is not
 * cleared, at once when one is pending: MCPHOST_ECANCELED (checked
 * before each turn, after *done). */
int mcphost_run_interruptible(mcphost_client *c, const int *done,
                              uint64_t deadline_ms);

/* [loop] The last signal mcphost_interrupt gave, cleared since
 * (mcphost_interrupt_clear) or not: what the program's exit status says
 * (the CLI's 128 + N). 0 when none was, or after
 * mcphost_interrupt_forget. */
int mcphost_exit_signal(const mcphost_client *c);

/* [loop] As mcphost_interrupt_clear, and the signal forgotten too:
 * mcphost_exit_signal is 0 again (the shell's Ctrl-C ended one command,
 * not the shell). */
void mcphost_interrupt_forget(mcphost_client *c);

/* [not loop] The sources the configuration files' functions
 * (mcphost_config_add, _remove, _entries, mcphost_project_choice,
 * mcphost_config_import, ...) find their files by, before
 * mcphost_load_config or without it, given as it would be given them:
 * for a program that edits the configuration its command line names
 * without loading it (`mcphost mcp add` after --mcp-config). Copied; a
 * later call replaces them, and they stay in force after a load.
 * MCPHOST_EABI or MCPHOST_EUSAGE as mcphost_load_config for a bad
 * struct. */
int mcphost_set_config_sources(mcphost_client *c,
                               const mcphost_config_sources *src,
                               mcphost_error *err);

/* [not loop] The servers `src` and every scope would give now, loaded as
 * mcphost_load_config loads them (`src` not checked alone, as with
 * `no_check`) into a configuration apart: nothing is kept, said on the
 * log or connected, and the client's own configuration stays as it is.
 * For a program that shows what the configuration holds without using
 * it (a shell's completion, a warning after an edit). A JSON array in
 * *result_json (the caller's, mcphost_free), in priority order:
 * [{"name", "scope", "state" (as mcphost_config_servers says it),
 * "reason" (when the configuration gives one), "winner" (a "skipped"
 * duplicate: the name of the entry used instead)}]. */
int mcphost_config_preview(mcphost_client *c, const mcphost_config_sources *src,
                           char **result_json, mcphost_error *err);

/* [any thread] The kind of failure a status code is, as a word for a
 * message or a JSON field (static): "usage", "server", "protocol",
 * "timeout", "not_found", "auth", "denied", "interrupted"
 * (MCPHOST_ECANCELED), "none" (MCPHOST_OK); "server" for any other
 * code. */
const char *mcphost_status_kind(int code);

/* [loop] or [not loop] Cancels operation `id` as mcphost_cancel does,
 * but at once: what it waits for is withdrawn (a request is cancelled on
 * the wire) and its `done` has run (MCPHOST_ECANCELED) when this
 * returns, so nothing of it comes after; nothing when it ended already.
 * From the loop's thread (a callback, or the caller's in
 * MCPHOST_LOOP_CALLER mode) it runs there; from another thread it waits
 * for the loop. An operation a callback started without
 * MCPHOST_REQUEST_NOW that has not begun yet ends too, without
 * beginning. */
void mcphost_cancel_now(mcphost_client *c, int64_t id);

/* What a request a server made is (mcphost_request_fn's `req`). */
typedef struct mcphost_server_request_info {
  uint32_t struct_size;
  /* The operation it was made for (mcphost_start's id): the server tied
   * it to that operation's request (its related request, or the only
   * request of the operation's that was waiting); 0 when nothing ties it
   * to one (a server's own roots/list at start). */
  int64_t op;
  /* Its JSON-RPC id as JSON text (`7`, `"a"`): what a
   * notifications/cancelled of the server's names as its requestId. The
   * request's, valid while it is. */
  const char *id_json;
  const char *server; /* the configured name; the client's */
} mcphost_server_request_info;

#define MCPHOST_SERVER_REQUEST_INFO_INIT                                       \
  { MCPHOST_SIZEOF_(mcphost_server_request_info), 0, NULL, NULL }

/* [any thread] What request `req` (taken and not yet answered) is, in
 * *out (the fields its struct_size covers). A request the server
 * cancelled since (notifications/cancelled naming its id, which the
 * program's on_notify gets as well) still needs its mcphost_respond,
 * which then frees it and sends nothing. MCPHOST_EUSAGE without `req` or
 * `out`. */
int mcphost_server_request_get(const mcphost_server_request *req,
                               mcphost_server_request_info *out,
                               mcphost_error *err);

/* [any thread] Answers request `req` as mcphost_respond does with an
 * error, the JSON-RPC error `rpc_code` (not 0) with `message` and the
 * error's `data_json` (JSON text, or NULL for none): a program that
 * passes on the answer a client of its own gave. Frees `req`.
 * MCPHOST_EUSAGE for a code 0 or data that is not JSON (`req` stays
 * valid then). */
int mcphost_respond_error(mcphost_client *c, mcphost_server_request *req,
                          int rpc_code, const char *message,
                          const char *data_json, mcphost_error *err);

/* ---- in-process servers ("type": "sdk") ----
 * A server that lives in the embedding program, registered under a name
 * as a JSON-RPC message handler: a configuration entry {"type": "sdk"}
 * of that name (or {"type": "sdk", "name": NAME}) connects to it through
 * the same pipeline as every server (names, policy, permissions,
 * sanitizing, results), with no process and no pipe. Messages are JSON
 * text both ways, delivered from the loop in the order sent, never from
 * inside the send that queued them: a server may answer from inside
 * on_message.
 *
 * The server answers every request it gets (-32601 for a method it does
 * not know: a connection may begin with server/discover), and keeps no
 * state of one connection for the next. At most one connection at a
 * time per server.
 *
 * Threads: on_message and on_close(MCPHOST_INPROC_DISCONNECTED) run on
 * the loop (MCPHOST_LOOP_THREAD: the library's thread; MCPHOST_LOOP_CALLER:
 * inside mcphost_perform or a waiting call); on_close(
 * MCPHOST_INPROC_RELEASED) runs inside mcphost_client_free, on its
 * thread, after the loop has ended. mcphost_inproc_register and
 * mcphost_inproc_unregister are [loop] or [not loop]: in
 * MCPHOST_LOOP_THREAD mode from any thread (from another than the
 * library's they wait for the loop), in MCPHOST_LOOP_CALLER mode from the
 * loop's thread. mcphost_inproc_send is [any thread]. */

typedef struct mcphost_inproc mcphost_inproc; /* a registered server */

/* Why on_close runs. */
enum mcphost_inproc_end {
  /* The connection ended (the client closed it: shutdown, reconnect);
   * the server stays registered and a new connection may come. */
  MCPHOST_INPROC_DISCONNECTED = 0,
  /* mcphost_client_free: the server's last callback; the handle is gone
   * when it returns, and `ud` may be freed there. */
  MCPHOST_INPROC_RELEASED = 1
};

typedef struct mcphost_inproc_callbacks {
  uint32_t struct_size;
  /* One message the client sent (a request, a notification, or the
   * answer to a request of the server's): `len` bytes of JSON text, not
   * NUL-terminated, borrowed for the call. Required. */
  void (*on_message)(void *ud, mcphost_inproc *srv, const char *json,
                     size_t len);
  /* May be NULL. `end`: an enum mcphost_inproc_end. */
  void (*on_close)(void *ud, mcphost_inproc *srv, int end);
  void *ud; /* passed back as the first argument */
} mcphost_inproc_callbacks;

#define MCPHOST_INPROC_CALLBACKS_INIT                                          \
  { MCPHOST_SIZEOF_(mcphost_inproc_callbacks), NULL, NULL, NULL }

/* [loop] or [not loop] (above) Registers the server `name` (non-empty,
 * unique on this client) with a copy of `cb`. *out is the program's
 * until mcphost_inproc_unregister or on_close(MCPHOST_INPROC_RELEASED).
 * MCPHOST_EUSAGE without a name or on_message, or when the name is
 * taken. Whenever: an entry that failed for want of the server connects
 * once asked again. */
int mcphost_inproc_register(mcphost_client *c, const char *name,
                            const mcphost_inproc_callbacks *cb,
                            mcphost_inproc **out, mcphost_error *err);

/* [any thread] Sends one message to the client: a response, a
 * notification (list_changed, progress, logging) or a request of the
 * server's own (elicitation/create, sampling/createMessage, roots/list;
 * its answer comes to on_message): `len` bytes of JSON text, copied,
 * passed on as sent. Inside a callback of the client it is queued at
 * once: MCPHOST_ESTATE when no connection is open. Elsewhere (another
 * thread; the caller's between mcphost_perform calls) it is handed to
 * the loop and MCPHOST_OK returned; a connection that has ended by then
 * drops it, as a closed pipe would. MCPHOST_EUSAGE for an
 * empty message. Not after mcphost_inproc_unregister returned or
 * on_close(MCPHOST_INPROC_RELEASED) began (MCPHOST_ESTATE inside it). */
int mcphost_inproc_send(mcphost_inproc *srv, const char *json, size_t len,
                        mcphost_error *err);

/* [loop] or [not loop] (above) Unregisters and frees the server. When
 * connected, the connection ends for the client as if the server had
 * gone away (after the messages the server sent before), and what the
 * client sent and the server did not get yet is dropped. No callback of
 * the server runs once it returns (on_close is not called). From a
 * server's own callback only for that server. NULL is fine. */
void mcphost_inproc_unregister(mcphost_inproc *srv);

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_CLIENT_H */
