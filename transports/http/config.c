/* Parsing and validating the http transport's configuration. */
#include "config.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

/* Large enough for any real server, small enough that size arithmetic in
 * the buffers cannot overflow. */
#define MAX_MESSAGE_BYTES_LIMIT 4294967296.0
#define MAX_TIMEOUT_MS 86400000.0 /* a day */

/* Headers the transport owns: a configured value would break the
 * protocol, so it is ignored with a warning. */
static const char *const reserved_headers[] = {
    "Accept",         "Content-Type",
    "Content-Length", "Transfer-Encoding",
    "Mcp-Session-Id", "MCP-Protocol-Version",
    "Last-Event-ID",  NULL};

static bool is_tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || strchr("!#$%&'*+-.^_`|~", c);
}

static bool is_token(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (!is_tchar(*s))
      return false;
  return true;
}

static char *join3(const char *a, const char *b, const char *c) {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  char *s = malloc(la + lb + lc + 1);
  if (s) {
    memcpy(s, a, la);
    memcpy(s + la, b, lb);
    memcpy(s + la + lb, c, lc + 1);
  }
  return s;
}

/* The URL as messages show it: credentials and the query (which often
 * carries an API key) left out. */
static char *display_url(CURLU *u, const char *url) {
  char *user = NULL, *pass = NULL, *query = NULL;
  curl_url_get(u, CURLUPART_USER, &user, 0);
  curl_url_get(u, CURLUPART_PASSWORD, &pass, 0);
  curl_url_get(u, CURLUPART_QUERY, &query, 0);
  bool plain = !user && !pass && !query;
  curl_free(user);
  curl_free(pass);
  curl_free(query);
  if (plain)
    return strdup(url);
  char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *out = NULL;
  curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
  curl_url_get(u, CURLUPART_HOST, &host, 0);
  curl_url_get(u, CURLUPART_PORT, &port, 0);
  curl_url_get(u, CURLUPART_PATH, &path, 0);
  size_t n = strlen(url) + 8;
  out = malloc(n);
  if (out)
    snprintf(out, n, "%s://%s%s%s%s%s", scheme ? scheme : "?",
             host ? host : "?", port ? ":" : "", port ? port : "",
             path ? path : "", strchr(url, '?') ? "?…" : "");
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  curl_free(path);
  return out;
}

static int parse_url(const cJSON *root, http_config *cfg, mcph_error *err) {
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(root, "url");
  if (!url)
    return mcph_error_set(err, MCPH_EINVAL, "\"url\" is required");
  if (!cJSON_IsString(url) || !url->valuestring[0])
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"url\" must be a non-empty string");
  CURLU *u = curl_url();
  if (!u)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  int rc = 0;
  char *scheme = NULL;
  CURLUcode uc = curl_url_set(u, CURLUPART_URL, url->valuestring, 0);
  if (uc != CURLUE_OK) {
    rc = mcph_error_set(err, MCPH_EINVAL, "\"url\" is not a valid URL (%s): %s",
                        curl_url_strerror(uc), url->valuestring);
    goto out;
  }
  curl_url_get(u, CURLUPART_SCHEME, &scheme, 0);
  if (!scheme ||
      (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "\"url\" must be an http or https URL, not \"%s\"",
                        scheme ? scheme : "");
    goto out;
  }
  if (!(cfg->url = strdup(url->valuestring)) ||
      !(cfg->display_url = display_url(u, url->valuestring)))
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
out:
  curl_free(scheme);
  curl_url_cleanup(u);
  return rc;
}

static int parse_headers(const cJSON *root, const mcph_host *host,
                         const char *server, http_config *cfg,
                         mcph_error *err) {
  const cJSON *headers = cJSON_GetObjectItemCaseSensitive(root, "headers");
  if (headers && !cJSON_IsObject(headers))
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"headers\" must be an object of strings");
  size_t n = headers ? (size_t)cJSON_GetArraySize(headers) : 0, i = 0;
  if (!(cfg->headers = calloc(n + 1, sizeof(char *))))
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  const cJSON *h;
  cJSON_ArrayForEach(h, headers) {
    const char *name = h->string ? h->string : "";
    if (!is_token(name))
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers\" has an invalid header name \"%.100s\"",
                            name);
    if (!cJSON_IsString(h))
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers.%.100s\" must be a string", name);
    const char *value = h->valuestring;
    if (strpbrk(value, "\r\n"))
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers.%.100s\" must not contain a line break",
                            name);
    bool reserved = false;
    for (const char *const *r = reserved_headers; *r; r++)
      reserved = reserved || strcasecmp(name, *r) == 0;
    if (reserved) {
      mcph_logf(host, MCPH_LOG_WARN, server,
                "header \"%.100s\" from the configuration is ignored: the "
                "http transport sets it itself",
                name);
      continue;
    }
    /* curl sends "Name;" as an empty header; "Name:" would remove it. */
    char *line = *value ? join3(name, ": ", value) : join3(name, ";", "");
    if (!line)
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    cfg->headers[i++] = line;
  }
  return 0;
}

static int parse_timeout(const cJSON *root, http_config *cfg, mcph_error *err) {
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "timeout");
  cfg->timeout_ms = HTTP_DEFAULT_TIMEOUT_MS;
  if (!t)
    return 0;
  if (!cJSON_IsNumber(t) || t->valuedouble < 1 ||
      t->valuedouble > MAX_TIMEOUT_MS ||
      t->valuedouble != (double)(long)t->valuedouble)
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"timeout\" must be a whole number of milliseconds "
                          "from 1 to %.0f",
                          MAX_TIMEOUT_MS);
  cfg->timeout_ms = (long)t->valuedouble;
  return 0;
}

static int parse_max_message_bytes(const cJSON *root, http_config *cfg,
                                   mcph_error *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "maxMessageBytes");
  cfg->max_message_bytes = HTTP_DEFAULT_MAX_MESSAGE_BYTES;
  if (!m)
    return 0;
  if (!cJSON_IsNumber(m) || m->valuedouble < 1024 ||
      m->valuedouble > MAX_MESSAGE_BYTES_LIMIT ||
      m->valuedouble != (double)(size_t)m->valuedouble)
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"maxMessageBytes\" must be a whole number from "
                          "1024 to %.0f",
                          MAX_MESSAGE_BYTES_LIMIT);
  cfg->max_message_bytes = (size_t)m->valuedouble;
  return 0;
}

/* A file option of "tls": a readable file. */
static int tls_file(const cJSON *tls, const char *key, char **out,
                    mcph_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(tls, key);
  if (!v)
    return 0;
  if (!cJSON_IsString(v) || !v->valuestring[0])
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.%s\" must be a non-empty string (a file path)",
                          key);
  if (access(v->valuestring, R_OK) != 0)
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.%s\": cannot read %.300s: %s", key,
                          v->valuestring, strerror(errno));
  if (!(*out = strdup(v->valuestring)))
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  return 0;
}

static int parse_tls(const cJSON *root, http_config *cfg, mcph_error *err) {
  const cJSON *tls = cJSON_GetObjectItemCaseSensitive(root, "tls");
  if (!tls)
    return 0;
  if (!cJSON_IsObject(tls))
    return mcph_error_set(err, MCPH_EINVAL, "\"tls\" must be an object");
  int rc;
  if ((rc = tls_file(tls, "caFile", &cfg->ca_file, err)) != 0 ||
      (rc = tls_file(tls, "certFile", &cfg->cert_file, err)) != 0 ||
      (rc = tls_file(tls, "keyFile", &cfg->key_file, err)) != 0)
    return rc;
  if (cfg->key_file && !cfg->cert_file)
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.keyFile\" needs \"tls.certFile\"");
  const cJSON *insecure = cJSON_GetObjectItemCaseSensitive(tls, "insecure");
  if (insecure && !cJSON_IsBool(insecure))
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.insecure\" must be true or false");
  cfg->insecure = cJSON_IsTrue(insecure);
  return 0;
}

int http_config_parse(const char *json, const mcph_host *host,
                      const char *server, http_config *cfg, mcph_error *err) {
  cJSON *root = cJSON_Parse(json ? json : "");
  int rc = 0;
  if (!cJSON_IsObject(root)) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "the server configuration is not a JSON object");
    goto out;
  }
  /* "type" and unknown keys are accepted and ignored. */
  if ((rc = parse_url(root, cfg, err)) != 0 ||
      (rc = parse_headers(root, host, server, cfg, err)) != 0 ||
      (rc = parse_timeout(root, cfg, err)) != 0 ||
      (rc = parse_max_message_bytes(root, cfg, err)) != 0 ||
      (rc = parse_tls(root, cfg, err)) != 0)
    goto out;
out:
  cJSON_Delete(root);
  if (rc != 0)
    http_config_free(cfg);
  return rc;
}

void http_config_free(http_config *cfg) {
  free(cfg->url);
  free(cfg->display_url);
  if (cfg->headers)
    for (char **h = cfg->headers; *h; h++)
      free(*h);
  free(cfg->headers);
  free(cfg->ca_file);
  free(cfg->cert_file);
  free(cfg->key_file);
  memset(cfg, 0, sizeof *cfg);
}
