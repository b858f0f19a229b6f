/* JSON text as cJSON_PrintUnformatted() writes it; see json_write.h.
 * Every rule below is cJSON 1.7.15's (print_value, print_number,
 * print_string_ptr), kept byte for byte: tests/unit/test_json_write.c
 * compares the two. Differences: cJSON gives up on text over 2 GiB
 * (INT_MAX), this writes it; a number's token and a string's U+0000
 * (json_parse.h) are written back, where cJSON knows neither. */
#include "json_write.h"
#include "json_parse.h"
#include "json_scan.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/abi.h>

/* What escaping adds to each byte: '"', '\\', \b \f \n \r and \t take a
 * backslash; the other control characters become \u00xx; every other
 * byte (0x7f and UTF-8 included) is copied as it is. */
/* clang-format off */
static const unsigned char escape_extra[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 1, 1, 5, 5,
    5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    ['"'] = 1, ['\\'] = 1};
/* clang-format on */

/* C0 80, U+0000 as json_parse holds it (C0 is never valid UTF-8). */
static bool masked_nul(const unsigned char *in) {
  return in[0] == 0xC0 && in[1] == 0x80;
}

/* Where the text goes: `out`, and with a sink, out to it as `out` fills
 * (json_write_to). */
typedef struct jw {
  strbuf *out;
  const json_sink *sink;
  bool failed; /* the sink refused a write */
} jw;

/* With a sink, a string is escaped this much at a time, and `out` is
 * handed to the sink once it holds this much. */
#define JW_CHUNK ((size_t)64 << 10)

static void jw_flush(jw *w) {
  if (!w->sink || w->out->len < JW_CHUNK) {
    return;
  }
  if (!w->failed && !w->sink->write(w->sink->ud, w->out->data, w->out->len)) {
    w->failed = true;
  }
  w->out->len = 0;
}

/* The bytes escaping adds to in[0..len). */
static size_t escaped_extra(const unsigned char *in, size_t len) {
  size_t extra = 0;
  for (size_t k = 0; k < len; k++) {
    extra += escape_extra[in[k]];
    if (in[k] == 0xC0 && k + 1 < len && masked_nul(in + k)) {
      extra += 4; /* 2 bytes become 6 */
    }
  }
  return extra;
}

/* Whether in[0..len) may need escaping: holds a byte below 0x20, '"',
 * '\\' or 0xC0 (U+0000's first byte). Most strings need none
 * (json_scan.h). */
static bool may_escape(const unsigned char *in, size_t len) {
  return json_scan_run(in, in + len, JSON_SCAN_C0) != in + len;
}

/* The escaped text of in[0..len) (a whole C0 80 in it) at `o`, which has
 * room for it; returns its end. Runs that need no escaping are copied
 * whole. */
static inline __attribute__((always_inline)) char *
put_escaped(char *o, const unsigned char *in, size_t len) {
  static const char hex[] = "0123456789abcdef";
  size_t i = 0;
  while (i < len) {
    size_t run = i;
    while (run < len && !escape_extra[in[run]] &&
           !(in[run] == 0xC0 && run + 1 < len && masked_nul(in + run)))
      run++;
    memcpy(o, in + i, run - i);
    o += run - i;
    if (run == len)
      break;
    unsigned char c = in[run];
    i = run + 1;
    if (c == 0xC0) {
      c = 0;
      i++;
    }
    *o++ = '\\';
    switch (c) {
    case '"':
    case '\\': *o++ = (char)c; break;
    case '\b': *o++ = 'b'; break;
    case '\f': *o++ = 'f'; break;
    case '\n': *o++ = 'n'; break;
    case '\r': *o++ = 'r'; break;
    case '\t': *o++ = 't'; break;
    default:
      memcpy(o, "u00", 3);
      o[3] = hex[c >> 4];
      o[4] = hex[c & 15];
      o += 5;
      break;
    }
  }
  return o;
}

/* A NULL string is written as "", as cJSON does. The length is counted
 * first so that the buffer grows once; with a sink, a long string goes
 * out a chunk at a time (never cutting a C0 80 in two). */
static void put_string(jw *w, const char *s) {
  const unsigned char *in = (const unsigned char *)(s ? s : "");
  size_t len = strlen((const char *)in);
  size_t extra = may_escape(in, len) ? escaped_extra(in, len) : 0;
  if (!w->sink || len <= JW_CHUNK) {
    char *o = sb_extend(w->out, len + extra + 2);
    *o++ = '"';
    if (extra == 0) { /* every escape adds bytes: none here, one copy */
      memcpy(o, in, len);
      o[len] = '"';
    } else {
      *put_escaped(o, in, len) = '"';
    }
    return;
  }
  sb_addc(w->out, '"');
  for (size_t i = 0; i < len;) {
    size_t n = len - i;
    if (n > JW_CHUNK) {
      n = JW_CHUNK;
      n += in[i + n - 1] == 0xC0 && in[i + n] == 0x80;
    }
    put_escaped(sb_extend(w->out, n + escaped_extra(in + i, n)), in + i, n);
    i += n;
    jw_flush(w);
  }
  sb_addc(w->out, '"');
}

/* cJSON's test that a number printed with 15 digits reads back: equal
 * within DBL_EPSILON of the larger, not exactly (0.30000000000000004
 * prints as 0.3, 2^53 as 9.00719925474099e+15). */
static bool reads_back(double printed, double d) {
  double max = fabs(printed) > fabs(d) ? fabs(printed) : fabs(d);
  return fabs(printed - d) <= max * DBL_EPSILON;
}

size_t json_number_text(double d, char *buf) {
  if (isnan(d) || isinf(d)) {
    memcpy(buf, "null", 5);
    return 4;
  }
  /* An integer below 1e15 prints with "%1.15g" as its digits, and they
   * read back exactly; -0 is left to printf ("-0"). */
  if (fabs(d) < 1e15 && d == (double)(long long)d && !(d == 0 && signbit(d))) {
    long long v = (long long)d;
    unsigned long long u =
        v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    char digits[24], *p = digits + sizeof digits;
    do {
      *--p = (char)('0' + u % 10);
      u /= 10;
    } while (u);
    if (v < 0)
      *--p = '-';
    size_t n = (size_t)(digits + sizeof digits - p);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return n;
  }
  int n = snprintf(buf, JSON_NUMBER_TEXT_MAX, "%1.15g", d);
  if (!reads_back(strtod(buf, NULL), d))
    n = snprintf(buf, JSON_NUMBER_TEXT_MAX, "%1.17g", d);
  /* printf wrote the locale's decimal point; JSON wants '.'. */
  char point = localeconv()->decimal_point[0];
  for (int i = 0; i < n; i++)
    if (buf[i] == point)
      buf[i] = '.';
  return (size_t)n;
}

/* A number json_parse read keeps its token where the double would not
 * print back the same: written as it came, when it is still a number
 * token (anything else in valuestring is not taken for one). */
static void put_number(strbuf *out, const cJSON *item) {
  const char *tok = item->valuestring;
  if (tok) {
    size_t n = strlen(tok);
    if (json_is_number_token(tok, n)) {
      sb_add(out, tok, n);
      return;
    }
  }
  char buf[JSON_NUMBER_TEXT_MAX];
  sb_add(out, buf, json_number_text(item->valuedouble, buf));
}

static void put_tabs(strbuf *out, int n) {
  for (int i = 0; i < n; i++)
    sb_addc(out, '\t');
}

/* `depth` < 0: compact; else cJSON_Print's layout at that depth (a tab
 * per level and one after each key, members on lines of their own,
 * array elements after ", "). */
static bool put_value(jw *w, const cJSON *item, int depth) {
  strbuf *out = w->out;
  switch (item->type & 0xff) {
  case cJSON_NULL: sb_add(out, "null", 4); return true;
  case cJSON_False: sb_add(out, "false", 5); return true;
  case cJSON_True: sb_add(out, "true", 4); return true;
  case cJSON_Number: put_number(out, item); return true;
  case cJSON_String: put_string(w, item->valuestring); return true;
  case cJSON_Raw:
    if (!item->valuestring)
      return false;
    sb_adds(out, item->valuestring);
    return true;
  case cJSON_Array:
  case cJSON_Object: {
    bool object = (item->type & 0xff) == cJSON_Object;
    bool pretty = depth >= 0;
    int inner = pretty ? depth + 1 : -1;
    sb_addc(out, object ? '{' : '[');
    if (object && pretty)
      sb_addc(out, '\n');
    for (const cJSON *c = item->child; c; c = c->next) {
      if (object) {
        put_tabs(out, inner);
        put_string(w, c->string);
        sb_addc(out, ':');
        if (pretty)
          sb_addc(out, '\t');
      }
      if (!put_value(w, c, inner))
        return false;
      if (c->next) {
        sb_addc(out, ',');
        if (pretty && !object)
          sb_addc(out, ' ');
      }
      if (object && pretty)
        sb_addc(out, '\n');
      jw_flush(w);
    }
    if (object)
      put_tabs(out, depth);
    sb_addc(out, object ? '}' : ']');
    return true;
  }
  default: return false;
  }
}

/* Whether put_value writes the whole of `item`: what it refuses is found
 * before anything goes to a sink. */
static bool writable(const cJSON *item) {
  switch (item->type & 0xff) {
  case cJSON_NULL:
  case cJSON_False:
  case cJSON_True:
  case cJSON_Number:
  case cJSON_String: return true;
  case cJSON_Raw: return item->valuestring != NULL;
  case cJSON_Array:
  case cJSON_Object:
    for (const cJSON *c = item->child; c; c = c->next)
      if (!writable(c))
        return false;
    return true;
  default: return false;
  }
}

static int write_at(strbuf *out, const cJSON *item, int depth,
                    const json_sink *sink) {
  size_t start = out->len;
  jw w = {.out = out, .sink = sink};
  if (item && (!sink || writable(item)) && put_value(&w, item, depth))
    return w.failed ? MCPH_EIO : 0;
  out->len = start;
  if (out->data)
    out->data[start] = '\0';
  return MCPH_EINVAL;
}

void json_write_string(strbuf *out, const char *s) {
  jw w = {.out = out, .sink = NULL};
  put_string(&w, s);
}

int json_write(strbuf *out, const cJSON *item) {
  return write_at(out, item, -1, NULL);
}

int json_write_pretty(strbuf *out, const cJSON *item) {
  return write_at(out, item, 0, NULL);
}

int json_write_to(strbuf *out, const cJSON *item, bool pretty,
                  const json_sink *sink) {
  return write_at(out, item, pretty ? 0 : -1, sink);
}

char *json_print(const cJSON *item) {
  strbuf b;
  sb_init(&b);
  if (json_write(&b, item) != 0) {
    sb_free(&b);
    return NULL;
  }
  return sb_take(&b);
}
