/*
 * The elicitation feature plugin: what its files share.
 *
 *   plugin.c   the ABI glue: entry, capabilities, options, requests and
 *              notifications in, answers out, servers going away
 *   request.c  an elicitation/create's members read and checked
 *   flow.c     one elicitation from request to answer: the policy, the
 *              before/after hooks, the terminal, validation of answers
 *   schema.c   requestedSchema parsed into fields; defaults
 *   value.c    values checked against a field; a person's typed text
 *              turned into a value; answers checked
 *   tty.c      asking a person on /dev/tty, one line at a time, from the
 *              loop
 *   (running a hook command with JSON in and JSON out is common/hook.h's)
 *   url.c      URL mode safety: which URLs may be opened, and opening them
 *   text.c     server text made safe for a terminal
 * Memory: common/alloc.h (running out is fatal, as in the host).
 *
 * Everything runs on the host's loop thread.
 */
#ifndef MCPH_ELICIT_H
#define MCPH_ELICIT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mcphost/feature.h>
#include <mcphost/rpc.h>
#include <mcphost/host.h>

#include "alloc.h" /* memory: running out is fatal, as in the host */
#include "schema.h"

#include "plugin_info.h" /* the id, the policies (enum policy_kind) */

typedef struct hook_run hook_run;
typedef struct browser browser; /* url.c */
typedef struct elicit_plugin elicit_plugin;

/* Where an elicitation is in its life (flow.c). */
enum elicit_stage {
  STAGE_BEFORE = 0, /* the before-hook runs */
  STAGE_MAIN,       /* the policy, a hook or the terminal answers */
  STAGE_AFTER,      /* the after-hook runs */
  STAGE_DONE
};

/* One elicitation/create in flight. Owned by the plugin's list until it
 * is answered (flow_finish). */
typedef struct elicitation {
  elicit_plugin *pl;
  mcph_server *server; /* NULL once the server went away */
  mcph_request *req;
  char *server_name;
  bool url_mode;
  char *message;
  char *url;            /* URL mode */
  char *url_host;       /* URL mode: the host, for people (url.c) */
  char *elicitation_id; /* URL mode; NULL in 2026-07-28 */
  cJSON *schema;        /* form mode: requestedSchema as sent */
  form form;            /* form mode: parsed */

  /* The options as they were when the request came. */
  int policy;
  char *hook;        /* POLICY_HOOK */
  char *hook_before; /* NULL: none */
  char *hook_after;  /* NULL: none */
  uint64_t hook_timeout_ms;

  int stage;                    /* enum elicit_stage */
  cJSON *answer;                /* {action, content?} once someone answered */
  hook_run *run;                /* the hook running for it, if any */
  bool on_tty;                  /* queued or being asked on the terminal */
  struct elicitation *next;     /* the plugin's list */
  struct elicitation *tty_next; /* the terminal's queue */
} elicitation;

/* An elicitationId accepted in URL mode, until its completion arrives. */
typedef struct url_pending {
  mcph_server *server;
  char *server_name;
  char *id;
  struct url_pending *next;
} url_pending;

typedef struct tty_ui tty_ui; /* tty.c */

struct elicit_plugin {
  const mcph_host *host;
  const mcph_host_features *svc;
  char *caps;          /* the capabilities text last handed out */
  char *warned_policy; /* the bad --elicitation value already warned about */
  elicitation *list;   /* in flight */
  url_pending *urls;   /* accepted URL elicitations, newest first */
  size_t nurls;
  tty_ui *tty;       /* NULL until first needed */
  browser *browsers; /* browser processes not reaped yet (url.c) */
};

/* ---- plugin.c ---- */
/* Logs one line, attributed to the server (NULL: the plugin). */
void elicit_log(elicit_plugin *pl, int level, const char *server,
                const char *fmt, ...) MCPH_PRINTF(4, 5);
/* Reads the "elicitation" option: its kind (enum policy_kind) and for
 * hooks the command (borrowed until control returns to the loop). Not
 * given: ask on a terminal, else decline. */
int elicit_policy(elicit_plugin *pl, const char **hook);

/* ---- request.c ---- */
/* Checks an elicitation/create's params (a form's schema, a URL's url
 * and elicitationId, which 2026-07-28 leaves out) and fills `e`'s
 * message, mode, url, elicitation_id, schema and form; -1 with the
 * -32602 message in `why`. `e->pl` and `e->server` say the era. */
int elicit_read_request(elicitation *e, const cJSON *params, char *why,
                        size_t n);

/* ---- flow.c ---- */
/* Starts answering `e` (already in pl->list); answers at once or later. */
void flow_start(elicitation *e);
/* Someone produced an answer for the stage `e` is in: takes `answer`
 * ({action, content?}, already checked). */
void flow_answer(elicitation *e, cJSON *answer);
/* The server went away: stop whatever runs for `e` and drop it. */
void flow_abandon(elicitation *e);
/* Answers `e` with `answer` (taken), unlinks and frees it. */
void flow_finish(elicitation *e, cJSON *answer);
/* Frees `e` (not listed, or already unlinked) without answering. */
void flow_free(elicitation *e);
/* A new {action} answer without content. */
cJSON *flow_action(const char *action);
/* The JSON the hooks get for the request (new string). */
char *flow_request_json(const elicitation *e);

/* ---- tty.c ---- */
/* Whether a person can be asked: the host says so and /dev/tty opens. */
bool tty_available(elicit_plugin *pl);
/* Queues `e` for the terminal; its answer comes through flow_answer().
 * Returns false (and does nothing) when the terminal cannot be opened. */
bool tty_ask(elicit_plugin *pl, elicitation *e);
/* Takes `e` off the terminal (answered elsewhere or its server left). */
void tty_withdraw(elicit_plugin *pl, elicitation *e, const char *why);
/* Takes every elicitation of `server` off the terminal. */
void tty_withdraw_server(elicit_plugin *pl, const mcph_server *server,
                         const char *why);
/* Shows a line to the person if there is a terminal; else logs it. */
void tty_note(elicit_plugin *pl, const char *server, const char *text);
void tty_free(elicit_plugin *pl);

/* ---- text.c ---- */
/* Terminal-safe copy of server text, by the host's rule (text_escape.h):
 * controls, C1 controls, bidi and invisible characters become "<U+XXXX>"
 * and invalid UTF-8 "<0xNN>"; newlines and tabs are kept when
 * `multiline`. New string, never NULL. */
char *text_clean(const char *s, bool multiline);

/* ---- url.c ---- */
/* Checks that `url` may be shown and opened: http or https, a host, no
 * control characters or spaces, nothing a browser would read another way
 * (a backslash, user information, a host written otherwise). Returns 0,
 * with new strings: the host as people should read it in *host_out and
 * the URL rebuilt from its parsed parts in *url_out -- the one to show,
 * hand on and open; or -1 with the reason. */
int url_check(const char *url, char **host_out, char **url_out, char *why,
              size_t n);
/* Opens `url` by the one $BROWSER rule (common/browser.h), without
 * waiting. Returns 0, or -1 with the reason. */
int url_open(elicit_plugin *pl, const char *server, const char *url, char *why,
             size_t n);
void url_free_browsers(elicit_plugin *pl);

#endif /* MCPH_ELICIT_H */
