/* A stub plugin's note: what the stub provides (its entry and provides
 * list, ABI 1.7), as text in an ELF note of the stub's file ("mcphost",
 * type PLUGIN_NOTE_TYPE), so that the host knows the plugin without
 * dlopen()ing the stub (host/core/plugins.c). The build writes it
 * (transports/common/plugin_note_gen.c) from the stub's own entry, so the
 * two cannot differ; the file is untrusted all the same: the parser
 * checks every line, and a note it refuses leaves the stub to be loaded
 * as any plugin.
 *
 * The text: one item a line, its fields separated by tabs (no value
 * holds a tab or a newline):
 *   mcphost-note 1          first line, the format's version
 *   abi MAJOR MINOR         the ABI the stub was built for
 *   id, name, version, description, implementation, source  VALUE
 *   type NAME FLAGS         a transport type and its MCPH_TRANSPORT_*
 *   command, extension, request, notification  VALUE (lists, in order)
 *   option NAME ARG HELP    a global option (ARG empty: a flag)
 *   servers ANSWER          the stub has has_servers(); its answer when
 *                           nothing it reads is there (below)
 *   capabilities INIT JSON  the stub has capabilities(); its *init_now
 *                           and its text (empty: NULL) likewise
 *   reads env:NAME          an environment variable its code reads
 *   reads path:ALT|ALT      a file it reads: the first alternative that
 *                           can be formed ("$VAR/rest" with VAR an
 *                           absolute path, "~/rest" with HOME one)
 * "Nothing it reads is there": none of its options has a value, none of
 * the variables is set, none of the files exists (and each can be
 * formed). Then the recorded answers are its code's; otherwise the host
 * opens the stub and asks its code.
 * Pure: no global state; any thread. */
#ifndef MCPHOST_PLUGIN_NOTE_H
#define MCPHOST_PLUGIN_NOTE_H

#include <stdbool.h>
#include <stddef.h>

#include <mcphost/mcphost.h>

#define PLUGIN_NOTE_OWNER "mcphost"
#define PLUGIN_NOTE_TYPE 1u

typedef struct plugin_note {
  mcph_entry entry;       /* .provides points to `provides` */
  mcph_provides provides; /* has_servers, capabilities: NULL (the host's) */
  mcph_options options;
  bool servers_code; /* the stub has has_servers() */
  int servers;       /* its answer when nothing it reads is there */
  bool caps_code;    /* the stub has capabilities() */
  int caps_init_now; /* its answers likewise */
  const char *caps;
  const char **env;   /* variables it reads, NULL-terminated */
  const char **paths; /* files it reads (ALT|ALT), NULL-terminated */
  /* What the above point into. */
  char *text;
  const char **lists[7];
  mcph_transport_type_info *info;
  mcph_option *option_list;
} plugin_note;

/* The note of a stub whose entry is `e` (with a provides list naming its
 * implementation): `reads` (NULL or NULL-terminated, "env:NAME" or
 * "path:ALT|ALT") and the answers of its code when nothing it reads is
 * there. A new string, or NULL with the reason in `why` (a value that
 * holds a tab or a newline, a type without its flags). */
char *plugin_note_write(const mcph_entry *e, const char *const *reads,
                        int servers, const char *caps, int caps_init_now,
                        char *why, size_t n);

/* Parses a note's text (`len` bytes). A new plugin_note (free with
 * plugin_note_free), or NULL with the reason in `why`. */
plugin_note *plugin_note_parse(const char *text, size_t len, char *why,
                               size_t n);
void plugin_note_free(plugin_note *note);

#endif
