/* The remote transports' configuration; see remote_config.h. */
#include "remote_config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "url_redact.h"

/* Large enough for any real server, small enough that size arithmetic in
 * the buffers and the SSE parser cannot overflow. Below the minimum, no
 * initialize result fits. */
#define MAX_MESSAGE_BYTES_MIN 1024.0
#define MAX_MESSAGE_BYTES_LIMIT 4294967296.0
/* About 24 days: what fits curl's long milliseconds and the host's timers
 * everywhere. */
#define TIMEOUT_LIMIT 2147483647.0

/* Headers the transports own: a configured value would break the
 * protocol, so it is ignored with a warning. */
static const char *const reserved_headers[] = {"Accept",
                                               "Content-Type",
                                               "Content-Length",
                                               "Transfer-Encoding",
                                               "Mcp-Session-Id",
                                               "MCP-Protocol-Version",
                                               "Last-Event-ID",
                                               "Host",
                                               NULL};

/* RFC 9110 token characters, which header names are made of. */
static bool is_token(const char *s) {
  if (!*s) {
    return false;
  }
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c <= 0x20 || c >= 0x7f || strchr("\"(),/:;<=>?@[\\]{}", c)) {
      return false;
    }
  }
  return true;
}

static int parse_url(const cJSON *root, const remote_url_rule *rule,
                     remote_config *cfg, mcph_error *err) {
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(root, "url");
  if (!url) {
    return mcph_error_set(err, MCPH_EINVAL, "\"url\" is required");
  }
  if (!cJSON_IsString(url) || !url->valuestring[0]) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"url\" must be a non-empty string");
  }
  if (!(cfg->display_url = url_redacted(url->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  char why[256];
  if (!rule->check(url->valuestring, why, sizeof why)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"url\" must be an absolute %s URL "
                          "(%s): %.300s",
                          rule->schemes, why, cfg->display_url);
  }
  if (!(cfg->url = strdup(url->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

static bool reserved(const char *name) {
  for (const char *const *r = reserved_headers; *r; r++) {
    if (strcasecmp(name, *r) == 0) {
      return true;
    }
  }
  return false;
}

bool remote_config_header_value_ok(const char *value) {
  for (const char *p = value; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      return false;
    }
  }
  return true;
}

/* One header as a "Name: value" line (curl's "Name;" for an empty value,
 * which lws sends as "Name:" too). Returns 0 with *line set (new), 1 for a
 * header the transport sets itself (warned about, *line NULL), or an
 * MCPH_E* code with `err` naming `what` ("headers", "headersHelper"). */
static int header_line(const char *what, const char *name, const cJSON *h,
                       const mcph_host *host, const char *server,
                       const char *transport, char **line, mcph_error *err) {
  *line = NULL;
  if (!is_token(name)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"%s\" has an invalid header name \"%.100s\"",
                          what, name);
  }
  if (!cJSON_IsString(h)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"%s.%.100s\" must be a string", what, name);
  }
  const char *value = h->valuestring;
  if (!remote_config_header_value_ok(value)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"%s.%.100s\" must not contain a line break "
                          "or a control character",
                          what, name);
  }
  if (reserved(name)) {
    mcph_logf(host, MCPH_LOG_WARN, server,
              "header \"%.100s\" from the %s is ignored: the %s transport "
              "sets it itself",
              name,
              strcmp(what, "headers") == 0 ? "configuration" : "headersHelper",
              transport);
    return 1;
  }
  size_t len = strlen(name) + strlen(value) + 3;
  if (!(*line = malloc(len))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  if (*value) {
    snprintf(*line, len, "%s: %s", name, value);
  } else {
    snprintf(*line, len, "%s;", name);
  }
  return 0;
}

static int parse_headers(const cJSON *root, const mcph_host *host,
                         const char *server, const char *transport,
                         remote_config *cfg, mcph_error *err) {
  const cJSON *headers = cJSON_GetObjectItemCaseSensitive(root, "headers");
  if (headers && !cJSON_IsObject(headers)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"headers\" must be an object of strings");
  }
  size_t n = headers ? (size_t)cJSON_GetArraySize(headers) : 0, i = 0;
  if (!(cfg->headers = calloc(n + 1, sizeof(char *)))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  const cJSON *h;
  cJSON_ArrayForEach(h, headers) {
    char *line;
    int rc = header_line("headers", h->string ? h->string : "", h, host,
                         server, transport, &line, err);
    if (rc < 0) {
      return rc;
    }
    if (line) {
      cfg->headers[i++] = line;
    }
  }
  return 0;
}

static int parse_timeout(const cJSON *root, remote_config *cfg,
                         mcph_error *err) {
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "timeout");
  cfg->timeout_ms = REMOTE_DEFAULT_TIMEOUT_MS;
  if (!t) {
    return 0;
  }
  double v = cJSON_IsNumber(t) ? t->valuedouble : 0;
  /* The range test comes first so that the cast is defined (and NaN
   * fails it). */
  if (!(v >= 1 && v <= TIMEOUT_LIMIT && (double)(long)v == v)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"timeout\" must be a whole number of milliseconds "
                          "from 1 to %.0f",
                          TIMEOUT_LIMIT);
  }
  cfg->timeout_ms = (long)v;
  return 0;
}

static int parse_max_message_bytes(const cJSON *root, remote_config *cfg,
                                   mcph_error *err) {
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "maxMessageBytes");
  cfg->max_message_bytes = REMOTE_DEFAULT_MAX_MESSAGE_BYTES;
  if (!m) {
    return 0;
  }
  double v = cJSON_IsNumber(m) ? m->valuedouble : 0;
  if (!(v >= MAX_MESSAGE_BYTES_MIN && v <= MAX_MESSAGE_BYTES_LIMIT &&
        (double)(uint64_t)v == v)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"maxMessageBytes\" must be a whole number from "
                          "%.0f to %.0f",
                          MAX_MESSAGE_BYTES_MIN, MAX_MESSAGE_BYTES_LIMIT);
  }
  cfg->max_message_bytes = (size_t)v;
  return 0;
}

/* A file option of "tls": a readable file, checked now so that the error
 * names the field rather than a failed handshake later. */
static int tls_file(const cJSON *tls, const char *key, char **out,
                    mcph_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(tls, key);
  if (!v) {
    return 0;
  }
  if (!cJSON_IsString(v) || !v->valuestring[0]) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.%s\" must be a non-empty string (a file path)",
                          key);
  }
  if (access(v->valuestring, R_OK) != 0) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.%s\": cannot read %.300s: %s", key,
                          v->valuestring, strerror(errno));
  }
  if (!(*out = strdup(v->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

static int parse_tls(const cJSON *root, remote_config *cfg, mcph_error *err) {
  const cJSON *tls = cJSON_GetObjectItemCaseSensitive(root, "tls");
  if (!tls) {
    return 0;
  }
  if (!cJSON_IsObject(tls)) {
    return mcph_error_set(err, MCPH_EINVAL, "\"tls\" must be an object");
  }
  int rc;
  if ((rc = tls_file(tls, "caFile", &cfg->ca_file, err)) != 0 ||
      (rc = tls_file(tls, "certFile", &cfg->cert_file, err)) != 0 ||
      (rc = tls_file(tls, "keyFile", &cfg->key_file, err)) != 0) {
    return rc;
  }
  if (cfg->key_file && !cfg->cert_file) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.keyFile\" needs \"tls.certFile\"");
  }
  const cJSON *insecure = cJSON_GetObjectItemCaseSensitive(tls, "insecure");
  if (insecure && !cJSON_IsBool(insecure)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.insecure\" must be true or false");
  }
  cfg->insecure = cJSON_IsTrue(insecure);
  return 0;
}

static int parse_headers_helper(const cJSON *root, remote_config *cfg,
                                mcph_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "headersHelper");
  if (!v) {
    return 0;
  }
  if (!cJSON_IsString(v) || !v->valuestring[strspn(v->valuestring, " \t")]) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"headersHelper\" must be a non-empty string (a "
                          "command)");
  }
  if (!(cfg->headers_helper = strdup(v->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

int remote_config_parse(const char *json, const remote_url_rule *rule,
                        const mcph_host *host, const char *server,
                        const char *transport, remote_config *cfg,
                        mcph_error *err) {
  cJSON *root = cJSON_Parse(json ? json : "");
  int rc = 0;
  if (!cJSON_IsObject(root)) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "the server configuration is not a JSON object");
    goto out;
  }
  if ((rc = parse_url(root, rule, cfg, err)) != 0 ||
      (rc = parse_headers(root, host, server, transport, cfg, err)) != 0 ||
      (rc = parse_timeout(root, cfg, err)) != 0 ||
      (rc = parse_max_message_bytes(root, cfg, err)) != 0 ||
      (rc = parse_tls(root, cfg, err)) != 0 ||
      (rc = parse_headers_helper(root, cfg, err)) != 0) {
    goto out;
  }
out:
  cJSON_Delete(root);
  if (rc != 0) {
    remote_config_free(cfg);
  }
  return rc;
}

void remote_config_free(remote_config *cfg) {
  free(cfg->url);
  free(cfg->display_url);
  if (cfg->headers) {
    for (char **h = cfg->headers; *h; h++) {
      free(*h);
    }
  }
  free(cfg->headers);
  free(cfg->ca_file);
  free(cfg->cert_file);
  free(cfg->key_file);
  free(cfg->headers_helper);
  memset(cfg, 0, sizeof *cfg);
}

/* Whether header line `line` ("Name: v" or "Name;") is named `name`. */
static bool line_is(const char *line, const char *name) {
  size_t n = strlen(name);
  return strncasecmp(line, name, n) == 0 && (line[n] == ':' || line[n] == ';');
}

int remote_config_merge_headers(remote_config *cfg, const char *json,
                                const mcph_host *host, const char *server,
                                const char *transport, mcph_error *err) {
  cJSON *root = cJSON_Parse(json ? json : "");
  char **merged = NULL;
  int rc = 0;
  if (!cJSON_IsObject(root)) {
    rc = mcph_error_set(err, MCPH_EPROTO,
                        "did not print a JSON object of headers");
    goto out;
  }
  size_t had = 0, k = 0;
  while (cfg->headers && cfg->headers[had]) {
    had++;
  }
  size_t n = (size_t)cJSON_GetArraySize(root);
  if (!(merged = calloc(had + n + 1, sizeof *merged))) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  const cJSON *h;
  cJSON_ArrayForEach(h, root) {
    char *line;
    rc = header_line("headersHelper", h->string ? h->string : "", h, host,
                     server, transport, &line, err);
    if (rc < 0) {
      goto out;
    }
    rc = 0;
    if (line) {
      merged[k++] = line;
    }
  }
  /* The configured ones the helper did not name follow; the helper's
   * win. */
  size_t from_helper = k;
  for (size_t i = 0; i < had; i++) {
    bool replaced = false;
    for (size_t j = 0; j < from_helper && !replaced; j++) {
      char name[256];
      size_t len = strcspn(merged[j], ":;");
      snprintf(name, sizeof name, "%.*s", (int)len, merged[j]);
      replaced = line_is(cfg->headers[i], name);
    }
    if (replaced) {
      free(cfg->headers[i]);
    } else {
      merged[k++] = cfg->headers[i];
    }
  }
  free(cfg->headers);
  cfg->headers = merged;
  merged = NULL;
out:
  if (merged) {
    for (char **m = merged; *m; m++) {
      free(*m);
    }
    free(merged);
  }
  cJSON_Delete(root);
  return rc;
}
