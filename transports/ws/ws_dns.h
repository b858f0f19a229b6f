/* Name resolution off the loop: getaddrinfo() in a thread of its own,
 * started for one name and joined when it is done (never left running
 * after the transport), its answer delivered on the loop through a pipe
 * the host watches. libwebsockets 4.1.6 in Debian resolves inside its
 * connect call, which would block the loop for a slow DNS server. */
#ifndef MCPH_WS_DNS_H
#define MCPH_WS_DNS_H

#include <mcphost/host.h>

typedef struct ws_dns ws_dns;

/* [loop] The answer: 0 and the first address as text ("127.0.0.1",
 * "::1"), or an MCPH_E* code and getaddrinfo's reason. Borrowed for the
 * call; the resolver is freed after it returns. */
typedef void (*ws_dns_cb)(void *ud, int code, const char *address,
                          const char *why);

/* [loop] Starts resolving `name`. Returns NULL when no thread, pipe or
 * memory can be had. */
ws_dns *ws_dns_start(const mcph_host *host, const char *name, ws_dns_cb cb,
                     void *ud);

/* [loop] Stops waiting (joins the thread, which may take as long as the
 * lookup) and frees; `cb` is not called. NULL is fine. */
void ws_dns_cancel(ws_dns *d);

#endif
