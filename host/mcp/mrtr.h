/* The inputs of a 2026-07-28 input_required result (multi round trip):
 * each of its inputRequests answered as a legacy server's request would
 * be, by the feature plugin that answers its method (elicitation/create:
 * the elicitation plugin, form and URL; sampling/createMessage: the
 * sampling hook) or by the session (roots/list: the server's roots).
 * The session then sends the request again (session_request.c). A front end
 * that takes a server's own requests (session on_request,
 * mcp_client_on_request) is offered each input first, as if the server
 * had sent it as a request, under an id of the session's own, and
 * answers it with session_answer: one way for a front end to see what a
 * server asks, whatever its era. Loop thread only. */
#ifndef MCPHOST_MCP_MRTR_H
#define MCPHOST_MCP_MRTR_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

struct session;

/* At most this many input_required rounds for one request. */
#define MRTR_MAX_ROUNDS 10

/* `responses`: the inputResponses object (taken), or NULL with `error`
 * (why no answer could be given). */
typedef void (*mrtr_done_fn)(void *ud, cJSON *responses, const char *error);

/* The inputs of one round being gathered. */
typedef struct mrtr_gathering mrtr_gathering;

/* Answers every entry of `requests` (an inputRequests object, borrowed
 * for the call) of the request session_request returned `origin` for,
 * and calls `done` once, maybe before this returns, unless withdrawn
 * first. The front end is offered each input with `origin`, so it knows
 * whose question it is. `*handle` is the gathering until `done` is
 * called or it is withdrawn, NULL after (it is set before `done` runs). */
void mrtr_gather(struct session *s, const cJSON *requests, int64_t origin,
                 mrtr_done_fn done, void *ud, mrtr_gathering **handle);
/* session_answer's first step: true when `id` is an input offered to
 * the front end and not yet answered, now answered with `result`
 * (borrowed) or the error `code` and `message`; false for any other id
 * (the server's own request's). */
bool mrtr_answer(struct session *s, const cJSON *id, const cJSON *result,
                 int code, const char *message);
/* The session is being freed: inputs still offered are forgotten (their
 * answers would be dropped) and their gatherings end without `done`. */
void mrtr_session_gone(struct session *s);

/* The round's request was cancelled between two rounds: every input
 * still being worked on is dismissed (its plugin is told, as for a
 * legacy server's notifications/cancelled: the prompt closes, the hook
 * is stopped; a front end offered one gets notifications/cancelled with
 * its id) and `done` is never called. The gathering frees itself
 * when the last plugin has answered. */
void mrtr_withdraw(mrtr_gathering *g);

#endif
