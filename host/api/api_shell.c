/* The public API for an interactive front end (sdk/include/mcphost/
 * client.h, "an interactive front end"): the client's directories, the
 * loop run by the program (caught up at a prompt, or run until a signal
 * it passed on), the signal its exit reports, and its servers closed
 * before the client is freed. What `mcphost shell`, the command line's
 * exit and batch use. */
#include <mcphost/client.h>

#include "api/api_internal.h"
#include "config/roots.h"
#include "core/host.h"
#include "core/loop.h"

_Static_assert((int)MCPHOST_PATH_CWD == (int)MCPH_PATH_CWD &&
                   (int)MCPHOST_PATH_STATE == (int)MCPH_PATH_STATE &&
                   (int)MCPHOST_PATH_LOGS == (int)MCPH_PATH_LOGS &&
                   (int)MCPHOST_PATH_CACHE == (int)MCPH_PATH_CACHE,
               "the public paths are the plugin ABI's");

const char *mcphost_path(const mcphost_client *c, int which) {
  /* Set once, when the host is made: read from any thread. */
  return c ? host_path(c->h, which) : NULL;
}

int mcphost_root_resolve(const mcphost_client *c, const char *dir, char **abs,
                         mcphost_error *err) {
  api_clear_error(err);
  if (abs)
    *abs = NULL;
  if (!c || !dir || !abs)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL,
                    "mcphost_root_resolve needs a client, a directory and a "
                    "place for the path");
  char why[600];
  *abs =
      roots_resolve_dir(host_path(c->h, MCPH_PATH_CWD), dir, why, sizeof why);
  if (!*abs)
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "--root %s: %s", dir, why);
  return MCPHOST_OK;
}

void mcphost_run_ready(mcphost_client *c) {
  if (!c || c->mode != MCPHOST_LOOP_CALLER)
    return;
  const mcphost_client *was = api_enter_loop(c);
  host_run_ready(c->h);
  api_leave_loop(was);
}

int api_run_loop(mcphost_client *c, const int *done, uint64_t deadline_ms,
                 bool interruptible) {
  if (!c || !done)
    return MCPHOST_EUSAGE;
  if (c->mode != MCPHOST_LOOP_CALLER)
    return MCPHOST_ESTATE;
  const mcphost_client *was = api_enter_loop(c);
  int rc = MCPHOST_OK;
  while (!*done) {
    if (interruptible && host_interrupted(c->h)) {
      rc = MCPHOST_ECANCELED;
      break;
    }
    int wait = -1;
    if (deadline_ms) {
      uint64_t now = loop_now_ms();
      if (now >= deadline_ms) {
        rc = MCPHOST_ETIMEDOUT;
        break;
      }
      wait =
          deadline_ms - now > INT32_MAX ? INT32_MAX : (int)(deadline_ms - now);
    }
    loop_run_once(host_loop(c->h), wait);
  }
  api_leave_loop(was);
  return rc;
}

int mcphost_run_interruptible(mcphost_client *c, const int *done,
                              uint64_t deadline_ms) {
  return api_run_loop(c, done, deadline_ms, true);
}

int mcphost_exit_signal(const mcphost_client *c) {
  return c ? host_signal_number(c->h) : 0;
}

void mcphost_interrupt_forget(mcphost_client *c) {
  if (c)
    host_forget_signal(c->h);
}

static void shutdown_on_loop(void *ud) {
  api_client_close(ud);
}

void mcphost_shutdown(mcphost_client *c) {
  if (!c)
    return;
  if (c->mode != MCPHOST_LOOP_CALLER) {
    api_run_on_loop(c, shutdown_on_loop, c);
    return;
  }
  /* As mcphost_client_free: what was started and not begun yet begins,
   * and ends cancelled. */
  const mcphost_client *was = api_enter_loop(c);
  c->closing = true;
  loop_run_once(host_loop(c->h), 0);
  api_client_close(c);
  api_leave_loop(was);
}
