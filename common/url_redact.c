/* The redacted form of a configured URL; see url_redact.h. */
#include "url_redact.h"

#include <stdlib.h>
#include <string.h>

char *url_redacted(const char *url) {
  /* The authority runs from after "//" (or the start) to the first '/',
   * '\\', '?' or '#'; its userinfo is everything up to its last '@'. */
  size_t n = strlen(url);
  char *out = malloc(n + sizeof "?…");
  if (!out) {
    return NULL;
  }
  const char *sep = strstr(url, "://");
  const char *auth = sep ? sep + 3 : url;
  size_t alen = strcspn(auth, "/\\?#");
  const char *at = NULL;
  for (const char *p = auth; p < auth + alen; p++) {
    if (*p == '@') {
      at = p;
    }
  }
  size_t o = 0;
  memcpy(out, url, (size_t)(auth - url));
  o = (size_t)(auth - url);
  const char *rest = at ? at + 1 : auth;
  size_t keep = strcspn(rest, "?#");
  memcpy(out + o, rest, keep);
  o += keep;
  if (rest[keep]) {
    memcpy(out + o, "?…", sizeof "?…" - 1);
    o += sizeof "?…" - 1;
  }
  out[o] = '\0';
  return out;
}
