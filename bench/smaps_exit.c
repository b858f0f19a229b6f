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
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pid_t loaded_by;

__attribute__((constructor)) static void smaps_exit_start(void) {
  loaded_by = getpid();
}

/* 0 exe, 1 heap, 2 stack, 3 other files, 4 other anonymous */
static unsigned long kib[5], total;
static int kind = 4;

/* One line of smaps, without its newline; `exe` the executable's path. */
static void take_line(char *line, const char *exe) {
  if (strncmp(line, "Rss:", 4) == 0) {
    unsigned long v = 0;
    for (const char *p = line + 4; *p; p++) {
      if (*p >= '0' && *p <= '9') {
        v = v * 10 + (unsigned long)(*p - '0');
      }
    }
    kib[kind] += v;
    total += v;
    return;
  }
  char *sp = strchr(line, ' ');
  char *dash = strchr(line, '-');
  if (!sp || !dash || dash > sp) {
    return; /* a field line, not a mapping's head */
  }
  char *path = strchr(line, '/');
  char *br = strchr(line, '[');
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

/* Read with read() and parsed by hand, not with stdio and sscanf: the
 * figure is of the command's pages, and those functions would map
 * pages of libc's code the command itself may never touch (glibc's
 * strspn and strcspn have a 64 KiB window of their own). */
__attribute__((destructor)) static void smaps_exit_report(void) {
  if (getpid() != loaded_by) {
    return;
  }
  /* Static: as large buffers on the stack, they made the figure 52 KiB
   * larger (in libraries' pages) than their own 12 KiB here. */
  static char exe[PATH_MAX], buf[4096], line[PATH_MAX + 128];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return;
  }
  size_t len = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n; i++) {
      if (buf[i] == '\n') {
        line[len] = '\0';
        take_line(line, exe);
        len = 0;
      } else if (len < sizeof line - 1) {
        line[len++] = buf[i];
      }
    }
  }
  close(fd);
  char out[PATH_MAX + 200];
  int k = snprintf(out, sizeof out,
                   "exe %lu heap %lu stack %lu files %lu anon %lu total %lu "
                   "%s\n",
                   kib[0], kib[1], kib[2], kib[3], kib[4], total, exe);
  const char *to = getenv("SMAPS_EXIT_OUT");
  int o = to ? open(to, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600) : 2;
  if (o >= 0 && k > 0) {
    write(o, out, (size_t)k < sizeof out ? (size_t)k : sizeof out - 1);
  }
  if (o > 2) {
    close(o);
  }
}
