/* Bundle signatures: PKCS#7/CMS SignedData, detached, over the ZIP bytes
 * (reference/mcpb.md §4), checked and made with OpenSSL.
 *
 * Statuses:
 *   signed      the signature is good, the signer's chain reaches the
 *               system trust store, an anchor of the administrator's
 *               (bundles.trustedCAs) or a --trust certificate, and the
 *               signer's certificate is for code signing (EKU); `trust`
 *               says which: "system" for the first two, "user" when only
 *               a --trust anchor made it signed;
 *   self-signed the signature is good and the signer issued its own
 *               certificate;
 *   unsigned    no trailer, or a good signature whose signer is not
 *               trusted (the reason in `why`), as the official tools say;
 *   invalid     a broken trailer or CMS blob, or content that does not
 *               match its signature (tampered).
 *
 * Any thread (OpenSSL 3 objects are per call). */
#ifndef MCPB_SIG_H
#define MCPB_SIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"
#include "trailer.h"

typedef struct sig_info {
  char status[16];
  char publisher[256]; /* subject CN of the signer */
  char issuer[256];    /* issuer CN */
  char valid_from[32]; /* ISO 8601, UTC */
  char valid_to[32];
  char fingerprint[100]; /* SHA-256 of the signer's certificate, hex */
  char why[320];         /* for unsigned and invalid */
  char trust[8];         /* for signed: "system" or "user" (above) */
} sig_info;

/* mcpb-sig.so, the part that needs OpenSSL (sig.c), exports a plugin
 * entry with this id, whose get_extension(NULL, MCPB_SIG_EXT) is the
 * table below. mcpb-tools.so opens it for a bundle that has a signature
 * to check, and for `bundle sign`: an unsigned bundle maps no libcrypto.
 * An internal interface between libraries built together: versioned by
 * its struct_size only. */
#define MCPB_SIG_ID "mcphost.feature.mcpb.sig"
#define MCPB_SIG_EXT "mcphost.mcpb.sig/1"

typedef struct mcpb_sig {
  uint32_t struct_size;
  void (*check)(bsrc *content, const unsigned char *der, int trailer_kind,
                const trailer *t, const char *const *managed, size_t nmanaged,
                const char *trust, sig_info *out);
  int (*sign)(const char *path, const char *cert, const char *key,
              const char *const *chain, size_t nchain, char *err, size_t n);
} mcpb_sig;

/* Sets out->status, and out->why when `why` is not NULL. */
void sig_set_status(sig_info *out, const char *status, const char *why);

/* Zeroes `out`; then the status of a bundle without a signature to check
 * (its trailer's kind `trailer_kind` not TRAILER_OK): unsigned for none,
 * invalid for a broken one (t->why), and returns false. True when there
 * is a signature: sig_check says the rest. No OpenSSL (sig_status.c). */
bool sig_trailer_status(int trailer_kind, const trailer *t, sig_info *out);

/* Checks the signature of the bundle whose trailer `t` was parsed: the
 * DER blob `der` (t->der_len bytes; NULL when there is none) over the
 * ZIP bytes of `content`, read once, a block at a time. `managed` are
 * the administrator's PEM files of trust anchors (`nmanaged` of them),
 * trusted as the system store is; `trust` is the user's PEM file of
 * extra anchors, or NULL. */
void sig_check(bsrc *content, const unsigned char *der, int trailer_kind,
               const trailer *t, const char *const *managed, size_t nmanaged,
               const char *trust, sig_info *out);

/* Signs the file `path` in place: any trailer it has is replaced by one
 * holding a signature by `cert` and `key` (PEM files), with the
 * certificates of the PEM files `chain` (may be empty) embedded. 0, or -1
 * with the reason in `err`. */
int sig_sign(const char *path, const char *cert, const char *key,
             const char *const *chain, size_t nchain, char *err, size_t n);

#endif
