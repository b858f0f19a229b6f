/*
 * mcphost-hostile-server — an MCP server over stdio (newline-delimited
 * JSON-RPC 2.0) that misbehaves on request, for
 * tests/integration/test_hostile.sh.
 *
 * It behaves as a small, correct server unless told otherwise:
 *   - process-wide misbehaviour is chosen with --mode NAME (repeatable);
 *   - one call's misbehaviour is chosen by the tool called, so that the
 *     same connection can be used again afterwards ("the next request
 *     still works").
 *
 * Every line received is appended to --log FILE, so a test can see what
 * the host sent (notifications/cancelled, how often initialize came).
 *
 * Single-threaded: a poll() loop reads stdin; in flood mode, whenever
 * stdin has nothing to read, one more notification is written. Writes
 * block, so nothing is ever buffered without bound here either.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* getopt_long, vasprintf */
#endif

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#define SERVER_NAME "mcphost-hostile"
#define SERVER_VERSION "0.1.0"
#define LATEST_PROTOCOL_VERSION "2025-11-25"

#define MIB ((size_t)1 << 20)
#define DRIP_DELAY_US 20 /* between bytes in drip mode */
#define FLOOD_LOG_EVERY 10000UL
/* The 64-character pattern the `big` tool repeats; the test rebuilds it. */
static const char big_pattern[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/";

enum mode {
  M_CRASH_INIT = 1u << 0,         /* exit 42 on initialize, saying why */
  M_CRASH_INIT_PARTIAL = 1u << 1, /* half an answer, then SIGSEGV */
  M_NO_INIT = 1u << 2,            /* never answer initialize */
  M_CLOSE_STDOUT_INIT = 1u << 3,  /* close stdout on initialize */
  M_DRIP = 1u << 4,               /* every message one byte at a time */
  M_FLOOD = 1u << 5,              /* notifications in a tight loop */
  M_STUBBORN = 1u << 6,           /* ignore SIGINT/SIGTERM and stdin EOF */
  M_WEIRD_NAMES = 1u << 7,        /* hostile tool names and descriptions */
  M_NO_TEMPLATES = 1u << 8,       /* resources, but no templates/list */
  M_PRINTING = 1u << 9,           /* the tools "blocks" and "cjk" listed */
  M_INTL_NAMES = 1u << 10,        /* non-ASCII names already in NFKC */
  M_NFKC_NAMES = 1u << 11,        /* names only NFKC makes ASCII */
};

static const struct {
  const char *name;
  unsigned bit;
  const char *help;
} modes[] = {
    {"crash-init", M_CRASH_INIT,
     "on initialize: two lines to stderr, then exit with status 42"},
    {"crash-init-partial", M_CRASH_INIT_PARTIAL,
     "on initialize: write half the answer (no newline), then die by "
     "SIGSEGV"},
    {"no-init", M_NO_INIT, "read everything, never answer initialize"},
    {"close-stdout-init", M_CLOSE_STDOUT_INIT,
     "on initialize: close stdout, keep running"},
    {"drip", M_DRIP, "write every message one byte at a time"},
    {"flood", M_FLOOD,
     "after notifications/initialized, send notifications in a tight loop, "
     "even after stdin ends (logging every 10000 sent)"},
    {"stubborn", M_STUBBORN,
     "ignore SIGINT and SIGTERM; at stdin EOF, keep running until SIGKILL"},
    {"no-templates", M_NO_TEMPLATES,
     "declare resources and list one, answer resources/templates/list "
     "with -32601 (method not found)"},
    {"printing", M_PRINTING,
     "also list \"blocks\" (answers the content blocks given in "
     "`content`, after writing `stderr` to stderr; a description of "
     "three lines) and \"cjk\" (a long description in Chinese)"},
    {"intl-names", M_INTL_NAMES,
     "also list tools whose names and descriptions are accented Latin, "
     "Japanese, Russian, Hindi, Hebrew with points and emoji, all already "
     "in NFKC with nothing a sanitizer removes"},
    {"nfkc-names", M_NFKC_NAMES,
     "also list tools named in fullwidth letters and with a ligature, and "
     "one whose name's accent is a combining mark: names NFKC changes"},
    {"weird-names", M_WEIRD_NAMES,
     "tools whose names and descriptions hold zero-width, bidi, "
     "private-use characters and invalid UTF-8"},
};

struct server {
  unsigned modes;
  int log_fd;
  long ntools;      /* --tools N: list t00000..t(N-1) instead */
  size_t page_size; /* --page-size N: tools/list pages; 0 = one page */
  bool flooding;
  unsigned long flood_sent;
  bool write_failed;
};

/* ---- small helpers ---------------------------------------------------- */

_Noreturn static void out_of_memory(void) {
  static const char msg[] = "hostile: out of memory\n";
  (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
  abort();
}

static void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

static char *xprintf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s;
  if (vasprintf(&s, fmt, ap) < 0)
    out_of_memory();
  va_end(ap);
  return s;
}

static bool write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    buf += n;
    len -= (size_t)n;
  }
  return true;
}

static void say(const char *text) { /* to stderr, for the host to quote */
  (void)write_all(STDERR_FILENO, text, strlen(text));
}

static void log_line(struct server *s, const char *text, size_t len) {
  if (s->log_fd < 0)
    return;
  char *line = xmalloc(len + 1);
  memcpy(line, text, len);
  line[len] = '\n';
  (void)write_all(s->log_fd, line, len + 1); /* one write: O_APPEND */
  free(line);
}

/* Dies the way a crashing program does, without leaving a core file and
 * whatever a sanitizer runtime would do with the signal. */
_Noreturn static void die_by_sigsegv(void) {
  struct rlimit none = {0, 0};
  (void)setrlimit(RLIMIT_CORE, &none);
  signal(SIGSEGV, SIG_DFL);
  kill(getpid(), SIGSEGV); /* delivered before kill() returns */
  _exit(139);
}

/* ---- output ----------------------------------------------------------- */

/* Writes raw bytes to stdout: at once, or one byte at a time in drip
 * mode. A failed write (the host went away, stdout closed) stops all
 * further output. */
static void put(struct server *s, const char *buf, size_t len) {
  if (s->write_failed)
    return;
  if (!(s->modes & M_DRIP)) {
    s->write_failed = !write_all(STDOUT_FILENO, buf, len);
    return;
  }
  for (size_t i = 0; i < len && !s->write_failed; i++) {
    s->write_failed = !write_all(STDOUT_FILENO, buf + i, 1);
    usleep(DRIP_DELAY_US);
  }
}

/* Writes one or more lines with a single write(2), so the host reads them
 * together. Takes ownership of `text`, which has no trailing newline. */
static void put_line(struct server *s, char *text) {
  size_t len = strlen(text);
  char *line = realloc(text, len + 2);
  if (!line)
    out_of_memory();
  line[len] = '\n';
  line[len + 1] = '\0';
  put(s, line, len + 1);
  free(line);
}

static char *print_json(const cJSON *msg) {
  char *text = cJSON_PrintUnformatted(msg);
  if (!text)
    out_of_memory();
  return text;
}

static cJSON *new_message(const cJSON *id) {
  cJSON *msg = cJSON_CreateObject();
  cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
  cJSON_AddItemToObject(msg, "id",
                        id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
  return msg;
}

/* The text of a result message; takes ownership of `result`. */
static char *result_text(const cJSON *id, cJSON *result) {
  cJSON *msg = new_message(id);
  cJSON_AddItemToObject(msg, "result", result);
  char *text = print_json(msg);
  cJSON_Delete(msg);
  return text;
}

static void send_result(struct server *s, const cJSON *id, cJSON *result) {
  put_line(s, result_text(id, result));
}

static void send_error(struct server *s, const cJSON *id, int code,
                       const char *message) {
  cJSON *msg = new_message(id);
  cJSON *e = cJSON_AddObjectToObject(msg, "error");
  cJSON_AddNumberToObject(e, "code", code);
  cJSON_AddStringToObject(e, "message", message);
  put_line(s, print_json(msg));
  cJSON_Delete(msg);
}

static cJSON *text_result(const char *text) {
  cJSON *r = cJSON_CreateObject();
  cJSON *content = cJSON_AddArrayToObject(r, "content");
  cJSON *block = cJSON_CreateObject();
  cJSON_AddStringToObject(block, "type", "text");
  cJSON_AddStringToObject(block, "text", text);
  cJSON_AddItemToArray(content, block);
  return r;
}

/* ---- lifecycle -------------------------------------------------------- */

static cJSON *initialize_result(const struct server *s, const cJSON *params) {
  static const char *const supported[] = {"2025-11-25", "2025-06-18",
                                          "2025-03-26", "2024-11-05"};
  const char *version = LATEST_PROTOCOL_VERSION;
  const char *asked = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(params, "protocolVersion"));
  for (size_t i = 0; asked && i < sizeof supported / sizeof *supported; i++)
    if (strcmp(asked, supported[i]) == 0)
      version = supported[i];
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "protocolVersion", version);
  cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
  cJSON_AddObjectToObject(caps, "tools");
  if (s->modes & M_NO_TEMPLATES)
    cJSON_AddObjectToObject(caps, "resources");
  cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
  cJSON_AddStringToObject(info, "name", SERVER_NAME);
  cJSON_AddStringToObject(info, "version", SERVER_VERSION);
  return r;
}

static void on_initialize(struct server *s, const cJSON *id,
                          const cJSON *params) {
  if (s->modes & M_NO_INIT)
    return;
  if (s->modes & M_CRASH_INIT) {
    say("hostile: received initialize\n"
        "hostile: crashing on purpose during initialize\n");
    _exit(42);
  }
  if (s->modes & M_CLOSE_STDOUT_INIT) {
    say("hostile: closing stdout during initialize\n");
    close(STDOUT_FILENO);
    s->write_failed = true;
    return;
  }
  char *text = result_text(id, initialize_result(s, params));
  if (s->modes & M_CRASH_INIT_PARTIAL) {
    put(s, text, strlen(text) / 2);
    free(text);
    say("hostile: crashing on purpose in the middle of the initialize "
        "answer\n");
    die_by_sigsegv();
  }
  put_line(s, text);
}

/* ---- tools/list ------------------------------------------------------- */

static void add_tool(cJSON *tools, const char *name, const char *desc,
                     const char *arg, const char *arg_type) {
  cJSON *t = cJSON_CreateObject();
  cJSON_AddStringToObject(t, "name", name);
  cJSON_AddStringToObject(t, "description", desc);
  cJSON *schema = cJSON_AddObjectToObject(t, "inputSchema");
  cJSON_AddStringToObject(schema, "type", "object");
  cJSON *props = cJSON_AddObjectToObject(schema, "properties");
  if (arg) {
    cJSON *p = cJSON_AddObjectToObject(props, arg);
    cJSON_AddStringToObject(p, "type", arg_type);
  }
  cJSON_AddItemToArray(tools, t);
}

static const struct {
  const char *name, *desc, *arg, *arg_type;
} base_tools[] = {
    {"echo", "Answers \"Echo: <message>\".", "message", "string"},
    {"pid", "Answers the server's process id.", NULL, NULL},
    {"big", "A text result of `mib` MiB (a 64-character pattern repeated).",
     "mib", "integer"},
    {"big_exact",
     "As big, the text led by a\\u0000b, and a structuredContent of "
     "numbers a double does not hold.",
     "mib", "integer"},
    {"pipe_size",
     "A text result of `kib` KiB (the big pattern) then \"pipe=N\": N the "
     "size of the server's stdout pipe once the rest was written into it.",
     "kib", "integer"},
    {"crash",
     "Writes to stderr and dies by SIGSEGV; with partial=true, "
     "after half an answer.",
     "partial", "boolean"},
    {"hang", "Never answers.", NULL, NULL},
    {"unknown_id", "Sends an answer with an id never used, then the real one.",
     NULL, NULL},
    {"twice", "Answers twice.", NULL, NULL},
    {"invalid_json",
     "Sends a line of text and one of invalid JSON, then "
     "the real answer.",
     NULL, NULL},
    {"garbled", "Answers with invalid JSON that still shows the id.", NULL,
     NULL},
    {"deep",
     "Answers with an array nested `levels` deep (default 10000); "
     "id_last=true puts the id after it, text_kib=N a text of N KiB "
     "before it.",
     "levels", "integer"},
    {"close_stdout", "Closes stdout and keeps running.", NULL, NULL},
    {"exit", "Answers, then exits with `status`.", "status", "integer"},
};

/* Tools whose names and descriptions a host must sanitize. */
static void add_weird_tools(cJSON *tools) {
  add_tool(tools, "zero\xe2\x80\x8bwidth", "zero\xe2\x80\x8b width (U+200B)",
           NULL, NULL);
  add_tool(tools,
           "bidi\xe2\x80\xae"
           "evil",
           "right-to-left \xe2\x80\xae"
           "override",
           NULL, NULL);
  add_tool(tools, "private\xee\x80\x80use", "private use \xee\x80\x80", NULL,
           NULL);
  add_tool(tools, "bad\xff\xfeutf8", "invalid \xc3\x28 UTF-8 \xff", NULL, NULL);
  add_tool(tools, "bom\xef\xbb\xbfname",
           "\xef\xbb\xbf"
           "byte order mark",
           NULL, NULL);
}

/* Tools whose non-ASCII text sanitizing leaves as it is (M_INTL_NAMES). */
static void add_intl_tools(cJSON *tools) {
  add_tool(tools, "caf\u00E9",
           "Cr\u00E8me br\u00FBl\u00E9e, na\u00EFve r\u00E9sum\u00E9.", NULL,
           NULL);
  add_tool(tools, "\u65E5\u672C\u8A9E",
           "\u65E5\u672C\u8A9E\u306E\u30C4\u30FC\u30EB\u3067\u3059\u3002", NULL,
           NULL);
  add_tool(tools, "\u043F\u0440\u0438\u0432\u0435\u0442",
           "\u0420\u0443\u0441\u0441\u043A\u0438\u0439 "
           "\u0442\u0435\u043A\u0441\u0442.",
           NULL, NULL);
  add_tool(tools, "\u0928\u092E\u0938\u094D\u0924\u0947",
           "\u0939\u093F\u0928\u094D\u0926\u0940 "
           "\u05E9\u05B8\u05C1\u05DC\u05D5\u05B9\u05DD",
           NULL, NULL);
  add_tool(tools, "emoji", "\U0001F600 \u2764\uFE0F \U0001F44D\U0001F3FD", NULL,
           NULL);
}

/* Tools whose names NFKC changes (M_NFKC_NAMES): "full", "file" and
 * "cafe" + U+0301, which become "full", "file" and "café". */
static void add_nfkc_tools(cJSON *tools) {
  add_tool(tools, "\uFF46\uFF55\uFF4C\uFF4C", "Fullwidth letters.", NULL, NULL);
  add_tool(tools, "\uFB01le", "A ligature.", NULL, NULL);
  add_tool(tools, "cafe\u0301", "A combining acute accent.", NULL, NULL);
}

/* Tools for the tests of how mcphost prints (M_PRINTING). */
static void add_printing_tools(cJSON *tools) {
  add_tool(tools, "blocks",
           "Answers with the content blocks given in `content`, as given,\n"
           "after writing `stderr` (a string) to stderr if given.\n"
           "For tests of how results are printed.",
           "content", "array");
  /* 60 CJK characters: 120 columns. */
  add_tool(tools, "cjk",
           "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80\xe4\xb8\xaa"
           "\xe5\xbe\x88\xe9\x95\xbf\xe7\x9a\x84\xe6\x8f\x8f"
           "\xe8\xbf\xb0\xe6\x96\x87\xe5\xad\x97\xef\xbc\x8c"
           "\xe7\x94\xa8\xe6\x9d\xa5\xe6\xb5\x8b\xe8\xaf\x95"
           "\xe5\xae\xbd\xe5\xba\xa6\xe3\x80\x82"
           "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80\xe4\xb8\xaa"
           "\xe5\xbe\x88\xe9\x95\xbf\xe7\x9a\x84\xe6\x8f\x8f"
           "\xe8\xbf\xb0\xe6\x96\x87\xe5\xad\x97\xef\xbc\x8c"
           "\xe7\x94\xa8\xe6\x9d\xa5\xe6\xb5\x8b\xe8\xaf\x95"
           "\xe5\xae\xbd\xe5\xba\xa6\xe3\x80\x82"
           "\xe8\xbf\x99\xe6\x98\xaf\xe4\xb8\x80\xe4\xb8\xaa"
           "\xe5\xbe\x88\xe9\x95\xbf\xe7\x9a\x84\xe6\x8f\x8f"
           "\xe8\xbf\xb0\xe6\x96\x87\xe5\xad\x97\xef\xbc\x8c"
           "\xe7\x94\xa8\xe6\x9d\xa5\xe6\xb5\x8b\xe8\xaf\x95"
           "\xe5\xae\xbd\xe5\xba\xa6\xe3\x80\x82",
           NULL, NULL);
}

static void on_tools_list(struct server *s, const cJSON *id,
                          const cJSON *params) {
  size_t total = s->ntools >= 0 ? (size_t)s->ntools
                                : sizeof base_tools / sizeof *base_tools;
  size_t start = 0;
  const char *cursor =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "cursor"));
  if (cursor) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cursor, &end, 10);
    if (errno || *end || end == cursor || v == 0 || v >= total) {
      send_error(s, id, -32602, "Invalid params: unknown cursor");
      return;
    }
    start = (size_t)v;
  }
  size_t n = s->page_size && total - start > s->page_size ? s->page_size
                                                          : total - start;
  cJSON *r = cJSON_CreateObject();
  cJSON *tools = cJSON_AddArrayToObject(r, "tools");
  for (size_t i = start; i < start + n; i++) {
    if (s->ntools >= 0) {
      char name[32], desc[64];
      snprintf(name, sizeof name, "t%05zu", i);
      snprintf(desc, sizeof desc, "generated tool %zu", i);
      add_tool(tools, name, desc, "message", "string");
    } else {
      add_tool(tools, base_tools[i].name, base_tools[i].desc, base_tools[i].arg,
               base_tools[i].arg_type);
    }
  }
  if (s->modes & M_WEIRD_NAMES && start + n == total)
    add_weird_tools(tools);
  if (s->modes & M_PRINTING && start + n == total)
    add_printing_tools(tools);
  if (s->modes & M_INTL_NAMES && start + n == total)
    add_intl_tools(tools);
  if (s->modes & M_NFKC_NAMES && start + n == total)
    add_nfkc_tools(tools);
  if (start + n < total) {
    char next[32];
    snprintf(next, sizeof next, "%zu", start + n);
    cJSON_AddStringToObject(r, "nextCursor", next);
  }
  send_result(s, id, r);
}

/* ---- tools/call ------------------------------------------------------- */

static double num_arg(const cJSON *args, const char *key, double fallback) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
  return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

/* The answer to `id` up to its text's first bytes, `lead`: a text result
 * written by hand, its text streamed (put_pattern) and closed after. */
static void put_text_head(struct server *s, const cJSON *id, const char *lead) {
  char *idtext = print_json(id);
  char *head = xprintf("{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":"
                       "[{\"type\":\"text\",\"text\":\"%s",
                       idtext, lead);
  free(idtext);
  put(s, head, strlen(head));
  free(head);
}

/* `n` bytes of big_pattern, 64 KiB at a time. */
static void put_pattern(struct server *s, size_t n) {
  size_t chunk = 64 * 1024;
  char *buf = xmalloc(chunk);
  for (size_t i = 0; i < chunk; i++)
    buf[i] = big_pattern[i % (sizeof big_pattern - 1)];
  for (size_t done = 0; done < n && !s->write_failed; done += chunk)
    put(s, buf, n - done < chunk ? n - done : chunk);
  free(buf);
}

/* Streams a `mib` MiB text result without holding it in memory; `exact`:
 * its text led by "a\u0000b" and followed by a structuredContent of
 * numbers a double does not hold (big_exact). */
static void tool_big(struct server *s, const cJSON *id, const cJSON *args,
                     bool exact) {
  double mib = num_arg(args, "mib", 1);
  if (mib < 0 || mib > 4096) {
    send_error(s, id, -32602, "Invalid params: mib must be 0..4096");
    return;
  }
  put_text_head(s, id, exact ? "a\\u0000b" : "");
  put_pattern(s, (size_t)mib * MIB);
  const char *tail =
      exact ? "\"}],\"structuredContent\":{\"n\":[12345678901234567890,"
              "9007199254740993,1e400,-0,0.30000000000000004,1.0]}}}\n"
            : "\"}]}}\n";
  put(s, tail, strlen(tail));
}

/* pipe_size: `kib` KiB of the pattern, then the room of stdout's pipe as
 * the reader left it when the rest was in: a transport that grows the
 * pipe for a large message (transports/stdio/pipes.c) has grown it by
 * then (a write of more than the default room returned: most of it was
 * read), and has given the room back before a later call. */
static void tool_pipe_size(struct server *s, const cJSON *id,
                           const cJSON *args) {
  double kib = num_arg(args, "kib", 0);
  if (kib < 0 || kib > 65536) {
    send_error(s, id, -32602, "Invalid params: kib must be 0..65536");
    return;
  }
  put_text_head(s, id, "");
  put_pattern(s, (size_t)kib << 10);
  char tail[64];
  snprintf(tail, sizeof tail, "pipe=%d\"}]}}\n", fcntl(1, F_GETPIPE_SZ));
  put(s, tail, strlen(tail));
}

/* An answer whose structuredContent is an array nested `levels` deep,
 * written by hand: building it with cJSON would recurse as deep. */
static void tool_deep(struct server *s, const cJSON *id, const cJSON *args) {
  double lv = num_arg(args, "levels", 10000);
  bool id_last =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "id_last"));
  if (lv < 1 || lv > 10000000) {
    send_error(s, id, -32602, "Invalid params: levels must be 1..10000000");
    return;
  }
  size_t levels = (size_t)lv;
  double kib = num_arg(args, "text_kib", 0);
  size_t ntext = kib > 0 && kib <= 65536 ? (size_t)kib << 10 : 0;
  char *text = xmalloc(ntext + 5);
  for (size_t i = 0; i < ntext; i++)
    text[i] = big_pattern[i % (sizeof big_pattern - 1)];
  memcpy(text + ntext, ntext ? "" : "deep", ntext ? 1 : 5);
  char *idtext = print_json(id);
  char *pre = xprintf("{\"jsonrpc\":\"2.0\",%s%s%s\"result\":{\"content\":"
                      "[{\"type\":\"text\",\"text\":\"%s\"}],"
                      "\"structuredContent\":{\"deep\":",
                      id_last ? "" : "\"id\":", id_last ? "" : idtext,
                      id_last ? "" : ",", text);
  free(text);
  char *post =
      xprintf("}}%s%s}", id_last ? ",\"id\":" : "", id_last ? idtext : "");
  size_t npre = strlen(pre), npost = strlen(post);
  char *line = xmalloc(npre + 2 * levels + npost + 1);
  memcpy(line, pre, npre);
  memset(line + npre, '[', levels);
  memset(line + npre + levels, ']', levels);
  memcpy(line + npre + 2 * levels, post, npost + 1);
  put_line(s, line);
  free(pre);
  free(post);
  free(idtext);
}

/* `first` and `second` (no newlines) with one write, so the host reads
 * both in one go. Takes ownership of both. */
static void put_two_lines(struct server *s, char *first, char *second) {
  char *both = xprintf("%s\n%s", first, second);
  free(first);
  free(second);
  put_line(s, both);
}

static void on_tools_call(struct server *s, const cJSON *id,
                          const cJSON *params) {
  const char *name =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "name"));
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
  const char *message =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "message"));
  if (!name) {
    send_error(s, id, -32602, "Invalid params: name is missing");
    return;
  }
  if (strcmp(name, "echo") == 0) {
    char *text = xprintf("Echo: %s", message ? message : "");
    send_result(s, id, text_result(text));
    free(text);
  } else if (strcmp(name, "pid") == 0) {
    char text[32];
    snprintf(text, sizeof text, "%ld", (long)getpid());
    send_result(s, id, text_result(text));
  } else if (strcmp(name, "big") == 0 || strcmp(name, "big_exact") == 0) {
    tool_big(s, id, args, strcmp(name, "big_exact") == 0);
  } else if (strcmp(name, "pipe_size") == 0) {
    tool_pipe_size(s, id, args);
  } else if (strcmp(name, "crash") == 0) {
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "partial"))) {
      char *text = result_text(id, text_result("never complete"));
      put(s, text, strlen(text) / 2);
      free(text);
    }
    say("hostile: received tools/call crash\n"
        "hostile: crashing on purpose during a call\n");
    die_by_sigsegv();
  } else if (strcmp(name, "hang") == 0) {
    say("hostile: hanging forever on this call\n");
  } else if (strcmp(name, "unknown_id") == 0) {
    cJSON *bogus = cJSON_IsNumber(id)
                       ? cJSON_CreateNumber(id->valuedouble + 1000)
                       : cJSON_CreateString("hostile-bogus-id");
    char *first = result_text(bogus, text_result("for nobody"));
    cJSON_Delete(bogus);
    put_two_lines(s, first, result_text(id, text_result("the real answer")));
  } else if (strcmp(name, "twice") == 0) {
    put_two_lines(s, result_text(id, text_result("first answer")),
                  result_text(id, text_result("second answer")));
  } else if (strcmp(name, "invalid_json") == 0) {
    char *bad = xprintf("hostile: this line is not JSON \x1b[2J"
                        "caf\xc3\xa9\n"
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"
                        "message\",\"params\":{\"level\":\"info\",\"data\":");
    put_two_lines(s, bad, result_text(id, text_result("after the garbage")));
  } else if (strcmp(name, "garbled") == 0) {
    char *text = result_text(id, text_result("cut short"));
    text[strlen(text) - 10] = '\0';
    put_line(s, text);
  } else if (strcmp(name, "deep") == 0) {
    tool_deep(s, id, args);
  } else if (strcmp(name, "blocks") == 0) {
    const char *line =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "stderr"));
    if (line) {
      char *l = xprintf("%s\n", line);
      say(l);
      free(l);
    }
    cJSON *r = cJSON_CreateObject();
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(args, "content");
    cJSON_AddItemToObject(r, "content",
                          cJSON_IsArray(content) ? cJSON_Duplicate(content, 1)
                                                 : cJSON_CreateArray());
    send_result(s, id, r);
  } else if (strcmp(name, "close_stdout") == 0) {
    say("hostile: closing stdout during a call\n");
    close(STDOUT_FILENO);
    s->write_failed = true;
  } else if (strcmp(name, "exit") == 0) {
    int status = (int)num_arg(args, "status", 0);
    send_result(s, id, text_result("exiting"));
    say("hostile: exiting after answering\n");
    _exit(status);
  } else if (s->ntools >= 0 && name[0] == 't' &&
             strspn(name + 1, "0123456789") == 5 && name[6] == '\0' &&
             atol(name + 1) < s->ntools) {
    char *text = xprintf("%s: %s", name, message ? message : "");
    send_result(s, id, text_result(text));
    free(text);
  } else {
    char *text = xprintf("Unknown tool: %s", name);
    send_error(s, id, -32602, text);
    free(text);
  }
}

/* ---- dispatch --------------------------------------------------------- */

static void handle_line(struct server *s, const char *line, size_t len) {
  log_line(s, line, len);
  cJSON *msg = cJSON_ParseWithLength(line, len);
  if (!cJSON_IsObject(msg)) {
    send_error(s, NULL, -32700, "Parse error");
    cJSON_Delete(msg);
    return;
  }
  const char *method =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(msg, "method"));
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
  if (!method) {
    /* A response to a request of ours: we send none. */
  } else if (!id) {
    if (strcmp(method, "notifications/initialized") == 0 && s->modes & M_FLOOD)
      s->flooding = true;
  } else if (strcmp(method, "initialize") == 0) {
    on_initialize(s, id, params);
  } else if (strcmp(method, "ping") == 0) {
    send_result(s, id, cJSON_CreateObject());
  } else if (strcmp(method, "tools/list") == 0) {
    on_tools_list(s, id, params);
  } else if (strcmp(method, "tools/call") == 0) {
    on_tools_call(s, id, params);
  } else if (strcmp(method, "resources/list") == 0 &&
             s->modes & M_NO_TEMPLATES) {
    cJSON *r = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(r, "resources");
    cJSON *one = cJSON_CreateObject();
    cJSON_AddStringToObject(one, "uri", "hostile://only");
    cJSON_AddStringToObject(one, "name", "only");
    cJSON_AddItemToArray(list, one);
    send_result(s, id, r);
  } else {
    send_error(s, id, -32601, "Method not found");
  }
  cJSON_Delete(msg);
}

static void flood_one(struct server *s) {
  char line[160];
  unsigned long n = ++s->flood_sent;
  /* Alternately: a method the host does not know, and progress for a
   * token it never sent. */
  if (n % 2)
    snprintf(line, sizeof line,
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/hostile/"
             "flood\",\"params\":{\"n\":%lu}}\n",
             n);
  else
    snprintf(line, sizeof line,
             "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
             "\"params\":{\"progressToken\":\"hostile-%lu\",\"progress\":"
             "%lu}}\n",
             n, n);
  put(s, line, strlen(line));
  if (n % FLOOD_LOG_EVERY == 0) {
    char note[64];
    int k = snprintf(note, sizeof note, "flood: %lu sent", n);
    log_line(s, note, (size_t)k);
  }
}

/* Reads stdin until end-of-file, handling each complete line; floods in
 * between when asked to. */
static void serve(struct server *s) {
  size_t cap = 64 * 1024, len = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (s->flooding && !s->write_failed) {
      struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
      if (poll(&p, 1, 0) == 0) {
        flood_one(s);
        continue;
      }
    }
    if (cap - len < 4096) {
      cap *= 2;
      char *b = realloc(buf, cap);
      if (!b)
        out_of_memory();
      buf = b;
    }
    ssize_t n = read(STDIN_FILENO, buf + len, cap - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    len += (size_t)n;
    size_t start = 0;
    char *nl;
    while ((nl = memchr(buf + start, '\n', len - start))) {
      size_t l = (size_t)(nl - (buf + start));
      if (l && buf[start + l - 1] == '\r')
        l--;
      if (l)
        handle_line(s, buf + start, l);
      start = (size_t)(nl - buf) + 1;
    }
    memmove(buf, buf + start, len - start);
    len -= start;
  }
  free(buf);
}

/* ---- process ---------------------------------------------------------- */

static void usage(FILE *f) {
  fputs("usage: mcphost-hostile-server [--mode NAME]... [--log FILE]\n"
        "                              [--tools N] [--page-size N] "
        "[--tag TEXT]\n"
        "An MCP server on stdin/stdout that misbehaves on request.\n\n"
        "Modes:\n",
        f);
  for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
    fprintf(f, "  %-20s %s\n", modes[i].name, modes[i].help);
  fputs("\nTools (each misbehaves for its own call only):\n", f);
  for (size_t i = 0; i < sizeof base_tools / sizeof *base_tools; i++)
    fprintf(f, "  %-20s %s\n", base_tools[i].name, base_tools[i].desc);
  fputs("\n  --log FILE      append every line received to FILE\n"
        "  --tools N       list N tools t00000... (each echoes) instead\n"
        "  --page-size N   tools/list pages of N tools\n"
        "  --tag TEXT      ignored: lets a test find this process\n",
        f);
}

static long number_option(const char *opt, const char *v) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || *end || end == v || n < 0) {
    fprintf(stderr, "hostile: %s needs a whole number, not \"%s\"\n", opt, v);
    exit(2);
  }
  return n;
}

int main(int argc, char **argv) {
  struct server s = {.log_fd = -1, .ntools = -1};
  static const struct option longopts[] = {
      {"mode", required_argument, NULL, 'm'},
      {"log", required_argument, NULL, 'l'},
      {"tools", required_argument, NULL, 'n'},
      {"page-size", required_argument, NULL, 'p'},
      {"tag", required_argument, NULL, 't'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
    switch (c) {
    case 'm': {
      unsigned bit = 0;
      for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
        if (strcmp(optarg, modes[i].name) == 0)
          bit = modes[i].bit;
      if (!bit) {
        fprintf(stderr, "hostile: unknown mode \"%s\"\n", optarg);
        usage(stderr);
        return 2;
      }
      s.modes |= bit;
      break;
    }
    case 'l':
      s.log_fd = open(optarg, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
      if (s.log_fd < 0) {
        fprintf(stderr, "hostile: %s: %s\n", optarg, strerror(errno));
        return 2;
      }
      break;
    case 'n': s.ntools = number_option("--tools", optarg); break;
    case 'p': s.page_size = (size_t)number_option("--page-size", optarg); break;
    case 't': break;
    case 'h': usage(stdout); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "hostile: unexpected argument \"%s\"\n", argv[optind]);
    return 2;
  }

  cJSON_Hooks hooks = {.malloc_fn = xmalloc, .free_fn = free};
  cJSON_InitHooks(&hooks);
  signal(SIGPIPE, SIG_IGN); /* a host gone away is a failed write */
  if (s.modes & M_STUBBORN) {
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
  }
  serve(&s);
  while (s.flooding && !s.write_failed)
    flood_one(&s); /* deaf to stdin's end too, until stdout breaks */
  if (s.modes & M_STUBBORN)
    for (;;)
      pause(); /* until SIGKILL */
  if (s.log_fd >= 0)
    close(s.log_fd);
  return 0;
}
