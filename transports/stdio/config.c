/* Parsing and validating the stdio transport's configuration. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* Large enough for any real server, small enough that size arithmetic in
 * the framing cannot overflow. */
#define MAX_MESSAGE_BYTES_LIMIT 4294967296.0

static char **strv_new(size_t n) {
  return calloc(n + 1, sizeof(char *));
}

static void strv_free(char **v) {
  if (!v) {
    return;
  }
  for (char **p = v; *p; p++) {
    free(*p);
  }
  free(v);
}

static int parse_args(const cJSON *root, stdio_config *cfg, mcph_error *err) {
  const cJSON *args = cJSON_GetObjectItemCaseSensitive(root, "args");
  if (args && !cJSON_IsArray(args)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"args\" must be an array of strings");
  }
  size_t n = args ? (size_t)cJSON_GetArraySize(args) : 0;
  cfg->argv = strv_new(n + 1);
  if (!cfg->argv || !(cfg->argv[0] = strdup(cfg->command))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  size_t i = 0;
  const cJSON *arg;
  cJSON_ArrayForEach(arg, args) {
    if (!cJSON_IsString(arg)) {
      return mcph_error_set(err, MCPH_EINVAL, "\"args[%zu]\" must be a string",
                            i);
    }
    if (!(cfg->argv[i + 1] = strdup(arg->valuestring))) {
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    }
    i++;
  }
  return 0;
}

static int parse_env(const cJSON *root, stdio_config *cfg, mcph_error *err) {
  const cJSON *env = cJSON_GetObjectItemCaseSensitive(root, "env");
  if (env && !cJSON_IsObject(env)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"env\" must be an object of strings");
  }
  size_t n = env ? (size_t)cJSON_GetArraySize(env) : 0;
  if (!(cfg->env = strv_new(n))) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  size_t i = 0;
  const cJSON *var;
  cJSON_ArrayForEach(var, env) {
    const char *key = var->string;
    if (!key || !*key || strchr(key, '=')) {
      return mcph_error_set(err, MCPH_EINVAL,
                            "\"env\" has an invalid variable name \"%s\"",
                            key ? key : "");
    }
    if (!cJSON_IsString(var)) {
      return mcph_error_set(err, MCPH_EINVAL, "\"env.%s\" must be a string",
                            key);
    }
    size_t klen = strlen(key), vlen = strlen(var->valuestring);
    char *kv = malloc(klen + vlen + 2);
    if (!kv) {
      return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    }
    memcpy(kv, key, klen);
    kv[klen] = '=';
    memcpy(kv + klen + 1, var->valuestring, vlen + 1);
    cfg->env[i++] = kv;
  }
  return 0;
}

static int parse_max_message_bytes(const cJSON *root, stdio_config *cfg,
                                   mcph_error *err) {
  const cJSON *max = cJSON_GetObjectItemCaseSensitive(root, "maxMessageBytes");
  cfg->max_message_bytes = STDIO_DEFAULT_MAX_MESSAGE_BYTES;
  if (!max) {
    return 0;
  }
  double v = cJSON_IsNumber(max) ? max->valuedouble : 0;
  /* The range test comes first so that the cast is defined (and NaN
   * fails it). */
  if (!(v >= 1 && v <= MAX_MESSAGE_BYTES_LIMIT && (double)(uint64_t)v == v)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "\"maxMessageBytes\" must be a whole number from 1 "
                          "to %.0f",
                          MAX_MESSAGE_BYTES_LIMIT);
  }
  cfg->max_message_bytes = (size_t)v;
  return 0;
}

int stdio_config_parse(const char *json, stdio_config *cfg, mcph_error *err) {
  int rc = 0;
  cJSON *root = json ? cJSON_Parse(json) : NULL;
  if (!root) {
    rc = mcph_error_set(err, MCPH_EINVAL, "stdio config is not valid JSON");
    goto out;
  }
  if (!cJSON_IsObject(root)) {
    rc = mcph_error_set(err, MCPH_EINVAL, "stdio config must be a JSON object");
    goto out;
  }

  const cJSON *command = cJSON_GetObjectItemCaseSensitive(root, "command");
  if (!command) {
    rc = mcph_error_set(err, MCPH_EINVAL, "\"command\" is required");
    goto out;
  }
  if (!cJSON_IsString(command) || command->valuestring[0] == '\0') {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "\"command\" must be a non-empty string");
    goto out;
  }
  if (!(cfg->command = strdup(command->valuestring))) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }

  const cJSON *cwd = cJSON_GetObjectItemCaseSensitive(root, "cwd");
  if (cwd) {
    if (!cJSON_IsString(cwd) || cwd->valuestring[0] == '\0') {
      rc = mcph_error_set(err, MCPH_EINVAL,
                          "\"cwd\" must be a non-empty string");
      goto out;
    }
    if (!(cfg->cwd = strdup(cwd->valuestring))) {
      rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
      goto out;
    }
  }

  /* "type" and unknown keys are accepted and ignored. */
  if ((rc = parse_args(root, cfg, err)) != 0 ||
      (rc = parse_env(root, cfg, err)) != 0 ||
      (rc = parse_max_message_bytes(root, cfg, err)) != 0) {
    goto out;
  }

out:
  cJSON_Delete(root);
  if (rc != 0) {
    stdio_config_free(cfg);
  }
  return rc;
}

void stdio_config_free(stdio_config *cfg) {
  free(cfg->command);
  strv_free(cfg->argv);
  strv_free(cfg->env);
  free(cfg->cwd);
  memset(cfg, 0, sizeof *cfg);
}
