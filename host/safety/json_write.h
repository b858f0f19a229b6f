/* Compact JSON text of a cJSON tree, appended to a buffer: the same bytes
 * as cJSON_PrintUnformatted() of cJSON 1.7.15, without the whole-message
 * string that function returns (a large answer is then held once more
 * only to be copied). Integers below 1e15 are printed without the
 * sprintf/sscanf round trip cJSON makes for every number. Pure function;
 * any thread, as long as the locale is not changed meanwhile. */
#ifndef MCPHOST_JSON_WRITE_H
#define MCPHOST_JSON_WRITE_H

#include <cjson/cJSON.h>

#include "core/util.h"

/* Appends `item` to `out`. Returns 0, or MCPH_EINVAL where
 * cJSON_PrintUnformatted() returns NULL (a raw item without text, an item
 * of no known type); `out` is then left as it was. */
int json_write(strbuf *out, const cJSON *item);

#endif
