/*
 * mcphost plugin SDK, optional helper (header only): is the host new
 * enough, and does it offer a service with a given function.
 *
 * A plugin that needs something a later minor added checks it once, in
 * init, and refuses to load with MCPH_EABI and a clear message rather
 * than crash later. The versioning rule these checks follow is in
 * abi.h.
 *
 * Use:
 *   const mcph_host_features *f = NULL;
 *   if (mcph_host_at_least(host, 3)) {
 *     f = host->get_service(host, MCPH_SERVICE_FEATURES);
 *   }
 *   if (!MCPH_PROVIDES(f, mcph_host_features, option)) {
 *     return mcph_error_set(err, MCPH_EABI, "the host has no option()");
 *   }
 *
 * Threads: [any thread] (they read what the host handed over).
 */
#ifndef MCPHOST_HELPERS_VERSION_H
#define MCPHOST_HELPERS_VERSION_H

#include "../abi.h"
#include "../host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* [any thread] 1 when `host` speaks this SDK's ABI major and at least
 * minor `minor`, with get_service() in its table; else 0. */
static inline int mcph_host_at_least(const mcph_host *host, uint32_t minor) {
  return host && host->abi_major == MCPH_ABI_MAJOR &&
         host->abi_minor >= minor && MCPH_HAS(host, mcph_host, get_service) &&
         host->get_service;
}

/* 1 when the struct `ptr` (a service table or any struct of the ABI; may
 * be NULL) has the function or field `field` and it is set: the one
 * check before calling a function a later minor added, or one a
 * provider may leave NULL. */
#define MCPH_PROVIDES(ptr, type, field)                                        \
  (MCPH_HAS(ptr, type, field) && (ptr)->field)

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_HELPERS_VERSION_H */
