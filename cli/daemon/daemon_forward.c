/* The caller's side of a command run in a session (daemon.h): find the
 * session, hand it the command line and fds 0-2, pass signals on as
 * bytes, and exit with the status it sends. Nothing of the host is made
 * here: a command through a session costs a connect and a round trip. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "util.h"

/* The commands that talk to servers and run the same in a session
 * (`subscribe` runs until Ctrl-C and would hold the session: it runs
 * directly). */
static const char *const daemon_commands[] = {
    "servers", "tools",  "resources", "prompts", "tool",     "ping", "call",
    "read",    "prompt", "batch",     "grep",    "complete", "task"};

static bool daemon_command(const char *word) {
  for (size_t i = 0; i < sizeof daemon_commands / sizeof *daemon_commands;
       i++) {
    if (strcmp(word, daemon_commands[i]) == 0) {
      return true;
    }
  }
  return false;
}

static bool bypassed(int argc, char **argv) {
  const char *env = getenv("MCPHOST_NO_SESSION");
  if (env && *env && strcmp(env, "0") != 0) {
    return true;
  }
  for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--no-session") == 0) {
      return true;
    }
  }
  return false;
}

/* Whether a word of the line could be the command of one run in a
 * session (the scan below says whether it is): a lone --version or
 * --help is not looked at further. */
static bool may_forward(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] != '-' &&
        (daemon_command(argv[i]) || strcmp(argv[i], "session") == 0)) {
      return true;
    }
  }
  return false;
}

/* Waits for the status, passing SIGINT, SIGTERM and SIGHUP on. */
static int wait_status(int fd, const daemon_place *p) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigprocmask(SIG_BLOCK, &set, &old);
  int sfd = signalfd(-1, &set, SFD_CLOEXEC);
  int rc = -1;
  for (;;) {
    struct pollfd pf[2] = {{.fd = fd, .events = POLLIN},
                           {.fd = sfd, .events = POLLIN}};
    if (poll(pf, sfd >= 0 ? 2 : 1, -1) < 0) {
      if (errno == EINTR) {
        continue;
      }
      break;
    }
    if (sfd >= 0 && (pf[1].revents & POLLIN)) {
      struct signalfd_siginfo si;
      if (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        char b = (char)si.ssi_signo;
        (void)!write(fd, &b, 1); /* a session gone shows on `fd` */
      }
    }
    if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      char *reply = NULL;
      if (daemon_recv_reply(fd, &reply) == 0) {
        char *end;
        long v = strtol(reply, &end, 10);
        rc = *end == '\0' && v >= 0 && v < 256 ? (int)v : -1;
        if (strcmp(reply, "retry") == 0) {
          rc = -2; /* it stopped before our turn: run it here */
        } else if (rc < 0) {
          fprintf(stderr,
                  "mcphost: the session (%s) refused the command: "
                  "%s\n",
                  p->socket, reply);
          rc = EXIT_SERVER;
        }
      }
      free(reply);
      break;
    }
  }
  if (rc == -1) {
    fprintf(stderr,
            "mcphost: the session process ended before the command "
            "finished (%s); the next command runs without it\n",
            p->socket);
    rc = EXIT_SERVER;
  }
  if (sfd >= 0) {
    close(sfd);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return rc;
}

int daemon_forward(int argc, char **argv) {
  if (bypassed(argc, argv) || !may_forward(argc, argv)) {
    return -1;
  }
  /* No session was ever started here (the directory of the sessions is
   * missing): the command line is not keyed (22 K instructions), nor its
   * socket looked for, on every start. */
  char *sessions = daemon_place_dir();
  bool none = path_missing(sessions);
  free(sessions);
  if (none) {
    return -1;
  }
  daemon_place p = {0};
  int cmd = daemon_key_scan(argc, argv, &p);
  int rc = -1, fd = -1;
  /* `session reconnect` is run by the session, on its connections. */
  bool reconnect = cmd >= 0 && cmd + 1 < argc &&
                   strcmp(argv[cmd], "session") == 0 &&
                   strcmp(argv[cmd + 1], "reconnect") == 0;
  if (cmd < 0 || (!daemon_command(argv[cmd]) && !reconnect)) {
    goto out;
  }
  /* No session listens here (its socket is missing, as is the directory
   * of the sessions when none was ever started): one lstat, not the
   * directory's checked walk from "/", on every start. */
  if (path_missing(p.socket)) {
    goto out;
  }
  for (int i = 0; i < 3; i++) {
    if (fcntl(i, F_GETFD) < 0) {
      goto out; /* a closed std fd cannot be handed over */
    }
  }
  char why[600];
  int dir = daemon_place_open_dir(&p, false, why, sizeof why);
  if (dir < 0) {
    goto out; /* no session was ever started here */
  }
  close(dir);
  fd = daemon_dial(&p, why, sizeof why);
  if (fd < 0) {
    if (errno == ECONNREFUSED && !daemon_place_locked(&p)) {
      unlink(p.socket); /* stale: its process is gone */
    }
    goto out;
  }
  if (daemon_send_request(fd, DAEMON_RUN, argc, argv) != 0) {
    goto out; /* nothing ran: run it here */
  }
  rc = wait_status(fd, &p);
  if (rc == -2) {
    rc = -1;
  }
out:
  if (fd >= 0) {
    close(fd);
  }
  daemon_place_free(&p);
  return rc;
}
