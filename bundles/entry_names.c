#include "entry_names.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/ustring.h>

static uint64_t fold_hash(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) {
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  }
  return h;
}

/* `s` case-folded (Unicode full case folding, so "STRASSE" and "straße"
 * are one name, as a case-insensitive file system takes them); ASCII
 * folding for a name that is not UTF-8. A new string. */
static char *fold(const char *s) {
  UChar in[1100], out[2300];
  int32_t ilen = 0, olen = 0, ulen = 0;
  UErrorCode e = U_ZERO_ERROR;
  u_strFromUTF8(in, 1100, &ilen, s, -1, &e);
  if (U_SUCCESS(e)) {
    olen = u_strFoldCase(out, 2300, in, ilen, U_FOLD_CASE_DEFAULT, &e);
  }
  char *r = malloc(3 * 2300 + 1);
  if (!r) {
    abort();
  }
  if (U_SUCCESS(e)) {
    u_strToUTF8(r, 3 * 2300, &ulen, out, olen, &e);
  }
  if (U_FAILURE(e)) {
    size_t i = 0;
    for (; s[i] && i < 3 * 2300; i++) {
      r[i] = (char)tolower((unsigned char)s[i]);
    }
    ulen = (int32_t)i;
  }
  r[ulen] = '\0';
  return r;
}

bool entry_names_add(entry_names *ns, const char *name) {
  char *s = fold(name);
  if (ns->count * 2 >= ns->cap) {
    size_t cap = ns->cap ? ns->cap * 2 : 1024;
    char **slots = calloc(cap, sizeof *slots);
    if (!slots) {
      abort();
    }
    for (size_t i = 0; i < ns->cap; i++) {
      if (ns->slots[i]) {
        size_t j = fold_hash(ns->slots[i]) & (cap - 1);
        while (slots[j]) {
          j = (j + 1) & (cap - 1);
        }
        slots[j] = ns->slots[i];
      }
    }
    free(ns->slots);
    ns->slots = slots;
    ns->cap = cap;
  }
  size_t j = fold_hash(s) & (ns->cap - 1);
  while (ns->slots[j]) {
    if (strcmp(ns->slots[j], s) == 0) {
      free(s);
      return false;
    }
    j = (j + 1) & (ns->cap - 1);
  }
  ns->slots[j] = s; /* owned by the set now */
  ns->count++;
  return true;
}

void entry_names_free(entry_names *ns) {
  for (size_t i = 0; i < ns->cap; i++) {
    free(ns->slots[i]);
  }
  free(ns->slots);
}

const char *entry_name_rule(const char *name, bool dir,
                            const extract_limits *lim) {
  size_t len = strlen(name);
  if (len == 0) {
    return "an empty name";
  }
  if (len > lim->max_path) {
    return "the name is too long";
  }
  for (const char *p = name; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c < 0x20 || c == 0x7f) {
      return "a control character in the name";
    }
    if (c == '\\') {
      return "a backslash in the name";
    }
  }
  if (name[0] == '/') {
    return "an absolute path";
  }
  if (isalpha((unsigned char)name[0]) && name[1] == ':') {
    return "a drive letter";
  }
  size_t depth = 0;
  for (const char *p = name; *p;) {
    size_t c = strcspn(p, "/");
    /* A directory's one trailing '/' ends the loop before this: an
     * empty component here is "a//b" or "a//". */
    if (c == 0) {
      return "an empty path component";
    }
    if (c == 2 && p[0] == '.' && p[1] == '.') {
      return "a path component is \"..\"";
    }
    if (c == 1 && p[0] == '.') {
      return "a path component is \".\"";
    }
    if (c > 255) {
      return "a path component is too long";
    }
    if (++depth > lim->max_depth) {
      return "the path is too deep";
    }
    p += c;
    if (*p == '/') {
      p++;
    }
  }
  if (!dir && name[len - 1] == '/') {
    return "a file name ending in '/'";
  }
  return NULL;
}
