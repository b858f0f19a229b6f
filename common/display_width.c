#include "display_width.h"

#include <stdbool.h>

#include <stdint.h>

#include "size_limits.h"
#include "utf8.h"

typedef struct range {
  unsigned lo, hi;
} range;

/* Unicode's East Asian Width W and F, in broad ranges. */
static const range wide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},
    {0x23E9, 0x23EC},   {0x23F0, 0x23F0},   {0x23F3, 0x23F3},
    {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},
    {0x267F, 0x267F},   {0x2693, 0x2693},   {0x26A1, 0x26A1},
    {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},
    {0x26F2, 0x26F3},   {0x26F5, 0x26F5},   {0x26FA, 0x26FA},
    {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},
    {0x2728, 0x2728},   {0x274C, 0x274C},   {0x274E, 0x274E},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},
    {0x27B0, 0x27B0},   {0x27BF, 0x27BF},   {0x2B1B, 0x2B1C},
    {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},
    {0x3041, 0x33FF},   {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},
    {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004},
    {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E}, {0x1F191, 0x1F19A},
    {0x1F200, 0x1F251}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF},
    {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD},
    {0x30000, 0x3FFFD}};

/* Marks drawn on the character before them, and joiners. */
static const range zero[] = {
    {0x0300, 0x036F},  {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
    {0x064B, 0x065F},  {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
    {0x1AB0, 0x1AFF},  {0x1DC0, 0x1DFF}, {0x200D, 0x200D}, {0x20D0, 0x20FF},
    {0x302A, 0x302D},  {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
    {0xE0100, 0xE01EF}};

static bool in(const range *r, size_t n, unsigned cp) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cp > r[mid].hi) {
      lo = mid + 1;
    } else if (cp < r[mid].lo) {
      hi = mid;
    } else {
      return true;
    }
  }
  return false;
}

int display_cp_width(unsigned cp) {
  if (in(zero, sizeof zero / sizeof zero[0], cp)) {
    return 0;
  }
  return in(wide, sizeof wide / sizeof wide[0], cp) ? 2 : 1;
}

/* The code point at s[0..n) (n > 0) and its length (utf8.h); an
 * ill-formed byte is one column wide, as the "?" a terminal shows for
 * it. */
static size_t next_cp(const char *s, size_t n, unsigned *cp) {
  bool ok;
  uint32_t v = 0xFFFD;
  size_t len = utf8_sequence((const unsigned char *)s, n, &ok, &v);
  *cp = ok ? (unsigned)v : 0xFFFD;
  return len;
}

size_t display_width(const char *s, size_t len) {
  size_t cols = 0;
  for (size_t i = 0; i < len;) {
    unsigned cp;
    i += next_cp(s + i, len - i, &cp);
    cols += (size_t)display_cp_width(cp);
  }
  return cols;
}

size_t display_offset(const char *s, size_t len, size_t cols) {
  size_t used = 0, i = 0;
  while (i < len) {
    unsigned cp;
    size_t n = next_cp(s + i, len - i, &cp);
    size_t w = (size_t)display_cp_width(cp);
    if (used + w > cols) {
      break;
    }
    used += w;
    i += n;
  }
  return i;
}
