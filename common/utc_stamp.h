/* A time as mcphost writes it in its files: UTC, ISO 8601, to the second
 * ("2026-12-07T01:29:22Z"). Computed here, not by gmtime_r(): glibc reads
 * /etc/localtime on a process's first conversion of either kind (seven
 * system calls and the zone file's parse, at each server's start for its
 * log's mark). Pure; any thread. */
#ifndef MCPHOST_UTC_STAMP_H
#define MCPHOST_UTC_STAMP_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define UTC_STAMP_SIZE 40 /* room for any 64-bit year */

/* Writes `t` into out[UTC_STAMP_SIZE]. The date is the proleptic
 * Gregorian calendar's, from the days since 1970-01-01 taken in whole
 * 400-year eras of 146,097 days (each the same), then years of the era,
 * with the year starting in March so that February's day comes last. */
static inline void utc_stamp(time_t t, char out[UTC_STAMP_SIZE]) {
  int64_t secs = (int64_t)t;
  int64_t days = secs / 86400, rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    days--;
  }
  days += 719468; /* from 0000-03-01 */
  int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  int64_t doe = days - era * 146097;                              /* 0..146096 */
  int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* 0..399 */
  int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);          /* 0..365 */
  int64_t mp = (5 * doy + 2) / 153;                               /* 0..11, from March */
  int64_t day = doy - (153 * mp + 2) / 5 + 1;
  int64_t month = mp < 10 ? mp + 3 : mp - 9;
  int64_t year = yoe + era * 400 + (month <= 2);
  int n = snprintf(out, UTC_STAMP_SIZE, "%04lld", (long long)year);
  const int64_t parts[5] = {month, day, rem / 3600, rem / 60 % 60, rem % 60};
  const char seps[5] = {'-', '-', 'T', ':', ':'};
  for (int i = 0; i < 5; i++) {
    out[n++] = seps[i];
    out[n++] = (char)('0' + parts[i] / 10);
    out[n++] = (char)('0' + parts[i] % 10);
  }
  out[n++] = 'Z';
  out[n] = '\0';
}

#endif
