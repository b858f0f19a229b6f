/* Fuzz target: what the claude.ai connectors read (plugins/claudeai):
 * the first byte picks the unit, the rest is its input.
 *  even: the listing's answer (listing_document). Refused, naming
 *    "data", exactly when it is not an object with a "data" array of at
 *    most LISTING_LIMIT elements (the connectors asked for); else
 *    a document {"scope": "claudeai", "mcpServers": {...}} with one
 *    server for each element with a non-empty string "id" and "url", in
 *    order, of type claudeai-proxy with that very url and id, named
 *    "claude.ai " and its display_name (or id), or with " (k)", k >= 2,
 *    so that no two names have the same normalized form (mcp_name.h),
 *    which the config loader would refuse as a clash: the first such k.
 *  odd: Claude Code's credentials file (creds_parse): a token exactly
 *    when claudeAiOauth is an object whose accessToken is a non-empty
 *    string without CR or LF, its Authorization value "Bearer " and it;
 *    the scope found only in a "scopes" array; expiresAt the number or
 *    0; else no token and a message naming the file, never quoting the
 *    refused token. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "creds.h"
#include "fuzz_json.h"
#include "listing.h"
#include "mcp_name.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

#define PATH "/home/u/.claude/.credentials.json"

static const char *str(const cJSON *o, const char *k) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k));
}

/* k when `name` is "claude.ai " base (k = 1) or that with " (k)",
 * k >= 2; else 0. */
static unsigned named_after(const char *name, const char *base) {
  size_t p = strlen(MCP_NAME_CLAUDEAI_PREFIX), b = strlen(base);
  if (strncmp(name, MCP_NAME_CLAUDEAI_PREFIX, p) != 0 ||
      strncmp(name + p, base, b) != 0) {
    return 0;
  }
  const char *rest = name + p + b;
  if (!*rest) {
    return 1;
  }
  unsigned k = 0;
  int end = 0;
  bool ok = sscanf(rest, " (%u)%n", &k, &end) == 1 && k >= 2 &&
            rest[end] == '\0' && rest[0] == ' ' && rest[2] != '0';
  return ok ? k : 0;
}

/* Whether the normalized form of the k-th name tried for `base` is in
 * `norms`. */
static bool was_taken(const cJSON *norms, const char *base, unsigned k) {
  char name[4200];
  if (k == 1) {
    snprintf(name, sizeof name, "%s%s", MCP_NAME_CLAUDEAI_PREFIX, base);
  } else {
    snprintf(name, sizeof name, "%s%s (%u)", MCP_NAME_CLAUDEAI_PREFIX, base, k);
  }
  char *norm = mcp_name_normalize(name);
  bool found = false;
  const cJSON *o;
  cJSON_ArrayForEach(o, norms) {
    found = found || strcmp(o->valuestring, norm) == 0;
  }
  free(norm);
  return found;
}

static void listing(const char *text, size_t len) {
  char why[256] = "";
  char *out = listing_document(text, len, why, sizeof why);
  cJSON *in = cJSON_ParseWithLength(text, len);
  const cJSON *items = cJSON_GetObjectItemCaseSensitive(in, "data");
  if (!cJSON_IsArray(items) || cJSON_GetArraySize(items) > LISTING_LIMIT) {
    fuzz_must(!out && strstr(why, "\"data\""));
    cJSON_Delete(in);
    return;
  }
  fuzz_must(out != NULL);
  cJSON *doc = cJSON_Parse(out);
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  fuzz_must(cJSON_IsObject(doc) && cJSON_IsObject(servers));
  const char *scope = str(doc, "scope");
  fuzz_must(scope && strcmp(scope, "claudeai") == 0);
  const cJSON *s = servers->child, *e;
  cJSON *norms = cJSON_CreateArray();
  cJSON_ArrayForEach(e, items) {
    const char *id = str(e, "id"), *url = str(e, "url");
    const char *display = str(e, "display_name");
    if (!id || !*id || !url || !*url) {
      continue;
    }
    fuzz_must(s != NULL && s->string != NULL);
    const char *type = str(s, "type");
    fuzz_must(type && strcmp(type, "claudeai-proxy") == 0);
    fuzz_must(str(s, "url") && strcmp(str(s, "url"), url) == 0);
    fuzz_must(str(s, "id") && strcmp(str(s, "id"), id) == 0);
    const char *base = display && *display ? display : id;
    unsigned k = named_after(s->string, base);
    fuzz_must(k >= 1);
    /* The first name free: every one before it was taken (past 16,
     * the first and the last before it only: a listing of 1000 of one
     * name would cost the check 1000^3 steps). */
    for (unsigned j = 1; j < k && strlen(base) < 4000; j++) {
      if (j <= 16 || j == k - 1) {
        fuzz_must(was_taken(norms, base, j));
      }
    }
    char *norm = mcp_name_normalize(s->string);
    const cJSON *o;
    cJSON_ArrayForEach(o, norms) {
      fuzz_must(strcmp(o->valuestring, norm) != 0);
    }
    cJSON_AddItemToArray(norms, cJSON_CreateString(norm));
    free(norm);
    s = s->next;
  }
  fuzz_must(s == NULL); /* no server of no element */
  cJSON_Delete(norms);
  cJSON_Delete(doc);
  cJSON_Delete(in);
  free(out);
}

static void credentials(const char *text, size_t len) {
  creds c = {.path = PATH};
  creds_parse(&c, text, len);
  cJSON *doc = cJSON_ParseWithLength(text, len);
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "claudeAiOauth");
  const char *tok = str(o, "accessToken");
  bool good = cJSON_IsObject(o) && tok && *tok && !strpbrk(tok, "\r\n");
  if (!good) {
    fuzz_must(!c.token && !c.bearer && !c.has_scope && c.expires_at == 0);
    fuzz_must(strstr(c.error, PATH) != NULL);
    /* No message quotes a token (CR and LF are in none of them). */
    fuzz_must(!tok || !strpbrk(tok, "\r\n") || !strstr(c.error, tok));
    cJSON_Delete(doc);
    return;
  }
  fuzz_must(c.token && strcmp(c.token, tok) == 0 && c.error[0] == '\0');
  fuzz_must(c.bearer && strncmp(c.bearer, "Bearer ", 7) == 0 &&
            strcmp(c.bearer + 7, tok) == 0);
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, "expiresAt");
  fuzz_must(c.expires_at == (cJSON_IsNumber(x) ? x->valuedouble : 0));
  const cJSON *scopes = cJSON_GetObjectItemCaseSensitive(o, "scopes");
  if (!cJSON_IsArray(scopes)) {
    scopes = NULL;
  }
  bool scope = false;
  const cJSON *it;
  cJSON_ArrayForEach(it, scopes) {
    scope = scope ||
            (cJSON_IsString(it) && strcmp(it->valuestring, CREDS_SCOPE) == 0);
  }
  fuzz_must(c.has_scope == scope);
  creds_wipe_free(c.token);
  creds_wipe_free(c.bearer);
  cJSON_Delete(doc);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len == 0) {
    return 0;
  }
  const char *text = (const char *)data + 1;
  if (data[0] & 1) {
    credentials(text, len - 1);
  } else {
    listing(text, len - 1);
  }
  return 0;
}
