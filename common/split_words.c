/* Shell-like word splitting; see split_words.h. */
#include "split_words.h"

#include <stdlib.h>
#include <string.h>

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

/* One word from *pp into `w` (room for strlen(*pp) + 1 bytes). Returns 0
 * or -1 for an unterminated quote. */
static int one_word(const char **pp, char *w) {
  const char *p = *pp;
  size_t k = 0;
  while (*p && !is_space(*p)) {
    if (*p == '\'') {
      const char *q = strchr(p + 1, '\'');
      if (!q) {
        return -1;
      }
      memcpy(w + k, p + 1, (size_t)(q - p - 1));
      k += (size_t)(q - p - 1);
      p = q + 1;
    } else if (*p == '"') {
      p++;
      while (*p && *p != '"') {
        if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) {
          p++;
        }
        w[k++] = *p++;
      }
      if (*p != '"') {
        return -1;
      }
      p++;
    } else if (*p == '\\' && p[1]) {
      w[k++] = p[1];
      p += 2;
    } else {
      w[k++] = *p++;
    }
  }
  w[k] = '\0';
  *pp = p;
  return 0;
}

int split_words(const char *s, char ***out, size_t *n) {
  size_t len = strlen(s), count = 0;
  /* At most one word per two bytes, plus the terminator. */
  char **words = calloc(len / 2 + 2, sizeof *words);
  int rc = 0;
  *out = NULL;
  *n = 0;
  if (!words) {
    return -2;
  }
  const char *p = s;
  for (;;) {
    while (is_space(*p)) {
      p++;
    }
    if (!*p) {
      break;
    }
    char *w = malloc(len + 1);
    if (!w) {
      rc = -2;
      goto out;
    }
    words[count++] = w;
    if (one_word(&p, w) != 0) {
      rc = -1;
      goto out;
    }
  }
out:
  if (rc != 0) {
    split_words_free(words);
    return rc;
  }
  *out = words;
  *n = count;
  return 0;
}

void split_words_free(char **words) {
  if (!words) {
    return;
  }
  for (char **w = words; *w; w++) {
    free(*w);
  }
  free(words);
}
