/* Parsing and validating the sse transport's configuration. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "url.h"

/* Large enough for any real server, small enough that size arithmetic in
 * the SSE parser cannot overflow. */
#define MAX_MESSAGE_BYTES_LIMIT 4294967296.0
/* About 24 days: what fits curl's long milliseconds everywhere. */
#define TIMEOUT_LIMIT 2147483647.0

static void strv_free(char **v) {
  if (!v) {
    return;
  }
  for (char **p = v; *p; p++) {
    free(*p);
  }
  free(v);
}

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

static int parse_url(const cJSON *root, sse_config *cfg, mcph_error *err) {
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(root, "url");
  if (!url) {
    return mcph_error_set(err, MCPH_EINVAL, "\"url\" is required");
  }
  if (!cJSON_IsString(url) || url->valuestring[0] == '\0') {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"url\" must be a non-empty string");
  }
  char why[256];
  if (!url_check_http(url->valuestring, why, sizeof why)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"url\" must be an absolute http or https URL: %s",
                          why);
  }
  if (!(cfg->url = strdup(url->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

static int parse_headers(const cJSON *root, sse_config *cfg, mcph_error *err) {
  const cJSON *headers = cJSON_GetObjectItemCaseSensitive(root, "headers");
  if (headers && !cJSON_IsObject(headers)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"headers\" must be an object of strings");
  }
  size_t n = headers ? (size_t)cJSON_GetArraySize(headers) : 0;
  if (!(cfg->headers = calloc(n + 1, sizeof(char *)))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  size_t i = 0;
  const cJSON *h;
  cJSON_ArrayForEach(h, headers) {
    const char *name = h->string ? h->string : "";
    if (!is_token(name)) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers\" has an invalid header name \"%.100s\"",
                            name);
    }
    if (!cJSON_IsString(h)) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers.%.100s\" must be a string", name);
    }
    const char *value = h->valuestring;
    if (strpbrk(value, "\r\n")) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"headers.%.100s\" must not contain a line break",
                            name);
    }
    /* curl sends "Name;" as a header with an empty value; "Name:" would
     * remove the header instead. */
    size_t len = strlen(name) + strlen(value) + 3;
    char *line = malloc(len);
    if (!line) {
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    }
    if (*value) {
      snprintf(line, len, "%s: %s", name, value);
    } else {
      snprintf(line, len, "%s;", name);
    }
    cfg->headers[i++] = line;
  }
  return 0;
}

static int parse_timeout(const cJSON *root, sse_config *cfg, mcph_error *err) {
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "timeout");
  cfg->timeout_ms = SSE_DEFAULT_TIMEOUT_MS;
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

static int tls_file(const cJSON *tls, const char *key, char **out,
                    mcph_error *err) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(tls, key);
  if (!v) {
    return 0;
  }
  if (!cJSON_IsString(v) || v->valuestring[0] == '\0') {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"tls.%s\" must be a non-empty string (a file "
                          "path)",
                          key);
  }
  if (!(*out = strdup(v->valuestring))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  return 0;
}

static int parse_tls(const cJSON *root, sse_config *cfg, mcph_error *err) {
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

static int parse_max_message_bytes(const cJSON *root, sse_config *cfg,
                                   mcph_error *err) {
  const cJSON *max = cJSON_GetObjectItemCaseSensitive(root, "maxMessageBytes");
  cfg->max_message_bytes = SSE_DEFAULT_MAX_MESSAGE_BYTES;
  if (!max) {
    return 0;
  }
  double v = cJSON_IsNumber(max) ? max->valuedouble : 0;
  if (!(v >= 1 && v <= MAX_MESSAGE_BYTES_LIMIT && (double)(uint64_t)v == v)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"maxMessageBytes\" must be a whole number from 1 "
                          "to %.0f",
                          MAX_MESSAGE_BYTES_LIMIT);
  }
  cfg->max_message_bytes = (size_t)v;
  return 0;
}

int sse_config_parse(const char *json, sse_config *cfg, mcph_error *err) {
  int rc = 0;
  cJSON *root = json ? cJSON_Parse(json) : NULL;
  if (!root) {
    rc = mcph_error_set(err, MCPH_EINVAL, "sse config is not valid JSON");
    goto out;
  }
  if (!cJSON_IsObject(root)) {
    rc = mcph_error_set(err, MCPH_EINVAL, "sse config must be a JSON object");
    goto out;
  }
  /* "type" and unknown keys are accepted and ignored. */
  if ((rc = parse_url(root, cfg, err)) != 0 ||
      (rc = parse_headers(root, cfg, err)) != 0 ||
      (rc = parse_timeout(root, cfg, err)) != 0 ||
      (rc = parse_tls(root, cfg, err)) != 0 ||
      (rc = parse_max_message_bytes(root, cfg, err)) != 0) {
    goto out;
  }

out:
  cJSON_Delete(root);
  if (rc != 0) {
    sse_config_free(cfg);
  }
  return rc;
}

bool sse_config_has_header(const sse_config *cfg, const char *name) {
  size_t n = strlen(name);
  for (char **h = cfg->headers; h && *h; h++) {
    if (strncasecmp(*h, name, n) == 0 && ((*h)[n] == ':' || (*h)[n] == ';')) {
      return true;
    }
  }
  return false;
}

void sse_config_free(sse_config *cfg) {
  free(cfg->url);
  strv_free(cfg->headers);
  free(cfg->ca_file);
  free(cfg->cert_file);
  free(cfg->key_file);
  memset(cfg, 0, sizeof *cfg);
}
