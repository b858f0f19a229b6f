/* SHA-256 (FIPS 180-4), for digests that are names, not secrets: the
 * OAuth credential key is SHA-256 of the server's JSON, and computing it
 * with OpenSSL mapped libcrypto (3 M instructions to initialize) at every
 * connection to a remote server, even one with no credential. Not for
 * cryptography that needs constant time or a vetted implementation:
 * that stays with OpenSSL. */
#ifndef MCPH_SHA256_H
#define MCPH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

/* The digest of the `len` bytes at `p`. */
void sha256(const void *p, size_t len, unsigned char out[SHA256_LEN]);

/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *p, size_t len, char out[2 * SHA256_LEN + 1]);

#endif
