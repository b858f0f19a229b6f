/*
 * Asking a person on /dev/tty without blocking the host's loop.
 *
 * The terminal stays in its normal (canonical) mode, so the kernel does
 * the line editing; the plugin reads whole lines from a non-blocking fd
 * watched by the loop, and drives a small state machine per elicitation:
 *
 *   form:  field 1 .. field N  ->  summary  ->  accept | decline | cancel
 *   url:   message, URL, host  ->  open? (y: open, accept | n | c)
 *
 * Each field shows its title, description, kind, limits and default, and
 * is asked again, with the reason, until the answer is valid. At any
 * prompt ":decline" and ":cancel" end the elicitation, ":back" goes one
 * field back, ":skip" leaves an optional field out, ":help" lists these;
 * Ctrl-D (end of input) cancels. "::x" is the literal text ":x".
 *
 * Questions from several servers wait in a queue: one at a time. Output
 * is buffered and written when the terminal takes it. Every string from a
 * server passes text_clean() before it reaches the terminal, so that it
 * cannot move the cursor, retitle the window or reorder text.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* vasprintf */
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "terminal_open.h"
#include "elicit.h"

#define LINE_MAX_BYTES 8192

enum tty_state { TS_FIELD, TS_SUMMARY, TS_URL };

struct tty_ui {
  elicit_plugin *pl;
  int fd; /* /dev/tty, or -1 */
  mcph_watch *watch;
  unsigned events;
  char *out;
  size_t out_len, out_cap;
  char in[LINE_MAX_BYTES];
  size_t in_len;
  bool discarding; /* the rest of a line that was too long */
  elicitation *cur;
  elicitation *queue; /* waiting, linked by tty_next */
  int state;
  size_t field;
  cJSON *values; /* the content so far */
};

/* ---- output ---- */

static void flush(tty_ui *t);

static void put(tty_ui *t, const char *s, size_t len) {
  if (t->out_len + len + 1 > t->out_cap) {
    t->out_cap = (t->out_len + len + 1) * 2;
    char *bigger = xrealloc(t->out, t->out_cap);
    t->out = bigger;
  }
  memcpy(t->out + t->out_len, s, len);
  t->out_len += len;
}

static void say(tty_ui *t, const char *fmt, ...) MCPH_PRINTF(2, 3);
static void say(tty_ui *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0)
    abort();
  put(t, s, (size_t)n);
  free(s);
}

/* Server text, cleaned. */
static void say_text(tty_ui *t, const char *s, bool multiline) {
  char *c = text_clean(s ? s : "", multiline);
  put(t, c, strlen(c));
  free(c);
}

static void set_events(tty_ui *t, unsigned events) {
  if (t->watch && events != t->events &&
      t->pl->host->fd_update(t->pl->host, t->watch, events) == 0)
    t->events = events;
}

static void tty_close(tty_ui *t) {
  if (t->watch)
    t->pl->host->fd_unwatch(t->pl->host, t->watch);
  t->watch = NULL;
  if (t->fd >= 0)
    close(t->fd);
  t->fd = -1;
  t->out_len = t->in_len = 0;
  t->discarding = false;
}

static void flush(tty_ui *t) {
  while (t->fd >= 0 && t->out_len) {
    ssize_t n = write(t->fd, t->out, t->out_len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && errno == EAGAIN)
      break;
    if (n <= 0) { /* the terminal is gone */
      t->out_len = 0;
      break;
    }
    memmove(t->out, t->out + n, t->out_len - (size_t)n);
    t->out_len -= (size_t)n;
  }
  bool busy = t->cur || t->queue;
  if (!busy && !t->out_len) {
    tty_close(t); /* idle: nothing typed now is meant for us */
    return;
  }
  set_events(t, (busy ? MCPH_FD_READ : 0) | (t->out_len ? MCPH_FD_WRITE : 0));
}

/* ---- prompts ---- */

static void show_choices(tty_ui *t, const field *f) {
  for (size_t i = 0; i < f->nchoices; i++) {
    say(t, "    %zu) ", i + 1);
    if (f->choices[i].title) {
      say_text(t, f->choices[i].title, false);
      say(t, " (");
      say_text(t, f->choices[i].value, false);
      say(t, ")\n");
    } else {
      say_text(t, f->choices[i].value, false);
      say(t, "\n");
    }
  }
}

static void range(tty_ui *t, const char *what, long lo, long hi) {
  if (lo >= 0 && hi >= 0)
    say(t, ", %ld to %ld %s", lo, hi, what);
  else if (lo >= 0)
    say(t, ", at least %ld %s", lo, what);
  else if (hi >= 0)
    say(t, ", at most %ld %s", hi, what);
}

static void show_hint(tty_ui *t, const field *f) {
  static const char *const formats[] = {
      "text", "an email address", "a URI (e.g. https://example.com)",
      "a date (YYYY-MM-DD)", "a date and time (YYYY-MM-DDTHH:MM:SSZ)"};
  say(t, "  ");
  switch (f->kind) {
  case FIELD_STRING:
    say(t, "%s", formats[f->format]);
    range(t, "characters", f->min_len, f->max_len);
    break;
  case FIELD_NUMBER:
  case FIELD_INTEGER:
    say(t, "%s", f->kind == FIELD_NUMBER ? "a number" : "a whole number");
    if (f->has_min && f->has_max)
      say(t, " from %g to %g", f->min, f->max);
    else if (f->has_min)
      say(t, ", at least %g", f->min);
    else if (f->has_max)
      say(t, ", at most %g", f->max);
    break;
  case FIELD_BOOLEAN: say(t, "y or n"); break;
  case FIELD_ENUM: say(t, "one choice: its number or value"); break;
  case FIELD_MULTI:
    say(t, "choices, separated by commas: numbers or values");
    range(t, "choices", f->min_items, f->max_items);
    break;
  }
  if (f->def) {
    char *d = value_show(f, f->def);
    say(t, "; Enter keeps ");
    say_text(t, d, false);
    free(d);
  } else if (!f->required) {
    say(t, "; Enter leaves it out");
  }
  say(t, "\n");
}

static void prompt_field(tty_ui *t) {
  const form *fm = &t->cur->form;
  const field *f = &fm->fields[t->field];
  say(t, "\n[%zu/%zu] ", t->field + 1, fm->nfields);
  say_text(t, f->title ? f->title : f->name, false);
  if (f->title && strcmp(f->title, f->name) != 0) {
    say(t, " (");
    say_text(t, f->name, false);
    say(t, ")");
  }
  say(t, "%s\n", f->required ? " [required]" : "");
  if (f->description) {
    say(t, "  ");
    say_text(t, f->description, false);
    say(t, "\n");
  }
  if (f->kind == FIELD_ENUM || f->kind == FIELD_MULTI)
    show_choices(t, f);
  show_hint(t, f);
  const cJSON *now = cJSON_GetObjectItemCaseSensitive(t->values, f->name);
  if (now) { /* came back with :back */
    char *v = value_show(f, now);
    say(t, "  (was ");
    say_text(t, v, false);
    say(t, ")\n");
    free(v);
  }
  say(t, "> ");
}

static void prompt_summary(tty_ui *t) {
  const form *fm = &t->cur->form;
  say(t, "\nYour answers for \"");
  say_text(t, t->cur->server_name, false);
  say(t, "\":\n");
  for (size_t i = 0; i < fm->nfields; i++) {
    const field *f = &fm->fields[i];
    char *v =
        value_show(f, cJSON_GetObjectItemCaseSensitive(t->values, f->name));
    say(t, "  ");
    say_text(t, f->title ? f->title : f->name, false);
    say(t, ": ");
    say_text(t, v, false);
    say(t, "\n");
    free(v);
  }
  say(t, "Send them? a = accept, d = decline, c = cancel%s\n> ",
      fm->nfields ? ", b = back" : "");
}

static void begin(tty_ui *t) {
  elicitation *e = t->cur;
  say(t, "\n== \"");
  say_text(t, e->server_name, false);
  say(t, "\" %s ==\n",
      e->url_mode ? "asks you to open a URL" : "asks for information");
  if (e->message && *e->message) {
    say_text(t, e->message, true);
    say(t, "\n");
  }
  if (e->url_mode) {
    t->state = TS_URL;
    say(t, "  URL:  %s\n  Host: %s%s\n", e->url, e->url_host,
        strncmp(e->url, "http:", 5) == 0 ? "  (http: not encrypted)" : "");
    say(t, "Open it in your browser? y = open, n = decline, c = cancel\n> ");
    return;
  }
  t->values = cJSON_CreateObject();
  if (!t->values)
    abort();
  t->field = 0;
  say(t, "(Enter keeps the default; :back, :skip, :decline, :cancel, :help; "
         "Ctrl-D cancels)\n");
  if (e->form.nfields == 0) {
    t->state = TS_SUMMARY;
    prompt_summary(t);
  } else {
    t->state = TS_FIELD;
    prompt_field(t);
  }
}

/* Starts the next waiting elicitation, if any. */
static void next(tty_ui *t) {
  if (!t->cur && t->queue) {
    t->cur = t->queue;
    t->queue = t->cur->tty_next;
    t->cur->tty_next = NULL;
    begin(t);
  }
  flush(t);
}

/* The person answered: hand it on and go to the next question. */
static void answer(tty_ui *t, const char *action, cJSON *content) {
  elicitation *e = t->cur;
  t->cur = NULL;
  e->on_tty = false;
  cJSON *a = flow_action(action);
  if (content)
    cJSON_AddItemToObject(a, "content", content);
  cJSON_Delete(t->values);
  t->values = NULL;
  say(t, "(you answered: %s)\n", action);
  flow_answer(e, a);
  next(t);
}

/* ---- input ---- */

static void on_field(tty_ui *t, const char *line) {
  const field *f = &t->cur->form.fields[t->field];
  if (strcmp(line, ":skip") == 0) {
    if (f->required) {
      say(t, "  ! this field is required; type a value, or :decline / "
             ":cancel\n> ");
      return;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(t->values, f->name);
  } else if (!*line) {
    cJSON_DeleteItemFromObjectCaseSensitive(t->values, f->name);
    if (f->def) {
      cJSON *d = cJSON_Duplicate(f->def, true);
      if (!d)
        abort();
      cJSON_AddItemToObject(t->values, f->name, d);
    } else if (f->required) {
      say(t, "  ! this field is required; type a value, or :decline / "
             ":cancel\n> ");
      return;
    }
  } else {
    char why[300];
    const char *text = line[0] == ':' && line[1] == ':' ? line + 1 : line;
    cJSON *v = value_from_input(f, text, why, sizeof why);
    if (!v) {
      say(t, "  ! %s; try again\n> ", why);
      return;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(t->values, f->name);
    cJSON_AddItemToObject(t->values, f->name, v);
  }
  if (++t->field < t->cur->form.nfields) {
    prompt_field(t);
  } else {
    t->state = TS_SUMMARY;
    prompt_summary(t);
  }
}

static bool is(const char *line, const char *a, const char *b, const char *c) {
  return strcmp(line, a) == 0 || strcmp(line, b) == 0 ||
         (c && strcmp(line, c) == 0);
}

static void on_url(tty_ui *t, const char *line) {
  elicitation *e = t->cur;
  if (is(line, "y", "yes", "open")) {
    char why[300];
    if (url_open(t->pl, e->server_name, e->url, why, sizeof why) == 0)
      say(t, "Opened in your browser.\n");
    else
      say(t, "Could not open a browser (%s).\nOpen the URL yourself: %s\n", why,
          e->url);
    answer(t, "accept", NULL);
  } else if (is(line, "n", "no", "decline")) {
    answer(t, "decline", NULL);
  } else if (is(line, "c", "cancel", NULL)) {
    answer(t, "cancel", NULL);
  } else {
    say(t, "  ! y opens the URL, n declines, c cancels\n> ");
  }
}

static void on_line(tty_ui *t, char *line) {
  size_t len = strlen(line);
  if (len && line[len - 1] == '\r')
    line[--len] = '\0';
  if (strcmp(line, ":decline") == 0) {
    answer(t, "decline", NULL);
  } else if (strcmp(line, ":cancel") == 0) {
    answer(t, "cancel", NULL);
  } else if (strcmp(line, ":help") == 0) {
    say(t, "  Enter        keep the default (leave out an optional field)\n"
           "  :back        go back one field\n"
           "  :skip        leave out this optional field\n"
           "  :decline     decline: send nothing\n"
           "  :cancel      cancel: send nothing, make no choice\n"
           "  Ctrl-D       cancel\n"
           "  ::text       the text \":text\"\n> ");
  } else if (t->state == TS_URL) {
    on_url(t, line);
  } else if (strcmp(line, ":back") == 0 ||
             (t->state == TS_SUMMARY && is(line, "b", "back", NULL))) {
    if (t->state == TS_SUMMARY && t->cur->form.nfields) {
      t->state = TS_FIELD;
      t->field = t->cur->form.nfields - 1;
    } else if (t->state == TS_FIELD && t->field > 0) {
      t->field--;
    }
    if (t->state == TS_FIELD)
      prompt_field(t);
    else
      prompt_summary(t);
  } else if (t->state == TS_SUMMARY) {
    if (is(line, "a", "accept", "y")) {
      cJSON *content = t->values;
      t->values = NULL;
      answer(t, "accept", content);
    } else if (is(line, "d", "decline", "n")) {
      answer(t, "decline", NULL);
    } else if (is(line, "c", "cancel", NULL)) {
      answer(t, "cancel", NULL);
    } else {
      say(t, "  ! a accepts, d declines, c cancels%s\n> ",
          t->cur->form.nfields ? ", b goes back" : "");
    }
  } else if (line[0] == ':' && line[1] != ':') {
    say(t, "  ! unknown command %s; :help lists them\n> ",
        strlen(line) < 20 ? line : "");
  } else {
    on_field(t, line);
  }
}

/* The terminal closed or hit end of input: cancel what is asked. */
static void lost(tty_ui *t, bool hung_up) {
  if (t->cur)
    answer(t, "cancel", NULL);
  if (hung_up) {
    while (t->cur || t->queue) {
      if (!t->cur)
        next(t);
      if (t->cur)
        answer(t, "cancel", NULL);
    }
    tty_close(t);
  }
}

static void on_tty(void *ud, int fd, unsigned events) {
  tty_ui *t = ud;
  if (!t->cur) { /* idle: only output is left to write */
    if (events & (MCPH_FD_HUP | MCPH_FD_ERROR))
      t->out_len = 0;
    flush(t);
    return;
  }
  if (events & MCPH_FD_WRITE)
    flush(t);
  if (!(events & (MCPH_FD_READ | MCPH_FD_HUP | MCPH_FD_ERROR)))
    return;
  char buf[1024];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  if (n <= 0) { /* Ctrl-D at the start of a line, or the terminal left */
    say(t, "\n");
    lost(t, n < 0 || (events & (MCPH_FD_HUP | MCPH_FD_ERROR)));
    return;
  }
  for (ssize_t i = 0; i < n; i++) {
    if (buf[i] != '\n') {
      if (t->in_len + 1 < sizeof t->in)
        t->in[t->in_len++] = buf[i];
      else
        t->discarding = true;
      continue;
    }
    t->in[t->in_len] = '\0';
    t->in_len = 0;
    if (t->discarding) {
      t->discarding = false;
      say(t, "  ! that line is too long; try again\n> ");
    } else if (t->cur) {
      on_line(t, t->in);
    }
    /* Lines typed ahead belong to the next question, which has its own
     * prompt; anything left after the last question is dropped. */
  }
  flush(t);
}

/* ---- the interface ---- */

static bool tty_open(tty_ui *t) {
  if (t->fd >= 0)
    return true;
  t->fd = terminal_open(O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (t->fd < 0)
    return false;
  t->events = MCPH_FD_READ;
  if (t->pl->host->fd_watch(t->pl->host, t->fd, t->events, on_tty, t,
                            &t->watch) != 0) {
    close(t->fd);
    t->fd = -1;
    return false;
  }
  return true;
}

static tty_ui *ui(elicit_plugin *pl) {
  if (!pl->tty) {
    pl->tty = xcalloc(1, sizeof *pl->tty);
    pl->tty->pl = pl;
    pl->tty->fd = -1;
  }
  return pl->tty;
}

bool tty_available(elicit_plugin *pl) {
  if (!pl->svc->interactive(pl->host))
    return false;
  tty_ui *t = ui(pl);
  if (t->fd >= 0)
    return true;
  int fd = terminal_open(O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return false;
  close(fd);
  return true;
}

bool tty_ask(elicit_plugin *pl, elicitation *e) {
  tty_ui *t = ui(pl);
  if (!tty_open(t))
    return false;
  e->on_tty = true;
  elicitation **pp = &t->queue;
  while (*pp)
    pp = &(*pp)->tty_next;
  *pp = e;
  if (t->cur) {
    say(t, "\n(\"");
    say_text(t, e->server_name, false);
    say(t, "\" has a question too; it comes next)\n> ");
  }
  next(t);
  return true;
}

void tty_withdraw(elicit_plugin *pl, elicitation *e, const char *why) {
  tty_ui *t = pl->tty;
  if (!t || !e->on_tty)
    return;
  e->on_tty = false;
  for (elicitation **pp = &t->queue; *pp; pp = &(*pp)->tty_next)
    if (*pp == e) {
      *pp = e->tty_next;
      e->tty_next = NULL;
      return;
    }
  if (t->cur == e) {
    t->cur = NULL;
    cJSON_Delete(t->values);
    t->values = NULL;
    say(t, "\n(the question from \"");
    say_text(t, e->server_name, false);
    say(t, "\" was withdrawn: %s)\n", why);
    next(t);
  }
}

void tty_withdraw_server(elicit_plugin *pl, const mcph_server *server,
                         const char *why) {
  tty_ui *t = pl->tty;
  if (!t)
    return;
  /* The waiting ones first, so that none of them is started only to be
   * withdrawn at once. */
  for (elicitation **pp = &t->queue; *pp;) {
    elicitation *e = *pp;
    if (e->server == server) {
      *pp = e->tty_next;
      e->tty_next = NULL;
      e->on_tty = false;
    } else {
      pp = &e->tty_next;
    }
  }
  if (t->cur && t->cur->server == server)
    tty_withdraw(pl, t->cur, why);
}

void tty_note(elicit_plugin *pl, const char *server, const char *text) {
  if (!tty_available(pl)) {
    elicit_log(pl, MCPH_LOG_INFO, server, "%s", text);
    return;
  }
  tty_ui *t = ui(pl);
  if (!tty_open(t)) {
    elicit_log(pl, MCPH_LOG_INFO, server, "%s", text);
    return;
  }
  say(t, "\n[\"");
  say_text(t, server, false);
  say(t, "\"] ");
  say_text(t, text, false);
  say(t, "\n%s", t->cur ? "> " : "");
  flush(t);
}

void tty_free(elicit_plugin *pl) {
  tty_ui *t = pl->tty;
  if (!t)
    return;
  tty_close(t);
  cJSON_Delete(t->values);
  free(t->out);
  free(t);
  pl->tty = NULL;
}
