/* Fuzz target: the manifest loader (bundles/manifest.h): parse,
 * validate, join the issues. The issue count must match its kinds. */
#include <stdlib.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  char err[512];
  cJSON *doc = manifest_parse((const char *)data, len, err, sizeof err);
  if (!doc) {
    return 0;
  }
  manifest_report r;
  manifest_validate(doc, &r);
  size_t errors = 0;
  for (size_t i = 0; i < r.count; i++) {
    if (!r.issues[i].text) {
      abort();
    }
    errors += r.issues[i].kind == MANIFEST_ERROR;
  }
  if (errors != r.errors || (r.count > 0 && !r.version && r.count != 1)) {
    abort();
  }
  free(manifest_report_join(&r, MANIFEST_ERROR));
  free(manifest_report_join(&r, MANIFEST_UNKNOWN));
  manifest_report_free(&r);
  cJSON_Delete(doc);
  return 0;
}
