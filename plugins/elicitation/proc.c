/* Splitting a command line; see proc.h. */
#include "proc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* ---- splitting ---- */

void proc_free_argv(char **argv) {
  for (char **p = argv; p && *p; p++)
    free(*p);
  free(argv);
}

char **proc_split(const char *cmd, char *why, size_t n) {
  size_t len = strlen(cmd);
  /* No word is longer than the command, and there are at most len/2+1. */
  char **argv = xcalloc(len / 2 + 2, sizeof *argv);
  char *word = xmalloc(len + 1);
  size_t argc = 0, w = 0;
  bool in_word = false;
  const char *p = cmd;
  while (*p) {
    char c = *p++;
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) {
        word[w] = '\0';
        argv[argc++] = xstrdup(word);
        w = 0;
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      while (*p && *p != '\'')
        word[w++] = *p++;
      if (!*p++)
        goto unclosed;
    } else if (c == '"') {
      while (*p && *p != '"') {
        if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
          p++;
        word[w++] = *p++;
      }
      if (!*p++)
        goto unclosed;
    } else if (c == '\\') {
      if (*p)
        word[w++] = *p++;
    } else {
      word[w++] = c;
    }
  }
  if (in_word) {
    word[w] = '\0';
    argv[argc++] = xstrdup(word);
  }
  free(word);
  if (argc == 0) {
    snprintf(why, n, "the command is empty");
    proc_free_argv(argv);
    return NULL;
  }
  return argv;
unclosed:
  free(word);
  proc_free_argv(argv);
  snprintf(why, n, "a quote is not closed in: %.200s", cmd);
  return NULL;
}
