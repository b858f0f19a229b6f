/* Fuzz target: ${VAR} and ${VAR:-default} expansion
 * (host/config/config_expand.h). The first byte picks a mode:
 *  0 free text, variables set to "" or unset by a hash of their name: the
 *    output is a subsequence of the input (expansion only removes what it
 *    replaces), and every name looked up or reported missing is written
 *    "${NAME" in the input;
 *  1 free text, nothing set: without a ":-" the output is the input;
 *  2 built text P${NAME:-D}S: unset gives P D S, set gives P VALUE S, and a
 *    value is never expanded again.
 * The input is exactly its bytes and a NUL: ASan sees any read past it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_expand.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

typedef struct probe {
  const char *text;
  bool set_all;    /* mode 2: every variable is set */
  unsigned misses; /* missing() calls */
  unsigned refs;   /* "${" in the text */
} probe;

static void check_named(const probe *p, const char *name) {
  size_t n = strlen(name);
  for (const char *s = strstr(p->text, "${"); s; s = strstr(s + 1, "${")) {
    if (strncmp(s + 2, name, n) == 0) {
      return;
    }
  }
  abort();
}

static const char *hash_lookup(void *ud, const char *name) {
  probe *p = ud;
  check_named(p, name);
  unsigned h = 0;
  for (const char *s = name; *s; s++) {
    h = h * 31u + (unsigned char)*s;
  }
  return h & 1 ? "" : NULL;
}

static const char *unset_lookup(void *ud, const char *name) {
  probe *p = ud;
  check_named(p, name);
  return p->set_all ? "${VALUE}" : NULL;
}

static void on_missing(void *ud, const char *name) {
  probe *p = ud;
  check_named(p, name);
  if (++p->misses > p->refs) {
    abort();
  }
}

static unsigned count_refs(const char *s) {
  unsigned n = 0;
  for (s = strstr(s, "${"); s; s = strstr(s + 1, "${")) {
    n++;
  }
  return n;
}

static bool subsequence(const char *sub, const char *of) {
  for (; *sub; sub++, of++) {
    while (*of && *of != *sub) {
      of++;
    }
    if (!*of) {
      return false;
    }
  }
  return true;
}

static char *text_of(const unsigned char *data, size_t len) {
  char *t = malloc(len + 1);
  if (len) {
    memcpy(t, data, len);
  }
  t[len] = '\0';
  return t;
}

static void free_text(const unsigned char *data, size_t len, int mode) {
  char *in = text_of(data, len);
  probe p = {.text = in, .refs = count_refs(in)};
  char *out = expand_vars(in, mode == 0 ? hash_lookup : unset_lookup, &p,
                          on_missing, &p);
  if (!out) {
    abort();
  }
  if (mode == 0 && !subsequence(out, in)) {
    abort();
  }
  if (mode == 1 && !strstr(in, ":-") && strcmp(out, in) != 0) {
    abort();
  }
  free(out);
  free(in);
}

/* Takes bytes from data while `ok`, mapped through `map`. */
static size_t take(const unsigned char **data, size_t *len, char *to,
                   bool (*ok)(unsigned char)) {
  size_t n = 0;
  while (*len && ok(**data)) {
    to[n++] = (char)**data;
    (*data)++;
    (*len)--;
  }
  if (*len) {
    (*data)++; /* the separator */
    (*len)--;
  }
  to[n] = '\0';
  return n;
}

static bool plain(unsigned char c) {
  return c && c != '$' && c != '{' && c != '}';
}

static bool name_byte(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
         (c >= '0' && c <= '9');
}

static void built(const unsigned char *data, size_t len) {
  if (len == 0) {
    return;
  }
  bool set = data[0] & 1;
  data++, len--;
  char *pre = malloc(len + 1), *name = malloc(len + 2), *def = malloc(len + 1);
  char *post = malloc(len + 1);
  take(&data, &len, pre, plain);
  name[0] = 'V';
  take(&data, &len, name + 1, name_byte);
  take(&data, &len, def, plain);
  take(&data, &len, post, plain);
  size_t n = strlen(pre) + strlen(name) + strlen(def) + strlen(post) + 16;
  char *in = malloc(n);
  snprintf(in, n, "%s${%s:-%s}%s", pre, name, def, post);
  probe p = {.text = in, .set_all = set, .refs = count_refs(in)};
  char *out = expand_vars(in, unset_lookup, &p, on_missing, &p);
  char *want = malloc(n + 16);
  snprintf(want, n + 16, "%s%s%s", pre, set ? "${VALUE}" : def, post);
  if (strcmp(out, want) != 0 || p.misses != 0) {
    abort();
  }
  free(want);
  free(out);
  free(in);
  free(pre);
  free(name);
  free(def);
  free(post);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  int mode = data[0] % 3;
  if (mode == 2) {
    built(data + 1, len - 1);
  } else {
    free_text(data + 1, len - 1, mode);
  }
  return 0;
}
