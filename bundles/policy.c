/* The administrator's bundle policy (mcpb.h): the `bundles` object of the
 * managed settings, or its flat keys ("bundles.requireSignature"). */
#include <stdlib.h>
#include <string.h>

#include "mcpb.h"

void mcpb_policy_read(mcpb_plugin *pl, mcpb_policy *p) {
  memset(p, 0, sizeof *p);
  const char *v = pl->servers->policy(pl->host, "bundles");
  cJSON *doc = v ? cJSON_Parse(v) : NULL;
  const char *flat = pl->servers->policy(pl->host, "bundles.requireSignature");
  p->require_signature =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "requireSignature")) ||
      (flat && strcmp(flat, "true") == 0);
  /* trustedCAs: a PEM file, or an array of them. */
  const cJSON *cas = cJSON_GetObjectItemCaseSensitive(doc, "trustedCAs");
  const char *flat_cas = pl->servers->policy(pl->host, "bundles.trustedCAs");
  size_t max = (size_t)cJSON_GetArraySize(cas) + 2;
  p->cas = calloc(max, sizeof *p->cas);
  if (!p->cas) {
    abort();
  }
  const cJSON *e;
  if (cJSON_IsString(cas)) {
    p->cas[p->ncas++] = strdup(cas->valuestring);
  } else {
    cJSON_ArrayForEach(e, cas) {
      if (cJSON_IsString(e)) {
        p->cas[p->ncas++] = strdup(e->valuestring);
      }
    }
  }
  if (flat_cas && *flat_cas != '[' && *flat_cas != '"') {
    p->cas[p->ncas++] = strdup(flat_cas);
  }
  for (size_t i = 0; i < p->ncas; i++) {
    if (!p->cas[i]) {
      abort();
    }
  }
  cJSON_Delete(doc);
}

void mcpb_policy_free(mcpb_policy *p) {
  for (size_t i = 0; i < p->ncas; i++) {
    free(p->cas[i]);
  }
  free(p->cas);
  memset(p, 0, sizeof *p);
}
