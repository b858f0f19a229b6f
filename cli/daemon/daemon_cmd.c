/* mcphost session start [--idle MINUTES] | stop [ID | --all] |
 * status [--json] | list [--json] | reconnect [SERVER] (daemon.h,
 * docs/sessions.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "trusted_fs.h"
#include "util.h"

#define DEFAULT_IDLE_MINUTES 30

static const char session_usage[] =
    "usage: mcphost [OPTIONS] session start [--idle MINUTES] | "
    "stop [ID | --all] | status [--json] | list [--json] |\n"
    "                         reconnect [SERVER]\n";

/* The place of this command line's session, or EXIT_USAGE said (and
 * nothing filled). */
static int find_place(cli *c, daemon_place *p) {
  if (daemon_key_scan(c->argc, c->argv, p) < 0) {
    cli_error(c, NULL,
              "session: an option before the command is not one a session "
              "runs with (a plugin's option, or an abbreviated one); give "
              "the options in full");
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

static bool parse_minutes(const char *s, uint64_t *ms) {
  char *end;
  errno = 0;
  double m = strtod(s, &end);
  if (errno || end == s || *end || !(m >= 0) || m > 525600.0) {
    return false;
  }
  /* Rounded to the nearest (m >= 0) without llround(): libm would be
   * mapped (300 KiB resident) by every command for this one call. */
  *ms = (uint64_t)(m * 60000.0 + 0.5);
  return true;
}

/* Binds the socket (0600) and listens; -1 with `why`. */
static int listen_at(const daemon_place *p, char *why, size_t why_len) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  if (strlen(p->socket) >= sizeof sa.sun_path) {
    snprintf(why, why_len,
             "%s: the path is too long for a socket (set "
             "XDG_RUNTIME_DIR or TMPDIR to a shorter one)",
             p->socket);
    return -1;
  }
  memcpy(sa.sun_path, p->socket, strlen(p->socket) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    snprintf(why, why_len, "socket: %s", strerror(errno));
    return -1;
  }
  /* We hold the lock: a socket there is a dead session's. */
  unlink(p->socket);
  mode_t old = umask(077);
  int b = bind(fd, (struct sockaddr *)&sa, sizeof sa);
  umask(old);
  if (b != 0 || chmod(p->socket, 0600) != 0 || listen(fd, 64) != 0) {
    snprintf(why, why_len, "%s: %s", p->socket, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

/* The session process: on its own (setsid), fds 0-2 on /dev/null. */
static void detach(void) {
  setsid();
  int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int i = 0; i < 3 && null >= 0; i++) {
    dup2(null, i);
  }
  if (null > 2) {
    close(null);
  }
}

static int daemon_start(cli *c, int argc, char **argv) {
  daemon_options o = {.idle_ms = DEFAULT_IDLE_MINUTES * 60000ull};
  for (int i = 1; i < argc; i++) {
    const char *v = strncmp(argv[i], "--idle=", 7) == 0 ? argv[i] + 7
                    : strcmp(argv[i], "--idle") == 0 && i + 1 < argc ? argv[++i]
                                                                     : NULL;
    if (!v) {
      cli_error(c, NULL, "session start: unknown argument \"%s\"; %s", argv[i],
                "try 'mcphost session --help'");
      return EXIT_USAGE;
    }
    if (!parse_minutes(v, &o.idle_ms)) {
      cli_error(c, NULL,
                "session start: --idle needs a number of minutes (0: "
                "never), not \"%s\"",
                v);
      return EXIT_USAGE;
    }
  }
  daemon_place p = {0};
  int rc = find_place(c, &p), dir = -1, lock = -1, lfd = -1;
  int ready[2] = {-1, -1};
  char why[1024];
  if (rc != EXIT_OK) {
    goto out;
  }
  cli_load_config(c);
  if (mcphost_server_count(c->api) == 0) {
    cli_error(c, NULL, "session start: no servers are configured here");
    rc = mcphost_config_errors(c->api) ? EXIT_SERVER : EXIT_NOT_FOUND;
    goto out;
  }
  dir = daemon_place_open_dir(&p, true, why, sizeof why);
  const char *lock_name = strrchr(p.lock, '/') + 1;
  if (dir < 0 ||
      (lock = trusted_fs_open_file(dir, p.dir, lock_name, O_RDWR | O_CREAT,
                                   0600, why, sizeof why)) < 0) {
    cli_error(c, NULL, "session start: %s", why);
    rc = EXIT_USAGE;
    goto out;
  }
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    fprintf(stderr, "mcphost: a session already runs here (%s)\n", p.socket);
    goto out;
  }
  lfd = listen_at(&p, why, sizeof why);
  if (lfd < 0 || pipe2(ready, O_CLOEXEC) != 0) {
    cli_error(c, NULL, "session start: %s", lfd < 0 ? why : strerror(errno));
    rc = EXIT_SERVER;
    goto out;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    cli_error(c, NULL, "session start: fork: %s", strerror(errno));
    unlink(p.socket);
    rc = EXIT_SERVER;
    goto out;
  }
  if (pid == 0) {
    close(ready[0]);
    detach();
    rc = daemon_run(c, &p, lfd, &o, ready[1]);
    goto out; /* the lock goes with the process */
  }
  close(ready[1]);
  ready[1] = -1;
  char b;
  ssize_t n;
  do {
    n = read(ready[0], &b, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) {
    cli_error(c, NULL, "session start: the session process failed to start");
    rc = EXIT_SERVER;
    goto out;
  }
  char idle[64] = "never stops for idleness";
  if (o.idle_ms) {
    snprintf(idle, sizeof idle, "stops after %g min idle",
             (double)o.idle_ms / 60000.0);
  }
  printf("session started (pid %d, %s): %s\n", (int)pid, idle, p.socket);
out:
  for (int i = 0; i < 2; i++) {
    if (ready[i] >= 0) {
      close(ready[i]);
    }
  }
  if (lfd >= 0) {
    close(lfd);
  }
  if (lock >= 0) {
    close(lock);
  }
  if (dir >= 0) {
    close(dir);
  }
  daemon_place_free(&p);
  return rc;
}

/* Connects to the running session and sends `type`; the reply in *reply
 * (new string). Returns EXIT_OK, or EXIT_NOT_FOUND when none runs. */
static int ask_session(const daemon_place *p, int type, char **reply) {
  char why[600];
  int dir = daemon_place_open_dir(p, false, why, sizeof why);
  if (dir < 0) {
    return EXIT_NOT_FOUND;
  }
  close(dir);
  int fd = daemon_dial(p, why, sizeof why);
  if (fd < 0) {
    if (errno == ECONNREFUSED && !daemon_place_locked(p)) {
      unlink(p->socket);
    }
    return EXIT_NOT_FOUND;
  }
  int rc = daemon_send_request(fd, type, 0, NULL) == 0 &&
                   daemon_recv_reply(fd, reply) == 0
               ? EXIT_OK
               : EXIT_NOT_FOUND;
  close(fd);
  return rc;
}

/* Stops the session at `p` and returns once its process let the lock
 * go; EXIT_NOT_FOUND when none runs there. */
static int stop_place(const daemon_place *p) {
  char *reply = NULL;
  if (ask_session(p, DAEMON_STOP, &reply) != EXIT_OK) {
    return EXIT_NOT_FOUND;
  }
  free(reply);
  /* Its servers close before the process ends and lets the lock go. */
  int lock = open(p->lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (lock >= 0) {
    while (flock(lock, LOCK_SH) != 0 && errno == EINTR) {
    }
    close(lock);
  }
  return EXIT_OK;
}

/* The session of id `digest` in the directory of `here`. */
static void place_of(const daemon_place *here, const char *digest,
                     daemon_place *p) {
  p->dir = xstrdup(here->dir);
  p->socket = xasprintf("%s/session-%s.sock", here->dir, digest);
  p->lock = xasprintf("%s/session-%s.lock", here->dir, digest);
  snprintf(p->digest, sizeof p->digest, "%s", digest);
}

/* Every session of the user that runs (each one's status object, with
 * "id"), in the order of their ids; an empty array when none does. */
static cJSON *running_sessions(const daemon_place *here) {
  cJSON *all = cJSON_CreateArray();
  char why[600];
  int dfd = daemon_place_open_dir(here, false, why, sizeof why);
  DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
  if (!dir) {
    if (dfd >= 0) {
      close(dfd);
    }
    return all;
  }
  struct dirent *e;
  while ((e = readdir(dir))) {
    char digest[17];
    char tail[8] = "";
    if (strlen(e->d_name) != strlen("session-.sock") + 16 ||
        sscanf(e->d_name, "session-%16[0-9a-f]%7s", digest, tail) != 2 ||
        strcmp(tail, ".sock") != 0) {
      continue;
    }
    daemon_place p = {0};
    place_of(here, digest, &p);
    char *reply = NULL;
    cJSON *st = ask_session(&p, DAEMON_STATUS, &reply) == EXIT_OK
                    ? cJSON_Parse(reply)
                    : NULL;
    if (st) {
      cJSON_DeleteItemFromObjectCaseSensitive(st, "id");
      cJSON_AddStringToObject(st, "id", digest);
      cJSON_AddBoolToObject(st, "here", strcmp(digest, here->digest) == 0);
      /* In id order, whatever order the directory gives. */
      cJSON *at = all->child;
      int k = 0;
      while (at && strcmp(cJSON_GetStringValue(
                              cJSON_GetObjectItemCaseSensitive(at, "id")),
                          digest) < 0) {
        at = at->next;
        k++;
      }
      cJSON_InsertItemInArray(all, k, st);
    }
    free(reply);
    daemon_place_free(&p);
  }
  closedir(dir);
  return all;
}

/* One line per running session: its id, pid, directory and options. */
static void print_sessions(cli *c, FILE *f, const cJSON *all) {
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    strbuf opts;
    sb_init(&opts);
    sb_add(&opts, "", 0);
    const cJSON *o;
    cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(st, "options")) {
      sb_printf(&opts, "%s%s", opts.len > 1 ? " " : "  ",
                cJSON_GetStringValue(o));
    }
    const char *cwd =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "cwd"));
    fprintf(f, "  %s  pid %.0f  %s%s%s\n",
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "id")),
            cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "pid")),
            cli_esc(c, cwd ? cwd : "?"), cli_esc(c, sb_str(&opts)),
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "here"))
                ? "  (this configuration)"
                : "");
    sb_free(&opts);
  }
}

/* The running session that `which` names: its id (or the start of it)
 * or its pid. NULL when none or several do. */
static const cJSON *named_session(const cJSON *all, const char *which) {
  const cJSON *found = NULL, *st;
  size_t n = strlen(which);
  cJSON_ArrayForEach(st, all) {
    const char *id =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "id"));
    char pid[32];
    snprintf(pid, sizeof pid, "%.0f",
             cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "pid")));
    if (strcmp(pid, which) == 0 || (n > 0 && strncmp(id, which, n) == 0)) {
      if (found) {
        return NULL;
      }
      found = st;
    }
  }
  return found;
}

/* What runs, after "no session ... runs": the list and how to stop one. */
static void say_running(cli *c, const cJSON *all) {
  if (cJSON_GetArraySize(all) == 0) {
    return;
  }
  fprintf(stderr, "mcphost: %s:\n",
          cJSON_GetArraySize(all) == 1 ? "this session runs"
                                       : "these sessions run");
  print_sessions(c, stderr, all);
  fprintf(stderr, "mcphost: stop one with 'mcphost session stop ID', or "
                  "every one with 'mcphost session stop --all'\n");
}

static int daemon_stop(cli *c, int argc, char **argv) {
  const char *which = NULL;
  bool every = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--all") == 0) {
      every = true;
    } else if (!which && argv[i][0] != '-') {
      which = argv[i];
    } else {
      cli_error(c, NULL, "session stop: unknown argument \"%s\"; %s", argv[i],
                "usage: mcphost session stop [ID | --all]");
      return EXIT_USAGE;
    }
  }
  if (every && which) {
    cli_error(c, NULL, "session stop: an ID or --all, not both");
    return EXIT_USAGE;
  }
  daemon_place here = {0};
  int rc = find_place(c, &here);
  if (rc != EXIT_OK) {
    return rc; /* nothing filled */
  }
  if (!which && !every) { /* this configuration's */
    if (stop_place(&here) == EXIT_OK) {
      printf("session stopped\n");
    } else {
      fprintf(stderr, "mcphost: no session runs for this configuration "
                      "here\n");
      cJSON *all = running_sessions(&here);
      say_running(c, all);
      cJSON_Delete(all);
      rc = EXIT_NOT_FOUND;
    }
    daemon_place_free(&here);
    return rc;
  }
  cJSON *all = running_sessions(&here);
  const cJSON *one = which ? named_session(all, which) : NULL;
  if (which && !one) {
    fprintf(stderr,
            "mcphost: no session \"%s\" runs (an ID from "
            "'mcphost session list', or its start, or a pid)\n",
            cli_esc(c, which));
    say_running(c, all);
    rc = EXIT_NOT_FOUND;
  } else if (every && cJSON_GetArraySize(all) == 0) {
    fprintf(stderr, "mcphost: no session runs\n");
  } else {
    const cJSON *st;
    cJSON_ArrayForEach(st, all) {
      if (one && st != one) {
        continue;
      }
      const char *id =
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "id"));
      daemon_place p = {0};
      place_of(&here, id, &p);
      if (stop_place(&p) == EXIT_OK) {
        printf("session %s stopped\n", id);
      } /* else it ended meanwhile: what was asked is done */
      daemon_place_free(&p);
    }
  }
  cJSON_Delete(all);
  daemon_place_free(&here);
  return rc;
}

/* The arguments of `session WHAT [--json]`: EXIT_OK with *json, or
 * EXIT_USAGE said. */
static int json_only(cli *c, const char *what, int argc, char **argv,
                     bool *json) {
  *json = c->json;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") != 0) {
      cli_error(c, NULL, "session %s: unknown argument \"%s\"", what, argv[i]);
      return EXIT_USAGE;
    }
    *json = true;
  }
  return EXIT_OK;
}

static int daemon_list(cli *c, int argc, char **argv) {
  bool json;
  if (json_only(c, "list", argc, argv, &json) != EXIT_OK) {
    return EXIT_USAGE;
  }
  daemon_place here = {0};
  int rc = find_place(c, &here);
  if (rc != EXIT_OK) {
    return rc; /* nothing filled */
  }
  cJSON *all = running_sessions(&here);
  if (json) {
    out_json(all);
    c->result_printed = true;
  } else if (cJSON_GetArraySize(all) == 0) {
    printf("no session runs\n");
  } else {
    print_sessions(c, stdout, all);
  }
  cJSON_Delete(all);
  daemon_place_free(&here);
  return rc;
}

static void print_status(cli *c, const cJSON *st) {
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(st, "servers");
  double idle = cJSON_GetNumberValue(
      cJSON_GetObjectItemCaseSensitive(st, "idle_minutes"));
  printf("session running (pid %.0f): %s\n",
         cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "pid")),
         cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "socket")));
  if (idle > 0) {
    printf("  stops after %g min idle (idle for %.0f s)\n", idle,
           cJSON_GetNumberValue(
               cJSON_GetObjectItemCaseSensitive(st, "idle_seconds")));
  } else {
    printf("  never stops for idleness\n");
  }
  printf(
      "  commands run: %.0f\n",
      cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(st, "commands")));
  const cJSON *s;
  cJSON_ArrayForEach(s, servers) {
    printf("  %s: %s\n",
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(s, "name"))),
           cli_esc(c, cJSON_GetStringValue(
                          cJSON_GetObjectItemCaseSensitive(s, "state"))));
  }
}

static int daemon_status(cli *c, int argc, char **argv) {
  bool json;
  if (json_only(c, "status", argc, argv, &json) != EXIT_OK) {
    return EXIT_USAGE;
  }
  daemon_place p = {0};
  int rc = find_place(c, &p);
  char *reply = NULL;
  cJSON *st = NULL;
  if (rc != EXIT_OK) {
    goto out;
  }
  if (ask_session(&p, DAEMON_STATUS, &reply) != EXIT_OK ||
      !(st = cJSON_Parse(reply))) {
    rc = EXIT_NOT_FOUND;
    if (json) {
      cJSON *o = cJSON_CreateObject();
      cJSON_AddBoolToObject(o, "running", false);
      cJSON_AddStringToObject(o, "socket", p.socket);
      out_json(o);
      cJSON_Delete(o);
      c->result_printed = true;
    } else {
      printf("no session runs here (it would listen on %s)\n", p.socket);
    }
    goto out;
  }
  if (json) {
    out_json(st);
    c->result_printed = true;
  } else {
    print_status(c, st);
  }
out:
  cJSON_Delete(st);
  free(reply);
  daemon_place_free(&p);
  return rc;
}

int cmd_session(cli *c, int argc, char **argv) {
  const char *sub = argc > 1 ? argv[1] : NULL;
  if (!sub || strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
    /* `session --help` is main's (cli_command_help); this is the bare
     * `session`, a usage error. */
    fputs(sub ? cli_command_help("session") : session_usage,
          sub ? stdout : stderr);
    return sub ? EXIT_OK : EXIT_USAGE;
  }
  if (strcmp(sub, "start") == 0) {
    return daemon_start(c, argc - 1, argv + 1);
  }
  if (strcmp(sub, "stop") == 0) {
    return daemon_stop(c, argc - 1, argv + 1);
  }
  if (strcmp(sub, "status") == 0) {
    return daemon_status(c, argc - 1, argv + 1);
  }
  if (strcmp(sub, "list") == 0) {
    return daemon_list(c, argc - 1, argv + 1);
  }
  if (strcmp(sub, "reconnect") == 0) {
    /* Run by the session itself (daemon_forward.c hands it over). */
    if (c->shared) {
      return cmd_reconnect(c, argc - 1, argv + 1);
    }
    cli_error(c, NULL, "session reconnect: no session runs here");
    return EXIT_NOT_FOUND;
  }
  static const char *const subs[] = {"start", "stop", "status", "list",
                                     "reconnect"};
  return cli_unknown(c, "session: unknown command", sub, subs,
                     sizeof subs / sizeof *subs,
                     "; try 'mcphost session --help'");
}
