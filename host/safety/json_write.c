/* JSON text as cJSON_PrintUnformatted() writes it; see json_write.h.
 * Every rule below is cJSON 1.7.15's (print_value, print_number,
 * print_string_ptr), kept byte for byte: tests/unit/test_json_write.c
 * compares the two. Differences: cJSON gives up on text over 2 GiB
 * (INT_MAX), this writes it; a number's token and a string's U+0000
 * (json_parse.h) are written back, where cJSON knows neither. */
#include "safety/json_write.h"
#include "safety/json_parse.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
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

/* A NULL string is written as "", as cJSON does. The length is counted
 * first so that the buffer grows once, then runs that need no escaping
 * are copied whole. */
static void put_string(strbuf *out, const char *s) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *in = (const unsigned char *)(s ? s : "");
  size_t len = 0, extra = 0;
  for (; in[len]; len++) {
    extra += escape_extra[in[len]];
    if (in[len] == 0xC0 && masked_nul(in + len)) {
      extra += 4; /* 2 bytes become 6 */
    }
  }
  char *o = sb_extend(out, len + extra + 2);
  *o++ = '"';
  size_t i = 0;
  while (i < len) {
    size_t run = i;
    while (run < len && !escape_extra[in[run]] &&
           !(in[run] == 0xC0 && masked_nul(in + run)))
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
  *o = '"';
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
static bool put_value(strbuf *out, const cJSON *item, int depth) {
  switch (item->type & 0xff) {
  case cJSON_NULL: sb_add(out, "null", 4); return true;
  case cJSON_False: sb_add(out, "false", 5); return true;
  case cJSON_True: sb_add(out, "true", 4); return true;
  case cJSON_Number: put_number(out, item); return true;
  case cJSON_String: put_string(out, item->valuestring); return true;
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
        put_string(out, c->string);
        sb_addc(out, ':');
        if (pretty)
          sb_addc(out, '\t');
      }
      if (!put_value(out, c, inner))
        return false;
      if (c->next) {
        sb_addc(out, ',');
        if (pretty && !object)
          sb_addc(out, ' ');
      }
      if (object && pretty)
        sb_addc(out, '\n');
    }
    if (object)
      put_tabs(out, depth);
    sb_addc(out, object ? '}' : ']');
    return true;
  }
  default: return false;
  }
}

static int write_at(strbuf *out, const cJSON *item, int depth) {
  size_t start = out->len;
  if (item && put_value(out, item, depth))
    return 0;
  out->len = start;
  if (out->data)
    out->data[start] = '\0';
  return MCPH_EINVAL;
}

void json_write_string(strbuf *out, const char *s) {
  put_string(out, s);
}

int json_write(strbuf *out, const cJSON *item) {
  return write_at(out, item, -1);
}

int json_write_pretty(strbuf *out, const cJSON *item) {
  return write_at(out, item, 0);
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
