/* The implementation of a stub plugin (mcph_provides.implementation, ABI
 * 1.6): found in "impl" beside the directory the stub really is in (a
 * link to the stub finds the implementation beside what it points to),
 * checked as a plugin is (trusted_fs.h; the stub's owner is trusted for
 * it as well, as they control the stub already), and loaded through the
 * checked open file. Loop thread. */
#ifndef MCPHOST_PLUGIN_IMPL_H
#define MCPHOST_PLUGIN_IMPL_H

#include "core/plugins.h"

/* Opens p's implementation and checks its entry (same ABI major and id,
 * init and get_extension present). Returns 0 and sets *out, or an MCPH_E*
 * code with a message naming the file in `err`. */
int plugin_impl_open(const plugin *p, const mcph_entry **out, mcph_error *err);
/* Where the scan found a stub: the directory it opened (trusted_fs_open_
 * dir's fd, `dir` naming it) with the owner its walk trusted beside the
 * user and root (NULL: none), the stub's owner, and whether the stub was
 * a link (then it is in another directory). The implementation directory
 * is then opened beside that fd, where the stub's path would be read
 * back from /proc and walked from "/" again for every stub. */
typedef struct impl_scan {
  int dir_fd;
  const char *dir;
  const uid_t *also;
  uid_t owner;
  bool linked;
} impl_scan;

/* Whether the implementation is there and trusted, without loading it
 * (at load time, so that a stub whose implementation is missing is
 * refused before it takes an id or a type): beside the scanned directory
 * its status only (one fstatat(); its content is checked by
 * plugin_impl_open), else the whole check of plugin_impl_open, which
 * gives the reason. 0, or an MCPH_E* code with the message in `err`.
 * `cache` (or NULL) keeps the implementation directory checked for the
 * next stub; `scan` (or NULL) says where the stub was found. */
int plugin_impl_check(const plugin *p, impl_dir_cache *cache,
                      const impl_scan *scan, mcph_error *err);
/* Closes what the cache holds (registry_free). */
void impl_dir_cache_free(impl_dir_cache *c);

#endif
