/*
 * Just enough JSON for a transport: the top-level "id", "method",
 * "result" and "error" members of a JSON-RPC message, and the elements of
 * a batch array, found without building a tree (the host parses every
 * message fully; parsing twice would cost memory and time on large
 * results). Loop thread or any thread: no state.
 */
#ifndef MCPH_HTTP_RPC_PEEK_H
#define MCPH_HTTP_RPC_PEEK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rpc_peek {
  const char *id; /* the raw JSON token of "id", or NULL */
  size_t id_len;
  const char *method; /* the raw token of "method" (quotes included), or NULL */
  size_t method_len;
  bool has_result; /* a "result" member */
  bool has_error;  /* an "error" member */
  const char *params; /* the raw "params" value, or NULL */
  size_t params_len;
  /* the raw "requestId" (of notifications/cancelled's params), or NULL */
  const char *request_id;
  size_t request_id_len;
} rpc_peek;

/* Scans a JSON object's top-level members into `out` (pointers into
 * `json`). Returns false when `json` is not one well-formed-looking
 * object; `out` may then be partly filled. Values are skipped by their
 * structure (strings, brackets), not validated. */
bool rpc_peek_object(const char *json, size_t len, rpc_peek *out);

/* True when `json` (after whitespace) starts with '['. */
bool rpc_is_batch(const char *json, size_t len);

/* Calls `fn` with each element of a JSON array, in order. Returns false,
 * having called `fn` for none, when the array is malformed. */
bool rpc_split_batch(const char *json, size_t len,
                     void (*fn)(void *ud, const char *el, size_t el_len),
                     void *ud);

/* True when two raw id tokens denote the same JSON-RPC id. Ids are
 * compared as tokens: the host sends integers, which servers echo back
 * as they were written. */
bool rpc_same_id(const char *a, size_t alen, const char *b, size_t blen);

#endif /* MCPH_HTTP_RPC_PEEK_H */
