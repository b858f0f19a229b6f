/* Memory for the whole plugin (elicit.h): running out is fatal, as in
 * the host. A file of its own so that the unit tests, which compile some
 * of the plugin's files, use these too. */
#include <stdlib.h>
#include <string.h>

#include "elicit.h"

void *elicit_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    abort();
  return p;
}

char *elicit_xstrdup(const char *s) {
  char *d = strdup(s ? s : "");
  if (!d)
    abort();
  return d;
}
