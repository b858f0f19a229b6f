/* Where installed bundles live.
 *
 *   $XDG_DATA_HOME/mcphost/bundles/          (default ~/.local/share/...)
 *     <name>/                 the extracted bundle (${__dirname})
 *     .settings/<name>.json   {"enabled", "version", "userConfig",
 *                              "sensitive": [KEY...], "signature": {...}}
 *                             mode 0600; sensitive values are not here
 *                             but in the host's secrets store
 *     .tmp-<name>-XXXXXX/     an install in progress
 *
 * Every directory is opened through the trusted-directory check
 * (common/trusted_fs.h) and everything below it relative to its fd.
 * Threads: the loop's (plain files, no shared state). */
#ifndef MCPB_STORE_H
#define MCPB_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

typedef struct store {
  char root[4096];
  int fd;          /* the bundles directory */
  int settings_fd; /* .settings */
  int tmp_lock;    /* the install in progress's .tmp- directory, locked */
} store;

/* Opens (creating when `create`) the bundles directory. 0, or -1 with
 * the reason in `why`. */
int store_open(store *s, bool create, char *why, size_t n);
void store_close(store *s);

/* Makes `.tmp-<name>-XXXXXX` for an install and holds an exclusive
 * flock on it until store_close (a killed install's lock goes with its
 * process). Its name into `tmp` (`tmp_len` bytes); 0, or -1 with the
 * reason in `why`. */
int store_tmp_make(store *s, const char *name, char *tmp, size_t tmp_len,
                   char *why, size_t n);
/* Removes the `.tmp-` directories whose install no longer runs (nobody
 * holds their lock): what a killed install left. Returns how many. */
size_t store_sweep(const store *s);

/* Whether `name` can name an installed bundle's directory: 1 to 100
 * bytes of [A-Za-z0-9._-], not starting with '.'. */
bool store_name_ok(const char *name);

/* The names of the installed bundles, sorted; free with
 * store_names_free. */
char **store_list(const store *s, size_t *count);
void store_names_free(char **names, size_t count);

/* An installed bundle's manifest, or NULL (not installed, unreadable). */
cJSON *store_manifest(const store *s, const char *name);

/* Its settings; an empty object when there are none. */
cJSON *store_settings(const store *s, const char *name);
int store_settings_write(const store *s, const char *name,
                         const cJSON *settings, char *why, size_t n);

/* The key under which a sensitive value is kept in the secrets store. */
void store_secret_key(const char *bundle, const char *key, char *out, size_t n);

#endif
