/* JSON text as cJSON_PrintUnformatted() writes it; see json_write.h.
 * Every rule below is cJSON 1.7.15's (print_value, print_number,
 * print_string_ptr), kept byte for byte: tests/unit/test_json_write.c
 * compares the two. One difference is left: cJSON gives up on text over
 * 2 GiB (INT_MAX); this writes it. */
#include "safety/json_write.h"

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

/* A NULL string is written as "", as cJSON does. The length is counted
 * first so that the buffer grows once, then runs that need no escaping
 * are copied whole. */
static void put_string(strbuf *out, const char *s) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *in = (const unsigned char *)(s ? s : "");
  size_t len = 0, extra = 0;
  for (; in[len]; len++)
    extra += escape_extra[in[len]];
  char *o = sb_extend(out, len + extra + 2);
  *o++ = '"';
  size_t i = 0;
  while (i < len) {
    size_t run = i;
    while (run < len && !escape_extra[in[run]])
      run++;
    memcpy(o, in + i, run - i);
    o += run - i;
    if (run == len)
      break;
    unsigned char c = in[run];
    i = run + 1;
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

static void put_number(strbuf *out, double d) {
  if (isnan(d) || isinf(d)) {
    sb_add(out, "null", 4);
    return;
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
    sb_add(out, p, (size_t)(digits + sizeof digits - p));
    return;
  }
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%1.15g", d);
  if (!reads_back(strtod(buf, NULL), d))
    n = snprintf(buf, sizeof buf, "%1.17g", d);
  /* printf wrote the locale's decimal point; JSON wants '.'. */
  char point = localeconv()->decimal_point[0];
  for (int i = 0; i < n; i++)
    if (buf[i] == point)
      buf[i] = '.';
  sb_add(out, buf, (size_t)n);
}

static bool put_value(strbuf *out, const cJSON *item) {
  switch (item->type & 0xff) {
  case cJSON_NULL: sb_add(out, "null", 4); return true;
  case cJSON_False: sb_add(out, "false", 5); return true;
  case cJSON_True: sb_add(out, "true", 4); return true;
  case cJSON_Number: put_number(out, item->valuedouble); return true;
  case cJSON_String: put_string(out, item->valuestring); return true;
  case cJSON_Raw:
    if (!item->valuestring)
      return false;
    sb_adds(out, item->valuestring);
    return true;
  case cJSON_Array:
  case cJSON_Object: {
    bool object = (item->type & 0xff) == cJSON_Object;
    sb_addc(out, object ? '{' : '[');
    for (const cJSON *c = item->child; c; c = c->next) {
      if (object) {
        put_string(out, c->string);
        sb_addc(out, ':');
      }
      if (!put_value(out, c))
        return false;
      if (c->next)
        sb_addc(out, ',');
    }
    sb_addc(out, object ? '}' : ']');
    return true;
  }
  default: return false;
  }
}

int json_write(strbuf *out, const cJSON *item) {
  size_t start = out->len;
  if (item && put_value(out, item))
    return 0;
  out->len = start;
  if (out->data)
    out->data[start] = '\0';
  return MCPH_EINVAL;
}
