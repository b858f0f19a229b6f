/* mcphost session start [--idle MINUTES] | stop | status [--json]
 * (session.h, docs/sessions.md). */
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

#include "cli/session.h"
#include "core/util.h"
#include "trusted_fs.h"

#define DEFAULT_IDLE_MINUTES 30

static const char session_usage[] =
    "usage: mcphost [OPTIONS] session start [--idle MINUTES] | stop | "
    "status [--json]\n";

/* The place of this command line's session, or EXIT_USAGE said. */
static int find_place(cli *c, session_place *p) {
  if (session_key_scan(c->argc, c->argv, p) < 0) {
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
static int listen_at(const session_place *p, char *why, size_t why_len) {
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

static int session_start(cli *c, int argc, char **argv) {
  session_options o = {.idle_ms = DEFAULT_IDLE_MINUTES * 60000ull};
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
  session_place p = {0};
  int rc = find_place(c, &p), dir = -1, lock = -1, lfd = -1;
  int ready[2] = {-1, -1};
  char why[1024];
  if (rc != EXIT_OK) {
    goto out;
  }
  cli_load_config(c);
  if (host_cfg(c->h)->nservers == 0) {
    cli_error(c, NULL, "session start: no servers are configured here");
    rc = host_cfg(c->h)->nerrors ? EXIT_SERVER : EXIT_NOT_FOUND;
    goto out;
  }
  dir = session_place_open_dir(&p, true, why, sizeof why);
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
    rc = session_daemon_run(c, &p, lfd, &o, ready[1]);
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
  session_place_free(&p);
  return rc;
}

/* Connects to the running session and sends `type`; the reply in *reply
 * (new string). Returns EXIT_OK, or EXIT_NOT_FOUND when none runs. */
static int ask_session(const session_place *p, int type, char **reply) {
  char why[600];
  int dir = session_place_open_dir(p, false, why, sizeof why);
  if (dir < 0) {
    return EXIT_NOT_FOUND;
  }
  close(dir);
  int fd = session_dial(p, why, sizeof why);
  if (fd < 0) {
    if (errno == ECONNREFUSED && !session_place_locked(p)) {
      unlink(p->socket);
    }
    return EXIT_NOT_FOUND;
  }
  int rc = session_send_request(fd, type, 0, NULL) == 0 &&
                   session_recv_reply(fd, reply) == 0
               ? EXIT_OK
               : EXIT_NOT_FOUND;
  close(fd);
  return rc;
}

static int session_stop(cli *c) {
  session_place p = {0};
  int rc = find_place(c, &p);
  char *reply = NULL;
  if (rc != EXIT_OK) {
    goto out;
  }
  if (ask_session(&p, SESSION_STOP, &reply) != EXIT_OK) {
    fprintf(stderr, "mcphost: no session runs here\n");
    goto out;
  }
  /* Its servers close before the process ends and lets the lock go. */
  int lock = open(p.lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (lock >= 0) {
    while (flock(lock, LOCK_SH) != 0 && errno == EINTR) {
    }
    close(lock);
  }
  printf("session stopped\n");
out:
  free(reply);
  session_place_free(&p);
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

static int session_status(cli *c, int argc, char **argv) {
  bool json = c->json;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--json") != 0) {
      cli_error(c, NULL, "session status: unknown argument \"%s\"", argv[i]);
      return EXIT_USAGE;
    }
    json = true;
  }
  session_place p = {0};
  int rc = find_place(c, &p);
  char *reply = NULL;
  cJSON *st = NULL;
  if (rc != EXIT_OK) {
    goto out;
  }
  if (ask_session(&p, SESSION_STATUS, &reply) != EXIT_OK ||
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
  session_place_free(&p);
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
    return session_start(c, argc - 1, argv + 1);
  }
  if (strcmp(sub, "stop") == 0 && argc == 2) {
    return session_stop(c);
  }
  if (strcmp(sub, "status") == 0) {
    return session_status(c, argc - 1, argv + 1);
  }
  static const char *const subs[] = {"start", "stop", "status"};
  /* "stop" with more words is not a misspelling. */
  bool stop = strcmp(sub, "stop") == 0;
  return cli_unknown(c, "session: unknown command", sub, subs,
                     stop ? 0 : sizeof subs / sizeof *subs,
                     "; try 'mcphost session --help'");
}
