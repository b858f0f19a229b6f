/* cJSON's allocations in the executable (cli/json_alloc.h): small blocks
 * kept and given out again, every one a real malloc() block. */
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "cli/json_alloc.h"

#ifndef NO_MALLINFO
#include <malloc.h>
#endif

TEST(test_a_freed_node_is_given_out_again) {
  cJSON *a = cJSON_CreateObject();
  void *was = a;
  cJSON_Delete(a);
  void *m = malloc(sizeof(cJSON)); /* malloc has it not: it is kept */
  cJSON *b = cJSON_CreateString("x");
#ifndef NO_MALLINFO
  CHECK(m != was);
  CHECK((void *)b == was);
#else
  (void)was; /* a sanitizer build keeps nothing */
#endif
  CHECK_STR(b->valuestring, "x");
  free(m);
  cJSON_Delete(b);
}

/* Blocks of every small size freed in a mixed order, then asked for
 * again: each given out is at least as large as asked. */
TEST(test_every_block_is_as_large_as_asked) {
  enum { N = 200 };
  static void *p[N];
  for (size_t i = 0; i < N; i++) {
    p[i] = cJSON_malloc(1 + (i * 37) % 160);
  }
  for (size_t i = 0; i < N; i++) {
    cJSON_free(p[(i * 7) % N]); /* 7 and 200 are coprime: each once */
  }
  for (size_t n = 1; n <= 160; n++) {
    unsigned char *q = cJSON_malloc(n);
    CHECK(q != NULL);
#ifndef NO_MALLINFO
    CHECK(malloc_usable_size(q) >= n);
#endif
    memset(q, 0xA5, n);
    cJSON_free(q);
  }
}

/* Any mix of the two allocators: code that takes a tree's string frees
 * it with free(), and a text from malloc() becomes a node's string. */
TEST(test_malloc_and_cjson_blocks_mix) {
  cJSON *s = cJSON_CreateString("taken by its reader");
  char *text = s->valuestring;
  s->valuestring = NULL;
  cJSON_Delete(s);
  CHECK_STR(text, "taken by its reader");
  free(text);
  cJSON *r = cJSON_CreateNull();
  r->type = cJSON_Raw;
  r->valuestring = strdup("[1,2]");
  char *printed = cJSON_PrintUnformatted(r);
  CHECK_STR(printed, "[1,2]");
  free(printed);
  cJSON_Delete(r); /* a malloc() block through cJSON's free */
}

static void *other_thread(void *was) {
  /* Another thread's blocks come from malloc: never one still kept. */
  void *q = cJSON_malloc(64);
  bool fresh = q != was;
  cJSON_free(q);
  return fresh ? q : NULL;
}

TEST(test_other_threads_use_malloc) {
  void *p = cJSON_malloc(64);
  cJSON_free(p); /* kept by this thread (the one that installed) */
  pthread_t t;
  void *got = NULL;
  CHECK(pthread_create(&t, NULL, other_thread, p) == 0);
  CHECK(pthread_join(t, &got) == 0);
  CHECK(got != NULL);
}

int main(void) {
  json_alloc_install();
  static const test_case tests[] = {
      T(test_a_freed_node_is_given_out_again),
      T(test_every_block_is_as_large_as_asked),
      T(test_malloc_and_cjson_blocks_mix),
      T(test_other_threads_use_malloc),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0]);
}
