/* The secrets service's update (host_secrets_update.c): a locked
 * read-modify-write from any thread. Threads of one process and separate
 * processes that increment one counter through it never lose an
 * increment; the shared document lives in the state directory itself
 * with the modes of a secret; a file open to others is refused; a
 * callback's error writes nothing; a peek never waits for the lock. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/host.h"
#include "core/host_secrets.h"

static char dir[] = "/tmp/mcphost-secrets-update-XXXXXX";
static host *h;
static plugin fake = {.id = "test.secrets"};
static plugin_handle handle;
static const mcph_host *api;
static const mcph_host_secrets *svc;

static void setup(void) {
  CHECK(mkdtemp(dir) != NULL);
  setenv("XDG_STATE_HOME", dir, 1);
  h = host_new(&(host_options){.builtin_plugin_dir = dir});
  handle = (plugin_handle){.owner = h, .p = &fake};
  api = &handle.api;
  svc = host_secrets_service();
}

/* Increments the decimal counter in the value; the gap between read and
 * write makes a lost update likely if the lock did not hold. */
typedef struct counter {
  char out[32];
} counter;

static int increment(void *ud, mcph_secret_update *u) {
  counter *c = ud;
  long n = u->value ? strtol(u->value, NULL, 10) : 0;
  usleep(200);
  snprintf(c->out, sizeof c->out, "%ld", n + 1);
  u->new_value = c->out;
  u->new_len = strlen(c->out);
  return MCPH_OK;
}

static int bump(const char *key, unsigned flags) {
  counter c;
  mcph_error err;
  mcph_error_init(&err);
  int rc = svc->update(api, key, flags, increment, &c, &err);
  if (rc != MCPH_OK) {
    fprintf(stderr, "  update: %s\n", err.message);
  }
  return rc;
}

static char got[sizeof(((mcph_error *)0)->message) + 16];
static int copy_value(void *ud, mcph_secret_update *u) {
  (void)ud;
  snprintf(got, sizeof got, "%s", u->value ? u->value : "(none)");
  return MCPH_OK;
}

static const char *value_of(const char *key, unsigned flags) {
  mcph_error err;
  mcph_error_init(&err);
  got[0] = '\0';
  if (svc->update(api, key, flags | MCPH_SECRET_PEEK, copy_value, NULL, &err) !=
      MCPH_OK) {
    snprintf(got, sizeof got, "error: %s", err.message);
  }
  return got;
}

#define THREADS 8
#define ROUNDS 40

static void *bump_rounds(void *arg) {
  unsigned flags = *(unsigned *)arg;
  for (int i = 0; i < ROUNDS; i++) {
    CHECK(bump("counter", flags) == MCPH_OK);
  }
  return NULL;
}

TEST(test_update_threads_never_lose_an_increment) {
  unsigned flags = 0;
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    CHECK(pthread_create(&t[i], NULL, bump_rounds, &flags) == 0);
  }
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
  }
  CHECK_STR(value_of("counter", 0), "320");
  /* The loop's get sees what update wrote, in the plugin's own store. */
  mcph_error err;
  mcph_error_init(&err);
  size_t len = 0;
  CHECK_STR(svc->get(api, "counter", &len, &err), "320");
  CHECK(len == 3);
}

TEST(test_update_processes_never_lose_an_increment) {
  pid_t kids[4];
  for (int i = 0; i < 4; i++) {
    kids[i] = fork();
    if (kids[i] == 0) {
      int bad = 0;
      for (int k = 0; k < ROUNDS; k++) {
        bad += bump("shared-counter", MCPH_SECRET_SHARED) != MCPH_OK;
      }
      _exit(bad ? 1 : 0);
    }
    CHECK(kids[i] > 0);
  }
  for (int k = 0; k < ROUNDS; k++) { /* and this process at the same time */
    CHECK(bump("shared-counter", MCPH_SECRET_SHARED) == MCPH_OK);
  }
  for (int i = 0; i < 4; i++) {
    int st = 0;
    CHECK(waitpid(kids[i], &st, 0) == kids[i]);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  CHECK_STR(value_of("shared-counter", MCPH_SECRET_SHARED), "200");
}

TEST(test_update_shared_document_is_in_the_state_directory_0600) {
  char path[sizeof dir + 64];
  snprintf(path, sizeof path, "%s/mcphost/shared-counter", dir);
  struct stat sb;
  CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600);
  snprintf(path, sizeof path, "%s/mcphost", dir);
  CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0700);
  /* Not the plugin's own store: that one has no such key. */
  CHECK_STR(value_of("shared-counter", 0), "(none)");
}

static int called;
static int count_call(void *ud, mcph_secret_update *u) {
  (void)ud;
  (void)u;
  called++;
  return MCPH_OK;
}

TEST(test_update_refuses_a_file_others_may_read) {
  char path[sizeof dir + 64];
  snprintf(path, sizeof path, "%s/mcphost/open.json", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("{}", f);
    fclose(f);
  }
  chmod(path, 0644);
  mcph_error err;
  mcph_error_init(&err);
  called = 0;
  CHECK(svc->update(api, "open.json", MCPH_SECRET_SHARED, count_call, NULL,
                    &err) == MCPH_EIO);
  CHECK(called == 0);
  CHECK_CONTAINS(err.message, "open.json is refused");
  CHECK_CONTAINS(err.message, "0644");
}

static int refuse(void *ud, mcph_secret_update *u) {
  (void)ud;
  u->new_value = "never";
  u->new_len = 5;
  return MCPH_EAUTH;
}

TEST(test_update_callback_error_writes_nothing) {
  mcph_error err;
  mcph_error_init(&err);
  CHECK(svc->update(api, "counter", 0, refuse, NULL, &err) == MCPH_EAUTH);
  CHECK_STR(value_of("counter", 0), "320");
}

static int replace_aside(void *ud, mcph_secret_update *u) {
  (void)ud;
  u->new_value = "{}";
  u->new_len = 2;
  u->set_aside = 1;
  return MCPH_OK;
}

TEST(test_update_sets_the_old_value_aside_when_asked) {
  CHECK(bump("doc", MCPH_SECRET_SHARED) == MCPH_OK); /* "1" */
  mcph_error err;
  mcph_error_init(&err);
  CHECK(svc->update(api, "doc", MCPH_SECRET_SHARED, replace_aside, NULL,
                    &err) == MCPH_OK);
  CHECK_STR(value_of("doc", MCPH_SECRET_SHARED), "{}");
  char cmd[sizeof dir + 96];
  snprintf(cmd, sizeof cmd, "grep -qx 1 %s/mcphost/doc.corrupt-*", dir);
  CHECK(system(cmd) == 0);
}

/* A holder that keeps the lock until told to let go. */
static atomic_int holding, release;
static int hold(void *ud, mcph_secret_update *u) {
  (void)ud;
  (void)u;
  atomic_store(&holding, 1);
  while (!atomic_load(&release)) {
    usleep(1000);
  }
  return MCPH_OK;
}
static void *hold_lock(void *arg) {
  (void)arg;
  mcph_error err;
  mcph_error_init(&err);
  CHECK(svc->update(api, "counter", 0, hold, NULL, &err) == MCPH_OK);
  return NULL;
}

TEST(test_update_peek_does_not_wait_for_the_lock) {
  pthread_t t;
  CHECK(pthread_create(&t, NULL, hold_lock, NULL) == 0);
  while (!atomic_load(&holding)) {
    usleep(1000);
  }
  /* Were the peek to wait, the holder (which waits for us) would keep the
   * lock for good and the peek would end with MCPH_EBUSY after 30 s. */
  CHECK_STR(value_of("counter", 0), "320");
  atomic_store(&release, 1);
  pthread_join(t, NULL);
}

TEST(test_update_rejects_bad_keys_and_flags) {
  mcph_error err;
  mcph_error_init(&err);
  CHECK(svc->update(api, "../x", 0, count_call, NULL, &err) == MCPH_EINVAL);
  CHECK(svc->update(api, "k", 1u << 7, count_call, NULL, &err) == MCPH_EINVAL);
  CHECK(svc->update(api, "k", 0, NULL, NULL, &err) == MCPH_EINVAL);
  /* The host's own table belongs to no plugin. */
  CHECK(svc->update(&h->self.api, "k", 0, count_call, NULL, &err) ==
        MCPH_EINVAL);
}

static void teardown(void) {
  host_free(h);
  char cmd[sizeof dir + 16];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
}

TEST(test_setup) {
  setup();
}
TEST(test_teardown) {
  teardown();
}

RUN(T(test_setup), T(test_update_threads_never_lose_an_increment),
    T(test_update_processes_never_lose_an_increment),
    T(test_update_shared_document_is_in_the_state_directory_0600),
    T(test_update_refuses_a_file_others_may_read),
    T(test_update_callback_error_writes_nothing),
    T(test_update_sets_the_old_value_aside_when_asked),
    T(test_update_peek_does_not_wait_for_the_lock),
    T(test_update_rejects_bad_keys_and_flags), T(test_teardown))
