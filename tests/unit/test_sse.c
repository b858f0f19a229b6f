/* Unit tests of the SSE parser shared by the http and sse transports
 * (transports/common/sse.c, compiled into this test). */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "sse.h"

#define BIG ((size_t)1 << 20)

/* What the parser reported, as text: one line per event,
 * "<event>|<id>|<has_id>|<data_len>|<data>", and the retry values. */
typedef struct rec {
  char log[16384];
  size_t len;
  int events;
  unsigned long retry[8];
  int nretry;
  size_t dropped;
  int drops;       /* on_drop calls */
  char head[5000]; /* the last dropped event's head */
  size_t head_len;
} rec;

static void on_event(void *ud, const sse_event *ev) {
  rec *r = ud;
  r->events++;
  int n = snprintf(r->log + r->len, sizeof r->log - r->len, "%s|%s|%d|%zu|",
                   ev->event, ev->id, ev->has_id, ev->data_len);
  if (n > 0)
    r->len += (size_t)n;
  if (r->len + ev->data_len + 2 < sizeof r->log) {
    memcpy(r->log + r->len, ev->data, ev->data_len);
    r->len += ev->data_len;
    r->log[r->len++] = '\n';
    r->log[r->len] = '\0';
  }
}

static void on_drop(void *ud, const char *head, size_t head_len) {
  rec *r = ud;
  r->drops++;
  r->head_len = head_len < sizeof r->head ? head_len : sizeof r->head - 1;
  memcpy(r->head, head, r->head_len);
  r->head[r->head_len] = '\0';
}

static void on_retry(void *ud, unsigned long ms) {
  rec *r = ud;
  if (r->nretry < 8)
    r->retry[r->nretry++] = ms;
}

/* Feeds `s` in chunks of `chunk` bytes (0: all at once; SIZE_MAX: random
 * splits from `seed`). Returns the parser for further checks; the caller
 * frees it. */
static void feed(sse_parser *p, rec *r, const char *s, size_t n, size_t chunk,
                 unsigned seed) {
  srand(seed);
  size_t i = 0;
  while (i < n) {
    size_t k = n - i;
    if (chunk == SIZE_MAX)
      k = 1 + (size_t)rand() % (k < 7 ? k : 7);
    else if (chunk > 0 && chunk < k)
      k = chunk;
    r->dropped += sse_feed(p, s + i, k);
    i += k;
  }
}

static void parse(rec *r, const char *s, size_t n, size_t max, size_t chunk,
                  unsigned seed) {
  memset(r, 0, sizeof *r);
  sse_parser p;
  sse_init(&p, max, on_event, on_retry, r);
  sse_set_on_drop(&p, on_drop);
  feed(&p, r, s, n, chunk, seed);
  sse_free(&p);
}

/* Parses a NUL-terminated stream whole, returns the event log. */
static const char *events_of(rec *r, const char *s) {
  parse(r, s, strlen(s), BIG, 0, 0);
  return r->log;
}

TEST(test_sse_data_field_makes_a_message_event) {
  rec r;
  CHECK_STR(events_of(&r, "data: hello\n\n"), "message||0|5|hello\n");
}

TEST(test_sse_multi_line_data_is_joined_with_newlines) {
  rec r;
  CHECK_STR(events_of(&r, "data: a\ndata: b\ndata:\n\n"),
            "message||0|4|a\nb\n\n");
}

TEST(test_sse_event_field_sets_the_type_for_one_event) {
  rec r;
  CHECK_STR(events_of(&r, "event: ping\ndata: x\n\ndata: y\n\n"),
            "ping||0|1|x\nmessage||0|1|y\n");
}

TEST(test_sse_empty_event_type_means_message) {
  rec r;
  CHECK_STR(events_of(&r, "event:\ndata: x\n\n"), "message||0|1|x\n");
}

TEST(test_sse_id_persists_across_events) {
  rec r;
  CHECK_STR(events_of(&r, "id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n"),
            "message|1|1|1|a\nmessage|1|0|1|b\nmessage|2|1|1|c\n");
}

TEST(test_sse_empty_id_field_resets_the_last_event_id) {
  rec r;
  CHECK_STR(events_of(&r, "id: 5\ndata: a\n\nid\ndata: b\n\n"),
            "message|5|1|1|a\nmessage||1|1|b\n");
}

TEST(test_sse_id_containing_nul_is_ignored) {
  rec r;
  const char s[] = "id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n";
  parse(&r, s, sizeof s - 1, BIG, 0, 0);
  CHECK_STR(r.log, "message|1|1|1|a\nmessage|1|0|1|b\n");
}

TEST(test_sse_id_counts_only_once_its_event_ended) {
  rec r;
  memset(&r, 0, sizeof r);
  sse_parser p;
  sse_init(&p, BIG, on_event, on_retry, &r);
  sse_feed(&p, "id: 1\ndata: a\n\nid: 2\ndata: part", 31);
  CHECK_STR(sse_last_event_id(&p), "1");
  sse_feed(&p, "ial\n\n", 5);
  CHECK_STR(sse_last_event_id(&p), "2");
  sse_free(&p);
}

TEST(test_sse_id_without_data_still_becomes_the_last_event_id) {
  rec r;
  memset(&r, 0, sizeof r);
  sse_parser p;
  sse_init(&p, BIG, on_event, on_retry, &r);
  sse_feed(&p, "id: 3\n\n", 7);
  CHECK(r.events == 0);
  CHECK_STR(sse_last_event_id(&p), "3");
  sse_free(&p);
}

TEST(test_sse_restart_keeps_the_last_id_and_drops_the_partial_event) {
  rec r;
  memset(&r, 0, sizeof r);
  sse_parser p;
  sse_init(&p, BIG, on_event, on_retry, &r);
  const char *a = "id: 1\ndata: a\n\nid: 2\nevent: odd\ndata: part";
  sse_feed(&p, a, strlen(a));
  sse_restart(&p);
  CHECK_STR(sse_last_event_id(&p), "1");
  sse_feed(&p, "data: b\n\n", 9);
  CHECK_STR(r.log, "message|1|1|1|a\nmessage|1|0|1|b\n");
  sse_free(&p);
}

TEST(test_sse_valid_retry_is_reported) {
  rec r;
  events_of(&r, "retry: 500\nretry:0\nretry: 123456789\n\n");
  CHECK(r.nretry == 3);
  CHECK(r.retry[0] == 500 && r.retry[1] == 0 && r.retry[2] == 123456789);
  CHECK(r.events == 0);
}

TEST(test_sse_invalid_retry_is_ignored) {
  rec r;
  /* Not all digits, empty, negative, and more digits than we accept. */
  events_of(&r, "retry: 5x0\nretry:\nretry: -1\nretry: 1.5\n"
                "retry: 1234567890\nretry:  500\n\n");
  CHECK(r.nretry == 0);
}

TEST(test_sse_comments_are_ignored) {
  rec r;
  CHECK_STR(events_of(&r, ": keep-alive\n\n:\ndata: x\n: between\n\n"),
            "message||0|1|x\n");
  CHECK(r.events == 1);
}

TEST(test_sse_unknown_fields_are_ignored) {
  rec r;
  CHECK_STR(events_of(&r, "foo: bar\nDATA: no\nData: no\ndata: x\n\n"),
            "message||0|1|x\n");
}

TEST(test_sse_field_without_colon_has_an_empty_value) {
  rec r;
  CHECK_STR(events_of(&r, "data\n\ndata\ndata\n\n"),
            "message||0|0|\nmessage||0|1|\n\n");
}

TEST(test_sse_one_leading_space_is_stripped) {
  rec r;
  CHECK_STR(events_of(&r, "data:  two\n\ndata:none\n\ndata: \n\n"),
            "message||0|4| two\nmessage||0|4|none\nmessage||0|0|\n");
}

TEST(test_sse_colon_in_value_is_kept) {
  rec r;
  CHECK_STR(events_of(&r, "data: {\"a\":1}\n\n"), "message||0|7|{\"a\":1}\n");
}

TEST(test_sse_priming_event_is_dispatched_with_empty_data) {
  rec r;
  CHECK_STR(events_of(&r, "id: p1\nretry: 500\ndata: \n\n"),
            "message|p1|1|0|\n");
  CHECK(r.nretry == 1 && r.retry[0] == 500);
}

TEST(test_sse_no_data_field_means_no_event) {
  rec r;
  events_of(&r, "event: x\n\nid: 2\n\n\n\n");
  CHECK(r.events == 0);
}

TEST(test_sse_incomplete_last_event_is_not_dispatched) {
  rec r;
  CHECK_STR(events_of(&r, "data: a\n\ndata: b\n"), "message||0|1|a\n");
}

static const char *const line_end_variants[] = {
    "id: 1\ndata: a\ndata: b\n\nevent: e\ndata: c\n\n",
    "id: 1\r\ndata: a\r\ndata: b\r\n\r\nevent: e\r\ndata: c\r\n\r\n",
    "id: 1\rdata: a\rdata: b\r\revent: e\rdata: c\r\r",
    "id: 1\r\ndata: a\rdata: b\n\r\nevent: e\rdata: c\n\r",
};
static const char line_end_expected[] = "message|1|1|3|a\nb\ne|1|0|1|c\n";

TEST(test_sse_crlf_lf_and_cr_line_ends_give_the_same_events) {
  for (size_t i = 0; i < 4; i++) {
    rec r;
    CHECK_STR(events_of(&r, line_end_variants[i]), line_end_expected);
  }
}

TEST(test_sse_cr_at_chunk_end_and_lf_in_next_chunk_is_one_line_end) {
  rec r;
  memset(&r, 0, sizeof r);
  sse_parser p;
  sse_init(&p, BIG, on_event, on_retry, &r);
  sse_feed(&p, "data: a\r", 8);
  sse_feed(&p, "\ndata: b\r", 9);
  sse_feed(&p, "\n\r", 2);
  sse_feed(&p, "\n", 1);
  CHECK_STR(r.log, "message||0|3|a\nb\n");
  CHECK(r.events == 1);
  sse_free(&p);
}

/* A stream with every feature, for the chunking tests. */
static const char mixed[] =
    "\xEF\xBB\xBF: hello\r\n"
    "retry: 250\r\n"
    "id: e1\r\ndata: \r\n\r\n"
    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1}\n\n"
    "data: line one\rdata: line two\r\r"
    "id: e2\nevent: other\ndata:x\nfoo: bar\n\n"
    "data\r\n\r\n"
    "id: e3\r\ndata: last\r\n\r\n";

TEST(test_sse_byte_by_byte_gives_the_same_events) {
  rec whole, bytes;
  parse(&whole, mixed, sizeof mixed - 1, BIG, 0, 0);
  parse(&bytes, mixed, sizeof mixed - 1, BIG, 1, 0);
  CHECK(whole.events == 6);
  CHECK_STR(bytes.log, whole.log);
  CHECK(bytes.nretry == 1 && bytes.retry[0] == 250);
}

TEST(test_sse_random_chunk_splits_give_the_same_events) {
  rec whole;
  parse(&whole, mixed, sizeof mixed - 1, BIG, 0, 0);
  for (unsigned seed = 1; seed <= 300; seed++) {
    rec r;
    parse(&r, mixed, sizeof mixed - 1, BIG, SIZE_MAX, seed);
    if (strcmp(r.log, whole.log) != 0) {
      CHECK_STR(r.log, whole.log);
      fprintf(stderr, "  (seed %u)\n", seed);
      break;
    }
  }
}

TEST(test_sse_leading_bom_is_stripped) {
  rec r;
  CHECK_STR(events_of(&r, "\xEF\xBB\xBF"
                          "data: x\n\n"),
            "message||0|1|x\n");
}

TEST(test_sse_bom_split_across_chunks_is_stripped) {
  rec r;
  const char s[] = "\xEF\xBB\xBF"
                   "data: x\n\n";
  parse(&r, s, sizeof s - 1, BIG, 1, 0);
  CHECK_STR(r.log, "message||0|1|x\n");
}

TEST(test_sse_bom_is_only_stripped_at_the_start) {
  rec r;
  /* A BOM later on is part of the field name: an unknown field. */
  CHECK_STR(events_of(&r, "data: a\n\n\xEF\xBB\xBF"
                          "data: b\n\ndata: c\n\n"),
            "message||0|1|a\nmessage||0|1|c\n");
}

TEST(test_sse_partial_bom_then_other_bytes_is_text) {
  rec r;
  /* "\xEF" "data" is an unknown field name, not a BOM plus "data". */
  CHECK_STR(events_of(&r, "\xEF"
                          "data: a\n\ndata: b\n\n"),
            "message||0|1|b\n");
}

TEST(test_sse_event_over_the_limit_is_dropped_and_the_next_parses) {
  char s[512];
  char big[200];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  snprintf(s, sizeof s, "id: 1\ndata: %s\n\nid: 2\ndata: ok\n\n", big);
  rec r;
  parse(&r, s, strlen(s), 64, 0, 0);
  CHECK(r.dropped == 1);
  CHECK_STR(r.log, "message|2|1|2|ok\n");
}

TEST(test_sse_dropped_event_with_more_lines_is_dropped_whole) {
  /* The limit is passed on the first data line; the lines after it up to
   * the blank line belong to the same (dropped) event. */
  char s[1024];
  char big[200];
  memset(big, 'y', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  snprintf(s, sizeof s, "data: %s\ndata: tail\nevent: odd\n\ndata: ok\n\n",
           big);
  for (size_t chunk = 0; chunk <= 3; chunk++) {
    rec r;
    parse(&r, s, strlen(s), 64, chunk, 0);
    CHECK(r.dropped == 1);
    CHECK_STR(r.log, "message||0|2|ok\n");
  }
}

TEST(test_sse_data_growing_over_the_limit_drops_the_event) {
  /* Each line fits; together they do not. */
  const char *s = "data: 0123456789012345678901234567890\n"
                  "data: 0123456789012345678901234567890\n"
                  "data: 0123456789012345678901234567890\n"
                  "data: tail\n\ndata: ok\n\n";
  rec r;
  parse(&r, s, strlen(s), 64, 0, 0);
  CHECK(r.dropped == 1);
  CHECK_STR(r.log, "message||0|2|ok\n");
}

TEST(test_sse_event_at_the_limit_is_kept) {
  /* "data:" and 59 bytes: a 64-byte line, 59 bytes of data. */
  char s[256], data[60];
  memset(data, 'z', 59);
  data[59] = '\0';
  snprintf(s, sizeof s, "data:%s\n\n", data);
  rec r;
  parse(&r, s, strlen(s), 64, 0, 0);
  CHECK(r.dropped == 0);
  CHECK(r.events == 1);
}

TEST(test_sse_dropped_event_reports_the_start_of_its_data) {
  char s[1024], big[300];
  memset(big, 'q', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  snprintf(s, sizeof s, "data: {\"id\":7,\"result\":\"%s\"}\n\ndata: ok\n\n",
           big);
  for (size_t chunk = 0; chunk <= 2; chunk++) {
    rec r;
    parse(&r, s, strlen(s), 64, chunk, 0);
    CHECK(r.dropped == 1 && r.drops == 1);
    CHECK(strncmp(r.head, "{\"id\":7,\"result\":\"qqq", 20) == 0);
    CHECK_STR(r.log, "message||0|2|ok\n");
  }
}

TEST(test_sse_dropped_event_head_joins_its_earlier_data_lines) {
  const char *s = "data: first\n"
                  "data: 0123456789012345678901234567890123456789\n"
                  "data: 0123456789012345678901234567890123456789\n\n";
  rec r;
  parse(&r, s, strlen(s), 64, 0, 0);
  CHECK(r.drops == 1);
  CHECK(strncmp(r.head, "first\n0123456789012345678901234567890123456789\n0123",
                51) == 0);
}

TEST(test_sse_dropped_event_head_is_at_most_4096_bytes) {
  size_t n = 20000;
  char *s = malloc(n + 16);
  memcpy(s, "data: ", 6);
  memset(s + 6, 'h', n);
  memcpy(s + 6 + n, "\n\n", 2);
  rec r;
  parse(&r, s, n + 8, 10000, 0, 0);
  CHECK(r.drops == 1);
  CHECK(r.head_len == SSE_DROP_HEAD_MAX);
  CHECK(r.head[0] == 'h' && r.head[SSE_DROP_HEAD_MAX - 1] == 'h');
  free(s);
}

TEST(test_sse_no_drop_report_without_a_dropped_event) {
  rec r;
  parse(&r, mixed, sizeof mixed - 1, 64, 1, 0);
  CHECK(r.drops == 0 && r.dropped == 0);
}

RUN(T(test_sse_data_field_makes_a_message_event),
    T(test_sse_multi_line_data_is_joined_with_newlines),
    T(test_sse_event_field_sets_the_type_for_one_event),
    T(test_sse_empty_event_type_means_message),
    T(test_sse_id_persists_across_events),
    T(test_sse_empty_id_field_resets_the_last_event_id),
    T(test_sse_id_containing_nul_is_ignored),
    T(test_sse_id_counts_only_once_its_event_ended),
    T(test_sse_id_without_data_still_becomes_the_last_event_id),
    T(test_sse_restart_keeps_the_last_id_and_drops_the_partial_event),
    T(test_sse_valid_retry_is_reported), T(test_sse_invalid_retry_is_ignored),
    T(test_sse_comments_are_ignored), T(test_sse_unknown_fields_are_ignored),
    T(test_sse_field_without_colon_has_an_empty_value),
    T(test_sse_one_leading_space_is_stripped),
    T(test_sse_colon_in_value_is_kept),
    T(test_sse_priming_event_is_dispatched_with_empty_data),
    T(test_sse_no_data_field_means_no_event),
    T(test_sse_incomplete_last_event_is_not_dispatched),
    T(test_sse_crlf_lf_and_cr_line_ends_give_the_same_events),
    T(test_sse_cr_at_chunk_end_and_lf_in_next_chunk_is_one_line_end),
    T(test_sse_byte_by_byte_gives_the_same_events),
    T(test_sse_random_chunk_splits_give_the_same_events),
    T(test_sse_leading_bom_is_stripped),
    T(test_sse_bom_split_across_chunks_is_stripped),
    T(test_sse_bom_is_only_stripped_at_the_start),
    T(test_sse_partial_bom_then_other_bytes_is_text),
    T(test_sse_event_over_the_limit_is_dropped_and_the_next_parses),
    T(test_sse_dropped_event_with_more_lines_is_dropped_whole),
    T(test_sse_data_growing_over_the_limit_drops_the_event),
    T(test_sse_event_at_the_limit_is_kept),
    T(test_sse_dropped_event_reports_the_start_of_its_data),
    T(test_sse_dropped_event_head_joins_its_earlier_data_lines),
    T(test_sse_dropped_event_head_is_at_most_4096_bytes),
    T(test_sse_no_drop_report_without_a_dropped_event))
