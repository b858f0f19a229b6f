/* manifest.json: version detection and validation with the messages of
 * the official validator (`mcpb validate`, @anthropic-ai/mcpb 2.1.2).
 *
 * Versions 0.1 to 0.4, found in "manifest_version", else in the
 * deprecated "dxt_version". Every object is strict in the official
 * schemas: an unknown key is an issue of its own kind (MANIFEST_UNKNOWN),
 * which an installer may take as a warning; every other issue
 * (MANIFEST_ERROR) makes the manifest unusable. Issues read
 * "<path>: <message>" with the path's parts joined by '.', exactly as the
 * official validator prints them ("server.mcp_config.command: Required").
 *
 * Pure functions, any thread. */
#ifndef MCPB_MANIFEST_H
#define MCPB_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

enum manifest_issue_kind { MANIFEST_ERROR, MANIFEST_UNKNOWN };

typedef struct manifest_issue {
  int kind;
  char *text; /* "<path>: <message>", or "<message>" at the top */
} manifest_issue;

typedef struct manifest_report {
  manifest_issue *issues; /* in the validator's order */
  size_t count;
  size_t errors; /* issues of kind MANIFEST_ERROR */
  /* The version found ("0.1".."0.4"), NULL when there is none: then the
   * one issue is "Unrecognized or unsupported manifest version". */
  const char *version;
} manifest_report;

/* Parses `len` bytes of JSON text. Returns the document (free with
 * cJSON_Delete), or NULL with the official message in `err`:
 * "Invalid JSON in manifest file: ..." */
cJSON *manifest_parse(const char *text, size_t len, char *err, size_t n);

/* Validates `doc` against the schema of its version. Fills `r` (free with
 * manifest_report_free). */
void manifest_validate(const cJSON *doc, manifest_report *r);
void manifest_report_free(manifest_report *r);

/* The issues of `r` of the given kind joined with "; " (a new string),
 * or NULL when none. */
char *manifest_report_join(const manifest_report *r, int kind);

#endif
