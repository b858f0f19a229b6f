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

#ifdef __SSE2__
/* Plain text and the one-character escapes of a string, sixteen bytes a
 * step: each step's stops (json_scan_bits) are walked in place, so text
 * with an escape every few words ("\n", "\"") costs about what plain
 * text does. Returns at the closing quote, past it (*done true), or at
 * the first byte that needs string()'s own look (a \u escape, a byte
 * from 0x80, a control character, the last bytes). */
static inline __attribute__((always_inline)) const unsigned char *
escaped_run(const unsigned char *p, const unsigned char *end, bool *escaped,
            bool *done) {
  /* Seventeen bytes: an escape's letter may be the next step's first. */
  while (end - p >= 17) {
    unsigned bits = json_scan_bits(
        _mm_loadu_si128((const __m128i *)(const void *)p), JSON_SCAN_HIGH);
    unsigned step = 16;
    while (bits) {
      unsigned i = (unsigned)__builtin_ctz(bits);
      if (p[i] == '"') {
        *done = true;
        return p + i + 1;
      }
      if (p[i] != '\\' || !simple_escape[p[i + 1]])
        return p + i;
      *escaped = true;
      bits &= ~(3u << i); /* the backslash and its letter */
      if (i == 15)
        step = 17; /* the letter was the next step's first byte */
    }
    p += step;
  }
  return p;
}
#endif

/* A string, the cursor on its opening quote. Inlined: a message is
 * mostly short strings, whose call would cost a third of their scan. */
static inline __attribute__((always_inline)) bool string(cursor *c) {
  if (c->p >= c->end || *c->p != '"')
    return false;
  c->p++;
  c->escaped = false;
  for (;;) {
#ifdef __SSE2__
    bool done = false;
    c->p = escaped_run(c->p, c->end, &c->escaped, &done);
    if (done)
      return true;
#endif
    /* What is left: plain ASCII text up to whatever ends it. */
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

/* Whether the key just scanned (quotes included) is `name`. */
static bool key_is(const unsigned char *k, size_t n, const char *name) {
  size_t m = strlen(name);
  return n == m + 2 && memcmp(k + 1, name, m) == 0;
}

/* The result's own members that its callers look at (json_raw_info):
 * the first of each name counts, as for the tree's lookup. */
typedef struct members {
  bool seen_error, seen_type;
  bool is_error, type_other;
} members;

/* One of the result's own members: key `k` (quoted), its value's text
 * from `v` (a container's first byte only). */
static void member(members *m, const unsigned char *k, size_t klen,
                   const unsigned char *v, size_t vlen) {
  if (!m->seen_error && key_is(k, klen, "isError")) {
    m->seen_error = true;
    m->is_error = vlen == 4 && memcmp(v, "true", 4) == 0;
  } else if (!m->seen_type && key_is(k, klen, "resultType")) {
    m->seen_type = true;
    m->type_other = !(vlen == 10 && memcmp(v, "\"complete\"", 10) == 0);
  }
}

/* A member's key and the ':' after it, the cursor on the key. `own`: a
 * member of the result's own, its key kept in *key as written (quotes
 * included). A key with an escape is never one member() looks for: the
 * escapes taken here decode to '"', '\\' or a control character. */
static inline __attribute__((always_inline)) bool
member_key(cursor *c, bool own, const unsigned char **key, size_t *klen) {
  const unsigned char *k = c->p;
  if (!string(c))
    return false;
  if (own) {
    *key = k;
    *klen = (size_t)(c->p - k);
  }
  skip_ws(c);
  if (c->p >= c->end || *c->p != ':')
    return false;
  c->p++;
  return true;
}

/* One value, iteratively: `open` holds the containers entered, '{' or
 * '['. With `m`, the value's own members, when it is an object, are told
 * to member(). */
static bool value(cursor *c, int max_depth, members *m) {
  char open[JSON_RAW_MAX_DEPTH];
  int depth = 0;
  const unsigned char *key = NULL; /* of the own member being read */
  size_t klen = 0;
  if (max_depth > JSON_RAW_MAX_DEPTH)
    max_depth = JSON_RAW_MAX_DEPTH;
  for (;;) {
    skip_ws(c);
    if (c->p >= c->end)
      return false;
    const unsigned char *v = c->p;
    unsigned char ch = *v;
    if (ch == '{' || ch == '[') {
      if (key) {
        member(m, key, klen, v, 1);
        key = NULL;
      }
      if (depth >= max_depth)
        return false;
      open[depth++] = (char)ch;
      c->p++;
      skip_ws(c);
      if (c->p < c->end && *c->p == (ch == '{' ? '}' : ']')) {
        c->p++;
        depth--; /* empty: on to what follows it */
      } else if (ch == '{') {
        if (!member_key(c, m && depth == 1, &key, &klen))
          return false;
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
    if (key) {
      member(m, key, klen, v, (size_t)(c->p - v));
      key = NULL;
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
          if (!member_key(c, m && depth == 1, &key, &klen))
            return false;
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

bool json_raw_response(const char *s, size_t len, json_raw_info *info) {
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
    bool is_result = key_is(k, klen, "result");
    members m = {0};
    if (!value(&c, JSON_RAW_MAX_DEPTH - 1, is_result ? &m : NULL))
      return false;
    size_t vlen = (size_t)(c.p - v);
    if (key_is(k, klen, "id")) {
      if (have_id || !integer_id(v, vlen, &info->id))
        return false;
      have_id = true;
    } else if (is_result) {
      if (have_result)
        return false;
      have_result = true;
      info->result_off = (size_t)(v - (const unsigned char *)s);
      info->result_len = vlen;
      info->compact = !c.spaced;
      info->is_error = m.is_error;
      info->type_other = m.type_other;
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
  info->ascii = !c.non_ascii;
  return c.p == c.end && have_id && have_result;
}

size_t json_raw_value(const char *s, size_t len, int max_depth) {
  cursor c = {(const unsigned char *)s, (const unsigned char *)s + len, false,
              false, false};
  return value(&c, max_depth, NULL) ? (size_t)(c.p - (const unsigned char *)s)
                                    : 0;
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
