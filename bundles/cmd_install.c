/* mcphost bundle install FILE|URL [--yes] [--config KEY=VALUE]...
 *                        [--trust CA.pem] [--strict] [--insecure]
 *
 * Steps: open (read or download, trailer, signature, manifest.json),
 * check (validator, name, signature status and policy, runtime), show
 * the summary, answer the user_config options (--config, the answers of
 * the version installed, else a question on a terminal), confirm on a
 * terminal unless --yes, then extract into .tmp-<name>-XXXXXX in the
 * bundles directory, check the entry point, and exchange it with the
 * installed directory in one rename (renameat2 RENAME_EXCHANGE), so a
 * reader sees either the old bundle or the new one. The answers are
 * written last. Opening runs on a thread (a download must not stop the
 * loop, nor Ctrl-C), polled by a loop timer; questions are asynchronous
 * (mcph.host.ui/1): the state lives in `install` in between. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "fsutil.h"
#include "mcpb.h"
#include "store.h"
#include "subst.h"

#define BUNDLE_MAX_BYTES (512u << 20)

typedef struct install {
  mcpb_plugin *pl;
  mcph_run *run;
  bool json, yes, strict, insecure;
  const char *src, *trust;
  const char **cfg; /* KEY=VALUE, borrowed from argv */
  size_t ncfg;
  mcpb_file *file;
  cJSON *manifest;     /* owned */
  cJSON *values;       /* the answers: owned */
  cJSON *settings;     /* of the installed version, or new: owned */
  const char *name;    /* in manifest */
  const cJSON *asking; /* the option being asked, or NULL */
  cJSON *list;         /* a `multiple` answer being collected */
  mcph_ui_ask *ask;
  bool confirming;
  bool echo_off;
  struct termios saved;
  int progress_step; /* the last tenth of the download shown */
  /* Opening (download, signature, manifest) runs on a thread of its own;
   * a loop timer polls it (the only state shared: the atomics below, and
   * `file`, `open_rc` and `open_err`, written by the thread before it
   * sets `opened`). */
  pthread_t thread;
  bool thread_running;
  atomic_int opened;   /* the thread is done */
  atomic_int stop;     /* interrupted: the download stops */
  atomic_int permille; /* download progress; -1 size unknown, -2 none */
  mcph_timer *tick;
  bool interrupted;
  int open_rc;
  char open_err[2048];
  mcpb_policy policy; /* read before the thread starts */
} install;

static void install_free(install *in) {
  mcpb_policy_free(&in->policy);
  if (in->file) {
    in->pl->tools->close(in->file);
  }
  cJSON_Delete(in->manifest);
  cJSON_Delete(in->values);
  cJSON_Delete(in->settings);
  cJSON_Delete(in->list);
  free(in->cfg);
  free(in);
}

static void echo_restore(install *in) {
  if (in->echo_off) {
    tcsetattr(STDIN_FILENO, TCSANOW, &in->saved);
    in->echo_off = false;
    fputc('\n', stderr);
  }
}

static void done(install *in, int code) {
  mcpb_plugin *pl = in->pl;
  echo_restore(in);
  if (in->tick) {
    pl->host->timer_cancel(pl->host, in->tick);
    in->tick = NULL;
  }
  if (in->ask) {
    pl->ui->cancel(pl->host, in->ask);
    in->ask = NULL;
  }
  mcph_run *run = in->run;
  pl->install = NULL;
  install_free(in);
  pl->servers->finish(pl->host, run, code);
}

static void fail(install *in, int code, const char *fmt, ...) MCPH_PRINTF(3, 4);
static void fail(install *in, int code, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  mcpb_say("%s", msg);
  done(in, code);
}

void mcpb_install_interrupt(mcpb_plugin *pl) {
  install *in = pl->install;
  if (!in) {
    return;
  }
  if (in->thread_running) {
    /* Ended when the thread is: it stops its download now. */
    atomic_store(&in->stop, 1);
    in->interrupted = true;
    return;
  }
  fail(in, 130, "install interrupted; nothing was installed");
}

void mcpb_install_stop(mcpb_plugin *pl) {
  install *in = pl->install;
  if (in && in->thread_running) {
    atomic_store(&in->stop, 1);
    pthread_join(in->thread, NULL);
    in->thread_running = false;
  }
}

static bool interactive(const install *in) {
  return in->pl->ui && in->pl->ui->interactive(in->pl->host);
}

/* ---- extracting ---- */

/* A binary bundle's server command, substituted with the extracted
 * directory `dir`, must be an executable file (in the bundle or on
 * PATH). True, with the reason in `why`, when it is not. */
static bool binary_missing(install *in, const char *dir, char *why, size_t n) {
  const cJSON *server =
      cJSON_GetObjectItemCaseSensitive(in->manifest, "server");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(server, "type");
  if (!cJSON_IsString(type) || strcmp(type->valuestring, "binary") != 0) {
    return false;
  }
  subst_dirs dirs;
  char dbuf[4096], reason[600];
  subst_dirs_default(&dirs, dbuf, sizeof dbuf);
  cJSON *entry =
      subst_server(in->manifest, dir, in->values, &dirs, reason, sizeof reason);
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(entry, "command");
  bool missing = false;
  if (cJSON_IsString(cmd) && !mcpb_on_path(cmd->valuestring)) {
    const char *shown = cmd->valuestring;
    size_t dl = strlen(dir);
    if (strncmp(shown, dir, dl) == 0 && shown[dl] == '/') {
      shown += dl + 1;
    }
    snprintf(why, n,
             "the server command \"%s\" is not an executable file "
             "of the bundle",
             shown);
    missing = true;
  }
  cJSON_Delete(entry);
  return missing;
}

static void finish_install(install *in) {
  mcpb_plugin *pl = in->pl;
  char why[4800];
  store s;
  if (store_open(&s, true, why, sizeof why) < 0) {
    fail(in, EXIT_FAILED, "Failed to extract MCPB %s: %s", in->src, why);
    return;
  }
  store_sweep(&s); /* what a killed install left */
  char tmpname[256];
  if (store_tmp_make(&s, in->name, tmpname, sizeof tmpname, why, sizeof why) <
      0) {
    fail(in, EXIT_FAILED, "Failed to extract MCPB %s: %s", in->src, why);
    store_close(&s);
    return;
  }
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", s.root, tmpname);
  int dfd =
      openat(s.fd, tmpname, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  size_t files = 0;
  int rc = dfd >= 0 ? pl->tools->extract(in->file, dfd, NULL, &files, why,
                                         sizeof why)
                    : -1;
  if (dfd < 0) {
    snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
  }
  /* The entry point must be what was extracted. What was extracted is
   * whole: a bundle that does not hold what its manifest names is said
   * as that, not as a failed extraction. */
  const char *prefix = "Failed to extract MCPB";
  const cJSON *server =
      cJSON_GetObjectItemCaseSensitive(in->manifest, "server");
  const cJSON *ep = cJSON_GetObjectItemCaseSensitive(server, "entry_point");
  struct stat st;
  if (rc == 0 && cJSON_IsString(ep) &&
      (ep->valuestring[0] == '/' || strstr(ep->valuestring, ".."))) {
    snprintf(why, sizeof why,
             "server.entry_point \"%s\" is not a path inside the bundle",
             ep->valuestring);
    rc = -1;
  } else if (rc == 0 && cJSON_IsString(ep)) {
    bool absent = fstatat(dfd, ep->valuestring, &st, AT_SYMLINK_NOFOLLOW) < 0;
    if (absent || !S_ISREG(st.st_mode)) {
      prefix = "Cannot install MCPB";
      snprintf(why, sizeof why,
               "the entry point \"%s\" that its manifest names "
               "(server.entry_point) is %s",
               ep->valuestring,
               absent ? "missing from the bundle"
                      : "not a regular file of the bundle");
      rc = -1;
    }
  }
  if (rc == 0 && mcpb_check_icon(in->manifest, dfd, why, sizeof why) < 0) {
    close(dfd);
    fs_remove_tree(s.fd, tmpname);
    store_close(&s);
    fail(in, EXIT_FAILED, "MCPB manifest invalid at %s:manifest.json: %s",
         in->src, why);
    return;
  }
  if (dfd >= 0) {
    close(dfd);
  }
  if (rc == 0 && binary_missing(in, path, why, sizeof why)) {
    prefix = "Cannot install MCPB";
    rc = -1;
  }
  if (rc < 0) {
    fs_remove_tree(s.fd, tmpname);
    store_close(&s);
    fail(in, EXIT_FAILED, "%s %s: %s", prefix, in->src, why);
    return;
  }
  bool had = fstatat(s.fd, in->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
  int r = had ? renameat2(s.fd, tmpname, s.fd, in->name, RENAME_EXCHANGE)
              : renameat2(s.fd, tmpname, s.fd, in->name, RENAME_NOREPLACE);
  if (r < 0) {
    int e = errno;
    fs_remove_tree(s.fd, tmpname);
    store_close(&s);
    fail(in, EXIT_FAILED,
         "Failed to extract MCPB %s: cannot put it in "
         "place: %s",
         in->src, strerror(e));
    return;
  }
  if (had) {
    fs_remove_tree(s.fd, tmpname); /* the old version now */
  }
  cJSON *st_doc = in->settings;
  cJSON_DeleteItemFromObjectCaseSensitive(st_doc, "version");
  cJSON_AddStringToObject(
      st_doc, "version",
      cJSON_GetObjectItem(in->manifest, "version")->valuestring);
  if (!cJSON_GetObjectItemCaseSensitive(st_doc, "enabled")) {
    cJSON_AddTrueToObject(st_doc, "enabled");
  }
  cJSON_DeleteItemFromObjectCaseSensitive(st_doc, "signature");
  cJSON_AddItemToObject(st_doc, "signature", mcpb_sig_json(&in->file->sig));
  cJSON_DeleteItemFromObjectCaseSensitive(st_doc, "source");
  cJSON_AddStringToObject(st_doc, "source", in->src);
  if (mcpb_store_values(pl, in->name, in->manifest, in->values, st_doc, why,
                        sizeof why) < 0 ||
      store_settings_write(&s, in->name, st_doc, why, sizeof why) < 0) {
    store_close(&s);
    fail(in, EXIT_FAILED,
         "bundle %s installed, but its settings were not "
         "saved: %s",
         in->name, why);
    return;
  }
  if (in->json) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "installed", in->name);
    cJSON_AddStringToObject(
        o, "version",
        cJSON_GetObjectItem(in->manifest, "version")->valuestring);
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/%s", s.root, in->name);
    cJSON_AddStringToObject(o, "path", dir);
    cJSON_AddNumberToObject(o, "files", (double)files);
    cJSON_AddStringToObject(o, "signature", in->file->sig.status);
    char *text = cJSON_PrintUnformatted(o);
    printf("%s\n", text);
    free(text);
    cJSON_Delete(o);
  } else {
    char *n = mcpb_esc(in->name);
    char *v =
        mcpb_esc(cJSON_GetObjectItem(in->manifest, "version")->valuestring);
    char *root = mcpb_esc(s.root);
    printf("Installed %s %s (%zu files) in %s/%s; its tools are "
           "mcp__%s__*\n",
           n, v, files, root, n, n);
    free(root);
    free(v);
    free(n);
  }
  store_close(&s);
  done(in, EXIT_OK);
}

/* ---- answers ---- */

static void ask_next(install *in);

static void on_confirm(void *ud, const char *answer, const mcph_error *err) {
  install *in = ud;
  in->ask = NULL;
  if (!answer ||
      (strcasecmp(answer, "y") != 0 && strcasecmp(answer, "yes") != 0)) {
    fail(in, EXIT_REFUSED, "not installed%s", err ? " (input ended)" : "");
    return;
  }
  finish_install(in);
}

static const char *cfg_value(const install *in, const char *key, size_t from,
                             size_t *at) {
  size_t kl = strlen(key);
  for (size_t i = from; i < in->ncfg; i++) {
    if (strncmp(in->cfg[i], key, kl) == 0 && in->cfg[i][kl] == '=') {
      *at = i;
      return in->cfg[i] + kl + 1;
    }
  }
  return NULL;
}

static void set_value(install *in, const char *key, cJSON *v) {
  cJSON_DeleteItemFromObjectCaseSensitive(in->values, key);
  cJSON_AddItemToObject(in->values, key, v);
}

static void on_answer(void *ud, const char *answer, const mcph_error *err) {
  install *in = ud;
  in->ask = NULL;
  echo_restore(in);
  const cJSON *opt = in->asking;
  if (!answer) {
    fail(in, EXIT_FAILED, "input ended; nothing was installed%s%s",
         err ? ": " : "", err ? err->message : "");
    return;
  }
  bool multiple =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "multiple"));
  bool required =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "required"));
  char why[600];
  if (multiple && *answer) {
    cJSON *v = mcpb_parse_value(opt, answer, why, sizeof why);
    if (!v) {
      mcpb_say("%s: %s", opt->string, why);
    } else {
      cJSON *e = cJSON_DetachItemFromArray(v, 0);
      if (!in->list) {
        in->list = cJSON_CreateArray();
      }
      cJSON_AddItemToArray(in->list, e);
      cJSON_Delete(v);
    }
    ask_next(in);
    return;
  }
  if (multiple) {
    if (in->list || !required) {
      if (in->list) {
        set_value(in, opt->string, in->list);
        in->list = NULL;
      }
      in->asking = NULL;
    } else {
      mcpb_say("%s is required: give at least one value", opt->string);
    }
    ask_next(in);
    return;
  }
  if (!*answer) {
    if (required) {
      mcpb_say("%s is required (its default does not count)", opt->string);
    } else {
      in->asking = NULL;
    }
    ask_next(in);
    return;
  }
  cJSON *v = mcpb_parse_value(opt, answer, why, sizeof why);
  if (!v) {
    mcpb_say("%s: %s", opt->string, why);
  } else {
    set_value(in, opt->string, v);
    in->asking = NULL;
  }
  ask_next(in);
}

static void ask_option(install *in, const cJSON *opt) {
  mcpb_plugin *pl = in->pl;
  const cJSON *title = cJSON_GetObjectItemCaseSensitive(opt, "title");
  const cJSON *desc = cJSON_GetObjectItemCaseSensitive(opt, "description");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(opt, "type");
  const cJSON *def = cJSON_GetObjectItemCaseSensitive(opt, "default");
  bool multiple =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "multiple"));
  bool sensitive =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "sensitive"));
  bool required =
      cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "required"));
  char range[80] = "";
  const cJSON *min = cJSON_GetObjectItemCaseSensitive(opt, "min");
  const cJSON *max = cJSON_GetObjectItemCaseSensitive(opt, "max");
  if (cJSON_IsNumber(min) || cJSON_IsNumber(max)) {
    snprintf(range, sizeof range, ", %g..%g",
             cJSON_IsNumber(min) ? min->valuedouble : -1e308,
             cJSON_IsNumber(max) ? max->valuedouble : 1e308);
  }
  char *defs = def ? cJSON_PrintUnformatted(def) : NULL;
  char q[2048];
  snprintf(q, sizeof q, "%s (%s%s%s%s%s) - %s%s%s%s: ",
           cJSON_IsString(title) ? title->valuestring : opt->string,
           cJSON_IsString(type) ? type->valuestring : "string", range,
           required ? ", required" : "",
           sensitive ? ", sensitive, not shown" : "",
           multiple ? (in->list ? ", another one, empty to end"
                                : ", one per answer, empty to end")
                    : "",
           cJSON_IsString(desc) ? desc->valuestring : "",
           defs && !required ? " [empty: default " : "",
           defs && !required ? defs : "", defs && !required ? "]" : "");
  free(defs);
  if (sensitive && isatty(STDIN_FILENO) &&
      tcgetattr(STDIN_FILENO, &in->saved) == 0) {
    /* mcph.host.ui/1 has no masked question yet: echo is turned off
     * around this one (docs/bundles.md). */
    struct termios t = in->saved;
    t.c_lflag &= ~(tcflag_t)ECHO;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0) {
      in->echo_off = true;
    }
  }
  mcph_error err;
  mcph_error_init(&err);
  if (pl->ui->ask(pl->host, q, on_answer, in, &in->ask, &err) != MCPH_OK) {
    fail(in, EXIT_FAILED, "cannot ask for %s: %s", opt->string, err.message);
  }
}

/* Settles every option it can without asking; asks the next one that
 * needs a person, or goes on to the confirmation. */
static void ask_next(install *in) {
  if (in->asking) {
    ask_option(in, in->asking);
    return;
  }
  const cJSON *options =
      cJSON_GetObjectItemCaseSensitive(in->manifest, "user_config");
  const cJSON *opt;
  char missing[1024] = "";
  size_t used = 0;
  cJSON_ArrayForEach(opt, options) {
    if (cJSON_GetObjectItemCaseSensitive(in->values, opt->string)) {
      continue;
    }
    bool required =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "required"));
    if (interactive(in) && !in->yes) {
      /* Each option is asked once: a "\x01KEY" mark says it was. */
      char mark[600];
      snprintf(mark, sizeof mark, "\x01%s", opt->string);
      if (!cJSON_HasObjectItem(in->values, mark)) {
        cJSON_AddNullToObject(in->values, mark);
        in->asking = opt;
        ask_option(in, opt);
        return;
      }
    }
    if (required) {
      used += (size_t)snprintf(
          missing + used, used < sizeof missing ? sizeof missing - used : 0,
          " --config %s=VALUE", opt->string);
    }
  }
  /* The marks are not answers. */
  for (cJSON *v = in->values ? in->values->child : NULL; v;) {
    cJSON *next = v->next;
    if (v->string && v->string[0] == '\x01') {
      cJSON_Delete(cJSON_DetachItemViaPointer(in->values, v));
    }
    v = next;
  }
  if (used) {
    fail(in, EXIT_USAGE,
         "bundle %s needs a value for its required settings (a default "
         "does not count):%s",
         in->name, missing);
    return;
  }
  if (interactive(in) && !in->yes) {
    char q[400];
    snprintf(q, sizeof q, "Install %s %s? [y/N] ", in->name,
             cJSON_GetObjectItem(in->manifest, "version")->valuestring);
    mcph_error err;
    mcph_error_init(&err);
    if (in->pl->ui->ask(in->pl->host, q, on_confirm, in, &in->ask, &err) !=
        MCPH_OK) {
      fail(in, EXIT_FAILED, "cannot ask: %s", err.message);
    }
    return;
  }
  finish_install(in);
}

/* ---- start ---- */

/* [open thread] Keeps the download's progress for the loop to show. */
static int on_progress(void *ud, double fraction) {
  install *in = ud;
  atomic_store(&in->permille, fraction < 0 ? -1 : (int)(fraction * 1000));
  return atomic_load(&in->stop);
}

static void *open_thread(void *ud) {
  install *in = ud;
  mcpb_open_opts o = {.trust = in->trust,
                      .managed_cas = (const char *const *)in->policy.cas,
                      .nmanaged_cas = in->policy.ncas,
                      .insecure = in->insecure,
                      .max_bytes = BUNDLE_MAX_BYTES,
                      .progress = on_progress,
                      .progress_ud = in};
  in->open_rc = in->pl->tools->open(in->src, &o, &in->file, in->open_err,
                                    sizeof in->open_err);
  atomic_store(&in->opened, 1);
  return NULL;
}

static void opened(install *in);

/* A line per tenth of the download on a terminal (one when its size is
 * not known); then, once the thread is done, the rest of the install. */
static void on_tick(void *ud) {
  install *in = ud;
  in->tick = NULL;
  int pm = atomic_load(&in->permille);
  int step = pm == -2 ? 0 : pm < 0 ? 1 : 1 + pm / 100;
  if (in->pl->ui && isatty(STDERR_FILENO) && step > in->progress_step) {
    in->progress_step = step;
    in->pl->ui->progress(in->pl->host, "Downloading bundle",
                         pm < 0 ? -1.0 : pm / 1000.0);
  }
  if (!atomic_load(&in->opened)) {
    if (in->pl->host->timer_start(in->pl->host, 50, on_tick, in, &in->tick) !=
        MCPH_OK) {
      in->tick = NULL; /* cannot poll: wait for the thread here */
      pthread_join(in->thread, NULL);
      in->thread_running = false;
      opened(in);
    }
    return;
  }
  pthread_join(in->thread, NULL);
  in->thread_running = false;
  opened(in);
}

int mcpb_cmd_install(mcpb_plugin *pl, mcph_run *run, int argc,
                     const char *const *argv, int json) {
  install *in = calloc(1, sizeof *in);
  if (!in) {
    abort();
  }
  in->pl = pl;
  in->run = run;
  in->json = json;
  in->cfg = calloc((size_t)argc + 1, sizeof *in->cfg);
  if (!in->cfg) {
    abort();
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--yes") == 0 || strcmp(a, "-y") == 0) {
      in->yes = true;
    } else if (strcmp(a, "--strict") == 0) {
      in->strict = true;
    } else if (strcmp(a, "--insecure") == 0) {
      in->insecure = true;
    } else if (strcmp(a, "--json") == 0) {
      in->json = true;
    } else if ((strcmp(a, "--config") == 0 || strcmp(a, "--trust") == 0) &&
               i + 1 < argc) {
      if (a[2] == 'c') {
        if (!strchr(argv[i + 1], '=')) {
          mcpb_say("--config needs KEY=VALUE, not \"%s\"", argv[i + 1]);
          install_free(in);
          pl->servers->finish(pl->host, run, EXIT_USAGE);
          return MCPH_OK;
        }
        in->cfg[in->ncfg++] = argv[i + 1];
      } else {
        in->trust = argv[i + 1];
      }
      i++;
    } else if (a[0] == '-' || in->src) {
      mcpb_say("install: unexpected argument \"%s\" (usage: mcphost bundle "
               "install FILE|URL [--yes] [--config KEY=VALUE]... [--trust "
               "CA.pem] [--strict] [--insecure])",
               a);
      install_free(in);
      pl->servers->finish(pl->host, run, EXIT_USAGE);
      return MCPH_OK;
    } else {
      in->src = a;
    }
  }
  pl->install = in;
  if (!in->src) {
    fail(in, EXIT_USAGE,
         "install: which bundle? (a .mcpb file or an https "
         "URL)");
    return MCPH_OK;
  }
  char err[2048];
  if (!mcpb_tools_get(pl, err, sizeof err)) {
    fail(in, EXIT_FAILED, "%s", err);
    return MCPH_OK;
  }
  mcpb_policy_read(pl, &in->policy);
  atomic_init(&in->opened, 0);
  atomic_init(&in->stop, 0);
  atomic_init(&in->permille, -2);
  if (pthread_create(&in->thread, NULL, open_thread, in) != 0) {
    fail(in, EXIT_FAILED, "cannot start a thread to read %s", in->src);
    return MCPH_OK;
  }
  in->thread_running = true;
  on_tick(in);
  return MCPH_OK;
}

/* The bundle is read (or not): checks, summary, answers. */
static void opened(install *in) {
  mcpb_plugin *pl = in->pl;
  char err[2048];
  if (in->interrupted) {
    fail(in, 130, "install interrupted; nothing was installed");
    return;
  }
  if (in->open_rc < 0) {
    fail(in, EXIT_FAILED, "%s", in->open_err);
    return;
  }
  char where[4200];
  snprintf(where, sizeof where, "%s:manifest.json", in->src);
  if (mcpb_check_manifest(in->file->manifest, in->file->manifest_len, where,
                          in->strict, &in->manifest, err, sizeof err) < 0) {
    fail(in, EXIT_FAILED, "%s", err);
    return;
  }
  in->name = cJSON_GetObjectItem(in->manifest, "name")->valuestring;
  if (!store_name_ok(in->name)) {
    fail(in, EXIT_FAILED,
         "MCPB manifest invalid at %s: name: \"%s\" cannot name an "
         "installed bundle (1 to 100 of A-Z a-z 0-9 . _ -, not starting "
         "with '.')",
         where, in->name);
    return;
  }
  const sig_info *sig = &in->file->sig;
  if (strcmp(sig->status, "invalid") == 0) {
    fail(in, EXIT_REFUSED, "%s: refused: its signature is invalid: %s", in->src,
         sig->why);
    return;
  }
  if (strcmp(sig->status, "signed") != 0 && in->policy.require_signature) {
    fail(in, EXIT_REFUSED,
         "%s: refused: the policy bundles.requireSignature needs a signed "
         "bundle, and this one is %s%s%s",
         in->src, sig->status, *sig->why ? ": " : "", sig->why);
    return;
  }
  if (strcmp(sig->trust, "user") == 0 && in->policy.require_signature) {
    fail(in, EXIT_REFUSED,
         "%s: refused: the policy bundles.requireSignature needs a bundle "
         "signed by a publisher the system trust store or the "
         "administrator's bundles.trustedCAs trust, and this one is "
         "signed only for the anchor given with --trust",
         in->src);
    return;
  }
  char rt[400];
  if (mcpb_runtime_missing(in->manifest, rt, sizeof rt)) {
    fail(in, EXIT_FAILED, "bundle %s: %s", in->name, rt);
    return;
  }
  if (!in->json) {
    mcpb_summary(in->manifest, sig, in->src);
    fflush(stdout);
  }
  /* The answers: those of the installed version, then --config. */
  store s;
  char why[600];
  in->values = cJSON_CreateObject();
  if (store_open(&s, false, why, sizeof why) == 0) {
    in->settings = store_settings(&s, in->name);
    cJSON *old = store_manifest(&s, in->name);
    if (old) {
      cJSON *kept = mcpb_values(pl, in->name, old, in->settings);
      const cJSON *opts =
          cJSON_GetObjectItemCaseSensitive(in->manifest, "user_config");
      const cJSON *v;
      cJSON_ArrayForEach(v, kept) {
        if (cJSON_GetObjectItemCaseSensitive(opts, v->string)) {
          set_value(in, v->string, cJSON_Duplicate(v, 1));
        }
      }
      cJSON_Delete(kept);
      cJSON_Delete(old);
    }
    store_close(&s);
  }
  if (!in->settings) {
    in->settings = cJSON_CreateObject();
  }
  const cJSON *had = cJSON_GetObjectItemCaseSensitive(in->settings, "version");
  if (cJSON_IsString(had) && !in->json) {
    char *old = mcpb_esc(had->valuestring);
    mcpb_say("%s %s is installed: it is replaced, its answers kept", in->name,
             old);
    free(old);
  }
  const cJSON *options =
      cJSON_GetObjectItemCaseSensitive(in->manifest, "user_config");
  for (size_t i = 0; i < in->ncfg; i++) {
    size_t kl = strcspn(in->cfg[i], "=");
    char key[512];
    snprintf(key, sizeof key, "%.*s", (int)kl, in->cfg[i]);
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(options, key);
    if (!opt) {
      fail(in, EXIT_USAGE, "--config %s: bundle %s has no setting \"%s\"",
           in->cfg[i], in->name, key);
      return;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(opt, "multiple"))) {
      /* Every --config KEY=... together, one element each. */
      size_t at = 0, from = 0;
      const char *v;
      char *joined = calloc(1, 1);
      while ((v = cfg_value(in, key, from, &at))) {
        size_t jl = strlen(joined);
        char *grown = realloc(joined, jl + strlen(v) + 2);
        if (!grown) {
          abort();
        }
        joined = grown;
        snprintf(joined + jl, strlen(v) + 2, "%s%s", jl ? "\n" : "", v);
        from = at + 1;
      }
      cJSON *val = mcpb_parse_value(opt, joined, why, sizeof why);
      free(joined);
      if (!val) {
        fail(in, EXIT_USAGE, "--config %s: %s", key, why);
        return;
      }
      set_value(in, key, val);
      continue;
    }
    cJSON *val = mcpb_parse_value(opt, in->cfg[i] + kl + 1, why, sizeof why);
    if (!val) {
      fail(in, EXIT_USAGE, "--config %s: %s", key, why);
      return;
    }
    set_value(in, key, val);
  }
  ask_next(in);
}
