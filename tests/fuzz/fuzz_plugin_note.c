/* Fuzz target: a stub plugin's note (common/plugin_note.h), the text the
 * loader reads out of a plugin file instead of opening it, and the note
 * reader of the ELF file (common/elf_file.h). The first byte picks: odd,
 * the rest is a whole file given to elf_note_read; even, it is a note's
 * text. Promises checked:
 *   - a parsed note is whole: its abi, id, implementation and extensions
 *     there, every list NULL-terminated, one type information per type;
 *   - written back (plugin_note_write) and parsed again, it says the
 *     same, field by field;
 *   - elf_note_read gives a note no longer than the file, NUL-terminated
 *     at its length, or none, or an error with its reason. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf_file.h"
#include "plugin_note.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static size_t count(const char *const *l) {
  size_t n = 0;
  for (; l && l[n]; n++) {
  }
  return n;
}

static bool same_list(const char *const *a, const char *const *b) {
  size_t n = count(a);
  if (n != count(b)) {
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    if (strcmp(a[i], b[i]) != 0) {
      return false;
    }
  }
  return true;
}

static bool same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void check_whole(const plugin_note *n) {
  const mcph_provides *pr = &n->provides;
  if (!n->entry.id || !pr->implementation || !pr->extensions ||
      n->entry.provides != pr) {
    abort();
  }
  size_t types = count(pr->transport_types);
  for (size_t i = 0; i < types; i++) {
    if (!pr->transport_info ||
        !same_str(pr->transport_info[i].type, pr->transport_types[i])) {
      abort();
    }
  }
  if (types && pr->transport_info[types].type) {
    abort();
  }
}

/* Stand-ins for the stub's code, whose presence the writer records: never
 * called. */
static int no_servers(const mcph_host *h) {
  (void)h;
  abort();
}
static const char *no_caps(const mcph_host *h, int *init_now) {
  (void)h;
  (void)init_now;
  abort();
}

static void round_trip(const plugin_note *n) {
  /* Its reads, as the writer takes them. */
  size_t ne = count(n->env), np = count(n->paths);
  char **reads = calloc(ne + np + 1, sizeof *reads);
  for (size_t i = 0; i < ne; i++) {
    reads[i] = malloc(strlen(n->env[i]) + 5);
    strcpy(reads[i], "env:");
    strcat(reads[i], n->env[i]);
  }
  for (size_t i = 0; i < np; i++) {
    reads[ne + i] = malloc(strlen(n->paths[i]) + 6);
    strcpy(reads[ne + i], "path:");
    strcat(reads[ne + i], n->paths[i]);
  }
  mcph_provides pr = n->provides;
  pr.has_servers = n->servers_code ? no_servers : NULL;
  pr.capabilities = n->caps_code ? no_caps : NULL;
  mcph_entry e = n->entry;
  e.provides = &pr;
  char why[256];
  char *text = plugin_note_write(&e, (const char *const *)reads, n->servers,
                                 n->caps, n->caps_init_now, why, sizeof why);
  plugin_note *back =
      text ? plugin_note_parse(text, strlen(text), why, sizeof why) : NULL;
  const mcph_options *a = n->provides.options;
  const mcph_options *b = back ? back->provides.options : NULL;
  bool same =
      back && same_str(back->entry.id, n->entry.id) &&
      same_str(back->entry.name, n->entry.name) &&
      same_str(back->entry.version, n->entry.version) &&
      same_str(back->entry.description, n->entry.description) &&
      back->entry.abi_major == n->entry.abi_major &&
      back->entry.abi_minor == n->entry.abi_minor &&
      same_str(back->provides.implementation, n->provides.implementation) &&
      same_str(back->provides.source_description,
               n->provides.source_description) &&
      same_list(back->provides.transport_types, n->provides.transport_types) &&
      same_list(back->provides.commands, n->provides.commands) &&
      same_list(back->provides.extensions, n->provides.extensions) &&
      same_list(back->provides.requests, n->provides.requests) &&
      same_list(back->provides.notifications, n->provides.notifications) &&
      same_list(back->env, n->env) && same_list(back->paths, n->paths) &&
      back->servers_code == n->servers_code &&
      back->servers == (n->servers_code ? n->servers : 0) &&
      back->caps_code == n->caps_code &&
      (!n->caps_code || (back->caps_init_now == n->caps_init_now &&
                         same_str(back->caps, n->caps))) &&
      (a ? a->count : 0) == (b ? b->count : 0);
  for (size_t i = 0; same && a && i < a->count; i++) {
    same = same_str(a->options[i].name, b->options[i].name) &&
           same_str(a->options[i].arg, b->options[i].arg) &&
           same_str(a->options[i].help, b->options[i].help);
  }
  if (!same) {
    abort();
  }
  plugin_note_free(back);
  free(text);
  for (size_t i = 0; i < ne + np; i++) {
    free(reads[i]);
  }
  free(reads);
}

static void from_file(const unsigned char *data, size_t len) {
  int fd = memfd_create("note", MFD_CLOEXEC);
  if (fd < 0 || write(fd, data, len) != (ssize_t)len) {
    if (fd >= 0) {
      close(fd);
    }
    return;
  }
  char *out = NULL, why[256];
  size_t n = 0;
  int rc = elf_note_read(fd, PLUGIN_NOTE_OWNER, PLUGIN_NOTE_TYPE, &out, &n, why,
                         sizeof why);
  close(fd);
  if ((rc == 1 && (!out || n > len || out[n] != '\0')) || (rc != 1 && out) ||
      (rc < 0 && !why[0])) {
    abort();
  }
  free(out);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 1) {
    return 0;
  }
  if (data[0] & 1) {
    from_file(data + 1, len - 1);
    return 0;
  }
  char why[256];
  plugin_note *n =
      plugin_note_parse((const char *)data + 1, len - 1, why, sizeof why);
  if (!n) {
    if (!why[0]) {
      abort();
    }
    return 0;
  }
  check_whole(n);
  round_trip(n);
  plugin_note_free(n);
  return 0;
}
