/* The CLI's permission asker (cli.h): what "ask" means on the command
 * line, and its y/N question on the terminal, asked alongside the
 * permission plugins (core/permission_ask.h). The rules themselves are
 * the client's (mcp/calls.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "config/permissions.h"
#include "core/permission_ask.h"
#include "util.h"
#include "json_parse.h"
#include "json_write.h"
#include "size_limits.h"
#include "terminal_open.h"
#include "text_escape.h"

/* One question: waiting for the terminal, or being asked. */
typedef struct cli_ask {
  cli *c;
  perm_ask_params p; /* the strings are the ask's own */
  char *tool, *server, *tool_name, *args, *reason, *description;
  mcp_ask_answer_fn answer;
  void *token;
  perm_ask *ask;
  /* The question on the terminal: read from `tty`, put on stderr. */
  int tty;
  perm_ask_local local;
  loop_watch *tty_watch;
  char line[256];
  size_t line_len;
  struct cli_ask *next;
} cli_ask;

static void on_tty(void *ud, int fd, unsigned events) {
  cli_ask *a = ud;
  char buf[128];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  (void)events;
  bool eof = n <= 0; /* end of input or an error: no answer, so no */
  for (ssize_t i = 0; i < n && a->line_len + 1 < sizeof a->line; i++)
    a->line[a->line_len++] = buf[i];
  a->line[a->line_len] = '\0';
  if (!eof && !memchr(a->line, '\n', a->line_len) &&
      a->line_len + 1 < sizeof a->line)
    return;
  const char *p = a->line + strspn(a->line, " \t");
  bool yes = (p[0] == 'y' || p[0] == 'Y') &&
             (p[1] == '\0' || p[1] == '\n' || strncmp(p + 1, "es", 2) == 0 ||
              strncmp(p + 1, "ES", 2) == 0);
  loop_unwatch(host_loop(a->c->h), a->tty_watch);
  a->tty_watch = NULL;
  perm_ask_local_answer(
      a->ask, yes, yes ? "allowed at the terminal" : "denied at the terminal");
}

/* The arguments as the person answering sees them: indented JSON, with
 * whatever a terminal would obey or hide as \u escapes (the same values),
 * cut to the screen: lines to its width, and as many lines as leave the
 * question in view. */
static void print_arguments(const char *args_json, FILE *out) {
  cJSON *args = json_parse_str(args_json);
  strbuf text;
  sb_init(&text);
  int rc = args ? json_write_pretty(&text, args) : MCPH_EINVAL;
  cJSON_Delete(args);
  if (rc != 0) {
    sb_free(&text);
    return;
  }
  char *safe = text_escape(text.data, text.len,
                           TEXT_ESCAPE_JSON | TEXT_ESCAPE_INVISIBLE, NULL);
  sb_free(&text);
  if (!safe)
    return;
  unsigned cols = 80, rows = 24;
  term_size(fileno(out), &cols, &rows);
  size_t max_lines = rows > 12 ? rows - 6 : 6, width = cols > 12 ? cols - 4 : 8;
  size_t nlines = 1;
  for (const char *p = safe; *p; p++)
    nlines += *p == '\n';
  size_t shown = nlines > max_lines ? max_lines - 1 : nlines;
  fputs("  arguments:\n", out);
  const char *line = safe;
  for (size_t i = 0; i < shown && line; i++) {
    const char *nl = strchr(line, '\n');
    strbuf b; /* cJSON's indenting tabs as two spaces, the others one */
    sb_init(&b);
    sb_add(&b, "", 0);
    const char *end = nl ? nl : line + strlen(line);
    bool lead = true;
    for (const char *p = line; p < end; p++) {
      lead = lead && *p == '\t';
      if (*p == '\t')
        sb_adds(&b, lead ? "  " : " ");
      else
        sb_addc(&b, *p);
    }
    char *cut = limits_cut_to_width(sb_str(&b), width);
    fprintf(out, "    %s\n", cut ? cut : sb_str(&b));
    free(cut);
    sb_free(&b);
    line = nl ? nl + 1 : NULL;
  }
  if (shown < nlines)
    fprintf(out, "    \xe2\x80\xa6 %zu more lines\n", nlines - shown);
  free(safe);
}

/* perm_ask_local: the question on the terminal, when there is one. */
static bool tty_start(void *ud, perm_ask *ask, const perm_ask_params *p) {
  cli_ask *a = ud;
  if (a->tty < 0 || loop_watch_fd(host_loop(a->c->h), a->tty, LOOP_READ, on_tty,
                                  a, &a->tty_watch) != 0) {
    return false;
  }
  a->ask = ask;
  char *reason =
      text_escape(p->reason, strlen(p->reason),
                  TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  fprintf(stderr, "mcphost: run %s? It needs permission: %s\n", p->tool,
          reason ? reason : "");
  free(reason);
  print_arguments(p->arguments_json, stderr);
  fputs("Allow it? [y/N] ", stderr);
  fflush(stderr);
  return true;
}

/* Settled otherwise: the terminal is no longer read and, when the person
 * typed nothing yet, the answer is said under the prompt. */
static void tty_stop(void *ud, const char *why) {
  cli_ask *a = ud;
  loop_unwatch(host_loop(a->c->h), a->tty_watch);
  a->tty_watch = NULL;
  if (why && a->line_len == 0) {
    char *shown = text_escape(
        why, strlen(why), TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
    fprintf(stderr, "\n%s\n", shown ? shown : "");
    free(shown);
  }
}

static void ask_free(cli_ask *a) {
  free(a->tool);
  free(a->server);
  free(a->tool_name);
  free(a->args);
  free(a->reason);
  free(a->description);
  free(a);
}

static void start_next(cli *c);

static void on_answer(void *ud, bool allowed, const char *why) {
  cli_ask *a = ud;
  cli *c = a->c;
  if (c->asking == a) {
    c->asking = NULL;
  }
  mcp_ask_answer_fn answer = a->answer;
  void *token = a->token;
  /* A plugin's reason may quote a server or a channel: the message is
   * escaped where it is printed. */
  char *text = xstrdup(why ? why : "");
  ask_free(a);
  answer(token, allowed, text);
  free(text);
  start_next(c);
}

/* The terminal takes one question at a time (batch may have several). */
static void start_next(cli *c) {
  if (c->asking || !c->asks) {
    return;
  }
  cli_ask *a = c->asks;
  c->asks = a->next;
  c->asking = a;
  a->ask = perm_ask_start(c->h, &a->p, on_answer, a);
}

bool cli_allowed_by_option(const cli *c, const char *q) {
  for (size_t i = 0; i < c->nallow_tools; i++) {
    if (perm_pattern_match(c->allow_tools[i], q)) {
      return true;
    }
  }
  return false;
}

/* The terminal only when both ends are one: the prompt must reach the
 * person who answers it. */
static int choose_tty(cli *c) {
  if (c->ask_tty == -2) {
    c->ask_tty =
        isatty(STDIN_FILENO) && isatty(STDERR_FILENO) ? STDIN_FILENO : -1;
  }
  return c->ask_tty;
}

void cli_ask_on_dev_tty(cli *c) {
  int fd = terminal_open(O_RDONLY | O_CLOEXEC);
  c->ask_tty = fd >= 0 && isatty(STDERR_FILENO) ? fd : -1;
  c->ask_tty_owned = c->ask_tty >= 0;
  if (fd >= 0 && !c->ask_tty_owned) {
    close(fd);
  }
}

static void *ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                       void *token) {
  cli *c = ud;
  if (cli_allowed_by_option(c, q->tool)) {
    answer(token, true, "given by --allow");
    return NULL;
  }
  int tty = choose_tty(c);
  cli_ask *a = xcalloc(1, sizeof *a);
  a->c = c;
  a->tool = xstrdup(q->tool);
  a->server = xstrdup(q->server);
  a->tool_name = xstrdup(q->tool_name);
  a->args = xstrdup(q->arguments_json);
  a->reason = xstrdup(q->reason);
  a->description = q->description ? xstrdup(q->description) : NULL;
  a->answer = answer;
  a->token = token;
  a->tty = tty;
  a->local = (perm_ask_local){.start = tty_start, .stop = tty_stop, .ud = a};
  a->p = (perm_ask_params){.tool = a->tool,
                           .server = a->server,
                           .tool_name = a->tool_name,
                           .arguments_json = a->args,
                           .reason = a->reason,
                           .description = a->description,
                           .timeout_ms = tty >= 0 ? 0 : c->request_timeout_ms,
                           .local = &a->local};
  cli_ask **tail = &c->asks;
  while (*tail) {
    tail = &(*tail)->next;
  }
  *tail = a;
  start_next(c);
  return a;
}

static void ask_cancel(void *ud, void *handle) {
  cli *c = ud;
  cli_ask *a = handle;
  if (c->asking == a) {
    c->asking = NULL;
    perm_ask_cancel(a->ask);
  } else {
    for (cli_ask **p = &c->asks; *p; p = &(*p)->next) {
      if (*p == a) {
        *p = a->next;
        break;
      }
    }
  }
  ask_free(a);
  start_next(c);
}

const mcp_asker *cli_asker(cli *c) {
  c->asker = (mcp_asker){.start = ask_start, .cancel = ask_cancel, .ud = c};
  return &c->asker;
}

void cli_asker_free(cli *c) {
  if (c->ask_tty_owned) {
    close(c->ask_tty);
  }
  c->ask_tty_owned = false;
  c->ask_tty = -2;
}
