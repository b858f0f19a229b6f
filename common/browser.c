/* Opening a URL in a browser; see browser.h. */
#include "browser.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "proc_spawn.h"
#include "split_words.h"

/* Characters a shell gives a meaning to, percent-encoded when the URL goes
 * into a word with other text: such a word is a command line for a shell,
 * where a URL's '&', ';', '$(', '`' or quote would run commands. What a
 * URL needs and a shell leaves alone inside a word (letters, digits,
 * -._~:/?#[]@%=+, and non-ASCII) stays, so the URL still works; '&' in a
 * query becomes %26, which servers may read as data -- the price of not
 * handing a shell a command. */
static bool shell_safe(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c >= 0x80 ||
         strchr("-._~:/?#[]@%=+,", c) != NULL;
}

/* `url` with shell_safe() characters as they are, the rest as %XX. A new
 * string. */
static char *shell_encoded(const char *url) {
  char *out = xmalloc(strlen(url) * 3 + 1);
  size_t o = 0;
  for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
    if (shell_safe(*p)) {
      out[o++] = (char)*p;
    } else {
      snprintf(out + o, 4, "%%%02X", *p);
      o += 3;
    }
  }
  out[o] = '\0';
  return out;
}

void browser_free_argv(char **argv) {
  split_words_free(argv);
}

char **browser_argv(const char *entry, const char *url, char *why, size_t n) {
  char **argv = NULL;
  size_t argc = 0;
  int rc = split_words(entry, &argv, &argc);
  if (rc != 0 || argc == 0) {
    snprintf(why, n, "the browser command \"%.100s\" %s", entry,
             rc == -2  ? "cannot be split: out of memory"
             : rc != 0 ? "has an unterminated quote"
                       : "is empty");
    split_words_free(argv);
    return NULL;
  }
  bool placed = false;
  for (size_t i = 0; i < argc; i++) {
    char *pct = strstr(argv[i], "%s");
    if (!pct) {
      continue;
    }
    /* The whole word: one argument, no shell in the way. */
    bool alone = strcmp(argv[i], "%s") == 0;
    char *given = alone ? xstrdup(url) : shell_encoded(url);
    size_t len = strlen(argv[i]) - 2 + strlen(given) + 1;
    char *word = xmalloc(len);
    snprintf(word, len, "%.*s%s%s", (int)(pct - argv[i]), argv[i], given,
             pct + 2);
    free(given);
    free(argv[i]);
    argv[i] = word;
    placed = true;
  }
  if (!placed) {
    argv = xrealloc(argv, (argc + 2) * sizeof *argv);
    argv[argc] = xstrdup(url);
    argv[argc + 1] = NULL;
  }
  return argv;
}

int browser_start(const char *url, pid_t *pid, char **command, char *why,
                  size_t n) {
  const char *env = getenv("BROWSER");
  char *list = xstrdup(env && *env ? env : "xdg-open");
  int rc = -1;
  snprintf(why, n, "no browser command to run");
  char *save = NULL;
  for (char *entry = strtok_r(list, ":", &save); entry && rc != 0;
       entry = strtok_r(NULL, ":", &save)) {
    char **argv = browser_argv(entry, url, why, n);
    if (!argv) {
      continue;
    }
    proc_spec spec = {.argv = argv,
                      .fd = {PROC_FD_NULL, PROC_FD_NULL, PROC_FD_NULL},
                      .new_session = true,
                      .report_fd = -1};
    if (proc_start(&spec, pid, why, n) == 0) {
      if (command) {
        *command = xstrdup(argv[0]);
      }
      rc = 0;
    }
    browser_free_argv(argv);
  }
  free(list);
  return rc;
}
