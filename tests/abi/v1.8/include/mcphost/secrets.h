/*
 * mcphost plugin ABI — the secrets service, "mcph.host.secrets/1" (ABI
 * 1.6).
 *
 * A plugin keeps small secrets (tokens, refresh tokens, client secrets)
 * with the host: each plugin has its own store, which no other plugin can
 * read, kept as files of mode 0600 in a directory of mode 0700 under the
 * per-user state directory ($XDG_STATE_HOME/mcphost/secrets/<plugin id>),
 * checked for owner and mode before every use. A value is replaced
 * whole: a reader never sees half of one.
 *
 * Keys: 1 to 100 bytes of [A-Za-z0-9._-], not starting with '.'.
 * Values: any bytes, at most MCPH_SECRET_MAX.
 *
 * Errors, the same for every function (the reason in `err`, which may be
 * NULL; the code is returned either way):
 *   MCPH_EINVAL   a bad key, a NULL value with a length, or a call through
 *                 the host's own table instead of the plugin's;
 *   MCPH_ETOOBIG  a value over MCPH_SECRET_MAX (set), or a stored file
 *                 over it (get: someone else wrote it);
 *   MCPH_ENOTFOUND  get: no such key for this plugin;
 *   MCPH_EIO      no per-user state directory (no home), a store or file
 *                 that failed its owner and mode checks (named in the
 *                 message), or a read or write that failed.
 * Nothing is ever logged with a value in it.
 *
 * Threads: set, get and remove [loop]; update [any] (1.6, appended:
 * below). The string get returns is the host's, valid until control
 * returns to the loop (abi.h): copy it, and clear your copy when done.
 *
 * update (1.6) is a read-modify-write under an exclusive lock, from any
 * thread, e.g. a worker thread that refreshes a token with blocking
 * network calls: the lock is flock(2) on "<key>.lock" beside the value,
 * so two threads of one process and two processes of the user alike
 * take turns, and what one wrote the next one reads. It may also name a
 * document shared by the user's mcphost processes in the per-user state
 * directory itself (MCPH_SECRET_SHARED, e.g. the OAuth plugin's
 * credentials.json) instead of a key of the caller's own store. set and
 * remove take no lock: write a key that is used with update only with
 * update.
 */
#ifndef MCPHOST_SECRETS_H
#define MCPHOST_SECRETS_H

#include "abi.h"
#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MCPH_SERVICE_SECRETS "mcph.host.secrets/1"
#define MCPH_SECRET_MAX 65536
/* (1.6) The largest value update reads or writes (a document of many
 * entries); get still refuses one over MCPH_SECRET_MAX. */
#define MCPH_SECRET_UPDATE_MAX (4 * 1024 * 1024)

/* (1.6) update's flags. */
enum mcph_secret_flags {
  /* `key` names a file of the per-user state directory itself
   * ($XDG_STATE_HOME/mcphost/<key>, the directory 0700), shared by every
   * plugin and mcphost process of the user, not a key of the caller's
   * own store. The same key rules, owner and mode checks. */
  MCPH_SECRET_SHARED = 1u << 0,
  /* Read only, without the lock: the callback sees the current value
   * (never half of one: every write replaces the file whole) and what it
   * returns is not written. For a reader that must not wait for a writer
   * (one on the loop). */
  MCPH_SECRET_PEEK = 1u << 1
};

/* (1.6) What update's callback gets, and gives back. */
typedef struct mcph_secret_update {
  uint32_t struct_size; /* sizeof(mcph_secret_update) as the host built it */
  /* In: the current value (NUL-terminated; use len) or NULL when there
   * is none. Borrowed until the callback returns. */
  const char *value;
  size_t len;
  /* Out: the new value and its length, borrowed from the plugin until
   * update returns (at most MCPH_SECRET_UPDATE_MAX); NULL (as given):
   * the value is left as it is. */
  const char *new_value;
  size_t new_len;
  /* Out: nonzero to keep the current value aside, renamed to
   * "<key>.corrupt-<unix seconds>" beside it, before the new value is
   * written (for a value the plugin cannot read: never lose what a
   * person may still want). */
  int set_aside;
} mcph_secret_update;

/* (1.6) update's callback: runs once, with the lock held, on the
 * caller's thread. It may block (a network request), but must not call
 * update for the same key (the lock is not re-entrant: that update would
 * wait, then fail with MCPH_EBUSY). Returns MCPH_OK, or a negative code
 * that update returns as it is, with nothing written. */
typedef int (*mcph_secret_update_cb)(void *ud, mcph_secret_update *u);

typedef struct mcph_host_secrets {
  uint32_t struct_size; /* sizeof(mcph_host_secrets) as the host built it */

  /* [loop] Stores `len` bytes of `value` (borrowed) under `key` for the
   * calling plugin, replacing any value whole. Returns MCPH_OK, or
   * MCPH_EINVAL, MCPH_ETOOBIG or MCPH_EIO (above); on an error the old
   * value, if any, is kept. */
  int (*set)(const mcph_host *host, const char *key, const char *value,
             size_t len, mcph_error *err);

  /* [loop] The calling plugin's value for `key` (NUL-terminated, which
   * a value with NUL bytes makes misleading: use *len; `len` may be
   * NULL), or NULL with MCPH_ENOTFOUND (no such key) or another code
   * (above) in `err`. */
  const char *(*get)(const mcph_host *host, const char *key, size_t *len,
                     mcph_error *err);

  /* [loop] Removes the calling plugin's `key`. MCPH_OK also when there was
   * none; else MCPH_EINVAL or MCPH_EIO (above). */
  int (*remove)(const mcph_host *host, const char *key, mcph_error *err);

  /* ---- ABI 1.6, appended ---- */
  /* [any] Locked read-modify-write of `key` (the calling plugin's, or the
   * shared document with MCPH_SECRET_SHARED; `flags` from enum
   * mcph_secret_flags): takes the exclusive lock (waiting up to 30 s),
   * reads the value, calls `cb` with it, writes what cb gave (a
   * temporary file of mode 0600, fsync, rename, fsync of the directory)
   * and releases the lock. Returns MCPH_OK (written, or left as it is);
   * cb's own negative code; MCPH_EBUSY when another holder kept the lock
   * for 30 s; MCPH_EINVAL (a bad key, flag or callback); MCPH_ETOOBIG (a
   * stored or a new value over MCPH_SECRET_UPDATE_MAX); MCPH_EIO (no
   * state directory, a directory or file that failed its checks: not a
   * regular file of the user's, or open to others; a read or write that
   * failed); the reason in `err` (may be NULL; never a value). cb is not
   * called when the value could not be read. */
  int (*update)(const mcph_host *host, const char *key, unsigned flags,
                mcph_secret_update_cb cb, void *ud, mcph_error *err);
} mcph_host_secrets;

#ifdef __cplusplus
}
#endif

#endif /* MCPHOST_SECRETS_H */
