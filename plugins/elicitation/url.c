/* URL mode safety; see elicit.h. A URL is shown in full before anything
 * opens it, and only an http or https URL with a host is ever opened, so
 * that a server cannot have the browser run javascript:, read file: or
 * launch a desktop handler (ssh:, smb:, ...). The host is shown on its
 * own line, in punycode too when it is not ASCII (a Cyrillic "а" looks
 * like a Latin "a"), because the host is the part of a URL people
 * misread.
 *
 * The host shown is libcurl's reading of the URL; a browser reads it by
 * the WHATWG URL standard, which differs on purpose-made URLs: for
 * http://evil.example\@good.example/ curl sees good.example, a browser
 * goes to evil.example ('\' is '/' there). So a URL the two could read
 * differently is refused -- a backslash before the query, user
 * information ("user@") in the authority, anything but "scheme://" after
 * the scheme, a percent sign in the host (a browser decodes it), a host
 * the browser's rule finds written otherwise -- and
 * the URL shown, given to a hook and opened is the one rebuilt from
 * curl's parts, never the server's text. */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "browser.h"
#include "elicit.h"
#include "icu_dl.h"
#include "proc_spawn.h"
#include "proc_watch.h"

/* libcurl's soname since 7.16; its URL API is all this file uses. (Tests
 * define another to see what happens when it is missing.) */
#ifndef ELICIT_LIBCURL
#define ELICIT_LIBCURL "libcurl.so.4"
#endif

static int refuse(char *why, size_t n, const char *fmt, const char *arg) {
  snprintf(why, n, fmt, arg);
  return -1;
}

/* libcurl's URL parser, opened at the first URL check rather than linked:
 * the plugin is loaded by every command, and libcurl brings some thirty
 * libraries with it (bench/results/2026-11-30-findings.md, A), for URL
 * elicitations that few commands ever see. Loop thread only; opened once
 * per process and never closed, like any library. */
typedef struct curl_url_fns {
  __typeof__(curl_url) *url;
  __typeof__(curl_url_set) *set;
  __typeof__(curl_url_get) *get;
  __typeof__(curl_url_strerror) *error_text;
  __typeof__(curl_url_cleanup) *cleanup;
  __typeof__(curl_free) *free_part;
} curl_url_fns;

static struct {
  bool tried;
  const curl_url_fns *fns; /* NULL until loaded, or when it cannot be */
  curl_url_fns table;
  char failure[300];
} lib;

static void *curl_sym(void *h, const char *name) {
  void *p = dlsym(h, name);
  if (!p && !lib.failure[0])
    snprintf(lib.failure, sizeof lib.failure, "%s has no %s", ELICIT_LIBCURL,
             name);
  return p;
}

#define CURL_SYM(field, fn)                                                    \
  (lib.table.field = (__typeof__(lib.table.field))curl_sym(h, #fn))

/* The table, or NULL with `why` filled. */
static const curl_url_fns *curl_url_api(char *why, size_t n) {
  if (!lib.tried) {
    lib.tried = true;
    void *h = dlopen(ELICIT_LIBCURL, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char *e = dlerror(); /* process-wide: copy at once */
      snprintf(lib.failure, sizeof lib.failure, "%s",
               e ? e : ELICIT_LIBCURL ": unknown error");
    } else {
      CURL_SYM(url, curl_url);
      CURL_SYM(set, curl_url_set);
      CURL_SYM(get, curl_url_get);
      CURL_SYM(error_text, curl_url_strerror);
      CURL_SYM(cleanup, curl_url_cleanup);
      CURL_SYM(free_part, curl_free);
      if (!lib.failure[0])
        lib.fns = &lib.table;
    }
  }
  if (!lib.fns)
    refuse(why, n, "it cannot be checked: cannot load libcurl: %s",
           lib.failure);
  return lib.fns;
}

/* The ASCII (punycode) form of an international host name, as browsers
 * resolve it (UTS #46, ICU); a new string, or NULL with `why` filled when
 * it is not a valid name or ICU cannot be loaded. ICU rather than
 * libcurl: curl's conversion depends on the process's locale, which a
 * plugin must not change. */
static char *punycode(const char *host, char *why, size_t n) {
  const char *failure = NULL;
  const icu_fns *icu = icu_dl_load(&failure, NULL);
  if (!icu) {
    refuse(why, n, "its host cannot be checked: %s", failure);
    return NULL;
  }
  UErrorCode st = U_ZERO_ERROR;
  /* The WHATWG URL standard's options, which browsers follow. */
  UIDNA *idna = icu->idna_open_uts46(
      UIDNA_NONTRANSITIONAL_TO_ASCII | UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ,
      &st);
  char out[512];
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  int32_t len = 0;
  if (U_SUCCESS(st)) {
    len = icu->idna_name_to_ascii(idna, host, -1, out, sizeof out - 1, &info,
                                  &st);
    icu->idna_close(idna);
  }
  if (U_FAILURE(st) || info.errors || len <= 0 || len >= (int32_t)sizeof out) {
    refuse(why, n, "%s", "its host is not a valid domain name");
    return NULL;
  }
  out[len] = '\0';
  return xstrdup(out);
}

/* The host a browser finds in `url` (after "scheme://", up to '/', '\\',
 * '?' or '#', without a port), lower-cased, into `out`; false when the
 * authority holds user information or the URL is not written as
 * scheme://authority. `why` says which. */
static bool browser_host(const char *url, char *out, size_t size, char *why,
                         size_t n) {
  const char *p = strchr(url, ':') + 1;
  if (p[0] != '/' || p[1] != '/' || p[2] == '/' || p[2] == '\\') {
    refuse(why, n, "%s", "it is not written as scheme://host/...");
    return false;
  }
  p += 2;
  size_t alen = strcspn(p, "/\\?#");
  if (memchr(p, '@', alen)) {
    refuse(why, n, "%s",
           "it holds a user name or password before the host (user@), "
           "the classic disguise of a host");
    return false;
  }
  size_t hlen = alen;
  if (p[0] == '[') {
    const char *close = memchr(p, ']', alen);
    hlen = close ? (size_t)(close - p) + 1 : alen;
  } else {
    const char *colon = memchr(p, ':', alen);
    hlen = colon ? (size_t)(colon - p) : alen;
  }
  if (hlen >= size) {
    refuse(why, n, "%s", "its host is too long");
    return false;
  }
  /* A browser decodes %XX in a host (https://ex%61mple.com/ goes to
   * example.com); curl keeps it, and writes the % again as %25. */
  if (memchr(p, '%', hlen)) {
    refuse(why, n, "%s",
           "its host holds a percent sign, which browsers decode: the "
           "host they go to may not be the one shown");
    return false;
  }
  for (size_t i = 0; i < hlen; i++) {
    out[i] = p[i] >= 'A' && p[i] <= 'Z' ? (char)(p[i] - 'A' + 'a') : p[i];
  }
  out[hlen] = '\0';
  return true;
}

static bool same_host(const char *seen, const char *curl_host) {
  size_t i = 0;
  for (; seen[i] && curl_host[i]; i++) {
    char c = curl_host[i];
    if (c >= 'A' && c <= 'Z') {
      c = (char)(c - 'A' + 'a');
    }
    if (c != seen[i]) {
      return false;
    }
  }
  return seen[i] == curl_host[i];
}

int url_check(const char *url, char **host_out, char **url_out, char *why,
              size_t n) {
  *host_out = NULL;
  *url_out = NULL;
  for (const unsigned char *p = (const unsigned char *)url; *p; p++)
    if (*p <= 0x20 || *p == 0x7F)
      return refuse(why, n, "%s", "the URL holds spaces or control characters");
  char *clean = text_clean(url, false);
  bool same = strcmp(clean, url) == 0;
  free(clean);
  if (!same)
    return refuse(why, n, "%s",
                  "the URL holds characters that cannot be shown as they are");
  size_t slen = strcspn(url, ":");
  if (!url[slen] || slen == 0 || slen > 30)
    return refuse(why, n, "%s", "it is not an absolute URL");
  char scheme[32];
  snprintf(scheme, sizeof scheme, "%.*s", (int)slen, url);
  if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0)
    return refuse(why, n, "only http and https URLs are opened, not \"%s:\"",
                  scheme);

  size_t before_query = strcspn(url, "?#");
  if (memchr(url, '\\', before_query))
    return refuse(why, n, "%s",
                  "it holds a backslash, which browsers read as '/': the "
                  "host they go to may not be the one shown");
  char seen[300];
  if (!browser_host(url, seen, sizeof seen, why, n))
    return -1;

  const curl_url_fns *cu = curl_url_api(why, n);
  if (!cu)
    return -1;
  CURLU *u = cu->url();
  if (!u)
    abort();
  char *host = NULL, *puny = NULL, *full = NULL;
  int rc = 0;
  CURLUcode uc = cu->set(u, CURLUPART_URL, url, 0);
  if (uc != CURLUE_OK) {
    rc = refuse(why, n, "the URL does not parse: %s", cu->error_text(uc));
    goto out;
  }
  if (cu->get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || !host || !*host) {
    rc = refuse(why, n, "%s", "the URL has no host");
    goto out;
  }
  if (!same_host(seen, host)) {
    rc = refuse(why, n, "%s",
                "its host is written in a way browsers and this check read "
                "differently");
    goto out;
  }
  if (cu->get(u, CURLUPART_URL, &full, 0) != CURLUE_OK || !full) {
    rc = refuse(why, n, "%s", "the URL cannot be rebuilt from its parts");
    goto out;
  }
  bool ascii = true;
  for (const unsigned char *p = (const unsigned char *)host; *p; p++)
    ascii = ascii && *p < 0x80;
  if (!ascii && !(puny = punycode(host, why, n))) {
    rc = -1;
    goto out;
  }
  size_t len = strlen(host) + (puny ? strlen(puny) : 0) + 4;
  *host_out = xmalloc(len);
  if (puny && strcmp(puny, host) != 0)
    snprintf(*host_out, len, "%s (%s)", host, puny);
  else
    snprintf(*host_out, len, "%s", host);
  *url_out = xstrdup(full);
out:
  cu->free_part(full);
  cu->free_part(host);
  free(puny);
  cu->cleanup(u);
  return rc;
}

/* ---- opening ---- */

struct browser {
  elicit_plugin *pl;
  proc_watch *watch;
  char *server;
  char *command;
  char *url;
  struct browser *next;
};

static void browser_free(browser *b) {
  free(b->server);
  free(b->command);
  free(b->url);
  free(b);
}

static void on_browser_exit(void *ud, int wstatus) {
  browser *b = ud;
  elicit_plugin *pl = b->pl;
  for (browser **pp = &pl->browsers; *pp; pp = &(*pp)->next)
    if (*pp == b) {
      *pp = b->next;
      break;
    }
  if (!(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
    char status[120], line[1200];
    proc_describe_status(wstatus, status, sizeof status);
    snprintf(line, sizeof line,
             "the browser command \"%.100s\" %s; open the URL yourself: %.900s",
             b->command, status, b->url);
    tty_note(pl, b->server, line);
  }
  browser_free(b);
}

int url_open(elicit_plugin *pl, const char *server, const char *url, char *why,
             size_t n) {
  /* The one rule for $BROWSER (browser.h). */
  pid_t pid;
  char *command = NULL;
  if (browser_start(url, &pid, &command, why, n) != 0) {
    return -1;
  }
  browser *b = xcalloc(1, sizeof *b);
  *b = (browser){.pl = pl,
                 .server = xstrdup(server),
                 .command = command,
                 .url = xstrdup(url)};
  if (proc_watch_start(pl->host, pid, 0, on_browser_exit, b, &b->watch) == 0) {
    b->next = pl->browsers;
    pl->browsers = b;
  } else {
    browser_free(b); /* it runs unwatched: a zombie until we exit */
  }
  return 0;
}

void url_free_browsers(elicit_plugin *pl) {
  /* Browsers outlive mcphost: stop watching, never kill. */
  while (pl->browsers) {
    browser *b = pl->browsers;
    pl->browsers = b->next;
    proc_watch_cancel(b->watch);
    browser_free(b);
  }
}
