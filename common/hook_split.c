/* Splitting a hook's command line and reading its timeout; see hook.h. */
#include "hook.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/feature.h>

#include "alloc.h"

/* ---- splitting ---- */

void hook_free_argv(char **argv) {
  for (char **p = argv; p && *p; p++)
    free(*p);
  free(argv);
}

char **hook_split(const char *cmd, char *why, size_t n) {
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
    hook_free_argv(argv);
    return NULL;
  }
  return argv;
unclosed:
  free(word);
  hook_free_argv(argv);
  snprintf(why, n, "a quote is not closed in: %.200s", cmd);
  return NULL;
}

/* ---- the timeout ---- */

int hook_parse_timeout(const char *v, uint64_t *ms) {
  if (!v || !*v) {
    return -1;
  }
  char *end = NULL;
  double x = strtod(v, &end);
  double scale = 1000.0;
  if (end && strcmp(end, "ms") == 0) {
    scale = 1.0;
  } else if (!end || (strcmp(end, "s") != 0 && *end != '\0')) {
    return -1;
  }
  if (!(x > 0) || x * scale > 86400000.0) {
    return -1;
  }
  *ms = (uint64_t)(x * scale) ? (uint64_t)(x * scale) : 1;
  return 0;
}

uint64_t hook_timeout_option(const mcph_host *host,
                             const struct mcph_host_features *svc,
                             const char *name, uint64_t default_ms,
                             const char *source) {
  const char *v = svc->option(host, name);
  uint64_t ms = default_ms;
  if (v && *v && hook_parse_timeout(v, &ms) != 0) {
    char line[300];
    snprintf(line, sizeof line,
             "%s \"%.40s\" is not a number of seconds; using %llu", name, v,
             (unsigned long long)(default_ms / 1000));
    host->log(host, MCPH_LOG_WARN, source, line);
    ms = default_ms;
  }
  return ms;
}
