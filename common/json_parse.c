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
  /* json_parse_span: the member of the top object whose text is wanted,
   * and where its value was found (span_end 0: not yet). */
  const char *span_key;
  size_t span_start, span_end;
  /* Values are checked and passed over, not built (the span's member,
   * json_parse_span): parse_value gives `skipped` for each. */
  bool skip;
} parser;

static cJSON skipped; /* a value checked, not built (parser.skip) */

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

/* A string's decoding, in one pass with its scan: its text is read once,
 * each run of plain bytes copied as it is found (json_scan_copy). The
 * output goes to a new buffer of cJSON's allocator (buf), or, for the
 * string json_parse_owned adopts, into the text itself (buf NULL): no
 * escape decodes longer than it is written (\u0000 is 6 bytes for 2), so
 * the bytes written never pass the bytes read. */
typedef struct {
  size_t start;             /* the string's first byte */
  unsigned char *buf, *out; /* the new buffer (or NULL), the next byte */
  size_t cap;               /* buf's size */
  size_t quote;             /* the first '"' not yet read: its end or not */
  bool adopt; /* a value json_parse_owned may adopt (none adopted yet) */
} string_out;

/* Whether the string from so->start ending at `end` or later is the one
 * for json_parse_owned to decode in place. */
static bool to_adopt(const string_out *so, size_t end) {
  return so->adopt && end - (so->start - 1) > JSON_PARSE_ADOPT_MIN;
}

/* A new buffer keeps room for every byte up to the next '"', the end of
 * the string at the earliest, each decoding to at most one byte: so->quote
 * is found again (memchr) when an escaped '"' has been read, and the
 * buffer grown, twice as large at least (a text of many \" grows it a
 * few times, not at each). The string to adopt moves into the text. */
static void next_quote(parser *p, string_out *so, size_t i) {
  const unsigned char *q = memchr(p->s + i, '"', p->len - i);
  so->quote = q ? (size_t)(q - p->s) : p->len;
  if (to_adopt(so, so->quote)) {
    size_t n = (size_t)(so->out - so->buf);
    memcpy(p->own + so->start, so->buf, n);
    cJSON_free(so->buf);
    so->buf = NULL;
    so->out = p->own + so->start + n;
    p->adopt_start = so->start;
    return;
  }
  size_t n = (size_t)(so->out - so->buf), need = n + so->quote - i + 1;
  if (need > so->cap) {
    size_t cap = so->cap * 2 > need ? so->cap * 2 : need;
    unsigned char *grown = must(cJSON_malloc(cap));
    memcpy(grown, so->buf, n);
    cJSON_free(so->buf);
    so->buf = grown;
    so->out = grown + n;
    so->cap = cap;
  }
}

/* The escape at s[*i] ('\\', read up to it): decoded at so->out, *i past
 * it. False on an error of the text (*i left at it); *bad set (the first only)
 * for a \u of half a surrogate pair, which is an error only once the whole
 * string has none other (the text's errors come first), and writes nothing. */
/* Inline in both its callers (read_string, skip_string): a call for
 * each escape cost a 10 MiB text of short lines a fifth more. */
static inline __attribute__((always_inline)) bool
read_escape(parser *p, string_out *so, size_t *i, size_t *bad,
            const char **bad_what) {
  const unsigned char *s = p->s;
  size_t at = *i;
  if (at + 1 >= p->len) {
    p->pos = at + 1;
    return fail(p, "a string is not closed");
  }
  unsigned char e = s[at + 1];
  /* The one-letter escapes by table: one load, where a switch was a
   * jump each. */
  static const unsigned char letter[256] = {
      ['"'] = '"',  ['\\'] = '\\', ['/'] = '/',  ['b'] = '\b',
      ['f'] = '\f', ['n'] = '\n',  ['r'] = '\r', ['t'] = '\t'};
  unsigned char *o = so->out;
  if (letter[e]) {
    *o = letter[e];
    *i = at + 2;
    so->out++;
    return true;
  }
  switch (e) {
  case 'u': {
    int cp = at + 6 <= p->len ? hex4(s + at + 2) : -1;
    if (cp < 0) {
      p->pos = at;
      return fail(p, "\\u must be followed by four hex digits");
    }
    *i = at + 6;
    const char *what = NULL;
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
      what = "a \\u escape of a low surrogate without a high one";
    } else if (cp >= 0xD800 && cp <= 0xDBFF) {
      size_t j = at + 6;
      int lo = j + 6 <= p->len && s[j] == '\\' && s[j + 1] == 'u'
                   ? hex4(s + j + 2)
                   : -1;
      if (lo < 0xDC00 || lo > 0xDFFF) {
        what = "a \\u escape of a high surrogate without a low one";
      } else {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        *i = j + 6;
      }
    }
    if (what) {
      if (!*bad_what) {
        *bad = at;
        *bad_what = what;
      }
      return true;
    }
    so->out += put_utf8(o, (unsigned)cp);
    return true;
  }
  default: p->pos = at; return fail(p, "an unknown escape in a string");
  }
}

/* The string at p->pos (its opening quote), checked and decoded in one
 * pass: *str a new buffer (NUL-terminated), or, `value` in
 * json_parse_owned, NULL for the string of JSON_PARSE_ADOPT_MIN bytes
 * or more decoded in place (p->adopt_*; the caller makes its item). Its
 * errors are those of a first pass that checks every byte before a
 * second decodes: a surrogate half is told only where nothing else is
 * wrong. False on an error (in place, the characters read are given
 * back as '.', json_parse_owned). */
static bool read_string(parser *p, bool value, char **str) {
  const unsigned char *s = p->s;
  string_out so = {.start = p->pos + 1,
                   .adopt = value && p->own && !p->adopt_end};
  /* Most strings have no escape: scanned, then copied or adopted. */
  size_t i = (size_t)(json_scan_run(s + so.start, s + p->len, 0) - s);
  if (i < p->len && s[i] == '"') {
    size_t n = i - so.start;
    p->pos = i + 1;
    if (to_adopt(&so, i)) {
      p->adopt_start = so.start;
      p->adopt_end = i;
      p->adopt_len = n;
      *str = NULL;
      return true;
    }
    unsigned char *out = must(cJSON_malloc(n + 1));
    memcpy(out, s + so.start, n);
    out[n] = '\0';
    *str = (char *)out;
    return true;
  }
  /* An escape (or an error): the output from here on. */
  const char *what = NULL, *bad_what = NULL;
  size_t bad = 0;
  const unsigned char *q = memchr(s + i, '"', p->len - i);
  so.quote = q ? (size_t)(q - s) : p->len;
  if (to_adopt(&so, so.quote)) {
    so.out = p->own + i;
    p->adopt_start = so.start;
  } else {
    size_t n = i - so.start;
    so.cap = n + so.quote - i + 1;
    so.buf = must(cJSON_malloc(so.cap));
    memcpy(so.buf, s + so.start, n);
    so.out = so.buf + n;
  }
  for (;;) {
    if (i >= p->len) {
      what = "a string is not closed";
      break;
    }
    unsigned char c = s[i];
    if (c == '"') {
      break;
    }
    if (c != '\\') {
      what = "a control character in a string must be escaped";
      break;
    }
    if (!read_escape(p, &so, &i, &bad, &bad_what)) {
      goto failed;
    }
    if (so.buf && i > so.quote) {
      next_quote(p, &so, i);
    }
    /* Two calls: each inlined with its own test of room. */
    const unsigned char *stop =
        so.buf ? json_scan_copy(s + i, s + p->len, &so.out, so.buf + so.cap)
               : json_scan_copy(s + i, s + p->len, &so.out, NULL);
    i = (size_t)(stop - s);
  }
  if (what || bad_what) {
    p->pos = what ? i : bad;
    fail(p, what ? what : bad_what);
    goto failed;
  }
  p->pos = i + 1;
  if (!so.buf) {
    p->adopt_end = i;
    p->adopt_len = (size_t)(so.out - (p->own + so.start));
    *str = NULL;
    return true;
  }
  size_t n = (size_t)(so.out - so.buf);
  if (so.cap > i - so.start + 1) {
    /* Grown past the text's size: given back (a copy, once). */
    unsigned char *fit = must(cJSON_malloc(n + 1));
    memcpy(fit, so.buf, n);
    cJSON_free(so.buf);
    so.buf = fit;
  }
  so.buf[n] = '\0';
  *str = (char *)so.buf;
  return true;
failed:
  if (so.buf) {
    cJSON_free(so.buf);
  } else {
    p->adopt_end = i; /* in place: what was read, maybe written */
  }
  return false;
}

/* The string at p->pos (its opening quote), decoded into a new buffer;
 * NULL on an error. */
/* The string at p->pos (its opening quote) checked as read_string
 * checks it, with the same errors, and passed over: nothing decoded
 * (json_parse_span's member). */
static bool skip_string(parser *p) {
  const unsigned char *s = p->s;
  unsigned char scratch[8]; /* an escape's bytes, dropped */
  string_out so = {.start = p->pos + 1};
  const char *bad_what = NULL;
  size_t bad = 0, i = so.start;
  for (;;) {
    i = (size_t)(json_scan_run(s + i, s + p->len, 0) - s);
    if (i >= p->len || s[i] == '"') {
      break;
    }
    if (s[i] != '\\') {
      p->pos = i;
      return fail(p, "a control character in a string must be escaped");
    }
    so.out = scratch;
    if (!read_escape(p, &so, &i, &bad, &bad_what)) {
      return false;
    }
  }
  if (i >= p->len) {
    p->pos = i;
    return fail(p, "a string is not closed");
  }
  if (bad_what) {
    p->pos = bad;
    return fail(p, bad_what);
  }
  p->pos = i + 1;
  return true;
}

static char *parse_string(parser *p) {
  char *str;
  return read_string(p, false, &str) ? str : NULL;
}

/* The keys MCP messages repeat most (a tool list's, a message's own),
 * by length. */
static const char *const known_keys[][8] = {
    [2] = {"id"},
    [3] = {"uri"},
    [4] = {"type", "name", "text", "enum"},
    [5] = {"title", "items", "tools", "_meta"},
    [6] = {"result", "method", "params", "format"},
    [7] = {"jsonrpc", "content", "default", "isError", "minimum", "maximum",
           "version", "prompts"},
    [8] = {"required", "mimeType"},
    [9] = {"arguments", "resources"},
    [10] = {"properties", "serverInfo"},
    [11] = {"description", "inputSchema", "annotations", "listChanged"},
    [12] = {"outputSchema", "capabilities", "instructions"},
    [15] = {"protocolVersion"},
    [17] = {"structuredContent"},
};

/* The key at p->pos (its opening quote) when it is one of known_keys,
 * written as it is (no escape), with p->pos moved past it: the tree's
 * item gets the constant (cJSON_StringIsConst: never freed, never
 * written), one allocation and one free less a member. NULL otherwise,
 * nothing read. */
static const char *known_key(const parser *p, size_t *end) {
  size_t room = p->len - p->pos - 1;
  size_t most = sizeof known_keys / sizeof known_keys[0];
  const char *k = (const char *)p->s + p->pos + 1;
  /* The closing quote: a key matched has no escape (none has one). */
  const char *q = memchr(k, '"', room < most ? room : most);
  if (!q) {
    return NULL;
  }
  size_t n = (size_t)(q - k);
  /* Two bytes told apart first (every key has two or more): "message"
   * is not "minimum", nor "maximum", before any call of memcmp. */
  for (size_t i = 0; i < 8 && known_keys[n][i]; i++) {
    if (known_keys[n][i][0] == k[0] && known_keys[n][i][1] == k[1] &&
        memcmp(known_keys[n][i], k, n) == 0) {
      *end = p->pos + n + 2;
      return known_keys[n][i];
    }
  }
  return NULL;
}

static cJSON *parse_value(parser *p);

static cJSON *parse_container(parser *p, bool object) {
  if (++p->depth > JSON_PARSE_MAX_DEPTH) {
    fail(p, "nested too deeply");
    return NULL;
  }
  cJSON *c = p->skip
                 ? &skipped
                 : must(object ? cJSON_CreateObject() : cJSON_CreateArray());
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
    const char *const_key = NULL;
    if (object) {
      if (p->pos >= p->len || p->s[p->pos] != '"') {
        fail(p, "a key (a string) was expected");
        goto bad;
      }
      size_t end = 0;
      if (!p->skip && (const_key = known_key(p, &end)) != NULL) {
        p->pos = end;
        key = (char *)const_key;
      } else if (p->skip ? !skip_string(p) : !(key = parse_string(p))) {
        goto bad;
      }
      skip_space(p);
      if (p->pos >= p->len || p->s[p->pos] != ':') {
        if (!const_key) {
          cJSON_free(key);
        }
        fail(p, "':' was expected after a key");
        goto bad;
      }
      p->pos++;
      skip_space(p);
    }
    size_t start = p->pos;
    bool span = key && p->span_key && p->depth == 1 && !p->span_end &&
                strcmp(key, p->span_key) == 0;
    p->skip = p->skip || span;
    cJSON *v = parse_value(p);
    p->skip = p->skip && !span;
    if (!v) {
      if (!const_key) {
        cJSON_free(key);
      }
      goto bad;
    }
    if (span) {
      p->span_start = start;
      p->span_end = p->pos;
    }
    if (v == &skipped) {
      if (key && !const_key) { /* the span's member: not in the tree */
        cJSON_free(key);
      }
    } else {
      v->string = key;
      if (const_key) {
        v->type |= cJSON_StringIsConst;
      }
      /* Appended by hand: cJSON_AddItemToArray walks the whole list. */
      if (last) {
        last->next = v;
        v->prev = last;
      } else {
        c->child = v;
      }
      c->child->prev = v;
      last = v;
    }
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
  if (c != &skipped) {
    cJSON_Delete(c);
  }
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
    if (p->skip) {
      return skip_string(p) ? &skipped : NULL;
    }
    char *str;
    if (!read_string(p, true, &str)) {
      return NULL;
    }
    cJSON *item = must(cJSON_CreateNull());
    item->type = cJSON_String;
    item->valuestring = str;
    if (!str) {
      p->adopted = item; /* its text, once the parse has succeeded */
    }
    return item;
  }
  case 't':
    if (word(p, "true", 4)) {
      return p->skip ? &skipped : must(cJSON_CreateTrue());
    }
    break;
  case 'f':
    if (word(p, "false", 5)) {
      return p->skip ? &skipped : must(cJSON_CreateFalse());
    }
    break;
  case 'n':
    if (word(p, "null", 4)) {
      return p->skip ? &skipped : must(cJSON_CreateNull());
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
      cJSON *item = p->skip ? &skipped : number_item(p->s + p->pos, n, plain);
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

cJSON *json_parse_span(const char *text, size_t len, json_error *err,
                       const char *key, size_t *off, size_t *n) {
  parser p = {
      .s = (const unsigned char *)text, .len = text ? len : 0, .span_key = key};
  cJSON *v = parse_document(&p, err);
  *off = p.span_start;
  *n = v && cJSON_IsObject(v) ? p.span_end - p.span_start : 0;
  return v;
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

cJSON *json_parse_why(const char *text, size_t len, char **why) {
  json_error err;
  cJSON *doc = json_parse(text, len, &err);
  if (!doc) {
    *why = json_error_text(text, len, &err);
  }
  return doc;
}

const char *json_kind(const cJSON *v) {
  return cJSON_IsObject(v)   ? "an object"
         : cJSON_IsArray(v)  ? "an array"
         : cJSON_IsString(v) ? "a string"
         : cJSON_IsNumber(v) ? "a number"
         : cJSON_IsBool(v)   ? "a boolean"
                             : "null";
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
