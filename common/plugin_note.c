#include "plugin_note.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "strbuf.h"

#define NOTE_MAGIC "mcphost-note\t1"

/* The lists of the note, in the order of plugin_note.lists. */
enum {
  L_TYPES,
  L_COMMANDS,
  L_EXTENSIONS,
  L_REQUESTS,
  L_NOTIFS,
  L_ENV,
  L_PATHS,
  L_COUNT
};

/* ---- writing ---- */

/* Appends "\tVALUE" (VALUE may be NULL: empty); false when it holds a
 * tab or a newline, which the format cannot carry. */
static bool field(strbuf *b, const char *v) {
  sb_addc(b, '\t');
  if (v && strpbrk(v, "\t\n")) {
    return false;
  }
  sb_adds(b, v ? v : "");
  return true;
}

static bool line1(strbuf *b, const char *key, const char *v) {
  if (!v) {
    return true;
  }
  sb_adds(b, key);
  bool ok = field(b, v);
  sb_addc(b, '\n');
  return ok;
}

static bool list(strbuf *b, const char *key, const char *const *l) {
  bool ok = true;
  for (; l && *l; l++) {
    ok = line1(b, key, *l) && ok;
  }
  return ok;
}

#define HAS(pr, f) MCPH_HAS(pr, mcph_provides, f)

char *plugin_note_write(const mcph_entry *e, const char *const *reads,
                        int servers, const char *caps, int caps_init_now,
                        char *why, size_t n) {
  const mcph_provides *pr =
      MCPH_HAS(e, mcph_entry, provides) ? e->provides : NULL;
  if (!pr || !HAS(pr, implementation) || !pr->implementation) {
    snprintf(why, n, "the entry names no implementation: not a stub");
    return NULL;
  }
  strbuf b;
  sb_init(&b);
  sb_printf(&b, NOTE_MAGIC "\nabi\t%u\t%u\n", e->abi_major, e->abi_minor);
  bool ok = line1(&b, "id", e->id) && line1(&b, "name", e->name);
  ok = line1(&b, "version", e->version) && ok;
  ok = line1(&b, "description", e->description) && ok;
  ok = line1(&b, "implementation", pr->implementation) && ok;
  for (const char *const *t = pr->transport_types; t && *t; t++) {
    const mcph_transport_type_info *i =
        HAS(pr, transport_info) ? pr->transport_info : NULL;
    while (i && i->type && strcmp(i->type, *t) != 0) {
      i = (const mcph_transport_type_info *)((const char *)i + i->struct_size);
    }
    if (!i || !i->type) {
      snprintf(why, n, "the type %s has no type information", *t);
      sb_free(&b);
      return NULL;
    }
    sb_adds(&b, "type");
    ok = field(&b, *t) && ok;
    sb_printf(&b, "\t%u\n", i->flags);
  }
  ok = list(&b, "command", pr->commands) && ok;
  ok = list(&b, "extension", pr->extensions) && ok;
  ok = list(&b, "request", pr->requests) && ok;
  ok = list(&b, "notification", pr->notifications) && ok;
  const mcph_options *o = HAS(pr, options) ? pr->options : NULL;
  if (o && mcph_options_stride(o) == 0) {
    ok = false; /* a broken table (feature.h): none of it is described */
    o = NULL;
  }
  for (size_t i = 0; o && i < o->count; i++) {
    const mcph_option *op = mcph_options_at(o, i);
    sb_adds(&b, "option");
    ok = field(&b, op->name) && field(&b, op->arg) && field(&b, op->help) &&
         ok && op->name && *op->name && (!op->arg || *op->arg);
    sb_addc(&b, '\n');
  }
  if (HAS(pr, source_description)) {
    ok = line1(&b, "source", pr->source_description) && ok;
  }
  if (HAS(pr, has_servers) && pr->has_servers) {
    sb_printf(&b, "servers\t%d\n", servers != 0);
  }
  if (HAS(pr, capabilities) && pr->capabilities) {
    sb_printf(&b, "capabilities\t%d", caps_init_now != 0);
    ok = field(&b, caps) && ok;
    sb_addc(&b, '\n');
  }
  for (; reads && *reads; reads++) {
    ok =
        (strncmp(*reads, "env:", 4) == 0 || strncmp(*reads, "path:", 5) == 0) &&
        line1(&b, "reads", *reads) && ok;
  }
  if (!ok) {
    snprintf(why, n,
             "a value holds a tab or a newline, an option has no name or "
             "an empty argument name, or a read is neither env: nor path:");
    sb_free(&b);
    return NULL;
  }
  return sb_take(&b);
}

/* ---- parsing ---- */

/* Appends s to the NULL-terminated list l, sized by the first pass. */
static void push(const char **l, size_t *count, const char *s) {
  l[(*count)++] = s;
  l[*count] = NULL;
}

/* A decimal number up to `max`, digits only. */
static bool number(const char *s, unsigned long max, unsigned long *out) {
  unsigned long v = 0;
  if (!*s) {
    return false;
  }
  for (; *s; s++) {
    unsigned long d = (unsigned long)(*s - '0');
    if (*s < '0' || *s > '9' || d > max || v > (max - d) / 10) {
      return false;
    }
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

/* Everything a note points into is in its own block (plugin_note_parse). */
void plugin_note_free(plugin_note *note) {
  free(note);
}

/* One line, split at its tabs into f (at most 4 fields): the count, or 0
 * when it has more. */
static size_t split(char *line, char **f) {
  size_t nf = 0;
  for (char *s = line;; nf++) {
    if (nf == 4) {
      return 0;
    }
    f[nf] = s;
    char *tab = strchr(s, '\t');
    if (!tab) {
      return nf + 1;
    }
    *tab = '\0';
    s = tab + 1;
  }
}

/* Where the parser keeps the counts of what it builds. */
typedef struct parse_state {
  size_t counts[L_COUNT];
  size_t ninfo, noptions;
  bool abi, id;
} parse_state;

/* The items a line can be: the single values (in the order of
 * value_slot), the lists (in the order of plugin_note.lists), the rest. */
enum {
  K_ID,
  K_NAME,
  K_VERSION,
  K_DESCRIPTION,
  K_IMPLEMENTATION,
  K_SOURCE,
  K_TYPE,
  K_COMMAND,
  K_EXTENSION,
  K_REQUEST,
  K_NOTIFICATION,
  K_ABI,
  K_OPTION,
  K_SERVERS,
  K_CAPABILITIES,
  K_READS,
  K_COUNT
};
static const char *const keys[K_COUNT] = {
    "id",           "name", "version", "description", "implementation",
    "source",       "type", "command", "extension",   "request",
    "notification", "abi",  "option",  "servers",     "capabilities",
    "reads"};

/* Whether `key` is item k's name. */
static bool named(const char *key, int k) {
  return strcmp(keys[k], key) == 0;
}

/* The item `key` names, or K_COUNT: by the first letter, then the one or
 * two names that start with it (every start reads ten notes of some
 * twenty lines). */
static int key_of(const char *key) {
  int a = K_COUNT, b = K_COUNT;
  switch (key[0]) {
  case 'a': a = K_ABI; break;
  case 'c': a = K_COMMAND, b = K_CAPABILITIES; break;
  case 'd': a = K_DESCRIPTION; break;
  case 'e': a = K_EXTENSION; break;
  case 'i': a = K_ID, b = K_IMPLEMENTATION; break;
  case 'n': a = K_NAME, b = K_NOTIFICATION; break;
  case 'o': a = K_OPTION; break;
  case 'r': a = K_REQUEST, b = K_READS; break;
  case 's': a = K_SOURCE, b = K_SERVERS; break;
  case 't': a = K_TYPE; break;
  case 'v': a = K_VERSION; break;
  default: return K_COUNT;
  }
  return named(key, a) ? a : b < K_COUNT && named(key, b) ? b : K_COUNT;
}

static const char **value_slot(plugin_note *note, int k) {
  switch (k) {
  case K_ID: return &note->entry.id;
  case K_NAME: return &note->entry.name;
  case K_VERSION: return &note->entry.version;
  case K_DESCRIPTION: return &note->entry.description;
  case K_IMPLEMENTATION: return &note->provides.implementation;
  default: return &note->provides.source_description;
  }
}

/* Takes one line's fields; NULL, or what is wrong with it. */
static const char *take(plugin_note *note, parse_state *st, char **f,
                        size_t nf) {
  unsigned long a, b;
  int k = key_of(f[0]);
  if (k <= K_SOURCE) {
    const char **slot = value_slot(note, k);
    if (nf != 2 || !*f[1]) {
      return "an empty or split value";
    }
    if (*slot) {
      return "a value given twice";
    }
    *slot = f[1];
    st->id = st->id || k == K_ID;
    return NULL;
  }
  if (k <= K_NOTIFICATION) {
    size_t i = (size_t)(k - K_TYPE);
    if (nf != (k == K_TYPE ? 3u : 2u) || !*f[1]) {
      return "a malformed list item";
    }
    if (k == K_TYPE) {
      if (!number(f[2], UINT_MAX, &a)) {
        return "a type's flags are not a number";
      }
      note->info[st->ninfo++] = (mcph_transport_type_info){
          sizeof(mcph_transport_type_info), f[1], (unsigned)a};
      note->info[st->ninfo] =
          (mcph_transport_type_info){sizeof(mcph_transport_type_info), NULL, 0};
    }
    push(note->lists[i], &st->counts[i], f[1]);
    return NULL;
  }
  switch (k) {
  case K_ABI:
    if (nf != 3 || st->abi || !number(f[1], UINT_MAX, &a) ||
        !number(f[2], UINT_MAX, &b)) {
      return "a malformed abi line";
    }
    note->entry.abi_major = (uint32_t)a;
    note->entry.abi_minor = (uint32_t)b;
    st->abi = true;
    return NULL;
  case K_OPTION:
    if (nf != 4 || !*f[1]) {
      return "a malformed option";
    }
    note->option_list[st->noptions++] =
        (mcph_option){f[1], *f[2] ? f[2] : NULL, f[3]};
    return NULL;
  case K_SERVERS:
    if (nf != 2 || note->servers_code || !number(f[1], 1, &a)) {
      return "a malformed servers line";
    }
    note->servers_code = true;
    note->servers = (int)a;
    return NULL;
  case K_CAPABILITIES:
    if (nf != 3 || note->caps_code || !number(f[1], 1, &a)) {
      return "a malformed capabilities line";
    }
    note->caps_code = true;
    note->caps_init_now = (int)a;
    note->caps = *f[2] ? f[2] : NULL;
    return NULL;
  case K_READS: {
    bool env = nf == 2 && strncmp(f[1], "env:", 4) == 0 && f[1][4];
    bool path = nf == 2 && strncmp(f[1], "path:", 5) == 0 && f[1][5];
    if (!env && !path) {
      return "a read is neither env:NAME nor path:ALT";
    }
    int l = env ? L_ENV : L_PATHS;
    push(note->lists[l], &st->counts[l], f[1] + (env ? 4 : 5));
    return NULL;
  }
  default: return "an unknown item";
  }
}

/* The note's one block, sized by a first pass that counts the lines by
 * their first letter (each list's item names one: room enough, a slot
 * or two to spare): the struct, each list that may have items (with its
 * NULL), the type infos, the options, and the text's copy, which they
 * point into. What stays empty is set back to NULL once parsed. */
static plugin_note *note_block(const char *text, size_t len) {
  size_t by[26] = {0};
  const char *end = text + len;
  for (const char *p = text; p < end;) {
    if (*p >= 'a' && *p <= 'z') {
      by[*p - 'a']++;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    p = nl ? nl + 1 : end;
  }
  size_t items[L_COUNT] = {by['t' - 'a'], by['c' - 'a'], by['e' - 'a'],
                           by['r' - 'a'], by['n' - 'a'],
                           /* reads: env: or path: */
                           by['r' - 'a'], by['r' - 'a']};
  size_t nptr = 0;
  for (size_t i = 0; i < L_COUNT; i++) {
    nptr += items[i] ? items[i] + 1 : 0;
  }
  size_t ninfo = items[L_TYPES] ? items[L_TYPES] + 1 : 0;
  size_t nopt = by['o' - 'a'];
  plugin_note *note = xmalloc(sizeof *note + nptr * sizeof(const char *) +
                              ninfo * sizeof(mcph_transport_type_info) +
                              nopt * sizeof(mcph_option) + len + 1);
  memset(note, 0, sizeof *note);
  const char **ptr = (const char **)(note + 1);
  for (size_t i = 0; i < L_COUNT; i++) {
    if (items[i]) {
      note->lists[i] = ptr;
      ptr += items[i] + 1;
    }
  }
  char *rest = (char *)ptr;
  if (ninfo) {
    note->info = (mcph_transport_type_info *)(void *)rest;
    rest += ninfo * sizeof(mcph_transport_type_info);
  }
  if (nopt) {
    note->option_list = (mcph_option *)(void *)rest;
    rest += nopt * sizeof(mcph_option);
  }
  note->text = rest;
  memcpy(note->text, text, len);
  note->text[len] = '\0';
  return note;
}

plugin_note *plugin_note_parse(const char *text, size_t len, char *why,
                               size_t n) {
  size_t mlen = strlen(NOTE_MAGIC);
  if (len < mlen + 1 || memcmp(text, NOTE_MAGIC "\n", mlen + 1) != 0) {
    snprintf(why, n, "not an mcphost note of format 1");
    return NULL;
  }
  if (memchr(text, '\0', len)) {
    snprintf(why, n, "the note holds a NUL byte");
    return NULL;
  }
  plugin_note *note = note_block(text, len);
  parse_state st = {0};
  char *line = note->text + mlen + 1;
  size_t lineno = 1;
  while (*line) {
    lineno++;
    char *nl = strchr(line, '\n');
    if (!nl) {
      snprintf(why, n, "line %zu does not end", lineno);
      plugin_note_free(note);
      return NULL;
    }
    *nl = '\0';
    char *f[4];
    size_t nf = split(line, f);
    const char *bad = nf ? take(note, &st, f, nf) : "too many fields";
    if (bad) {
      snprintf(why, n, "line %zu: %s", lineno, bad);
      plugin_note_free(note);
      return NULL;
    }
    line = nl + 1;
  }
  if (!st.abi || !st.id || !note->provides.implementation ||
      !note->lists[L_EXTENSIONS]) {
    snprintf(why, n,
             "the note lacks its abi, id, implementation or "
             "extensions");
    plugin_note_free(note);
    return NULL;
  }
  for (size_t i = 0; i < L_COUNT; i++) {
    if (!st.counts[i]) {
      note->lists[i] = NULL;
    }
  }
  if (!st.ninfo) {
    note->info = NULL;
  }
  mcph_provides *pr = &note->provides;
  pr->struct_size = sizeof *pr;
  pr->transport_types = note->lists[L_TYPES];
  pr->transport_info = note->info;
  pr->commands = note->lists[L_COMMANDS];
  pr->extensions = note->lists[L_EXTENSIONS];
  pr->requests = note->lists[L_REQUESTS];
  pr->notifications = note->lists[L_NOTIFS];
  if (st.noptions) {
    note->options =
        (mcph_options){sizeof(mcph_options), note->option_list, st.noptions,
                       sizeof(mcph_option)};
    pr->options = &note->options;
  }
  note->env = note->lists[L_ENV];
  note->paths = note->lists[L_PATHS];
  note->entry.struct_size = sizeof note->entry;
  note->entry.provides = pr;
  return note;
}
