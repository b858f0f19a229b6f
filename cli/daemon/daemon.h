/* mcphost session: a background process of the user that owns the
 * connections (one mcp_client) for one configuration and runs the
 * commands of that user and configuration in itself, so that servers
 * keep their state between commands (docs/sessions.md).
 *
 * Life of a command through a session:
 *   caller (daemon_forward.c)         session process (daemon.c)
 *   main: is this a command line a     accepts (the peer's uid checked),
 *   session serves? its key, its       queues the connection; one command
 *   socket; connect; check the peer;   at a time, in order (daemon_run.c):
 *   send argv, cwd, environ and fds    stdin/stdout/stderr become the
 *   0, 1, 2 (SCM_RIGHTS); wait,        caller's, environ and cwd too;
 *   passing SIGINT/SIGTERM/SIGHUP on   cli_main runs the command against
 *   as one byte each                   the kept host and client; the exit
 *   exit with the status it sends      code goes back; all is restored.
 *
 * The key: the user, the working directory, the environment that finds
 * configuration files and plugins, and the global options that select
 * servers or change what the connections are (--mcp-config, --server,
 * --url, --transport, --strict-mcp-config, --approve-project,
 * --plugin-dir, --root, --no-roots, --sanitize, --log-level), as given.
 * Its digest names the socket: one session per user and configuration.
 * Single-threaded, loop thread, like the rest of the CLI. */
#ifndef MCPHOST_CLI_DAEMON_H
#define MCPHOST_CLI_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"

/* What a command run in a session shares with the session process: its
 * client (plugins loaded, configuration read). */
typedef struct cli_shared {
  mcphost_client *api;
  struct cli *owner;   /* the cli that made it: its questions' queue */
} cli_shared;

/* main.c: runs one command line; with `shared` (not NULL), against that
 * host and client, which outlive it. Returns the exit code. */
int cli_main(int argc, char **argv, const cli_shared *shared);

/* daemon_forward.c: when the command line is one a session runs (a
 * command that talks to servers, options all known), --no-session and
 * MCPHOST_NO_SESSION are not given, and a session of this user and key
 * runs, runs it there and returns its exit code; else -1: run it here.
 * A stale socket found on the way is removed. */
int daemon_forward(int argc, char **argv);

/* daemon_cmd.c: mcphost session start|stop|status */
int cmd_session(cli *c, int argc, char **argv);

/* ---- daemon_key.c: where the session of a command line lives ---- */
typedef struct daemon_place {
  char *dir;    /* the private directory of the user's sessions */
  char *socket; /* dir/session-DIGEST.sock */
  char *lock;   /* dir/session-DIGEST.lock: held while the process runs */
  char digest[17];
} daemon_place;

/* Scans the global options of `argv` (before the command) by getopt's
 * rules. Returns the index of the command word, or -1 when the line
 * cannot run in a session: an option it does not know (a plugin's, an
 * abbreviation), --no-session, --help, --version, no command. Fills
 * *place (daemon_place_free) from the key, when `place` is not NULL. */
int daemon_key_scan(int argc, char **argv, daemon_place *place);
/* The private directory of the user's sessions (daemon_place.dir), from
 * the environment alone: a new string. */
char *daemon_place_dir(void);
/* Opens the directory (created 0700 when `create`; checked by
 * trusted_fs either way) and returns its fd, or -1 with `why` filled
 * (errno ENOENT: it does not exist). */
int daemon_place_open_dir(const daemon_place *p, bool create, char *why,
                          size_t why_len);
void daemon_place_free(daemon_place *p);
/* Whether a process holds the place's lock (a session runs). */
bool daemon_place_locked(const daemon_place *p);

/* ---- daemon_wire.c: the messages on the socket ---- */
/* A caller's first bytes: "MCPHS1" and a type. */
enum {
  DAEMON_RUN = 'R',    /* run a command line; fds 0, 1, 2 attached */
  DAEMON_STATUS = 'Q', /* answered with status JSON text */
  DAEMON_STOP = 'S'    /* answered with "ok" once stopping */
};
#define DAEMON_NFDS 4
/* A command line to run: what the caller sends with DAEMON_RUN. */
typedef struct daemon_request {
  int type;
  char *cwd;
  int argc;
  char **argv; /* NULL-terminated */
  char **env;  /* NULL-terminated, as environ */
  /* The caller's stdin, stdout, stderr and terminal (/dev/tty), or -1. */
  int fds[DAEMON_NFDS];
  char *blob;    /* owns the strings above */
  char *tty_env; /* MCPHOST_TTY=... added to env (daemon_run.c) */
} daemon_request;
/* Sends a request of `type` on `fd`; for DAEMON_RUN with the cwd,
 * argv, environ and fds 0-2 of this process, and its terminal
 * (terminal_open.h) when it has one. Returns 0 or -1 with errno
 * set. Blocking. */
int daemon_send_request(int fd, int type, int argc, char **argv);
/* Reads one request (blocking; the socket has a receive timeout).
 * Returns 0, or -1 with `why` filled. Free with daemon_request_free. */
int daemon_recv_request(int fd, daemon_request *r, char *why, size_t why_len);
void daemon_request_free(daemon_request *r);
/* A reply: a 32-bit length and that many bytes (exit code as text for
 * DAEMON_RUN). Blocking; returns 0 or -1. */
int daemon_send_reply(int fd, const char *text, size_t len);
/* Reads a reply into a new string (*out). Returns 0, 1 at the end of the
 * stream before a reply, -1 on error. */
int daemon_recv_reply(int fd, char **out);
/* The peer's uid and pid (SO_PEERCRED). Returns 0 or -1. */
int daemon_peer(int fd, uid_t *uid, pid_t *pid);
/* Connects to the place's socket after checking it (a socket of the
 * user, mode 0600) and its peer (the user's). Returns the fd, or -1 with
 * errno (ENOENT: none there; ECONNREFUSED: stale) and `why` filled. */
int daemon_dial(const daemon_place *p, char *why, size_t why_len);

/* ---- daemon_run.c: one forwarded command in the session process ---- */
typedef struct daemon_server daemon_server;
/* Runs `r` (DAEMON_RUN) with cli_main against `shared`, the caller's
 * fds, environ and cwd in place of the process's own, the bytes that
 * come on `conn` meanwhile as signals. Returns the exit code; sets
 * *stop when a signal of the session process's own arrived. */
int daemon_run_command(const cli_shared *shared, int conn, daemon_request *r,
                       bool *stop);

/* ---- daemon.c ---- */
typedef struct daemon_options {
  uint64_t idle_ms; /* 0: never stops for idleness */
} daemon_options;
/* Serves on `listen_fd` until stopped; `ready_fd` (>= 0) gets one byte
 * once it listens and is closed. Returns the exit code of the session
 * process. */
int daemon_run(cli *c, const daemon_place *p, int listen_fd,
               const daemon_options *o, int ready_fd);

#endif
