#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>

#include "check.h"
#include "core/loop.h"

static void record(void *ud) {
  int *order = ud;
  order[order[0]++ + 1] = 1;
}

typedef struct seq {
  int n;
  int got[8];
} seq;
typedef struct tagged {
  seq *s;
  int tag;
} tagged;
static void push(void *ud) {
  tagged *t = ud;
  t->s->got[t->s->n++] = t->tag;
}

TEST(test_timers_fire_in_deadline_order) {
  loop *l = loop_new();
  seq s = {0};
  tagged a = {&s, 1}, b = {&s, 2}, c = {&s, 3};
  loop_timer_start(l, 20, push, &c);
  loop_timer_start(l, 0, push, &a);
  loop_timer_start(l, 5, push, &b);
  while (s.n < 3)
    loop_run_once(l, 100);
  CHECK(s.got[0] == 1 && s.got[1] == 2 && s.got[2] == 3);
  loop_free(l);
}

TEST(test_cancelled_timer_never_fires) {
  loop *l = loop_new();
  seq s = {0};
  tagged a = {&s, 1}, b = {&s, 2};
  loop_timer *t = loop_timer_start(l, 0, push, &a);
  loop_timer_start(l, 1, push, &b);
  loop_timer_cancel(l, t);
  while (s.n < 1)
    loop_run_once(l, 100);
  CHECK(s.n == 1 && s.got[0] == 2);
  loop_free(l);
}

static void fd_ready(void *ud, int fd, unsigned events) {
  int *hits = ud;
  char buf[16];
  if (events & LOOP_READ)
    hits[0] += (int)read(fd, buf, sizeof buf);
}

TEST(test_fd_watch_reports_readable_data) {
  loop *l = loop_new();
  int p[2];
  CHECK(pipe(p) == 0);
  int hits[1] = {0};
  loop_watch *w;
  CHECK(loop_watch_fd(l, p[0], LOOP_READ, fd_ready, hits, &w) == 0);
  CHECK(write(p[1], "abc", 3) == 3);
  while (hits[0] == 0)
    loop_run_once(l, 100);
  CHECK(hits[0] == 3);
  loop_unwatch(l, w);
  close(p[0]);
  close(p[1]);
  loop_free(l);
}

static void *poster(void *ud) {
  void **args = ud;
  loop_post(args[0], record, args[1]);
  return NULL;
}

TEST(test_post_from_another_thread_runs_on_the_loop) {
  loop *l = loop_new();
  int order[4] = {0};
  void *args[2] = {l, order};
  pthread_t th;
  pthread_create(&th, NULL, poster, args);
  pthread_join(th, NULL);
  while (order[0] == 0)
    loop_run_once(l, 100);
  CHECK(order[0] == 1 && order[1] == 1);
  loop_free(l);
}

/* Two watches ready in one batch; the first to run unwatches the other
 * and runs the loop again inside its callback, as a shutdown that waits
 * for its servers does. */
typedef struct nested {
  loop *l;
  loop_watch *w[2];
  int fired;
} nested;
typedef struct nested_end {
  nested *n;
  int me;
} nested_end;

static void unwatch_other_and_run(void *ud, int fd, unsigned events) {
  (void)events;
  char c;
  CHECK(read(fd, &c, 1) == 1); /* level-triggered: not ready again */
  nested_end *e = ud;
  nested *n = e->n;
  if (n->fired++ == 0) {
    loop_unwatch(n->l, n->w[1 - e->me]);
    n->w[1 - e->me] = NULL;
    loop_run_once(n->l, 0);
  }
}

TEST(test_a_nested_run_keeps_the_outer_batchs_watches) {
  loop *l = loop_new();
  int a[2], b[2];
  CHECK(pipe(a) == 0 && pipe(b) == 0);
  nested n = {.l = l};
  nested_end ea = {&n, 0}, eb = {&n, 1};
  CHECK(loop_watch_fd(l, a[0], LOOP_READ, unwatch_other_and_run, &ea,
                      &n.w[0]) == 0);
  CHECK(loop_watch_fd(l, b[0], LOOP_READ, unwatch_other_and_run, &eb,
                      &n.w[1]) == 0);
  CHECK(write(a[1], "x", 1) == 1 && write(b[1], "x", 1) == 1);
  /* The outer batch holds both events: the second watch, unwatched and
   * (before) freed by the inner run, must be skipped, not read. */
  while (n.fired == 0)
    loop_run_once(l, 100);
  CHECK(n.fired == 1);
  loop_unwatch(l, n.w[0] ? n.w[0] : n.w[1]);
  close(a[0]);
  close(a[1]);
  close(b[0]);
  close(b[1]);
  loop_free(l);
}

/* loop_soon: an fd callback asks for two tasks; they run in the order
 * asked, after it returns, in the same turn (one loop_run_once runs
 * them), and the task one of them asks for runs after them (a later
 * round of the turn), and nothing is left due. */
typedef struct soon_case {
  loop *l;
  seq s;
  loop_task t[3];
  tagged tag[3];
  bool in_fd; /* the fd callback is running */
  bool ran_inside;
} soon_case;

static void soon_push(void *ud) {
  tagged *t = ud;
  soon_case *c = (soon_case *)((char *)t->s - offsetof(soon_case, s));
  c->ran_inside |= c->in_fd;
  push(ud);
  if (t->tag == 1) /* asks for one more */
    loop_soon(c->l, &c->t[2], soon_push, &c->tag[2]);
}

static void soon_from_fd(void *ud, int fd, unsigned events) {
  (void)events;
  soon_case *c = ud;
  char b;
  CHECK(read(fd, &b, 1) == 1);
  c->in_fd = true;
  loop_soon(c->l, &c->t[0], soon_push, &c->tag[0]);
  loop_soon(c->l, &c->t[1], soon_push, &c->tag[1]);
  CHECK(c->s.n == 0);                /* not inside the caller */
  CHECK(loop_timeout_ms(c->l) == 0); /* due: a poller waits for none */
  c->in_fd = false;
}

TEST(test_soon_tasks_run_after_the_callback_in_order_in_the_same_turn) {
  soon_case c = {.l = loop_new()};
  for (int i = 0; i < 3; i++)
    c.tag[i] = (tagged){&c.s, i + 1};
  int p[2];
  CHECK(pipe(p) == 0);
  loop_watch *w;
  CHECK(loop_watch_fd(c.l, p[0], LOOP_READ, soon_from_fd, &c, &w) == 0);
  CHECK(write(p[1], "x", 1) == 1);
  while (c.s.n == 0)
    loop_run_once(c.l, 100);
  CHECK(!c.ran_inside);
  CHECK(c.s.n == 3);
  CHECK(c.s.got[0] == 1 && c.s.got[1] == 2 && c.s.got[2] == 3);
  CHECK(loop_timeout_ms(c.l) == -1);
  loop_unwatch(c.l, w);
  close(p[0]);
  close(p[1]);
  loop_free(c.l);
}

/* loop_soon_cancel: a task withdrawn before it runs never runs: one
 * still waiting (the last asked, so that the next one asked after it
 * still runs), and one of the round being run, withdrawn by the task
 * before it (its record may be gone by then). */
typedef struct cancel_case {
  loop *l;
  seq s;
  loop_task t[4];
  tagged tag[4];
} cancel_case;

static void push_and_cancel_next(void *ud) {
  tagged *t = ud;
  cancel_case *c = (cancel_case *)((char *)t->s - offsetof(cancel_case, s));
  push(ud);
  loop_soon_cancel(c->l, &c->t[1]); /* the next of this round */
}

TEST(test_a_soon_task_withdrawn_never_runs) {
  cancel_case c = {.l = loop_new()};
  for (int i = 0; i < 4; i++)
    c.tag[i] = (tagged){&c.s, i + 1};
  loop_soon(c.l, &c.t[0], push_and_cancel_next, &c.tag[0]);
  loop_soon(c.l, &c.t[1], push, &c.tag[1]);
  loop_soon(c.l, &c.t[2], push, &c.tag[2]);
  loop_soon_cancel(c.l, &c.t[2]); /* the last one waiting */
  loop_soon_cancel(c.l, &c.t[2]); /* twice: nothing */
  loop_soon(c.l, &c.t[3], push, &c.tag[3]);
  loop_run_once(c.l, 0);
  CHECK(c.s.n == 2);
  CHECK(c.s.got[0] == 1 && c.s.got[1] == 4);
  CHECK(loop_timeout_ms(c.l) == -1);
  loop_free(c.l);
}

RUN(T(test_timers_fire_in_deadline_order), T(test_cancelled_timer_never_fires),
    T(test_fd_watch_reports_readable_data),
    T(test_post_from_another_thread_runs_on_the_loop),
    T(test_a_nested_run_keeps_the_outer_batchs_watches),
    T(test_soon_tasks_run_after_the_callback_in_order_in_the_same_turn),
    T(test_a_soon_task_withdrawn_never_runs))
