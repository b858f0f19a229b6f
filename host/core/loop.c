#include "core/loop.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

struct loop_watch {
  int fd;
  unsigned events;
  loop_fd_fn fn;
  void *ud;
  bool dead; /* unwatched while its callback batch was running */
  loop_watch *next_dead;
};

/* Timers live in a binary min-heap ordered by (due, seq); `seq` keeps
 * timers with the same deadline in start order. */
struct loop_timer {
  uint64_t due;
  uint64_t seq;
  size_t index;
  loop_fn fn;
  void *ud;
  bool kept;  /* loop_timer_new's: its owner frees it */
  bool armed; /* in the heap (a kept timer may be out of it) */
};

typedef struct post_item {
  loop_fn fn;
  void *ud;
  struct post_item *next;
} post_item;

struct loop {
  int epfd;
  int wakefd;
  loop_timer **heap;
  size_t nheap, capheap;
  uint64_t seq;
  loop_watch *dead; /* watches to free once the current batch is done */
  /* Batches being dispatched: a callback may run the loop again (a
   * shutdown waiting for its servers), and the outer batch still holds
   * its pointers when the inner one ends. */
  unsigned dispatching;
  pthread_mutex_t post_lock;
  post_item *post_head, *post_tail;
  loop_task *soon_head, **soon_tail; /* loop_soon's, in order */
  loop_task *soon_running; /* the rest of the round run_soon runs */
};

uint64_t loop_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

loop *loop_new(void) {
  loop *l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  l->epfd = epoll_create1(EPOLL_CLOEXEC);
  l->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (l->epfd < 0 || l->wakefd < 0)
    goto fail;
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, l->wakefd, &ev) < 0)
    goto fail;
  pthread_mutex_init(&l->post_lock, NULL);
  l->soon_tail = &l->soon_head;
  return l;
fail:
  if (l->epfd >= 0)
    close(l->epfd);
  if (l->wakefd >= 0)
    close(l->wakefd);
  free(l);
  return NULL;
}

static void free_dead(loop *l) {
  while (l->dead) {
    loop_watch *w = l->dead;
    l->dead = w->next_dead;
    free(w);
  }
}

void loop_free(loop *l) {
  if (!l)
    return;
  for (size_t i = 0; i < l->nheap; i++) {
    if (l->heap[i]->kept)
      l->heap[i]->armed = false; /* its owner frees it */
    else
      free(l->heap[i]);
  }
  free(l->heap);
  free_dead(l);
  for (post_item *p = l->post_head; p;) {
    post_item *n = p->next;
    free(p);
    p = n;
  }
  pthread_mutex_destroy(&l->post_lock);
  close(l->epfd);
  close(l->wakefd);
  free(l);
}

static uint32_t to_epoll(unsigned events) {
  uint32_t e = 0;
  if (events & LOOP_READ)
    e |= EPOLLIN | EPOLLRDHUP;
  if (events & LOOP_WRITE)
    e |= EPOLLOUT;
  return e;
}

int loop_watch_fd(loop *l, int fd, unsigned events, loop_fd_fn fn, void *ud,
                  loop_watch **out) {
  loop_watch *w = calloc(1, sizeof *w);
  if (!w)
    return -ENOMEM;
  w->fd = fd;
  w->events = events;
  w->fn = fn;
  w->ud = ud;
  struct epoll_event ev = {.events = to_epoll(events), .data.ptr = w};
  if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
    int e = errno;
    free(w);
    return -e;
  }
  *out = w;
  return 0;
}

int loop_watch_update(loop *l, loop_watch *w, unsigned events) {
  if (w->dead)
    return -EINVAL;
  struct epoll_event ev = {.events = to_epoll(events), .data.ptr = w};
  if (epoll_ctl(l->epfd, EPOLL_CTL_MOD, w->fd, &ev) < 0)
    return -errno;
  w->events = events;
  return 0;
}

void loop_unwatch(loop *l, loop_watch *w) {
  if (!w || w->dead)
    return;
  epoll_ctl(l->epfd, EPOLL_CTL_DEL, w->fd, NULL);
  /* The current epoll batch may still hold a pointer to `w`: free it only
   * after the batch. */
  w->dead = true;
  w->next_dead = l->dead;
  l->dead = w;
  if (!l->dispatching)
    free_dead(l);
}

/* ---- timers ---- */

static bool timer_before(const loop_timer *a, const loop_timer *b) {
  return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static void heap_swap(loop *l, size_t i, size_t j) {
  loop_timer *t = l->heap[i];
  l->heap[i] = l->heap[j];
  l->heap[j] = t;
  l->heap[i]->index = i;
  l->heap[j]->index = j;
}

static void heap_up(loop *l, size_t i) {
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!timer_before(l->heap[i], l->heap[p]))
      break;
    heap_swap(l, i, p);
    i = p;
  }
}

static void heap_down(loop *l, size_t i) {
  for (;;) {
    size_t a = 2 * i + 1, b = a + 1, m = i;
    if (a < l->nheap && timer_before(l->heap[a], l->heap[m]))
      m = a;
    if (b < l->nheap && timer_before(l->heap[b], l->heap[m]))
      m = b;
    if (m == i)
      break;
    heap_swap(l, i, m);
    i = m;
  }
}

static void heap_remove(loop *l, size_t i) {
  l->nheap--;
  if (i != l->nheap) {
    l->heap[i] = l->heap[l->nheap];
    l->heap[i]->index = i;
    heap_down(l, i);
    heap_up(l, i);
  }
}

/* Room in the heap for one more timer. */
static bool heap_room(loop *l) {
  if (l->nheap == l->capheap) {
    size_t cap = l->capheap ? l->capheap * 2 : 16;
    loop_timer **h = realloc(l->heap, cap * sizeof *h);
    if (!h)
      return false;
    l->heap = h;
    l->capheap = cap;
  }
  return true;
}

/* Puts `t` in the heap (room made), due in `delay_ms`. */
static void heap_insert(loop *l, loop_timer *t, uint64_t delay_ms) {
  t->due = loop_now_ms() + delay_ms;
  t->seq = l->seq++;
  t->index = l->nheap;
  t->armed = true;
  l->heap[l->nheap++] = t;
  heap_up(l, t->index);
}

loop_timer *loop_timer_start(loop *l, uint64_t delay_ms, loop_fn fn, void *ud) {
  if (!heap_room(l))
    return NULL;
  /* malloc, not calloc: glibc's calloc never reuses what free() keeps in
   * its thread cache, and many timers are started and cancelled. */
  loop_timer *t = malloc(sizeof *t);
  if (!t)
    return NULL;
  *t = (loop_timer){.fn = fn, .ud = ud};
  heap_insert(l, t, delay_ms);
  return t;
}

void loop_timer_cancel(loop *l, loop_timer *t) {
  if (!t)
    return;
  heap_remove(l, t->index);
  free(t);
}

loop_timer *loop_timer_new(loop *l, loop_fn fn, void *ud) {
  (void)l;
  loop_timer *t = malloc(sizeof *t);
  if (t)
    *t = (loop_timer){.fn = fn, .ud = ud, .kept = true};
  return t;
}

void loop_timer_arm(loop *l, loop_timer *t, uint64_t delay_ms) {
  if (t->armed) {
    heap_remove(l, t->index);
    t->armed = false;
  }
  if (heap_room(l))
    heap_insert(l, t, delay_ms);
}

void loop_timer_disarm(loop *l, loop_timer *t) {
  if (t && t->armed) {
    heap_remove(l, t->index);
    t->armed = false;
  }
}

bool loop_timer_armed(const loop_timer *t) {
  return t && t->armed;
}

void loop_timer_free(loop *l, loop_timer *t) {
  loop_timer_disarm(l, t);
  free(t);
}

/* ---- posting ---- */

int loop_post(loop *l, loop_fn fn, void *ud) {
  post_item *p = malloc(sizeof *p);
  if (!p)
    return -1;
  p->fn = fn;
  p->ud = ud;
  p->next = NULL;
  pthread_mutex_lock(&l->post_lock);
  if (l->post_tail)
    l->post_tail->next = p;
  else
    l->post_head = p;
  l->post_tail = p;
  pthread_mutex_unlock(&l->post_lock);
  uint64_t one = 1;
  ssize_t n = write(l->wakefd, &one, sizeof one);
  (void)n; /* EAGAIN: the counter is already non-zero, the loop will wake */
  return 0;
}

static int run_posted(loop *l) {
  uint64_t v;
  ssize_t n = read(l->wakefd, &v, sizeof v);
  (void)n;
  pthread_mutex_lock(&l->post_lock);
  post_item *p = l->post_head;
  l->post_head = l->post_tail = NULL;
  pthread_mutex_unlock(&l->post_lock);
  int ran = 0;
  while (p) {
    post_item *next = p->next;
    p->fn(p->ud);
    free(p);
    p = next;
    ran++;
  }
  return ran;
}

void loop_soon(loop *l, loop_task *t, loop_fn fn, void *ud) {
  t->fn = fn;
  t->ud = ud;
  t->next = NULL;
  *l->soon_tail = t;
  l->soon_tail = &t->next;
}

/* The tasks asked for so far; those they ask for wait for the next turn,
 * so that a chain of them cannot starve fd events. */
static int run_soon(loop *l) {
  l->soon_running = l->soon_head;
  l->soon_head = NULL;
  l->soon_tail = &l->soon_head;
  int ran = 0;
  while (l->soon_running) {
    /* Taken off first: `t` may be freed by its callback, and the next
     * one withdrawn by it (loop_soon_cancel). */
    loop_task *t = l->soon_running;
    l->soon_running = t->next;
    t->fn(t->ud);
    ran++;
  }
  return ran;
}

void loop_soon_cancel(loop *l, loop_task *t) {
  for (loop_task **p = &l->soon_running; *p; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      return;
    }
  }
  for (loop_task **p = &l->soon_head; *p; p = &(*p)->next) {
    if (*p == t) {
      *p = t->next;
      if (l->soon_tail == &t->next) {
        l->soon_tail = p;
      }
      return;
    }
  }
}

static int run_timers(loop *l) {
  int ran = 0;
  if (l->nheap == 0) {
    return 0; /* no clock read for none */
  }
  uint64_t now = loop_now_ms();
  /* Only timers due now; a callback that starts a zero-delay timer gets it
   * run on the next turn, so a timer chain cannot starve fd events. */
  uint64_t limit_seq = l->seq;
  while (l->nheap > 0 && l->heap[0]->due <= now &&
         l->heap[0]->seq < limit_seq) {
    loop_timer *t = l->heap[0];
    heap_remove(l, 0);
    t->armed = false;
    loop_fn fn = t->fn;
    void *ud = t->ud;
    if (!t->kept)
      free(t);
    fn(ud);
    ran++;
  }
  return ran;
}

int loop_fd(const loop *l) {
  return l->epfd;
}

int loop_timeout_ms(const loop *l) {
  if (l->soon_head)
    return 0;
  if (l->nheap == 0)
    return -1;
  uint64_t now = loop_now_ms();
  uint64_t due = l->heap[0]->due;
  return due <= now ? 0 : (int)(due - now > 86400000u ? 86400000u : due - now);
}

int loop_run_once(loop *l, int max_wait_ms) {
  int timeout = max_wait_ms;
  int until = loop_timeout_ms(l);
  if (until >= 0 && (timeout < 0 || until < timeout))
    timeout = until;
  struct epoll_event evs[64];
  int n = epoll_wait(l->epfd, evs, 64, timeout);
  if (n < 0 && errno != EINTR)
    return -1;
  int ran = 0;
  l->dispatching++;
  for (int i = 0; i < n; i++) {
    loop_watch *w = evs[i].data.ptr;
    if (!w) {
      ran += run_posted(l);
      continue;
    }
    if (w->dead)
      continue;
    unsigned e = 0;
    if (evs[i].events & (EPOLLIN | EPOLLRDHUP))
      e |= LOOP_READ;
    if (evs[i].events & EPOLLOUT)
      e |= LOOP_WRITE;
    if (evs[i].events & EPOLLERR)
      e |= LOOP_ERROR;
    if (evs[i].events & EPOLLHUP)
      e |= LOOP_HUP | LOOP_READ;
    w->fn(w->ud, w->fd, e);
    ran++;
  }
  if (--l->dispatching == 0)
    free_dead(l);
  ran += run_soon(l);
  ran += run_timers(l);
  if (l->soon_head)
    ran += run_soon(l); /* asked for by a timer */
  return ran;
}
