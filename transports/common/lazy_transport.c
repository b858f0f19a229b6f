/*
 * A transport plugin that loads its implementation on first use.
 *
 * The host loads every plugin at start-up. The http and sse transports
 * link libcurl, which maps some thirty libraries and initializes OpenSSL:
 * about 8 MB and 6-12 ms that every command paid, even one that talks
 * to no HTTP server (bench/results/2026-11-30-findings.md, A). So the
 * file in the plugin directory is this thin plugin. It declares the
 * transport's types at once, and dlopens the real plugin, which the
 * host never sees, when the first transport of those types is created.
 *
 * Compiled once per transport (mcphost_add_lazy_transport in
 * cmake/McphostPlugin.cmake), with:
 *   plugin_info.h   the transport's id, name, version, description and
 *                   types (PLUGIN_*), shared with its implementation;
 *   LAZY_IMPL_FILE  the implementation's file name.
 *
 * The implementation is an ordinary plugin in lib/mcphost/impl/, beside
 * the plugin directory lib/mcphost/plugins/ (the build tree has the same
 * layout as an install). Towards it, this plugin acts as the host: it
 * checks its entry, calls its init with the same host table, forwards
 * every factory call, and calls its deinit at the end. It is never
 * closed, as the host never closes a plugin.
 *
 * Loop thread only, as every call a plugin gets.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mcphost/mcphost.h>

#include "plugin_info.h"
#include "trusted_fs.h"

#ifndef LAZY_IMPL_FILE
#error "LAZY_IMPL_FILE must name the implementation's file"
#endif

typedef struct lazy {
  const mcph_host *host;
  /* Set once the implementation is loaded and its init succeeded. */
  const mcph_entry *impl;
  void *impl_ctx;
  const mcph_transport_factory *factory; /* the implementation's */
  /* A load that failed once the implementation's init ran is not tried
   * again (init must not run twice): the same error is given to every
   * create(). A failure before (dlopen, the entry check) is tried again
   * at the next create(). */
  bool init_ran;
  int failed;
  char failure[MCPH_ERROR_MESSAGE_MAX];
} lazy;

/* What the host holds: the implementation's transport, and its factory
 * (the calls after create() carry no plugin context). */
struct mcph_transport {
  const mcph_transport_factory *f;
  mcph_transport *t;
};

static const mcph_transport_factory lazy_factory;

/* The implementation's directory: "impl" beside the one this file was
 * loaded from. Symbolic links to this file
 * are followed first, so that a link to an installed plugin finds the
 * installed implementation. */
static int impl_dir(char *path, size_t n, uid_t *owner, mcph_error *err) {
  Dl_info info;
  if (!dladdr(&lazy_factory, &info) || !info.dli_fname)
    return mcph_error_set(err, MCPH_EIO,
                          "cannot find the file %s was loaded from",
                          LAZY_IMPL_FILE);
  /* This file's owner controls this code already: trusting them for the
   * implementation beside it adds nobody (a build tree of a user's, run
   * by root). */
  struct stat st;
  *owner = stat(info.dli_fname, &st) == 0 ? st.st_uid : 0;
  char self[PATH_MAX];
  if (!realpath(info.dli_fname, self))
    snprintf(self, sizeof self, "%s", info.dli_fname);
  char *file = strrchr(self, '/');
  char *dir = NULL;
  if (file) {
    *file = '\0';
    dir = strrchr(self, '/');
  }
  if (!dir)
    return mcph_error_set(err, MCPH_EIO,
                          "cannot tell where the implementation of %s is "
                          "from its path %s",
                          LAZY_IMPL_FILE, info.dli_fname);
  *dir = '\0';
  if ((size_t)snprintf(path, n, "%s/impl", self) >= n) {
    return mcph_error_set(err, MCPH_EIO, "the path %s/impl is too long", self);
  }
  return MCPH_OK;
}

/* dlerror()'s text without the path it often starts with ("PATH:
 * cannot open shared object file: ..."), since our message names it. */
static const char *without_path(const char *e, const char *path) {
  size_t n = strlen(path);
  if (strncmp(e, path, n) == 0 && e[n] == ':' && e[n + 1] == ' ')
    return e + n + 2;
  return e;
}

/* Opens the implementation and checks it as the host checks a plugin.
 * Fills lz->impl, impl_ctx and factory, or returns an error. */
static int impl_open(lazy *lz, mcph_error *err) {
  char dir[PATH_MAX], path[PATH_MAX + 64], why[PATH_MAX + 128];
  uid_t owner = 0;
  int rc = impl_dir(dir, sizeof dir, &owner, err);
  if (rc != MCPH_OK)
    return rc;
  snprintf(path, sizeof path, "%s/%s", dir, LAZY_IMPL_FILE);
  /* Checked as the host checks a plugin (trusted_fs.h) and loaded
   * through the checked open file; the fd stays open, as the library is
   * never closed and its name /proc/self/fd/N must keep meaning it. */
  int dfd = trusted_fs_open_dir_owned_by(dir, 0, owner, why, sizeof why);
  int fd = dfd < 0 ? -1
                   : trusted_fs_open_code_owned_by(dfd, dir, LAZY_IMPL_FILE,
                                                   owner, why, sizeof why);
  if (dfd >= 0) {
    close(dfd);
  }
  if (fd < 0) {
    return mcph_error_set(err, MCPH_ENOTFOUND,
                          "cannot load %s, the implementation of the %s: %s",
                          path, PLUGIN_NAME, why);
  }
  char byfd[64];
  snprintf(byfd, sizeof byfd, "/proc/self/fd/%d", fd);
  void *h = dlopen(byfd, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: copied at once below */
    rc = mcph_error_set(
        err, MCPH_ENOTFOUND, "cannot load %s, the implementation of the %s: %s",
        path, PLUGIN_NAME, e ? without_path(e, byfd) : "unknown error");
    close(fd);
    return rc;
  }
  const mcph_entry *impl = dlsym(h, MCPH_ENTRY_SYMBOL);
  if (!impl || impl->abi_major != MCPH_ABI_MAJOR ||
      !MCPH_HAS(impl, mcph_entry, deinit) || !impl->id ||
      strcmp(impl->id, PLUGIN_ID) != 0 || !impl->init ||
      !impl->get_extension) {
    dlclose(h); /* nothing of it ran */
    close(fd);
    return mcph_error_set(err, MCPH_EABI,
                          "%s is not the implementation of %s (plugin ABI "
                          "%d.%d): reinstall mcphost",
                          path, PLUGIN_ID, MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  lz->init_ran = true;
  rc = impl->init(lz->host, &lz->impl_ctx, err);
  if (rc != MCPH_OK)
    return rc; /* the implementation's message, about itself */
  lz->impl = impl;
  const mcph_transport_factory *f =
      impl->get_extension(lz->impl_ctx, MCPH_EXT_TRANSPORT);
  if (!f || !MCPH_HAS(f, mcph_transport_factory, destroy) || !f->create ||
      !f->start || !f->send || !f->close || !f->destroy)
    return mcph_error_set(err, MCPH_EABI,
                          "%s offers no complete transport extension", path);
  lz->factory = f;
  mcph_logf(lz->host, MCPH_LOG_DEBUG, PLUGIN_ID, "loaded %s", path);
  return MCPH_OK;
}

static int lazy_create(void *plugin_ctx, const mcph_transport_params *params,
                       mcph_transport **out, mcph_error *err) {
  lazy *lz = plugin_ctx;
  if (!lz->factory && !lz->failed) {
    mcph_error load_err;
    mcph_error_init(&load_err);
    if (impl_open(lz, &load_err) != MCPH_OK) {
      int code = load_err.code < 0 ? load_err.code : MCPH_EIO;
      snprintf(lz->failure, sizeof lz->failure, "%s",
               load_err.message[0] ? load_err.message
                                   : "cannot load the implementation");
      if (!lz->init_ran)
        return mcph_error_set(err, code, "%s", lz->failure);
      lz->failed = code;
    }
  }
  if (!lz->factory)
    return mcph_error_set(err, lz->failed, "%s", lz->failure);
  mcph_transport *w = malloc(sizeof *w);
  if (!w)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  w->f = lz->factory;
  int rc = w->f->create(lz->impl_ctx, params, &w->t, err);
  if (rc != MCPH_OK) {
    free(w);
    return rc;
  }
  *out = w;
  return MCPH_OK;
}

static int lazy_start(mcph_transport *w, mcph_error *err) {
  return w->f->start(w->t, err);
}

static int lazy_send(mcph_transport *w, const char *json, size_t len,
                     mcph_error *err) {
  return w->f->send(w->t, json, len, err);
}

static void lazy_close(mcph_transport *w) {
  w->f->close(w->t);
}

static void lazy_destroy(mcph_transport *w) {
  w->f->destroy(w->t);
  free(w);
}

static const char *lazy_session_id(mcph_transport *w) {
  if (!MCPH_HAS(w->f, mcph_transport_factory, session_id) || !w->f->session_id)
    return NULL;
  return w->f->session_id(w->t);
}

static void lazy_set_protocol_version(mcph_transport *w, const char *version) {
  if (MCPH_HAS(w->f, mcph_transport_factory, set_protocol_version) &&
      w->f->set_protocol_version)
    w->f->set_protocol_version(w->t, version);
}

static const char *const lazy_types[] = {PLUGIN_TYPES, NULL};

static const mcph_transport_factory lazy_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = lazy_types,
    .create = lazy_create,
    .start = lazy_start,
    .send = lazy_send,
    .close = lazy_close,
    .destroy = lazy_destroy,
    .session_id = lazy_session_id,
    .set_protocol_version = lazy_set_protocol_version,
};

static int lazy_init(const mcph_host *host, void **plugin_ctx,
                     mcph_error *err) {
  /* log is the one service used here; the implementation checks the
   * table for what it needs when it is loaded. */
  if (!MCPH_HAS(host, mcph_host, log) || !host->log)
    return mcph_error_set(err, MCPH_EABI,
                          "the host table lacks the log service");
  lazy *lz = calloc(1, sizeof *lz);
  if (!lz)
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  lz->host = host;
  *plugin_ctx = lz;
  return MCPH_OK;
}

static const void *lazy_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &lazy_factory : NULL;
}

/* After every transport was destroyed, as the ABI promises; so the
 * implementation's deinit comes last, as the host would call it. */
static void lazy_deinit(void *plugin_ctx) {
  lazy *lz = plugin_ctx;
  if (lz->impl && lz->impl->deinit)
    lz->impl->deinit(lz->impl_ctx);
  free(lz);
}

/* The one exported symbol: the implementation's id, name, version and
 * description, so that `mcphost plugins` shows the transport as it is. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = PLUGIN_NAME,
    .version = PLUGIN_VERSION,
    .description = PLUGIN_DESCRIPTION,
    .init = lazy_init,
    .get_extension = lazy_get_extension,
    .deinit = lazy_deinit,
};
