/* user_config values, runtimes, the manifest verdict and the summary:
 * what install, info and configure share. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"
#include "mcpb.h"

static const char *opt_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static cJSON *parse_one(const cJSON *opt, const char *type, const char *text,
                        char *why, size_t n) {
  if (strcmp(type, "number") == 0) {
    char *end = NULL;
    errno = 0;
    double d = strtod(text, &end);
    if (!*text || *end || errno || !isfinite(d)) {
      snprintf(why, n, "\"%s\" is not a number", text);
      return NULL;
    }
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(opt, "min");
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(opt, "max");
    if (cJSON_IsNumber(min) && d < min->valuedouble) {
      snprintf(why, n, "%s is below the minimum %g", text, min->valuedouble);
      return NULL;
    }
    if (cJSON_IsNumber(max) && d > max->valuedouble) {
      snprintf(why, n, "%s is above the maximum %g", text, max->valuedouble);
      return NULL;
    }
    return cJSON_CreateNumber(d);
  }
  if (strcmp(type, "boolean") == 0) {
    if (!strcasecmp(text, "true") || !strcasecmp(text, "yes") ||
        !strcmp(text, "1") || !strcasecmp(text, "y")) {
      return cJSON_CreateTrue();
    }
    if (!strcasecmp(text, "false") || !strcasecmp(text, "no") ||
        !strcmp(text, "0") || !strcasecmp(text, "n")) {
      return cJSON_CreateFalse();
    }
    snprintf(why, n, "\"%s\" is not true or false", text);
    return NULL;
  }
  if (strcmp(type, "directory") == 0 || strcmp(type, "file") == 0) {
    if (!*text) {
      snprintf(why, n, "an empty path");
      return NULL;
    }
    struct stat st;
    if (stat(text, &st) < 0) {
      snprintf(why, n, "%s: %s", text, strerror(errno));
      return NULL;
    }
    bool dir = strcmp(type, "directory") == 0;
    if (dir != (bool)S_ISDIR(st.st_mode)) {
      snprintf(why, n, "%s is not a %s", text, dir ? "directory" : "file");
      return NULL;
    }
  }
  return cJSON_CreateString(text);
}

cJSON *mcpb_parse_value(const cJSON *opt, const char *text, char *why,
                        size_t n) {
  const char *type = opt_str(opt, "type");
  if (!type) {
    type = "string";
  }
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "multiple"))) {
    return parse_one(opt, type, text, why, n);
  }
  cJSON *list = cJSON_CreateArray();
  const char *p = text;
  while (*p) {
    size_t len = strcspn(p, "\n");
    char *item = strndup(p, len);
    if (!item) {
      abort();
    }
    cJSON *v = *item ? parse_one(opt, type, item, why, n) : NULL;
    bool bad = *item && !v;
    free(item);
    if (bad) {
      cJSON_Delete(list);
      return NULL;
    }
    if (v) {
      cJSON_AddItemToArray(list, v);
    }
    p += len;
    if (*p == '\n') {
      p++;
    }
  }
  return list;
}

bool mcpb_on_path(const char *prog) {
  if (strchr(prog, '/')) {
    return access(prog, X_OK) == 0;
  }
  const char *path = getenv("PATH");
  if (!path) {
    path = "/usr/bin:/bin";
  }
  while (*path) {
    size_t len = strcspn(path, ":");
    char full[4096];
    snprintf(full, sizeof full, "%.*s/%s", (int)len, len ? path : ".", prog);
    if (access(full, X_OK) == 0) {
      return true;
    }
    path += len;
    if (*path == ':') {
      path++;
    }
  }
  return false;
}

const char *mcpb_runtime_missing(const cJSON *manifest, char *buf, size_t n) {
  const cJSON *server = cJSON_GetObjectItemCaseSensitive(manifest, "server");
  const char *type = opt_str(server, "type");
  if (!type) {
    return NULL;
  }
  if (strcmp(type, "node") == 0 && !mcpb_on_path("node")) {
    snprintf(buf, n,
             "this bundle runs on Node.js, and node is not on PATH: "
             "install Node.js (Debian: apt-get install nodejs)");
    return buf;
  }
  if (strcmp(type, "python") == 0 && !mcpb_on_path("python3") &&
      !mcpb_on_path("python")) {
    snprintf(buf, n,
             "this bundle runs on Python, and neither python3 nor "
             "python is on PATH: install Python 3 (Debian: apt-get "
             "install python3)");
    return buf;
  }
  if (strcmp(type, "uv") == 0 && !mcpb_on_path("uv")) {
    snprintf(buf, n,
             "this bundle runs with uv, and uv is not on PATH: "
             "install uv (https://docs.astral.sh/uv/, or pipx "
             "install uv)");
    return buf;
  }
  return NULL;
}

int mcpb_check_manifest(const char *text, size_t len, const char *where,
                        bool strict, cJSON **out, char *err, size_t n) {
  *out = NULL;
  char why[600];
  cJSON *doc = manifest_parse(text, len, why, sizeof why);
  if (!doc) {
    snprintf(err, n, "MCPB manifest invalid at %s: %s", where, why);
    return -1;
  }
  manifest_report r;
  manifest_validate(doc, &r);
  char *errors = manifest_report_join(&r, MANIFEST_ERROR);
  char *unknown = manifest_report_join(&r, MANIFEST_UNKNOWN);
  int rc = 0;
  if (errors || (strict && unknown)) {
    snprintf(err, n, "MCPB manifest invalid at %s: %s%s%s", where,
             errors ? errors : "", errors && unknown && strict ? "; " : "",
             strict && unknown ? unknown : "");
    rc = -1;
  } else if (unknown) {
    mcpb_say("warning: %s: %s (ignored; --strict refuses it)", where, unknown);
  }
  free(errors);
  free(unknown);
  manifest_report_free(&r);
  if (rc < 0) {
    cJSON_Delete(doc);
    return -1;
  }
  *out = doc;
  return 0;
}

/* ---- the icon ---- */

int mcpb_check_icon(const cJSON *manifest, int dirfd, char *err, size_t n) {
  const char *icon = opt_str(manifest, "icon");
  if (!icon) {
    return 0;
  }
  if (strstr(icon, "${__dirname}")) {
    snprintf(err, n,
             "Icon path should not use ${__dirname} variable substitution. "
             "Use a simple relative path like \"icon.png\" instead of "
             "\"${__dirname}/icon.png\".");
    return -1;
  }
  if (strncmp(icon, "http://", 7) == 0 || strncmp(icon, "https://", 8) == 0) {
    mcpb_say("warning: Icon path uses a remote URL. Claude Desktop currently "
             "only supports local icon files in bundles.");
    return 0;
  }
  if (icon[0] == '/') {
    snprintf(err, n,
             "Icon path must be relative to the bundle root, not an absolute "
             "path. Found: \"%s\"",
             icon);
    return -1;
  }
  unsigned char head[8] = {0};
  int fd = strstr(icon, "..")
               ? -1
               : openat(dirfd, icon, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, n, "Icon file not found at path: %s", icon);
    return -1;
  }
  ssize_t got = read(fd, head, sizeof head);
  close(fd);
  static const unsigned char png[8] = {0x89, 'P',  'N',  'G',
                                       '\r', '\n', 0x1a, '\n'};
  if (got != 8 || memcmp(head, png, 8) != 0) {
    snprintf(err, n,
             "Icon file must be PNG format. The file at \"%s\" does not "
             "appear to be a valid PNG file.",
             icon);
    return -1;
  }
  return 0;
}

/* ---- the summary ---- */

cJSON *mcpb_sig_json(const sig_info *sig) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "status", sig->status);
  if (*sig->publisher) {
    cJSON_AddStringToObject(o, "publisher", sig->publisher);
    cJSON_AddStringToObject(o, "issuer", sig->issuer);
    cJSON_AddStringToObject(o, "valid_from", sig->valid_from);
    cJSON_AddStringToObject(o, "valid_to", sig->valid_to);
    cJSON_AddStringToObject(o, "fingerprint", sig->fingerprint);
  }
  if (*sig->why) {
    cJSON_AddStringToObject(o, "reason", sig->why);
  }
  if (*sig->trust) {
    cJSON_AddStringToObject(o, "trust", sig->trust);
  }
  return o;
}

static void add_names(cJSON *out, const char *key, const cJSON *list) {
  cJSON *arr = cJSON_AddArrayToObject(out, key);
  const cJSON *e;
  cJSON_ArrayForEach(e, list) {
    const char *name = opt_str(e, "name");
    if (name) {
      cJSON_AddItemToArray(arr, cJSON_CreateString(name));
    }
  }
}

cJSON *mcpb_summary_json(const cJSON *m, const sig_info *sig) {
  cJSON *o = cJSON_CreateObject();
  const char *keys[] = {"name", "display_name", "version", "description"};
  for (size_t i = 0; i < 4; i++) {
    const char *v = opt_str(m, keys[i]);
    if (v) {
      cJSON_AddStringToObject(o, keys[i], v);
    }
  }
  const cJSON *author = cJSON_GetObjectItemCaseSensitive(m, "author");
  if (opt_str(author, "name")) {
    cJSON_AddStringToObject(o, "author", opt_str(author, "name"));
  }
  const cJSON *server = cJSON_GetObjectItemCaseSensitive(m, "server");
  if (opt_str(server, "type")) {
    cJSON_AddStringToObject(o, "server_type", opt_str(server, "type"));
  }
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(m, "manifest_version");
  if (!cJSON_IsString(ver)) {
    ver = cJSON_GetObjectItemCaseSensitive(m, "dxt_version");
  }
  if (cJSON_IsString(ver)) {
    cJSON_AddStringToObject(o, "manifest_version", ver->valuestring);
  }
  if (sig) {
    cJSON_AddStringToObject(o, "signature", sig->status);
    cJSON_AddItemToObject(o, "signature_info", mcpb_sig_json(sig));
  }
  add_names(o, "tools", cJSON_GetObjectItemCaseSensitive(m, "tools"));
  add_names(o, "prompts", cJSON_GetObjectItemCaseSensitive(m, "prompts"));
  const cJSON *uc = cJSON_GetObjectItemCaseSensitive(m, "user_config");
  cJSON *settings = cJSON_AddArrayToObject(o, "user_config");
  const cJSON *e;
  cJSON_ArrayForEach(e, uc) {
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "key", e->string);
    const char *fields[] = {"type", "title", "description"};
    for (size_t i = 0; i < 3; i++) {
      if (opt_str(e, fields[i])) {
        cJSON_AddStringToObject(s, fields[i], opt_str(e, fields[i]));
      }
    }
    const char *flags[] = {"required", "sensitive", "multiple"};
    for (size_t i = 0; i < 3; i++) {
      cJSON_AddBoolToObject(
          s, flags[i],
          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, flags[i])));
    }
    cJSON_AddItemToArray(settings, s);
  }
  return o;
}

static void line(const char *label, const char *value) {
  char *v = mcpb_esc(value);
  printf("  %-12s %s\n", label, v);
  free(v);
}

void mcpb_summary(const cJSON *m, const sig_info *sig, const char *where) {
  cJSON *s = mcpb_summary_json(m, sig);
  char *w = mcpb_esc(where);
  printf("%s\n", w);
  free(w);
  const char *name = opt_str(s, "display_name");
  line("Name:", opt_str(s, "name") ? opt_str(s, "name") : "?");
  if (name) {
    line("Title:", name);
  }
  line("Version:", opt_str(s, "version") ? opt_str(s, "version") : "?");
  line("Author:", opt_str(s, "author") ? opt_str(s, "author") : "?");
  line("Type:", opt_str(s, "server_type") ? opt_str(s, "server_type") : "?");
  if (sig) {
    char buf[1400];
    if (*sig->publisher) {
      snprintf(buf, sizeof buf,
               "%s (publisher %s, issuer %s, valid %s to "
               "%s, SHA-256 %s)%s%s",
               sig->status, sig->publisher, sig->issuer, sig->valid_from,
               sig->valid_to, sig->fingerprint, *sig->why ? ": " : "",
               sig->why);
    } else {
      snprintf(buf, sizeof buf, "%s%s%s", sig->status, *sig->why ? ": " : "",
               sig->why);
    }
    line("Signature:", buf);
  }
  const char *lists[] = {"tools", "prompts"};
  const char *labels[] = {"Tools:", "Prompts:"};
  for (size_t i = 0; i < 2; i++) {
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(s, lists[i]);
    char buf[1024] = "";
    size_t used = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
      used += (size_t)snprintf(buf + used,
                               used < sizeof buf ? sizeof buf - used : 0,
                               "%s%s", used ? ", " : "", e->valuestring);
    }
    line(labels[i], *buf ? buf : "(none declared)");
  }
  const cJSON *uc = cJSON_GetObjectItemCaseSensitive(s, "user_config");
  const cJSON *e;
  cJSON_ArrayForEach(e, uc) {
    char buf[600];
    const char *key = opt_str(e, "key");
    snprintf(
        buf, sizeof buf, "%s (%s%s%s%s): %s", key ? key : "?",
        opt_str(e, "type") ? opt_str(e, "type") : "?",
        cJSON_IsTrue(cJSON_GetObjectItem(e, "required")) ? ", required" : "",
        cJSON_IsTrue(cJSON_GetObjectItem(e, "sensitive")) ? ", sensitive" : "",
        cJSON_IsTrue(cJSON_GetObjectItem(e, "multiple")) ? ", multiple" : "",
        opt_str(e, "title") ? opt_str(e, "title") : "");
    line("Setting:", buf);
  }
  cJSON_Delete(s);
}
