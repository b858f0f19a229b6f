/* Fuzz target: the stdio transport's newline framing
 * (transports/stdio/framing.h). The input is a line limit, a chunk seed
 * and a byte stream. The stream goes in once whole and once in chunks
 * (reserve, partial commit, as read() does); both must give the events a
 * plain model of the rule gives: one per non-blank line, '\r' before
 * '\n' removed, lines over the limit reported once as too big with their
 * first bytes, the last line without '\n' only at end of input. */
#include <stdlib.h>
#include <string.h>

#include "framing.h"
#include "fuzz_chunks.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

typedef struct {
  enum framing_kind kind;
  const unsigned char *raw; /* the line in the stream, without '\n' */
  size_t raw_len;
  size_t len; /* without a trailing '\r' */
} want_event;

/* The model: splits `s` into its expected events. Returns their count. */
static size_t model(const unsigned char *s, size_t n, size_t max_line,
                    want_event *out) {
  size_t count = 0, start = 0;
  while (start < n) {
    const unsigned char *nl = memchr(s + start, '\n', n - start);
    size_t end = nl ? (size_t)(nl - s) : n;
    size_t l = end - start;
    want_event e = {FRAMING_NONE, s + start, l, l};
    if (e.len > 0 && s[start + e.len - 1] == '\r') {
      e.len--;
    }
    if (e.len > max_line) {
      e.kind = FRAMING_TOO_BIG;
    } else {
      for (size_t i = 0; i < e.len; i++) {
        unsigned char c = s[start + i];
        if (c != ' ' && c != '\t' && c != '\r') {
          e.kind = c == '{' || c == '[' ? FRAMING_MESSAGE : FRAMING_NOT_JSON;
          break;
        }
      }
    }
    if (e.kind != FRAMING_NONE) {
      out[count++] = e;
    }
    start = end + 1;
  }
  return count;
}

/* Checks every event framing_next() has now against the model's list. */
static void drain(framing *f, const want_event *want, size_t nwant,
                  size_t *at) {
  const char *line;
  size_t n;
  enum framing_kind k;
  while ((k = framing_next(f, &line, &n)) != FRAMING_NONE) {
    if (*at >= nwant) {
      abort(); /* an event the model does not have */
    }
    const want_event *w = &want[(*at)++];
    if (k != w->kind) {
      abort();
    }
    if (k == FRAMING_TOO_BIG) {
      /* Seen so far: over the limit, at most the raw line. */
      if (line || n <= f->max_line || n > w->raw_len) {
        abort();
      }
      size_t head = n < FRAMING_HEAD_MAX ? n : FRAMING_HEAD_MAX;
      if (f->dropped_head_len != head ||
          memcmp(f->dropped_head, w->raw, head) != 0) {
        abort();
      }
    } else if (n != w->len || n > f->max_line || memcmp(line, w->raw, n) != 0) {
      abort();
    }
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 2) {
    return 0;
  }
  /* Limits from 1 byte to 8 KiB, small ones often. */
  size_t max_line =
      data[0] < 192 ? (size_t)data[0] % 64 + 1 : ((size_t)data[0] - 191) * 128;
  data++;
  len--;
  fuzz_chunks ch;
  fuzz_chunks_init(&ch, &data, &len);

  want_event *want = malloc((len + 1) * sizeof *want);
  if (!want) {
    return 0;
  }
  size_t nwant = model(data, len, max_line, want);

  framing whole;
  framing_init(&whole, max_line);
  size_t at = 0;
  if (!framing_push(&whole, data, len)) {
    abort();
  }
  framing_set_eof(&whole);
  drain(&whole, want, nwant, &at);
  if (at != nwant || framing_pending(&whole) != 0) {
    abort();
  }
  framing_free(&whole);

  framing parts;
  framing_init(&parts, max_line);
  at = 0;
  size_t off = 0;
  while (off < len) {
    size_t want_room = fuzz_chunks_size(&ch, 256), avail;
    char *dst = framing_reserve(&parts, want_room, &avail);
    if (!dst || avail < (want_room ? want_room : 1)) {
      abort();
    }
    size_t n = fuzz_chunks_size(&ch, len - off);
    if (n > avail) {
      n = avail;
    }
    memcpy(dst, data + off, n);
    framing_commit(&parts, n);
    off += n;
    drain(&parts, want, nwant, &at);
  }
  framing_set_eof(&parts);
  drain(&parts, want, nwant, &at);
  if (at != nwant || framing_pending(&parts) != 0) {
    abort();
  }
  framing_free(&parts);
  free(want);
  return 0;
}
