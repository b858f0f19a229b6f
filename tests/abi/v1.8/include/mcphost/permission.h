/*
 * mcphost plugin ABI — the permission extension, id "mcph.permission/1"
 * (ABI 1.3).
 *
 * When a tool call matches an `ask` permission rule, someone must answer
 * before it runs. The host asks every plugin that offers this extension
 * and, on a terminal, the person at it; the first definite answer wins
 * and the others are withdrawn. A plugin may answer at once or later (a
 * chat channel relaying the question to a phone). A call with no answer
 * in time, or where nobody can answer, is refused.
 *
 * Deny rules are never asked about: a plugin can only answer questions
 * the rules left open.
 *
 * One question, on the loop thread:
 *   host: ask(ctx, req)  -> plugin returns MCPH_OK (it will answer) or
 *                           MCPH_ENOTSUP (it abstains; it never answers)
 *   plugin: answers once (below), or never if
 *   host: cancel(ctx, req)   the host withdrew it first
 * `req` and every string in it stay valid until the plugin answers or
 * cancel returns, whichever comes first; after that the plugin must not
 * touch it. The answer may come from inside ask.
 *
 * How to answer (abi.h, "Answering a pending request"): since 1.6 with
 * the respond family of "mcph.host.features/1" on req->request, through
 * the plugin's own host table:
 *   respond(host, req->request,
 *           "{\"decision\":\"allow\",\"reason\":\"...\"}", err)
 * where "decision" is "allow", "deny" or "abstain" (MCPH_PERMISSION_*)
 * and "reason" (optional) is a short text for people; another object is
 * MCPH_EINVAL and the question is still open. respond_error(host,
 * req->request, code, message) means the plugin cannot answer after all:
 * it abstains, as with "abstain". req->reply(req, decision, reason) is
 * the 1.3 way, a thin wrapper over the same path, kept for 1.x plugins
 * (a host older than 1.6 has only it: check MCPH_HAS(req,
 * mcph_permission_request, request)).
 */
#ifndef MCPHOST_PERMISSION_H
#define MCPHOST_PERMISSION_H

#include "abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_EXT_PERMISSION "mcph.permission/1"

enum mcph_permission_decision {
  MCPH_PERMISSION_ALLOW = 1, /* run the call */
  MCPH_PERMISSION_DENY = 2,  /* refuse it */
  /* (1.5) no answer after all: the plugin withdraws from the question,
   * which then waits for the others (and is refused when nobody is left).
   * A host older than 1.5 takes it as a refusal. */
  MCPH_PERMISSION_ABSTAIN = 3
};

typedef struct mcph_permission_request mcph_permission_request;

/* Written by the host. */
struct mcph_permission_request {
  uint32_t struct_size; /* sizeof(mcph_permission_request) as built */

  const char *tool;           /* "mcp__<server>__<tool>", normalized */
  const char *server;         /* the configured server name */
  const char *tool_name;      /* the tool's name as the user gave it */
  const char *arguments_json; /* the call's arguments, a JSON object */
  const char *reason;         /* why it asks, e.g. `ask rule "mcp__fs__*"
                                 (user settings FILE: permissions.ask[0])` */

  /* [loop] The plugin's answer: MCPH_PERMISSION_ALLOW, _DENY or (1.5)
   * _ABSTAIN, with a short reason for people (may be NULL; borrowed for
   * the call). Call it once; an answer after another one won is ignored.
   * Since 1.6 the same as respond() on `request` (above). */
  void (*reply)(mcph_permission_request *req, int decision, const char *reason);

  void *host_data; /* the host's; do not touch */
  /* ---- ABI 1.5 (check with MCPH_HAS) ---- */
  const char *description; /* the tool's description; NULL if unknown */
  /* ---- ABI 1.6 (check with MCPH_HAS) ---- */
  /* The question as a pending request, to answer with respond() (above);
   * valid as long as `req`. */
  mcph_request *request;
};

typedef struct mcph_permission_decider {
  uint32_t struct_size; /* sizeof(mcph_permission_decider) */

  /* [loop] A question. Return MCPH_OK when the plugin will answer
   * (now or later, as above), or MCPH_ENOTSUP (or any negative code) to
   * abstain: then it must never answer `req`. */
  int (*ask)(void *plugin_ctx, mcph_permission_request *req);

  /* [loop] The host no longer needs an answer to `req` (another
   * one won, the user interrupted, the command ended). Called only for a
   * question the plugin accepted and has not answered yet. After cancel
   * returns, `req` is gone. Required, as `ask` is: a decider without
   * both is never asked. */
  void (*cancel)(void *plugin_ctx, mcph_permission_request *req);
} mcph_permission_decider;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_PERMISSION_H */
