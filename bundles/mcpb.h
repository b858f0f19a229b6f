/* The bundle plugin's shared state (plugin.c) and the pieces its
 * commands share. Threads: everything on the loop. */
#ifndef MCPB_PLUGIN_H
#define MCPB_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>
#include <mcphost/mcphost.h>

#include "plugin_info.h"
#include "tools.h"

/* Exit codes of the bundle commands (docs/bundles.md). */
enum {
  EXIT_OK = 0,
  EXIT_USAGE = 2,
  EXIT_FAILED = 3,   /* the bundle cannot be read, validated or extracted */
  EXIT_NOTFOUND = 6, /* no such installed bundle */
  EXIT_REFUSED = 8,  /* invalid signature, or the policy refuses it */
};

typedef struct mcpb_plugin {
  const mcph_host *host;
  const mcph_host_servers *servers;
  const mcph_host_ui *ui;           /* NULL when the host has none */
  const mcph_host_secrets *secrets; /* NULL when the host has none */
  const mcpb_tools *tools;          /* once loaded */
  struct install *install;          /* the install in progress */
} mcpb_plugin;

/* Opens mcpb-tools.so on first use. NULL with the reason in `err`. */
const mcpb_tools *mcpb_tools_get(mcpb_plugin *pl, char *err, size_t n);

/* policy.c: what the administrator's managed settings say of bundles. */
typedef struct mcpb_policy {
  bool require_signature; /* bundles.requireSignature */
  char **cas;             /* bundles.trustedCAs: PEM files */
  size_t ncas;
} mcpb_policy;
void mcpb_policy_read(mcpb_plugin *pl, mcpb_policy *p);
void mcpb_policy_free(mcpb_policy *p);

/* Untrusted text for the terminal (text_escape), a new string. */
char *mcpb_esc(const char *s);

/* Prints "mcphost: bundle: ..." on stderr, escaped. */
void mcpb_say(const char *fmt, ...) MCPH_PRINTF(1, 2);

/* The user's values for `name`, the sensitive ones from the secrets
 * store included: a new object. */
cJSON *mcpb_values(mcpb_plugin *pl, const char *name, const cJSON *manifest,
                   const cJSON *settings);

/* Parses `text` as a value of the user_config option `opt` (its type,
 * min/max; a list for `multiple`, split at newlines). A new value, or NULL
 * with the reason in `why`. */
cJSON *mcpb_parse_value(const cJSON *opt, const char *text, char *why,
                        size_t n);

/* Stores the answers `values` of bundle `name`: sensitive ones in the
 * secrets store, the others in `settings` ("userConfig"). 0, or -1 with
 * `why`. */
int mcpb_store_values(mcpb_plugin *pl, const char *name, const cJSON *manifest,
                      const cJSON *values, cJSON *settings, char *why,
                      size_t n);

/* Whether `prog` (a path, or a name looked up in PATH) is executable. */
bool mcpb_on_path(const char *prog);

/* The icon checks of the official validator, on the extracted bundle
 * `dirfd`: 0, or -1 with its message in `err` (a remote icon is only a
 * warning). */
int mcpb_check_icon(const cJSON *manifest, int dirfd, char *err, size_t n);

/* The bundle's runtime is there: NULL, or what to install. */
const char *mcpb_runtime_missing(const cJSON *manifest, char *buf, size_t n);

/* The bundle commands (cmd_*.c). */
int mcpb_cmd_install(mcpb_plugin *pl, mcph_run *run, int argc,
                     const char *const *argv, int json);
int mcpb_cmd_manage(mcpb_plugin *pl, mcph_run *run, int argc,
                    const char *const *argv, int json);
void mcpb_install_interrupt(mcpb_plugin *pl);
/* Stops and joins the install's thread, if any (at deinit). */
void mcpb_install_stop(mcpb_plugin *pl);

/* Prints a bundle's summary (install, info) on stdout, or as JSON. */
void mcpb_summary(const cJSON *manifest, const sig_info *sig,
                  const char *where);
cJSON *mcpb_summary_json(const cJSON *manifest, const sig_info *sig);
cJSON *mcpb_sig_json(const sig_info *sig);

/* The validator's verdict on `text`: 0, or -1 with
 * "MCPB manifest invalid at <where>: <error>" in `err`. Unknown keys are
 * printed as warnings, or refused when `strict`. The document in *out. */
int mcpb_check_manifest(const char *text, size_t len, const char *where,
                        bool strict, cJSON **out, char *err, size_t n);

#endif
