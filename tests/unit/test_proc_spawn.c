/* common/proc_spawn.c: the one way children start (stdio servers,
 * elicitation hooks and browsers, the ui service's browser). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "proc_spawn.h"

/* Runs `script` under /bin/sh with stdout on a pipe; returns what it
 * wrote (static) and its wait status in *status. */
static const char *run_sh(const char *script, int *status) {
  static char buf[4096];
  int p[2];
  buf[0] = '\0';
  *status = -1;
  if (proc_make_pipe(p, -1) != 0) {
    return buf;
  }
  char *const argv[] = {"sh", "-c", (char *)script, NULL};
  proc_spec spec = {.argv = argv,
                    .fd = {PROC_FD_NULL, p[1], PROC_FD_INHERIT},
                    .report_fd = -1};
  char why[256];
  pid_t pid;
  int rc = proc_start(&spec, &pid, why, sizeof why);
  close(p[1]);
  if (rc == 0) {
    size_t n = 0;
    ssize_t r;
    while ((r = read(p[0], buf + n, sizeof buf - 1 - n)) > 0) {
      n += (size_t)r;
    }
    buf[n] = '\0';
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
  }
  close(p[0]);
  return buf;
}

TEST(test_a_child_runs_with_its_stdout_on_the_pipe_given) {
  int status;
  const char *out = run_sh("echo hello; exit 3", &status);
  CHECK_STR(out, "hello\n");
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3);
}

TEST(test_a_missing_command_fails_the_start_with_the_reason) {
  char *const argv[] = {"/nonexistent/mcph-command", NULL};
  proc_spec spec = {.argv = argv,
                    .fd = {PROC_FD_NULL, PROC_FD_NULL, PROC_FD_NULL},
                    .report_fd = -1};
  char why[256] = "";
  pid_t pid = 0;
  CHECK(proc_start(&spec, &pid, why, sizeof why) == -1);
  CHECK(errno == ENOENT);
  CHECK_STR(why, "cannot start \"/nonexistent/mcph-command\": No such file "
                 "or directory");
}

TEST(test_a_missing_directory_is_named) {
  char *const argv[] = {"true", NULL};
  proc_spec spec = {.argv = argv,
                    .cwd = "/nonexistent-dir",
                    .fd = {PROC_FD_NULL, PROC_FD_NULL, PROC_FD_NULL},
                    .report_fd = -1};
  char why[256] = "";
  pid_t pid = 0;
  CHECK(proc_start(&spec, &pid, why, sizeof why) == -1);
  CHECK(strstr(why, "cannot change to directory \"/nonexistent-dir\"") != NULL);
}

TEST(test_an_asynchronous_start_reports_the_failure_after_the_exit) {
  int st[2];
  CHECK(proc_make_pipe(st, -1) == 0);
  char *const argv[] = {"no-such-command-mcph", NULL};
  proc_spec spec = {.argv = argv,
                    .fd = {PROC_FD_NULL, PROC_FD_NULL, PROC_FD_NULL},
                    .report_fd = st[1]};
  char why[256];
  pid_t pid = 0;
  CHECK(proc_start(&spec, &pid, why, sizeof why) == 0);
  close(st[1]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  proc_failure f;
  CHECK(proc_read_failure(st[0], &f));
  CHECK(f.stage == PROC_STAGE_EXEC && f.error == ENOENT);
  close(st[0]);
}

TEST(test_signals_the_host_blocks_and_ignores_are_back_in_the_child) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  /* USR1 and USR2 too: the mask's hex digit for them is a letter (a). */
  void (*was)(int) = signal(SIGPIPE, SIG_IGN);
  void (*was1)(int) = signal(SIGUSR1, SIG_IGN);
  void (*was2)(int) = signal(SIGUSR2, SIG_IGN);
  int status;
  const char *out =
      run_sh("grep -E '^(SigBlk|SigIgn):' /proc/self/status", &status);
  signal(SIGPIPE, was);
  signal(SIGUSR1, was1);
  signal(SIGUSR2, was2);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  CHECK(strstr(out, "SigBlk:\t0000000000000000\n") != NULL);
  /* Every signal ignored is back at its default, except glibc's own two
   * (32 and 33, bits 31 and 32), which sigaction cannot touch: a process
   * started by GNU make's posix_spawn has them ignored, and a glibc child
   * installs its own handlers for them anyway. */
  const char *ign = strstr(out, "SigIgn:\t");
  CHECK(ign != NULL);
  unsigned long long mask = strtoull(ign + strlen("SigIgn:\t"), NULL, 16);
  CHECK((mask & ~0x180000000ull) == 0);
}

TEST(test_a_child_leads_its_own_process_group) {
  int status;
  /* /proc/PID/stat's fifth field is the process group ("(sh)" has no
   * blank). */
  const char *out = run_sh("cut -d' ' -f5 /proc/$$/stat; echo $$", &status);
  long pgid = 0, pid = -1;
  CHECK(sscanf(out, "%ld\n%ld", &pgid, &pid) == 2);
  CHECK(pgid == pid);
}

/* The start returns once the child has exec'd, also when its failure
 * goes to a pipe of the caller's (the stdio transport's start; vfork: a
 * fork()'s child waited for the caller's CPU while the caller went on):
 * at once, the child is the program asked for, leading its own process
 * group. */
TEST(test_the_child_has_execd_when_the_start_returns) {
  for (int round = 0; round < 20; round++) {
    int p[2], report[2];
    CHECK(proc_make_pipe(p, -1) == 0);
    CHECK(proc_make_pipe(report, -1) == 0);
    char *const argv[] = {"cat", NULL};
    proc_spec spec = {.argv = argv,
                      .fd = {p[0], PROC_FD_NULL, PROC_FD_NULL},
                      .report_fd = report[1]};
    char why[256], path[64], exe[256] = "", stat[512] = "";
    pid_t pid;
    CHECK(proc_start(&spec, &pid, why, sizeof why) == 0);
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
      CHECK(fgets(stat, sizeof stat, f) != NULL);
      fclose(f);
    }
    close(p[0]);
    close(p[1]); /* cat reads end-of-file and exits */
    close(report[1]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    proc_failure failure;
    CHECK(!proc_read_failure(report[0], &failure));
    close(report[0]);
    /* Not this program any more (cat may be a multi-call binary). */
    char self[256] = "";
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    CHECK(exe[0] == '/' && self[0] == '/' && strcmp(exe, self) != 0);
    /* "PID (cat) S PPID PGRP ...": the group is its own. */
    long pgrp = 0;
    const char *close_paren = strrchr(stat, ')');
    CHECK(close_paren && sscanf(close_paren + 1, " %*c %*d %ld", &pgrp) == 1);
    CHECK(pgrp == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
}

TEST(test_a_wait_status_in_words) {
  char buf[64];
  proc_describe_status(3 << 8, buf, sizeof buf);
  CHECK_STR(buf, "exited with status 3");
  proc_describe_status(SIGKILL, buf, sizeof buf);
  CHECK_STR(buf, "killed by signal 9 (SIGKILL)");
}

RUN(T(test_a_child_runs_with_its_stdout_on_the_pipe_given),
    T(test_a_missing_command_fails_the_start_with_the_reason),
    T(test_a_missing_directory_is_named),
    T(test_an_asynchronous_start_reports_the_failure_after_the_exit),
    T(test_signals_the_host_blocks_and_ignores_are_back_in_the_child),
    T(test_a_child_leads_its_own_process_group),
    T(test_the_child_has_execd_when_the_start_returns),
    T(test_a_wait_status_in_words))
