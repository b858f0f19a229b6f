#include "base64.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int b64val(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62; /* '-' and '_': base64url, leniently */
  if (c == '/' || c == '_') return 63;
  return -1;
}

unsigned char *base64_decode(const char *in, size_t *out_len) {
  size_t n = strlen(in);
  unsigned char *out = xmalloc(n / 4 * 3 + 3);
  size_t o = 0;
  unsigned acc = 0;
  int bits = 0;
  bool pad = false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)in[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
      continue;
    if (c == '=') {
      pad = true;
      continue;
    }
    int v = b64val(c);
    if (v < 0 || pad) { /* junk, or data after padding */
      free(out);
      return NULL;
    }
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (unsigned char)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  if (bits >= 6) { /* a lone trailing character cannot encode a byte */
    free(out);
    return NULL;
  }
  *out_len = o;
  return out;
}

char *base64_encode(const void *in, size_t len) {
  static const char tab[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const unsigned char *p = in;
  char *out = malloc((len + 2) / 3 * 4 + 1);
  if (!out) {
    return NULL;
  }
  size_t o = 0;
  for (size_t i = 0; i < len; i += 3) {
    unsigned v = (unsigned)p[i] << 16;
    if (i + 1 < len) {
      v |= (unsigned)p[i + 1] << 8;
    }
    if (i + 2 < len) {
      v |= p[i + 2];
    }
    out[o++] = tab[(v >> 18) & 63];
    out[o++] = tab[(v >> 12) & 63];
    out[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
    out[o++] = i + 2 < len ? tab[v & 63] : '=';
  }
  out[o] = '\0';
  return out;
}
