/* A stub plugin's note (common/plugin_note.h): what the writer gives the
 * parser takes back; malformed notes are refused with the line at fault;
 * and the note each built stub carries (elf_note_read) says what the
 * stub's own entry says, field by field, the stub opened to compare. */
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "elf_file.h"
#include "plugin_note.h"

static const char *const types[] = {"a-type", "b-type", NULL};
static const mcph_transport_type_info info[] = {
    {sizeof(mcph_transport_type_info), "a-type", MCPH_TRANSPORT_LOCAL},
    {sizeof(mcph_transport_type_info), "b-type", MCPH_TRANSPORT_REMOTE},
    {sizeof(mcph_transport_type_info), NULL, 0}};
static const char *const cmds[] = {"do", "do more", NULL};
static const char *const exts[] = {MCPH_EXT_TRANSPORT, MCPH_EXT_FEATURE, NULL};
static const char *const reqs[] = {"x/ask", NULL};
static const mcph_option opts[] = {{"flag", NULL, "a flag"},
                                   {"value", "V", "takes one"}};
static const mcph_options options = {sizeof(mcph_options), opts, 2,
                                     sizeof(mcph_option)};
static int servers(const mcph_host *h) {
  (void)h;
  return 1;
}
static const char *caps(const mcph_host *h, int *init_now) {
  (void)h;
  *init_now = 0;
  return "{}";
}
static const mcph_provides provides = {
    .struct_size = sizeof(mcph_provides),
    .transport_types = types,
    .requests = reqs,
    .commands = cmds,
    .extensions = exts,
    .implementation = "impl.so",
    .transport_info = info,
    .options = &options,
    .has_servers = servers,
    .source_description = "some servers",
    .capabilities = caps,
};
static const mcph_entry entry = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = 1,
    .abi_minor = 7,
    .id = "test.note",
    .name = "note",
    .version = "1.2.3",
    .description = "a plugin: described",
    .provides = &provides,
};

static bool same_list(const char *const *a, const char *const *b) {
  for (; a && *a && b && *b; a++, b++) {
    if (strcmp(*a, *b) != 0) {
      return false;
    }
  }
  return (!a || !*a) && (!b || !*b);
}

static const char *const reads[] = {"env:SOME_VAR", "path:$X/a|~/b", NULL};

TEST(test_written_note_parses_back) {
  char why[256] = "";
  char *text =
      plugin_note_write(&entry, reads, 0, "{\"c\":{}}", 1, why, sizeof why);
  CHECK(text);
  plugin_note *n =
      text ? plugin_note_parse(text, strlen(text), why, sizeof why) : NULL;
  CHECK(n);
  if (!n) {
    fprintf(stderr, "  %s\n", why);
    free(text);
    return;
  }
  CHECK_STR(n->entry.id, "test.note");
  CHECK_STR(n->entry.name, "note");
  CHECK_STR(n->entry.version, "1.2.3");
  CHECK_STR(n->entry.description, "a plugin: described");
  CHECK(n->entry.abi_major == 1 && n->entry.abi_minor == 7);
  CHECK(n->entry.provides == &n->provides);
  CHECK_STR(n->provides.implementation, "impl.so");
  CHECK_STR(n->provides.source_description, "some servers");
  CHECK(same_list(n->provides.transport_types, types));
  CHECK(n->provides.transport_info[0].flags == MCPH_TRANSPORT_LOCAL &&
        n->provides.transport_info[1].flags == MCPH_TRANSPORT_REMOTE &&
        !n->provides.transport_info[2].type);
  CHECK(same_list(n->provides.commands, cmds));
  CHECK(same_list(n->provides.extensions, exts));
  CHECK(same_list(n->provides.requests, reqs));
  CHECK(!n->provides.notifications);
  CHECK(n->provides.options && n->provides.options->count == 2);
  CHECK(n->provides.options && !n->provides.options->options[0].arg &&
        strcmp(n->provides.options->options[1].arg, "V") == 0 &&
        strcmp(n->provides.options->options[1].help, "takes one") == 0);
  /* The code's answers are the note's; the functions are the host's. */
  CHECK(n->servers_code && n->servers == 0);
  CHECK(n->caps_code && n->caps_init_now == 1);
  CHECK_STR(n->caps, "{\"c\":{}}");
  CHECK(!n->provides.has_servers && !n->provides.capabilities);
  CHECK(n->env && strcmp(n->env[0], "SOME_VAR") == 0 && !n->env[1]);
  CHECK(n->paths && strcmp(n->paths[0], "$X/a|~/b") == 0 && !n->paths[1]);
  plugin_note_free(n);
  free(text);
}

TEST(test_writer_refuses_what_the_format_cannot_carry) {
  char why[256];
  mcph_entry e = entry;
  e.description = "two\nlines";
  CHECK(!plugin_note_write(&e, NULL, 0, NULL, 0, why, sizeof why));
  e = entry;
  const char *const bad_reads[] = {"file:/x", NULL};
  CHECK(!plugin_note_write(&e, bad_reads, 0, NULL, 0, why, sizeof why));
  mcph_provides pr = provides;
  pr.implementation = NULL;
  e.provides = &pr;
  CHECK(!plugin_note_write(&e, NULL, 0, NULL, 0, why, sizeof why));
  CHECK_CONTAINS(why, "not a stub");
}

static const char *refused(const char *text) {
  static char why[256];
  why[0] = '\0';
  plugin_note *n = plugin_note_parse(text, strlen(text), why, sizeof why);
  if (n) {
    plugin_note_free(n);
    return NULL;
  }
  return why;
}

#define HEAD "mcphost-note\t1\nabi\t1\t7\nid\tx\n"
#define TAIL "implementation\tx.so\nextension\tmcph.feature/1\n"

TEST(test_malformed_notes_are_refused) {
  CHECK(!refused(HEAD TAIL));
  CHECK_CONTAINS(refused("mcphost-note\t2\n" TAIL), "format 1");
  CHECK_CONTAINS(refused(HEAD TAIL "color\tred\n"), "line 6: an unknown item");
  CHECK_CONTAINS(refused(HEAD TAIL "id\ty\n"), "given twice");
  CHECK_CONTAINS(refused(HEAD TAIL "type\thttp\n"), "list item");
  CHECK_CONTAINS(refused(HEAD TAIL "type\thttp\t-1\n"), "not a number");
  CHECK_CONTAINS(refused(HEAD TAIL "type\thttp\t99999999999\n"),
                 "not a number");
  CHECK_CONTAINS(refused(HEAD TAIL "servers\t2\n"), "servers");
  CHECK_CONTAINS(refused(HEAD TAIL "reads\tfile:/x\n"), "neither");
  CHECK_CONTAINS(refused(HEAD TAIL "option\tx\n"), "option");
  CHECK_CONTAINS(refused(HEAD TAIL "a\tb\tc\td\te\n"), "too many fields");
  CHECK_CONTAINS(refused(HEAD "implementation\tx.so"), "does not end");
  CHECK_CONTAINS(refused(HEAD "implementation\tx.so\n"), "lacks");
  CHECK_CONTAINS(refused("mcphost-note\t1\nid\tx\n" TAIL), "lacks");
  const char nul[] = HEAD TAIL "name\ta\0b\n";
  char why[256];
  CHECK(!plugin_note_parse(nul, sizeof nul - 1, why, sizeof why));
  CHECK_CONTAINS(why, "NUL");
}

static bool same_entry(const plugin_note *n, const mcph_entry *e) {
  const mcph_provides *a = &n->provides, *b = e->provides;
  bool same = strcmp(n->entry.id, e->id) == 0 &&
              strcmp(n->entry.name, e->name) == 0 &&
              strcmp(n->entry.version, e->version) == 0 &&
              strcmp(n->entry.description, e->description) == 0 &&
              n->entry.abi_major == e->abi_major &&
              n->entry.abi_minor == e->abi_minor &&
              strcmp(a->implementation, b->implementation) == 0 &&
              same_list(a->transport_types, b->transport_types) &&
              same_list(a->commands, b->commands) &&
              same_list(a->extensions, b->extensions) &&
              same_list(a->requests, b->requests) &&
              same_list(a->notifications, b->notifications) &&
              n->servers_code == (b->has_servers != NULL) &&
              n->caps_code == (b->capabilities != NULL) &&
              (!a->source_description) == (!b->source_description) &&
              (!a->source_description ||
               strcmp(a->source_description, b->source_description) == 0);
  for (size_t i = 0; a->transport_types && a->transport_types[i]; i++) {
    same = same && a->transport_info[i].flags == b->transport_info[i].flags;
  }
  size_t na = a->options ? a->options->count : 0;
  size_t nb = b->options ? b->options->count : 0;
  same = same && na == nb;
  for (size_t i = 0; same && i < na; i++) {
    const mcph_option *x = &a->options->options[i];
    const mcph_option *y = &b->options->options[i];
    same = strcmp(x->name, y->name) == 0 && strcmp(x->help, y->help) == 0 &&
           (!x->arg) == (!y->arg) && (!x->arg || strcmp(x->arg, y->arg) == 0);
  }
  return same;
}

TEST(test_every_built_stub_carries_its_entry_in_its_note) {
  DIR *d = opendir(PLUGIN_DIR);
  CHECK(d);
  size_t stubs = 0;
  for (struct dirent *de; d && (de = readdir(d));) {
    size_t len = strlen(de->d_name);
    if (len < 4 || strcmp(de->d_name + len - 3, ".so") != 0) {
      continue;
    }
    char path[PATH_MAX], why[256];
    snprintf(path, sizeof path, "%s/%s", PLUGIN_DIR, de->d_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char *text = NULL;
    size_t tlen = 0;
    int rc = elf_note_read(fd, PLUGIN_NOTE_OWNER, PLUGIN_NOTE_TYPE, &text,
                           &tlen, why, sizeof why);
    close(fd);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const mcph_entry *e = h ? dlsym(h, MCPH_ENTRY_SYMBOL) : NULL;
    CHECK(e);
    bool stub = e && e->provides && e->provides->implementation;
    /* A stub has a note; a plugin that is no stub has none. */
    CHECK(rc == (stub ? 1 : 0));
    if (rc == 1 && e) {
      stubs++;
      plugin_note *n = plugin_note_parse(text, tlen, why, sizeof why);
      CHECK(n);
      if (n && !same_entry(n, e)) {
        fprintf(stderr, "  %s: its note is not its entry\n", path);
        check_failures++;
      }
      plugin_note_free(n);
    }
    free(text);
  }
  if (d) {
    closedir(d);
  }
  CHECK(stubs >= 9);
}

/* A file of this machine's ELF class whose program headers start at
 * `phoff` and whose note segment (the stub note "hello") starts at
 * `noteoff`, `size` bytes in all, with a loadable segment of the whole
 * file; the reader takes the first bytes in one read and the rest from
 * the file, so each place is found the same. The fd, or -1. */
static int elf_with_note_at(size_t phoff, size_t noteoff, size_t size) {
  static const char desc[] = "hello";
  unsigned char *b = calloc(1, size);
  if (!b) {
    return -1;
  }
  ElfW(Ehdr) eh = {0};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = __SIZEOF_POINTER__ == 8 ? ELFCLASS64 : ELFCLASS32;
  eh.e_ident[EI_DATA] =
      __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_DYN;
  eh.e_phoff = phoff;
  eh.e_phentsize = sizeof(ElfW(Phdr));
  eh.e_phnum = 2;
  memcpy(b, &eh, sizeof eh);
  ElfW(Nhdr) nh = {sizeof PLUGIN_NOTE_OWNER, sizeof desc, PLUGIN_NOTE_TYPE};
  size_t at = noteoff;
  memcpy(b + at, &nh, sizeof nh);
  at += sizeof nh;
  memcpy(b + at, PLUGIN_NOTE_OWNER, sizeof PLUGIN_NOTE_OWNER);
  at += (sizeof PLUGIN_NOTE_OWNER + 3) & ~(size_t)3;
  memcpy(b + at, desc, sizeof desc);
  at += (sizeof desc + 3) & ~(size_t)3;
  ElfW(Phdr) ph[2] = {{0}, {0}};
  ph[0].p_type = PT_LOAD;
  ph[0].p_filesz = size;
  ph[1].p_type = PT_NOTE;
  ph[1].p_offset = noteoff;
  ph[1].p_filesz = at - noteoff;
  memcpy(b + phoff, ph, sizeof ph);
  char path[] = "/tmp/mcphost-elf-XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) {
    unlink(path);
    if (write(fd, b, size) != (ssize_t)size) {
      close(fd);
      fd = -1;
    }
  }
  free(b);
  return fd;
}

TEST(test_note_and_headers_are_found_wherever_they_lie) {
  static const size_t places[][3] = {
      {64, 200, 1024},    /* all in the first bytes */
      {64, 6000, 8192},   /* the note further on */
      {5000, 6000, 8192}, /* the headers too */
      {64, 2040, 4096},   /* the note across the first bytes' end */
  };
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
    int fd = elf_with_note_at(places[i][0], places[i][1], places[i][2]);
    CHECK(fd >= 0);
    char why[256] = "", *text = NULL;
    size_t len = 0;
    CHECK(elf_check_loadable(fd, why, sizeof why) == 0);
    CHECK(elf_note_read(fd, PLUGIN_NOTE_OWNER, PLUGIN_NOTE_TYPE, &text, &len,
                        why, sizeof why) == 1);
    CHECK_STR(text, "hello");
    free(text);
    size_t read_len = len;
    /* Both from one read of the head, the caller's status given. */
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    text = NULL;
    CHECK(elf_check_note(fd, &st, PLUGIN_NOTE_OWNER, PLUGIN_NOTE_TYPE, &text,
                         &len, why, sizeof why) == 0);
    CHECK_STR(text, "hello");
    CHECK(len == read_len);
    free(text);
    CHECK(elf_check_note(fd, NULL, "other", PLUGIN_NOTE_TYPE, &text, &len, why,
                         sizeof why) == 0);
    CHECK(text == NULL);
    /* Cut short: its loadable segment ends after the file does. */
    CHECK(ftruncate(fd, (off_t)places[i][2] - 1) == 0);
    CHECK(elf_check_loadable(fd, why, sizeof why) == -1);
    CHECK_CONTAINS(why, "cut short");
    CHECK(fstat(fd, &st) == 0);
    text = NULL;
    CHECK(elf_check_note(fd, &st, PLUGIN_NOTE_OWNER, PLUGIN_NOTE_TYPE, &text,
                         &len, why, sizeof why) == -1);
    CHECK(text == NULL);
    close(fd);
  }
}

RUN(T(test_written_note_parses_back),
    T(test_writer_refuses_what_the_format_cannot_carry),
    T(test_malformed_notes_are_refused),
    T(test_every_built_stub_carries_its_entry_in_its_note),
    T(test_note_and_headers_are_found_wherever_they_lie))
