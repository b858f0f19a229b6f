/*
 *   mcphost ide list [--json]
 * every lockfile found, with its port, IDE, pid (live or stale), whether
 * its workspace holds the working directory, and its path; refused ones
 * with the reason.
 *
 *   mcphost --ide ide watch [--json] [--count N]
 * keeps the IDE connected and prints its notifications (notify.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "ide.h"
#include "ide_util.h"
#include "lockfile.h"
#include "notify.h"
#include "select.h"

static const char usage[] =
    "usage: mcphost ide list [--json] | mcphost --ide ide watch [--json] "
    "[--count N]";

static void finish(ide_plugin *pl, int code) {
  if (!pl->run) {
    return;
  }
  mcph_run *run = pl->run;
  pl->run = NULL;
  pl->servers->finish(pl->host, run, code);
}

/* Writes what stdio holds; a failure ends the command with 10 (141 for a
 * reader that went away is the host's, through SIGPIPE). */
static bool flush_ok(void) {
  return fflush(stdout) == 0;
}

/* ---- list ---- */

static cJSON *lock_json(const ide_lock *lk) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "path", lk->path);
  if (lk->port) {
    cJSON_AddNumberToObject(o, "port", lk->port);
  } else {
    cJSON_AddNullToObject(o, "port");
  }
  if (lk->error) {
    cJSON_AddStringToObject(o, "error", lk->error);
    return o;
  }
  cJSON_AddStringToObject(o, "ideName", lk->ide_name);
  cJSON_AddNumberToObject(o, "pid", (double)lk->pid);
  cJSON_AddBoolToObject(o, "alive", lk->alive);
  cJSON_AddStringToObject(o, "transport", lk->transport);
  cJSON *f = cJSON_AddArrayToObject(o, "workspaceFolders");
  for (size_t i = 0; i < lk->nfolders; i++) {
    cJSON_AddItemToArray(f, cJSON_CreateString(lk->folders[i]));
  }
  cJSON_AddBoolToObject(o, "containsCwd", lk->contains_cwd);
  cJSON_AddBoolToObject(o, "runningInWindows", lk->windows);
  cJSON_AddBoolToObject(o, "hasAuthToken", lk->auth_token != NULL);
  return o;
}

static void print_text(const ide_locks *l) {
  printf("%-6s  %-16s  %-8s  %-7s  %-4s  %s\n", "PORT", "IDE", "PID", "STATE",
         "CWD", "PATH");
  for (size_t i = 0; i < l->n; i++) {
    const ide_lock *lk = &l->v[i];
    char *path = ide_esc(lk->path);
    char port[16] = "-";
    if (lk->port) {
      snprintf(port, sizeof port, "%d", lk->port);
    }
    if (lk->error) {
      char *why = ide_esc(lk->error);
      printf("%-6s  %-16s  %-8s  %-7s  %-4s  %s\n      %s\n", port, "-", "-",
             "refused", "-", path, why);
      free(why);
    } else {
      char *name = ide_esc(lk->ide_name);
      printf("%-6s  %-16s  %-8ld  %-7s  %-4s  %s\n", port, name, lk->pid,
             lk->alive ? "live" : "stale", lk->contains_cwd ? "yes" : "no",
             path);
      free(name);
    }
    free(path);
  }
}

static int cmd_list(ide_plugin *pl, int argc, const char *const *argv,
                    bool json, mcph_error *err) {
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else {
      return mcph_error_set(err, MCPH_EINVAL, "unknown argument \"%.100s\"; %s",
                            argv[i], usage);
    }
  }
  ide_locks l = {0};
  ide_locks_scan(&l, pl->host->get_path(pl->host, MCPH_PATH_CWD));
  if (json) {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < l.n; i++) {
      cJSON_AddItemToArray(a, lock_json(&l.v[i]));
    }
    char *text = cJSON_Print(a);
    cJSON_Delete(a);
    if (text) {
      fputs(text, stdout);
      fputc('\n', stdout);
    }
    free(text);
  } else if (l.n == 0) {
    fputs("mcphost: ide: no IDE lockfile in", stderr);
    for (size_t i = 0; i < l.ndirs; i++) {
      char *d = ide_esc(l.dirs[i]);
      fprintf(stderr, "%s %s", i ? "," : "", d);
      free(d);
    }
    fputc('\n', stderr);
  } else {
    print_text(&l);
  }
  ide_locks_free(&l);
  finish(pl, flush_ok() ? 0 : 10);
  return MCPH_OK;
}

/* ---- watch ---- */

void ide_watch_notification(ide_plugin *pl, const char *server,
                            const char *method, const char *params_json) {
  if (!pl->run || strcmp(server, IDE_SERVER_NAME) != 0) {
    return;
  }
  char *line = ide_notify_line(server, method, params_json, pl->json,
                               isatty(STDOUT_FILENO) == 1);
  fputs(line, stdout);
  free(line);
  if (!flush_ok()) {
    finish(pl, 10);
    return;
  }
  pl->printed++;
  if (pl->left > 0 && --pl->left == 0) {
    finish(pl, 0);
  }
}

void ide_watch_server_event(ide_plugin *pl, const char *server, int event) {
  if (!pl->run || strcmp(server, IDE_SERVER_NAME) != 0) {
    return;
  }
  if (event == MCPH_SERVER_CONNECTED) {
    fprintf(stderr, "mcphost: ide: watching the IDE's notifications\n");
  } else if (event == MCPH_SERVER_FAILED) {
    const char *why = NULL;
    pl->servers->state(pl->host, server, &why);
    /* Through the host's log: it redacts what a server put in errors. */
    mcph_logf(pl->host, MCPH_LOG_ERROR, server, "ide watch: cannot connect: %s",
              why ? why : "connection lost");
    finish(pl, 3);
  }
}

static int cmd_watch(ide_plugin *pl, mcph_run *run, int argc,
                     const char *const *argv, bool json, mcph_error *err) {
  long count = -1;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) {
      char *end;
      errno = 0;
      count = strtol(argv[++i], &end, 10);
      if (errno || *end || end == argv[i] || count <= 0) {
        return mcph_error_set(err, MCPH_EINVAL,
                              "--count needs a positive number, not "
                              "\"%.40s\"",
                              argv[i]);
      }
    } else {
      return mcph_error_set(err, MCPH_EINVAL, "unknown argument \"%.100s\"; %s",
                            argv[i], usage);
    }
  }
  if (!pl->servers->state(pl->host, IDE_SERVER_NAME, NULL)) {
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "no IDE in this session: give --ide, or set "
                          "CLAUDE_CODE_AUTO_CONNECT_IDE=true or "
                          "CLAUDE_CODE_SSE_PORT=PORT");
  }
  pl->run = run;
  pl->json = json;
  pl->left = count;
  pl->printed = 0;
  mcph_error e;
  mcph_error_init(&e);
  int rc =
      pl->servers->connect(pl->host, IDE_SERVER_NAME, MCPH_CONNECT_KEEP, &e);
  if (rc != MCPH_OK) {
    if (pl->run) {
      pl->run = NULL;
      return mcph_error_set(err, rc, "%s", e.message);
    }
    return MCPH_OK; /* it failed at once, and finish() was called */
  }
  return MCPH_OK;
}

static int cmd_start(void *ctx, mcph_run *run, int argc,
                     const char *const *argv, int global_json,
                     mcph_error *err) {
  ide_plugin *pl = ctx;
  if (!pl->servers) {
    return mcph_error_set(err, MCPH_ENOTSUP,
                          "this host offers no servers service");
  }
  if (argc >= 2 && strcmp(argv[1], "list") == 0) {
    pl->run = run;
    int rc = cmd_list(pl, argc, argv, global_json != 0, err);
    if (rc != MCPH_OK) {
      pl->run = NULL;
    }
    return rc;
  }
  if (argc >= 2 && strcmp(argv[1], "watch") == 0) {
    return cmd_watch(pl, run, argc, argv, global_json != 0, err);
  }
  return mcph_error_set(err, MCPH_EINVAL, "%s", usage);
}

static void cmd_interrupt(void *ctx, mcph_run *run) {
  ide_plugin *pl = ctx;
  (void)run;
  fflush(stdout);
  finish(pl, 130);
}

static const mcph_command command_list[] = {
    {.struct_size = sizeof(mcph_command),
     .name = IDE_COMMAND,
     .usage = "ide list [--json] | ide watch [--json] [--count N]",
     .help = "the IDEs found by their lockfiles; the IDE's notifications as "
             "they arrive (with --ide)",
     .start = cmd_start,
     .interrupt = cmd_interrupt},
};

const mcph_commands ide_commands = {
    .struct_size = sizeof(mcph_commands),
    .commands = command_list,
    .count = 1,
};
