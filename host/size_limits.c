#include "size_limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void limits_default(limits *l) {
  l->name_chars = LIMIT_NAME_CHARS;
  l->description_chars = LIMIT_DESCRIPTION_CHARS;
  l->output_chars = LIMIT_OUTPUT_CHARS;
}

/* Reads a whole number in [min, max] from `name` into *out; a bad value
 * leaves *out alone and is described in `warn`. */
static void env_size(const char *name, size_t min, size_t max, size_t *out,
                     strbuf *warn) {
  const char *v = getenv(name);
  if (!v || !*v)
    return;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (errno || *end || v[0] == '-' || n < min || n > max) {
    sb_printf(warn, "%signoring %s=\"%s\": not a whole number from %zu to %zu",
              warn->len ? "; " : "", name, v, min, max);
    return;
  }
  *out = (size_t)n;
}

char *limits_from_env(limits *l) {
  limits_default(l);
  strbuf warn;
  sb_init(&warn);
  env_size("MCPHOST_MAX_NAME_CHARS", LIMIT_NAME_CHARS_MIN, LIMIT_NAME_CHARS_MAX,
           &l->name_chars, &warn);
  env_size("MCPHOST_MAX_DESCRIPTION_CHARS", 1, (size_t)1 << 40,
           &l->description_chars, &warn);
  env_size("MCPHOST_MAX_OUTPUT_CHARS", 1, (size_t)1 << 40, &l->output_chars,
           &warn);
  return warn.len ? sb_take(&warn) : NULL;
}

size_t utf8_count(const char *s, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    n += ((unsigned char)s[i] & 0xC0) != 0x80;
  return n;
}

size_t utf8_offset(const char *s, size_t len, size_t n) {
  size_t seen = 0;
  for (size_t i = 0; i < len; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80 && seen++ == n)
      return i;
  return len;
}

char *limits_cut_description(const char *desc, size_t max_chars) {
  size_t len = strlen(desc), cut = utf8_offset(desc, len, max_chars);
  if (cut == len)
    return NULL;
  char *r = xmalloc(cut + sizeof LIMIT_TRUNCATED_SUFFIX);
  memcpy(r, desc, cut);
  memcpy(r + cut, LIMIT_TRUNCATED_SUFFIX, sizeof LIMIT_TRUNCATED_SUFFIX);
  return r;
}
