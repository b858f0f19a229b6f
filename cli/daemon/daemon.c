/* The session process's loop (daemon.h): accept callers of the user
 * (SO_PEERCRED), queue them, run their commands one at a time in the
 * order they came, answer status and stop, end after the idle time or
 * when a configuration file changes (read again in place while no
 * connection was made with it yet).
 *
 * Concurrency: the commands of several callers run one after the other,
 * never at once: each owns fds 0-2, environ and the working directory of
 * the process while it runs. A caller waiting its turn waits in the
 * queue; a caller the session stops before its turn is told to run the
 * command itself. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "json_parse.h"
#include "util.h"

/* How often the configuration files are looked at. */
#define WATCH_MS 1000
/* A caller has this long to send its request. */
#define REQUEST_TIMEOUT_S 10

typedef struct watched_file {
  char *path;
  bool exists;
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
} watched_file;

struct daemon_server {
  cli *c;
  cli_shared shared;
  const daemon_place *p;
  mcphost_client *api;
  mcphost_watch *lw;
  int listen_fd;
  int *queue; /* accepted connections, oldest first */
  size_t nqueue, capqueue;
  int wake; /* set on the loop: the session's own wait ends */
  bool stop;
  bool running;                 /* a command runs (serve() is on the stack) */
  struct pending_conn *pending; /* accepted, nothing read yet */
  const char *stop_reason;
  uint64_t idle_ms, last_active;
  time_t started;
  unsigned long commands;
  watched_file *files;
  size_t nfiles;
  mcphost_timer *watch_timer;
};

static void stat_file(watched_file *f) {
  struct stat st;
  f->exists = stat(f->path, &st) == 0;
  f->dev = f->exists ? st.st_dev : 0;
  f->ino = f->exists ? st.st_ino : 0;
  f->size = f->exists ? st.st_size : 0;
  f->mtime = f->exists ? st.st_mtim : (struct timespec){0};
}

static bool file_changed(watched_file *f) {
  watched_file now = {.path = f->path};
  stat_file(&now);
  bool changed = now.exists != f->exists || now.dev != f->dev ||
                 now.ino != f->ino || now.size != f->size ||
                 now.mtime.tv_sec != f->mtime.tv_sec ||
                 now.mtime.tv_nsec != f->mtime.tv_nsec;
  *f = now;
  return changed;
}

static void add_file(daemon_server *d, const char *path) {
  if (!path) {
    return;
  }
  d->files = xrealloc(d->files, (d->nfiles + 1) * sizeof *d->files);
  watched_file *f = &d->files[d->nfiles++];
  *f = (watched_file){.path = xstrdup(path)};
  stat_file(f);
}

/* Every file a scope reads, there or not (one made later counts). */
static void watch_config_files(daemon_server *d) {
  char *text = NULL;
  if (mcphost_config_files(d->api, &text, NULL, NULL) != MCPHOST_OK) {
    return;
  }
  cJSON *list = json_parse_str(text);
  mcphost_free(text);
  const cJSON *f;
  cJSON_ArrayForEach(f, list) {
    add_file(d, cJSON_GetStringValue(f));
  }
  cJSON_Delete(list);
}

static void on_watch(void *ud) {
  daemon_server *d = ud;
  d->watch_timer = NULL;
  bool changed = false;
  for (size_t i = 0; i < d->nfiles; i++) {
    changed |= file_changed(&d->files[i]);
  }
  if (changed) {
    if (mcphost_reload_config(d->api, NULL) == MCPHOST_OK) {
      mcphost_log(d->api, MCPHOST_LOG_INFO, "session",
                  "configuration read again", NULL);
    } else {
      d->stop = true; /* connections hold state made with the old one */
      d->stop_reason = "a configuration file changed";
      d->wake = 1;
      return;
    }
  }
  d->watch_timer = mcphost_timer_start(d->api, WATCH_MS, on_watch, d);
}

/* A connection accepted, its first bytes not read yet. */
typedef struct pending_conn {
  daemon_server *d;
  int fd;
  mcphost_watch *w;
  bool refused; /* another user's: told so, nothing else */
  struct pending_conn *next;
} pending_conn;

static void serve(daemon_server *d, int conn);

static void queue_conn(daemon_server *d, int conn) {
  if (d->nqueue == d->capqueue) {
    d->capqueue = d->capqueue ? 2 * d->capqueue : 8;
    d->queue = xrealloc(d->queue, d->capqueue * sizeof *d->queue);
  }
  d->queue[d->nqueue++] = conn;
  d->wake = 1;
}

/* What the peer sent is read first: closing on unread bytes would reset
 * the connection before the peer reads why. */
static void refuse(int fd) {
  static const char why[] = "refused: the session belongs to another user";
  char buf[4096];
  size_t total = 0;
  for (ssize_t n; total < (1u << 20) &&
                  (n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0;) {
    total += (size_t)n;
  }
  daemon_send_reply(fd, why, sizeof why - 1);
  shutdown(fd, SHUT_WR);
  close(fd);
}

/* Status and stop are answered at once, even while a command runs; a
 * command line waits its turn. */
static void on_first_bytes(void *ud, int fd, unsigned events) {
  (void)events;
  pending_conn *pc = ud;
  daemon_server *d = pc->d;
  char head[7];
  ssize_t n = recv(fd, head, sizeof head, MSG_PEEK | MSG_DONTWAIT);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
    return;
  }
  mcphost_unwatch(d->api, pc->w);
  for (pending_conn **pp = &d->pending; *pp; pp = &(*pp)->next) {
    if (*pp == pc) {
      *pp = pc->next;
      break;
    }
  }
  bool refused = pc->refused;
  free(pc);
  if (refused) {
    refuse(fd);
  } else if (n == (ssize_t)sizeof head && head[6] != DAEMON_RUN) {
    serve(d, fd);
  } else if (n > 0) {
    queue_conn(d, fd); /* serve() says what is wrong with it */
  } else {
    close(fd);
  }
}

static void on_accept(void *ud, int fd, unsigned events) {
  (void)events;
  daemon_server *d = ud;
  int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
  if (conn < 0) {
    return;
  }
  uid_t uid;
  pid_t pid;
  /* The socket is 0600 in a 0700 directory; this is the second lock: a
   * process of another user never gets a command run, only told so. */
  bool refused = daemon_peer(conn, &uid, &pid) != 0 || uid != geteuid();
  pending_conn *pc = xcalloc(1, sizeof *pc);
  *pc = (pending_conn){
      .d = d, .fd = conn, .refused = refused, .next = d->pending};
  d->pending = pc;
  mcphost_watch_fd(d->api, conn, MCPHOST_FD_READ, on_first_bytes, pc, &pc->w,
                   NULL);
}

static char *status_json(daemon_server *d) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddBoolToObject(o, "running", true);
  cJSON_AddNumberToObject(o, "pid", (double)getpid());
  cJSON_AddStringToObject(o, "socket", d->p->socket);
  /* What tells sessions apart in `session list`: the id (its key's
   * digest), the directory and the global options it was started with. */
  cJSON_AddStringToObject(o, "id", d->p->digest);
  char cwd[4096];
  cJSON_AddStringToObject(o, "cwd", getcwd(cwd, sizeof cwd) ? cwd : "?");
  cJSON *opts = cJSON_AddArrayToObject(o, "options");
  int cmd = daemon_key_scan(d->c->argc, d->c->argv, NULL);
  for (int i = 1; i < cmd; i++) {
    cJSON_AddItemToArray(opts, cJSON_CreateString(d->c->argv[i]));
  }
  cJSON_AddNumberToObject(o, "started", (double)d->started);
  cJSON_AddNumberToObject(o, "idle_minutes", (double)d->idle_ms / 60000.0);
  uint64_t idle = mcphost_now_ms() - d->last_active;
  cJSON_AddNumberToObject(o, "idle_seconds", (double)(idle / 1000));
  cJSON_AddNumberToObject(o, "commands", (double)d->commands);
  cJSON_AddNumberToObject(o, "waiting", (double)d->nqueue);
  cJSON *servers = cJSON_AddArrayToObject(o, "servers");
  char *text = NULL;
  mcphost_server_status(d->api, NULL, MCPHOST_STATUS_BRIEF, &text, NULL, NULL);
  cJSON *all = text ? json_parse_str(text) : NULL;
  mcphost_free(text);
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    const char *conn = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(st, "connection"));
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(
        s, "name",
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "name")));
    cJSON_AddStringToObject(s, "state", conn ? conn : "idle");
    cJSON_AddItemToArray(servers, s);
  }
  cJSON_Delete(all);
  cJSON *files = cJSON_AddArrayToObject(o, "config_files");
  for (size_t i = 0; i < d->nfiles; i++) {
    if (d->files[i].exists) {
      cJSON_AddItemToArray(files, cJSON_CreateString(d->files[i].path));
    }
  }
  text = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return text;
}

static void reply_text(int conn, const char *text) {
  daemon_send_reply(conn, text, strlen(text));
}

static void serve(daemon_server *d, int conn) {
  struct timeval tv = {.tv_sec = REQUEST_TIMEOUT_S};
  setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  daemon_request r;
  char why[200];
  if (daemon_recv_request(conn, &r, why, sizeof why) != 0) {
    char *msg = xasprintf("refused: %s", why);
    reply_text(conn, msg);
    free(msg);
    goto out;
  }
  tv.tv_sec = 0; /* a command may run as long as it runs */
  setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (r.type == DAEMON_STATUS) {
    char *text = status_json(d);
    reply_text(conn, text);
    free(text);
  } else if (r.type == DAEMON_STOP) {
    d->stop = true;
    d->stop_reason = "stopped";
    d->wake = 1;
    reply_text(conn, "ok");
    if (d->running) {
      /* As a direct run would end on SIGTERM: its caller exits 143. */
      mcphost_interrupt(d->api, SIGTERM);
    }
  } else if (d->stop) {
    reply_text(conn, "retry"); /* stopping: the caller runs it itself */
  } else {
    bool stop = false;
    d->running = true;
    int rc = daemon_run_command(&d->shared, conn, &r, &stop);
    d->running = false;
    cli_client_options_kept(d->c); /* the session's own again */
    d->commands++;
    char num[16];
    snprintf(num, sizeof num, "%d", rc);
    reply_text(conn, num);
    if (stop) {
      d->stop = true;
      d->stop_reason = "a signal";
    }
  }
out:
  daemon_request_free(&r);
  close(conn);
}

int daemon_run(cli *c, const daemon_place *p, int listen_fd,
               const daemon_options *o, int ready_fd) {
  daemon_server d = {.c = c,
                     .shared = {.api = c->api},
                     .api = c->api,
                     .p = p,
                     .listen_fd = listen_fd,
                     .idle_ms = o->idle_ms,
                     .last_active = mcphost_now_ms(),
                     .started = time(NULL)};
  d.shared.owner = c; /* its asks go to the command running */
  cli_client_options_kept(c); /* a crashed server is connected again */
  watch_config_files(&d);
  mcphost_watch_fd(c->api, listen_fd, MCPHOST_FD_READ, on_accept, &d, &d.lw,
                   NULL);
  d.watch_timer = mcphost_timer_start(c->api, WATCH_MS, on_watch, &d);
  if (ready_fd >= 0) {
    (void)!write(ready_fd, "1", 1);
    close(ready_fd);
  }
  while (!d.stop) {
    d.wake = 0;
    if (d.nqueue == 0) {
      uint64_t deadline = d.idle_ms ? d.last_active + d.idle_ms : 0;
      int r = cli_wait_until(c, &d.wake, deadline);
      if (r == 1) {
        d.stop_reason = "a signal";
        break;
      }
      if (r == -1 && d.nqueue == 0) {
        d.stop_reason = "idle";
        break;
      }
    }
    while (d.nqueue > 0) {
      int conn = d.queue[0];
      memmove(d.queue, d.queue + 1, --d.nqueue * sizeof *d.queue);
      serve(&d, conn);
      d.last_active = mcphost_now_ms();
    }
  }
  /* No new caller from here: the socket goes first, then the queue is
   * told to run its commands itself. */
  mcphost_unwatch(c->api, d.lw);
  unlink(p->socket);
  for (int conn; (conn = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC)) >= 0;) {
    d.queue = xrealloc(d.queue, (d.nqueue + 1) * sizeof *d.queue);
    d.queue[d.nqueue++] = conn;
  }
  while (d.pending) {
    pending_conn *pc = d.pending;
    d.pending = pc->next;
    mcphost_unwatch(c->api, pc->w);
    d.queue = xrealloc(d.queue, (d.nqueue + 1) * sizeof *d.queue);
    d.queue[d.nqueue++] = pc->fd;
    free(pc);
  }
  for (size_t i = 0; i < d.nqueue; i++) {
    reply_text(d.queue[i], "retry");
    close(d.queue[i]);
  }
  if (d.watch_timer) {
    mcphost_timer_cancel(c->api, d.watch_timer);
  }
  char why[64];
  snprintf(why, sizeof why, "session ends: %s",
           d.stop_reason ? d.stop_reason : "stopped");
  mcphost_log(c->api, MCPHOST_LOG_INFO, "session", why, NULL);
  mcphost_interrupt_clear(c->api);
  /* Before the lock goes: stop waits on it. */
  mcphost_client_shutdown(c->api);
  for (size_t i = 0; i < d.nfiles; i++) {
    free(d.files[i].path);
  }
  free(d.files);
  free(d.queue);
  return EXIT_OK;
}
