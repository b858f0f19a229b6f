/*
 * The sampling feature plugin: what its files share.
 *
 *   plugin.c   the ABI glue: entry, options, the capability (declared only
 *              when a hook is set), a request in, the hook run, the answer
 *   answer.c   the hook's input from the server's request, and checking
 *              what the hook printed before the server gets it
 */
#ifndef MCPH_SAMPLING_H
#define MCPH_SAMPLING_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Checks a hook's output as a sampling/createMessage result (MCP
 * 2025-11-25 CreateMessageResult): a JSON object with "role" ("assistant"
 * or "user"), "content" (a content block, or an array of them, each an
 * object with a string "type") and a string "model"; "stopReason", when
 * present, a string. Returns the result as a new tree, or NULL with the
 * reason in `why`. */
cJSON *sampling_check_answer(const char *output, char *why, size_t n);

/* The hook's input for the server's sampling/createMessage params (JSON
 * text): the params with "server" first, the server's name. NULL when
 * they are not an object with a "messages" array. A new string. */
char *sampling_hook_input(const char *server, const char *params_json);

#endif /* MCPH_SAMPLING_H */
