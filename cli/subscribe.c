/* mcphost subscribe SERVER URI [--read]: subscribes to a resource
 * (resources/subscribe) and prints each notifications/resources/updated
 * the server sends, as a line (--json: a JSON line), with --read the
 * resource read again under it, until Ctrl-C (exit 130, after
 * resources/unsubscribe) or until the server goes away (exit 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "json_parse.h"
#include "json_write.h"

typedef struct watch {
  cli *c;
  size_t idx;
  const char *server; /* the configured name */
  int wake;       /* an update came or the server went away */
  bool gone;      /* the server is not connected any more */
  cJSON *updates; /* params of the updates not printed yet */
} watch;

/* The client's notifications (cli_on_notify): this server's updates. */
static void on_notify(void *ud, const char *server, const char *method,
                      const char *params_json) {
  watch *w = ud;
  if (!server || strcmp(server, w->server) != 0 ||
      strcmp(method, "notifications/resources/updated") != 0) {
    return;
  }
  cJSON *params = json_parse_str(params_json);
  cJSON_AddItemToArray(w->updates, params ? params : cJSON_CreateObject());
  w->wake = 1;
}

/* A server's connection came up or went away (cli_on_state): this
 * one's, when it is not connected any more, ends the watch. */
static void on_state(void *ud, const char *server) {
  watch *w = ud;
  if (strcmp(server, mcphost_server_name(w->c->api, w->idx)) == 0 &&
      !cli_server_state(w->c, w->idx).connected) {
    w->gone = true;
    w->wake = 1;
  }
}

/* The server failed or went away: said with `what` ("failed", "went
 * away") and why (the status's "error", else `otherwise`), and the exit
 * code of its failure. */
static int say_gone(cli *c, const char *server, const char *what,
                    const char *otherwise) {
  cJSON *st = cli_server_status(c, server, MCPHOST_STATUS_BRIEF);
  const char *error =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "error"));
  cli_error(c, server, "server \"%s\" %s: %s", cli_esc(c, server), what,
            error ? error : otherwise);
  int rc = cli_exit_for_server(st);
  cJSON_Delete(st);
  return rc;
}

/* Prints one update (and, with `reread`, the resource read again).
 * Returns EXIT_OK or the read's exit code. */
static int print_update(cli *c, const char *server, const cJSON *params,
                        bool reread) {
  const char *uri =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "uri"));
  cJSON *result = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = EXIT_OK;
  if (reread && uri) {
    mcphost_request rq = cli_request(MCPHOST_OP_READ, server, uri, NULL, 0);
    rc = cli_run(c, &rq, &result, &err, NULL);
    if (rc != EXIT_OK) {
      cli_fail(c, &err);
    }
  }
  if (c->json) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "server", server);
    cJSON_AddItemToObject(o, "params", cJSON_Duplicate(params, 1));
    if (result) {
      cJSON_AddItemToObject(
          o, "contents",
          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(result, "contents"),
                          1));
    }
    out_json_line(o);
    c->result_printed = true;
    cJSON_Delete(o);
  } else {
    const char *title =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "title"));
    printf("updated %s%s%s\n", cli_esc(c, uri ? uri : "?"), title ? "  " : "",
           title ? cli_esc(c, title) : "");
    if (result) {
      out_resource_contents(
          c, cJSON_GetObjectItemCaseSensitive(result, "contents"));
      if (c->open_line) { /* the next update starts on a line of its own */
        putchar('\n');
        c->open_line = false;
      }
    }
  }
  fflush(stdout);
  cJSON_Delete(result);
  return rc;
}

/* resources/subscribe or resources/unsubscribe of `uri`. */
static int request(cli *c, const char *server, const char *method,
                   const char *uri) {
  cJSON *params = cJSON_CreateObject(), *result = NULL;
  cJSON_AddStringToObject(params, "uri", uri);
  char *text = json_print(params);
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = cli_request(MCPHOST_OP_REQUEST, server, method, text, 0);
  int rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
  }
  free(text);
  cJSON_Delete(params);
  cJSON_Delete(result);
  return rc;
}

int cmd_subscribe(cli *c, int argc, char **argv) {
  bool reread = false;
  int kept = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--read") == 0) {
      reread = true;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_error(c, NULL,
                "subscribe: unknown option \"%s\"; try 'mcphost "
                "subscribe --help'",
                argv[i]);
      return EXIT_USAGE;
    } else {
      argv[kept++] = argv[i];
    }
  }
  if (kept != 3) {
    fprintf(stderr, "mcphost: usage: mcphost subscribe SERVER URI [--read]\n");
    return EXIT_USAGE;
  }
  const char *uri = argv[2];
  long i = cli_find_server(c, argv[1]);
  if (i < 0) {
    return cli_no_server(c, argv[1]);
  }
  size_t idx = (size_t)i;
  int rc = cli_check_startable(c, idx);
  if (rc != EXIT_OK) {
    return rc;
  }
  const char *server = mcphost_server_name(c->api, idx);
  cli_connect(c, &idx, 1);
  if (!cli_server_state(c, idx).connected) {
    return say_gone(c, server, "failed", "not connected");
  }
  cJSON *st = cli_server_status(c, server, 0);
  const cJSON *res = cJSON_GetObjectItemCaseSensitive(
      cJSON_GetObjectItemCaseSensitive(st, "capabilities"), "resources");
  bool offered =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "subscribe"));
  cJSON_Delete(st);
  if (!offered) {
    cli_error(c, server,
              "server \"%s\" does not offer resource subscriptions (its "
              "capabilities lack resources.subscribe)",
              cli_esc(c, server));
    return EXIT_PROTOCOL;
  }
  watch w = {
      .c = c, .idx = idx, .server = server, .updates = cJSON_CreateArray()};
  cli_on_notify(on_notify, &w);
  cli_on_state(on_state, &w);
  if ((rc = request(c, server, "resources/subscribe", uri)) != EXIT_OK) {
    goto out;
  }
  if (!c->quiet_progress) {
    fprintf(stderr, "mcphost: subscribed to %s on server \"%s\"; Ctrl-C ends\n",
            cli_esc(c, uri), cli_esc(c, server));
  }
  for (;;) {
    cJSON *u;
    while ((u = cJSON_DetachItemFromArray(w.updates, 0)) != NULL) {
      int one = print_update(c, server, u, reread);
      cJSON_Delete(u);
      if (one == EXIT_INTERRUPTED) {
        break;
      }
    }
    if (w.gone || mcphost_interrupted(c->api)) {
      break;
    }
    w.wake = 0;
    if (cli_wait(c, &w.wake)) {
      break;
    }
  }
  if (mcphost_interrupted(c->api)) {
    /* Ctrl-C ends the watch, not the courtesy of saying so. */
    mcphost_interrupt_clear(c->api);
    if (!w.gone) {
      request(c, server, "resources/unsubscribe", uri);
    }
    rc = EXIT_INTERRUPTED;
  } else {
    rc = say_gone(c, server, "went away", "the connection ended");
    rc = rc == EXIT_OK ? EXIT_SERVER : rc;
  }
out:
  cli_on_notify(NULL, NULL);
  cli_on_state(NULL, NULL);
  cJSON_Delete(w.updates);
  return rc;
}
