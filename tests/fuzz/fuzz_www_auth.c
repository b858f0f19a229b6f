/* Fuzz target: the WWW-Authenticate parser (transports/common/www_auth.h).
 * The first byte picks a mode. Raw: the bytes are the header value; every
 * part must be a terminated string within its bound, and a part can only
 * be filled when its name is in the value. Round trip: the bytes are up to
 * five values, NUL-separated, written as quoted strings of a Bearer
 * challenge; the parser must give each back exactly (cut at its bound). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "www_auth.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char *const names[] = {"realm", "scope", "error",
                                    "error_description", "resource_metadata"};
#define NPARTS (sizeof names / sizeof names[0])

static const char *part_of(const www_auth *w, size_t i) {
  const char *p[NPARTS] = {w->realm, w->scope, w->error, w->error_description,
                           w->resource_metadata};
  return p[i];
}

static void check_bounds(const www_auth *w) {
  if (memchr(w->scheme, '\0', sizeof w->scheme) == NULL) {
    abort();
  }
  for (size_t i = 0; i < NPARTS; i++) {
    if (memchr(part_of(w, i), '\0', WWW_AUTH_PART_MAX) == NULL) {
      abort();
    }
  }
}

/* Whether `name` occurs in `s`, ignoring case. */
static int mentions(const char *s, const char *name) {
  size_t n = strlen(name);
  for (; *s; s++) {
    if (strncasecmp(s, name, n) == 0) {
      return 1;
    }
  }
  return 0;
}

static void raw(const unsigned char *data, size_t len) {
  char *value = malloc(len + 1);
  memcpy(value, data, len);
  value[len] = '\0';
  www_auth w;
  www_auth_parse(value, &w);
  check_bounds(&w);
  for (size_t i = 0; i < NPARTS; i++) {
    if (part_of(&w, i)[0] && !mentions(value, names[i])) {
      abort();
    }
  }
  mcph_auth_challenge ch;
  www_auth_challenge(&w, 401, "http://127.0.0.1/", value, &ch);
  if ((ch.scheme != NULL) != (w.scheme[0] != '\0') ||
      (ch.scope != NULL) != (w.scope[0] != '\0')) {
    abort();
  }
  free(value);
}

static void round_trip(const unsigned char *data, size_t len) {
  const char *vals[NPARTS] = {0};
  size_t lens[NPARTS] = {0};
  size_t count = 0, at = 0;
  while (count < NPARTS && at <= len) {
    const unsigned char *end = memchr(data + at, '\0', len - at);
    size_t n = end ? (size_t)(end - (data + at)) : len - at;
    vals[count] = (const char *)data + at;
    lens[count++] = n;
    at += n + 1;
  }
  /* Worst case every byte escaped, plus names and separators. */
  char *value = malloc(2 * len + 256);
  size_t k = (size_t)sprintf(value, "Bearer ");
  for (size_t i = 0; i < count; i++) {
    k += (size_t)sprintf(value + k, "%s%s=\"", i ? ", " : "", names[i]);
    for (size_t j = 0; j < lens[i]; j++) {
      if (vals[i][j] == '"' || vals[i][j] == '\\') {
        value[k++] = '\\';
      }
      value[k++] = vals[i][j];
    }
    value[k++] = '"';
  }
  value[k] = '\0';
  www_auth w;
  www_auth_parse(value, &w);
  check_bounds(&w);
  if (strcmp(w.scheme, "Bearer") != 0) {
    abort();
  }
  for (size_t i = 0; i < NPARTS; i++) {
    size_t want = i < count ? lens[i] : 0;
    if (want > WWW_AUTH_PART_MAX - 1) {
      want = WWW_AUTH_PART_MAX - 1;
    }
    const char *got = part_of(&w, i);
    if (strlen(got) != want || (want && memcmp(got, vals[i], want) != 0)) {
      abort();
    }
  }
  free(value);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  if (data[0] & 1) {
    round_trip(data + 1, len - 1);
  } else {
    raw(data + 1, len - 1);
  }
  return 0;
}
