#include "download.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "curl_dl.h"

typedef struct sink {
  int fd;
  size_t len, max;
  int too_big;
  int write_errno;
  int stopped;
  download_progress_fn progress;
  void *ud;
} sink;

int download_is_url(const char *s) {
  size_t i = 0;
  while (isalpha((unsigned char)s[i])) {
    i++;
  }
  return i > 0 && strncmp(s + i, "://", 3) == 0;
}

static size_t on_data(char *p, size_t size, size_t nmemb, void *ud) {
  sink *s = ud;
  size_t n = size * nmemb;
  if (s->len + n > s->max) {
    s->too_big = 1;
    return 0;
  }
  for (size_t done = 0; done < n;) {
    ssize_t w = write(s->fd, p + done, n - done);
    if (w < 0 && errno == EINTR) {
      continue;
    }
    if (w < 0) {
      s->write_errno = errno;
      return 0;
    }
    done += (size_t)w;
  }
  s->len += n;
  return n;
}

static int on_progress(void *ud, curl_off_t total, curl_off_t now,
                       curl_off_t ut, curl_off_t un) {
  (void)ut;
  (void)un;
  sink *s = ud;
  if (total > 0 && (size_t)total > s->max) {
    s->too_big = 1;
    return 1;
  }
  if (s->progress &&
      s->progress(s->ud, total > 0 ? (double)now / (double)total : -1.0)) {
    s->stopped = 1;
    return 1;
  }
  return 0;
}

int download(const char *url, int insecure, size_t max_bytes,
             download_progress_fn progress, void *ud, int fd, char *err,
             size_t n) {
  const char *protocols = insecure ? "https,http" : "https";
  if (strncasecmp(url, "https://", 8) != 0 &&
      !(insecure && strncasecmp(url, "http://", 7) == 0)) {
    snprintf(err, n,
             insecure ? "only http and https URLs can be downloaded"
                      : "only https URLs are downloaded (--insecure allows "
                        "http)");
    return -1;
  }
  /* libcurl (and the TLS, Kerberos, LDAP and SSH libraries it brings,
   * 3.7 MiB resident) is opened for a download only: installing a file
   * maps none of it. curl_dl_get is not thread-safe, and needs not be:
   * this library's copy of it is called by one open at a time. */
  const curl_dl *cu = curl_dl_get(err, n);
  if (!cu) {
    return -1;
  }
  sink s = {.fd = fd, .max = max_bytes, .progress = progress, .ud = ud};
  char ebuf[CURL_ERROR_SIZE] = "";
  CURL *c = cu->easy_init();
  if (!c) {
    snprintf(err, n, "libcurl cannot be initialized");
    return -1;
  }
  cu->easy_setopt(c, CURLOPT_URL, url);
  cu->easy_setopt(c, CURLOPT_PROTOCOLS_STR, protocols);
  cu->easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, protocols);
  cu->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  cu->easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
  cu->easy_setopt(c, CURLOPT_FAILONERROR, 1L);
  cu->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  cu->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
  cu->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
  cu->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
  cu->easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
  cu->easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
  cu->easy_setopt(c, CURLOPT_WRITEDATA, &s);
  cu->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
  cu->easy_setopt(c, CURLOPT_XFERINFODATA, &s);
  cu->easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
  cu->easy_setopt(c, CURLOPT_ERRORBUFFER, ebuf);
  cu->easy_setopt(c, CURLOPT_USERAGENT, "mcphost-bundle/1");
  CURLcode rc = cu->easy_perform(c);
  cu->easy_cleanup(c);
  if (s.stopped) {
    snprintf(err, n, "interrupted");
  } else if (s.too_big || rc == CURLE_FILESIZE_EXCEEDED) {
    snprintf(err, n, "larger than the limit of %zu bytes", max_bytes);
  } else if (s.write_errno) {
    snprintf(err, n, "cannot keep it in a temporary file: %s",
             strerror(s.write_errno));
  } else if (rc != CURLE_OK) {
    snprintf(err, n, "%s", *ebuf ? ebuf : cu->easy_strerror(rc));
  } else {
    return 0;
  }
  return -1;
}
