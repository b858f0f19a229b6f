/* Opening a library of the host's implementation directory from the
 * bundle plugin's own libraries: mcpb-tools.so (from feature-mcpb.so)
 * and mcpb-sig.so (from mcpb-tools.so), each opened only by the work
 * that needs it. Threads: any; the libraries are never closed. */
#ifndef MCPB_IMPL_OPEN_H
#define MCPB_IMPL_OPEN_H

#include <stddef.h>

/* The library `file` of the implementation directory ("impl" beside the
 * directory of the library that holds `anchor`), checked the way the
 * host checks an implementation (owned by the owner of that library,
 * mode, no links but its own) and opened through /proc/self/fd/N, whose
 * fd stays open. Returns its plugin entry's extension `ext` when the
 * entry's id is `id`; else NULL with "cannot load DIR/FILE: reason" (or
 * "DIR/FILE is not ...") in `err`. */
const void *mcpb_impl_open(const void *anchor, const char *file, const char *id,
                           const char *ext, char *err, size_t n);

#endif
