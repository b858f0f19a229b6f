/* The strict, exact JSON parser; see json_parse.h. */
#include "json_parse.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_scan.h"
#include "json_write.h"
#include "utf8.h"
#include "util.h"

typedef struct {
  const unsigned char *s;
  size_t len, pos;
  const char *what; /* the first error; NULL while all is well */
  int depth;
  /* json_parse_owned: the text, writable, and the string decoded in it,
   * [adopt_start, adopt_end) before (adopt_end 0: none yet), adopt_len
   * bytes after, for the item `adopted`. */
  unsigned char *own;
  size_t adopt_start, adopt_end, adopt_len;
  cJSON *adopted;
} parser;

static void *must(void *p) {
  if (!p) {
    abort(); /* out of memory, as xmalloc */
  }
  return p;
}

static bool fail(parser *p, const char *what) {
  if (!p->what) {
    p->what = what;
  }
  return false;
}

static bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Inlined: most calls (compact text) skip nothing, one test. */
static inline __attribute__((always_inline)) void skip_space(parser *p) {
  while (p->pos < p->len && is_space(p->s[p->pos])) {
    p->pos++;
  }
}

static bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

/* The length of the number token at `s` (n bytes available), 0 when
 * there is none; *plain: an integer of at most 15 digits. */
static size_t number_token(const unsigned char *s, size_t n, bool *plain) {
  size_t i = 0;
  if (i < n && s[i] == '-') {
    i++;
  }
  size_t first = i;
  if (i < n && s[i] == '0') {
    i++;
  } else if (i < n && s[i] >= '1' && s[i] <= '9') {
    while (i < n && is_digit(s[i])) {
      i++;
    }
  } else {
    return 0;
  }
  *plain = i - first <= 15;
  if (i < n && s[i] == '.') {
    *plain = false;
    if (++i >= n || !is_digit(s[i])) {
      return 0;
    }
    while (i < n && is_digit(s[i])) {
      i++;
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    *plain = false;
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) {
      i++;
    }
    if (i >= n || !is_digit(s[i])) {
      return 0;
    }
    while (i < n && is_digit(s[i])) {
      i++;
    }
  }
  return i;
}

bool json_is_number_token(const char *s, size_t n) {
  bool plain;
  return n > 0 && number_token((const unsigned char *)s, n, &plain) == n;
}

/* Whether json_write gives the double of the number token `s` back as
 * `s` itself, told from the text alone (no printf on the way in): it
 * writes "%1.15g", which gives back any decimal of at most 15
 * significant digits (DBL_DIG) without trailing zeros, in fixed
 * notation from 1e-4 up to 1e15. An exponent, 16 digits or more, a
 * trailing zero ("1.0") or a smaller fraction keep the token (some of
 * those would print back too: a kept token costs only its bytes). The
 * integers of 15 digits or fewer are handled apart (plain). */
static bool prints_back(const unsigned char *s, size_t n) {
  size_t i = s[0] == '-';
  const unsigned char *dot = memchr(s, '.', n);
  if (!dot || memchr(s, 'e', n) || memchr(s, 'E', n) || s[n - 1] == '0') {
    return false;
  }
  size_t whole = (size_t)(dot - (s + i)), frac = n - (size_t)(dot - s) - 1;
  if (whole == 1 && s[i] == '0') {
    size_t zeros = 0;
    while (zeros < frac && dot[1 + zeros] == '0') {
      zeros++;
    }
    return zeros < 4 && frac - zeros <= 15;
  }
  return whole + frac <= 15;
}

/* The number item of a valid token. The double is strtod's, as cJSON's
 * (with the locale's decimal point, as cJSON does); the token is kept
 * when the double might not print back as the same text. */
static cJSON *number_item(const unsigned char *s, size_t n, bool plain) {
  double d;
  bool keep = false;
  if (plain) {
    /* At most 15 digits: exact as an integer, and printed back the
     * same ("-0" too: printf writes it so). */
    bool neg = s[0] == '-';
    long long v = 0;
    for (size_t i = neg; i < n; i++) {
      v = v * 10 + (s[i] - '0');
    }
    d = neg ? -(double)v : (double)v;
  } else {
    char small[64];
    char *buf = n < sizeof small ? small : must(malloc(n + 1));
    memcpy(buf, s, n);
    buf[n] = '\0';
    char point = localeconv()->decimal_point[0];
    if (point != '.') {
      char *dot = memchr(buf, '.', n);
      if (dot) {
        *dot = point;
      }
    }
    d = strtod(buf, NULL);
    if (buf != small) {
      free(buf);
    }
    keep = !prints_back(s, n);
  }
  cJSON *item = must(cJSON_CreateNumber(d));
  if (keep) {
    char *tok = must(cJSON_malloc(n + 1));
    memcpy(tok, s, n);
    tok[n] = '\0';
    item->valuestring = tok;
  }
  return item;
}

cJSON *json_number_from_token(const char *s) {
  size_t n = strlen(s);
  bool plain;
  if (!n || number_token((const unsigned char *)s, n, &plain) != n) {
    return NULL;
  }
  return number_item((const unsigned char *)s, n, plain);
}

static int hex4(const unsigned char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    int d = hex_digit(s[i]);
    if (d < 0) {
      return -1;
    }
    v = v * 16 + d;
  }
  return v;
}

/* UTF-8 of `cp` at `o`, U+0000 as C0 80; returns the bytes written. */
static size_t put_utf8(unsigned char *o, unsigned cp) {
  if (cp == 0) {
    o[0] = 0xC0;
    o[1] = 0x80;
    return 2;
  }
  return utf8_put(o, cp);
}

static bool short_escape(unsigned char e) {
  switch (e) {
  case '"':
  case '\\':
  case '/':
  case 'b':
  case 'f':
  case 'n':
  case 'r':
  case 't': return true;
  default: return false;
  }
}

/* The first byte from `i` that a string's scan must look at: '"', '\\'
 * or a control character (json_scan.h): a result of megabytes is text. */
static size_t plain_run(const unsigned char *s, size_t i, size_t len) {
  return (size_t)(json_scan_run(s + i, s + len, 0) - s);
}

/* Finds the end of the string at p->pos (its opening quote) and checks
 * every byte of it: sets *end to its closing quote and *escapes when it
 * has any. False on an error. */
static bool scan_string(parser *p, size_t *end, bool *escapes) {
  const unsigned char *s = p->s;
  *escapes = false;
  for (size_t i = p->pos + 1;; i++) {
    i = plain_run(s, i, p->len);
    if (i >= p->len) {
      p->pos = i;
      return fail(p, "a string is not closed");
    }
    unsigned char c = s[i];
    if (c == '"') {
      *end = i;
      return true;
    }
    if (c < 0x20) {
      p->pos = i;
      return fail(p, "a control character in a string must be escaped");
    }
    if (c == '\\') {
      *escapes = true;
      if (i + 1 >= p->len) {
        p->pos = i + 1;
        return fail(p, "a string is not closed");
      }
      unsigned char e = s[i + 1];
      if (e == 'u') {
        if (i + 6 > p->len || hex4(s + i + 2) < 0) {
          p->pos = i;
          return fail(p, "\\u must be followed by four hex digits");
        }
        i += 5;
      } else if (short_escape(e)) {
        i++;
      } else {
        p->pos = i;
        return fail(p, "an unknown escape in a string");
      }
    }
  }
}

/* Decodes the escapes of s[start..end) (checked by scan_string) into
 * `out`, which may be s + start itself: no escape decodes longer than it
 * is written (\u0000 is 6 bytes for 2), so the bytes written never pass
 * the bytes read. Returns the bytes written, or (size_t)-1 on an error. */
static size_t decode_string(parser *p, size_t start, size_t end,
                            unsigned char *out) {
  const unsigned char *s = p->s;
  unsigned char *o = out;
  for (size_t i = start; i < end;) {
    const unsigned char *run = s + i;
    const unsigned char *bs = memchr(run, '\\', end - i);
    size_t k = bs ? (size_t)(bs - run) : end - i;
    if (o != run) {
      memmove(o, run, k);
    }
    o += k;
    i += k;
    if (i >= end) {
      break;
    }
    unsigned char e = s[i + 1];
    i += 2;
    switch (e) {
    case 'b': *o++ = '\b'; continue;
    case 'f': *o++ = '\f'; continue;
    case 'n': *o++ = '\n'; continue;
    case 'r': *o++ = '\r'; continue;
    case 't': *o++ = '\t'; continue;
    case 'u': break;
    default: *o++ = e; continue; /* '"', '\\' and '/' */
    }
    unsigned cp = (unsigned)hex4(s + i);
    size_t at = i - 2;
    i += 4;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      p->pos = at;
      fail(p, "a \\u escape of a low surrogate without a high one");
      return (size_t)-1;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      int lo = i + 6 <= end && s[i] == '\\' && s[i + 1] == 'u' ? hex4(s + i + 2)
                                                               : -1;
      if (lo < 0xDC00 || lo > 0xDFFF) {
        p->pos = at;
        fail(p, "a \\u escape of a high surrogate without a low one");
        return (size_t)-1;
      }
      cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
      i += 6;
    }
    o += put_utf8(o, cp);
  }
  return (size_t)(o - out);
}

/* The string at p->pos (its opening quote), scanned up to its closing
 * quote at `end`, decoded into a new buffer of cJSON's allocator; NULL
 * on an error. */
static char *decode_new(parser *p, size_t end, bool escapes) {
  size_t start = p->pos + 1, n = end - start;
  unsigned char *out = must(cJSON_malloc(n + 1));
  if (!escapes) {
    memcpy(out, p->s + start, n);
  } else if ((n = decode_string(p, start, end, out)) == (size_t)-1) {
    cJSON_free(out);
    return NULL;
  }
  out[n] = '\0';
  p->pos = end + 1;
  return (char *)out;
}

/* The string at p->pos (its opening quote), decoded into a new buffer;
 * NULL on an error. The first pass finds the end and checks every byte,
 * so the second only copies and decodes, into a buffer no larger than
 * the text. */
static char *parse_string(parser *p) {
  size_t end;
  bool escapes;
  return scan_string(p, &end, &escapes) ? decode_new(p, end, escapes) : NULL;
}

/* A string value of JSON_PARSE_ADOPT_MIN bytes or more in a buffer the
 * parser owns (json_parse_owned), scanned up to `end`: decoded where it
 * is, its item left without a valuestring until the parse has succeeded
 * (then the buffer becomes it). */
static cJSON *adopt_string(parser *p, size_t end, bool escapes) {
  size_t start = p->pos + 1, n = end - start;
  p->adopt_start = start;
  p->adopt_end = end;
  if (escapes &&
      (n = decode_string(p, start, end, p->own + start)) == (size_t)-1) {
    return NULL;
  }
  cJSON *item = must(cJSON_CreateNull());
  item->type = cJSON_String;
  p->adopted = item;
  p->adopt_len = n;
  p->pos = end + 1;
  return item;
}

static cJSON *parse_value(parser *p);

static cJSON *parse_container(parser *p, bool object) {
  if (++p->depth > JSON_PARSE_MAX_DEPTH) {
    fail(p, "nested too deeply");
    return NULL;
  }
  cJSON *c = must(object ? cJSON_CreateObject() : cJSON_CreateArray());
  cJSON *last = NULL;
  char close = object ? '}' : ']';
  p->pos++;
  skip_space(p);
  if (p->pos < p->len && p->s[p->pos] == close) {
    p->pos++;
    p->depth--;
    return c;
  }
  for (;;) {
    char *key = NULL;
    if (object) {
      if (p->pos >= p->len || p->s[p->pos] != '"') {
        fail(p, "a key (a string) was expected");
        goto bad;
      }
      if (!(key = parse_string(p))) {
        goto bad;
      }
      skip_space(p);
      if (p->pos >= p->len || p->s[p->pos] != ':') {
        cJSON_free(key);
        fail(p, "':' was expected after a key");
        goto bad;
      }
      p->pos++;
      skip_space(p);
    }
    cJSON *v = parse_value(p);
    if (!v) {
      cJSON_free(key);
      goto bad;
    }
    v->string = key;
    /* Appended by hand: cJSON_AddItemToArray walks the whole list. */
    if (last) {
      last->next = v;
      v->prev = last;
    } else {
      c->child = v;
    }
    c->child->prev = v;
    last = v;
    skip_space(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      skip_space(p);
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == close) {
      p->pos++;
      p->depth--;
      return c;
    }
    fail(p, object ? "',' or '}' was expected" : "',' or ']' was expected");
    goto bad;
  }
bad:
  cJSON_Delete(c);
  return NULL;
}

static bool word(parser *p, const char *w, size_t n) {
  if (p->len - p->pos >= n && memcmp(p->s + p->pos, w, n) == 0) {
    p->pos += n;
    return true;
  }
  return false;
}

static cJSON *parse_value(parser *p) {
  if (p->pos >= p->len) {
    fail(p, "a value was expected");
    return NULL;
  }
  unsigned char c = p->s[p->pos];
  switch (c) {
  case '{': return parse_container(p, true);
  case '[': return parse_container(p, false);
  case '"': {
    size_t end;
    bool escapes;
    if (!scan_string(p, &end, &escapes)) {
      return NULL;
    }
    if (p->own && !p->adopt_end && end - p->pos > JSON_PARSE_ADOPT_MIN) {
      return adopt_string(p, end, escapes);
    }
    char *s = decode_new(p, end, escapes);
    if (!s) {
      return NULL;
    }
    cJSON *item = must(cJSON_CreateNull());
    item->type = cJSON_String;
    item->valuestring = s;
    return item;
  }
  case 't':
    if (word(p, "true", 4)) {
      return must(cJSON_CreateTrue());
    }
    break;
  case 'f':
    if (word(p, "false", 5)) {
      return must(cJSON_CreateFalse());
    }
    break;
  case 'n':
    if (word(p, "null", 4)) {
      return must(cJSON_CreateNull());
    }
    break;
  default:
    if (c == '-' || is_digit(c)) {
      bool plain;
      size_t n = number_token(p->s + p->pos, p->len - p->pos, &plain);
      if (!n || (p->pos + n < p->len && is_digit(p->s[p->pos + n]))) {
        fail(p, "not a JSON number (no '+', leading zero, \"1.\" or \".5\")");
        return NULL;
      }
      cJSON *item = number_item(p->s + p->pos, n, plain);
      p->pos += n;
      return item;
    }
    break;
  }
  fail(p, "a value was expected");
  return NULL;
}

static cJSON *parse_document(parser *p, json_error *err) {
  skip_space(p);
  cJSON *v = parse_value(p);
  if (v) {
    skip_space(p);
    if (p->pos < p->len) {
      fail(p, "text after the end of the document");
      cJSON_Delete(v);
      v = NULL;
    }
  }
  if (!v && err) {
    err->offset = p->pos;
    err->what = p->what ? p->what : "invalid";
  }
  return v;
}

cJSON *json_parse(const char *text, size_t len, json_error *err) {
  parser p = {.s = (const unsigned char *)text, .len = text ? len : 0};
  return parse_document(&p, err);
}

cJSON *json_parse_owned(char *buf, size_t len, json_error *err) {
  parser p = {
      .s = (const unsigned char *)buf, .len = len, .own = (unsigned char *)buf};
  cJSON *v = parse_document(&p, err);
  if (!v) {
    if (p.adopt_end) {
      /* The string decoded in place (or partly): its characters, not the
       * structure around it, are lost; a reader of the id still finds
       * the same tokens. */
      memset(buf + p.adopt_start, '.', p.adopt_end - p.adopt_start);
    }
    return NULL;
  }
  if (!p.adopted) {
    free(buf);
    return v;
  }
  /* The string to the front, the rest of the text given back. */
  memmove(buf, buf + p.adopt_start, p.adopt_len);
  char *str = must(realloc(buf, p.adopt_len + 1));
  str[p.adopt_len] = '\0';
  p.adopted->valuestring = str;
  return v;
}

cJSON *json_parse_str(const char *text) {
  return text ? json_parse(text, strlen(text), NULL) : NULL;
}

char *json_error_text(const char *text, size_t len, const json_error *err) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < err->offset && i < len; i++) {
    if (text[i] == '\n') {
      line++;
      col = 1;
    } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
      col++;
    }
  }
  return xasprintf("invalid JSON near line %zu, column %zu: %s", line, col,
                   err->what);
}

size_t json_nul_restore(char *dst, const char *src, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char)src[i] == 0xC0 && i + 1 < n &&
        (unsigned char)src[i + 1] == 0x80) {
      dst[o++] = '\0';
      i++;
    } else {
      dst[o++] = src[i];
    }
  }
  return o;
}

bool json_nul_fwrite(FILE *f, const char *src, size_t n) {
  size_t done = 0; /* src[0, done) is written */
  for (size_t i = 0;;) {
    const char *c0 = i < n ? memchr(src + i, 0xC0, n - i) : NULL;
    if (!c0) {
      return fwrite(src + done, 1, n - done, f) == n - done;
    }
    i = (size_t)(c0 - src) + 1;
    if (i < n && (unsigned char)src[i] == 0x80) {
      size_t k = i - 1 - done;
      if (fwrite(src + done, 1, k, f) < k || fputc('\0', f) == EOF) {
        return false;
      }
      done = ++i;
    }
  }
}
