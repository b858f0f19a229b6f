/* The CLI's permission question (cli.h): its y/N on the terminal, one
 * question at a time, as the program's question of the client API
 * (mcphost_options.on_ask), which the library races against the
 * permission plugins. --allow is the API's "allow" option (main.c), and
 * the rules are the client's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json_parse.h"
#include "json_write.h"
#include "size_limits.h"
#include "terminal_open.h"
#include "text_escape.h"
#include "util.h"

/* One question the CLI took: waiting for the terminal, or on it. */
typedef struct cli_ask {
  cli *c; /* the client's maker: its queue */
  uint64_t id;
  char *tool, *args, *reason;
  int tty; /* read from `tty`, put on stderr */
  mcphost_watch *w;
  char line[256];
  size_t line_len;
  struct cli_ask *next;
} cli_ask;

static void ask_free(cli_ask *a) {
  free(a->tool);
  free(a->args);
  free(a->reason);
  free(a);
}

static void start_next(cli *c);

/* The question on the terminal is answered (or settled otherwise): the
 * terminal takes the next. */
static void ask_done(cli_ask *a) {
  cli *c = a->c;
  if (c->asking == a)
    c->asking = NULL;
  if (a->w)
    mcphost_unwatch(c->api, a->w);
  ask_free(a);
  start_next(c);
}

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
  mcphost_ask_answer(a->c->api, a->id, yes,
                     yes ? "allowed at the terminal" : "denied at the terminal",
                     NULL);
  ask_done(a);
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

/* The question on the terminal: false when the terminal cannot be read. */
static bool tty_start(cli_ask *a) {
  if (mcphost_watch_fd(a->c->api, a->tty, MCPHOST_FD_READ, on_tty, a, &a->w,
                       NULL) != MCPHOST_OK) {
    a->w = NULL;
    return false;
  }
  char *reason =
      text_escape(a->reason, strlen(a->reason),
                  TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  fprintf(stderr, "mcphost: run %s? It needs permission: %s\n", a->tool,
          reason ? reason : "");
  free(reason);
  print_arguments(a->args, stderr);
  fputs("Allow it? [y/N] ", stderr);
  fflush(stderr);
  return true;
}

/* The terminal takes one question at a time (batch may have several). */
static void start_next(cli *c) {
  while (!c->asking && c->asks) {
    cli_ask *a = c->asks;
    c->asks = a->next;
    c->asking = a;
    if (!tty_start(a)) {
      mcphost_ask_answer(c->api, a->id, false, "the terminal cannot be read",
                         NULL);
      c->asking = NULL;
      ask_free(a);
    }
  }
}

bool cli_allowed_by_option(const cli *c, const char *q) {
  return mcphost_ask_allowed(c->api, q) != 0;
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

/* `ud` is the cli that made the client; in a session, the command it
 * runs now has the terminal. */
/* The running command's own asker (cli_take_asks), or none. */
static mcphost_ask_fn take_ask;
static mcphost_ask_end_fn take_end;
static void *take_ud;

void cli_take_asks(mcphost_ask_fn ask, mcphost_ask_end_fn end, void *ud) {
  take_ask = ask;
  take_end = end;
  take_ud = ud;
}

int cli_on_ask(void *ud, const mcphost_ask_info *q) {
  cli *c = ud;
  if (take_ask)
    return take_ask(take_ud, q);
  int tty = choose_tty(c->command ? c->command : c);
  if (tty < 0)
    return 0; /* the plugins alone, for the request deadline */
  cli_ask *a = xcalloc(1, sizeof *a);
  a->c = c;
  a->id = q->id;
  a->tool = xstrdup(q->tool);
  a->args = xstrdup(q->arguments_json);
  a->reason = xstrdup(q->reason);
  a->tty = tty;
  if (!c->asking) {
    c->asking = a;
    if (!tty_start(a)) {
      c->asking = NULL;
      ask_free(a);
      return 0;
    }
    return 1;
  }
  cli_ask **tail = &c->asks;
  while (*tail) {
    tail = &(*tail)->next;
  }
  *tail = a;
  return 1;
}

/* Settled otherwise, or withdrawn. On the terminal, it is no longer read
 * and, when the person typed nothing yet, the answer is said under the
 * prompt. */
void cli_on_ask_end(void *ud, uint64_t id, int allowed, const char *why) {
  cli *c = ud;
  if (take_ask) {
    if (take_end)
      take_end(take_ud, id, allowed, why);
    return;
  }
  (void)allowed;
  cli_ask *a = c->asking;
  if (a && a->id == id) {
    if (why && a->line_len == 0) {
      char *shown = text_escape(
          why, strlen(why), TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
      fprintf(stderr, "\n%s\n", shown ? shown : "");
      free(shown);
    }
    ask_done(a);
    return;
  }
  for (cli_ask **p = &c->asks; *p; p = &(*p)->next) {
    if ((*p)->id == id) {
      a = *p;
      *p = a->next;
      ask_free(a);
      return;
    }
  }
}

void cli_asker_free(cli *c) {
  if (c->ask_tty_owned) {
    close(c->ask_tty);
  }
  c->ask_tty_owned = false;
  c->ask_tty = -2;
}
