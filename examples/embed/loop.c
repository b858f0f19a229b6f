/* loop CONFIG SERVER/TOOL [JSON]: call.c's call, driven from this
 * program's own poll() loop (MCPHOST_LOOP_CALLER): the library's file
 * descriptor and timeout join the program's, and mcphost_perform runs
 * what is ready. The program's other descriptor here is its stdin: a
 * line typed while the call runs cancels it. Output and exit status as
 * call.c's.
 *
 * Build: cc loop.c $(pkg-config --cflags --libs libmcphost) -o loop */
#include <mcphost/client.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct outcome {
  int done;
  int code;
  int is_error;
  char message[MCPHOST_ERROR_MAX];
} outcome;

static int exit_status(int code) {
  switch (code) {
  case MCPHOST_OK: return 0;
  case MCPHOST_EUSAGE: return 2;
  case MCPHOST_EPROTOCOL: return 4;
  case MCPHOST_ETIMEDOUT: return 5;
  case MCPHOST_ENOTFOUND: return 6;
  case MCPHOST_EAUTH: return 7;
  case MCPHOST_EDENIED: return 8;
  case MCPHOST_ECANCELED: return 130;
  default: return 3;
  }
}

/* Runs on this thread, from mcphost_perform. */
static void on_done(void *ud, const char *result, size_t len,
                    const mcphost_error *err) {
  outcome *out = ud;
  out->done = 1;
  if (err) {
    out->code = err->code;
    snprintf(out->message, sizeof out->message, "%s", err->message);
    return;
  }
  char *text = NULL;
  size_t text_len = 0;
  mcphost_error e = MCPHOST_ERROR_INIT;
  out->code =
      mcphost_result_text(result, len, &text, &text_len, &out->is_error, &e);
  if (out->code == MCPHOST_OK) {
    fwrite(text, 1, text_len, stdout);
    mcphost_free(text);
  } else {
    snprintf(out->message, sizeof out->message, "%s", e.message);
  }
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: loop CONFIG SERVER/TOOL [JSON]\n");
    return 2;
  }
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  const char *configs[] = {argv[1]};
  o.configs = configs;
  o.nconfigs = 1;
  o.strict = 1;
  o.loop_mode = MCPHOST_LOOP_CALLER;
  mcphost_client *c = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  if (mcphost_client_new(&o, &c, &err) != MCPHOST_OK) {
    fprintf(stderr, "loop: %s\n", err.message);
    return exit_status(err.code);
  }
  mcphost_request rq = MCPHOST_REQUEST_INIT;
  rq.kind = MCPHOST_OP_CALL_TOOL;
  rq.name = argv[2];
  rq.arguments = argc == 4 ? argv[3] : NULL;
  outcome out = {0};
  mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
  cb.done = on_done;
  cb.ud = &out;
  int64_t id = mcphost_start(c, &rq, &cb, &err);
  if (id < 0) {
    out.done = 1;
    out.code = (int)id;
    snprintf(out.message, sizeof out.message, "%s", err.message);
  }
  int stdin_open = 1;
  while (!out.done) {
    struct pollfd fds[2] = {{.fd = mcphost_fd(c), .events = POLLIN},
                            {.fd = 0, .events = POLLIN}};
    if (poll(fds, stdin_open ? 2 : 1, mcphost_timeout_ms(c)) < 0) {
      break;
    }
    if (stdin_open && fds[1].revents) {
      char line[256];
      ssize_t n = read(0, line, sizeof line);
      if (n > 0) {
        mcphost_cancel(c, id); /* done follows, ECANCELED */
      } else {
        stdin_open = 0; /* end of input: nothing to cancel with */
      }
    }
    mcphost_perform(c);
  }
  mcphost_client_free(c);
  if (out.code != MCPHOST_OK) {
    fprintf(stderr, "loop: %s\n", out.message);
    return exit_status(out.code);
  }
  if (out.is_error) {
    fprintf(stderr, "loop: tool \"%s\" reported an error\n", argv[2]);
  }
  return out.is_error ? 1 : 0;
}
