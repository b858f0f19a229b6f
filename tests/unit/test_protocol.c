#include <string.h>

#include "check.h"
#include "mcp/protocol.h"

TEST(test_initialize_asks_for_the_newest_version) {
  CHECK_STR(mcp_protocol_latest(), mcp_protocol_versions[0]);
  CHECK_STR(mcp_protocol_latest(), "2025-11-25");
}

TEST(test_every_version_of_the_table_is_accepted) {
  size_t n = 0;
  for (const char *const *p = mcp_protocol_versions; *p; p++, n++) {
    CHECK(mcp_protocol_supported(*p));
  }
  CHECK(n == 4);
  CHECK(mcp_protocol_supported("2024-11-05"));
}

TEST(test_another_version_is_refused) {
  CHECK(!mcp_protocol_supported("1999-01-01"));
  CHECK(!mcp_protocol_supported("2025-11-25 "));
  CHECK(!mcp_protocol_supported(""));
  CHECK(!mcp_protocol_supported(NULL));
}

TEST(test_the_message_lists_the_table_newest_first) {
  char buf[128];
  mcp_protocol_list(buf, sizeof buf);
  CHECK_STR(buf, "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05");
}

TEST(test_a_short_buffer_is_cut_and_terminated) {
  char buf[8];
  memset(buf, 'x', sizeof buf);
  mcp_protocol_list(buf, sizeof buf);
  CHECK_STR(buf, "2025-11");
}

RUN(T(test_initialize_asks_for_the_newest_version),
    T(test_every_version_of_the_table_is_accepted),
    T(test_another_version_is_refused),
    T(test_the_message_lists_the_table_newest_first),
    T(test_a_short_buffer_is_cut_and_terminated))
