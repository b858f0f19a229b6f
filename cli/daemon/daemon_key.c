/* The key of a command line's session and where that session listens
 * (daemon.h): the options scanned as getopt would, the digest, the
 * private directory. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli/daemon/daemon.h"
#include "fnv.h"
#include "trusted_fs.h"
#include "util.h"

/* The environment that finds configuration files and plugins. */
static const char *const key_env[] = {"HOME",
                                      "XDG_CONFIG_HOME",
                                      "MCPHOST_SYSTEM_CONFIG_DIR",
                                      "MCPHOST_PLUGIN_PATH",
                                      "MCPHOST_APPROVE_PROJECT_SERVERS",
                                      "CLAUDE_CONFIG_DIR",
                                      "ENABLE_CLAUDEAI_MCP_SERVERS"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One option met: 1 taken, 0 not one a session may run with. Those
 * that select servers or shape the connections are part of the key
 * (options.c says which); the others are the command's business. */
static int take_option(strbuf *key, const cli_option *o, const char *value) {
  if (o->session == CLI_SESSION_KEY) {
    sb_printf(key, "%s=", o->name); /* an alias as its option */
    sb_add(key, value ? value : "", value ? strlen(value) + 1 : 1);
    return 1;
  }
  return o->session == CLI_SESSION_COMMAND ? 1 : 0;
}

/* A cluster of short options ("-qv", "-cFILE", "-c FILE"); returns false
 * when it holds one a session does not run with. */
static bool take_shorts(strbuf *key, int argc, char **argv, int *i) {
  const char *w = argv[*i];
  for (size_t k = 1; w[k]; k++) {
    const cli_option *o = cli_option_short(w[k]);
    if (!o) {
      return false;
    }
    if (o->arg) {
      const char *v = w[k + 1] ? w + k + 1 : *i + 1 < argc ? argv[++*i] : NULL;
      return v && take_option(key, o, v);
    }
    if (!take_option(key, o, NULL)) {
      return false;
    }
  }
  return true;
}

char *daemon_place_dir(void) {
  const char *run = getenv("XDG_RUNTIME_DIR");
  const char *tmp = getenv("TMPDIR");
  if (run && run[0] == '/') {
    return path_join(run, "mcphost");
  }
  return xasprintf("%s/mcphost-%u", tmp && tmp[0] == '/' ? tmp : "/tmp",
                   (unsigned)geteuid());
}

static void place_fill(daemon_place *p, const strbuf *key) {
  snprintf(p->digest, sizeof p->digest, "%016llx",
           (unsigned long long)fnv1a64(key->data ? key->data : "", key->len));
  p->dir = daemon_place_dir();
  p->socket = xasprintf("%s/session-%s.sock", p->dir, p->digest);
  p->lock = xasprintf("%s/session-%s.lock", p->dir, p->digest);
}

int daemon_key_scan(int argc, char **argv, daemon_place *place) {
  strbuf key;
  sb_init(&key);
  int cmd = -1;
  for (int i = 1; i < argc; i++) {
    char *w = argv[i];
    if (strcmp(w, "--") == 0) {
      cmd = i + 1 < argc ? i + 1 : -1;
      break;
    }
    if (w[0] != '-' || w[1] == '\0') {
      cmd = i;
      break;
    }
    if (w[1] != '-') {
      if (!take_shorts(&key, argc, argv, &i)) {
        goto out;
      }
      continue;
    }
    size_t n = (size_t)(strchrnul(w + 2, '=') - (w + 2));
    const cli_option *o = cli_option_named(w + 2, n);
    if (!o) {
      goto out; /* a plugin's option, or an abbreviation */
    }
    const char *v = NULL;
    if (o->arg) {
      v = w[2 + n] == '=' ? w + 3 + n : i + 1 < argc ? argv[++i] : NULL;
      if (!v) {
        goto out;
      }
    } else if (w[2 + n] == '=') {
      goto out;
    }
    if (!take_option(&key, o, v)) {
      goto out;
    }
  }
  if (cmd < 0) {
    goto out;
  }
  if (place) {
    char cwd[4096];
    sb_printf(&key, "uid=%u", (unsigned)geteuid());
    sb_addc(&key, '\0');
    sb_printf(&key, "cwd=%s", getcwd(cwd, sizeof cwd) ? cwd : "?");
    sb_addc(&key, '\0');
    for (size_t k = 0; k < COUNT(key_env); k++) {
      const char *e = getenv(key_env[k]);
      sb_printf(&key, "%s%s%s", key_env[k], e ? "=" : "", e ? e : "");
      sb_addc(&key, '\0');
    }
    place_fill(place, &key);
  }
out:
  sb_free(&key);
  return cmd;
}

int daemon_place_open_dir(const daemon_place *p, bool create, char *why,
                          size_t why_len) {
  return trusted_fs_open_dir(
      p->dir, TRUSTED_FS_PRIVATE | (create ? TRUSTED_FS_CREATE : 0u), why,
      why_len);
}

bool daemon_place_locked(const daemon_place *p) {
  int fd = open(p->lock, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    return false;
  }
  bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  close(fd); /* a shared lock we took goes with the fd */
  return held;
}

void daemon_place_free(daemon_place *p) {
  free(p->dir);
  free(p->socket);
  free(p->lock);
  memset(p, 0, sizeof *p);
}
