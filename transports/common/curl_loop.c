#include "curl_loop.h"

#include <stdlib.h>

typedef struct transfer {
  CURL *easy;
  curl_done_fn done;
  void *ud;
  struct transfer *next;
} transfer;

struct curl_loop {
  const mcph_host *host;
  CURLM *multi;
  mcph_timer *timer;
  transfer *transfers;
};

static void check_done(curl_loop *cl) {
  CURLMsg *msg;
  int left;
  while ((msg = curl_multi_info_read(cl->multi, &left))) {
    if (msg->msg != CURLMSG_DONE)
      continue;
    CURL *easy = msg->easy_handle;
    CURLcode result = msg->data.result;
    transfer *t = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&t);
    curl_multi_remove_handle(cl->multi, easy);
    for (transfer **pp = &cl->transfers; *pp; pp = &(*pp)->next)
      if (*pp == t) {
        *pp = t->next;
        break;
      }
    curl_done_fn done = t ? t->done : NULL;
    void *ud = t ? t->ud : NULL;
    free(t);
    if (done)
      done(ud, easy, result);
  }
}

static void on_fd(void *ud, int fd, unsigned events) {
  curl_loop *cl = ud;
  int mask = 0, running;
  if (events & MCPH_FD_READ)
    mask |= CURL_CSELECT_IN;
  if (events & MCPH_FD_WRITE)
    mask |= CURL_CSELECT_OUT;
  if (events & (MCPH_FD_ERROR | MCPH_FD_HUP))
    mask |= CURL_CSELECT_ERR;
  curl_multi_socket_action(cl->multi, fd, mask, &running);
  check_done(cl);
}

static void on_timer(void *ud) {
  curl_loop *cl = ud;
  int running;
  cl->timer = NULL; /* fired timers free themselves */
  curl_multi_socket_action(cl->multi, CURL_SOCKET_TIMEOUT, 0, &running);
  check_done(cl);
}

/* CURLMOPT_SOCKETFUNCTION: curl says which sockets it wants watched. */
static int socket_cb(CURL *easy, curl_socket_t s, int what, void *userp,
                     void *socketp) {
  (void)easy;
  curl_loop *cl = userp;
  mcph_watch *w = socketp;
  if (what == CURL_POLL_REMOVE) {
    if (w)
      cl->host->fd_unwatch(cl->host, w);
    curl_multi_assign(cl->multi, s, NULL);
    return 0;
  }
  unsigned ev = 0;
  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT)
    ev |= MCPH_FD_READ;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
    ev |= MCPH_FD_WRITE;
  /* -1 makes libcurl fail the transfers (CURLM_ABORTED_BY_CALLBACK)
   * rather than leave one waiting on a socket nobody watches. */
  if (w)
    return cl->host->fd_update(cl->host, w, ev) == MCPH_OK ? 0 : -1;
  if (cl->host->fd_watch(cl->host, s, ev, on_fd, cl, &w) != MCPH_OK)
    return -1;
  curl_multi_assign(cl->multi, s, w);
  return 0;
}

/* CURLMOPT_TIMERFUNCTION: one timer for the whole multi handle. */
static int timer_cb(CURLM *multi, long timeout_ms, void *userp) {
  (void)multi;
  curl_loop *cl = userp;
  if (cl->timer) {
    cl->host->timer_cancel(cl->host, cl->timer);
    cl->timer = NULL;
  }
  if (timeout_ms >= 0 &&
      cl->host->timer_start(cl->host, (uint64_t)timeout_ms, on_timer, cl,
                            &cl->timer) != MCPH_OK)
    return -1; /* as above: fail the transfers, never hang */
  return 0;
}

curl_loop *curl_loop_new(const mcph_host *host) {
  curl_loop *cl = calloc(1, sizeof *cl);
  if (!cl)
    return NULL;
  cl->host = host;
  cl->multi = curl_multi_init();
  if (!cl->multi) {
    free(cl);
    return NULL;
  }
  curl_multi_setopt(cl->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
  curl_multi_setopt(cl->multi, CURLMOPT_SOCKETDATA, cl);
  curl_multi_setopt(cl->multi, CURLMOPT_TIMERFUNCTION, timer_cb);
  curl_multi_setopt(cl->multi, CURLMOPT_TIMERDATA, cl);
  return cl;
}

int curl_loop_add(curl_loop *cl, CURL *easy, curl_done_fn done, void *ud) {
  transfer *t = calloc(1, sizeof *t);
  if (!t)
    return -1;
  t->easy = easy;
  t->done = done;
  t->ud = ud;
  curl_easy_setopt(easy, CURLOPT_PRIVATE, t);
  if (curl_multi_add_handle(cl->multi, easy) != CURLM_OK) {
    free(t);
    return -1;
  }
  t->next = cl->transfers;
  cl->transfers = t;
  return 0;
}

void curl_loop_remove(curl_loop *cl, CURL *easy) {
  for (transfer **pp = &cl->transfers; *pp; pp = &(*pp)->next) {
    if ((*pp)->easy == easy) {
      transfer *t = *pp;
      *pp = t->next;
      curl_multi_remove_handle(cl->multi, easy);
      free(t);
      return;
    }
  }
}

void curl_loop_free(curl_loop *cl) {
  if (!cl)
    return;
  while (cl->transfers) {
    transfer *t = cl->transfers;
    cl->transfers = t->next;
    curl_multi_remove_handle(cl->multi, t->easy);
    free(t);
  }
  if (cl->timer)
    cl->host->timer_cancel(cl->host, cl->timer);
  cl->timer = NULL;
  /* curl_multi_cleanup() may still report sockets and timeouts; nothing
   * must reach the cancelled timer or the loop from here on. */
  curl_multi_setopt(cl->multi, CURLMOPT_TIMERFUNCTION, NULL);
  curl_multi_cleanup(cl->multi);
  free(cl);
}
