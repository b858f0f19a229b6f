/* Unit tests of the stdio transport's line splitter (transports/stdio/
 * framing.c, linked directly). */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "framing.h"

typedef struct got {
  int kinds[64];
  char lines[64][128];
  size_t lens[64];
  int n;
} got;

/* Drains every event into g. */
static void drain(framing *f, got *g) {
  const char *line;
  size_t len;
  enum framing_kind k;
  while ((k = framing_next(f, &line, &len)) != FRAMING_NONE && g->n < 64) {
    g->kinds[g->n] = k;
    g->lens[g->n] = len;
    snprintf(g->lines[g->n], sizeof g->lines[0], "%.*s",
             line ? (int)len : 0, line ? line : "");
    g->n++;
  }
}

/* Feeds `s` in chunks of `chunk` bytes, draining after each. */
static void feed(framing *f, got *g, const char *s, size_t chunk) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i += chunk) {
    size_t c = n - i < chunk ? n - i : chunk;
    CHECK(framing_push(f, s + i, c));
    drain(f, g);
  }
}

TEST(test_splits_lines_whatever_the_chunking) {
  const char *in = "{\"a\":1}\n[2]\n{\"c\":\"x y\"}\n";
  for (size_t chunk = 1; chunk <= strlen(in); chunk++) {
    framing f;
    got g = {0};
    framing_init(&f, 1024);
    feed(&f, &g, in, chunk);
    CHECK(g.n == 3);
    CHECK_STR(g.lines[0], "{\"a\":1}");
    CHECK_STR(g.lines[1], "[2]");
    CHECK_STR(g.lines[2], "{\"c\":\"x y\"}");
    CHECK(g.kinds[0] == FRAMING_MESSAGE && g.kinds[2] == FRAMING_MESSAGE);
    framing_free(&f);
  }
}

TEST(test_strips_trailing_cr_only) {
  framing f;
  got g = {0};
  framing_init(&f, 1024);
  feed(&f, &g, "{\"a\":\"b\rc\"}\r\n", 3);
  CHECK(g.n == 1);
  CHECK_STR(g.lines[0], "{\"a\":\"b\rc\"}");
  framing_free(&f);
}

TEST(test_skips_empty_and_blank_lines) {
  framing f;
  got g = {0};
  framing_init(&f, 1024);
  feed(&f, &g, "\n\r\n  \t \n{}\n\n", 64);
  CHECK(g.n == 1);
  CHECK_STR(g.lines[0], "{}");
  framing_free(&f);
}

TEST(test_line_not_starting_with_brace_or_bracket_is_not_json) {
  framing f;
  got g = {0};
  framing_init(&f, 1024);
  feed(&f, &g, "Server listening on port 3000\n  {\"ok\":1}\n\"str\"\n", 64);
  CHECK(g.n == 3);
  CHECK(g.kinds[0] == FRAMING_NOT_JSON);
  CHECK_STR(g.lines[0], "Server listening on port 3000");
  CHECK(g.kinds[1] == FRAMING_MESSAGE); /* leading blanks are fine */
  CHECK(g.kinds[2] == FRAMING_NOT_JSON);
  framing_free(&f);
}

TEST(test_line_of_exactly_the_limit_passes) {
  framing f;
  got g = {0};
  framing_init(&f, 10);
  feed(&f, &g, "[12345678]\n[12345678]\r\n", 1);
  CHECK(g.n == 2);
  CHECK(g.kinds[0] == FRAMING_MESSAGE && g.lens[0] == 10);
  CHECK(g.kinds[1] == FRAMING_MESSAGE && g.lens[1] == 10);
  framing_free(&f);
}

TEST(test_line_over_the_limit_dropped_once_and_stream_goes_on) {
  for (size_t chunk = 1; chunk <= 40; chunk += 13) {
    framing f;
    got g = {0};
    framing_init(&f, 10);
    feed(&f, &g, "[1]\n[123456789012345678901234567890]\n[2]\n", chunk);
    CHECK(g.n == 3);
    CHECK(g.kinds[0] == FRAMING_MESSAGE);
    CHECK(g.kinds[1] == FRAMING_TOO_BIG);
    CHECK(g.lens[1] > 10);
    CHECK(g.kinds[2] == FRAMING_MESSAGE);
    CHECK_STR(g.lines[2], "[2]");
    framing_free(&f);
  }
}

/* The host reads the id of the answer a dropped line was from its first
 * bytes, whether the line was seen whole or cut while streaming in. */
TEST(test_dropped_line_keeps_its_first_bytes) {
  for (size_t chunk = 1; chunk <= 64; chunk += 63) {
    framing f;
    got g = {0};
    framing_init(&f, 10);
    feed(&f, &g, "{\"id\":7,\"result\":\"abcdefghij\"}\n{}\n", chunk);
    CHECK(g.n == 2 && g.kinds[0] == FRAMING_TOO_BIG);
    CHECK(f.dropped_head_len >= 11);
    CHECK(memcmp(f.dropped_head, "{\"id\":7,\"re", 11) == 0);
    framing_free(&f);
  }
  framing f;
  framing_init(&f, 8192);
  char *line = malloc(20000);
  memset(line, 'x', 20000);
  memcpy(line, "{\"id\":42,", 9);
  line[19999] = '\n';
  got g = {0};
  CHECK(framing_push(&f, line, 20000));
  drain(&f, &g);
  CHECK(g.n == 1 && g.kinds[0] == FRAMING_TOO_BIG);
  CHECK(f.dropped_head_len == FRAMING_HEAD_MAX);
  CHECK(memcmp(f.dropped_head, "{\"id\":42,xx", 11) == 0);
  free(line);
  framing_free(&f);
}

TEST(test_over_limit_by_one_byte) {
  framing f;
  got g = {0};
  framing_init(&f, 10);
  feed(&f, &g, "[123456789]\n{}\n", 1);
  CHECK(g.n == 2);
  CHECK(g.kinds[0] == FRAMING_TOO_BIG);
  CHECK(g.kinds[1] == FRAMING_MESSAGE);
  framing_free(&f);
}

TEST(test_last_line_without_newline_needs_eof) {
  framing f;
  got g = {0};
  framing_init(&f, 1024);
  feed(&f, &g, "{\"a\":1}\n{\"b\":2}", 4);
  CHECK(g.n == 1);
  framing_set_eof(&f);
  drain(&f, &g);
  CHECK(g.n == 2);
  CHECK_STR(g.lines[1], "{\"b\":2}");
  drain(&f, &g);
  CHECK(g.n == 2); /* only once */
  framing_free(&f);
}

TEST(test_unfinished_last_line_can_be_dropped) {
  framing f;
  got g = {0};
  framing_init(&f, 1024);
  feed(&f, &g, "{\"a\":1}\n{\"id\":2,\"res", 5);
  CHECK(g.n == 1);
  CHECK(framing_pending(&f) == 12);
  framing_drop_pending(&f);
  CHECK(framing_pending(&f) == 0);
  framing_set_eof(&f);
  drain(&f, &g);
  CHECK(g.n == 1); /* nothing more */
  framing_free(&f);
}

TEST(test_nothing_pending_while_dropping_an_over_long_line) {
  framing f;
  got g = {0};
  framing_init(&f, 4);
  feed(&f, &g, "[1234567890", 3);
  CHECK(g.n == 1 && g.kinds[0] == FRAMING_TOO_BIG);
  CHECK(framing_pending(&f) == 0);
  framing_free(&f);
}

TEST(test_eof_while_dropping_delivers_nothing_more) {
  framing f;
  got g = {0};
  framing_init(&f, 4);
  feed(&f, &g, "[1234567890", 3);
  CHECK(g.n == 1 && g.kinds[0] == FRAMING_TOO_BIG);
  framing_set_eof(&f);
  drain(&f, &g);
  CHECK(g.n == 1);
  framing_free(&f);
}

TEST(test_dropping_keeps_memory_bounded) {
  framing f;
  got g = {0};
  framing_init(&f, 1 << 20);
  char *chunk = malloc(1 << 16);
  memset(chunk, 'x', 1 << 16);
  chunk[0] = '[';
  for (int i = 0; i < 1600; i++) { /* 100 MiB, no newline */
    CHECK(framing_push(&f, chunk, 1 << 16));
    drain(&f, &g);
  }
  CHECK(g.n == 1 && g.kinds[0] == FRAMING_TOO_BIG);
  CHECK(f.cap <= (1u << 20) + (1u << 17) + 16);
  framing_push(&f, "\n{}\n", 4);
  drain(&f, &g);
  CHECK(g.n == 2 && g.kinds[1] == FRAMING_MESSAGE);
  free(chunk);
  framing_free(&f);
}

/* A long line arriving in small chunks is scanned once: after each chunk
 * the scan position has reached the end of the data, so the next chunk
 * starts where this one stopped (speed itself is for bench/). */
TEST(test_long_line_in_small_chunks_is_scanned_once) {
  framing f;
  framing_init(&f, 64u << 20);
  char chunk[4096];
  memset(chunk, 'x', sizeof chunk);
  framing_push(&f, "{", 1);
  bool scanned_to_end = true;
  for (int i = 0; i < 256; i++) {
    framing_push(&f, chunk, sizeof chunk);
    const char *l;
    size_t n;
    CHECK(framing_next(&f, &l, &n) == FRAMING_NONE);
    scanned_to_end &= f.scan == f.len;
  }
  CHECK(scanned_to_end);
  framing_push(&f, "\n", 1);
  const char *l;
  size_t n;
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE);
  CHECK(n == 256u * sizeof chunk + 1);
  framing_free(&f);
}

TEST(test_buffer_released_after_a_huge_message) {
  framing f;
  framing_init(&f, 64u << 20);
  char *big = malloc(8u << 20);
  memset(big, 'x', 8u << 20);
  big[0] = '[';
  big[(8u << 20) - 1] = '\n';
  framing_push(&f, big, 8u << 20);
  const char *l;
  size_t n;
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE);
  CHECK(framing_next(&f, &l, &n) == FRAMING_NONE);
  size_t avail;
  framing_reserve(&f, 4096, &avail);
  CHECK(f.cap < (1u << 20));
  free(big);
  framing_free(&f);
}

/* A peer that exits before writing: end of input on an empty framing
 * (no buffer yet) is no line. */
static void test_eof_before_any_input_is_no_line(void) {
  framing f;
  framing_init(&f, 64);
  framing_set_eof(&f);
  const char *l;
  size_t n;
  CHECK(framing_next(&f, &l, &n) == FRAMING_NONE);
  CHECK(l == NULL && n == 0);
  CHECK(framing_pending(&f) == 0);
  framing_free(&f);
}

/* A large line is handed over in the buffer it was read into: the bytes
 * after it stay, and the framing goes on with them. */
static void test_a_line_is_taken_with_its_buffer(void) {
  framing f;
  framing_init(&f, 1 << 20);
  char big[100000];
  memset(big, 'x', sizeof big);
  big[0] = '{';
  big[sizeof big - 1] = '}';
  CHECK(framing_push(&f, big, sizeof big));
  const char *after = "\n{\"b\":2}\n{\"c\"";
  CHECK(framing_push(&f, after, strlen(after)));
  const char *l;
  size_t n;
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE && n == sizeof big);
  char *taken = framing_take(&f, l, n);
  CHECK(taken == l);
  CHECK(taken && memcmp(taken, big, sizeof big) == 0);
  free(taken);
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE);
  CHECK(n == 7 && memcmp(l, "{\"b\":2}", 7) == 0);
  /* Not at the start of the buffer: not taken, nothing changed. */
  CHECK(framing_push(&f, ":3}\n", 4));
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE);
  CHECK(n == 7 && memcmp(l, "{\"c\":3}", 7) == 0);
  framing_free(&f);

  /* The last line, without '\n', that fills the buffer: room for a NUL. */
  framing_init(&f, 1 << 20);
  size_t avail;
  char *dst = framing_reserve(&f, 4096, &avail);
  CHECK(dst && avail >= 4096);
  memset(dst, 'y', avail);
  dst[0] = '[';
  framing_commit(&f, avail);
  framing_set_eof(&f);
  CHECK(framing_next(&f, &l, &n) == FRAMING_MESSAGE && n == avail);
  taken = framing_take(&f, l, n);
  CHECK(taken != NULL);
  if (taken) {
    taken[n] = '\0'; /* len + 1 bytes */
    CHECK(taken[0] == '[' && taken[n - 1] == 'y');
  }
  free(taken);
  CHECK(framing_next(&f, &l, &n) == FRAMING_NONE);
  framing_free(&f);
}

RUN(T(test_splits_lines_whatever_the_chunking),
    T(test_a_line_is_taken_with_its_buffer),
    T(test_eof_before_any_input_is_no_line), T(test_strips_trailing_cr_only),
    T(test_skips_empty_and_blank_lines),
    T(test_line_not_starting_with_brace_or_bracket_is_not_json),
    T(test_line_of_exactly_the_limit_passes),
    T(test_line_over_the_limit_dropped_once_and_stream_goes_on),
    T(test_dropped_line_keeps_its_first_bytes), T(test_over_limit_by_one_byte),
    T(test_last_line_without_newline_needs_eof),
    T(test_unfinished_last_line_can_be_dropped),
    T(test_nothing_pending_while_dropping_an_over_long_line),
    T(test_eof_while_dropping_delivers_nothing_more),
    T(test_dropping_keeps_memory_bounded),
    T(test_long_line_in_small_chunks_is_scanned_once),
    T(test_buffer_released_after_a_huge_message))
