/*
 * audit: an example mcphost feature plugin, built out of tree against the
 * installed SDK (see README.md).
 *
 * When a tool call needs a decision (a permission rule says "ask"), the
 * host asks every plugin that offers "mcph.permission/1". This one
 * answers nobody: it appends one JSON line to an audit file,
 *
 *   {"time":"2026-12-01T17:03:09.512Z","server":"calc","tool":"mcp__calc__add"}
 *
 * and abstains, leaving the decision to the others (the person at the
 * terminal, another plugin, or a refusal when nobody can answer).
 *
 * The file is named by the option it declares, `--audit-log FILE`, or
 * the environment variable MCPHOST_OPTION_AUDIT_LOG (the host looks both
 * up: mcph_host_features.option). Without either it records nothing.
 *
 * Everything runs on the host's loop thread; the plugin starts no thread.
 */
#define _POSIX_C_SOURCE 200809L /* gmtime_r, clock_gettime */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <mcphost/helpers/version.h>
#include <mcphost/mcphost.h>

#define PLUGIN_ID "com.example.audit"
#define PLUGIN_VERSION "1.0.0"
#define OPTION "audit-log"

typedef struct plugin {
  const mcph_host *host;
  const mcph_host_features *features; /* for option() */
} plugin;

/* The current time as "YYYY-MM-DDTHH:MM:SS.mmmZ". */
static void utc_now(char *out, size_t n) {
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  char secs[32];
  strftime(secs, sizeof secs, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out, n, "%s.%03ldZ", secs, ts.tv_nsec / 1000000);
}

/* One line: the time, the server and the tool. Returns a new string (free
 * with cJSON_free) or NULL when out of memory. cJSON escapes what the
 * names hold, so every line is valid JSON. */
static char *audit_line(const mcph_permission_request *req) {
  char now[40];
  utc_now(now, sizeof now);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "time", now);
  cJSON_AddStringToObject(o, "server", req->server ? req->server : "");
  cJSON_AddStringToObject(o, "tool", req->tool ? req->tool : "");
  char *line = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return line;
}

/* Appends `line` and a newline with one write(): O_APPEND puts it at the
 * end even when several mcphost processes record at once. Returns 0 or
 * an errno. */
static int append_line(const char *path, const char *line) {
  int fd =
      open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return errno;
  }
  size_t len = strlen(line);
  char *rec = malloc(len + 1);
  int rc = 0;
  if (!rec) {
    rc = ENOMEM;
    goto out;
  }
  memcpy(rec, line, len);
  rec[len] = '\n';
  ssize_t n = write(fd, rec, len + 1);
  if (n < 0) {
    rc = errno;
  } else if ((size_t)n != len + 1) {
    rc = EIO;
  }
out:
  free(rec);
  if (close(fd) != 0 && rc == 0) {
    rc = errno;
  }
  return rc;
}

/* ---- the permission extension ---- */

static int audit_ask(void *plugin_ctx, mcph_permission_request *req) {
  plugin *pl = plugin_ctx;
  const char *path = pl->features->option(pl->host, OPTION);
  if (!path || !*path) {
    return MCPH_ENOTSUP; /* nowhere to record: abstain all the same */
  }
  char *line = audit_line(req);
  int err = line ? append_line(path, line) : ENOMEM;
  if (err != 0) {
    /* The decision goes on without the record; say why once per ask. */
    mcph_logf(pl->host, MCPH_LOG_WARN, PLUGIN_ID, "cannot append to %s: %s",
              path, strerror(err));
  }
  cJSON_free(line);
  /* Abstain: we never answer, so the host never calls cancel for it. */
  return MCPH_ENOTSUP;
}

static void audit_cancel(void *plugin_ctx, mcph_permission_request *req) {
  (void)plugin_ctx;
  (void)req; /* only called for questions we accepted: none */
}

static const mcph_permission_decider audit_decider = {
    .struct_size = sizeof(mcph_permission_decider),
    .ask = audit_ask,
    .cancel = audit_cancel,
};

/* ---- the option ---- */

static const mcph_option audit_option_list[] = {
    {OPTION, "FILE",
     "append a JSON line per tool call that asks for permission"},
};

static const mcph_options audit_options = {
    .struct_size = sizeof(mcph_options),
    .options = audit_option_list,
    .count = sizeof audit_option_list / sizeof audit_option_list[0],
    .option_size = sizeof(mcph_option),
};

/* ---- the plugin ---- */

static int audit_init(const mcph_host *host, void **plugin_ctx,
                      mcph_error *err) {
  /* Permission questions are ABI 1.3; option() is in the features
   * service. Refuse a host without them rather than crash later. */
  const mcph_host_features *features = NULL;
  if (mcph_host_at_least(host, 3)) {
    features = host->get_service(host, MCPH_SERVICE_FEATURES);
  }
  if (!MCPH_PROVIDES(features, mcph_host_features, option)) {
    return mcph_error_set(err, MCPH_EABI,
                          "audit: the host lacks the services it needs "
                          "(built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  plugin *pl = calloc(1, sizeof *pl);
  if (!pl) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  pl->host = host;
  pl->features = features;
  *plugin_ctx = pl;
  return MCPH_OK;
}

static const void *audit_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  if (id && strcmp(id, MCPH_EXT_PERMISSION) == 0) {
    return &audit_decider;
  }
  if (id && strcmp(id, MCPH_EXT_OPTIONS) == 0) {
    return &audit_options;
  }
  return NULL;
}

static void audit_deinit(void *plugin_ctx) {
  free(plugin_ctx);
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = "audit log (example)",
    .version = PLUGIN_VERSION,
    .description = "Appends a JSON line per tool call that asks for "
                   "permission to --audit-log FILE, and abstains.",
    .init = audit_init,
    .get_extension = audit_get_extension,
    .deinit = audit_deinit,
};
