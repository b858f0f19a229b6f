/* What a bundle's trailer alone says of its signature; see sig.h. */
#include "sig.h"

#include <stdio.h>
#include <string.h>

void sig_set_status(sig_info *o, const char *status, const char *why) {
  snprintf(o->status, sizeof o->status, "%s", status);
  if (why) {
    snprintf(o->why, sizeof o->why, "%s", why);
  }
}

bool sig_trailer_status(int trailer_kind, const trailer *t, sig_info *o) {
  memset(o, 0, sizeof *o);
  if (trailer_kind == TRAILER_NONE) {
    sig_set_status(o, "unsigned", "the bundle has no signature");
    return false;
  }
  if (trailer_kind != TRAILER_OK) {
    sig_set_status(o, "invalid", t->why);
    return false;
  }
  return true;
}
