/* mcphost task status|result|cancel SERVER ID, and task list SERVER: a
 * task (MCP 2025-11-25, experimental) that a call left running with
 * --detach, or that another client started, finished later. The
 * following is the client library's (MCPHOST_OP_TASK_RESULT); this file
 * prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "json_write.h"

/* A Task's id, status and statusMessage (borrowed; the last may be
 * NULL), escaped for the terminal. */
typedef struct task_text {
  const char *id, *status, *message;
} task_text;

static task_text task_text_of(cli *c, const cJSON *t) {
  const char *id =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "taskId"));
  const char *st =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "status"));
  const char *msg = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(t, "statusMessage"));
  return (task_text){cli_esc(c, id ? id : "?"), cli_esc(c, st ? st : "?"),
                     msg ? cli_esc(c, msg) : NULL};
}

void out_task_status(cli *c, const cJSON *task) {
  task_text t = task_text_of(c, task);
  mcphost_status_end(c->api);
  fprintf(stderr, "task %s: %s%s%s%s\n", t.id, t.status, t.message ? " (" : "",
          t.message ? t.message : "", t.message ? ")" : "");
}

/* `s` as one shell word for a command line the user may paste (a new
 * string; free with free()): as it is when plain, else single-quoted. A
 * server's task id is its own text ("x;rm -rf ~" is an id). */
static char *shell_word(const char *s) {
  static const char plain[] = "abcdefghijklmnopqrstuvwxyz"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:@+-";
  if (*s && strspn(s, plain) == strlen(s)) {
    return xstrdup(s);
  }
  strbuf b;
  sb_init(&b);
  sb_adds(&b, "'");
  for (const char *q; (q = strchr(s, '\'')); s = q + 1) {
    sb_add(&b, s, (size_t)(q - s));
    sb_adds(&b, "'\\''");
  }
  sb_adds(&b, s);
  sb_adds(&b, "'");
  return b.data;
}

bool cli_print_detached(cli *c, size_t idx, const cJSON *result) {
  const cJSON *task = cJSON_GetObjectItemCaseSensitive(result, "task");
  const char *id =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(task, "taskId"));
  if (!id) {
    return false;
  }
  const char *server = mcphost_server_name(c->api, idx);
  mcphost_server_state st = cli_server_state(c, idx);
  if (c->json) {
    out_json(result);
    c->result_printed = true;
  } else {
    printf("%s\n", cli_esc(c, id));
  }
  /* A local server started for this run alone ends with it, and so do
   * the tasks it keeps in its process: said, not hidden. */
  bool ends = !c->shared && st.local;
  /* A remote server that gave this run an MCP session: the session ends
   * with the run, and an SDK that keeps tasks per session (the
   * TypeScript SDK's) answers a later run "Task not found". */
  bool per_session = !c->shared && !ends && st.mcp_session;
  if (ends) {
    fprintf(stderr,
            "mcphost: warning: server \"%s\" is a local process that ends "
            "with this run, and a task it keeps in that process with it; "
            "run it in a session (mcphost session start) to detach from "
            "its tasks\n",
            cli_esc(c, server));
  } else if (per_session) {
    fprintf(stderr,
            "mcphost: warning: task %s of server \"%s\" belongs to this "
            "run's MCP session, which ends with the run: a server that "
            "keeps its tasks per session (the TypeScript SDK does) will "
            "not know it in a later run; run it in a session (mcphost "
            "session start) to detach from its tasks\n",
            cli_esc(c, id), cli_esc(c, server));
  }
  if (!c->quiet_progress) {
    char *w_server = shell_word(server), *w_id = shell_word(id);
    fprintf(stderr, "mcphost: task %s%s: mcphost task result %s %s\n",
            cli_esc(c, id),
            per_session ? ": if the server keeps it beyond the session"
                        : " runs on; its result",
            cli_esc(c, w_server), cli_esc(c, w_id));
    free(w_server);
    free(w_id);
  }
  return true;
}

/* One line per task: ID  STATUS  MESSAGE. */
static void print_task_line(cli *c, const cJSON *task) {
  task_text t = task_text_of(c, task);
  printf("%s  %s%s%s\n", t.id, t.status, t.message ? "  " : "",
         t.message ? t.message : "");
}

static int usage(void) {
  fprintf(stderr, "mcphost: usage: mcphost task status|result|cancel SERVER "
                  "ID | task list SERVER\n");
  return EXIT_USAGE;
}

int cmd_task(cli *c, int argc, char **argv) {
  if (argc < 3) {
    return usage();
  }
  const char *sub = argv[1];
  bool list = strcmp(sub, "list") == 0;
  bool known = list || strcmp(sub, "status") == 0 ||
               strcmp(sub, "result") == 0 || strcmp(sub, "cancel") == 0;
  if (!known) {
    cli_error(c, NULL,
              "unknown task command \"%s\" (status, result, cancel, list)",
              cli_esc(c, sub));
    return EXIT_USAGE;
  }
  if (argc != (list ? 3 : 4)) {
    return usage();
  }
  long i = cli_find_server(c, argv[2]);
  if (i < 0) {
    return cli_no_server(c, argv[2]);
  }
  size_t idx = (size_t)i;
  int rc = cli_check_startable(c, idx);
  if (rc != EXIT_OK) {
    return rc;
  }
  const char *id = list ? NULL : argv[3];
  cJSON *result = NULL;
  char *params = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.server = argv[2];
  if (list) {
    rq.kind = MCPHOST_OP_LIST;
    rq.name = "tasks";
  } else if (strcmp(sub, "result") == 0) {
    rq.kind = MCPHOST_OP_TASK_RESULT;
    rq.name = id;
  } else {
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "taskId", id);
    params = json_print(p);
    cJSON_Delete(p);
    rq.kind = MCPHOST_OP_REQUEST;
    rq.method = strcmp(sub, "status") == 0 ? "tasks/get" : "tasks/cancel";
    rq.arguments = params;
  }
  rc = cli_run(c, &rq, &result, &err, NULL);
  if (rc != EXIT_OK) {
    cli_fail(c, &err);
    goto out;
  }
  if (rq.kind == MCPHOST_OP_TASK_RESULT) {
    cli_print_tool_result(c, result);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError"))) {
      fprintf(stderr, "mcphost: task %s on server \"%s\" reported an error\n",
              cli_esc(c, id), cli_esc(c, mcphost_server_name(c->api, idx)));
      rc = EXIT_TOOL_ERROR;
    }
  } else if (c->json) {
    out_json(list ? cJSON_GetObjectItemCaseSensitive(result, "tasks") : result);
    c->result_printed = true;
  } else if (list) {
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(result, "tasks")) {
      print_task_line(c, t);
    }
  } else {
    print_task_line(c, result);
  }
out:
  free(params);
  cJSON_Delete(result);
  return cli_output_rc(c, rc);
}
