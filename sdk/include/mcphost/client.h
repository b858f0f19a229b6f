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
} mcphost_error;

#define MCPHOST_ERROR_INIT                                                     \
  { (uint32_t)sizeof(mcphost_error), 0, 0, "", "" }

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
} mcphost_ask_info;

/* The program's question, asked beside the permission plugins (the first
 * definite answer wins, as the CLI's y/N on a terminal does). Return 1 to
 * ask: answer with mcphost_ask_answer(q->id), now or later; 0: the
 * plugins alone decide, and without one that answers the call is
 * refused. [loop] */
typedef int (*mcphost_ask_fn)(void *ud, const mcphost_ask_info *q);

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
  /* The library's log on stderr: 0 errors and warnings (the default),
   * 1 info, 2 debug, 3 trace (the CLI's -v). */
  int32_t verbosity;
  mcphost_notify_fn on_notify;   /* NULL: none */
  mcphost_request_fn on_request; /* NULL: the library and plugins answer */
  /* NULL: a rule that asks is put to the permission plugins alone, for
   * at most request_timeout_ms (the CLI's way off a terminal). */
  mcphost_ask_fn on_ask;
  void *ud; /* the callbacks' */
} mcphost_options;

#define MCPHOST_OPTIONS_INIT                                                   \
  {                                                                            \
    (uint32_t)sizeof(mcphost_options), MCPHOST_API_MAJOR, MCPHOST_API_MINOR,   \
        MCPHOST_LOOP_THREAD, NULL, 0, NULL, 0, 0, 0, 0, 0, 0, 0, NULL, NULL,   \
        NULL, NULL                                                             \
  }

/* [any thread] A new client: loads the plugins and the configuration
 * (nothing connects yet) and, in MCPHOST_LOOP_THREAD mode, starts its
 * thread. The strings of `o` are copied. *out is the caller's, freed
 * with mcphost_client_free. */
int mcphost_client_new(const mcphost_options *o, mcphost_client **out,
                       mcphost_error *err);

/* [not loop] Ends every operation still running (their `done` runs,
 * MCPHOST_ECANCELED), closes every server gracefully (a stdio server's
 * time to exit), stops the thread and frees the client. A request the
 * program took and did not answer is answered with an error. NULL is
 * fine. In MCPHOST_LOOP_CALLER mode: the loop's thread, outside a
 * callback. */
void mcphost_client_free(mcphost_client *c);

/* [any thread] The configured servers, in priority order; the names are
 * the client's, valid until it is freed. */
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
  MCPHOST_OP_REQUEST
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
} mcphost_request;

#define MCPHOST_REQUEST_INIT                                                   \
  { (uint32_t)sizeof(mcphost_request), 0, NULL, NULL, NULL, NULL, 0 }

/* What an operation started with mcphost_start reports, on the loop.
 * `progress` (may be NULL): a notifications/progress of the request, its
 * params as JSON text. `done` runs exactly once: the result as JSON text
 * (`result_json`, `len` bytes, NUL-terminated; NULL on an error) or the
 * error (`err`, NULL on success). Both borrowed for the call. */
typedef struct mcphost_callbacks {
  uint32_t struct_size;
  void (*progress)(void *ud, const char *params_json);
  void (*done)(void *ud, const char *result_json, size_t len,
               const mcphost_error *err);
  void *ud;
} mcphost_callbacks;

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
 * or the error. */
int mcphost_run(mcphost_client *c, const mcphost_request *rq,
                char **result_json, size_t *len, mcphost_error *err);

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
  { (uint32_t)sizeof(mcphost_inproc_callbacks), NULL, NULL, NULL }

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
