#ifndef MCPHOST_BASE64_H
#define MCPHOST_BASE64_H

#include <stddef.h>

/* Decodes standard base64 (padding optional, whitespace skipped) into a
 * new buffer. Returns NULL on invalid input. */
unsigned char *base64_decode(const char *in, size_t *out_len);
/* Encodes `len` bytes as standard base64 with padding: a new string
 * (free()). */
char *base64_encode(const void *in, size_t len);

#endif
