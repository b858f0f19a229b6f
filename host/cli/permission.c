/* The CLI's permission asker (cli.h): what "ask" means on the command
 * line. The rules themselves are the client's (mcp/calls.c). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "terminal_open.h"
#include "cli/cli.h"
#include "config/permissions.h"
#include "core/permission_ask.h"
#include "util.h"

/* One question: waiting for the terminal, or being asked. */
typedef struct cli_ask {
  cli *c;
  perm_ask_params p; /* the strings are the ask's own */
  char *tool, *server, *tool_name, *args, *reason, *description;
  mcp_ask_answer_fn answer;
  void *token;
  perm_ask *ask;
  struct cli_ask *next;
} cli_ask;

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
  a->p = (perm_ask_params){.tool = a->tool,
                           .server = a->server,
                           .tool_name = a->tool_name,
                           .arguments_json = a->args,
                           .reason = a->reason,
                           .description = a->description,
                           .tty_in = tty,
                           .tty_out = stderr,
                           .timeout_ms = tty >= 0 ? 0 : c->request_timeout_ms};
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
