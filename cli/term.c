/* What the terminal allows (cli.h): colour, its width, text wrapped to
 * it. The one place that decides whether output is coloured: every
 * command that colours asks cli_colour and paints with cli_paint. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "display_width.h"
#include "text_escape.h"

/* Without a terminal, text is wrapped to this width. */
#define DEFAULT_COLS 80

bool cli_colour(int fd) {
  /* https://no-color.org: a NO_COLOR that is set and not empty turns
   * colour off, whatever else is said. */
  const char *no = getenv("NO_COLOR");
  if (no && *no) {
    return false;
  }
  const char *term = getenv("TERM");
  if (term && strcmp(term, "dumb") == 0) {
    return false;
  }
  return isatty(fd) == 1;
}

/* SGR sequences by style: bold red for a match (as grep), green and red
 * for a state, bold for a heading, dim for what is less important. */
static const char *sgr(cli_style s) {
  switch (s) {
  case CLI_STYLE_MATCH: return "\033[1;31m";
  case CLI_STYLE_GOOD: return "\033[32m";
  case CLI_STYLE_BAD: return "\033[31m";
  case CLI_STYLE_HEAD: return "\033[1m";
  case CLI_STYLE_DIM: return "\033[2m";
  }
  return "";
}

void cli_paint(strbuf *out, bool on, cli_style s, const char *text,
               size_t len) {
  if (on && len) {
    sb_adds(out, sgr(s));
  }
  sb_add(out, text, len);
  if (on && len) {
    sb_adds(out, "\033[0m");
  }
}

unsigned cli_term_cols(int fd) {
  unsigned cols = 0, rows = 0;
  if (!term_size(fd, &cols, &rows) || cols < 20) {
    return 0;
  }
  return cols;
}

char *cli_esc_lines(const cli *c, const char *s) {
  char *e = NULL;
  if (mcphost_display_text(s, s ? strlen(s) : 0,
                           (int)cli_option_value(c, "sanitize"), 0, &e, NULL,
                           NULL) != MCPHOST_OK) {
    abort(); /* out of memory, as xmalloc */
  }
  return e;
}

static const char blanks[] = " \t\r\n\v\f";

/* `s` past its blanks. Not strspn(), nor strcspn() below: see
 * common/trusted_fs.c's past_slashes(). */
static const char *past_blanks(const char *s) {
  while (*s && strchr(blanks, *s)) {
    s++;
  }
  return s;
}

const char *cli_first_line(const char *desc, size_t *len, bool *more) {
  *len = 0;
  *more = false;
  if (!desc) {
    return NULL;
  }
  const char *first = past_blanks(desc);
  if (!*first) {
    return NULL;
  }
  size_t n = (size_t)(strchrnul(first, '\n') - first);
  const char *rest = first + n;
  while (n > 0 && strchr(blanks, first[n - 1])) {
    n--;
  }
  *len = n;
  *more = *past_blanks(rest) != '\0';
  return first;
}

void cli_print_wrapped(const char *text, size_t indent, size_t cols) {
  if (cols == 0) {
    cols = DEFAULT_COLS;
  }
  size_t room = cols > indent + 20 ? cols - indent : 20;
  for (const char *line = text; line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    size_t used = 0;
    bool started = false;
    const char *p = line, *end = line + len;
    printf("%*s", (int)indent, "");
    while (p < end) {
      while (p < end && *p == ' ') {
        p++;
      }
      const char *w = p;
      while (p < end && *p != ' ') {
        p++;
      }
      if (p == w) {
        break;
      }
      size_t wl = display_width(w, (size_t)(p - w));
      if (started && used + 1 + wl > room) {
        printf("\n%*s", (int)indent, "");
        used = 0;
        started = false;
      }
      printf("%s%.*s", started ? " " : "", (int)(p - w), w);
      used += wl + (started ? 1 : 0);
      started = true;
    }
    putchar('\n');
    line = nl ? nl + 1 : NULL;
  }
}

/* The character type only, and always a UTF-8 one: the person's when it
 * is UTF-8, else C.UTF-8. The shell's line editor (libedit) hands a line
 * back in LC_CTYPE's encoding, and in the "C" locale it dropped every
 * character beyond ASCII; mcphost's text is UTF-8 throughout, so UTF-8
 * is the one encoding that fits, whatever LANG says. A UTF-8 LC_CTYPE
 * classifies no byte above 0x7f (isalpha, tolower leave UTF-8 alone) and
 * makes regex patterns (grep) match characters, not bytes. Only the
 * commands that read typed text or match patterns set it (the shell,
 * grep): loading a locale costs every other command 60 K instructions
 * and 260 KiB resident for nothing. It is set before the command's own
 * work starts; no thread of mcphost or its plugins reads the locale.
 * LC_NUMERIC and the rest stay "C", so no number is ever written or read
 * with a locale's decimal comma. */
void cli_utf8_ctype(void) {
  static bool done;
  if (done) {
    return;
  }
  done = true;
  if (setlocale(LC_CTYPE, "") && strcmp(nl_langinfo(CODESET), "UTF-8") == 0) {
    return;
  }
  if (!setlocale(LC_CTYPE, "C.UTF-8")) {
    setlocale(LC_CTYPE, "C");
  }
}
