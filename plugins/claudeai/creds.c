#include "creds.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trusted_fs.h"

/* A credentials file is a few hundred bytes; a bigger one is not it. */
#define CREDS_MAX_BYTES (1024 * 1024)

/* a followed by b: a new string, or NULL. */
static char *concat(const char *a, const char *b) {
  char *s = NULL;
  return asprintf(&s, "%s%s", a, b) < 0 ? NULL : s;
}

void creds_init(creds *c, const char *home) {
  memset(c, 0, sizeof *c);
  const char *env = getenv("MCPHOST_CLAUDE_CREDENTIALS");
  const char *dir = getenv("CLAUDE_CONFIG_DIR");
  if (env && *env) {
    c->path = concat(env, "");
  } else if (dir && *dir) {
    c->path = concat(dir, "/.credentials.json");
  } else {
    c->path = concat(home ? home : "", "/.claude/.credentials.json");
  }
  snprintf(c->error, sizeof c->error, "not read yet");
}

void creds_wipe_free(char *secret) {
  if (secret) {
    explicit_bzero(secret, strlen(secret));
    free(secret);
  }
}

static void clear_token(creds *c) {
  creds_wipe_free(c->token);
  creds_wipe_free(c->bearer);
  c->token = c->bearer = NULL;
  c->has_scope = false;
  c->expires_at = 0;
}

void creds_free(creds *c) {
  clear_token(c);
  free(c->path);
  c->path = NULL;
}

/* Reads the whole file open on `fd` (closed here); NULL with c->error. */
static char *slurp(creds *c, int fd, size_t *len) {
  char *buf = NULL;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    snprintf(c->error, sizeof c->error, "cannot read %s: %s", c->path,
             strerror(errno));
    goto out;
  }
  /* The login of the user's claude.ai account: the rule of every secret
   * file (Claude Code writes it 0600), so that another user can neither
   * read it nor plant a token of theirs. */
  if (trusted_fs_check_secret(&st, c->path, c->error, sizeof c->error) != 0) {
    goto out;
  }
  if (st.st_size > CREDS_MAX_BYTES) {
    snprintf(c->error, sizeof c->error, "%s is over %d bytes", c->path,
             CREDS_MAX_BYTES);
    goto out;
  }
  buf = malloc((size_t)st.st_size + 1);
  size_t n = 0;
  while (buf && n < (size_t)st.st_size) {
    ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
    if (r < 0 && errno == EINTR) {
      continue;
    }
    if (r <= 0) {
      break;
    }
    n += (size_t)r;
  }
  if (!buf) {
    snprintf(c->error, sizeof c->error, "out of memory reading %s", c->path);
    goto out;
  }
  buf[n] = '\0';
  *len = n;
out:
  close(fd);
  return buf;
}

void creds_parse(creds *c, const char *text, size_t len) {
  cJSON *doc = cJSON_ParseWithLength(text, len);
  const cJSON *oauth = cJSON_GetObjectItemCaseSensitive(doc, "claudeAiOauth");
  const cJSON *tok = cJSON_GetObjectItemCaseSensitive(oauth, "accessToken");
  if (!doc) {
    snprintf(c->error, sizeof c->error, "%s is not valid JSON", c->path);
    goto out;
  }
  if (!cJSON_IsObject(oauth)) {
    snprintf(c->error, sizeof c->error,
             "%s has no \"claudeAiOauth\" object (not logged in to claude.ai "
             "in Claude Code)",
             c->path);
    goto out;
  }
  if (!cJSON_IsString(tok) || !tok->valuestring[0] ||
      strpbrk(tok->valuestring, "\r\n")) {
    snprintf(c->error, sizeof c->error,
             "%s: \"claudeAiOauth.accessToken\" is missing or not a token",
             c->path);
    goto out;
  }
  c->token = strdup(tok->valuestring);
  c->bearer = concat("Bearer ", tok->valuestring);
  if (!c->token || !c->bearer) {
    clear_token(c);
    snprintf(c->error, sizeof c->error, "out of memory reading %s", c->path);
    goto out;
  }
  const cJSON *exp = cJSON_GetObjectItemCaseSensitive(oauth, "expiresAt");
  c->expires_at = cJSON_IsNumber(exp) ? exp->valuedouble : 0;
  /* An array of names; an object's values are no scopes. */
  const cJSON *scopes = cJSON_GetObjectItemCaseSensitive(oauth, "scopes");
  const cJSON *s;
  if (!cJSON_IsArray(scopes)) {
    scopes = NULL;
  }
  cJSON_ArrayForEach(s, scopes) {
    if (cJSON_IsString(s) && strcmp(s->valuestring, CREDS_SCOPE) == 0) {
      c->has_scope = true;
    }
  }
  c->error[0] = '\0';
out:
  cJSON_Delete(doc);
}

bool creds_refresh(creds *c) {
  if (!c->path) {
    snprintf(c->error, sizeof c->error, "out of memory");
    return false;
  }
  struct stat st;
  bool seen = stat(c->path, &st) == 0;
  if (seen && c->seen && st.st_mtim.tv_sec == c->mtime.tv_sec &&
      st.st_mtim.tv_nsec == c->mtime.tv_nsec && st.st_size == c->size &&
      st.st_ino == c->ino) {
    return false; /* unchanged: the cached reading stands */
  }
  char *before = c->token ? strdup(c->token) : NULL;
  clear_token(c);
  c->seen = seen;
  if (seen) {
    c->mtime = st.st_mtim;
    c->size = st.st_size;
    c->ino = st.st_ino;
  }
  int fd = seen ? open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : -1;
  if (fd < 0) {
    snprintf(c->error, sizeof c->error, "cannot read %s: %s", c->path,
             strerror(errno));
  } else {
    size_t len = 0;
    char *text = slurp(c, fd, &len);
    if (text) {
      creds_parse(c, text, len);
      explicit_bzero(text, len); /* the refresh token is in it too */
    }
    free(text);
  }
  bool changed = (before == NULL) != (c->token == NULL) ||
                 (before && strcmp(before, c->token) != 0);
  creds_wipe_free(before);
  return changed;
}
