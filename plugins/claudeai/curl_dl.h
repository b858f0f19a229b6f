/* libcurl, opened on first use. The plugin is loaded by every mcphost run
 * (its server source is asked for servers each time), and linking libcurl
 * would map it, and OpenSSL, into runs that never list connectors; the
 * connectors are opt-in, so the one request that needs it (the listing,
 * listing.c) opens it then. The proxied MCP traffic itself goes through
 * the http transport, which loads libcurl its own way. Loop thread. */
#ifndef MCPHOST_CLAUDEAI_CURL_DL_H
#define MCPHOST_CLAUDEAI_CURL_DL_H

#include <curl/curl.h>
#include <stddef.h>

typedef struct curl_dl {
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
  CURLcode (*easy_perform)(CURL *);
  CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
} curl_dl;

/* The functions, or NULL with the dynamic linker's reason in `why`. The
 * table is static; the library is never closed. */
const curl_dl *curl_dl_get(char *why, size_t size);

#endif
