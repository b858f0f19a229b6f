/* The public API's pure helpers (sdk/include/mcphost/client.h, "names,
 * signatures, arguments, text shown, protocol data"): the library's own
 * rules (mcp/names.h, mcp/signature.h, mcp/arguments.h,
 * mcp/log_level.h, mcp/protocol.h, safety/sanitize.h) behind JSON text
 * and C strings, so the CLI, the gateway and an embedding program apply
 * the same ones. No client, no loop: any thread. */
#include <mcphost/client.h>

#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "json_parse.h"
#include "json_write.h"
#include "mcp/arguments.h"
#include "mcp/log_level.h"
#include "mcp/names.h"
#include "mcp/protocol.h"
#include "mcp/signature.h"
#include "safety/sanitize.h"
#include "safety/unicode_quick.h"
#include "text_escape.h"
#include "util.h"

/* The public constants are the library's own. */
_Static_assert(MCPHOST_NAME_LEN_DEFAULT == NAME_MAX_LEN, "name limit");
_Static_assert(MCPHOST_LOG_LEVELS == MCP_LOG_LEVELS, "log levels");
_Static_assert(MCPHOST_ARGS_STDIN == MCP_ARGS_STDIN, "args flag");
_Static_assert(MCPHOST_ARGS_LENIENT == MCP_ARGS_LENIENT, "args flag");
_Static_assert(MCPHOST_SANITIZE_DEFAULT == (int)SANITIZE_MODE_DEFAULT &&
                   MCPHOST_SANITIZE_FULL == (int)SANITIZE_MODE_FULL &&
                   MCPHOST_SANITIZE_DISPLAY == (int)SANITIZE_MODE_DISPLAY &&
                   MCPHOST_SANITIZE_OFF == (int)SANITIZE_MODE_OFF,
               "sanitize modes");

/* `len` bytes of JSON text `what` as a tree, or NULL with `err` set. */
static cJSON *parse_arg(const char *text, size_t len, const char *what,
                        mcphost_error *err) {
  if (!text) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s is missing (NULL)", what);
    return NULL;
  }
  json_error je = {0};
  cJSON *v = json_parse(text, len, &je);
  if (!v) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s is not JSON: %s at byte %zu",
             what, je.what, je.offset);
  }
  return v;
}

/* A tree as the caller's JSON text (mcphost_free). */
static char *text_of(const cJSON *v) {
  strbuf b;
  sb_init(&b);
  json_write(&b, v);
  return sb_take(&b);
}

/* ---- names ---- */

int mcphost_name_assign(const char *server, const char *const *originals,
                        size_t n, size_t max_len, char ***names,
                        size_t *prefix_len, mcphost_error *err) {
  if (!server || !names || (n > 0 && !originals)) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_name_assign needs a server, the names' place "
                    "and, for items, their original names");
  }
  if (max_len == 0) {
    max_len = NAME_MAX_LEN;
  }
  char **own = name_assign(server, originals, n, max_len);
  /* One allocation: the pointers, then the strings they point to. */
  size_t bytes = (n ? n : 1) * sizeof(char *);
  for (size_t i = 0; i < n; i++) {
    bytes += own[i] ? strlen(own[i]) + 1 : 0;
  }
  char **out = xmalloc(bytes);
  char *at = (char *)(out + (n ? n : 1));
  out[0] = NULL;
  for (size_t i = 0; i < n; i++) {
    out[i] = NULL;
    if (own[i]) {
      size_t len = strlen(own[i]) + 1;
      memcpy(at, own[i], len);
      out[i] = at;
      at += len;
    }
  }
  name_list_free(own, n);
  if (prefix_len) {
    char *part = name_server_part(server, max_len);
    *prefix_len = strlen("mcp__") + strlen(part) + strlen("__");
    free(part);
  }
  *names = out;
  api_clear_error(err);
  return MCPHOST_OK;
}

int mcphost_name_model_visible(const char *type, const char *tool) {
  return tool && name_tool_model_visible(type, tool);
}

/* ---- signatures ---- */

int mcphost_tool_signature(const char *name, const char *tool_json, size_t len,
                           char **sig, mcphost_error *err) {
  if (!name || !sig) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_tool_signature needs a name and the "
                    "signature's place");
  }
  cJSON *tool = parse_arg(tool_json, len, "the tool", err);
  if (!tool) {
    return MCPHOST_EUSAGE;
  }
  if (!cJSON_IsObject(tool)) {
    cJSON_Delete(tool);
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "the tool must be a JSON object (a tools/list item)");
  }
  *sig = mcp_tool_signature(name, tool);
  cJSON_Delete(tool);
  api_clear_error(err);
  return MCPHOST_OK;
}

int mcphost_schema_type(const char *schema_json, size_t len, const char *param,
                        char **type, int *required, mcphost_error *err) {
  if (!type) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_schema_type needs the type's place");
  }
  cJSON *schema = parse_arg(schema_json, len, "the schema", err);
  if (!schema) {
    return MCPHOST_EUSAGE;
  }
  if (param) {
    *type = mcp_schema_type(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(schema, "properties"), param));
    if (required) {
      *required = mcp_schema_requires(schema, param);
    }
  } else {
    *type = mcp_schema_type(schema);
  }
  cJSON_Delete(schema);
  api_clear_error(err);
  return MCPHOST_OK;
}

/* ---- arguments ---- */

/* The library's error as the caller's; returns its code. */
static int fail_with(mcphost_error *err, mcp_error *e) {
  int rc = api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s",
                    e->message ? e->message : "bad arguments");
  mcp_error_clear(e);
  return rc;
}

int mcphost_args_parse(int n, const char *const *words, unsigned flags,
                       char **words_json, mcphost_error *err) {
  if (n < 0 || (n > 0 && !words) || !words_json) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_args_parse needs the words and their place");
  }
  for (int i = 0; i < n; i++) {
    if (!words[i]) {
      return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                      "argument word %d is missing (NULL)", i + 1);
    }
  }
  cJSON *list = NULL;
  mcp_error e = {0};
  /* The words are only read (arguments.h). */
  if (mcp_args_parse_words(n, (char *const *)words, flags & MCP_ARGS_STDIN,
                           &list, &e) != 0) {
    return fail_with(err, &e);
  }
  *words_json = text_of(list);
  cJSON_Delete(list);
  api_clear_error(err);
  return MCPHOST_OK;
}

int mcphost_args_text(const char *what, const char *value, unsigned flags,
                      char **text, mcphost_error *err) {
  if (!value || !text) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_args_text needs a value and the text's place");
  }
  mcp_error e = {0};
  char *t = mcp_args_value_text(what ? what : "argument", value,
                                flags & MCP_ARGS_STDIN, &e);
  if (!t) {
    return fail_with(err, &e);
  }
  *text = t;
  api_clear_error(err);
  return MCPHOST_OK;
}

int mcphost_args_build(const char *schema_json, const char *base_json,
                       const char *words_json, unsigned flags, char **args_json,
                       mcphost_error *err) {
  if (!args_json) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_args_build needs the arguments' place");
  }
  cJSON *schema = NULL, *base = NULL, *words = NULL, *args = NULL;
  int rc = MCPHOST_EUSAGE;
  char *why = NULL;
  if ((schema_json && !(schema = parse_arg(schema_json, strlen(schema_json),
                                           "the schema", err))) ||
      (base_json && !(base = parse_arg(base_json, strlen(base_json),
                                       "the arguments", err))) ||
      (words_json && !(words = parse_arg(words_json, strlen(words_json),
                                         "the words", err)))) {
    goto out;
  }
  if (base && !cJSON_IsObject(base)) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL,
             "the arguments must be a JSON object");
    goto out;
  }
  if (words && !cJSON_IsArray(words)) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL,
             "the words must be a JSON array (mcphost_args_parse's)");
    goto out;
  }
  /* As a call does (calls.c): build, then check unless lenient. */
  if (mcp_args_build(schema, base, words, flags & MCP_ARGS_LENIENT, &args,
                     &why) != 0 ||
      (!(flags & MCP_ARGS_LENIENT) && mcp_args_check(schema, args, &why))) {
    api_fail(err, MCPHOST_EUSAGE, 0, NULL, "%s", why ? why : "bad arguments");
    goto out;
  }
  *args_json = text_of(args);
  rc = MCPHOST_OK;
  api_clear_error(err);
out:
  free(why);
  cJSON_Delete(args);
  cJSON_Delete(words);
  cJSON_Delete(base);
  cJSON_Delete(schema);
  return rc;
}

/* ---- logging levels, protocol versions ---- */

int mcphost_log_level_rank(const char *name) {
  return mcp_log_level_rank(name);
}

const char *mcphost_log_level_name(int rank) {
  return mcp_log_level_name(rank);
}

static const char *const *versions_of(int era) {
  return era == MCPHOST_ERA_LEGACY   ? mcp_protocol_versions
         : era == MCPHOST_ERA_MODERN ? mcp_protocol_modern_versions
                                     : NULL;
}

const char *mcphost_protocol_version(int era, size_t i) {
  const char *const *v = versions_of(era);
  for (size_t k = 0; v && v[k]; k++) {
    if (k == i) {
      return v[k];
    }
  }
  return NULL;
}

int mcphost_protocol_supported(int era, const char *version) {
  return era == MCPHOST_ERA_LEGACY   ? mcp_protocol_supported(version)
         : era == MCPHOST_ERA_MODERN ? mcp_protocol_modern_supported(version)
                                     : 0;
}

/* ---- text shown ---- */

int mcphost_sanitize_mode(const char *name) {
  sanitize_mode mode;
  return name && sanitize_mode_parse(name, &mode) ? (int)mode : MCPHOST_EUSAGE;
}

int mcphost_display_text(const char *text, size_t len, int mode, unsigned flags,
                         char **out, size_t *out_len, mcphost_error *err) {
  if ((!text && len > 0) || !out || mode < MCPHOST_SANITIZE_DEFAULT ||
      mode > MCPHOST_SANITIZE_OFF) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_display_text needs the text, its place and a "
                    "mode (enum mcphost_sanitize_mode), not %d",
                    mode);
  }
  unsigned f = sanitize_escape_flags((sanitize_mode)mode);
  if (flags & MCPHOST_DISPLAY_NEWLINES) {
    f |= TEXT_ESCAPE_NEWLINES;
  }
  char *s = text_escape(text ? text : "", len, f, out_len);
  if (!s) {
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
  }
  *out = s;
  api_clear_error(err);
  return MCPHOST_OK;
}

const char *mcphost_unicode_version(const char **icu) {
  if (icu) {
    *icu = unicode_quick_icu_version();
  }
  return unicode_quick_unicode_version();
}
