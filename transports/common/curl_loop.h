/* Drives libcurl's multi-socket interface from the host's event loop: curl
 * asks for fd watches and a timer, the host loop calls back, and finished
 * transfers are reported once. No thread, no polling. Shared by the http
 * and sse transports (compiled into each plugin). Loop thread only. */
#ifndef MCPHOST_CURL_LOOP_H
#define MCPHOST_CURL_LOOP_H

#include <curl/curl.h>

#include <mcphost/host.h>

typedef struct curl_loop curl_loop;

/* A finished transfer: `result` is curl's code (CURLE_OK when the HTTP
 * exchange completed, whatever its status). The easy handle is already
 * out of the multi handle; the callee owns it again. Called from the
 * loop, never from inside a curl callback. It must not free the
 * curl_loop (defer that with a timer). */
typedef void (*curl_done_fn)(void *ud, CURL *easy, CURLcode result);

/* Returns NULL when curl cannot create a multi handle. */
curl_loop *curl_loop_new(const mcph_host *host);
/* Removes any transfers still running (without calling their done) and
 * frees. */
void curl_loop_free(curl_loop *cl);

/* Starts a transfer. Uses CURLOPT_PRIVATE of `easy`. Returns 0 or -1.
 * Not from inside a curl callback (libcurl refuses recursive calls). */
int curl_loop_add(curl_loop *cl, CURL *easy, curl_done_fn done, void *ud);
/* Stops a running transfer without calling its done. Not from inside one
 * of that transfer's own curl callbacks (defer with a timer). */
void curl_loop_remove(curl_loop *cl, CURL *easy);

#endif
