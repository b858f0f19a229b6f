/* A server's "oauth" configuration object, and its key in the credential
 * file: "<name>|" + 16 hex digits of SHA-256 over the compact JSON
 * {"type","url","headers"}, as Claude Code keys it, so that a changed URL
 * or header set starts afresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oauth.h"

static int get_str(const cJSON *o, const char *k, char **out, char *why,
                   size_t why_len) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  if (!v) {
    return 0;
  }
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    snprintf(why, why_len, "oauth.%s must be a non-empty string", k);
    return -1;
  }
  *out = oauth_strdup(v->valuestring);
  return 0;
}

static bool one_of(const char *v, const char *const *list) {
  for (; *list; list++) {
    if (strcmp(v, *list) == 0) {
      return true;
    }
  }
  return false;
}

static int parse_oauth(oauth_server *sv, const cJSON *o, char *why,
                       size_t why_len) {
  if (!cJSON_IsObject(o)) {
    snprintf(why, why_len, "oauth must be an object");
    return -1;
  }
  /* Other keys are ignored: Claude Code's configurations may carry keys
   * of its own (e.g. "mode"), and they must keep working here. */
  char *env = NULL;
  if (get_str(o, "clientId", &sv->client_id, why, why_len) ||
      get_str(o, "clientSecret", &sv->client_secret, why, why_len) ||
      get_str(o, "clientSecretEnv", &env, why, why_len) ||
      get_str(o, "scopes", &sv->scopes, why, why_len) ||
      get_str(o, "clientMetadataUrl", &sv->metadata_url, why, why_len) ||
      get_str(o, "grant", &sv->grant, why, why_len) ||
      get_str(o, "tokenEndpointAuth", &sv->auth_method, why, why_len) ||
      get_str(o, "privateKeyFile", &sv->key_file, why, why_len) ||
      get_str(o, "signingAlgorithm", &sv->alg, why, why_len) ||
      get_str(o, "authServerMetadataUrl", &sv->as_metadata_url, why, why_len)) {
    free(env);
    return -1;
  }
  if (env) {
    const char *v = getenv(env);
    if (!v || !*v) {
      snprintf(why, why_len,
               "oauth.clientSecretEnv: the environment variable %.64s is "
               "not set",
               env);
      free(env);
      return -1;
    }
    free(sv->client_secret);
    sv->client_secret = oauth_strdup(v);
    free(env);
  }
  static const char *const grants[] = {"authorization_code",
                                       "client_credentials", NULL};
  if (sv->grant && !one_of(sv->grant, grants)) {
    snprintf(why, why_len,
             "oauth.grant must be \"authorization_code\" or "
             "\"client_credentials\"");
    return -1;
  }
  static const char *const methods[] = {"client_secret_basic",
                                        "client_secret_post", "none",
                                        "private_key_jwt", NULL};
  if (sv->auth_method && !one_of(sv->auth_method, methods)) {
    snprintf(why, why_len,
             "oauth.tokenEndpointAuth must be client_secret_basic, "
             "client_secret_post, none or private_key_jwt");
    return -1;
  }
  static const char *const algs[] = {"ES256", "RS256", NULL};
  if (sv->alg && !one_of(sv->alg, algs)) {
    snprintf(why, why_len, "oauth.signingAlgorithm must be ES256 or RS256");
    return -1;
  }
  if (sv->metadata_url && strncmp(sv->metadata_url, "https://", 8) != 0) {
    snprintf(why, why_len, "oauth.clientMetadataUrl must be an https URL");
    return -1;
  }
  if (sv->as_metadata_url && strncmp(sv->as_metadata_url, "https://", 8) != 0 &&
      !oauth_url_secure(sv->as_metadata_url)) {
    snprintf(why, why_len, "oauth.authServerMetadataUrl must be an https URL");
    return -1;
  }
  const cJSON *port = cJSON_GetObjectItemCaseSensitive(o, "callbackPort");
  if (port) {
    if (!cJSON_IsNumber(port) || port->valuedouble < 1 ||
        port->valuedouble > 65535 ||
        port->valuedouble != (double)(int)port->valuedouble) {
      snprintf(why, why_len, "oauth.callbackPort must be a port (1-65535)");
      return -1;
    }
    sv->callback_port = (int)port->valuedouble;
  }
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, "xaa");
  if (x && !cJSON_IsBool(x)) {
    snprintf(why, why_len, "oauth.xaa must be true or false");
    return -1;
  }
  sv->xaa = cJSON_IsTrue(x);
  if (sv->key_file && !sv->auth_method) {
    sv->auth_method = oauth_strdup("private_key_jwt");
  }
  return 0;
}

int oauth_server_parse(oauth_server *sv, const char *name,
                       const char *config_json, char *why, size_t why_len) {
  *sv = (oauth_server){0};
  cJSON *cfg = cJSON_Parse(config_json);
  int ret = -1;
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(cfg, "url");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(cfg, "type");
  if (!cJSON_IsString(url)) {
    snprintf(why, why_len, "the server has no url");
    goto out;
  }
  sv->name = oauth_strdup(name);
  sv->url = oauth_strdup(url->valuestring);
  sv->type = oauth_strdup(cJSON_IsString(type) ? type->valuestring : "http");
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(cfg, "oauth");
  if (o) {
    sv->has_oauth = true;
    if (parse_oauth(sv, o, why, why_len) != 0) {
      goto out;
    }
  }
  if (!sv->callback_port) {
    const char *p = getenv("MCP_OAUTH_CALLBACK_PORT");
    long v = p ? strtol(p, NULL, 10) : 0;
    sv->callback_port = v > 0 && v < 65536 ? (int)v : 0;
  }
  if (!sv->grant) {
    sv->grant = oauth_strdup("authorization_code");
  }
  sv->key = oauth_server_key(name, cfg);
  ret = 0;
out:
  if (ret != 0) {
    oauth_server_free(sv);
  }
  cJSON_Delete(cfg);
  return ret;
}

void oauth_server_free(oauth_server *sv) {
  free(sv->name);
  free(sv->type);
  free(sv->url);
  free(sv->key);
  free(sv->client_id);
  free(sv->client_secret);
  free(sv->scopes);
  free(sv->metadata_url);
  free(sv->grant);
  free(sv->auth_method);
  free(sv->key_file);
  free(sv->alg);
  free(sv->as_metadata_url);
  *sv = (oauth_server){0};
}
