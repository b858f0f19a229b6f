/* The credential file, $XDG_STATE_HOME/mcphost/credentials.json: one JSON
 * document {"version":1,"mcpOAuth":{"<name>|<hash16>":{...}}} shared by
 * every mcphost process of the user, kept through the host's secrets
 * service as its shared document "credentials.json" (update with
 * MCPH_SECRET_SHARED, secrets.h). Each read-modify-write, and each
 * refresh, runs inside one update, under the service's lock
 * (credentials.json.lock), so two processes never both spend a rotating
 * refresh token; the service replaces the file whole, keeps it 0600 in a
 * 0700 directory and refuses one that is not the user's or is open to
 * others. What is JSON, and what is kept aside when it is not, is
 * decided here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oauth.h"

#define KEY "credentials.json"

static cJSON *empty_doc(void) {
  cJSON *d = cJSON_CreateObject();
  cJSON_AddNumberToObject(d, "version", 1);
  cJSON_AddObjectToObject(d, "mcpOAuth");
  return d;
}

typedef struct txn {
  store_fn fn;
  void *ud;
  char *text;     /* what is written, freed after the update */
  bool fn_failed; /* fn returned -1 */
} txn;

static int on_value(void *ud, mcph_secret_update *u) {
  txn *t = ud;
  cJSON *doc = u->value ? cJSON_ParseWithLength(u->value, u->len) : NULL;
  bool corrupt = u->value && (!doc || !cJSON_IsObject(doc));
  if (corrupt || !doc) {
    /* Never overwrite what cannot be read: the service keeps it aside
     * (credentials.json.corrupt-<time>) if anything is written. */
    cJSON_Delete(doc);
    doc = empty_doc();
  }
  if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "mcpOAuth"))) {
    cJSON_DeleteItemFromObjectCaseSensitive(doc, "mcpOAuth");
    cJSON_AddObjectToObject(doc, "mcpOAuth");
  }
  int r = t->fn(doc, t->ud);
  if (r < 0) {
    t->fn_failed = true;
    cJSON_Delete(doc);
    return MCPH_ECANCELED;
  }
  if (r > 0) {
    t->text = cJSON_PrintUnformatted(doc);
    u->new_value = t->text;
    u->new_len = t->text ? strlen(t->text) : 0;
    u->set_aside = corrupt;
  }
  cJSON_Delete(doc);
  return t->text || r == 0 ? MCPH_OK : MCPH_ENOMEM;
}

static int run(oauth_store *st, unsigned flags, store_fn fn, void *ud,
               char *why, size_t why_len) {
  if (!st->sec || !MCPH_HAS(st->sec, mcph_host_secrets, update)) {
    snprintf(why, why_len,
             "%s: the host's secrets service has no locked update (ABI "
             "1.6)",
             st->path ? st->path : KEY);
    return -1;
  }
  txn t = {.fn = fn, .ud = ud};
  mcph_error err;
  mcph_error_init(&err);
  int rc = st->sec->update(st->host, KEY, MCPH_SECRET_SHARED | flags, on_value,
                           &t, &err);
  if (t.text) {
    size_t n = strlen(t.text);
    memset(t.text, 0, n); /* tokens */
  }
  cJSON_free(t.text);
  if (t.fn_failed) {
    return -2;
  }
  if (rc != MCPH_OK) {
    snprintf(why, why_len, "%s", err.message[0] ? err.message : KEY);
    return -1;
  }
  return 0;
}

int store_update(oauth_store *st, store_fn fn, void *ud, char *why,
                 size_t why_len) {
  return run(st, 0, fn, ud, why, why_len);
}

static int copy_doc(cJSON *doc, void *ud) {
  *(cJSON **)ud = cJSON_Duplicate(doc, true);
  return 0;
}

cJSON *store_read(oauth_store *st, char *why, size_t why_len) {
  cJSON *doc = NULL;
  if (run(st, MCPH_SECRET_PEEK, copy_doc, &doc, why, why_len) != 0) {
    cJSON_Delete(doc);
    return NULL;
  }
  return doc;
}

static cJSON *section_entry(cJSON *doc, const char *section, const char *key,
                            bool create) {
  cJSON *all = cJSON_GetObjectItemCaseSensitive(doc, section);
  if (!cJSON_IsObject(all) && create) {
    cJSON_DeleteItemFromObjectCaseSensitive(doc, section);
    all = cJSON_AddObjectToObject(doc, section);
  }
  cJSON *e = cJSON_GetObjectItemCaseSensitive(all, key);
  if (!e && create && all) {
    e = cJSON_AddObjectToObject(all, key);
  }
  return cJSON_IsObject(e) ? e : NULL;
}

cJSON *store_entry(cJSON *doc, const char *key, bool create) {
  return section_entry(doc, "mcpOAuth", key, create);
}

cJSON *store_idp_entry(cJSON *doc, const char *key, bool create) {
  return section_entry(doc, "mcpXaaIdp", key, create);
}

/* Claude Code's proactive refresh window, for tokens of 20 minutes and
 * more; a shorter one is refreshed in its last quarter. */
#define EXPIRY_MARGIN_MS (300 * 1000)
#define EXPIRY_MARGIN_PART 4

int64_t oauth_json_ms(const cJSON *x) {
  const double lim = 2305843009213693952.0; /* 2^61 */
  double v = x->valuedouble;
  if (!(v > -lim)) { /* NaN too */
    return -(INT64_C(1) << 61);
  }
  return v < lim ? (int64_t)v : INT64_C(1) << 61;
}

bool oauth_expiring(const cJSON *entry) {
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(entry, "expiresAt");
  const cJSON *i = cJSON_GetObjectItemCaseSensitive(entry, "issuedAt");
  if (!cJSON_IsNumber(x)) {
    return false;
  }
  int64_t expires = oauth_json_ms(x), margin = EXPIRY_MARGIN_MS;
  int64_t life = cJSON_IsNumber(i) ? expires - oauth_json_ms(i) : 0;
  if (life > 0 && life / EXPIRY_MARGIN_PART < margin) {
    margin = life / EXPIRY_MARGIN_PART;
  }
  return expires - oauth_now_ms() <= margin;
}
