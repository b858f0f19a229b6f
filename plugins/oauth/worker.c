/* Flows on their own threads. A job runs its work (a flow, a logout) on a
 * thread of its own, then posts its completion to the loop, where `done`
 * runs. Jobs are kept in a list so that deinit joins every thread before
 * the plugin goes away (posts still queued then are dropped by the
 * host, so deinit completes what is left). */
#include <pthread.h>
#include <stdlib.h>

#include "worker.h"

static void *thread_main(void *ud) {
  job *j = ud;
  j->work(j);
  if (j->host->post(j->host, job_posted, j) != 0) {
    /* out of memory: deinit completes it */
  }
  return NULL;
}

void job_posted(void *ud) {
  job *j = ud;
  if (j->finished) {
    return;
  }
  j->finished = true;
  j->done(j);
}

int job_start(job **list, job *j) {
  j->next = *list;
  *list = j;
  if (pthread_create(&j->thread, NULL, thread_main, j) != 0) {
    *list = j->next;
    return -1;
  }
  j->started = true;
  return 0;
}

void job_reap(job **list) {
  for (job **pp = list; *pp;) {
    job *j = *pp;
    if (j->finished) {
      pthread_join(j->thread, NULL);
      *pp = j->next;
      j->release(j);
      continue;
    }
    pp = &j->next;
  }
}

void job_join_all(job **list) {
  for (job *j = *list; j; j = j->next) {
    if (j->cancel && !j->finished) {
      j->cancel(j);
    }
  }
  while (*list) {
    job *j = *list;
    *list = j->next;
    if (j->started) {
      pthread_join(j->thread, NULL);
    }
    j->release(j);
  }
}
