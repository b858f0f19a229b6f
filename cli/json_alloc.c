/* cJSON's allocations in the mcphost executable (json_alloc.h).
 *
 * Every call makes and deletes a few dozen small blocks through cJSON (a
 * tree's nodes, its keys and short strings), and glibc's malloc and free
 * cost more than the rest of what a node is used for. The calling
 * thread (the loop's, the one that started the process) keeps up to
 * KEEP freed blocks of each small size and gives them out again; other
 * threads (plugins' workers) use malloc and free as they are.
 *
 * Every block is a real malloc() block, kept or not, so any mix stays
 * right: cJSON_free() of a block from malloc(), free() of a block from
 * cJSON's allocator (as code that takes a tree's string does), a block
 * allocated in one thread and freed in another. A kept block is one that
 * malloc_usable_size() says is at least its class's size, so a block
 * given out is always as large as asked.
 *
 * The hooks are cJSON's for the whole process, the plugins' trees too,
 * which is why this is the executable's and never the library's: a
 * program that embeds libmcphost keeps its own. A sanitizer build keeps
 * nothing, so that every block still reaches the sanitizer's free (a use
 * after free or a leak of a node is seen). */
#include "cli/json_alloc.h"

#include <stdlib.h> /* __GLIBC__ */

#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__)
#define JSON_ALLOC_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define JSON_ALLOC_OFF 1
#endif
#endif

#ifdef JSON_ALLOC_OFF

void json_alloc_install(void) {}

#else

#include <cjson/cJSON.h>
#include <malloc.h>
#include <stdbool.h>

/* Classes of usable size 24 (glibc's smallest), 40, ... 136: class k
 * holds blocks of at least 24 + 16 k bytes. cJSON's node is 64. */
#define SMALLEST 24u
#define STEP 16u
#define CLASSES 8u
/* 128: a tool list's tree (some 100 nodes of one class) freed before
 * the front end parses its text is given out again whole. */
#define KEEP 128u

/* Set in the thread that installed the hooks: a thread-local test, where
 * pthread_self() and pthread_equal() were a call each per block. */
static _Thread_local bool owner;
static void *kept[CLASSES][KEEP];
static unsigned nkept[CLASSES];

static void *json_malloc(size_t n) {
  if (n <= SMALLEST + STEP * (CLASSES - 1) && owner) {
    size_t k = n <= SMALLEST ? 0 : (n - SMALLEST + STEP - 1) / STEP;
    if (nkept[k]) {
      return kept[k][--nkept[k]];
    }
  }
  return malloc(n);
}

static void json_free(void *p) {
  if (p && owner) {
    size_t u = malloc_usable_size(p);
    if (u >= SMALLEST && u < SMALLEST + STEP * CLASSES) {
      size_t k = (u - SMALLEST) / STEP;
      if (nkept[k] < KEEP) {
        kept[k][nkept[k]++] = p;
        return;
      }
    }
  }
  free(p);
}

void json_alloc_install(void) {
  owner = true;
  cJSON_InitHooks(
      &(cJSON_Hooks){.malloc_fn = json_malloc, .free_fn = json_free});
}

#endif
