/* The client's identity at an authorization server (reference oauth.md
 * §1 step 6), in order: pre-registered (oauth.clientId), a Client ID
 * Metadata Document (oauth.clientMetadataUrl, when the server supports
 * it), Dynamic Client Registration (RFC 7591). A registration is kept in
 * the server's credential entry under the issuer it was made at, with its
 * redirect URI, and used again while both match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"

static int dcr(oauth_flow *f, const oauth_meta *m, const char *scope,
               oauth_client *c) {
  if (!m->registration_endpoint) {
    snprintf(f->message, sizeof f->message,
             "the authorization server offers no client registration: "
             "configure oauth.clientId for server \"%s\"",
             f->sv.name);
    return -1;
  }
  if (!oauth_url_secure(m->registration_endpoint)) {
    snprintf(f->message, sizeof f->message,
             "the registration endpoint is not https: refused");
    return -1;
  }
  cJSON *b = cJSON_CreateObject();
  strbuf name = {0};
  sb_printf(&name, "mcphost (%s)", f->sv.name);
  cJSON_AddStringToObject(b, "client_name", sb_str(&name));
  sb_free(&name);
  cJSON *ru = cJSON_AddArrayToObject(b, "redirect_uris");
  cJSON_AddItemToArray(ru, cJSON_CreateString(c->redirect_uri));
  cJSON *gt = cJSON_AddArrayToObject(b, "grant_types");
  cJSON_AddItemToArray(gt, cJSON_CreateString("authorization_code"));
  cJSON_AddItemToArray(gt, cJSON_CreateString("refresh_token"));
  cJSON *rt = cJSON_AddArrayToObject(b, "response_types");
  cJSON_AddItemToArray(rt, cJSON_CreateString("code"));
  cJSON_AddStringToObject(b, "token_endpoint_auth_method", "none");
  cJSON_AddStringToObject(b, "application_type", "native");
  if (scope) {
    cJSON_AddStringToObject(b, "scope", scope);
  }
  char *body = cJSON_PrintUnformatted(b);
  cJSON_Delete(b);
  oauth_req rq = {.method = "POST",
                  .url = m->registration_endpoint,
                  .body = body,
                  .content_type = "application/json",
                  .deadline_ms = f->deadline_ms};
  oauth_resp r;
  char why[512];
  int ret = -1;
  cJSON *j = NULL;
  if (oauth_http(&rq, &r, why, sizeof why) != 0) {
    snprintf(f->message, sizeof f->message, "client registration: %s", why);
    goto out;
  }
  j = oauth_resp_json(&r);
  c->id = j ? oauth_json_str(j, "client_id") : NULL;
  if ((r.status != 200 && r.status != 201) || !c->id) {
    char *e = j ? oauth_json_str(j, "error") : NULL;
    snprintf(f->message, sizeof f->message,
             "client registration at the authorization server failed (HTTP "
             "%ld%s%.64s)",
             r.status, e ? ", error " : "", e ? e : "");
    free(e);
    goto out;
  }
  c->secret = oauth_json_str(j, "client_secret");
  c->method = oauth_json_str(j, "token_endpoint_auth_method");
  c->kind = oauth_strdup("dcr");
  ret = 0;
out:
  cJSON_Delete(j);
  oauth_resp_free(&r);
  cJSON_free(body);
  return ret;
}

char *redirect_uri(int port) {
  /* The loopback IP literal, not "localhost" (RFC 8252 §7.3): the
   * listener holds 127.0.0.1 only, and a browser that resolves localhost
   * to ::1 would hand the code to whoever listens there. */
  strbuf ru = {0};
  sb_printf(&ru, "http://127.0.0.1:%d/callback", port);
  return ru.data;
}

int client_identity(oauth_flow *f, const oauth_meta *m, cJSON *entry,
                    const char *scope, int port, oauth_client *c) {
  *c = (oauth_client){0};
  c->redirect_uri = redirect_uri(port);
  if (f->sv.client_id) {
    c->id = oauth_strdup(f->sv.client_id);
    c->secret = oauth_strdup(f->sv.client_secret);
    c->method = oauth_strdup(f->sv.auth_method);
    c->kind = oauth_strdup("static");
    return 0;
  }
  if (m->cimd && f->sv.metadata_url) {
    c->id = oauth_strdup(f->sv.metadata_url);
    c->method = oauth_strdup("none");
    c->kind = oauth_strdup("cimd");
    return 0;
  }
  if (strcmp(f->sv.grant, "client_credentials") == 0 || f->sv.xaa) {
    snprintf(f->message, sizeof f->message,
             "server \"%s\": %s needs oauth.clientId", f->sv.name,
             f->sv.xaa ? "cross-app access" : "the client_credentials grant");
    return -1;
  }
  /* A registration made before at this issuer for this redirect URI. */
  cJSON *clients = cJSON_GetObjectItemCaseSensitive(entry, "clients");
  cJSON *reg = cJSON_GetObjectItemCaseSensitive(clients, m->issuer);
  char *kept_ru = reg ? oauth_json_str(reg, "redirectUri") : NULL;
  if (reg && kept_ru && strcmp(kept_ru, c->redirect_uri) == 0) {
    c->id = oauth_json_str(reg, "clientId");
    c->secret = oauth_json_str(reg, "clientSecret");
    c->method = oauth_json_str(reg, "method");
    c->kind = oauth_strdup("dcr");
  }
  free(kept_ru);
  if (c->id) {
    return 0;
  }
  if (dcr(f, m, scope, c) != 0) {
    return -1;
  }
  if (!clients) {
    clients = cJSON_AddObjectToObject(entry, "clients");
  }
  cJSON_DeleteItemFromObjectCaseSensitive(clients, m->issuer);
  reg = cJSON_AddObjectToObject(clients, m->issuer);
  cJSON_AddStringToObject(reg, "clientId", c->id);
  if (c->secret) {
    cJSON_AddStringToObject(reg, "clientSecret", c->secret);
  }
  if (c->method) {
    cJSON_AddStringToObject(reg, "method", c->method);
  }
  cJSON_AddStringToObject(reg, "redirectUri", c->redirect_uri);
  return 0;
}
