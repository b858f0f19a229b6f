/*
 * mcphost plugin ABI — the user-interaction service, "mcph.host.ui/1"
 * (ABI 1.6).
 *
 * A plugin asks the person at the terminal a question, has a URL opened
 * in their browser (an OAuth sign-in), or shows progress, without
 * touching the terminal itself. Everything is shown on stderr, named
 * after the calling plugin, with control characters shown as escapes,
 * never obeyed. When interactive() is 0 (stdin and stderr are not both
 * terminals), ask and open_url refuse with MCPH_ENOTSUP and progress
 * shows nothing.
 *
 * Threads: everything [loop].
 */
#ifndef MCPHOST_UI_H
#define MCPHOST_UI_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_SERVICE_UI "mcph.host.ui/1"

typedef struct mcph_ui_ask mcph_ui_ask; /* one question (the host's) */

/* [loop] The answer: the line typed, without its newline (borrowed for
 * the call; at most 1023 bytes, a longer line is cut), or NULL with `err`
 * (MCPH_ECLOSED: the input ended). When it runs, the question's handle
 * is already dead (do not cancel it) and another question may be
 * asked from inside. */
typedef void (*mcph_ui_answer_cb)(void *ud, const char *answer,
                                  const mcph_error *err);

typedef struct mcph_host_ui {
  uint32_t struct_size; /* sizeof(mcph_host_ui) as the host built it */

  /* [loop] Whether a person is at a terminal to ask (stdin and stderr
   * are both terminals): the one way to ask it. (mcph_host_features has
   * the same function for 1.x plugins; both give the same answer.) */
  int (*interactive)(const mcph_host *host);

  /* [loop] Shows `question` (borrowed; escaped, named after the calling
   * plugin) and reads one line. Returns MCPH_OK and sets *out (may be
   * NULL): `cb` then runs exactly once, later (never inside ask),
   * unless the question is cancelled first. The handle *out is valid
   * until `cb` is called or cancel returns, whichever comes first. One
   * question at a time for the whole host: MCPH_EBUSY while another
   * (any plugin's) is open, so ask again after its answer. MCPH_ENOTSUP
   * without a terminal, MCPH_EINVAL without `cb`, MCPH_EIO when the
   * terminal cannot be read. On an error `cb` is never called and *out
   * is not set. */
  int (*ask)(const mcph_host *host, const char *question, mcph_ui_answer_cb cb,
             void *ud, mcph_ui_ask **out, mcph_error *err);
  /* [loop] Withdraws a question whose answer has not come: `cb` is not
   * called, and the handle is dead. NULL is ignored; a dead handle (its
   * `cb` ran) must not be passed. */
  void (*cancel)(const mcph_host *host, mcph_ui_ask *ask);

  /* [loop] Shows `url` (http or https; borrowed) and opens it with
   * $BROWSER, else xdg-open, as one argument (never shell text), without
   * waiting for the browser. MCPH_OK once the browser was started (not
   * that the page loaded); MCPH_EINVAL for another scheme or a URL with
   * spaces or control characters, MCPH_ENOTSUP without a terminal,
   * MCPH_ESPAWN when no browser could be started. */
  int (*open_url)(const mcph_host *host, const char *url, mcph_error *err);

  /* [loop] A progress line on stderr: "label: NN%" for 0 <= fraction <= 1,
   * "label" for a negative fraction (`label` borrowed, escaped). Shows
   * nothing without a terminal. */
  void (*progress)(const mcph_host *host, const char *label, double fraction);
} mcph_host_ui;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_UI_H */
