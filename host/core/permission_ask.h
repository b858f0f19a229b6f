/* Asking whether a tool call may run, when a permission rule says "ask":
 * the person at the terminal (y/N) and every plugin that offers the
 * permission extension ("mcph.permission/1", permission.h) are asked at
 * once; the first definite answer wins and the other questions are
 * withdrawn. Loop thread only. */
#ifndef MCPHOST_PERMISSION_ASK_H
#define MCPHOST_PERMISSION_ASK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/host.h"

typedef struct perm_ask perm_ask;

typedef struct perm_ask_params {
  const char *tool;           /* mcp__server__tool */
  const char *server;         /* the configured name */
  const char *tool_name;      /* as the user gave it */
  const char *arguments_json; /* a JSON object */
  const char *reason;         /* what asks, for the prompt and plugins */
  const char *description;    /* the tool's description; NULL: unknown */
  int tty_in;                 /* a terminal to read y/N from; -1: none */
  FILE *tty_out;              /* where the prompt goes */
  uint64_t timeout_ms;        /* 0: wait as long as it takes */
} perm_ask_params;

/* The outcome, exactly once, from a loop callback (never from inside
 * perm_ask_start). `why` is borrowed for the call. */
typedef void (*perm_ask_done_fn)(void *ud, bool allowed, const char *why);

/* Starts asking. The strings in `p` are copied. */
perm_ask *perm_ask_start(host *h, const perm_ask_params *p,
                         perm_ask_done_fn done, void *ud);

/* Withdraws the question (plugins still deciding are told); `done` is
 * not called. Valid until `done` ran. */
void perm_ask_cancel(perm_ask *a);

#endif
