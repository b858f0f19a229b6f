/* Pending requests: the one way a plugin answers what the host hands it
 * (abi.h, "Answering a pending request"). Every kind (a server's request
 * to a feature, a permission question, a server source's listing) embeds
 * an `mcph_request` first and supplies its ops; the respond family of
 * mcph.host.features/1 and the 1.x wrappers (permission reply, server
 * source emit) all end in request_answer / request_answer_error. Loop
 * thread only. */
#ifndef MCPHOST_REQUEST_H
#define MCPHOST_REQUEST_H

#include <cjson/cJSON.h>

#include <mcphost/mcphost.h>

struct plugin;

typedef struct request_ops {
  /* The answer, a JSON object: takes `result` and returns MCPH_OK (the
   * request is answered; it may be freed), or MCPH_EINVAL with `err`
   * when it is not an answer this kind takes (then `result` is not taken
   * and the request is still open). */
  int (*result)(mcph_request *req, cJSON *result, mcph_error *err);
  /* A JSON-RPC error answer; `data` is taken (may be NULL). The request
   * is answered. */
  void (*error)(mcph_request *req, int code, const char *message, cJSON *data);
} request_ops;

struct mcph_request {
  const request_ops *ops;
  /* The plugin it was handed to, the only one whose table may answer
   * it; NULL for any. */
  const struct plugin *owner;
};

/* Answers `req` with the JSON text `result_json` through `api` (the
 * caller's table): MCPH_OK; MCPH_EINVAL (not a JSON object, or refused by
 * the kind; `req` still open); MCPH_EDENIED (another plugin's request). */
int request_respond(const mcph_host *api, mcph_request *req,
                    const char *result_json, mcph_error *err);
/* Answers `req` with a JSON-RPC error; `data_json` may be NULL. MCPH_OK;
 * MCPH_EINVAL (data_json is not JSON; `req` still open); MCPH_EDENIED. */
int request_respond_error(const mcph_host *api, mcph_request *req, int code,
                          const char *message, const char *data_json,
                          mcph_error *err);

#endif
