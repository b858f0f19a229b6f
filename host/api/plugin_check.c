/* mcphost_plugin_check (sdk/include/mcphost/client.h): whether the
 * library can load a plugin, and what it offers (`mcphost plugin check`).
 *
 * The plugin runs in a child process, `PROGRAM __plugin-probe FILE` with
 * MCPHOST_PLUGIN_PROBE=1 (plugin_probe.c): this very program started
 * again (fork and exec of /proc/self/exe, by proc_spawn.h), which the
 * library takes over before its main() runs (probe_takeover below), so
 * the child is a fresh process whose loader is the library's own and
 * whose only plugin is FILE: no thread, lock or plugin of this process is
 * inherited (a fork alone would copy them mid-use), and whatever FILE
 * does (crash, exit, hang, fork) happens to the child. Its report comes
 * back as JSON lines on a pipe of its own (its fd 0 at start), apart
 * from its stdout and stderr, which are caught to see what the plugin
 * writes there. A child that does not finish within the time limit is
 * killed with its process group.
 *
 * The verdict is the first error's class, each with its own exit code
 * (docs/cli.md): what the process did (crash, exit, hang) comes first,
 * then what the child found, then output on stdout. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/api_internal.h"
#include "api/plugin_probe.h"
#include "core/loop.h"
#include "proc_spawn.h"
#include "proc_watch.h"
#include "text_escape.h"
#include "util.h"

extern char **environ;

#define CHECK_DEFAULT_MS 10000
#define REPORT_MAX (4u << 20) /* the child's report */
#define OUTPUT_KEPT 4096      /* of what the plugin writes on stdout, stderr */

/* The exit code of each class of verdict. */
static const struct {
  const char *cls;
  int code;
} classes[] = {
    {"file", 20},   {"load", 21},     {"entry", 22}, {"abi", 23},
    {"init", 24},   {"crash", 25},    {"exit", 26},  {"timeout", 27},
    {"stdout", 28}, {"mismatch", 29},
};

static int class_code(const char *cls) {
  for (size_t i = 0; cls && i < sizeof classes / sizeof classes[0]; i++) {
    if (strcmp(classes[i].cls, cls) == 0) {
      return classes[i].code;
    }
  }
  return 21;
}

static bool known_class(const char *cls) {
  for (size_t i = 0; cls && i < sizeof classes / sizeof classes[0]; i++) {
    if (strcmp(classes[i].cls, cls) == 0) {
      return true;
    }
  }
  return false;
}

/* ---- reading the child's three pipes on the loop ---- */

typedef struct check_run check_run;
typedef struct sink {
  check_run *run;
  int fd;
  loop_watch *w;
  strbuf buf;   /* what was kept */
  size_t cap;   /* how much is kept */
  size_t total; /* how much came */
} sink;

struct check_run {
  loop *l;
  sink s[3]; /* report, stdout, stderr */
  int open;
  bool done;
};

static void sink_close(sink *k) {
  if (k->w) {
    loop_unwatch(k->run->l, k->w);
    k->w = NULL;
  }
  if (k->fd >= 0) {
    close(k->fd);
    k->fd = -1;
    if (--k->run->open == 0) {
      k->run->done = true;
    }
  }
}

static void on_readable(void *ud, int fd, unsigned events) {
  (void)events;
  sink *k = ud;
  char b[8192];
  for (;;) {
    ssize_t n = read(fd, b, sizeof b);
    if (n > 0) {
      size_t room = k->cap - k->buf.len;
      sb_add(&k->buf, b, (size_t)n < room ? (size_t)n : room);
      k->total += (size_t)n;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      return;
    } else {
      sink_close(k); /* the end, or an error: nothing more comes */
      return;
    }
  }
}

/* ---- what the child said ---- */

typedef struct heard {
  char step[32];  /* the last step begun */
  cJSON *entry;   /* the entry's facts, or NULL */
  cJSON *report;  /* the report, or NULL */
  bool end;       /* it finished by itself */
  bool exit_call; /* exit() was called inside the plugin */
} heard;

static void hear(heard *hd, const char *text) {
  char *copy = xstrdup(text);
  for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    cJSON *o = cJSON_Parse(l);
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(o, "step"));
    cJSON *rep = cJSON_GetObjectItem(o, "report");
    if (st && strcmp(st, "end") == 0) {
      hd->end = true;
    } else if (st && strcmp(st, "exit") == 0) {
      hd->exit_call = true;
    } else if (st) {
      snprintf(hd->step, sizeof hd->step, "%s", st);
      cJSON *e = cJSON_GetObjectItem(o, "entry");
      if (e) {
        cJSON_Delete(hd->entry);
        hd->entry = cJSON_Duplicate(e, 1);
      }
    } else if (cJSON_IsObject(rep)) {
      /* The last one: the child writes its own after every call into
       * the plugin, so one the plugin wrote from its constructor or init
       * does not stand in for it. */
      cJSON_Delete(hd->report);
      hd->report = cJSON_DetachItemFromObject(o, "report");
    }
    cJSON_Delete(o);
  }
  free(copy);
}

/* Where in the load a step is, as words. */
static const char *step_words(const char *step) {
  static const struct {
    const char *step, *words;
  } w[] = {
      {"open", "while it was being loaded (its constructors)"},
      {"entry", "while its entry was read"},
      {"impl", "while its implementation was being loaded"},
      {"init", "in its init"},
      {"inspect", "while the host asked it for its extensions"},
      {"deinit", "in its deinit"},
  };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
    if (strcmp(step, w[i].step) == 0) {
      return w[i].words;
    }
  }
  return "before it was loaded";
}

/* A string member of `o`, or NULL (also when `o` is no object). */
static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_IsObject(o)
             ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key))
             : NULL;
}

static cJSON *error_item(const char *cls, const char *msg) {
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "class", cls);
  cJSON_AddStringToObject(e, "message", msg);
  return e;
}

/* The plugin's output, as text for a report: controls shown, lines
 * kept; new string. */
static char *shown(const sink *k) {
  char *s = text_escape(k->buf.data ? k->buf.data : "", k->buf.len,
                        TEXT_ESCAPE_INVISIBLE, NULL);
  if (!s) {
    abort(); /* out of memory, as xmalloc */
  }
  return s;
}

/* The report of a child that said nothing of its own: what it heard. */
static cJSON *bare_report(const char *path, const heard *hd) {
  cJSON *r = cJSON_CreateObject();
  cJSON *pl = cJSON_AddObjectToObject(r, "plugin");
  cJSON_AddStringToObject(pl, "file", path);
  cJSON_AddStringToObject(pl, "status", "refused");
  for (cJSON *f = hd->entry ? hd->entry->child : NULL; f; f = f->next) {
    cJSON_AddItemToObject(pl, f->string, cJSON_Duplicate(f, 1));
  }
  cJSON_AddArrayToObject(r, "errors");
  cJSON_AddArrayToObject(r, "warnings");
  return r;
}

/* The child's report in the shape the rest of this file reads. The
 * plugin runs in that child and can write on its report pipe too: the
 * report is checked, never trusted to be well formed. The errors and
 * warnings become arrays of well-formed items (an error of no known
 * class is a "load" error; a message that is no string is said so),
 * each size item has a string "struct", and the keys the verdict puts
 * first are dropped (they are the parent's own). */
static void report_check(cJSON *r) {
  static const char *const own[] = {"file",     "verdict", "class",  "reason",
                                    "exitCode", "step",    "stdout", "stderr"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
    cJSON_DeleteItemFromObjectCaseSensitive(r, own[i]);
  }
  cJSON *errs = cJSON_GetObjectItem(r, "errors");
  if (!cJSON_IsArray(errs)) {
    cJSON_DeleteItemFromObjectCaseSensitive(r, "errors");
    errs = cJSON_AddArrayToObject(r, "errors");
  }
  cJSON *checked = cJSON_CreateArray();
  for (const cJSON *e = errs->child; e; e = e->next) {
    const char *cls = str_of(e, "class");
    const char *msg = str_of(e, "message");
    cJSON_AddItemToArray(
        checked, error_item(known_class(cls) ? cls : "load",
                            msg ? msg : "(the check's child gave no message)"));
  }
  cJSON_ReplaceItemInObjectCaseSensitive(r, "errors", checked);
  cJSON *ws = cJSON_GetObjectItem(r, "warnings");
  cJSON *wchecked = cJSON_CreateArray();
  for (const cJSON *w = cJSON_IsArray(ws) ? ws->child : NULL; w; w = w->next) {
    if (cJSON_IsString(w)) {
      cJSON_AddItemToArray(wchecked, cJSON_CreateString(w->valuestring));
    }
  }
  if (ws) {
    cJSON_ReplaceItemInObjectCaseSensitive(r, "warnings", wchecked);
  } else {
    cJSON_AddItemToObject(r, "warnings", wchecked);
  }
  cJSON *sz = cJSON_GetObjectItem(r, "sizes");
  if (sz && !cJSON_IsArray(sz)) {
    cJSON_DeleteItemFromObjectCaseSensitive(r, "sizes");
  } else if (sz) {
    for (cJSON *i = sz->child, *next; i; i = next) {
      next = i->next;
      if (!str_of(i, "struct")) {
        cJSON_Delete(cJSON_DetachItemViaPointer(sz, i));
      }
    }
  }
}

/* Adds what the process did to the report's errors: first, as it is what
 * a user of the host would meet first. */
static void judge_process(cJSON *r, const heard *hd, bool timed_out,
                          int wstatus, uint64_t limit_ms, const sink *out) {
  cJSON *errs = cJSON_GetObjectItem(r, "errors");
  char *msg = NULL;
  const char *cls = NULL;
  const char *where = step_words(hd->step);
  if (timed_out) {
    cls = "timeout";
    msg = xasprintf("it did not finish %s within %llu ms (killed)", where,
                    (unsigned long long)limit_ms);
  } else if (WIFSIGNALED(wstatus)) {
    char st[128];
    proc_describe_status(wstatus, st, sizeof st);
    cls = "crash";
    msg = xasprintf("it crashed %s: %s", where, st);
  } else if (!hd->end || (WIFEXITED(wstatus) && WEXITSTATUS(wstatus))) {
    cls = "exit";
    msg = hd->exit_call ? xasprintf("it called exit(%d) %s, which ends mcphost",
                                    WEXITSTATUS(wstatus), where)
                        : xasprintf("it ended the process %s (exit status %d)",
                                    where, WEXITSTATUS(wstatus));
  } else if (!hd->report) {
    cls = "load";
    msg = xstrdup("the check's child ended without a readable report");
  }
  if (cls) {
    cJSON_InsertItemInArray(errs, 0, error_item(cls, msg));
    free(msg);
  }
  if (out->total) {
    char *text = shown(out);
    char *first = xasprintf("%.60s", text);
    msg = xasprintf("it wrote %zu bytes to standard output while it was "
                    "loaded, where mcphost's own output goes (it begins "
                    "\"%s\")",
                    out->total, first);
    cJSON_AddItemToArray(errs, error_item("stdout", msg));
    free(msg);
    free(first);
    free(text);
  }
}

/* The child's environment: ours and PLUGIN_PROBE_ENV=1 (a new array of
 * borrowed strings). */
static char **probe_environment(void) {
  size_t n = 0;
  while (environ && environ[n]) {
    n++;
  }
  char **envp = xcalloc(n + 2, sizeof *envp);
  for (size_t i = 0; i < n; i++) {
    envp[i] = environ[i];
  }
  envp[n] = PLUGIN_PROBE_ENV "=1";
  return envp;
}

/* FILE as an absolute path, links and all left as given (the loader
 * refuses a link); new string. */
static char *absolute(const char *file) {
  if (file[0] == '/') {
    return xstrdup(file);
  }
  char cwd[PATH_MAX];
  return xasprintf("%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", file);
}

/* Starts the child with its three pipes; 0, or -1 with `why`. */
static int start_child(check_run *run, const char *path, pid_t *pid, char *why,
                       size_t n) {
  int fds[3][2];
  int made = 0;
  for (; made < 3; made++) {
    if (proc_make_pipe(fds[made], 0) != 0) {
      break;
    }
  }
  int rc = -1;
  if (made == 3) {
    char *argv[] = {"/proc/self/exe", PLUGIN_PROBE_WORD, (char *)path, NULL};
    char **envp = probe_environment();
    proc_spec spec = {.argv = argv,
                      .envp = envp,
                      .fd = {fds[0][1], fds[1][1], fds[2][1]},
                      .die_with_host = true,
                      .report_fd = -1};
    rc = proc_start(&spec, pid, why, n);
    free(envp);
  } else {
    snprintf(why, n, "cannot make a pipe: %s", strerror(errno));
  }
  for (int i = 0; i < made; i++) {
    close(fds[i][1]);
    sink *k = &run->s[i];
    k->run = run;
    k->fd = fds[i][0];
    k->cap = i == 0 ? REPORT_MAX : OUTPUT_KEPT;
    sb_init(&k->buf);
    run->open++;
    if (rc != 0 ||
        loop_watch_fd(run->l, k->fd, LOOP_READ, on_readable, k, &k->w) != 0) {
      sink_close(k);
    }
  }
  return rc;
}

/* Whether the caller's check should stop: a signal the client took, on
 * the client's loop (MCPHOST_LOOP_CALLER: the CLI's Ctrl-C). */
static bool check_stopped(const mcphost_client *c) {
  return c->mode == MCPHOST_LOOP_CALLER && host_interrupted(c->h);
}

/* Runs `l` until the pipes are closed, the deadline or a stop: 0, -1 at
 * the deadline, -2 stopped. */
static int run_until_read(const mcphost_client *c, check_run *run,
                          uint64_t deadline) {
  while (!run->done) {
    if (check_stopped(c)) {
      return -2;
    }
    uint64_t now = loop_now_ms();
    if (now >= deadline) {
      return -1;
    }
    loop_run_once(run->l, (int)(deadline - now));
  }
  return 0;
}

/* Waits for the child until `deadline`; true with *wstatus when it
 * ended, false when it is still running. */
static bool child_ended(const mcphost_client *c, loop *l, pid_t pid,
                        uint64_t deadline, int *wstatus) {
  while (!proc_exited(pid)) {
    if (loop_now_ms() >= deadline || check_stopped(c)) {
      return false;
    }
    loop_run_once(l, 10);
  }
  return waitpid(pid, wstatus, 0) == pid;
}

/* The report of the check of `path` (absolute) run as `run`, the verdict
 * first; new object. */
static cJSON *verdict(const char *path, check_run *run, bool timed_out,
                      int wstatus, uint64_t limit) {
  heard hd = {.step = ""};
  hear(&hd, sb_str(&run->s[0].buf));
  cJSON *r = hd.report ? hd.report : bare_report(path, &hd);
  cJSON_Delete(hd.entry);
  report_check(r);
  judge_process(r, &hd, timed_out, wstatus, limit, &run->s[1]);
  if (run->s[1].total) {
    char *t = shown(&run->s[1]);
    cJSON_AddStringToObject(r, "stdout", t);
    free(t);
  }
  if (run->s[2].total) {
    char *t = shown(&run->s[2]);
    cJSON_AddStringToObject(r, "stderr", t);
    free(t);
  }
  const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "errors"), 0);
  int rc = first ? class_code(str_of(first, "class")) : 0;
  cJSON *v = cJSON_CreateObject();
  cJSON_AddStringToObject(v, "file", path);
  cJSON_AddStringToObject(v, "verdict", first ? "not loadable" : "loadable");
  cJSON_AddItemToObject(v, "class",
                        first ? cJSON_CreateString(str_of(first, "class"))
                              : cJSON_CreateNull());
  cJSON_AddItemToObject(v, "reason",
                        first ? cJSON_CreateString(str_of(first, "message"))
                              : cJSON_CreateNull());
  cJSON_AddNumberToObject(v, "exitCode", rc);
  cJSON_AddStringToObject(v, "step", hd.end ? "done" : hd.step);
  while (r->child) {
    const char *key = r->child->string;
    char *k = xstrdup(key);
    cJSON_AddItemToObject(v, k, cJSON_DetachItemViaPointer(r, r->child));
    free(k);
  }
  cJSON_Delete(r);
  return v;
}

int mcphost_plugin_check(mcphost_client *c, const char *file,
                         uint64_t timeout_ms, char **report_json, size_t *len,
                         mcphost_error *err) {
  api_clear_error(err);
  if (report_json) {
    *report_json = NULL;
  }
  if (!c || !file || !*file || !report_json) {
    return api_fail(err, MCPHOST_EUSAGE, 0, NULL, "mcphost_plugin_check: %s",
                    !c             ? "no client"
                    : !report_json ? "report_json is NULL"
                                   : "no plugin file given");
  }
  if (api_on_loop_thread(c)) {
    return api_fail(err, MCPHOST_ESTATE, 0, NULL,
                    "mcphost_plugin_check waits for the child: not from the "
                    "loop's thread (a callback)");
  }
  char *path = absolute(file);
  uint64_t limit = timeout_ms ? timeout_ms : CHECK_DEFAULT_MS;
  /* The client's loop when it is this thread's, else one of its own. */
  loop *own = c->mode == MCPHOST_LOOP_CALLER ? NULL : loop_new();
  check_run run = {.l = own ? own : host_loop(c->h)};
  if (!run.l) {
    free(path);
    return api_fail(err, MCPHOST_ENOMEM, 0, NULL,
                    "mcphost_plugin_check: cannot make a loop");
  }
  char why[512];
  pid_t pid;
  int rc = MCPHOST_OK;
  if (start_child(&run, path, &pid, why, sizeof why) != 0) {
    rc = api_fail(err, MCPHOST_ESERVER, 0, NULL, "plugin check: %s", why);
    for (int i = 0; i < 3; i++) {
      sb_free(&run.s[i].buf);
    }
    loop_free(own);
    free(path);
    return rc;
  }
  uint64_t deadline = loop_now_ms() + limit;
  int waited = run_until_read(c, &run, deadline);
  int wstatus = 0;
  bool timed_out = waited != 0;
  if (!timed_out && !child_ended(c, run.l, pid, deadline, &wstatus)) {
    timed_out = true;
  }
  if (timed_out) {
    proc_kill(pid); /* its process group too */
  }
  for (int i = 0; i < 3; i++) {
    sink_close(&run.s[i]);
  }
  if (check_stopped(c)) {
    rc = api_fail(err, MCPHOST_ECANCELED, 0, NULL,
                  "plugin check of %s: interrupted", path);
    goto out;
  }
  cJSON *v = verdict(path, &run, timed_out, wstatus, limit);
  char *text = cJSON_PrintUnformatted(v);
  cJSON_Delete(v);
  if (!text) {
    rc = api_fail(err, MCPHOST_ENOMEM, 0, NULL, "out of memory");
    goto out;
  }
  *report_json = text;
  if (len) {
    *len = strlen(text);
  }
out:
  for (int i = 0; i < 3; i++) {
    sink_close(&run.s[i]);
    sb_free(&run.s[i].buf);
  }
  loop_free(own);
  free(path);
  return rc;
}

/* The check's child: this program started again by start_child. The
 * library takes the process over before main() (glibc hands an ELF
 * constructor argc, argv and envp), so every program that links it,
 * the mcphost executable as any embedding one, can be the child. Only
 * with both the word and the variable: a program's own arguments never
 * start it. */
__attribute__((constructor)) static void probe_takeover(int argc, char **argv,
                                                        char **envp) {
  (void)envp;
  if (argc != 3 || strcmp(argv[1], PLUGIN_PROBE_WORD) != 0) {
    return;
  }
  const char *set = getenv(PLUGIN_PROBE_ENV);
  if (!set || strcmp(set, "1") != 0) {
    return;
  }
  unsetenv(PLUGIN_PROBE_ENV); /* not the plugin's, nor its servers' */
  /* Not dumpable, as mcphost itself: other processes of the user cannot
   * read its environment or memory. */
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  exit(plugin_probe_main(argc, argv));
}
