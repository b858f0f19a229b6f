/* The needs-auth cache, as Claude Code keeps ~/.claude/
 * mcp-needs-auth-cache.json: when a run with nobody to sign in finds
 * that a server needs an authorization, the server's credential key is
 * recorded with the time, and for 15 minutes later runs that could not
 * sign in either do not contact it at all (the host fails its connection
 * as needs-auth, naming `mcphost mcp login NAME`). Tokens stored for the
 * server end it at once. The file is $XDG_STATE_HOME/mcphost/
 * mcp-needs-auth-cache.json, {"<name>|<hash16>": {"timestamp": ms}},
 * kept by the host's secrets service as a shared document: written from
 * a flow's thread under its lock, read on the loop without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oauth.h"

#define KEY "mcp-needs-auth-cache.json"

typedef struct mark_ctx {
  const char *server_key;
  bool on;
  char *text; /* what is written */
} mark_ctx;

static int mark_fn(void *ud, mcph_secret_update *u) {
  mark_ctx *c = ud;
  cJSON *doc = u->value ? cJSON_ParseWithLength(u->value, u->len) : NULL;
  if (!cJSON_IsObject(doc)) {
    cJSON_Delete(doc); /* a cache: what cannot be read is dropped */
    doc = cJSON_CreateObject();
  }
  bool had = cJSON_GetObjectItemCaseSensitive(doc, c->server_key) != NULL;
  if (!c->on && !had) {
    cJSON_Delete(doc);
    return MCPH_OK; /* nothing to forget: nothing written */
  }
  cJSON_DeleteItemFromObjectCaseSensitive(doc, c->server_key);
  int64_t now = oauth_now_ms();
  if (c->on) {
    cJSON *e = cJSON_AddObjectToObject(doc, c->server_key);
    cJSON_AddNumberToObject(e, "timestamp", (double)now);
  }
  /* Old entries go as the file is written. */
  for (cJSON *e = doc->child, *next; e; e = next) {
    next = e->next;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "timestamp");
    if (!cJSON_IsNumber(t) ||
        now - oauth_json_ms(t) > NEEDS_AUTH_TTL_MS) {
      cJSON_DetachItemViaPointer(doc, e);
      cJSON_Delete(e);
    }
  }
  c->text = cJSON_PrintUnformatted(doc);
  cJSON_Delete(doc);
  if (!c->text) {
    return MCPH_ENOMEM;
  }
  u->new_value = c->text;
  u->new_len = strlen(c->text);
  return MCPH_OK;
}

void needs_auth_mark(oauth_store *st, const char *server_key, bool on) {
  if (!st->sec || !MCPH_HAS(st->sec, mcph_host_secrets, update)) {
    return;
  }
  mark_ctx c = {.server_key = server_key, .on = on};
  mcph_error err;
  mcph_error_init(&err);
  st->sec->update(st->host, KEY, MCPH_SECRET_SHARED, mark_fn, &c, &err);
  cJSON_free(c.text); /* a failure costs the cache only */
}

typedef struct peek_ctx {
  const char *server_key;
  bool fresh;
} peek_ctx;

static int peek_fn(void *ud, mcph_secret_update *u) {
  peek_ctx *c = ud;
  cJSON *doc = u->value ? cJSON_ParseWithLength(u->value, u->len) : NULL;
  const cJSON *e = cJSON_GetObjectItemCaseSensitive(doc, c->server_key);
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "timestamp");
  int64_t age = cJSON_IsNumber(t) ? oauth_now_ms() - oauth_json_ms(t)
                                  : NEEDS_AUTH_TTL_MS + 1;
  c->fresh = age >= 0 && age <= NEEDS_AUTH_TTL_MS;
  cJSON_Delete(doc);
  return MCPH_OK;
}

bool needs_auth_cached(oauth_store *st, const char *server_key) {
  if (!st->sec || !MCPH_HAS(st->sec, mcph_host_secrets, update)) {
    return false;
  }
  peek_ctx c = {.server_key = server_key};
  mcph_error err;
  mcph_error_init(&err);
  return st->sec->update(st->host, KEY, MCPH_SECRET_SHARED | MCPH_SECRET_PEEK,
                         peek_fn, &c, &err) == MCPH_OK &&
         c.fresh;
}
