#include "request.h"

#include "core/host.h"
#include "json_parse.h"

/* Only the plugin a request was handed to answers it (its own table,
 * ABI 1.6); the host's own table may answer any. */
static int check_caller(const mcph_host *api, const mcph_request *req,
                        mcph_error *err) {
  if (!req) {
    return mcph_error_set(err, MCPH_EINVAL, "no request to answer");
  }
  const plugin *caller = host_caller(api);
  if (!caller || !req->owner || caller == req->owner) {
    return MCPH_OK;
  }
  host_log(host_from_api(api), MCPH_LOG_WARN, caller->id,
           "answers a request handed to plugin %s; refused",
           req->owner->id ? req->owner->id : "?");
  return mcph_error_set(
      err, MCPH_EDENIED, "plugin %s answers a request handed to plugin %s",
      caller->id ? caller->id : "?", req->owner->id ? req->owner->id : "?");
}

int request_respond(const mcph_host *api, mcph_request *req,
                    const char *result_json, mcph_error *err) {
  int rc = check_caller(api, req, err);
  if (rc != MCPH_OK) {
    return rc;
  }
  cJSON *result = result_json ? json_parse_str(result_json) : NULL;
  if (!cJSON_IsObject(result)) {
    cJSON_Delete(result);
    return mcph_error_set(err, MCPH_EINVAL, "the result is not a JSON object");
  }
  rc = req->ops->result(req, result, err);
  if (rc != MCPH_OK) {
    cJSON_Delete(result);
  }
  return rc;
}

int request_respond_error(const mcph_host *api, mcph_request *req, int code,
                          const char *message, const char *data_json,
                          mcph_error *err) {
  int rc = check_caller(api, req, err);
  if (rc != MCPH_OK) {
    return rc;
  }
  cJSON *data = data_json ? json_parse_str(data_json) : NULL;
  if (data_json && !data) {
    return mcph_error_set(err, MCPH_EINVAL, "the error data is not JSON");
  }
  req->ops->error(req, code, message ? message : "error", data);
  return MCPH_OK;
}
