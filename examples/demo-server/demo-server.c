/*
 * mcphost-demo-server — a small MCP server over stdio, for the README demo,
 * the tests and the benchmarks.
 *
 * Newline-delimited JSON-RPC 2.0: one message per line on stdin and stdout;
 * diagnostics go to stderr only. This file holds the process (options,
 * signals), the line loop, the JSON-RPC framing and the lifecycle methods;
 * demo-features.c holds the tools, resources and prompts.
 *
 * The misbehaviour switches (--noise, --exit-at-start, ...) exist so that
 * tests can check how the host copes with broken servers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* getline, vasprintf, getopt_long */
#endif

#include "demo-server.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SERVER_NAME "mcphost-demo"
#define SERVER_VERSION "0.1.0"
#define LATEST_PROTOCOL_VERSION "2025-11-25"

/* A line buffer grown past this is given back after its line is handled,
 * so one huge message does not pin its memory for the whole session. */
#define LINE_KEEP_MAX (1024 * 1024)

struct options {
  bool noise;
  bool exit_at_start;
  bool no_initialize;
  bool ignore_sigterm;
  bool stderr_chatter;
};

static void out_of_memory(void) {
  fputs("demo-server: out of memory\n", stderr);
  abort();
}

/* Installed as cJSON's allocator, so that no cJSON call in this program
 * can fail: builders need no NULL checks and no reply goes out half-built.
 * Aborting is the right answer to memory exhaustion in a demo server. */
static void *xmalloc(size_t size) {
  void *p = malloc(size != 0 ? size : 1);
  if (p == NULL)
    out_of_memory();
  return p;
}

static char *vformat(const char *fmt, va_list ap) DEMO_PRINTF(1, 0);
static char *vformat(const char *fmt, va_list ap) {
  char *s;
  if (vasprintf(&s, fmt, ap) < 0)
    out_of_memory();
  return s;
}

char *demo_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

cJSON *rpc_fail(struct rpc_error *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *message = vformat(fmt, ap);
  va_end(ap);
  free(err->message);
  err->code = code;
  err->message = message;
  return NULL;
}

/* ---- output ----------------------------------------------------------- */

static bool write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    buf += n;
    len -= (size_t)n;
  }
  return true;
}

/* Writes msg as one line with a single write(2) where the pipe allows it,
 * so a reader never sees part of a message. Takes ownership of msg. */
static void send_message(struct server *srv, cJSON *msg) {
  char *text = cJSON_PrintUnformatted(msg);
  cJSON_Delete(msg);
  if (srv->write_failed) {
    free(text);
    return;
  }
  size_t len = strlen(text);
  char *line = realloc(text, len + 2); /* xmalloc is plain malloc inside */
  if (line == NULL)
    out_of_memory();
  line[len] = '\n';
  line[len + 1] = '\0';
  if (!write_all(srv->out_fd, line, len + 1)) {
    fprintf(stderr, "demo-server: writing to stdout: %s\n", strerror(errno));
    srv->write_failed = true;
  }
  free(line);
}

static cJSON *new_message(const cJSON *id) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  if (id != NULL)
    cJSON_AddItemToObject(msg, "id", cJSON_Duplicate(id, true));
  return msg;
}

static void send_result(struct server *srv, const cJSON *id, cJSON *result) {
  cJSON *msg = new_message(id);
  cJSON_AddItemToObject(msg, "result", result);
  send_message(srv, msg);
}

/* An absent id is sent as null, as JSON-RPC asks when the request's id
 * could not be read. Takes ownership of data (may be NULL). */
static void send_error(struct server *srv, const cJSON *id, int code,
                       const char *message, cJSON *data) {
  cJSON *msg = new_message(id);
  if (id == NULL)
    cJSON_AddNullToObject(msg, "id");
  cJSON *error = cJSON_AddObjectToObject(msg, "error");
  cJSON_AddNumberToObject(error, "code", code);
  cJSON_AddStringToObject(error, "message", message);
  if (data != NULL)
    cJSON_AddItemToObject(error, "data", data);
  send_message(srv, msg);
}

void rpc_notify(struct server *srv, const char *method, cJSON *params) {
  cJSON *msg = new_message(NULL);
  cJSON_AddStringToObject(msg, "method", method);
  if (params != NULL)
    cJSON_AddItemToObject(msg, "params", params);
  send_message(srv, msg);
}

/* ---- lifecycle methods ------------------------------------------------ */

static cJSON *method_initialize(struct server *srv, const cJSON *params,
                                struct rpc_error *err) {
  (void)srv;
  (void)err;
  static const char *const supported[] = {"2025-11-25", "2025-06-18",
                                          "2025-03-26", "2024-11-05"};
  const char *version = LATEST_PROTOCOL_VERSION;
  const cJSON *requested =
      cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
  if (cJSON_IsString(requested))
    for (size_t i = 0; i < sizeof supported / sizeof supported[0]; i++)
      if (strcmp(requested->valuestring, supported[i]) == 0)
        version = supported[i];

  cJSON *result = cJSON_CreateObject();
  cJSON_AddStringToObject(result, "protocolVersion", version);
  cJSON *caps = cJSON_AddObjectToObject(result, "capabilities");
  cJSON_AddObjectToObject(caps, "tools");
  cJSON_AddObjectToObject(caps, "resources");
  cJSON_AddObjectToObject(caps, "prompts");
  cJSON_AddObjectToObject(caps, "logging");
  cJSON *info = cJSON_AddObjectToObject(result, "serverInfo");
  cJSON_AddStringToObject(info, "name", SERVER_NAME);
  cJSON_AddStringToObject(info, "version", SERVER_VERSION);
  cJSON_AddStringToObject(result, "instructions",
                          "Demo server for mcphost: tools echo, add, slow, "
                          "image and fail; resource demo://readme; prompt "
                          "greet.");
  return result;
}

static cJSON *method_ping(struct server *srv, const cJSON *params,
                          struct rpc_error *err) {
  (void)srv;
  (void)params;
  (void)err;
  return cJSON_CreateObject();
}

/* The level is checked, then forgotten: the server sends no log messages. */
static cJSON *method_set_level(struct server *srv, const cJSON *params,
                               struct rpc_error *err) {
  (void)srv;
  static const char *const levels[] = {"debug",   "info",     "notice",
                                       "warning", "error",    "critical",
                                       "alert",   "emergency"};
  const cJSON *level = cJSON_GetObjectItemCaseSensitive(params, "level");
  if (cJSON_IsString(level))
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
      if (strcmp(level->valuestring, levels[i]) == 0)
        return cJSON_CreateObject();
  return rpc_fail(err, RPC_INVALID_PARAMS,
                  "Invalid params: 'level' must be a log level");
}

static method_fn lookup_method(const char *method) {
  static const struct {
    const char *name;
    method_fn fn;
  } methods[] = {
      {"initialize", method_initialize},
      {"ping", method_ping},
      {"logging/setLevel", method_set_level},
  };
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i].name, method) == 0)
      return methods[i].fn;
  return features_lookup(method);
}

/* ---- dispatch --------------------------------------------------------- */

static void handle_request(struct server *srv, const cJSON *id,
                           const char *method, const cJSON *params) {
  method_fn fn = lookup_method(method);
  if (fn == NULL) {
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "method", method);
    send_error(srv, id, RPC_METHOD_NOT_FOUND, "Method not found", data);
    return;
  }
  struct rpc_error err = {0};
  cJSON *result = fn(srv, params, &err);
  if (result != NULL)
    send_result(srv, id, result);
  else if (err.code != 0)
    send_error(srv, id, err.code, err.message, err.data);
  else
    send_error(srv, id, RPC_INTERNAL_ERROR, "Internal error", err.data);
  free(err.message);
}

/* cJSON_HasObjectItem() ignores case; JSON-RPC member names do not. */
static bool has_member(const cJSON *object, const char *name) {
  return cJSON_GetObjectItemCaseSensitive(object, name) != NULL;
}

static void handle_message(struct server *srv, const cJSON *msg) {
  if (!cJSON_IsObject(msg)) {
    send_error(srv, NULL, RPC_INVALID_REQUEST,
               cJSON_IsArray(msg) ? "Invalid Request: batches are not supported"
                                  : "Invalid Request",
               NULL);
    return;
  }
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  /* NULL when absent or not a string. */
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  const char *version =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc"));

  /* A response: this server sends no requests, so there is nothing to
   * match it with. */
  if (!has_member(msg, "method") &&
      (has_member(msg, "result") || has_member(msg, "error")))
    return;
  if (id != NULL && !cJSON_IsString(id) && !cJSON_IsNumber(id)) {
    send_error(srv, NULL, RPC_INVALID_REQUEST,
               "Invalid Request: id must be a string or a number", NULL);
    return;
  }
  if (version == NULL || strcmp(version, "2.0") != 0 || method == NULL) {
    send_error(srv, id, RPC_INVALID_REQUEST, "Invalid Request", NULL);
    return;
  }
  if (id == NULL)
    return; /* notifications/initialized, cancelled, ...: nothing to say */
  if (cJSON_IsNull(params))
    params = NULL;
  if (params != NULL && !cJSON_IsObject(params)) {
    send_error(srv, id, RPC_INVALID_PARAMS,
               "Invalid params: params must be an object", NULL);
    return;
  }
  handle_request(srv, id, method, params);
}

/* line is NUL-terminated at len, its newline already stripped. */
static void handle_line(struct server *srv, const char *line, size_t len) {
  if (strspn(line, " \t\r") == len)
    return; /* blank lines are not messages */
  cJSON *msg = NULL;
  /* An embedded NUL would hide the rest of the line from the parser. The
   * length passed to cJSON counts the terminator, as its require-null-
   * terminated check expects, so trailing garbage is a parse error. */
  if (strlen(line) == len)
    msg = cJSON_ParseWithLengthOpts(line, len + 1, NULL, true);
  if (msg == NULL) {
    send_error(srv, NULL, RPC_PARSE_ERROR, "Parse error", NULL);
    return;
  }
  handle_message(srv, msg);
  cJSON_Delete(msg);
}

/* ---- process ---------------------------------------------------------- */

static void usage(FILE *f) {
  fputs("usage: mcphost-demo-server [options]\n"
        "An MCP server speaking newline-delimited JSON-RPC on stdin/stdout.\n"
        "\n"
        "Misbehaviour switches, for tests:\n"
        "  --noise           print 3 lines of non-JSON text to stdout first\n"
        "  --exit-at-start   complain on stderr and exit with status 3\n"
        "  --no-initialize   read requests but never answer any\n"
        "  --ignore-sigterm  ignore SIGINT and SIGTERM; on stdin EOF, sleep\n"
        "                    instead of exiting\n"
        "  --stderr-chatter  write a few lines to stderr at start\n"
        "\n"
        "Environment: DEMO_PAGE_SIZE=N pages every list N items at a time.\n",
        f);
}

static void parse_options(int argc, char **argv, struct options *opt) {
  enum { OPT_NOISE = 256, OPT_EXIT, OPT_NO_INIT, OPT_NO_TERM, OPT_CHATTER };
  static const struct option longopts[] = {
      {"noise", no_argument, NULL, OPT_NOISE},
      {"exit-at-start", no_argument, NULL, OPT_EXIT},
      {"no-initialize", no_argument, NULL, OPT_NO_INIT},
      {"ignore-sigterm", no_argument, NULL, OPT_NO_TERM},
      {"stderr-chatter", no_argument, NULL, OPT_CHATTER},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case OPT_NOISE:
      opt->noise = true;
      break;
    case OPT_EXIT:
      opt->exit_at_start = true;
      break;
    case OPT_NO_INIT:
      opt->no_initialize = true;
      break;
    case OPT_NO_TERM:
      opt->ignore_sigterm = true;
      break;
    case OPT_CHATTER:
      opt->stderr_chatter = true;
      break;
    case 'h':
      usage(stdout);
      exit(0);
    default:
      usage(stderr);
      exit(2);
    }
  }
  if (optind < argc) {
    fprintf(stderr, "demo-server: unexpected argument '%s'\n", argv[optind]);
    usage(stderr);
    exit(2);
  }
}

static size_t page_size_from_env(void) {
  const char *s = getenv("DEMO_PAGE_SIZE");
  if (s == NULL || *s == '\0')
    return 0;
  char *end;
  errno = 0;
  unsigned long n = strtoul(s, &end, 10);
  if (*s < '0' || *s > '9' || errno != 0 || *end != '\0' || n == 0) {
    fprintf(stderr,
            "demo-server: ignoring DEMO_PAGE_SIZE=%s (not a positive "
            "integer)\n",
            s);
    return 0;
  }
  return n;
}

static void set_blocking(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags != -1 && (flags & O_NONBLOCK) != 0)
    (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

int main(int argc, char **argv) {
  struct options opt = {0};
  parse_options(argc, argv, &opt);
  if (opt.exit_at_start) {
    fputs("fatal: demo server refusing to start\n", stderr);
    exit(3);
  }

  cJSON_Hooks hooks = {.malloc_fn = xmalloc, .free_fn = free};
  cJSON_InitHooks(&hooks);
  /* A host that goes away shows up as a failed write, not a silent death. */
  signal(SIGPIPE, SIG_IGN);
  if (opt.ignore_sigterm) {
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
  }
  if (opt.stderr_chatter)
    fprintf(stderr,
            "demo server starting\n"
            "demo server: pid %ld, protocol %s\n"
            "demo server: reading JSON-RPC from stdin\n",
            (long)getpid(), LATEST_PROTOCOL_VERSION);

  /* A host that made both ends of its pipes non-blocking (pipe2 with
   * O_NONBLOCK) would turn every short read or full pipe here into an
   * error; this loop is written for blocking I/O. */
  set_blocking(STDIN_FILENO);
  set_blocking(STDOUT_FILENO);

  struct server srv = {.out_fd = STDOUT_FILENO};
  srv.page_size = page_size_from_env();
  features_init(&srv);

  if (opt.noise) {
    static const char banner[] = "Welcome to the mcphost demo server!\n"
                                 "This banner is not JSON.\n"
                                 "=== ready ===\n";
    if (!write_all(srv.out_fd, banner, sizeof banner - 1))
      srv.write_failed = true;
  }

  /* A large stdin buffer: fewer read(2) calls for big messages. */
  setvbuf(stdin, NULL, _IOFBF, 64 * 1024);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int status = 0;
  while (!srv.write_failed && (n = getline(&line, &cap, stdin)) >= 0) {
    size_t len = (size_t)n;
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      line[--len] = '\0';
    if (!opt.no_initialize)
      handle_line(&srv, line, len);
    if (cap > LINE_KEEP_MAX) {
      free(line);
      line = NULL;
      cap = 0;
    }
  }
  if (srv.write_failed) {
    status = 1;
  } else if (ferror(stdin)) {
    fprintf(stderr, "demo-server: reading stdin: %s\n", strerror(errno));
    status = 1;
  }
  free(line);
  features_free(&srv);

  if (opt.ignore_sigterm && status == 0)
    for (;;)
      pause(); /* until SIGKILL */
  return status;
}
