/* Easy handles and failure classification; see http_client.h. */
#include "http_client.h"

#include "http_status.h"

#include <stdlib.h>
#include <string.h>

#include "text_escape.h"
#include "utf8.h"

#include <mcphost/abi.h>

#define KEEPALIVE_IDLE_S 60L

CURL *http_client_easy(const remote_config *cfg, const char *user_agent,
                       const char *url, char *errbuf) {
  CURL *e = curl_easy_init();
  if (!e) {
    return NULL;
  }
  errbuf[0] = '\0';
  curl_easy_setopt(e, CURLOPT_URL, url);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_USERAGENT, user_agent);
  /* Redirects are followed by the transports, within the origin only:
   * curl would send the configured headers and the body anywhere. */
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPIDLE, KEEPALIVE_IDLE_S);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPINTVL, KEEPALIVE_IDLE_S);
  /* Proxies: libcurl reads http_proxy, https_proxy and no_proxy from the
   * environment when CURLOPT_PROXY is not set. A proxy's answer to
   * CONNECT is not the server's answer: keep it from the header callback. */
  curl_easy_setopt(e, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
  if (cfg->no_proxy) {
    curl_easy_setopt(e, CURLOPT_PROXY, ""); /* "" overrides the environment */
  }
  if (cfg->ca_file) {
    curl_easy_setopt(e, CURLOPT_CAINFO, cfg->ca_file);
  }
  if (cfg->cert_file) {
    curl_easy_setopt(e, CURLOPT_SSLCERT, cfg->cert_file);
  }
  if (cfg->key_file) {
    curl_easy_setopt(e, CURLOPT_SSLKEY, cfg->key_file);
  }
  if (cfg->insecure) {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  return e;
}

const char *http_client_curl_error(CURLcode rc, const char *errbuf) {
  if (errbuf && errbuf[0]) {
    return errbuf;
  }
  return curl_easy_strerror(rc);
}

bool http_client_unreachable(CURLcode rc) {
  /* Refused or unreachable; no such name (of the host or the proxy); a
   * reset; a broken pipe; a connection closed before any answer. */
  return rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
         rc == CURLE_COULDNT_RESOLVE_PROXY || rc == CURLE_RECV_ERROR ||
         rc == CURLE_SEND_ERROR || rc == CURLE_GOT_NOTHING;
}

int http_client_code_for_curl(CURLcode rc) {
  if (http_client_unreachable(rc)) {
    return MCPH_ECONNREFUSED;
  }
  switch (rc) {
  case CURLE_OPERATION_TIMEDOUT: return MCPH_ETIMEDOUT;
  case CURLE_OUT_OF_MEMORY: return MCPH_ENOMEM;
  default: return MCPH_EIO;
  }
}

const char *http_client_reason(long status) {
  return http_status_reason(status);
}

void http_client_excerpt(const char *s, size_t n, char *out, size_t size) {
  out[0] = '\0';
  /* A sequence the end of what was kept cut short. */
  for (size_t back = 1; back <= 4 && back <= n; back++) {
    unsigned char b = (unsigned char)s[n - back];
    if ((b & 0xC0) != 0x80) {
      bool lead = b >= 0xC2 && b <= 0xF4, ok = false;
      const unsigned char *p = (const unsigned char *)s + n - back;
      if (lead && utf8_sequence(p, back, &ok, NULL) == back && !ok) {
        n -= back;
      }
      break;
    }
  }
  char *flat = malloc(n + 1);
  if (!flat) {
    return;
  }
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    if (blank && (len == 0 || flat[len - 1] == ' ')) {
      continue;
    }
    flat[len++] = blank ? ' ' : c;
  }
  while (len > 0 && flat[len - 1] == ' ') {
    len--;
  }
  size_t elen;
  char *esc = text_escape(flat, len,
                          TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, &elen);
  free(flat);
  if (!esc) {
    return;
  }
  if (elen >= size) {
    elen = size - 1;
    /* Not inside a character, nor inside an escape ("<U+001B>"). */
    while (elen > 0 && ((unsigned char)esc[elen] & 0xC0) == 0x80) {
      elen--;
    }
    char *lt = memrchr(esc, '<', elen), *gt = memrchr(esc, '>', elen);
    if (lt && (!gt || gt < lt) && elen - (size_t)(lt - esc) < 10 &&
        (strncmp(lt, "<U+", 3) == 0 || strncmp(lt, "<0x", 3) == 0)) {
      elen = (size_t)(lt - esc);
    }
  }
  memcpy(out, esc, elen);
  out[elen] = '\0';
  free(esc);
}
