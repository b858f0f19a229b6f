#include "sig.h"

#include <mcphost/plugin.h>

#include <stdbool.h>
#include <stdint.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bio.h>
#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "fsutil.h"

static void ssl_reason(char *out, size_t n, const char *what) {
  unsigned long e = ERR_peek_last_error();
  char buf[256] = "";
  if (e) {
    ERR_error_string_n(e, buf, sizeof buf);
  }
  snprintf(out, n, "%s%s%s", what, *buf ? ": " : "", buf);
  ERR_clear_error();
}

static void name_cn(X509_NAME *nm, char *out, size_t n) {
  out[0] = '\0';
  if (nm && X509_NAME_get_text_by_NID(nm, NID_commonName, out, (int)n) < 0) {
    X509_NAME_oneline(nm, out, (int)n);
  }
}

static void iso_time(const ASN1_TIME *t, char *out, size_t n) {
  struct tm tm;
  out[0] = '\0';
  if (t && ASN1_TIME_to_tm(t, &tm)) {
    strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
  }
}

static void describe_signer(X509 *leaf, sig_info *o) {
  name_cn(X509_get_subject_name(leaf), o->publisher, sizeof o->publisher);
  name_cn(X509_get_issuer_name(leaf), o->issuer, sizeof o->issuer);
  iso_time(X509_get0_notBefore(leaf), o->valid_from, sizeof o->valid_from);
  iso_time(X509_get0_notAfter(leaf), o->valid_to, sizeof o->valid_to);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int mdlen = 0;
  if (X509_digest(leaf, EVP_sha256(), md, &mdlen)) {
    for (unsigned int i = 0; i < mdlen && 2 * i + 2 < sizeof o->fingerprint;
         i++) {
      snprintf(o->fingerprint + 2 * i, 3, "%02x", md[i]);
    }
  }
}

/* The ZIP bytes of a bundle source as a BIO, read a block at a time:
 * the content CMS_verify digests. */
static int src_bio_read(BIO *b, char *out, size_t n, size_t *got) {
  bsrc *s = BIO_get_data(b);
  size_t avail;
  const unsigned char *p = bsrc_at(s, s->pos, &avail);
  *got = 0;
  if (!p || avail == 0) {
    return 0;
  }
  *got = avail < n ? avail : n;
  memcpy(out, p, *got);
  s->pos += *got;
  return 1;
}

static long src_bio_ctrl(BIO *b, int cmd, long num, void *ptr) {
  (void)num;
  (void)ptr;
  bsrc *s = BIO_get_data(b);
  switch (cmd) {
  case BIO_CTRL_FLUSH: return 1;
  case BIO_CTRL_EOF: return s->pos >= s->len;
  default: return 0;
  }
}

/* CMS_verify of `cms`: over `content` when not NULL, else of the signer
 * only (the content was checked by an earlier call); `store` NULL: the
 * signature only. */
static int verify(CMS_ContentInfo *cms, bsrc *content, X509_STORE *store) {
  BIO_METHOD *m = NULL;
  BIO *in = NULL;
  unsigned flags = CMS_BINARY | (store ? 0u : CMS_NO_SIGNER_CERT_VERIFY);
  if (content) {
    m = BIO_meth_new(BIO_TYPE_SOURCE_SINK, "mcpb bundle");
    if (m) {
      BIO_meth_set_read_ex(m, src_bio_read);
      BIO_meth_set_ctrl(m, src_bio_ctrl);
      in = BIO_new(m);
    }
    if (in) {
      content->pos = 0;
      content->err[0] = '\0';
      BIO_set_data(in, content);
      BIO_set_init(in, 1);
    }
  } else {
    in = BIO_new_mem_buf("", 0);
    flags |= CMS_NO_CONTENT_VERIFY;
  }
  int ok = in ? CMS_verify(cms, NULL, store, in, NULL, flags) : 0;
  BIO_free(in);
  BIO_meth_free(m);
  return ok == 1;
}

/* A trust store: the system's, the administrator's anchors and, when not
 * NULL, the user's. NULL with `why` filled when one cannot be loaded. */
static X509_STORE *anchors(const char *const *managed, size_t nmanaged,
                           const char *user, char *why, size_t n) {
  X509_STORE *store = X509_STORE_new();
  if (!store || X509_STORE_set_default_paths(store) != 1) {
    ssl_reason(why, n, "the trust store cannot be loaded");
    X509_STORE_free(store);
    return NULL;
  }
  for (size_t i = 0; i <= nmanaged; i++) {
    const char *f = i < nmanaged ? managed[i] : user;
    if (f && X509_STORE_load_file(store, f) != 1) {
      char what[300];
      snprintf(what, sizeof what, "the trust anchors of %s%s cannot be loaded",
               i < nmanaged ? "bundles.trustedCAs " : "--trust ", f);
      ssl_reason(why, n, what);
      X509_STORE_free(store);
      return NULL;
    }
  }
  /* OpenSSL has no code-signing purpose: any purpose for the chain, and
   * the EKU checked below. */
  X509_VERIFY_PARAM_set_purpose(X509_STORE_get0_param(store), X509_PURPOSE_ANY);
  return store;
}

void sig_check(bsrc *content, const unsigned char *der, int trailer_kind,
               const trailer *t, const char *const *managed, size_t nmanaged,
               const char *trust, sig_info *o) {
  if (!sig_trailer_status(trailer_kind, t, o)) {
    return;
  }
  const unsigned char *p = der;
  CMS_ContentInfo *cms = NULL;
  X509_STORE *store = NULL;
  STACK_OF(X509) *signers = NULL;
  if (t->der_len > 0x7fffffff ||
      !(cms = d2i_CMS_ContentInfo(NULL, &p, (long)t->der_len)) ||
      OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) {
    sig_set_status(o, "invalid", "the signature is not a CMS SignedData blob");
    goto out;
  }
  if (!CMS_is_detached(cms)) {
    sig_set_status(o, "invalid", "the signature is not detached");
    goto out;
  }
  if (!verify(cms, content, NULL)) {
    char why[300];
    if (content->err[0]) {
      snprintf(why, sizeof why, "the bundle cannot be read: %s", content->err);
    } else {
      ssl_reason(why, sizeof why,
                 "the content does not match its signature (tampered?)");
    }
    sig_set_status(o, "invalid", why);
    goto out;
  }
  signers = CMS_get0_signers(cms);
  X509 *leaf =
      signers && sk_X509_num(signers) > 0 ? sk_X509_value(signers, 0) : NULL;
  if (!leaf) {
    sig_set_status(o, "invalid", "the signature names no signer certificate");
    goto out;
  }
  describe_signer(leaf, o);
  if (X509_check_issued(leaf, leaf) == X509_V_OK) {
    sig_set_status(o, "self-signed",
                   "the publisher signed its own certificate");
    goto out;
  }
  /* The system store and the administrator's anchors first; the user's
   * --trust only when they do not reach the signer, so that a status
   * that needed it says so (a policy does not count it). */
  bool user = false;
  char why[300] = "";
  store = anchors(managed, nmanaged, NULL, why, sizeof why);
  if (store && !verify(cms, NULL, store)) {
    ssl_reason(why, sizeof why, "the publisher's certificate is not trusted");
    X509_STORE_free(store);
    store = NULL;
    if (trust) {
      char uwhy[300] = "";
      store = anchors(managed, nmanaged, trust, uwhy, sizeof uwhy);
      if (store && verify(cms, NULL, store)) {
        user = true;
      } else {
        if (uwhy[0]) {
          snprintf(why, sizeof why, "%s", uwhy);
        }
        X509_STORE_free(store);
        store = NULL;
      }
    }
  }
  if (!store) {
    sig_set_status(o, "unsigned", why);
    goto out;
  }
  uint32_t xku = X509_get_extended_key_usage(leaf);
  if (xku == UINT32_MAX || !(xku & XKU_CODE_SIGN)) {
    sig_set_status(o, "unsigned",
                   "the publisher's certificate is not for code signing (no "
                   "codeSigning extended key usage)");
    goto out;
  }
  sig_set_status(o, "signed", NULL);
  snprintf(o->trust, sizeof o->trust, "%s", user ? "user" : "system");
out:
  sk_X509_free(signers);
  X509_STORE_free(store);
  CMS_ContentInfo_free(cms);
  ERR_clear_error();
}

/* ---- signing ---- */

static X509 *read_cert(const char *path, char *err, size_t n) {
  BIO *b = BIO_new_file(path, "r");
  X509 *x = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
  BIO_free(b);
  if (!x) {
    char what[300];
    snprintf(what, sizeof what, "%s: not a PEM certificate", path);
    ssl_reason(err, n, what);
  }
  return x;
}

int sig_sign(const char *path, const char *cert, const char *key,
             const char *const *chain, size_t nchain, char *err, size_t n) {
  int rc = -1;
  size_t len = 0;
  char why[256];
  unsigned char *data = fs_read_path(path, SIZE_MAX / 2, &len, why, sizeof why);
  if (!data) {
    snprintf(err, n, "%s: %s", path, why);
  }
  X509 *signer = NULL;
  EVP_PKEY *pkey = NULL;
  STACK_OF(X509) *certs = sk_X509_new_null();
  CMS_ContentInfo *cms = NULL;
  BIO *in = NULL;
  unsigned char *der = NULL;
  FILE *f = NULL;
  char tmp[4200] = "";
  if (!data || !certs) {
    goto out;
  }
  trailer t;
  trailer_parse(data, len, len, &t);
  size_t zip_len = (size_t)t.zip_len;
  if (!(signer = read_cert(cert, err, n))) {
    goto out;
  }
  BIO *kb = BIO_new_file(key, "r");
  pkey = kb ? PEM_read_bio_PrivateKey(kb, NULL, NULL, NULL) : NULL;
  BIO_free(kb);
  if (!pkey) {
    char what[300];
    snprintf(what, sizeof what, "%s: not a PEM private key", key);
    ssl_reason(err, n, what);
    goto out;
  }
  if (X509_check_private_key(signer, pkey) != 1) {
    snprintf(err, n, "%s is not the key of %s", key, cert);
    goto out;
  }
  for (size_t i = 0; i < nchain; i++) {
    X509 *x = read_cert(chain[i], err, n);
    if (!x) {
      goto out;
    }
    sk_X509_push(certs, x);
  }
  in = BIO_new_mem_buf(data, (int)zip_len);
  cms =
      in ? CMS_sign(signer, pkey, certs, in, CMS_DETACHED | CMS_BINARY) : NULL;
  if (!cms) {
    ssl_reason(err, n, "signing failed");
    goto out;
  }
  int dlen = i2d_CMS_ContentInfo(cms, &der);
  if (dlen <= 0) {
    ssl_reason(err, n, "the signature cannot be encoded");
    goto out;
  }
  snprintf(tmp, sizeof tmp, "%s.signing", path);
  f = fopen(tmp, "wb");
  if (!f) {
    snprintf(err, n, "%s: %s", tmp, strerror(errno));
    goto out;
  }
  unsigned char le[4] = {(unsigned char)dlen, (unsigned char)(dlen >> 8),
                         (unsigned char)(dlen >> 16),
                         (unsigned char)(dlen >> 24)};
  fwrite(data, 1, zip_len, f);
  fwrite("MCPB_SIG_V1", 1, 11, f);
  fwrite(le, 1, 4, f);
  fwrite(der, 1, (size_t)dlen, f);
  fwrite("MCPB_SIG_END", 1, 12, f);
  int bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    f = NULL;
    snprintf(err, n, "%s: write error", tmp);
    goto out;
  }
  f = NULL;
  if (rename(tmp, path) < 0) {
    snprintf(err, n, "%s: %s", path, strerror(errno));
    goto out;
  }
  tmp[0] = '\0';
  rc = 0;
out:
  if (f) {
    fclose(f);
  }
  if (tmp[0]) {
    remove(tmp);
  }
  OPENSSL_free(der);
  BIO_free(in);
  CMS_ContentInfo_free(cms);
  sk_X509_pop_free(certs, X509_free);
  EVP_PKEY_free(pkey);
  X509_free(signer);
  free(data);
  return rc;
}

/* ---- the library's entry ---- */

static const mcpb_sig table = {
    .struct_size = sizeof(mcpb_sig),
    .check = sig_check,
    .sign = sig_sign,
};

static const void *s_get_extension(void *ctx, const char *id) {
  (void)ctx;
  return strcmp(id, MCPB_SIG_EXT) == 0 ? &table : NULL;
}

/* As mcpb-tools.so's (tools.c): an entry the host never loads, asked for
 * MCPB_SIG_EXT without init. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = MCPB_SIG_ID,
    .name = "mcpb signatures",
    .version = "0.1.0",
    .description = "the bundle plugin's signature code (OpenSSL)",
    .get_extension = s_get_extension,
};
