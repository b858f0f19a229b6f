#include "cli/version.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/client.h>

#include "core/plugins.h"
#include "text_escape.h"

/* Where a directory of the search path came from. The registry keeps each
 * directory once, at its first place: a --plugin-dir wins over the same
 * directory in MCPHOST_PLUGIN_PATH or built in, as in the search. */
static const char *dir_origin(const registry *r, size_t i,
                              const char *const *given, size_t ngiven) {
  for (size_t k = 0; k < ngiven; k++) {
    if (strcmp(r->dirs[i], given[k]) == 0) {
      return "--plugin-dir";
    }
  }
  if (r->builtin == i + 1) {
    return "built-in";
  }
  return "MCPHOST_PLUGIN_PATH"; /* the only other source (host_new) */
}

void cli_print_version(FILE *out, const host *h, int verbosity,
                       const char *const *plugin_dirs, size_t nplugin_dirs) {
  if (verbosity <= 0) {
    fprintf(out, "mcphost %s (plugin ABI %d.%d)\n", MCPHOST_VERSION,
            MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
    return;
  }
  fprintf(out, "mcphost %s\n", MCPHOST_VERSION);
  fprintf(out, "plugin ABI %d.%d\n", MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  /* The sanitizer's Unicode data are tables generated from the ICU the
   * build compiled with: its Unicode version is theirs. */
  const char *icu = NULL;
  const char *unicode = mcphost_unicode_version(&icu);
  fprintf(out, "Unicode %s (tables from ICU %s)\n", unicode, icu);
  const registry *r = host_registry(h);
  for (size_t i = 0; i < r->ndirs; i++) {
    /* A directory comes from the command line or the environment: shown,
     * never obeyed (text_escape.h). */
    char *dir = text_escape(r->dirs[i], strlen(r->dirs[i]),
                            TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
    fprintf(out, "plugin dir (%s): %s\n",
            dir_origin(r, i, plugin_dirs, nplugin_dirs),
            dir ? dir : "(out of memory)");
    free(dir);
  }
}
