/* The claude.ai login of Claude Code, read-only: claudeAiOauth of its
 * credentials file (MCPHOST_CLAUDE_CREDENTIALS, else
 * $CLAUDE_CONFIG_DIR/.credentials.json, else ~/.claude/.credentials.json).
 * mcphost never refreshes nor writes that token: Claude Code owns it.
 *
 * The file is read again only when its mtime, size or inode changed
 * (Claude Code's own cross-process staleness rule), so a token that
 * another process rotated is seen at the next refresh. No message here
 * ever holds the token. Loop thread. */
#ifndef MCPHOST_CLAUDEAI_CREDS_H
#define MCPHOST_CLAUDEAI_CREDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* The scope a token needs for the connectors. */
#define CREDS_SCOPE "user:mcp_servers"

typedef struct creds {
  char *path; /* the file, resolved once */
  bool seen;  /* a stat of it succeeded at the last refresh */
  struct timespec mtime;
  off_t size;
  ino_t ino;
  char *token;       /* claudeAiOauth.accessToken, or NULL */
  char *bearer;      /* "Bearer <token>", or NULL */
  bool has_scope;    /* claudeAiOauth.scopes includes CREDS_SCOPE */
  double expires_at; /* claudeAiOauth.expiresAt (ms since 1970), or 0 */
  char error[512];   /* why there is no token; "" when there is one */
} creds;

/* Resolves the path (`home`: the user's home, may be NULL). */
void creds_init(creds *c, const char *home);
void creds_free(creds *c);

/* Frees a copy of the token (or of its Authorization value), wiping it
 * first; NULL is fine. */
void creds_wipe_free(char *secret);

/* Reads the file again when it changed since the last call (always the
 * first time). Returns true when the token differs from before. */
bool creds_refresh(creds *c);

/* Reads the token of the file's text (`len` bytes), its token cleared
 * before: the token, its scope and expiry, or c->error naming c->path. */
void creds_parse(creds *c, const char *text, size_t len);

#endif
