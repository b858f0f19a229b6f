/* A command line split into words as a shell would, without running one:
 * whitespace separates words; '...' is literal; "..." honours \" and \\;
 * a backslash outside quotes escapes the next character. No expansion of
 * any kind. Used for --server COMMAND and for a remote server's
 * headersHelper. Pure, any thread. */
#ifndef MCPHOST_SPLIT_WORDS_H
#define MCPHOST_SPLIT_WORDS_H

#include <stddef.h>

/* Splits `s` into a new NULL-terminated array of new strings (free with
 * split_words_free()) and sets *n to the number of words. Returns 0, -1
 * for an unterminated quote, -2 when memory runs out; on failure *out is
 * NULL. */
int split_words(const char *s, char ***out, size_t *n);

/* Frees what split_words() returned; NULL is fine. */
void split_words_free(char **words);

#endif
