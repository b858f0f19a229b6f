#include "safety/sanitize.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "size_limits.h"
#include "safety/unicode_quick.h"
#include "text_escape.h"
#include "utf8.h"

/* Text is cut into segments around its non-ASCII runs: only those are
 * decoded and normalized, the ASCII between them is copied (or, when
 * nothing changes, not even that). A segment starts one byte before its
 * run, because that ASCII letter may compose with combining marks that
 * follow it (e + U+0301 is é); it ends before an ASCII byte, and there
 * is a normalization boundary before every ASCII character (none is ever
 * the second half of a composition, all have combining class 0). So
 * segments normalize independently and their concatenation is the
 * normalization of the whole.
 *
 * NFKC and the categories come from tables generated from ICU at build
 * time (unicode_quick.h), which are exactly ICU's data: ICU is not
 * opened at run time, so there is no fallback to it and no failure to
 * load it. */

/* Two runs closer than this share one segment: one pass for
 * "café crème", not two. */
#define SEG_GAP 256
/* A segment with no ASCII byte to split at is cut at a code point
 * boundary when it reaches this size, which bounds the code point
 * buffers; only a composition straddling that cut could be missed,
 * validity and filtering hold. */
#define SEG_MAX ((size_t)1 << 28)

typedef struct san {
  bool utf8_only;   /* sanitize_json_utf8: validity only */
  unicode_text txt; /* the segment as code points, normalized */
  char *u8;         /* the changed segment back in UTF-8 */
  size_t u8cap;
  strbuf out;    /* the sanitized string, once something changed */
  size_t copied; /* input bytes accounted for in `out` */
  bool changed;
} san;

static void san_init(san *z) {
  memset(z, 0, sizeof *z);
  sb_init(&z->out);
}

static void san_free(san *z) {
  unicode_text_free(&z->txt);
  free(z->u8);
  sb_free(&z->out);
}

/* The first byte at or after `i` with its high bit set, or `len`. Eight
 * bytes at a time: this is the whole cost of an ASCII string. */
static size_t skip_ascii(const char *s, size_t i, size_t len) {
  while (i + 8 <= len) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080ull)
      break;
    i += 8;
  }
  while (i < len && !((unsigned char)s[i] & 0x80))
    i++;
  return i;
}

static size_t skip_non_ascii(const char *s, size_t i, size_t len) {
  while (i + 8 <= len) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if ((w & 0x8080808080808080ull) != 0x8080808080808080ull)
      break;
    i += 8;
  }
  while (i < len && ((unsigned char)s[i] & 0x80))
    i++;
  return i;
}

/* Drops removable code points from t in place, setting *dropped when it
 * drops any. Text with nothing to drop, the common case, is only read.
 * Returns whether normalizing could change the result: only when a
 * dropped code point stood before a non-ASCII one, since there is a
 * normalization boundary before every ASCII character and at the end,
 * and the text on either side is already normalized. */
static bool filter(unicode_text *t, bool *dropped) {
  size_t w = 0;
  bool after_drop = false, again = false;
  for (size_t r = 0; r < t->len; r++) {
    uint32_t c = t->cp[r];
    if (c >= 0x80 && unicode_removable(c)) {
      after_drop = true;
      continue;
    }
    again = again || (after_drop && c >= 0x80);
    after_drop = false;
    t->cp[w++] = c;
  }
  *dropped = w < t->len;
  t->len = w;
  return again;
}

/* Appends to z->out what precedes the segment [start, end) and `rep`,
 * the segment's replacement. */
static void emit(san *z, const char *s, size_t start, size_t end,
                 const char *rep, size_t rep_len) {
  z->changed = true;
  sb_add(&z->out, s + z->copied, start - z->copied);
  sb_add(&z->out, rep, rep_len);
  z->copied = end;
}

/* Off only in tests (sanitize_use_quick_tables): every non-ASCII segment
 * is then decoded and normalized, to compare. */
static bool quick_tables = true;

void sanitize_use_quick_tables(bool on) {
  quick_tables = on;
}

static void segment(san *z, const char *s, size_t start, size_t end) {
  /* What the tables prove clean normalizing would give back as it is:
   * most non-ASCII text is only read (unicode_quick.h). */
  if (quick_tables && unicode_quick_clean(s + start, end - start)) {
    return;
  }
  const unsigned char *p = (const unsigned char *)s;
  unicode_text *t = &z->txt;
  unicode_text_reserve(t, end - start);
  t->len = 0;
  bool changed = false;
  for (size_t i = start; i < end;) {
    if (p[i] < 0x80) {
      t->cp[t->len++] = p[i++];
      continue;
    }
    /* A maximal ill-formed subpart leaves cp as it was: one U+FFFD. */
    bool ok;
    uint32_t cp = 0xFFFD;
    i += utf8_sequence(p + i, end - i, &ok, &cp);
    changed = changed || !ok;
    t->cp[t->len++] = cp;
  }
  /* Removing a code point can bring together two that compose, so
   * normalize again after a removal that may have (filter()), until
   * nothing changes. */
  for (int round = 0; round < SANITIZE_MAX_ROUNDS; round++) {
    changed |= unicode_nfkc(t);
    bool dropped;
    bool again = filter(t, &dropped);
    changed |= dropped;
    if (!again) {
      break;
    }
  }
  if (!changed) {
    return;
  }
  size_t need = t->len * 4 + 1;
  if (z->u8cap < need) {
    z->u8 = xrealloc(z->u8, need);
    z->u8cap = need;
  }
  size_t n8 = 0;
  for (size_t i = 0; i < t->len; i++) {
    if (t->cp[i] < 0x80) {
      z->u8[n8++] = (char)t->cp[i];
    } else {
      n8 += utf8_put((unsigned char *)z->u8 + n8, t->cp[i]);
    }
  }
  emit(z, s, start, end, z->u8, n8);
}

/* Validity only: each maximal ill-formed subpart of s[start..end)
 * becomes U+FFFD. */
static void utf8_repair(san *z, const char *s, size_t start, size_t end) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = start; i < end;) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    bool ok;
    size_t k = utf8_sequence(p + i, end - i, &ok, NULL);
    if (!ok) {
      emit(z, s, i, i + k, "\xEF\xBF\xBD", 3);
    }
    i += k;
  }
}

/* Sanitizes s[from..to), a part without U+0000, into z->out. */
static void san_range(san *z, const char *s, size_t from, size_t to) {
  if (z->utf8_only) {
    utf8_repair(z, s, skip_ascii(s, from, to), to);
    return;
  }
  size_t len = to;
  size_t i = skip_ascii(s, from, len), done = from;
  while (i < len) {
    size_t start = i > done ? i - 1 : i, end = i;
    for (;;) {
      size_t lim = len - start > SEG_MAX ? start + SEG_MAX : len;
      end = skip_non_ascii(s, end, lim);
      if (end == lim && lim < len && ((unsigned char)s[end] & 0x80)) {
        /* Cut inside a run: back up to the start of a code point. */
        for (int k = 0;
             k < 3 && end > i && ((unsigned char)s[end] & 0xC0) == 0x80; k++)
          end--;
        break;
      }
      size_t next = skip_ascii(s, end, len);
      if (next == len || next - end >= SEG_GAP || next - start >= SEG_MAX)
        break;
      end = next;
    }
    segment(z, s, start, end);
    done = end;
    i = skip_ascii(s, end, len);
  }
}

/* Sanitizes s[0..len). Returns true when the text changed; the result is
 * then in z->out. U+0000, held as C0 80 (json_parse.h), is a control
 * character kept by either rule: the parts between are sanitized alone
 * and it stays between them. */
static bool san_bytes(san *z, const char *s, size_t len) {
  z->changed = false;
  z->copied = 0;
  z->out.len = 0;
  size_t from = 0;
  for (;;) {
    const char *nul = memmem(s + from, len - from, "\xC0\x80", 2);
    size_t to = nul ? (size_t)(nul - s) : len;
    san_range(z, s, from, to);
    if (!nul)
      break;
    from = to + 2;
  }
  if (z->changed)
    sb_add(&z->out, s + z->copied, len - z->copied);
  return z->changed;
}

/* Sanitizes the cJSON-owned string at *p. Returns 1 when it changed. */
static size_t san_cjson_string(san *z, char **p, bool owned) {
  char *s = *p;
  size_t len = strlen(s);
  if (skip_ascii(s, 0, len) == len || !san_bytes(z, s, len))
    return 0;
  char *n = cJSON_malloc(z->out.len + 1);
  if (!n) { /* fail closed: an empty string rather than an unchecked one */
    s[0] = '\0';
    return 1;
  }
  memcpy(n, z->out.data, z->out.len);
  n[z->out.len] = '\0';
  if (owned)
    cJSON_free(s);
  *p = n;
  return 1;
}

static size_t san_node(san *z, cJSON *n) {
  size_t changed = 0;
  if (n->string) {
    bool owned = !(n->type & cJSON_StringIsConst);
    char *before = n->string;
    changed += san_cjson_string(z, &n->string, owned);
    if (n->string != before)
      n->type &= ~cJSON_StringIsConst; /* the new key is ours to free */
  }
  if (cJSON_IsString(n) && n->valuestring && !(n->type & cJSON_IsReference))
    changed += san_cjson_string(z, &n->valuestring, true);
  return changed;
}

static size_t san_json(cJSON *root, bool utf8_only) {
  if (!root)
    return 0;
  san z;
  san_init(&z);
  z.utf8_only = utf8_only;
  size_t changed = san_node(&z, root);
  /* Depth first with an explicit stack of the siblings still to visit:
   * it holds one entry per level, on the heap. */
  cJSON **stack = NULL;
  size_t depth = 0, cap = 0;
  cJSON *n = root->child;
  while (n) {
    changed += san_node(&z, n);
    if (n->child) {
      if (n->next) {
        if (depth == cap) {
          cap = cap ? cap * 2 : 32;
          stack = xrealloc(stack, cap * sizeof *stack);
        }
        stack[depth++] = n->next;
      }
      n = n->child;
    } else if (n->next) {
      n = n->next;
    } else {
      n = depth ? stack[--depth] : NULL;
    }
  }
  free(stack);
  san_free(&z);
  return changed;
}

size_t sanitize_json(cJSON *root) {
  return san_json(root, false);
}

size_t sanitize_json_utf8(cJSON *root) {
  return san_json(root, true);
}

bool sanitize_mode_parse(const char *s, sanitize_mode *out) {
  static const struct {
    const char *name;
    sanitize_mode mode;
  } map[] = {{"full", SANITIZE_MODE_FULL},
             {"display", SANITIZE_MODE_DISPLAY},
             {"off", SANITIZE_MODE_OFF}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
    if (strcmp(s, map[i].name) == 0) {
      *out = map[i].mode;
      return true;
    }
  }
  return false;
}

bool sanitize_is_full(sanitize_mode mode, sanitize_kind kind) {
  switch (mode) {
  case SANITIZE_MODE_FULL: return true;
  case SANITIZE_MODE_DISPLAY:
  case SANITIZE_MODE_OFF: return kind == SANITIZE_MODEL;
  case SANITIZE_MODE_DEFAULT: break;
  }
  return kind != SANITIZE_RESULT;
}

void sanitize_message(cJSON *msg, sanitize_mode mode, sanitize_kind kind) {
  if (!cJSON_IsObject(msg) && !cJSON_IsArray(msg)) {
    return;
  }
  bool full = sanitize_is_full(mode, kind);
  for (cJSON *m = msg->child; m; m = m->next) {
    if (cJSON_IsObject(msg) && m->string && strcmp(m->string, "id") == 0) {
      continue;
    }
    if (full) {
      sanitize_json(m);
    } else {
      sanitize_json_utf8(m);
    }
  }
}

unsigned sanitize_escape_flags(sanitize_mode mode) {
  return mode == SANITIZE_MODE_OFF ? 0u : (unsigned)TEXT_ESCAPE_INVISIBLE;
}

char *sanitize_text(const char *s, size_t len, size_t *out_len) {
  san z;
  san_init(&z);
  char *r;
  size_t n = len;
  if (skip_ascii(s, 0, len) < len && san_bytes(&z, s, len)) {
    n = z.out.len;
    r = xstrndup(z.out.data, n);
  } else {
    r = xstrndup(s, len);
  }
  san_free(&z);
  if (out_len)
    *out_len = n;
  return r;
}
