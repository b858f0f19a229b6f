/* The host's state as a front end reads and sets it (host.h), so that
 * the CLI and later front ends never touch the struct's fields. */
#include "core/host.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

const config *host_cfg(const host *h) {
  return &h->cfg;
}

config *host_cfg_edit(host *h) {
  return &h->cfg;
}

loop *host_loop(const host *h) {
  return h->loop;
}

const registry *host_registry(const host *h) {
  return &h->reg;
}

int host_verbosity(const host *h) {
  return h->verbosity;
}

void host_set_quiet(host *h, bool quiet) {
  h->quiet = quiet;
}

bool host_quiet(const host *h) {
  return h->quiet;
}

void host_set_verbosity(host *h, int verbosity) {
  h->verbosity = verbosity;
}

sanitize_mode host_sanitize(const host *h) {
  return h->sanitize;
}

void host_set_sanitize(host *h, sanitize_mode mode) {
  h->sanitize = mode;
}

const char *host_path(const host *h, int which) {
  return which >= 0 && which < (int)(sizeof h->paths / sizeof h->paths[0])
             ? h->paths[which]
             : NULL;
}

bool host_interrupted(const host *h) {
  return h->interrupted;
}

void host_clear_interrupt(host *h) {
  h->interrupted = false;
}

void host_interrupt(host *h, int signal_number) {
  h->interrupted = true;
  h->signal_number = signal_number;
}

void host_forget_signal(host *h) {
  h->interrupted = false;
  h->signal_number = 0;
}

int host_signal_number(const host *h) {
  return h->signal_number;
}

void host_set_plugin_option(host *h, const char *name, const char *value) {
  for (size_t i = 0; i < h->noptions; i++)
    if (strcmp(h->options[i].name, name) == 0) {
      free(h->options[i].value);
      h->options[i].value = xstrdup(value ? value : "");
      return;
    }
  h->options = xrealloc(h->options, (h->noptions + 1) * sizeof *h->options);
  h->options[h->noptions].name = xstrdup(name);
  h->options[h->noptions].value = xstrdup(value ? value : "");
  h->noptions++;
}
