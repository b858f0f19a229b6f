/* The event loop: epoll fd watches, one-shot timers, and a thread-safe
 * post queue woken through an eventfd. Single-threaded: everything but
 * loop_post() runs on the thread that calls loop_run_once(). */
#ifndef MCPHOST_LOOP_H
#define MCPHOST_LOOP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct loop loop;
typedef struct loop_watch loop_watch;
typedef struct loop_timer loop_timer;

typedef void (*loop_fd_fn)(void *ud, int fd, unsigned events);
typedef void (*loop_fn)(void *ud);

enum { LOOP_READ = 1u, LOOP_WRITE = 2u, LOOP_ERROR = 4u, LOOP_HUP = 8u };

loop *loop_new(void);
/* Frees the loop. Pending timers and watches are freed without firing;
 * posted callbacks not yet run are dropped. */
void loop_free(loop *l);

int loop_watch_fd(loop *l, int fd, unsigned events, loop_fd_fn fn, void *ud,
                  loop_watch **out);
int loop_watch_update(loop *l, loop_watch *w, unsigned events);
/* Safe from inside the watch's own callback. */
void loop_unwatch(loop *l, loop_watch *w);

/* One-shot; the timer frees itself after firing. */
loop_timer *loop_timer_start(loop *l, uint64_t delay_ms, loop_fn fn, void *ud);
void loop_timer_cancel(loop *l, loop_timer *t);

/* A timer that stays its owner's: armed and disarmed any number of times
 * without an allocation (a deadline that moves with every request), not
 * freed when it fires (it is disarmed then). Made disarmed; freed with
 * loop_timer_free, before the loop is (when armed). */
loop_timer *loop_timer_new(loop *l, loop_fn fn, void *ud);
/* Arms `t` to fire in `delay_ms`, or moves it there when armed. */
void loop_timer_arm(loop *l, loop_timer *t, uint64_t delay_ms);
void loop_timer_disarm(loop *l, loop_timer *t);
bool loop_timer_armed(const loop_timer *t);
void loop_timer_free(loop *l, loop_timer *t);

/* Any thread. Returns 0 or -1 on allocation failure. */
int loop_post(loop *l, loop_fn fn, void *ud);
/* The loop's thread: fn(ud) runs once the callback running now returns,
 * in this turn of the loop (after its fd callbacks, or after its timers
 * when a timer started it), in the order asked; what such a callback
 * asks for runs later (never in the same round of them). No allocation,
 * no clock, no system call: `t` is the caller's (inside its own
 * record), untouched until fn runs. What a zero-delay timer does, for
 * the work a turn starts often (an operation of the client API).
 * Dropped by loop_free. */
typedef struct loop_task {
  loop_fn fn;
  void *ud;
  struct loop_task *next;
} loop_task;
void loop_soon(loop *l, loop_task *t, loop_fn fn, void *ud);
/* Withdraws task `t`, asked for and not run yet (its record may then be
 * freed); nothing when it ran or was never asked for. A walk of the
 * tasks waiting: for the rare withdrawal (an operation cancelled before
 * it began). */
void loop_soon_cancel(loop *l, loop_task *t);

/* Waits at most `max_wait_ms` (-1: until something happens) and runs what
 * is ready. Returns the number of callbacks run. */
int loop_run_once(loop *l, int max_wait_ms);

uint64_t loop_now_ms(void);

/* For a program that runs the loop from its own (poll) loop: the one fd
 * that is readable when a watch, or a post, has work (the epoll fd), and
 * the milliseconds until the next timer is due (0: due now; -1: none).
 * The loop's thread. */
int loop_fd(const loop *l);
int loop_timeout_ms(const loop *l);

#endif
