/* Fuzz target: the rest of a server's elicitation/create, what the
 * elicitation plugin reads before the schema rules (fuzz_elicitation.c)
 * or the URL check apply: its members (plugins/elicitation/request.c)
 * and, in URL mode, the URL (url.c's url_check). The first byte picks
 * the server's protocol revision (2026-07-28, 2025-11-25, none known);
 * the rest is the params' JSON text.
 *  - elicit_read_request accepts exactly when the params are an object,
 *    "mode" and "message" are strings when present, and either the mode
 *    is "form" or absent with a "requestedSchema" the schema rules take,
 *    or the mode is "url" with a "url" string and an "elicitationId"
 *    string (which a 2026-07-28 server may leave out, and no other);
 *    a refusal says why, and fills nothing it does not free.
 *  - What it fills is the request's: the message (or ""), the mode, the
 *    url and the id as sent, the schema a copy of the one sent.
 *  - url_check of the URL: taken only for http or https (any case), a
 *    URL without space or control characters, no backslash before its
 *    query, nothing but "scheme://" after the scheme, no user
 *    information, no percent sign in the host; what it gives back (the URL
 * rebuilt from curl's parts) is again taken, as itself, with the same host
 * shown, and the host shown is the host a browser finds in the URL sent. A
 *    refusal gives back nothing and says why. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* fuzz_json.h first: schema.h (in elicit.h) names a type "field". */
#include "fuzz_json.h"

#include "elicit.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char *era_version;

static const char *fake_version(const mcph_host *host,
                                const mcph_server *server) {
  (void)host;
  (void)server;
  return era_version;
}

/* The host a browser reads after "scheme://" (up to '/', '?' or '#',
 * without the port), lower-cased; NULL when not so written. */
static char *model_host(const char *url) {
  const char *p = strstr(url, "://");
  if (!p) {
    return NULL;
  }
  p += 3;
  size_t alen = strcspn(p, "/?#");
  size_t hlen = alen;
  if (p[0] == '[') {
    const char *close = memchr(p, ']', alen);
    hlen = close ? (size_t)(close - p) + 1 : alen;
  } else {
    const char *colon = memchr(p, ':', alen);
    hlen = colon ? (size_t)(colon - p) : alen;
  }
  char *h = malloc(hlen + 1);
  fuzz_must(h != NULL);
  for (size_t i = 0; i < hlen; i++) {
    char c = p[i];
    h[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
  }
  h[hlen] = '\0';
  return h;
}

/* Whether url_check's refusal of `url` is one the rules above make. */
static bool must_refuse(const char *url) {
  for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
    if (*p <= 0x20 || *p == 0x7F) {
      return true;
    }
  }
  size_t slen = strcspn(url, ":");
  if (!url[slen] ||
      (strncasecmp(url, "http", slen) != 0 &&
       strncasecmp(url, "https", slen) != 0) ||
      (slen != 4 && slen != 5)) {
    return true;
  }
  if (memchr(url, '\\', strcspn(url, "?#"))) {
    return true;
  }
  const char *p = url + slen + 1;
  if (p[0] != '/' || p[1] != '/' || p[2] == '/') {
    return true;
  }
  size_t alen = strcspn(p + 2, "/\\?#");
  return memchr(p + 2, '@', alen) != NULL || memchr(p + 2, '%', alen) != NULL;
}

static void check_url(const char *url) {
  char *host = NULL, *full = NULL;
  char why[300] = "";
  if (url_check(url, &host, &full, why, sizeof why) != 0) {
    fuzz_must(host == NULL && full == NULL && why[0] != '\0');
    return;
  }
  fuzz_must(host != NULL && full != NULL);
  fuzz_must(!must_refuse(url));
  fuzz_must(!must_refuse(full));
  /* The host shown leads with the host a browser finds in the URL sent
   * (the punycode form may follow it in parentheses). */
  char *seen = model_host(url);
  fuzz_must(seen != NULL);
  size_t sl = strlen(seen);
  fuzz_must(strncasecmp(host, seen, sl) == 0 &&
            (host[sl] == '\0' || host[sl] == ' '));
  free(seen);
  char *host2 = NULL, *full2 = NULL;
  fuzz_must(url_check(full, &host2, &full2, why, sizeof why) == 0);
  fuzz_must(strcmp(full2, full) == 0 && strcmp(host2, host) == 0);
  free(host2);
  free(full2);
  free(host);
  free(full);
}

static bool string_or_absent(const cJSON *v) {
  return !v || cJSON_IsString(v);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 1) {
    return 0;
  }
  static const char *const eras[] = {"2026-07-28", "2025-11-25", NULL};
  era_version = eras[data[0] % 3];
  cJSON *params = cJSON_ParseWithLength((const char *)data + 1, len - 1);

  mcph_host_features svc;
  memset(&svc, 0, sizeof svc);
  svc.struct_size = sizeof svc;
  svc.protocol_version = fake_version;
  elicit_plugin pl;
  memset(&pl, 0, sizeof pl);
  pl.svc = &svc;
  elicitation e;
  memset(&e, 0, sizeof e);
  e.pl = &pl;
  e.server = (mcph_server *)&pl; /* any server: the era says the rest */

  char why[600] = "";
  int rc = elicit_read_request(&e, params, why, sizeof why);

  const cJSON *mode = cJSON_GetObjectItemCaseSensitive(params, "mode");
  const cJSON *message = cJSON_GetObjectItemCaseSensitive(params, "message");
  const cJSON *schema =
      cJSON_GetObjectItemCaseSensitive(params, "requestedSchema");
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(params, "url");
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "elicitationId");
  bool heads = cJSON_IsObject(params) && string_or_absent(mode) &&
               string_or_absent(message);
  bool is_form = heads && (!mode || strcmp(mode->valuestring, "form") == 0);
  bool url_mode = heads && mode && strcmp(mode->valuestring, "url") == 0;
  bool id_ok = id ? cJSON_IsString(id)
                  : era_version && strcmp(era_version, "2026-07-28") == 0;

  if (rc != 0) {
    fuzz_must(rc == -1 && why[0] != '\0');
    fuzz_must(!(url_mode && cJSON_IsString(url) && id_ok));
    fuzz_must(!is_form || !schema ||
              strncmp(why, "invalid requestedSchema: ", 25) == 0);
  } else {
    fuzz_must(is_form || url_mode);
    fuzz_must(e.message != NULL &&
              strcmp(e.message, message ? message->valuestring : "") == 0);
    fuzz_must(e.url_mode == url_mode);
    if (is_form) {
      /* As text: cJSON_Compare finds only the first of a repeated key. */
      char *a = cJSON_PrintUnformatted(e.schema);
      char *b = cJSON_PrintUnformatted(schema);
      fuzz_must(schema != NULL && a && b && strcmp(a, b) == 0);
      cJSON_free(a);
      cJSON_free(b);
      fuzz_must(e.url == NULL && e.elicitation_id == NULL);
    } else {
      fuzz_must(cJSON_IsString(url) && id_ok);
      fuzz_must(strcmp(e.url, url->valuestring) == 0);
      fuzz_must(id ? strcmp(e.elicitation_id, id->valuestring) == 0
                   : e.elicitation_id == NULL);
      fuzz_must(e.schema == NULL);
      check_url(e.url);
    }
  }
  free(e.message);
  free(e.url);
  free(e.elicitation_id);
  cJSON_Delete(e.schema);
  schema_free(&e.form);
  cJSON_Delete(params);
  return 0;
}
