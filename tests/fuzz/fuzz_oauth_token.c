/* Fuzz target: the token response reader (plugins/oauth/meta.h). The
 * first byte picks the HTTP status, the rest is the body's JSON.
 * Properties: tokens only from a 200 with a non-empty access_token of
 * type Bearer (or none, or N_A), with an expiry that is not in the past;
 * a refusal says why, gives no token and passes on the OAuth "error" (a
 * dead refresh token's other names as invalid_grant). Nothing leaks. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "meta.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const long statuses[] = {200, 200, 200, 400, 401, 500, 201, 302};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  long status = statuses[data[0] % 8];
  cJSON *j = cJSON_ParseWithLength((const char *)data + 1, len - 1);
  if (j && !cJSON_IsObject(j)) {
    cJSON_Delete(j);
    j = NULL;
  }
  oauth_tokens tok;
  char error[128], msg[1024] = "";
  int64_t before = oauth_now_ms();
  int rc = token_response_read(status, j, &tok, error, sizeof error, msg,
                               sizeof msg);
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
  if (rc != 0) {
    if (!msg[0] || tok.access || tok.refresh || tok.scope) {
      abort();
    }
    if (error[0] && !(cJSON_IsString(e) &&
                      (strncmp(error, e->valuestring, sizeof error - 1) == 0 ||
                       strcmp(error, "invalid_grant") == 0))) {
      abort();
    }
    cJSON_Delete(j);
    return 0;
  }
  const cJSON *tt = cJSON_GetObjectItemCaseSensitive(j, "token_type");
  if (status != 200 || !tok.access || !tok.access[0] ||
      (cJSON_IsString(tt) && strcasecmp(tt->valuestring, "bearer") != 0 &&
       strcasecmp(tt->valuestring, "n_a") != 0) ||
      (tok.expires_at != 0 && tok.expires_at < before)) {
    abort();
  }
  tokens_free(&tok);
  cJSON_Delete(j);
  return 0;
}
