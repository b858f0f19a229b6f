/* What a server's entry ("protocol") or --protocol asks for of the
 * protocol's eras (mcp/era.h): the configuration checks the value, the
 * client acts on it. Constant data: any thread. */
#ifndef MCPHOST_CONFIG_ERA_POLICY_H
#define MCPHOST_CONFIG_ERA_POLICY_H

#include <stdbool.h>

typedef enum {
  ERA_POLICY_AUTO = 0, /* detect (the default) */
  ERA_POLICY_MODERN,   /* 2026-07-28 only: no initialize fallback */
  ERA_POLICY_LEGACY    /* initialize only: no probe */
} era_policy;
/* Parses "auto", "modern" or "legacy"; false for anything else. */
bool era_policy_parse(const char *text, era_policy *out);

#endif
