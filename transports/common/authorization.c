#include "authorization.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mcphost/abi.h>

#include "remote_config.h"

#define PREFIX "Authorization:"

int authorization_set(char **line, const char *value) {
  char *copy = NULL;
  if (value) {
    if (!remote_config_header_value_ok(value)) {
      return MCPH_EINVAL;
    }
    size_t n = strlen(PREFIX " ") + strlen(value) + 1;
    if (!(copy = malloc(n))) {
      return MCPH_ENOMEM;
    }
    snprintf(copy, n, PREFIX " %s", value);
  }
  free(*line);
  *line = copy;
  return MCPH_OK;
}

static bool append(struct curl_slist **list, const char *text) {
  struct curl_slist *n = curl_slist_append(*list, text);
  if (!n) {
    return false;
  }
  *list = n;
  return true;
}

bool authorization_headers(struct curl_slist **list, char *const *configured,
                           const char *line) {
  for (char *const *c = configured; c && *c; c++) {
    if (line && strncasecmp(*c, PREFIX, strlen(PREFIX)) == 0) {
      continue; /* the host's value replaces it */
    }
    if (!append(list, *c)) {
      return false;
    }
  }
  return !line || append(list, line);
}
