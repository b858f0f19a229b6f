#include "config/config_approval.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_expand.h"
#include "text_escape.h"

/* libcrypto is opened on first use, not linked: only a command that
 * meets a project server computes a digest, and mapping and relocating
 * libcrypto costs every start-up (as ICU and libcurl would,
 * bench/results/2026-11-30-findings.md). Never closed. */
#define CRYPTO_STR_(x) #x
#define CRYPTO_STR(x) CRYPTO_STR_(x)
#define CRYPTO_LIBRARY "libcrypto.so." CRYPTO_STR(OPENSSL_VERSION_MAJOR)

static struct {
  __typeof__(EVP_Digest) *digest;
  __typeof__(EVP_sha256) *sha256;
  char failure[256];
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void crypto_open(void) {
  void *h = dlopen(CRYPTO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: copy at once */
    snprintf(crypto.failure, sizeof crypto.failure, "cannot load %s: %s",
             CRYPTO_LIBRARY, e ? e : "unknown error");
    return;
  }
  crypto.digest = (__typeof__(crypto.digest))dlsym(h, "EVP_Digest");
  crypto.sha256 = (__typeof__(crypto.sha256))dlsym(h, "EVP_sha256");
  if (!crypto.digest || !crypto.sha256)
    snprintf(crypto.failure, sizeof crypto.failure,
             "cannot load %s: EVP_Digest or EVP_sha256 is missing",
             CRYPTO_LIBRARY);
}

const char *approval_unavailable(void) {
  pthread_once(&crypto_once, crypto_open);
  return crypto.failure[0] ? crypto.failure : NULL;
}

/* The fields shown to a person, in this order; any other key is named
 * ("other keys: ..."): none is known to be harmless. */
static const char *const shown[] = {"type", "command",       "args", "url",
                                    "env",  "headers",       "cwd",  "roots",
                                    "tls",  "headersHelper", "oauth"};

static bool is_shown(const char *key) {
  for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
    if (strcmp(key, shown[i]) == 0)
      return true;
  }
  return false;
}

/* Lower-case hex SHA-256 of `n` bytes, or NULL. New string. */
static char *sha256_hex(const void *data, size_t n) {
  if (approval_unavailable())
    return NULL;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  if (!crypto.digest(data, n, md, &mdlen, crypto.sha256(), NULL))
    mdlen = 0;
  if (mdlen == 0)
    return NULL;
  strbuf hex;
  sb_init(&hex);
  sb_add(&hex, "", 0);
  for (unsigned int i = 0; i < mdlen; i++)
    sb_printf(&hex, "%02x", md[i]);
  return sb_take(&hex);
}

char *approval_digest(const char *file, const cJSON *raw, const cJSON *perms) {
  char *json = cJSON_PrintUnformatted(raw);
  strbuf in;
  sb_init(&in);
  /* The version and a NUL between the parts: no file name and entry can
   * be shifted into another pair with the same text. A file without
   * permission rules gives the digest of earlier records. */
  sb_add(&in, "mcphost-approval-1", sizeof "mcphost-approval-1");
  sb_add(&in, file, strlen(file) + 1);
  sb_adds(&in, json ? json : "null");
  cJSON_free(json);
  if (perms) {
    char *pj = cJSON_PrintUnformatted(perms);
    sb_add(&in, "\0permissions", sizeof "\0permissions");
    sb_adds(&in, pj ? pj : "null");
    cJSON_free(pj);
  }
  char *hex = sha256_hex(in.data, in.len);
  sb_free(&in);
  return hex;
}

bool approval_matches(const cJSON *record, const char *file, const cJSON *raw,
                      const cJSON *perms) {
  const char *want =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(record, "sha256"));
  if (!want)
    return false;
  char *have = approval_digest(file, raw, perms);
  bool m = have && strcmp(have, want) == 0;
  free(have);
  return m;
}

/* Whether `v` is already a value digest ("sha256:" and 64 hex digits). */
static bool is_value_digest(const char *v) {
  if (strncmp(v, "sha256:", 7) != 0 || strlen(v) != 7 + 64)
    return false;
  return strspn(v + 7, "0123456789abcdef") == 64;
}

/* Replaces member `it` of `obj` by "sha256:" and the digest of its name
 * and value, unless it is one already. */
static void redact_member(cJSON *obj, cJSON *it) {
  if (cJSON_IsString(it) && is_value_digest(it->valuestring))
    return;
  char *text = cJSON_IsString(it) ? NULL : cJSON_PrintUnformatted(it);
  const char *v = text ? text : it->valuestring;
  strbuf in;
  sb_init(&in);
  sb_add(&in, "mcphost-value-1", sizeof "mcphost-value-1");
  sb_add(&in, it->string, strlen(it->string) + 1);
  sb_adds(&in, v ? v : "");
  cJSON_free(text);
  char *hex = sha256_hex(in.data, in.len);
  sb_free(&in);
  char *d = xasprintf("sha256:%s", hex ? hex : "");
  free(hex);
  char *key = xstrdup(it->string);
  cJSON_ReplaceItemInObjectCaseSensitive(obj, key, cJSON_CreateString(d));
  free(key);
  free(d);
}

/* The entry as a record keeps it: env and header values (often tokens)
 * and a client secret written in the file replaced by a digest of the
 * name and value, enough to tell a changed value and never the value.
 * Idempotent: a record written so, or an older record holding the
 * values, gives the same form. New object. */
static cJSON *redacted(const cJSON *raw) {
  cJSON *e = cJSON_Duplicate(raw, 1);
  static const char *const maps[] = {"env", "headers"};
  for (size_t i = 0; i < 2; i++) {
    cJSON *m = cJSON_GetObjectItemCaseSensitive(e, maps[i]);
    cJSON *next = NULL;
    for (cJSON *it = cJSON_IsObject(m) ? m->child : NULL; it; it = next) {
      next = it->next; /* `it` is replaced */
      redact_member(m, it);
    }
  }
  cJSON *o = cJSON_GetObjectItemCaseSensitive(e, "oauth");
  cJSON *sec = cJSON_GetObjectItemCaseSensitive(o, "clientSecret");
  if (sec)
    redact_member(o, sec);
  return e;
}

cJSON *approval_record(const char *file, const cJSON *raw, const cJSON *perms) {
  char *d = approval_digest(file, raw, perms);
  if (!d)
    return NULL;
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "file", file);
  cJSON_AddStringToObject(r, "sha256", d);
  free(d);
  cJSON_AddItemToObject(r, "entry", redacted(raw));
  /* The references in env and header values, which entry no longer
   * shows. */
  cJSON_AddItemToObject(r, "variables", approval_vars(raw));
  if (perms)
    cJSON_AddItemToObject(r, "permissions", cJSON_Duplicate(perms, 1));
  return r;
}

static void add_escaped(strbuf *b, const char *s) {
  char *e = text_escape(s, strlen(s),
                        TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  sb_adds(b, e ? e : "");
  free(e);
}

void approval_add_word(strbuf *b, const char *w) {
  if (b->len)
    sb_addc(b, ' ');
  if (*w && !strpbrk(w, " \t\n'\"\\$`;&|<>()*?[]#~")) {
    sb_adds(b, w);
    return;
  }
  sb_addc(b, '\'');
  for (const char *p = w; *p; p++) {
    if (*p == '\'')
      sb_adds(b, "'\\''");
    else
      sb_addc(b, *p);
  }
  sb_addc(b, '\'');
}

/* Each variable a string references, once, in the order met: what
 * expand_vars looks up with none set (so nested defaults too). */
static const char *note_var(void *ud, const char *name) {
  cJSON *out = ud;
  const cJSON *it;
  cJSON_ArrayForEach(it, out) {
    if (strcmp(it->valuestring, name) == 0)
      return NULL;
  }
  cJSON_AddItemToArray(out, cJSON_CreateString(name));
  return NULL;
}

static void vars_of(const char *s, cJSON *out) {
  if (s && strstr(s, "${"))
    free(expand_vars(s, note_var, out, NULL, NULL));
}

cJSON *approval_vars(const cJSON *raw) {
  cJSON *out = cJSON_CreateArray();
  static const char *const fields[] = {"command", "args", "env", "url",
                                       "headers"};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(raw, fields[i]);
    if (cJSON_IsString(v)) {
      vars_of(v->valuestring, out);
      continue;
    }
    const cJSON *it;
    cJSON_ArrayForEach(it, (cJSON_IsArray(v) || cJSON_IsObject(v) ? v : NULL)) {
      if (cJSON_IsString(it))
        vars_of(it->valuestring, out);
    }
  }
  return out;
}

/* One thing an entry reads or talks to, beyond its own text. */
static void add_read(cJSON *out, const char *kind, const char *key,
                     const char *value, bool secret) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "kind", kind);
  cJSON_AddStringToObject(r, "key", key);
  cJSON_AddStringToObject(r, "value", value);
  cJSON_AddBoolToObject(r, "secret", secret);
  cJSON_AddItemToArray(out, r);
}

cJSON *approval_reads(const cJSON *raw) {
  cJSON *out = cJSON_CreateArray();
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(raw, "oauth");
  const char *env = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(o, "clientSecretEnv"));
  if (env)
    add_read(out, "variable", "oauth.clientSecretEnv", env, true);
  const char *key = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(o, "privateKeyFile"));
  if (key)
    add_read(out, "file", "oauth.privateKeyFile", key, true);
  static const char *const tls_files[] = {"caFile", "certFile", "keyFile"};
  const cJSON *tls = cJSON_GetObjectItemCaseSensitive(raw, "tls");
  for (size_t i = 0; i < 3; i++) {
    const char *f = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(tls, tls_files[i]));
    char *k = xasprintf("tls.%s", tls_files[i]);
    if (f)
      add_read(out, "file", k, f, i == 2); /* the client's private key */
    free(k);
  }
  const char *as = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(o, "authServerMetadataUrl"));
  if (as)
    add_read(out, "authorization server", "oauth.authServerMetadataUrl", as,
             false);
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "xaa")))
    add_read(out, "identity provider", "oauth.xaa",
             "xaaIdp of your settings, which issues a grant for this server",
             true);
  return out;
}

char *approval_read_text(const cJSON *r) {
  const char *kind =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "kind"));
  const char *key =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "key"));
  const char *value =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "value"));
  bool reads =
      kind && (strcmp(kind, "variable") == 0 || strcmp(kind, "file") == 0);
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  sb_printf(&b, "%s %s ", reads ? "reads" : "talks to", kind ? kind : "?");
  add_escaped(&b, value ? value : "");
  sb_printf(&b, " (%s)", key ? key : "?");
  return sb_take(&b);
}

/* "command line" of an entry: command and args as shell words. */
static void command_line(strbuf *b, const cJSON *raw) {
  strbuf w;
  sb_init(&w);
  sb_add(&w, "", 0);
  const char *cmd =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "command"));
  if (cmd)
    approval_add_word(&w, cmd);
  const cJSON *a;
  cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(raw, "args")) {
    char *text = cJSON_IsString(a) ? NULL : cJSON_PrintUnformatted(a);
    approval_add_word(&w, text ? text : a->valuestring);
    cJSON_free(text);
  }
  add_escaped(b, sb_str(&w));
  sb_free(&w);
}

static void names_list(strbuf *b, const cJSON *obj) {
  bool first = true;
  const cJSON *it;
  cJSON_ArrayForEach(it, (cJSON_IsObject(obj) ? obj : NULL)) {
    if (!first)
      sb_adds(b, ", ");
    add_escaped(b, it->string ? it->string : "");
    first = false;
  }
}

static void vars_list(strbuf *b, const cJSON *vars) {
  bool first = true;
  const cJSON *it;
  cJSON_ArrayForEach(it, vars) {
    sb_printf(b, "%s${%s}", first ? "" : ", ", it->valuestring);
    first = false;
  }
}

/* A value as compact JSON, escaped. */
static void add_json(strbuf *b, const cJSON *v) {
  char *text = cJSON_PrintUnformatted(v);
  add_escaped(b, text ? text : "");
  cJSON_free(text);
}

/* The names of the keys of `raw` not shown field by field, or of `old`'s
 * that `raw` lacks when `removed`; each prefixed by `sep` and `label` the
 * first time. Returns whether any was named. */
static bool other_keys(strbuf *b, const cJSON *raw, const cJSON *old,
                       const char *sep, const char *label) {
  bool any = false;
  const cJSON *it;
  cJSON_ArrayForEach(it, (cJSON_IsObject(raw) ? raw : NULL)) {
    const cJSON *was =
        old ? cJSON_GetObjectItemCaseSensitive(old, it->string) : NULL;
    if (is_shown(it->string) || (was && cJSON_Compare(was, it, 1)))
      continue;
    sb_printf(b, "%s%s", any ? ", " : sep, any ? "" : label);
    add_escaped(b, it->string);
    any = true;
  }
  return any;
}

char *approval_summary(const cJSON *raw, const cJSON *perms, const char *sep) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  const char *url =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "url"));
  if (cJSON_GetObjectItemCaseSensitive(raw, "command")) {
    sb_adds(&b, "command: ");
    command_line(&b, raw);
  } else if (url) {
    const char *type =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "type"));
    sb_adds(&b, "url: ");
    add_escaped(&b, url);
    if (type) {
      sb_adds(&b, " (");
      add_escaped(&b, type);
      sb_adds(&b, ")");
    }
  } else {
    sb_adds(&b, "entry: ");
    char *text = cJSON_PrintUnformatted(raw);
    add_escaped(&b, text ? text : "");
    cJSON_free(text);
  }
  static const char *const maps[] = {"env", "headers"};
  for (size_t i = 0; i < 2; i++) {
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(raw, maps[i]);
    if (cJSON_GetArraySize(m) > 0) {
      sb_printf(&b, "%s%s: ", sep, maps[i]);
      names_list(&b, m);
    }
  }
  cJSON *vars = approval_vars(raw);
  if (cJSON_GetArraySize(vars) > 0) {
    sb_printf(&b, "%svariables: ", sep);
    vars_list(&b, vars);
  }
  cJSON_Delete(vars);
  const char *cwd =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "cwd"));
  if (cwd) {
    sb_printf(&b, "%scwd: ", sep);
    add_escaped(&b, cwd);
  }
  /* roots: ["/"] opens the whole disk to a file-system server; tls can
   * turn certificate checks off or swap the client key; headersHelper is
   * a command mcphost runs. */
  static const char *const whole[] = {"roots", "tls", "headersHelper"};
  for (size_t i = 0; i < 3; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(raw, whole[i]);
    if (v) {
      sb_printf(&b, "%s%s: ", sep, whole[i]);
      add_json(&b, v);
    }
  }
  /* oauth: its client secret as a digest; what it reads named below. */
  if (cJSON_GetObjectItemCaseSensitive(raw, "oauth")) {
    cJSON *r = redacted(raw);
    sb_printf(&b, "%soauth: ", sep);
    add_json(&b, cJSON_GetObjectItemCaseSensitive(r, "oauth"));
    cJSON_Delete(r);
  }
  cJSON *reads = approval_reads(raw);
  const cJSON *r;
  cJSON_ArrayForEach(r, reads) {
    char *t = approval_read_text(r);
    sb_printf(&b, "%s%s", sep, t);
    free(t);
  }
  cJSON_Delete(reads);
  (void)other_keys(&b, raw, NULL, sep, "other keys: ");
  if (perms) {
    sb_printf(&b, "%spermissions of its file: ", sep);
    add_json(&b, perms);
  }
  return sb_take(&b);
}

/* The change of one object of names (env, headers): +added, -removed,
 * NAME changed. Values are never shown: they may be secrets. */
static void map_diff(strbuf *b, const cJSON *old, const cJSON *now) {
  bool first = true;
  const cJSON *it;
  cJSON_ArrayForEach(it, (cJSON_IsObject(now) ? now : NULL)) {
    const cJSON *was = cJSON_GetObjectItemCaseSensitive(old, it->string);
    if (was && cJSON_Compare(was, it, 1))
      continue;
    sb_adds(b, first ? "" : ", ");
    if (was) {
      add_escaped(b, it->string);
      sb_adds(b, " changed");
    } else {
      sb_addc(b, '+');
      add_escaped(b, it->string);
    }
    first = false;
  }
  cJSON_ArrayForEach(it, (cJSON_IsObject(old) ? old : NULL)) {
    if (cJSON_GetObjectItemCaseSensitive(now, it->string))
      continue;
    sb_adds(b, first ? "-" : ", -");
    add_escaped(b, it->string);
    first = false;
  }
}

static void value_text(strbuf *b, const char *key, const cJSON *v) {
  if (!v) {
    sb_adds(b, "(none)");
  } else if (strcmp(key, "command") == 0 || strcmp(key, "args") == 0) {
    strbuf w;
    sb_init(&w);
    sb_add(&w, "", 0);
    if (cJSON_IsString(v)) {
      approval_add_word(&w, v->valuestring);
    } else {
      const cJSON *a;
      cJSON_ArrayForEach(a, v)
          approval_add_word(&w, cJSON_IsString(a) ? a->valuestring : "?");
    }
    add_escaped(b, sb_str(&w));
    sb_free(&w);
  } else if (cJSON_IsString(v)) {
    add_escaped(b, v->valuestring);
  } else {
    char *text = cJSON_PrintUnformatted(v);
    add_escaped(b, text ? text : "");
    cJSON_free(text);
  }
}

char *approval_diff(const cJSON *record, const char *file, const cJSON *raw,
                    const cJSON *perms) {
  /* Both sides as a record keeps them: values of env and headers as
   * digests (redacted()). */
  cJSON *old = redacted(cJSON_GetObjectItemCaseSensitive(record, "entry"));
  cJSON *now = redacted(raw);
  const char *old_file =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(record, "file"));
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  const char *sep = "";
  if (!old_file || strcmp(old_file, file) != 0) {
    sb_adds(&b, "file: ");
    add_escaped(&b, old_file ? old_file : "(unknown)");
    sb_adds(&b, " -> ");
    add_escaped(&b, file);
    sep = "; ";
  }
  for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(old, shown[i]);
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(now, shown[i]);
    if ((!a && !n) || (a && n && cJSON_Compare(a, n, 1)))
      continue;
    sb_printf(&b, "%s%s: ", sep, shown[i]);
    if (strcmp(shown[i], "env") == 0 || strcmp(shown[i], "headers") == 0) {
      map_diff(&b, a, n);
    } else {
      value_text(&b, shown[i], a);
      sb_adds(&b, " -> ");
      value_text(&b, shown[i], n);
    }
    sep = "; ";
  }
  const cJSON *kept = cJSON_GetObjectItemCaseSensitive(record, "variables");
  cJSON *va =
      cJSON_IsArray(kept)
          ? cJSON_Duplicate(kept, 1)
          : approval_vars(cJSON_GetObjectItemCaseSensitive(record, "entry"));
  cJSON *vn = approval_vars(raw);
  if (!cJSON_Compare(va, vn, 1)) {
    sb_printf(&b, "%svariables: ", sep);
    vars_list(&b, va);
    sb_adds(&b, cJSON_GetArraySize(va) ? " -> " : "(none) -> ");
    if (cJSON_GetArraySize(vn))
      vars_list(&b, vn);
    else
      sb_adds(&b, "(none)");
    sep = "; ";
  }
  cJSON_Delete(va);
  cJSON_Delete(vn);
  /* Keys not shown above (a timeout, a transport option), added or
   * changed, then removed. */
  if (other_keys(&b, now, old, sep, "other keys: "))
    sep = "; ";
  const cJSON *it;
  bool removed = false;
  cJSON_ArrayForEach(it, (cJSON_IsObject(old) ? old : NULL)) {
    if (is_shown(it->string) ||
        cJSON_GetObjectItemCaseSensitive(now, it->string))
      continue;
    sb_printf(&b, "%s%s", removed ? ", " : sep,
              removed ? "" : "keys removed: ");
    add_escaped(&b, it->string);
    removed = true;
  }
  if (removed)
    sep = "; ";
  const cJSON *was = cJSON_GetObjectItemCaseSensitive(record, "permissions");
  if (!(was ? perms && cJSON_Compare(was, perms, 1) : !perms)) {
    sb_printf(&b, "%spermissions of its file: ", sep);
    if (was)
      add_json(&b, was);
    else
      sb_adds(&b, "(none)");
    sb_adds(&b, " -> ");
    if (perms)
      add_json(&b, perms);
    else
      sb_adds(&b, "(none)");
  }
  cJSON_Delete(old);
  cJSON_Delete(now);
  if (!b.len)
    sb_adds(&b, "the entry was rewritten (the same fields, another text)");
  return sb_take(&b);
}
