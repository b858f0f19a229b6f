/*
 * The IDE plugin (mcphost.ide): what its parts share.
 *
 *   lockfile.c   reads and checks the IDE lockfiles
 *   select.c     picks the IDE a session connects to
 *   transport.c  types ws-ide and sse-ide, composed over ws and sse
 *   commands.c   `mcphost ide list` and `mcphost ide watch`
 *   notify.c     the IDE's notifications as lines or JSON lines
 *   plugin.c     the entry: --ide, the server source, the feature
 *
 * Threads: everything on the loop thread.
 */
#ifndef MCPH_IDE_H
#define MCPH_IDE_H

#include <stdbool.h>

#include <mcphost/mcphost.h>

#include "plugin_info.h"

/* The name of the server the IDE joins as (mcp__ide__*). */
#define IDE_SERVER_NAME "ide"

typedef struct ide_plugin {
  const mcph_host *host;
  const mcph_host_features *svc;          /* NULL on a host without it */
  const mcph_host_servers *servers;       /* NULL on a host older than 1.5 */
  const mcph_host_transports *transports; /* NULL before 1.6 */
  mcph_transport *live; /* this plugin's transports, not yet destroyed */
  /* ide watch */
  mcph_run *run;
  bool json;
  long left; /* notifications still to print; -1: no limit */
  unsigned long printed;
  char *note; /* the last describe() line */
} ide_plugin;

/* wanted.c, shared with the stub (stub.c): whether the session asks for
 * the IDE (--ide, CLAUDE_CODE_SSE_PORT, CLAUDE_CODE_AUTO_CONNECT_IDE),
 * and whether explicitly; `svc` may be NULL. */
bool ide_wanted(const mcph_host *host, const mcph_host_features *svc,
                bool *explicit_ask);

/* transport.c */
extern const mcph_transport_factory ide_transport_factory;
/* Whether `server` is carried by one of this plugin's transports. */
bool ide_transport_serves(const ide_plugin *pl, const char *server);

/* commands.c */
extern const mcph_commands ide_commands;
/* A notification from a server of ours, for `ide watch`. */
void ide_watch_notification(ide_plugin *pl, const char *server,
                            const char *method, const char *params_json);
/* A server of ours failed for good or went away. */
void ide_watch_server_event(ide_plugin *pl, const char *server, int event);

#endif
