/* Token endpoint requests (reference oauth.md §2): client authentication
 * by client_secret_basic, client_secret_post, none or private_key_jwt,
 * and the token response (RFC 6749 §5). A 200 with "error" and no
 * access_token is an error too (Slack, GitHub), and expires_in may come
 * as a string. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "flow.h"
#include "meta.h"

void client_free(oauth_client *c) {
  free(c->id);
  free(c->secret);
  free(c->method);
  free(c->redirect_uri);
  free(c->kind);
  *c = (oauth_client){0};
}

static bool is_secret_method(const char *m) {
  return strcmp(m, "client_secret_basic") == 0 ||
         strcmp(m, "client_secret_post") == 0 || strcmp(m, "none") == 0;
}

const char *pick_auth_method(const oauth_meta *m, const oauth_client *c) {
  static const char *const F = "token_endpoint_auth_methods_supported";
  const char *has = c->method;
  if (has && strcmp(has, "private_key_jwt") == 0) {
    return has;
  }
  if (has && is_secret_method(has) && meta_lists(m, F, has, true)) {
    return has;
  }
  bool secret = c->secret && *c->secret;
  const cJSON *list = m->as ? cJSON_GetObjectItemCaseSensitive(m->as, F) : NULL;
  if (!cJSON_IsArray(list)) {
    return secret ? "client_secret_basic" : "none";
  }
  if (secret && meta_lists(m, F, "client_secret_basic", false)) {
    return "client_secret_basic";
  }
  if (secret && meta_lists(m, F, "client_secret_post", false)) {
    return "client_secret_post";
  }
  if (meta_lists(m, F, "none", false)) {
    return "none";
  }
  return secret ? "client_secret_post" : "none";
}

/* RFC 6749 §2.3.1: each part form-encoded, then base64. */
static char *basic_header(const char *id, const char *secret) {
  strbuf a = {0}, b = {0};
  ob_form(&a, "x", id);
  ob_form(&b, "x", secret ? secret : "");
  strbuf raw = {0};
  sb_printf(&raw, "%s:%s", sb_str(&a) + 2, sb_str(&b) + 2);
  char *enc = oauth_b64((const unsigned char *)raw.data, raw.len);
  strbuf h = {0};
  sb_printf(&h, "Basic %s", enc);
  free(enc);
  sb_free(&a);
  sb_free(&b);
  sb_free(&raw);
  return h.data;
}

/* Adds the client's authentication to the request. 0 or -1. */
static int add_client_auth(oauth_flow *f, const oauth_meta *m,
                           const oauth_client *c, strbuf *params,
                           char **authorization) {
  const char *method = pick_auth_method(m, c);
  if (strcmp(method, "client_secret_basic") == 0) {
    *authorization = basic_header(c->id, c->secret);
  } else if (strcmp(method, "client_secret_post") == 0) {
    ob_form(params, "client_id", c->id);
    ob_form(params, "client_secret", c->secret ? c->secret : "");
  } else if (strcmp(method, "private_key_jwt") == 0) {
    char why[256];
    if (!f->sv.key_file) {
      snprintf(f->message, sizeof f->message,
               "private_key_jwt needs oauth.privateKeyFile");
      return -1;
    }
    char *pem = oauth_read_file(f->sv.key_file, 65536);
    if (!pem) {
      snprintf(f->message, sizeof f->message,
               "oauth.privateKeyFile %.200s cannot be read", f->sv.key_file);
      return -1;
    }
    const char *alg = f->sv.alg ? f->sv.alg : "ES256";
    char *jwt = pem ? oauth_client_assertion(pem, alg, c->id, m->issuer, why,
                                             sizeof why)
                    : NULL;
    free(pem);
    if (!jwt) {
      snprintf(f->message, sizeof f->message, "private_key_jwt: %s", why);
      return -1;
    }
    ob_form(params, "client_assertion_type",
            "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    ob_form(params, "client_assertion", jwt);
    free(jwt);
  } else {
    ob_form(params, "client_id", c->id);
  }
  return 0;
}

int token_request(oauth_flow *f, const oauth_meta *m, const oauth_client *c,
                  strbuf *params, oauth_tokens *tok, char *error,
                  size_t error_len) {
  *tok = (oauth_tokens){0};
  error[0] = '\0';
  char *authorization = NULL;
  cJSON *j = NULL;
  int ret = -1;
  f->token_status = -1;
  if (add_client_auth(f, m, c, params, &authorization) != 0) {
    return -1;
  }
  oauth_req rq = {.method = "POST",
                  .url = m->token_endpoint,
                  .body = sb_str(params),
                  .content_type = "application/x-www-form-urlencoded",
                  .authorization = authorization,
                  .deadline_ms = f->deadline_ms};
  oauth_resp r;
  char why[512];
  f->token_status = 0;
  if (oauth_http(&rq, &r, why, sizeof why) != 0) {
    snprintf(f->message, sizeof f->message, "token request: %s", why);
    goto out;
  }
  f->token_status = r.status;
  j = oauth_resp_json(&r);
  if (token_response_read(r.status, j, tok, error, error_len, f->message,
                          sizeof f->message) != 0) {
    goto out;
  }
  ret = 0;
out:
  if (ret != 0) {
    tokens_free(tok);
  }
  cJSON_Delete(j);
  oauth_resp_free(&r);
  free(authorization);
  return ret;
}
