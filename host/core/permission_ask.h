/* Asking whether a tool call may run, when a permission rule says "ask":
 * every plugin that offers the permission extension ("mcph.permission/1",
 * permission.h) and the front end's own question (the CLI's y/N on a
 * terminal, perm_ask_local) are asked at once; the first definite answer
 * wins and the other questions are withdrawn. Loop thread only. */
#ifndef MCPHOST_PERMISSION_ASK_H
#define MCPHOST_PERMISSION_ASK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/host.h"

typedef struct perm_ask perm_ask;
typedef struct perm_ask_params perm_ask_params;

/* The front end's own question, asked once no plugin has answered at
 * once. start() returns whether it asks; its answer then comes through
 * perm_ask_local_answer, at most once, from a loop callback (never from
 * inside start()). stop() ends it when the question is settled
 * otherwise: `allowed` and `why` are the answer that settled it (another
 * asker's, or the timeout's), `why` NULL (and `allowed` false) when the
 * question was withdrawn (perm_ask_cancel); nothing may come from it
 * after that. */
typedef struct perm_ask_local {
  bool (*start)(void *ud, perm_ask *a, const perm_ask_params *p);
  void (*stop)(void *ud, bool allowed, const char *why);
  void *ud;
} perm_ask_local;

struct perm_ask_params {
  const char *tool;            /* mcp__server__tool */
  const char *server;          /* the configured name */
  const char *tool_name;       /* as the user gave it */
  const char *arguments_json;  /* a JSON object */
  const char *reason;          /* what asks, for the prompt and plugins */
  const char *description;     /* the tool's description; NULL: unknown */
  /* 0: wait as long as it takes; else refused after that long, unless
   * the local question is asked (it waits for the person). */
  uint64_t timeout_ms;
  const perm_ask_local *local; /* the front end's question, or NULL */
};

/* The outcome, exactly once, from a loop callback (never from inside
 * perm_ask_start). `why` is borrowed for the call. */
typedef void (*perm_ask_done_fn)(void *ud, bool allowed, const char *why);

/* Starts asking. The strings in `p` are copied. */
perm_ask *perm_ask_start(host *h, const perm_ask_params *p,
                         perm_ask_done_fn done, void *ud);

/* The local question's answer (`why` copied), from a loop callback. */
void perm_ask_local_answer(perm_ask *a, bool allowed, const char *why);

/* Withdraws the question (plugins still deciding are told); `done` is
 * not called. Valid until `done` ran. */
void perm_ask_cancel(perm_ask *a);

#endif
