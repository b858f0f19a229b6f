/* The inputs of a 2026-07-28 input_required result (multi round trip):
 * each of its inputRequests answered as a legacy server's request would
 * be, by the feature plugin that answers its method (elicitation/create:
 * the elicitation plugin, form and URL; sampling/createMessage: the
 * sampling hook) or by the session (roots/list: the server's roots).
 * The session then sends the request again (session.c). Loop thread
 * only. */
#ifndef MCPHOST_MCP_MRTR_H
#define MCPHOST_MCP_MRTR_H

#include <cjson/cJSON.h>

struct session;

/* At most this many input_required rounds for one request. */
#define MRTR_MAX_ROUNDS 10

/* `responses`: the inputResponses object (taken), or NULL with `error`
 * (why no answer could be given). */
typedef void (*mrtr_done_fn)(void *ud, cJSON *responses, const char *error);

/* The inputs of one round being gathered. */
typedef struct mrtr_gathering mrtr_gathering;

/* Answers every entry of `requests` (an inputRequests object, borrowed
 * for the call) and calls `done` once, maybe before this returns, unless
 * withdrawn first. `*handle` is the gathering until `done` is called or
 * it is withdrawn, NULL after (it is set before `done` runs). */
void mrtr_gather(struct session *s, const cJSON *requests, mrtr_done_fn done,
                 void *ud, mrtr_gathering **handle);

/* The round's request was cancelled between two rounds: every input
 * still being worked on is dismissed (its plugin is told, as for a
 * legacy server's notifications/cancelled: the prompt closes, the hook
 * is stopped) and `done` is never called. The gathering frees itself
 * when the last plugin has answered. */
void mrtr_withdraw(mrtr_gathering *g);

#endif
