/* The plugin's loop-side state, shared by the auth provider (plugin.c)
 * and its commands (commands.c). Loop thread only. */
#ifndef MCPH_OAUTH_PROVIDER_H
#define MCPH_OAUTH_PROVIDER_H

#include <mcphost/mcphost.h>

#include "flow.h"
#include "worker.h"

/* At most this many authorization requests per server and run (the
 * first one and the step-ups): conformance auth/scope-retry-limit. */
#define OAUTH_MAX_AUTHORIZATIONS 3

/* A server the host asked about (authorization()). */
typedef struct oserver {
  char *name;
  char *config_json;
  char *value;  /* the Authorization value set, "Bearer ..." */
  char *token;  /* its token */
  char *scope;  /* the scope asked for last */
  bool running; /* a flow is under way */
  bool gave_up; /* the last flow failed: later 401s are final */
  bool unseen;  /* a new value was set that no challenge saw yet */
  int authorizations;
  mcph_run *login; /* `mcp login` waiting for this server's flow */
  struct oserver *next;
} oserver;

typedef struct oplugin {
  const mcph_host *host;
  const mcph_host_auth *auth;
  const mcph_host_features *feat;
  const mcph_host_servers *servers;
  const mcph_host_secrets *secrets; /* credentials.json (store.c) */
  job *jobs;
  oserver *list;
  const char *browser_flag; /* `mcp login --oauth-browser=MODE`, or NULL */
  char reason[512];         /* what needs_auth() returned last */
} oplugin;

oserver *oplugin_server(oplugin *pl, const char *name, bool create);
/* A new flow for `s`, its store and its mode filled in; NULL with the
 * reason logged when the server's configuration is bad. */
oauth_flow *oplugin_flow(oplugin *pl, oserver *s, flow_kind kind);
/* Starts `f` for `s` on a thread; the result is set on the connection
 * (and ends s->login). 0 or -1. */
int oplugin_start_flow(oplugin *pl, oserver *s, oauth_flow *f);
/* `mcp login --idp [ISSUER]`: a login at the identity provider of the
 * xaaIdp setting (ISSUER, when given, must be its issuer), ending `run`.
 * MCPH_OK or an error in `err`. */
int oplugin_idp_login(oplugin *pl, mcph_run *run, const char *issuer,
                      mcph_error *err);
/* The user settings' "xaaIdp" object as JSON text, or NULL. */
char *oplugin_xaa_settings(void);
/* The credential store (its path a new string in *st): -1 without a
 * state directory. */
int oplugin_store(oplugin *pl, oauth_store *st);
void oplugin_log(oplugin *pl, int level, const char *server, const char *fmt,
                 ...) __attribute__((format(printf, 4, 5)));

/* commands.c */
extern const mcph_commands oauth_commands;

#endif
