/* The SDK's inline helpers (abi.h) and its JSON-RPC codes (rpc.h). */
#include <mcphost/mcphost.h>

#include "check.h"

TEST(test_error_set_leaves_the_callers_struct_size) {
  /* A caller built against an older, shorter mcph_error: the callee must
   * not claim the caller's struct is as large as its own. */
  mcph_error err;
  mcph_error_init(&err);
  err.struct_size = 8;
  int rc = mcph_error_set(&err, MCPH_EAUTH, "need %s", "a token");
  CHECK(rc == MCPH_EAUTH);
  CHECK(err.struct_size == 8);
  CHECK(err.code == MCPH_EAUTH);
  CHECK_STR(err.message, "need a token");
}

TEST(test_error_set_accepts_null) {
  CHECK(mcph_error_set(NULL, MCPH_EIO, "x") == MCPH_EIO);
}

TEST(test_status_name_names_every_code) {
  CHECK_STR(mcph_status_name(MCPH_OK), "MCPH_OK");
  CHECK_STR(mcph_status_name(MCPH_EINVAL), "MCPH_EINVAL");
  CHECK_STR(mcph_status_name(MCPH_ESESSION), "MCPH_ESESSION");
  CHECK_STR(mcph_status_name(MCPH_EDENIED), "MCPH_EDENIED");
  CHECK_STR(mcph_status_name(MCPH_EBUSY), "MCPH_EBUSY");
  CHECK_STR(mcph_status_name(MCPH_ELOST), "MCPH_ELOST");
  for (int c = MCPH_OK; c >= MCPH_ELOST; c--) {
    CHECK(strcmp(mcph_status_name(c), "MCPH_E?") != 0);
  }
  CHECK_STR(mcph_status_name(-99), "MCPH_E?");
  CHECK_STR(mcph_status_name(MCPH_RPC_INTERNAL_ERROR), "MCPH_E?");
}

TEST(test_rpc_codes_are_the_wire_numbers) {
  CHECK(MCPH_RPC_PARSE_ERROR == -32700);
  CHECK(MCPH_RPC_METHOD_NOT_FOUND == -32601);
  CHECK(MCPH_RPC_INVALID_PARAMS == -32602);
  CHECK(MCPH_RPC_INTERNAL_ERROR == -32603);
  CHECK(MCPH_RPC_RESOURCE_NOT_FOUND == -32002);
  CHECK(MCPH_RPC_URL_ELICITATION_REQUIRED == -32042);
}

RUN(T(test_error_set_leaves_the_callers_struct_size),
    T(test_error_set_accepts_null), T(test_status_name_names_every_code),
    T(test_rpc_codes_are_the_wire_numbers))
