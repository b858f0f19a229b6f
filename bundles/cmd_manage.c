/* The bundle commands other than install: list, info, verify,
 * configure, enable, disable, remove, sign and pack. Each runs to its end
 * inside start(). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "mcpb.h"
#include "store.h"

typedef struct args {
  const char *pos[4];
  size_t npos;
  bool json;
  const char *trust, *cert, *key;
  const char *chain[16];
  size_t nchain;
} args;

static int end(mcpb_plugin *pl, mcph_run *run, int code) {
  pl->servers->finish(pl->host, run, code);
  return MCPH_OK;
}

static void print_json(cJSON *o) {
  char *text = cJSON_PrintUnformatted(o);
  printf("%s\n", text);
  free(text);
  cJSON_Delete(o);
}

static bool parse(int argc, const char *const *argv, int json, args *a,
                  size_t max_pos) {
  memset(a, 0, sizeof *a);
  a->json = json;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    const char **slot = NULL;
    if (strcmp(s, "--json") == 0) {
      a->json = true;
      continue;
    }
    if (strcmp(s, "--trust") == 0) {
      slot = &a->trust;
    } else if (strcmp(s, "--cert") == 0) {
      slot = &a->cert;
    } else if (strcmp(s, "--key") == 0) {
      slot = &a->key;
    } else if (strcmp(s, "--chain") == 0) {
      if (i + 1 >= argc || a->nchain == 16) {
        mcpb_say("%s: --chain needs a PEM file (at most 16)", argv[0]);
        return false;
      }
      a->chain[a->nchain++] = argv[++i];
      continue;
    }
    if (slot) {
      if (i + 1 >= argc) {
        mcpb_say("%s: %s needs a value", argv[0], s);
        return false;
      }
      *slot = argv[++i];
      continue;
    }
    if ((s[0] == '-' && s[1]) || a->npos >= max_pos || a->npos >= 4) {
      mcpb_say("%s: unexpected argument \"%s\"", argv[0], s);
      return false;
    }
    a->pos[a->npos++] = s;
  }
  return true;
}

static int open_store(store *s, bool create) {
  char why[600];
  if (store_open(s, create, why, sizeof why) < 0) {
    mcpb_say("%s", why);
    return -1;
  }
  return 0;
}

static int cmd_list(mcpb_plugin *pl, mcph_run *run, const args *a) {
  store s;
  if (open_store(&s, false) < 0) {
    return end(pl, run, EXIT_FAILED);
  }
  store_sweep(&s); /* what a killed install left */
  size_t count = 0;
  char **names = store_list(&s, &count);
  cJSON *arr = cJSON_CreateArray();
  for (size_t i = 0; i < count; i++) {
    cJSON *m = store_manifest(&s, names[i]);
    cJSON *st = store_settings(&s, names[i]);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", names[i]);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, "version");
    cJSON_AddStringToObject(o, "version",
                            cJSON_IsString(v) ? v->valuestring : "?");
    cJSON_AddBoolToObject(
        o, "enabled",
        !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(st, "enabled")));
    const cJSON *sd = cJSON_GetObjectItemCaseSensitive(st, "signature");
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(sd, "status");
    cJSON_AddStringToObject(o, "signature",
                            cJSON_IsString(sig) ? sig->valuestring : "?");
    /* A status that needed the user's own --trust anchor is shown as
     * such: no policy counted it. */
    const cJSON *trust = cJSON_GetObjectItemCaseSensitive(sd, "trust");
    if (cJSON_IsString(trust)) {
      cJSON_AddStringToObject(o, "trust", trust->valuestring);
    }
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/%s", s.root, names[i]);
    cJSON_AddStringToObject(o, "path", dir);
    cJSON_AddItemToArray(arr, o);
    cJSON_Delete(m);
    cJSON_Delete(st);
  }
  if (a->json) {
    print_json(arr);
  } else {
    if (count == 0) {
      printf("No bundles installed.\n");
    }
    const cJSON *o;
    cJSON_ArrayForEach(o, arr) {
      char *n = mcpb_esc(cJSON_GetObjectItem(o, "name")->valuestring);
      char *v = mcpb_esc(cJSON_GetObjectItem(o, "version")->valuestring);
      const cJSON *trust = cJSON_GetObjectItem(o, "trust");
      printf("%-24s %-10s %-9s %s%s\n", n, v,
             cJSON_IsTrue(cJSON_GetObjectItem(o, "enabled")) ? "enabled"
                                                             : "disabled",
             cJSON_GetObjectItem(o, "signature")->valuestring,
             cJSON_IsString(trust) && strcmp(trust->valuestring, "user") == 0
                 ? " (user trust)"
                 : "");
      free(n);
      free(v);
    }
    cJSON_Delete(arr);
  }
  store_names_free(names, count);
  store_close(&s);
  return end(pl, run, EXIT_OK);
}

/* A FILE argument (an existing path, or a name ending in .mcpb/.dxt). */
static bool is_file_arg(const char *s) {
  struct stat st;
  size_t n = strlen(s);
  return strchr(s, '/') || stat(s, &st) == 0 ||
         (n > 5 && strcmp(s + n - 5, ".mcpb") == 0) ||
         (n > 4 && strcmp(s + n - 4, ".dxt") == 0);
}

/* info FILE and verify FILE: open the bundle. */
static mcpb_file *open_file(mcpb_plugin *pl, const char *src,
                            const char *trust) {
  char err[2048];
  if (!mcpb_tools_get(pl, err, sizeof err)) {
    mcpb_say("%s", err);
    return NULL;
  }
  mcpb_policy pol;
  mcpb_policy_read(pl, &pol);
  mcpb_open_opts o = {.trust = trust,
                      .managed_cas = (const char *const *)pol.cas,
                      .nmanaged_cas = pol.ncas,
                      .max_bytes = 512u << 20};
  mcpb_file *f = NULL;
  int rc = pl->tools->open(src, &o, &f, err, sizeof err);
  mcpb_policy_free(&pol);
  if (rc < 0) {
    mcpb_say("%s", err);
    return NULL;
  }
  return f;
}

static int cmd_info(mcpb_plugin *pl, mcph_run *run, const args *a) {
  if (a->npos != 1) {
    mcpb_say("usage: mcphost bundle info NAME|FILE [--json]");
    return end(pl, run, EXIT_USAGE);
  }
  const char *what = a->pos[0];
  cJSON *m = NULL;
  cJSON *out = NULL;
  int code = EXIT_OK;
  if (store_name_ok(what) && !is_file_arg(what)) {
    store s;
    if (open_store(&s, false) < 0) {
      return end(pl, run, EXIT_FAILED);
    }
    m = store_manifest(&s, what);
    if (!m) {
      mcpb_say("no bundle \"%s\" is installed (mcphost bundle list)", what);
      store_close(&s);
      return end(pl, run, EXIT_NOTFOUND);
    }
    cJSON *st = store_settings(&s, what);
    out = mcpb_summary_json(m, NULL);
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(st, "signature");
    if (sig) {
      cJSON_AddItemToObject(out, "signature_info", cJSON_Duplicate(sig, 1));
    }
    cJSON_AddBoolToObject(
        out, "enabled",
        !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(st, "enabled")));
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/%s", s.root, what);
    cJSON_AddStringToObject(out, "path", dir);
    const cJSON *uc = cJSON_GetObjectItemCaseSensitive(st, "userConfig");
    cJSON_AddItemToObject(out, "values",
                          uc ? cJSON_Duplicate(uc, 1) : cJSON_CreateObject());
    if (!a->json) {
      mcpb_summary(m, NULL, dir);
      const cJSON *status = cJSON_GetObjectItemCaseSensitive(sig, "status");
      printf("  %-12s %s\n",
             "Signature:", cJSON_IsString(status) ? status->valuestring : "?");
      printf("  %-12s %s\n", "State:",
             cJSON_IsTrue(cJSON_GetObjectItem(out, "enabled")) ? "enabled"
                                                               : "disabled");
    }
    cJSON_Delete(st);
    store_close(&s);
  } else {
    mcpb_file *f = open_file(pl, what, a->trust);
    if (!f) {
      return end(pl, run, EXIT_FAILED);
    }
    char where[4200], err[2048];
    snprintf(where, sizeof where, "%s:manifest.json", what);
    if (mcpb_check_manifest(f->manifest, f->manifest_len, where, false, &m, err,
                            sizeof err) < 0) {
      mcpb_say("%s", err);
      code = EXIT_FAILED;
    } else {
      out = mcpb_summary_json(m, &f->sig);
      if (!a->json) {
        mcpb_summary(m, &f->sig, what);
      }
    }
    pl->tools->close(f);
  }
  if (a->json && out) {
    print_json(out);
  } else {
    cJSON_Delete(out);
  }
  cJSON_Delete(m);
  return end(pl, run, code);
}

static int cmd_verify(mcpb_plugin *pl, mcph_run *run, const args *a) {
  if (a->npos != 1) {
    mcpb_say("usage: mcphost bundle verify FILE [--trust CA.pem] [--json]");
    return end(pl, run, EXIT_USAGE);
  }
  mcpb_file *f = open_file(pl, a->pos[0], a->trust);
  if (!f) {
    return end(pl, run, EXIT_FAILED);
  }
  const sig_info *sig = &f->sig;
  int code = strcmp(sig->status, "invalid") == 0 ? EXIT_REFUSED : EXIT_OK;
  if (a->json) {
    cJSON *o = mcpb_sig_json(sig);
    cJSON_AddStringToObject(o, "signature", sig->status);
    cJSON_AddStringToObject(o, "file", a->pos[0]);
    print_json(o);
  } else {
    char *file = mcpb_esc(a->pos[0]);
    printf("%s: %s\n", file, sig->status);
    free(file);
    if (*sig->publisher) {
      char *p = mcpb_esc(sig->publisher), *i = mcpb_esc(sig->issuer);
      printf("  Publisher:   %s\n  Issuer:      %s\n  Valid:       %s to "
             "%s\n  SHA-256:     %s\n",
             p, i, sig->valid_from, sig->valid_to, sig->fingerprint);
      free(p);
      free(i);
    }
    if (*sig->why) {
      char *w = mcpb_esc(sig->why);
      printf("  %s\n", w);
      free(w);
    }
  }
  pl->tools->close(f);
  return end(pl, run, code);
}

/* Opens the store with the installed bundle NAME: its manifest in *m
 * and settings in *st. EXIT_OK, else the exit code (the store closed). */
static int open_installed(const char *name, store *s, cJSON **m, cJSON **st) {
  *m = *st = NULL;
  if (open_store(s, false) < 0) {
    return EXIT_FAILED;
  }
  *m = store_name_ok(name) ? store_manifest(s, name) : NULL;
  if (!*m) {
    mcpb_say("no bundle \"%s\" is installed (mcphost bundle list)", name);
    store_close(s);
    return EXIT_NOTFOUND;
  }
  *st = store_settings(s, name);
  return EXIT_OK;
}

static void close_installed(store *s, cJSON *m, cJSON *st) {
  cJSON_Delete(st);
  cJSON_Delete(m);
  store_close(s);
}

static int cmd_configure(mcpb_plugin *pl, mcph_run *run, int argc,
                         const char *const *argv) {
  if (argc < 3) {
    mcpb_say("usage: mcphost bundle configure NAME KEY=VALUE...");
    return end(pl, run, EXIT_USAGE);
  }
  store s;
  cJSON *m, *st;
  int code = open_installed(argv[1], &s, &m, &st);
  if (code != EXIT_OK) {
    return end(pl, run, code);
  }
  code = EXIT_USAGE;
  cJSON *values = mcpb_values(pl, argv[1], m, st);
  const cJSON *options = cJSON_GetObjectItemCaseSensitive(m, "user_config");
  /* A `multiple` key given more than once: its values together. */
  cJSON *lists = cJSON_CreateObject();
  for (int i = 2; i < argc; i++) {
    const char *eq = strchr(argv[i], '=');
    if (!eq) {
      mcpb_say("configure: \"%s\" is not KEY=VALUE", argv[i]);
      cJSON_Delete(lists);
      goto out;
    }
    char key[512];
    snprintf(key, sizeof key, "%.*s", (int)(eq - argv[i]), argv[i]);
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(options, key);
    if (!opt) {
      mcpb_say("configure: bundle %s has no setting \"%s\"", argv[1], key);
      cJSON_Delete(lists);
      goto out;
    }
    char why[600];
    cJSON *v = mcpb_parse_value(opt, eq + 1, why, sizeof why);
    if (!v) {
      mcpb_say("configure: %s: %s", key, why);
      cJSON_Delete(lists);
      goto out;
    }
    if (cJSON_IsArray(v)) {
      cJSON *l = cJSON_GetObjectItemCaseSensitive(lists, key);
      if (!l) {
        l = cJSON_AddArrayToObject(lists, key);
      }
      cJSON *e;
      while ((e = cJSON_DetachItemFromArray(v, 0))) {
        cJSON_AddItemToArray(l, e);
      }
      cJSON_Delete(v);
      v = cJSON_Duplicate(l, 1);
    }
    cJSON_DeleteItemFromObjectCaseSensitive(values, key);
    cJSON_AddItemToObject(values, key, v);
  }
  cJSON_Delete(lists);
  char why[600];
  if (mcpb_store_values(pl, argv[1], m, values, st, why, sizeof why) < 0 ||
      store_settings_write(&s, argv[1], st, why, sizeof why) < 0) {
    mcpb_say("configure: %s", why);
    code = EXIT_FAILED;
    goto out;
  }
  printf("Configured %s.\n", argv[1]);
  code = EXIT_OK;
out:
  cJSON_Delete(values);
  close_installed(&s, m, st);
  return end(pl, run, code);
}

static int cmd_enable(mcpb_plugin *pl, mcph_run *run, const args *a, bool on) {
  if (a->npos != 1) {
    mcpb_say("usage: mcphost bundle %s NAME", on ? "enable" : "disable");
    return end(pl, run, EXIT_USAGE);
  }
  store s;
  cJSON *m, *st;
  int code = open_installed(a->pos[0], &s, &m, &st);
  if (code != EXIT_OK) {
    return end(pl, run, code);
  }
  cJSON_DeleteItemFromObjectCaseSensitive(st, "enabled");
  cJSON_AddBoolToObject(st, "enabled", on);
  char why[600];
  if (store_settings_write(&s, a->pos[0], st, why, sizeof why) < 0) {
    mcpb_say("%s", why);
    code = EXIT_FAILED;
  } else {
    printf("%s %s.\n", on ? "Enabled" : "Disabled", a->pos[0]);
  }
  close_installed(&s, m, st);
  return end(pl, run, code);
}

static int cmd_remove(mcpb_plugin *pl, mcph_run *run, const args *a) {
  if (a->npos != 1) {
    mcpb_say("usage: mcphost bundle remove NAME");
    return end(pl, run, EXIT_USAGE);
  }
  store s;
  cJSON *m, *st;
  int code = open_installed(a->pos[0], &s, &m, &st);
  if (code != EXIT_OK) {
    return end(pl, run, code);
  }
  const cJSON *k;
  cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(st, "sensitive")) {
    if (cJSON_IsString(k) && pl->secrets) {
      char key[256];
      store_secret_key(a->pos[0], k->valuestring, key, sizeof key);
      pl->secrets->remove(pl->host, key, NULL);
    }
  }
  char file[200];
  snprintf(file, sizeof file, "%s.json", a->pos[0]);
  if (fs_remove_tree(s.fd, a->pos[0]) < 0 ||
      (unlinkat(s.settings_fd, file, 0) < 0 && errno != ENOENT)) {
    mcpb_say("cannot remove %s/%s: %s", s.root, a->pos[0], strerror(errno));
    code = EXIT_FAILED;
  } else {
    printf("Removed %s.\n", a->pos[0]);
  }
  close_installed(&s, m, st);
  return end(pl, run, code);
}

static int cmd_sign(mcpb_plugin *pl, mcph_run *run, const args *a) {
  if (a->npos != 1 || !a->cert || !a->key) {
    mcpb_say("usage: mcphost bundle sign FILE --cert CERT.pem --key KEY.pem "
             "[--chain CA.pem]...");
    return end(pl, run, EXIT_USAGE);
  }
  char err[2048];
  if (!mcpb_tools_get(pl, err, sizeof err)) {
    mcpb_say("%s", err);
    return end(pl, run, EXIT_FAILED);
  }
  if (pl->tools->sign(a->pos[0], a->cert, a->key, a->chain, a->nchain, err,
                      sizeof err) < 0) {
    mcpb_say("sign: %s", err);
    return end(pl, run, EXIT_FAILED);
  }
  printf("Signed %s.\n", a->pos[0]);
  return end(pl, run, EXIT_OK);
}

static int cmd_pack(mcpb_plugin *pl, mcph_run *run, const args *a) {
  if (a->npos < 1 || a->npos > 2) {
    mcpb_say("usage: mcphost bundle pack DIR [OUT]");
    return end(pl, run, EXIT_USAGE);
  }
  const char *dir = a->pos[0];
  char err[2048], mpath[4200];
  snprintf(mpath, sizeof mpath, "%s/manifest.json", dir);
  size_t len = 0;
  char *text = fs_read_at(AT_FDCWD, mpath, 1u << 20, &len);
  if (!text) {
    mcpb_say("pack: %s: %s", mpath, strerror(errno));
    return end(pl, run, EXIT_FAILED);
  }
  cJSON *m = NULL;
  int bad = mcpb_check_manifest(text, len, mpath, true, &m, err, sizeof err);
  free(text);
  if (bad < 0) {
    mcpb_say("%s", err);
    mcpb_say("pack: cannot pack a bundle with an invalid manifest");
    return end(pl, run, EXIT_FAILED);
  }
  char out[4200];
  if (a->npos == 2) {
    snprintf(out, sizeof out, "%s", a->pos[1]);
  } else {
    snprintf(out, sizeof out, "%s-%s.mcpb",
             cJSON_GetObjectItem(m, "name")->valuestring,
             cJSON_GetObjectItem(m, "version")->valuestring);
  }
  cJSON_Delete(m);
  if (!mcpb_tools_get(pl, err, sizeof err)) {
    mcpb_say("%s", err);
    return end(pl, run, EXIT_FAILED);
  }
  size_t files = 0;
  if (pl->tools->pack(dir, out, &files, err, sizeof err) < 0) {
    mcpb_say("pack: %s", err);
    return end(pl, run, EXIT_FAILED);
  }
  char *o = mcpb_esc(out);
  printf("Packed %zu files into %s.\n", files, o);
  free(o);
  return end(pl, run, EXIT_OK);
}

int mcpb_cmd_manage(mcpb_plugin *pl, mcph_run *run, int argc,
                    const char *const *argv, int json) {
  const char *sub = argv[0];
  args a;
  if (strcmp(sub, "configure") == 0) {
    return cmd_configure(pl, run, argc, argv);
  }
  static const char *const known[] = {"list",   "info",    "verify",
                                      "enable", "disable", "remove",
                                      "sign",   "pack",    NULL};
  bool ok = false;
  for (size_t i = 0; known[i]; i++) {
    ok = ok || strcmp(sub, known[i]) == 0;
  }
  if (!ok) {
    mcpb_say("unknown subcommand \"%s\" (install, list, info, verify, "
             "configure, enable, disable, remove, sign, pack)",
             sub);
    return end(pl, run, EXIT_USAGE);
  }
  if (!parse(argc, argv, json, &a, 2)) {
    return end(pl, run, EXIT_USAGE);
  }
  if (strcmp(sub, "list") == 0) {
    return cmd_list(pl, run, &a);
  }
  if (strcmp(sub, "info") == 0) {
    return cmd_info(pl, run, &a);
  }
  if (strcmp(sub, "verify") == 0) {
    return cmd_verify(pl, run, &a);
  }
  if (strcmp(sub, "enable") == 0 || strcmp(sub, "disable") == 0) {
    return cmd_enable(pl, run, &a, strcmp(sub, "enable") == 0);
  }
  if (strcmp(sub, "remove") == 0) {
    return cmd_remove(pl, run, &a);
  }
  if (strcmp(sub, "sign") == 0) {
    return cmd_sign(pl, run, &a);
  }
  return cmd_pack(pl, run, &a);
}
