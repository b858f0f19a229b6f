#include "json_raw.h"

#include <string.h>

#include "json_parse.h"
#include "json_scan.h"
#include "size_limits.h"
#include "utf8.h"
#include "util.h"

typedef struct cursor {
  const unsigned char *p, *end;
  bool non_ascii; /* a string held a (valid) non-ASCII character */
  bool spaced;    /* whitespace was skipped */
  bool escaped;   /* the last string scanned held an escape */
} cursor;

static bool is_ws(unsigned char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Inlined: most calls skip nothing, one test. */
static inline __attribute__((always_inline)) void skip_ws(cursor *c) {
  if (c->p < c->end && is_ws(*c->p)) {
    c->spaced = true;
    do
      c->p++;
    while (c->p < c->end && is_ws(*c->p));
  }
}

/* The letters of the one-character escapes. */
static const bool simple_escape[256] = {['"'] = true, ['\\'] = true,
                                        ['b'] = true, ['f'] = true, ['n'] = true,
                                        ['r'] = true, ['t'] = true};

/* A string, the cursor on its opening quote. Inlined: a message is
 * mostly short strings, whose call would cost a third of their scan. */
static inline __attribute__((always_inline)) bool string(cursor *c) {
  if (c->p >= c->end || *c->p != '"')
    return false;
  c->p++;
  c->escaped = false;
  for (;;) {
    /* The common case, plain ASCII text, up to whatever ends it. */
    c->p = json_scan_run(c->p, c->end, JSON_SCAN_HIGH);
    if (c->p >= c->end)
      return false;
    unsigned char ch = *c->p++;
    if (ch == '"')
      return true;
    if (ch >= 0x80) {
      /* cJSON prints valid UTF-8 back as it reads it. */
      bool ok;
      size_t k =
          utf8_sequence(c->p - 1, (size_t)(c->end - c->p + 1), &ok, NULL);
      if (!ok)
        return false;
      c->p += k - 1;
      c->non_ascii = true;
      continue;
    }
    if (ch != '\\')
      return false; /* a control character */
    c->escaped = true;
    if (c->p >= c->end)
      return false;
    ch = *c->p++;
    if (ch == 'u') {
      /* Only as cJSON writes them: a control character without a short
       * form, in lower-case hex; U+0000 too, which the tree holds as
       * C0 80 and json_write writes back as \u0000. */
      if (c->end - c->p < 4)
        return false;
      int v = 0;
      for (int i = 0; i < 4; i++) {
        int h = hex_digit(c->p[i]);
        if (h < 0 || (c->p[i] >= 'A' && c->p[i] <= 'F'))
          return false;
        v = v * 16 + h;
      }
      if (v > 0x1F || v == '\b' || v == '\t' || v == '\n' || v == '\f' ||
          v == '\r')
        return false;
      c->p += 4;
    } else if (!simple_escape[ch]) {
      return false;
    }
  }
}

/* Any number token: the tree keeps a token whose double would print
 * otherwise, so json_write gives every one back as it came
 * (json_parse.h). */
static bool number(cursor *c) {
  const unsigned char *start = c->p;
  while (c->p < c->end &&
         ((*c->p >= '0' && *c->p <= '9') || *c->p == '-' || *c->p == '+' ||
          *c->p == '.' || *c->p == 'e' || *c->p == 'E'))
    c->p++;
  return json_is_number_token((const char *)start, (size_t)(c->p - start));
}

static bool word(cursor *c, const char *w) {
  size_t n = strlen(w);
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0)
    return false;
  c->p += n;
  return true;
}

/* One value, iteratively: `open` holds the containers entered, '{' or
 * '['. */
static bool value(cursor *c, int max_depth) {
  char open[JSON_RAW_MAX_DEPTH];
  int depth = 0;
  if (max_depth > JSON_RAW_MAX_DEPTH)
    max_depth = JSON_RAW_MAX_DEPTH;
  for (;;) {
    skip_ws(c);
    if (c->p >= c->end)
      return false;
    unsigned char ch = *c->p;
    if (ch == '{' || ch == '[') {
      if (depth >= max_depth)
        return false;
      open[depth++] = (char)ch;
      c->p++;
      skip_ws(c);
      if (c->p < c->end && *c->p == (ch == '{' ? '}' : ']')) {
        c->p++;
        depth--; /* empty: on to what follows it */
      } else if (ch == '{') {
        if (!string(c))
          return false;
        skip_ws(c);
        if (c->p >= c->end || *c->p != ':')
          return false;
        c->p++;
        continue; /* the member's value */
      } else {
        continue; /* the first element */
      }
    } else if (ch == '"') {
      if (!string(c))
        return false;
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
      if (!number(c))
        return false;
    } else if (!word(c, "true") && !word(c, "false") && !word(c, "null")) {
      return false;
    }
    /* After a value: a separator, or the end of containers. */
    for (;;) {
      if (depth == 0)
        return true; /* what follows is the caller's */
      skip_ws(c);
      if (c->p >= c->end)
        return false;
      char in = open[depth - 1];
      if (*c->p == ',') {
        c->p++;
        if (in == '{') {
          skip_ws(c);
          if (!string(c))
            return false;
          skip_ws(c);
          if (c->p >= c->end || *c->p != ':')
            return false;
          c->p++;
        }
        break; /* the next value */
      }
      if (*c->p != (in == '{' ? '}' : ']'))
        return false;
      c->p++;
      depth--;
    }
  }
}

/* Whether the key just scanned (quotes included) is `name`. */
static bool key_is(const unsigned char *k, size_t n, const char *name) {
  size_t m = strlen(name);
  return n == m + 2 && memcmp(k + 1, name, m) == 0;
}

static bool integer_id(const unsigned char *s, size_t n, int64_t *id) {
  bool neg = n > 0 && s[0] == '-';
  size_t i = neg;
  if (i == n || n - i > 18)
    return false; /* empty, or beyond what is sure to fit */
  int64_t v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return false;
    v = v * 10 + (s[i] - '0');
  }
  if (neg && v == 0)
    return false; /* -0: no id we wrote (the number scan took any token) */
  *id = neg ? -v : v;
  return true;
}

bool json_raw_response(const char *s, size_t len, int64_t *id,
                       size_t *result_off, size_t *result_len, bool *ascii,
                       bool *compact) {
  cursor c = {(const unsigned char *)s, (const unsigned char *)s + len, false,
              false, false};
  bool have_id = false, have_result = false;
  skip_ws(&c);
  if (c.p >= c.end || *c.p != '{')
    return false;
  c.p++;
  skip_ws(&c);
  if (c.p < c.end && *c.p == '}')
    return false; /* an empty object is no response */
  for (;;) {
    skip_ws(&c);
    const unsigned char *k = c.p;
    if (!string(&c))
      return false;
    size_t klen = (size_t)(c.p - k);
    if (c.escaped)
      return false; /* "\u0069d" is "id": the ordinary path decodes it */
    skip_ws(&c);
    if (c.p >= c.end || *c.p != ':')
      return false;
    c.p++;
    skip_ws(&c);
    const unsigned char *v = c.p;
    c.spaced = false;
    if (!value(&c, JSON_RAW_MAX_DEPTH - 1))
      return false;
    size_t vlen = (size_t)(c.p - v);
    if (key_is(k, klen, "id")) {
      if (have_id || !integer_id(v, vlen, id))
        return false;
      have_id = true;
    } else if (key_is(k, klen, "result")) {
      if (have_result)
        return false;
      have_result = true;
      *result_off = (size_t)(v - (const unsigned char *)s);
      *result_len = vlen;
      *compact = !c.spaced;
    } else if (key_is(k, klen, "error") || key_is(k, klen, "method")) {
      return false;
    }
    skip_ws(&c);
    if (c.p >= c.end)
      return false;
    if (*c.p == ',') {
      c.p++;
      continue;
    }
    if (*c.p != '}')
      return false;
    c.p++;
    break;
  }
  skip_ws(&c);
  *ascii = !c.non_ascii;
  return c.p == c.end && have_id && have_result;
}

size_t json_raw_value(const char *s, size_t len, int max_depth) {
  cursor c = {(const unsigned char *)s, (const unsigned char *)s + len, false,
              false, false};
  return value(&c, max_depth) ? (size_t)(c.p - (const unsigned char *)s) : 0;
}

size_t json_raw_minify(const char *s, size_t len, char *dst) {
  size_t o = 0;
  for (size_t i = 0; i < len;) {
    char ch = s[i];
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
      i++;
      continue;
    }
    if (ch != '"') {
      dst[o++] = s[i++];
      continue;
    }
    /* A string, copied whole: find its closing quote. */
    size_t start = i++;
    for (;;) {
      const char *q = memchr(s + i, '"', len - i);
      if (!q) {
        i = len;
        break;
      }
      size_t at = (size_t)(q - s);
      size_t bs = 0; /* backslashes right before it */
      while (at - bs > start && s[at - bs - 1] == '\\')
        bs++;
      i = at + 1;
      if (bs % 2 == 0)
        break;
    }
    memmove(dst + o, s + start, i - start); /* dst may be s itself */
    o += i - start;
  }
  return o;
}
