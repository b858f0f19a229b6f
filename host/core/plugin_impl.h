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
/* The same checks without loading it (at load time, so that a stub whose
 * implementation is missing is refused before it takes an id or a type):
 * 0, or an MCPH_E* code with the message in `err`. `cache` (or NULL)
 * keeps the implementation directory checked for the next stub.
 * `dir_fd` (-1: none) is the checked directory the stub was opened in,
 * its walk trusting `dir_also` beside the user and root: "impl" is
 * opened beside it, without walking from "/" again, when the stub is no
 * link and its owner is trusted there (the directories above were
 * checked then for the same owners). */
int plugin_impl_check(const plugin *p, impl_dir_cache *cache, int dir_fd,
                      const uid_t *dir_also, mcph_error *err);
/* Closes what the cache holds (registry_free). */
void impl_dir_cache_free(impl_dir_cache *c);
/* Closes what it holds of the directory beside the one loaded (its fd
 * number may name another directory next). */
void impl_dir_cache_drop_beside(impl_dir_cache *c);

#endif
