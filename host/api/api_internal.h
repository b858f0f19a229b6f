/* What the files of the client API (host/api/) share: the client's
 * record, the check of a caller's struct_size and the error setter. Not
 * a public header: the API is sdk/include/mcphost/client.h. */
#ifndef MCPHOST_API_INTERNAL_H
#define MCPHOST_API_INTERNAL_H

#include <mcphost/client.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/host.h"
#include "mcp/calls.h"
#include "mcp/client.h"

/* A field of a caller's struct is read only when its struct_size covers
 * it (abi.h's MCPH_HAS, for this header's structs). */
#define API_HAS(ptr, type, field)                                              \
  ((size_t)(ptr)->struct_size >=                                               \
   offsetof(type, field) + sizeof(((type *)0)->field))

typedef struct api_op api_op;
typedef struct api_names {
  size_t n;
  char **names; /* NULL-terminated (api_copy_strings) */
  struct api_names *older;
} api_names;
typedef struct api_ask api_ask;

struct mcphost_client {
  int mode;
  host *h;
  mcp_client *mc;
  /* The sources mcphost_set_config_sources gave, or NULL: the host's
   * (api_config.c). */
  const config_sources *sources;
  /* The configured servers' names, for any thread: the list of the
   * configuration now (swapped when it is read again), the older ones
   * kept until the client is freed (a name given out stays valid). */
  struct api_names *_Atomic names;
  char **plugin_dirs, **configs; /* the options' strings, copied */
  mcphost_notify_fn on_notify;
  mcphost_request_fn on_request;
  mcphost_ask_fn on_ask;
  mcphost_ask_end_fn on_ask_end;
  mcphost_state_fn on_state;
  void *ud;
  _Atomic int64_t next_id;
  /* Operations started and not ended (begun on the loop or not yet):
   * what mcphost_perform says is still running. */
  _Atomic int nops;
  uint64_t next_ask;
  uint64_t ask_timeout_ms; /* without the program's question */
  mcp_asker asker;
  char **allow; /* "allow" patterns (NULL-terminated), or NULL */
  size_t nallow;
  /* Loop thread only: */
  api_op *ops;                   /* live operations */
  mcphost_server_request *taken; /* requests the program took */
  api_ask *asks;                 /* permission questions open */
  mcphost_inproc *inprocs;       /* in-process servers registered */
  uint64_t next_inproc;
  bool closing;                  /* mcphost_client_free began */
  struct api_command *command;   /* mcphost_command_run's, or NULL */
  /* MCPHOST_LOOP_THREAD */
  pthread_t thread;
  bool started;
  volatile bool stop;
  /* A front end's (api_frontend.c): the configuration loaded or not
   * (defer_config), the sources it came from and the options set, copied
   * (the host and the MCP client borrow them). */
  bool config_loaded;
  size_t nconfig_errors;
  config_sources src;
  char **specs, **urls, *url_type;
  char *protocol, *log_level;
  cJSON *capabilities; /* the option "capabilities", or NULL */
  char **roots;
  size_t nroots;
  mcphost_option_info *popts; /* the plugins' options, read once */
  size_t npopts;
  bool popts_read;
  bool bind_approvals;               /* mcphost_config_sources.bind_approvals */
  /* mcphost_set_config_sources's, copied (c->sources points here). */
  config_sources set_src;
  char **set_specs, **set_urls, **set_configs, *set_url_type;
};

/* Defined in libmcphost.so.1 alone (api_shared.c): its address is NULL
 * where the API's objects are linked into an executable. */
extern const char api_shared_library __attribute__((weak));

/* Sets the caller's error, when it gave one with a size that covers the
 * fields; returns `code`. */
int api_fail(mcphost_error *err, int code, int rpc_code, const char *server,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Clears the caller's error (MCPHOST_OK, empty message and server). */
void api_clear_error(mcphost_error *err);
/* The API's code of a library error kind. */
int api_status_of_kind(mcp_error_kind kind);
/* Runs fn(ud) on the loop and returns when it has run: at once when this
 * thread may (the loop's own, the caller's in MCPHOST_LOOP_CALLER mode),
 * else posted to the loop's thread and waited for. 0, or -1 when it
 * could not be posted (fn did not run). */
int api_run_on_loop(mcphost_client *c, void (*fn)(void *), void *ud);
/* Whether this thread is the library's own loop thread
 * (MCPHOST_LOOP_THREAD): a [not loop] function must not wait there. */
bool api_on_loop_thread(const mcphost_client *c);

/* Runs fn(ud) on the client's loop and returns when it has run: here
 * when this thread may, else posted to the loop's thread and waited for.
 * 0, or -1 when it could not be posted. */
int api_run_on_loop(mcphost_client *c, void (*fn)(void *), void *ud);
/* This thread runs `c`'s loop from now (mcphost_perform, a waiting
 * call): returns the client it ran before, for api_leave_loop. */
const mcphost_client *api_enter_loop(const mcphost_client *c);
void api_leave_loop(const mcphost_client *was);

/* api_status.c: the configured server `name` (mcphost_server_find's
 * rule) in *idx, or MCPHOST_ENOTFOUND with the message naming it and the
 * closest names. On the loop. */
int api_find_server(mcphost_client *c, const char *name, size_t *idx,
                    mcphost_error *err);

/* A NULL-terminated copy of `n` strings (NULL ones as ""), freed with
 * api_free_strings (NULL is fine). */
char **api_copy_strings(const char *const *v, size_t n);
void api_free_strings(char **v);

/* api_permission.c: the client's asker (c->asker, its ud the client:
 * the "allow" patterns, then the permission plugins and the program's
 * question); the options "allow" and "ask-timeout" (mcphost_set_option,
 * on the loop). Nothing of it runs until a rule asks or the options are
 * set: a command that does neither never touches its pages. */
void *api_ask_start(void *ud, const mcp_ask *q, mcp_ask_answer_fn answer,
                    void *token);
void api_ask_cancel(void *ud, void *handle);
/* api_ask_start for operation `op` (mcphost_start's id; 0: none), which
 * the program's question names (mcphost_ask_info.op). */
void *api_ask_start_op(mcphost_client *c, int64_t op, const mcp_ask *q,
                       mcp_ask_answer_fn answer, void *token);
int api_set_allow(mcphost_client *c, const char *pattern, mcphost_error *err);
int api_set_ask_timeout(mcphost_client *c, const char *ms, mcphost_error *err);

/* api_frontend.c, for mcphost_client_new and mcphost_load_config: the
 * sources given checked alone (with `h`, the transport type against its
 * plugins too), every error in err->message, one line each; then the
 * scopes loaded into the client's host (src borrowed for the client's
 * life); then the client's thread started (MCPHOST_LOOP_THREAD). */
/* `docs` (or NULL): the --mcp-config documents read, for the load that
 * follows (config_check_dynamic); NULL when the check failed. */
int api_config_check(host *h, const config_sources *src, cJSON ***docs,
                     mcphost_error *err);
void api_config_load(mcphost_client *c, const config_sources *src);
int api_client_start(mcphost_client *c, mcphost_error *err);
/* The configuration was loaded or read again (on the loop): the names
 * of its servers for mcphost_server_name, then the front end's hook. */
void api_config_loaded(void *ud, const config *cfg);
/* [not loop] Ends every operation and answers every request taken,
 * then closes the servers (mcphost_client_free's start, the thread left
 * running); the client takes no new operation. */
void api_client_close(mcphost_client *c);
/* api_shell.c: runs the loop (MCPHOST_LOOP_CALLER mode, as its thread)
 * until *done or the deadline (mcphost_now_ms; 0: none), and with
 * `interruptible` until a signal the program passed on
 * (mcphost_interrupt) too: mcphost_run_until and
 * mcphost_run_interruptible. */
int api_run_loop(mcphost_client *c, const int *done, uint64_t deadline_ms,
                 bool interruptible);
/* api_shell.c: the approvals of `cfg` given without a record bound to
 * what they approve (config_bind_approvals), in the user settings of
 * the client's sources; a failure said on its log. */
void api_bind_approvals(mcphost_client *c, const config *cfg);
/* api_shell.c: a caller's sources checked (struct_size, a count without
 * its array): MCPHOST_OK, or the error set. */
int api_sources_check(const mcphost_config_sources *s, mcphost_error *err);
/* api_shell.c: mcphost_client_free's share of what it copied. */
void api_shell_free(mcphost_client *c);
/* mcphost_client_free's share: what api_frontend.c copied. */
void api_frontend_free(mcphost_client *c);

#endif
