#include "mcp/names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "util.h"
#include "fnv.h"
#include "mcp_name.h"
#include "size_limits.h"

/* "_" and eight hex digits of a hash: 32 bits make an accidental clash
 * within one server's list unlikely, and a clash is resolved anyway. */
#define HASH_LEN 9

char *name_normalize(const char *s) {
  return mcp_name_normalize(s);
}

/* FNV-1a (fnv.h): good enough to tell names apart (this is not a
 * defence against a chosen clash: clashes are resolved below). */
static uint32_t fnv1a(const char *s) {
  return fnv1a32(s, strlen(s));
}

static size_t clamp_len(size_t max_len) {
  return max_len < LIMIT_NAME_CHARS_MIN ? LIMIT_NAME_CHARS_MIN : max_len;
}

/* "<first `keep` bytes of norm>_<hash>": a new string. */
static char *hashed(const char *norm, size_t keep, uint32_t h) {
  size_t n = strlen(norm);
  return xasprintf("%.*s_%08x", (int)(keep < n ? keep : n), norm, (unsigned)h);
}

/* The server part written at `out`, which has room for strlen(server)
 * + 1 bytes: its normalized name, or the head of it and a hash (shorter
 * than the name it replaces); returns its length. */
static size_t server_part_at(const char *server, size_t max_len, char *out) {
  /* Half of what "mcp__" and "__" leave, so that a tool part always has
   * as much room as the server part. */
  size_t max = (clamp_len(max_len) - 7) / 2;
  size_t n = mcp_name_normalize_to(server, out);
  if (n <= max)
    return n;
  size_t keep = max - HASH_LEN;
  snprintf(out + keep, HASH_LEN + 1, "_%08x", (unsigned)fnv1a(server));
  return keep + HASH_LEN;
}

char *name_server_part(const char *server, size_t max_len) {
  char *out = xmalloc(strlen(server) + 1);
  server_part_at(server, max_len, out);
  return out;
}

size_t name_server_part_buf(const char *server, size_t max_len,
                            char buf[NAME_PART_BUF], char **part) {
  size_t n = strlen(server);
  *part = n < NAME_PART_BUF ? buf : xmalloc(n + 1);
  return server_part_at(server, max_len, *part);
}

/* ---- a set of the names taken so far ---- */

typedef struct name_set {
  const char **slots;
  size_t cap; /* a power of two, more than twice the names it holds */
} name_set;

static void set_init(name_set *t, size_t n) {
  t->cap = 16;
  while (t->cap < 2 * n + 2)
    t->cap *= 2;
  t->slots = xcalloc(t->cap, sizeof *t->slots);
}

/* Adds `name` unless present; returns whether it was added. */
static bool set_add(name_set *t, const char *name) {
  for (size_t i = fnv1a(name) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (!t->slots[i]) {
      t->slots[i] = name;
      return true;
    }
    if (strcmp(t->slots[i], name) == 0)
      return false;
  }
}

/* ---- assigning a list ---- */

typedef struct cand {
  size_t idx;
  int cls; /* 0: already normalized; 1: normalized fits; 2: too long */
  const char *orig;
  char *norm;
} cand;

static int cmp_cand(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->cls != y->cls)
    return x->cls < y->cls ? -1 : 1;
  int c = strcmp(x->orig, y->orig);
  if (c)
    return c;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

char **name_assign(const char *server, const char *const *originals, size_t n,
                   size_t max_len) {
  max_len = clamp_len(max_len);
  char *srv = name_server_part(server, max_len);
  char *prefix = xasprintf("mcp__%s__", srv);
  free(srv);
  size_t budget = max_len - strlen(prefix); /* >= the server part's max */
  char **names = xcalloc(n ? n : 1, sizeof *names);
  cand *c = xcalloc(n ? n : 1, sizeof *c);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (!originals[i])
      continue;
    char *norm = name_normalize(originals[i]);
    size_t len = strlen(norm);
    int cls = len == 0 || len > budget          ? 2
              : strcmp(norm, originals[i]) == 0 ? 0
                                                : 1;
    c[m++] = (cand){.idx = i, .cls = cls, .orig = originals[i], .norm = norm};
  }
  qsort(c, m, sizeof *c, cmp_cand);
  name_set taken;
  set_init(&taken, m);
  /* Natural names first, so that no hashed form can displace one. */
  for (size_t k = 0; k < m; k++) {
    if (c[k].cls == 2)
      continue;
    char *name = str_concat(prefix, c[k].norm);
    if (set_add(&taken, name))
      names[c[k].idx] = name;
    else
      free(name);
  }
  for (size_t k = 0; k < m; k++) {
    if (names[c[k].idx])
      continue;
    uint32_t h0 = fnv1a(c[k].orig);
    /* Each step adds an odd constant: the k-th variant differs from all
     * earlier ones, so a free name is found within m tries. */
    for (uint32_t step = 0;; step++) {
      char *tail =
          hashed(c[k].norm, budget - HASH_LEN, h0 + step * 0x9E3779B9u);
      char *name = str_concat(prefix, tail);
      free(tail);
      if (set_add(&taken, name)) {
        names[c[k].idx] = name;
        break;
      }
      free(name);
    }
  }
  for (size_t k = 0; k < m; k++)
    free(c[k].norm);
  free(c);
  free(taken.slots);
  free(prefix);
  return names;
}

void name_list_free(char **names, size_t n) {
  if (!names)
    return;
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

char **name_assign_items(const char *server, const cJSON *items, size_t max_len,
                         size_t *n) {
  size_t count = 0, i = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, items) count++;
  const char **orig = xcalloc(count ? count : 1, sizeof *orig);
  cJSON_ArrayForEach(it, items) orig[i++] =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
  char **names = name_assign(server, orig, count, max_len);
  free(orig);
  *n = count;
  return names;
}

/* Whether `want` is a name that name_assign keeps as it is for an item
 * of that very name: already normalized, and within `budget` bytes. */
static bool kept_as_is(const char *want, size_t budget) {
  size_t n = 0;
  for (; want[n]; n++) {
    if (!mcp_name_char((unsigned char)want[n])) {
      return false;
    }
  }
  return n > 0 && n <= budget;
}

const cJSON *name_find_item(const char *server, const cJSON *items,
                            size_t max_len, const char *want) {
  size_t n, i = 0;
  char buf[NAME_PART_BUF], *srv;
  size_t skip = strlen("mcp__") +
                name_server_part_buf(server, clamp_len(max_len), buf, &srv) +
                strlen("__");
  if (srv != buf)
    free(srv);
  const cJSON *found = NULL, *it;
  /* Every call names its tool: without naming the whole list each time
   * when, as nearly always, `want` is an item's own name kept as it is.
   * The first item of that name holds it (names.h: natural names before
   * hashed ones, already normalized ones first, then by position). */
  if (kept_as_is(want, clamp_len(max_len) - skip)) {
    cJSON_ArrayForEach(it, items) {
      const char *orig =
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
      if (orig && strcmp(orig, want) == 0) {
        return it;
      }
    }
  }
  char **names = name_assign_items(server, items, max_len, &n);
  cJSON_ArrayForEach(it, items) {
    if (!found && names[i] && strcmp(names[i] + skip, want) == 0)
      found = it;
    i++;
  }
  cJSON_ArrayForEach(it, items) {
    const char *orig =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
    if (!found && orig && strcmp(orig, want) == 0)
      found = it;
  }
  name_list_free(names, n);
  return found;
}

char *name_qualify(const char *server, const char *tool) {
  const char *one[] = {tool};
  char **names = name_assign(server, one, 1, NAME_MAX_LEN);
  char *q = names[0];
  free(names);
  return q;
}

bool name_parse(const char *ref, char **server, char **tool, bool *qualified) {
  if (str_starts(ref, "mcp__")) {
    const char *rest = ref + 5;
    const char *sep = strstr(rest, "__");
    if (!sep || sep == rest || sep[2] == '\0')
      return false;
    *server = xstrndup(rest, (size_t)(sep - rest));
    *tool = xstrdup(sep + 2);
    *qualified = true;
    return true;
  }
  const char *slash = strchr(ref, '/');
  if (!slash || slash == ref || slash[1] == '\0')
    return false;
  *server = xstrndup(ref, (size_t)(slash - ref));
  *tool = xstrdup(slash + 1);
  *qualified = false;
  return true;
}

bool name_tool_model_visible(const char *type, const char *tool) {
  if (!config_type_is_ide(type))
    return true;
  return strcmp(tool, "getDiagnostics") == 0 ||
         strcmp(tool, "executeCode") == 0;
}
