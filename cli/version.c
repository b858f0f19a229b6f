#include "cli/version.h"

#include <stdlib.h>
#include <string.h>

#include <mcphost/abi.h>
#include <mcphost/client.h>

#include "text_escape.h"

/* The CLI's name for where a directory came from (mcphost_plugins_json's
 * "origin"): its options' directories are --plugin-dir's. */
static const char *origin_words(const char *origin) {
  return strcmp(origin, "plugin_dirs") == 0 ? "--plugin-dir" : origin;
}

void cli_print_version(FILE *out, mcphost_client *api, int verbosity) {
  if (verbosity <= 0) {
    fprintf(out, "mcphost %s (plugin ABI %d.%d)\n", mcphost_version(NULL, NULL),
            MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
    return;
  }
  fprintf(out, "mcphost %s\n", mcphost_version(NULL, NULL));
  fprintf(out, "plugin ABI %d.%d\n", MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  /* The sanitizer's Unicode data are tables generated from the ICU the
   * build compiled with: its Unicode version is theirs. */
  const char *icu = NULL;
  const char *unicode = mcphost_unicode_version(&icu);
  fprintf(out, "Unicode %s (tables from ICU %s)\n", unicode, icu);
  const char *dir, *origin;
  for (size_t i = 0;
       mcphost_plugin_dir(api, i, &dir, &origin, NULL, 0, NULL) == MCPHOST_OK;
       i++) {
    /* A directory comes from the command line or the environment: shown,
     * never obeyed (text_escape.h). */
    char *shown = text_escape(
        dir, strlen(dir), TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
    fprintf(out, "plugin dir (%s): %s\n", origin_words(origin),
            shown ? shown : "(out of memory)");
    free(shown);
  }
}
