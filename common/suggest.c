/* Did you mean: the closest names (suggest.h). */
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static char *fold(const char *s) {
  char *f = xstrdup(s ? s : "");
  for (char *p = f; *p; p++) {
    if (*p == '-' || *p == '.' || *p == '/' || *p == ' ') {
      *p = '_';
    } else {
      *p = (char)tolower((unsigned char)*p);
    }
  }
  return f;
}

/* Edits to turn a into b: insertions, deletions, substitutions and
 * swaps of two neighbours ("strat" is one swap from "start"), the
 * optimal string alignment distance. Three rows: the one before the
 * previous is what a swap reaches back to. */
static size_t distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  size_t *rows = xcalloc(3 * (lb + 1), sizeof *rows);
  size_t *back = rows, *prev = rows + lb + 1, *cur = rows + 2 * (lb + 1);
  for (size_t j = 0; j <= lb; j++) {
    prev[j] = j;
  }
  for (size_t i = 1; i <= la; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t best = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      if (prev[j] + 1 < best) {
        best = prev[j] + 1;
      }
      if (cur[j - 1] + 1 < best) {
        best = cur[j - 1] + 1;
      }
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          back[j - 2] + 1 < best) {
        best = back[j - 2] + 1;
      }
      cur[j] = best;
    }
    size_t *t = back;
    back = prev;
    prev = cur;
    cur = t;
  }
  size_t d = prev[lb];
  free(rows);
  return d;
}

size_t mcp_name_distance(const char *a, const char *b) {
  char *fa = fold(a), *fb = fold(b);
  size_t d = distance(fa, fb);
  free(fa);
  free(fb);
  return d;
}

#define MAX_SUGGESTIONS 3
/* A containing name ranks after every real edit of one or two. */
#define CONTAINS_RANK 3

size_t mcp_suggest(strbuf *out, const char *want, const char *const *names,
                   size_t n) {
  size_t pick[MAX_SUGGESTIONS], rank[MAX_SUGGESTIONS], npick = 0;
  char *fw = fold(want);
  size_t lw = strlen(fw);
  for (size_t i = 0; i < n; i++) {
    if (!names[i]) {
      continue;
    }
    char *fn = fold(names[i]);
    size_t ln = strlen(fn), longer = ln > lw ? ln : lw;
    /* Names of one or two characters are only suggested for a
     * difference of case or separator. */
    size_t limit = longer / 3;
    size_t d = distance(fw, fn);
    bool contains = lw >= 3 && ln >= 3 && (strstr(fn, fw) || strstr(fw, fn));
    free(fn);
    if (d == 0 && strcmp(want, names[i]) == 0) {
      continue; /* the name itself is no suggestion */
    }
    if (d > limit && !contains) {
      continue;
    }
    size_t r = d > limit ? CONTAINS_RANK + d : d;
    /* Insert in rank order, keeping the first of equal ranks first. */
    size_t at = npick;
    while (at > 0 && rank[at - 1] > r) {
      at--;
    }
    if (at >= MAX_SUGGESTIONS) {
      continue;
    }
    size_t last = npick < MAX_SUGGESTIONS ? npick : MAX_SUGGESTIONS - 1;
    for (size_t k = last; k > at; k--) {
      pick[k] = pick[k - 1];
      rank[k] = rank[k - 1];
    }
    pick[at] = i;
    rank[at] = r;
    if (npick < MAX_SUGGESTIONS) {
      npick++;
    }
  }
  free(fw);
  if (npick == 0) {
    return 0;
  }
  sb_adds(out, " (did you mean ");
  for (size_t k = 0; k < npick; k++) {
    sb_printf(out, "%s\"%s\"",
              k == 0           ? ""
              : k + 1 == npick ? " or "
                               : ", ",
              names[pick[k]]);
  }
  sb_adds(out, "?)");
  return npick;
}

size_t mcp_suggest_array(strbuf *out, const char *want, const cJSON *names) {
  int n = cJSON_GetArraySize(names);
  const char **v = xcalloc(n > 0 ? (size_t)n : 1, sizeof *v);
  size_t k = 0;
  for (int i = 0; i < n; i++) {
    const char *name = cJSON_GetStringValue(cJSON_GetArrayItem(names, i));
    if (name) {
      v[k++] = name;
    }
  }
  size_t found = mcp_suggest(out, want, v, k);
  free(v);
  return found;
}
