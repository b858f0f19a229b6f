/*
 * Writes a stub plugin's note (common/plugin_note.h) as a C file whose
 * one top-level asm block puts it into an ELF note section, compiled into
 * the stub (mcphost_add_plugin_stub, cmake/McphostPlugin.cmake). Linked
 * with the stub's own sources, so the note is read off the stub's own
 * entry and provides list, and the answers its code gives when nothing it
 * reads is there are its code's (asked here with an empty environment
 * and a host that has no option set).
 *
 *   NAME-note OUT.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/mcphost.h>

#include "plugin_note.h"
#include "plugin_stub.h"

MCPH_EXTERN_C extern const mcph_entry mcph_plugin_entry;
/* Only a stub with code that reads more than its options defines it. */
extern const char *const stub_reads[] __attribute__((weak));

static const char *no_option(const mcph_host *host, const char *name) {
  (void)host;
  (void)name;
  return NULL;
}

static const mcph_host_features features = {
    .struct_size = sizeof(mcph_host_features),
    .option = no_option,
};

static const void *service(const mcph_host *host, const char *id) {
  (void)host;
  return strcmp(id, MCPH_SERVICE_FEATURES) == 0 ? &features : NULL;
}

/* The note's bytes as assembler string text inside a C string literal:
 * what is not plainly printable as an octal escape. */
static void put_bytes(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    fputs("    \".ascii \\\"", out);
    for (size_t k = i; k < n && k < i + 64; k++) {
      unsigned char c = (unsigned char)s[k];
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
        fputc(c, out);
      } else {
        fprintf(out, "\\\\%03o", c);
      }
    }
    fputs("\\\"\\n\"\n", out);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.c\n", argv[0]);
    return 2;
  }
  /* Nothing the stub's code reads is there: no variable set, a home
   * that does not exist. */
  clearenv();
  setenv("HOME", "/nonexistent/mcphost-note-home", 1);
  mcph_host host = {0};
  host.struct_size = sizeof host;
  host.get_service = service;
  const mcph_entry *e = &mcph_plugin_entry;
  const mcph_provides *pr = e->provides;
  int servers = 0, init_now = 0;
  const char *caps = NULL;
  if (pr && MCPH_HAS(pr, mcph_provides, has_servers) && pr->has_servers) {
    servers = pr->has_servers(&host);
  }
  if (pr && MCPH_HAS(pr, mcph_provides, capabilities) && pr->capabilities) {
    caps = pr->capabilities(&host, &init_now);
  }
  char why[256];
  char *text = plugin_note_write(e, stub_reads, servers, caps, init_now, why,
                                 sizeof why);
  if (!text) {
    fprintf(stderr, "%s: %s\n", argv[0], why);
    return 1;
  }
  /* The parser's check too: the build fails rather than ship a note the
   * host would refuse. */
  plugin_note *back = plugin_note_parse(text, strlen(text), why, sizeof why);
  if (!back) {
    fprintf(stderr, "%s: the note does not parse: %s\n", argv[0], why);
    free(text);
    return 1;
  }
  plugin_note_free(back);
  FILE *out = fopen(argv[1], "w");
  if (!out) {
    perror(argv[1]);
    free(text);
    return 1;
  }
  size_t n = strlen(text);
  fprintf(out,
          "/* Written by plugin_note_gen.c: this stub's note. */\n"
          "__asm__(\".pushsection .note.mcphost,\\\"a\\\",@note\\n\"\n"
          "    \".balign 4\\n\"\n"
          "    \".long %zu\\n\"\n"
          "    \".long %zu\\n\"\n"
          "    \".long %u\\n\"\n"
          "    \".asciz \\\"%s\\\"\\n\"\n"
          "    \".balign 4\\n\"\n",
          sizeof PLUGIN_NOTE_OWNER, n, PLUGIN_NOTE_TYPE, PLUGIN_NOTE_OWNER);
  put_bytes(out, text, n);
  fputs("    \".balign 4\\n\"\n"
        "    \".popsection\\n\");\n",
        out);
  free(text);
  return fclose(out) == 0 ? 0 : 1;
}
