/* Fuzz target: the signature trailer parser (bundles/trailer.h).
 * Checks its promises: offsets inside the input, the DER before the
 * footer, padding only zeros. */
#include <stdlib.h>
#include <string.h>

#include "trailer.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  trailer t;
  int kind = trailer_parse(data, len, len, &t);
  if (kind == TRAILER_NONE && t.zip_len != len) {
    abort();
  }
  if (kind == TRAILER_OK) {
    size_t foot = strlen(t.scheme) + 1; /* _V1 -> _END is one longer */
    if (t.zip_len >= len || t.der_len == 0 || t.der_off < t.zip_len ||
        t.der_off + t.der_len > len - foot) {
      abort();
    }
    for (size_t i = t.der_off + t.der_len; i < len - foot; i++) {
      if (data[i] != 0) {
        abort();
      }
    }
  }
  if (kind == TRAILER_BROKEN && !t.why) {
    abort();
  }
  return 0;
}
