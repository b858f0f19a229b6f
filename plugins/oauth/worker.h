/* Jobs on their own threads, completed on the loop (worker.c). */
#ifndef MCPH_OAUTH_WORKER_H
#define MCPH_OAUTH_WORKER_H

#include <pthread.h>
#include <stdbool.h>

#include <mcphost/mcphost.h>

typedef struct job job;
struct job {
  const mcph_host *host;
  void (*work)(job *j);    /* [thread] the blocking part */
  void (*done)(job *j);    /* [loop] after work, at most once */
  void (*release)(job *j); /* [loop] frees the job, after done or unrun */
  void (*cancel)(job *j);  /* [loop] asks work to end soon; may be NULL */
  void *ud;
  pthread_t thread;
  bool started, finished;
  job *next;
};

/* [loop] Starts j's thread and keeps it in `list`. 0 or -1. */
int job_start(job **list, job *j);
/* [loop] The host's post callback: runs j->done once. */
void job_posted(void *ud);
/* [loop] Joins and releases the jobs that completed. */
void job_reap(job **list);
/* [loop] Joins every thread and releases every job (deinit). */
void job_join_all(job **list);

#endif
