#include "size_limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "display_width.h"

void limits_default(limits *l) {
  l->name_chars = LIMIT_NAME_CHARS;
  l->description_chars = LIMIT_DESCRIPTION_CHARS;
  l->output_chars = LIMIT_OUTPUT_CHARS;
  l->output_forced = false;
}

/* A whole number in [min, max], or false. */
static bool parse_size(const char *v, size_t min, size_t max, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  if (!*v || errno || *end || v[0] == '-' || n < min || n > max)
    return false;
  *out = (size_t)n;
  return true;
}

#define OUTPUT_CHARS_MAX ((size_t)1 << 40)

bool limits_set_output(limits *l, const char *value) {
  if (!parse_size(value, 0, OUTPUT_CHARS_MAX, &l->output_chars))
    return false;
  l->output_forced = true;
  return true;
}

/* Reads a whole number in [min, max] from `name` into *out; a bad value
 * leaves *out alone and is described in `warn`. */
static bool env_size(const char *name, size_t min, size_t max, size_t *out,
                     strbuf *warn) {
  const char *v = getenv(name);
  if (!v || !*v)
    return false;
  if (!parse_size(v, min, max, out)) {
    sb_printf(warn, "%signoring %s=\"%s\": not a whole number from %zu to %zu",
              warn->len ? "; " : "", name, v, min, max);
    return false;
  }
  return true;
}

char *limits_from_env(limits *l) {
  limits_default(l);
  strbuf warn;
  sb_init(&warn);
  env_size("MCPHOST_MAX_NAME_CHARS", LIMIT_NAME_CHARS_MIN, LIMIT_NAME_CHARS_MAX,
           &l->name_chars, &warn);
  env_size("MCPHOST_MAX_DESCRIPTION_CHARS", 1, (size_t)1 << 40,
           &l->description_chars, &warn);
  l->output_forced = env_size("MCPHOST_MAX_OUTPUT_CHARS", 0, OUTPUT_CHARS_MAX,
                              &l->output_chars, &warn);
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
  size_t len = strlen(desc);
  if (len <= max_chars) /* no more characters than bytes: not counted */
    return NULL;
  size_t cut = utf8_offset(desc, len, max_chars);
  if (cut == len)
    return NULL;
  char *r = xmalloc(cut + sizeof LIMIT_TRUNCATED_SUFFIX);
  memcpy(r, desc, cut);
  memcpy(r + cut, LIMIT_TRUNCATED_SUFFIX, sizeof LIMIT_TRUNCATED_SUFFIX);
  return r;
}

char *limits_cut_to_width(const char *s, size_t width) {
  static const char ellipsis[] = "\xe2\x80\xa6"; /* U+2026 */
  size_t len = strlen(s);
  if (width == 0 || display_width(s, len) <= width)
    return NULL;
  /* Columns, not characters: a CJK character takes two. */
  size_t cut = display_offset(s, len, width - 1);
  size_t floor = display_offset(s, len, (width - 1) - (width - 1) / 3);
  size_t at = cut;
  while (at > floor && s[at] != ' ')
    at--;
  if (s[at] == ' ' && at > 0) {
    cut = at;
  } else {
    /* Mid-word: never inside an escape, which would read wrong. */
    for (size_t k = cut; k > 0 && cut - k < 10; k--) {
      if (s[k - 1] == '>')
        break;
      if (s[k - 1] == '<') {
        cut = k - 1;
        break;
      }
    }
  }
  while (cut > 0 && s[cut - 1] == ' ')
    cut--;
  char *r = xmalloc(cut + sizeof ellipsis);
  memcpy(r, s, cut);
  memcpy(r + cut, ellipsis, sizeof ellipsis);
  return r;
}
