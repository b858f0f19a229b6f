/*
 * "headersHelper": a command that prints the headers of a remote server
 * (http, sse, ws) as one JSON object of strings on stdout, run before the
 * transport connects. Its headers are merged over the configured
 * "headers" (remote_config_merge_headers()).
 *
 * The command is split into words as a shell would (split_words.h) and
 * run without a shell, in a process group of its own, stdin /dev/null,
 * with the environment of mcphost plus CLAUDE_CODE_MCP_SERVER_NAME and
 * CLAUDE_CODE_MCP_SERVER_URL (as Claude Code sets them). It has
 * HEADERS_HELPER_TIMEOUT_MS to exit 0; its stdout is bounded
 * (HEADERS_HELPER_MAX_OUTPUT), its stderr's first line quoted in a
 * failure.
 *
 * Trust: a helper runs only for a server the host starts, and the host
 * starts a project (.mcp.json) server only once it is approved, the
 * approval bound to the entry's text, headersHelper included
 * (docs/security.md). Local and user scopes are the user's own files.
 *
 * Loop thread only. Nothing blocks: the pipes are host fd watches, the
 * deadline a host timer, the exit polled with WNOHANG (never SIGCHLD,
 * which is the host's).
 */
#ifndef MCPH_HEADERS_HELPER_H
#define MCPH_HEADERS_HELPER_H

#include <stddef.h>

#include <mcphost/host.h>

#define HEADERS_HELPER_TIMEOUT_MS 10000u
#define HEADERS_HELPER_MAX_OUTPUT ((size_t)1 << 20)

typedef struct headers_helper headers_helper;

/* [loop] The helper finished. `code` is 0 with its stdout in `out`
 * (`len` bytes, NUL-terminated, borrowed for the call), or an MCPH_E*
 * code with `message` naming the server and the command ("server \"s\":
 * headersHelper \"get-token\" exited with status 3: no token"). Called
 * from the loop, never from inside headers_helper_start(); the helper is
 * freed after it returns (do not cancel it then). */
typedef void (*headers_helper_cb)(void *ud, int code, const char *message,
                                  const char *out, size_t len);

/* [loop] Starts `command` for the server `server` whose URL (redacted) is
 * `display_url`. Returns 0 and sets *out, or an MCPH_E* code with the
 * reason in `err` (an empty command, an unterminated quote, a program
 * that cannot be started): then nothing runs and `cb` is never called. */
int headers_helper_start(const mcph_host *host, const char *server,
                         const char *display_url, const char *command,
                         headers_helper_cb cb, void *ud, headers_helper **out,
                         mcph_error *err);

/* The one form of a helper's failure, into `buf` (always NUL-terminated):
 * "server \"S\": headersHelper \"CMD\" WHY", the command escaped
 * (text_escape.h) and cut at 300 bytes. For the helper's own failures and
 * for a transport whose merge of the helper's output failed. Any thread. */
void headers_helper_message(char *buf, size_t size, const char *server,
                            const char *command, const char *why);

/* [loop] Stops a helper that has not called back (SIGKILL to its group)
 * and frees it; `cb` is not called. NULL is fine. */
void headers_helper_cancel(headers_helper *h);

#endif
