#include "redact.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "util.h"

static const char *const secret_keys[] = {
    "access_token",  "refresh_token", "id_token",      "assertion",
    "subject_token", "client_secret", "authorization", "proxy-authorization",
};

static bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

/* The secret field name at s[i], as a whole word (a '_' after it makes
 * another name: access_token_expiry is not a secret); NULL if none. */
static const char *key_at(const char *s, size_t i) {
  if (i > 0 && is_word(s[i - 1]))
    return NULL;
  for (size_t k = 0; k < sizeof secret_keys / sizeof secret_keys[0]; k++) {
    size_t n = strlen(secret_keys[k]);
    if (strncasecmp(s + i, secret_keys[k], n) == 0 && !is_word(s[i + n]) &&
        s[i + n] != '_')
      return secret_keys[k];
  }
  return NULL;
}

static size_t skip_blanks(const char *s, size_t j) {
  while (s[j] == ' ' || s[j] == '\t')
    j++;
  return j;
}

/* "key": "value" with quote `q`, or \"key\":\"value\" inside a JSON
 * string (`esc`). On a match sets the value's span [*vs, *ve). */
static bool quoted_field(const char *s, size_t i, size_t j, size_t *vs,
                         size_t *ve) {
  /* The name may carry a prefix: "oauth_access_token" is a secret too. */
  while (i > 0 && (is_word(s[i - 1]) || s[i - 1] == '_' || s[i - 1] == '-'))
    i--;
  if (i == 0 || (s[i - 1] != '"' && s[i - 1] != '\''))
    return false;
  char q = s[i - 1];
  bool esc = i >= 2 && s[i - 2] == '\\';
  if (esc && s[j++] != '\\')
    return false;
  if (s[j++] != q)
    return false;
  j = skip_blanks(s, j);
  if (s[j++] != ':')
    return false;
  j = skip_blanks(s, j);
  if (esc && s[j++] != '\\')
    return false;
  if (s[j++] != q) /* not a string: nothing to hide */
    return false;
  *vs = j;
  while (s[j]) {
    if (esc && s[j] == '\\' && s[j + 1] == q)
      break;
    if (!esc && s[j] == '\\' && s[j + 1]) {
      j += 2;
      continue;
    }
    if (!esc && s[j] == q)
      break;
    j++;
  }
  *ve = j; /* at the closing quote, or the end of a cut-off text */
  return true;
}

static size_t span_until(const char *s, size_t j, const char *stops) {
  while (s[j] && !strchr(stops, s[j]))
    j++;
  return j;
}

char *redact(const char *text) {
  strbuf b;
  sb_init(&b);
  size_t copied = 0;
  for (size_t i = 0; text[i];) {
    const char *key = NULL;
    switch (text[i] | 0x20) { /* the first letters of secret_keys */
    case 'a':
    case 'r':
    case 'i':
    case 's':
    case 'c':
    case 'p': key = key_at(text, i); break;
    default: break;
    }
    if (!key) {
      i++;
      continue;
    }
    size_t j = i + strlen(key), vs = 0, ve = 0;
    bool found = quoted_field(text, i, j, &vs, &ve);
    if (!found && text[j] == '=') {
      vs = j + 1;
      ve = span_until(text, vs, "&;,)]}<>\"'\\ \t\r\n");
      found = ve > vs;
    }
    if (!found && strstr(key, "authorization")) {
      size_t k = skip_blanks(text, j);
      if (text[k] == ':') {
        vs = skip_blanks(text, k + 1);
        ve = span_until(text, vs, "\r\n\"\\");
        found = ve > vs;
      }
    }
    if (!found) {
      i = j;
      continue;
    }
    sb_add(&b, text + copied, vs - copied);
    sb_adds(&b, REDACTED);
    copied = i = ve;
  }
  sb_adds(&b, text + copied);
  return sb_take(&b);
}
