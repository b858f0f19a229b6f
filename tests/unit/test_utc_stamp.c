/* Unit tests of utc_stamp (common/utc_stamp.h): the same date and time
 * as gmtime_r() for every kind of date. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "utc_stamp.h"

static void same_as_libc(time_t t) {
  char mine[UTC_STAMP_SIZE], libc[64];
  struct tm tm;
  utc_stamp(t, mine);
  CHECK(gmtime_r(&t, &tm) != NULL);
  /* Not strftime's %Y: glibc does not pad a year below 1000. */
  snprintf(libc, sizeof libc, "%04lld-%02d-%02dT%02d:%02d:%02dZ",
           (long long)tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
           tm.tm_hour, tm.tm_min, tm.tm_sec);
  CHECK_STR(mine, libc);
}

TEST(test_known_times) {
  char s[UTC_STAMP_SIZE];
  utc_stamp(0, s);
  CHECK_STR(s, "1970-01-01T00:00:00Z");
  utc_stamp(951782400, s); /* a leap day of a year divisible by 400 */
  CHECK_STR(s, "2000-02-29T00:00:00Z");
  utc_stamp(1796606962, s);
  CHECK_STR(s, "2026-12-07T01:29:22Z");
  utc_stamp(-1, s); /* before 1970 */
  CHECK_STR(s, "1969-12-31T23:59:59Z");
  utc_stamp(4107542399, s); /* 2100 is no leap year */
  CHECK_STR(s, "2100-02-28T23:59:59Z");
}

TEST(test_same_as_gmtime_everywhere) {
  /* Each day's edges over years either side of 1970, 2000, 2100, and
   * seconds spread over ten thousand years. */
  const int64_t starts[] = {-2208988800, -86400 * 400, 946684800 - 86400 * 800,
                            4102444800 - 86400 * 800};
  for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
    for (int64_t d = 0; d < 1600; d++) {
      same_as_libc((time_t)(starts[i] + d * 86400));
      same_as_libc((time_t)(starts[i] + d * 86400 + 86399));
    }
  }
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 100000; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    int64_t span = (int64_t)10000 * 366 * 86400;
    same_as_libc((time_t)((int64_t)(x % (uint64_t)(2 * span)) - span));
  }
}

RUN(T(test_known_times), T(test_same_as_gmtime_everywhere))
