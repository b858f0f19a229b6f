/* Preloaded into a command (LD_PRELOAD), writes the process's resident
 * memory at exit, from /proc/self/smaps, by kind: the executable's own
 * pages, [heap], [stack], other files (libraries), other anonymous
 * memory, and the whole, then the executable's path (a command's
 * children load it too: the path tells their lines apart). One line,
 * appended to $SMAPS_EXIT_OUT (stderr without it), only by the process
 * that loaded it (not a forked child). Steadier than GNU time's %M,
 * which moves with the kernel's per-CPU counters; it sees the end of the
 * run, not a peak in the middle. The footprint guard's exit_kib
 * (bench/footprint.py).
 *
 *   cc -shared -fPIC -O2 -o smaps_exit.so bench/smaps_exit.c
 *   LD_PRELOAD=$PWD/smaps_exit.so SMAPS_EXIT_OUT=/tmp/r mcphost tools
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* readlink */
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pid_t loaded_by;

__attribute__((constructor)) static void smaps_exit_start(void) {
  loaded_by = getpid();
}

__attribute__((destructor)) static void smaps_exit_report(void) {
  if (getpid() != loaded_by) {
    return;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) {
    return;
  }
  /* 0 exe, 1 heap, 2 stack, 3 other files, 4 other anonymous */
  unsigned long kib[5] = {0}, total = 0;
  int kind = 4;
  char line[PATH_MAX + 128];
  while (fgets(line, sizeof line, f)) {
    unsigned long v;
    if (sscanf(line, "Rss: %lu kB", &v) == 1) {
      kib[kind] += v;
      total += v;
      continue;
    }
    char *sp = strchr(line, ' ');
    if (!sp || !strchr(line, '-') || strchr(line, '-') > sp) {
      continue; /* a field line, not a mapping's head */
    }
    char *path = strchr(line, '/');
    char *br = strchr(line, '[');
    line[strcspn(line, "\n")] = '\0';
    if (path && strcmp(path, exe) == 0) {
      kind = 0;
    } else if (br && strcmp(br, "[heap]") == 0) {
      kind = 1;
    } else if (br && strcmp(br, "[stack]") == 0) {
      kind = 2;
    } else if (path) {
      kind = 3;
    } else {
      kind = 4;
    }
  }
  fclose(f);
  const char *out = getenv("SMAPS_EXIT_OUT");
  FILE *o = out ? fopen(out, "a") : stderr;
  if (!o) {
    return;
  }
  fprintf(o, "exe %lu heap %lu stack %lu files %lu anon %lu total %lu %s\n",
          kib[0], kib[1], kib[2], kib[3], kib[4], total, exe);
  if (o != stderr) {
    fclose(o);
  }
}
