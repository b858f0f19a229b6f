/* Milliseconds from the command line or the environment (env_ms.h). */
#include "env_ms.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_escape.h"

/* Beyond this a deadline added to the clock could overflow (and no
 * double holds it exactly); 2^53 ms is 285,000 years. */
#define MS_MAX (UINT64_C(1) << 53)

bool ms_parse(const char *text, bool zero_ok, uint64_t *ms) {
  if (!text || !*text) {
    return false;
  }
  uint64_t n = 0;
  for (const char *p = text; *p; p++) {
    if (*p < '0' || *p > '9') {
      return false;
    }
    n = n * 10 + (uint64_t)(*p - '0');
    if (n > MS_MAX) {
      return false;
    }
  }
  if (n == 0 && !zero_ok) {
    return false;
  }
  *ms = n;
  return true;
}

/* The variables already warned about: a value read again (a timer's
 * interval, each session's settle time) is not warned about again. */
#define WARNED_MAX 32
static const char *warned[WARNED_MAX];
static size_t nwarned;
static pthread_mutex_t warned_lock = PTHREAD_MUTEX_INITIALIZER;

static bool first_warning(const char *name) {
  bool first = true;
  pthread_mutex_lock(&warned_lock);
  for (size_t i = 0; i < nwarned && first; i++) {
    first = strcmp(warned[i], name) != 0;
  }
  if (first && nwarned < WARNED_MAX) {
    warned[nwarned++] = name; /* the callers' names are literals */
  }
  pthread_mutex_unlock(&warned_lock);
  return first;
}

uint64_t env_ms(const char *name, uint64_t fallback, bool zero_ok,
                bool *given) {
  const char *v = getenv(name);
  uint64_t ms;
  if (given) {
    *given = false;
  }
  if (!v || !*v) {
    return fallback;
  }
  if (!ms_parse(v, zero_ok, &ms)) {
    if (first_warning(name)) {
      char *shown = text_escape(
          v, strlen(v), TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
      fprintf(stderr,
              "mcphost: warning: ignoring %s=\"%s\": not a %s number of "
              "milliseconds; using %llu\n",
              name, shown ? shown : "?", zero_ok ? "whole" : "positive",
              (unsigned long long)fallback);
      free(shown);
    }
    return fallback;
  }
  if (given) {
    *given = true;
  }
  return ms;
}
