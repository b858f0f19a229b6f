/* Lines from a person (line_edit.h): libedit's readline interface opened
 * with dlopen(), or plain lines. Why dlopen: libedit brings libtinfo and
 * libbsd, which every other command would otherwise load at start-up;
 * and a machine without libedit2 keeps a shell, without editing. */
#include "cli/interactive/line_edit.h"

#include <dlfcn.h>
#include <editline/readline.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* What is used of libedit, looked up by name: functions and the
 * readline interface's global variables. */
typedef struct edit_lib {
  char *(*readline)(const char *);
  int (*add_history)(const char *);
  rl_completion_func_t **attempted;
  int *attempted_over;
  int *append_character;
  const char **basic_breaks;
  char **completer_breaks;
  int *catch_signals;
  int (**getc_function)(FILE *);
  const char **readline_name;
  char **line_buffer;
} edit_lib;

struct line_edit {
  bool edit; /* libedit on a terminal */
  edit_lib lib;
  line_complete_fn complete;
  void *ud;
  char **cand; /* candidates of the completion running */
  char *cand_suffix;
  size_t ncand;
  strbuf in; /* plain mode: what was read and not yet returned */
};

/* The one reader (libedit's readline interface is global). */
static line_edit *current;
/* The signal that arrived while a line was read, or 0. */
static volatile sig_atomic_t got_signal;

static void on_signal(int signo) {
  got_signal = signo;
}

/* Waits until `fd` is readable with SIGINT, SIGTERM and SIGHUP let in.
 * Returns 1 when readable, 0 when a signal came, -1 on error. */
static int wait_input(int fd) {
  sigset_t open;
  sigprocmask(SIG_SETMASK, NULL, &open);
  sigdelset(&open, SIGINT);
  sigdelset(&open, SIGTERM);
  sigdelset(&open, SIGHUP);
  for (;;) {
    if (got_signal) {
      return 0;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int n = ppoll(&p, 1, NULL, &open);
    if (n > 0) {
      return 1;
    }
    if (n < 0 && errno != EINTR) {
      return -1;
    }
  }
}

static int read_byte(int fd) {
  unsigned char b;
  for (;;) {
    ssize_t n = read(fd, &b, 1);
    if (n == 1) {
      return b;
    }
    if (n < 0 && errno == EINTR) {
      continue;
    }
    return -1;
  }
}

/* libedit's character reader: one code point (its readline interface
 * takes what this returns as a whole character, so UTF-8 is decoded
 * here), or -1 (EOF) when a signal came. */
static int edit_getc(FILE *f) {
  int fd = fileno(f);
  if (wait_input(fd) <= 0) {
    return -1;
  }
  int b = read_byte(fd);
  if (b < 0x80) {
    return b;
  }
  int more = b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
  int cp = b & (0x3f >> more);
  for (int i = 0; i < more; i++) {
    int c = read_byte(fd);
    if (c < 0 || (c & 0xc0) != 0x80) {
      return 0xfffd;
    }
    cp = (cp << 6) | (c & 0x3f);
  }
  return more ? cp : 0xfffd;
}

static void candidates_clear(line_edit *le) {
  for (size_t i = 0; i < le->ncand; i++) {
    free(le->cand[i]);
  }
  free(le->cand);
  free(le->cand_suffix);
  le->cand = NULL;
  le->cand_suffix = NULL;
  le->ncand = 0;
}

void line_edit_candidate(line_edit *le, const char *word, char suffix) {
  for (size_t i = 0; i < le->ncand; i++) {
    if (strcmp(le->cand[i], word) == 0) {
      return;
    }
  }
  le->cand = xrealloc(le->cand, (le->ncand + 1) * sizeof *le->cand);
  le->cand_suffix = xrealloc(le->cand_suffix, le->ncand + 1);
  le->cand[le->ncand] = xstrdup(word);
  le->cand_suffix[le->ncand++] = suffix;
}

/* libedit's completion hook: the candidates starting with `text`, in the
 * readline shape (malloc'd; libedit frees them): [0] what replaces the
 * word (the common prefix), then each candidate, then NULL. */
static char **edit_complete(const char *text, int start, int end) {
  line_edit *le = current;
  *le->lib.attempted_over = 1; /* never file names */
  if (!le->complete || start < 0 || end < start) {
    return NULL;
  }
  char *line = xstrndup(*le->lib.line_buffer, (size_t)end);
  candidates_clear(le);
  le->complete(le->ud, le, line, (size_t)start);
  free(line);
  size_t tl = strlen(text), n = 0, common = 0;
  char **m = calloc(le->ncand + 2, sizeof *m);
  if (!m) {
    return NULL;
  }
  char suffix = ' ';
  for (size_t i = 0; i < le->ncand; i++) {
    if (strncmp(le->cand[i], text, tl) != 0) {
      continue;
    }
    if (n == 0) {
      common = strlen(le->cand[i]);
      suffix = le->cand_suffix[i];
    } else {
      size_t k = 0;
      while (k < common && le->cand[i][k] == m[1][k]) {
        k++;
      }
      common = k;
    }
    m[++n] = strdup(le->cand[i]);
  }
  candidates_clear(le);
  if (n == 0) {
    free(m);
    return NULL;
  }
  m[0] = strndup(m[1], common);
  if (n == 1) {
    free(m[1]);
    m[1] = NULL;
    *le->lib.append_character = (unsigned char)suffix;
  } else {
    *le->lib.append_character = ' ';
  }
  return m;
}

#define LOOKUP(field, name)                                                    \
  do {                                                                         \
    *(void **)&l->field = dlsym(h, name);                                      \
    if (!l->field) {                                                           \
      return false;                                                            \
    }                                                                          \
  } while (0)

static bool open_libedit(edit_lib *l) {
  void *h = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    return false;
  }
  LOOKUP(readline, "readline");
  LOOKUP(add_history, "add_history");
  LOOKUP(attempted, "rl_attempted_completion_function");
  LOOKUP(attempted_over, "rl_attempted_completion_over");
  LOOKUP(append_character, "rl_completion_append_character");
  LOOKUP(basic_breaks, "rl_basic_word_break_characters");
  LOOKUP(completer_breaks, "rl_completer_word_break_characters");
  LOOKUP(catch_signals, "rl_catch_signals");
  LOOKUP(getc_function, "rl_getc_function");
  LOOKUP(readline_name, "rl_readline_name");
  LOOKUP(line_buffer, "rl_line_buffer");
  return true; /* never closed: libedit keeps its state across lines */
}

line_edit *line_edit_open(line_complete_fn complete, void *ud) {
  line_edit *le = xcalloc(1, sizeof *le);
  le->complete = complete;
  le->ud = ud;
  sb_init(&le->in);
  current = le;
  struct sigaction sa = {.sa_handler = on_signal};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO) && open_libedit(&le->lib)) {
    le->edit = true;
    *le->lib.readline_name = "mcphost";
    *le->lib.catch_signals = 0; /* signals are ours (wait_input) */
    *le->lib.getc_function = edit_getc;
    *le->lib.attempted = edit_complete;
    /* Words end at blanks only: KEY= and SERVER/TOOL stay one word. */
    *le->lib.basic_breaks = " \t\n";
    *le->lib.completer_breaks = (char *)" \t\n";
  }
  return le;
}

bool line_edit_interactive(const line_edit *le) {
  return le->edit;
}

void line_edit_close(line_edit *le) {
  if (!le) {
    return;
  }
  candidates_clear(le);
  sb_free(&le->in);
  /* The host's signalfd takes the signals again (they stay blocked). */
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  if (current == le) {
    current = NULL;
  }
  free(le);
}

/* Plain mode: the next line of stdin. */
static line_status plain_read(line_edit *le, const char *prompt, char **line) {
  if (prompt && isatty(STDIN_FILENO)) {
    fputs(prompt, stdout);
    fflush(stdout);
  }
  for (;;) {
    char *nl = le->in.len ? memchr(le->in.data, '\n', le->in.len) : NULL;
    if (nl) {
      size_t n = (size_t)(nl - le->in.data);
      *line = xstrndup(le->in.data, n);
      memmove(le->in.data, nl + 1, le->in.len - n - 1);
      le->in.len -= n + 1;
      le->in.data[le->in.len] = '\0';
      return LINE_OK;
    }
    int w = wait_input(STDIN_FILENO);
    if (w == 0) {
      return got_signal == SIGINT ? LINE_INTERRUPTED : LINE_SIGNALLED;
    }
    char buf[4096];
    ssize_t n = w < 0 ? -1 : read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      if (le->in.len == 0) {
        return LINE_EOF;
      }
      *line = sb_take(&le->in); /* a last line without a newline */
      sb_init(&le->in);
      return LINE_OK;
    }
    sb_add(&le->in, buf, (size_t)n);
  }
}

line_status line_edit_read(line_edit *le, const char *prompt, char **line,
                           int *signo) {
  *line = NULL;
  got_signal = 0;
  line_status st;
  if (le->edit) {
    char *got = le->lib.readline(prompt);
    if (got_signal) {
      free(got);
      st = got_signal == SIGINT ? LINE_INTERRUPTED : LINE_SIGNALLED;
      if (st == LINE_INTERRUPTED) {
        fputs("^C\n", stdout);
        fflush(stdout);
      }
    } else if (!got) {
      st = LINE_EOF;
    } else {
      *line = xstrdup(got);
      free(got); /* libedit's malloc */
      st = LINE_OK;
    }
  } else {
    st = plain_read(le, prompt, line);
  }
  *signo = (int)got_signal;
  got_signal = 0;
  return st;
}

void line_edit_history_add(line_edit *le, const char *line) {
  if (le->edit) {
    le->lib.add_history(line);
  }
}
