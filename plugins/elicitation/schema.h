/*
 * requestedSchema of a form-mode elicitation (MCP 2025-11-25): a flat
 * object whose properties are strings (minLength, maxLength, format
 * email|uri|date|date-time), numbers and integers (minimum, maximum),
 * booleans, single-select enums (enum, enum + legacy enumNames, oneOf of
 * {const, title}) and multi-select enums (type array, items.enum or
 * items.anyOf of {const, title}; minItems, maxItems), each with an
 * optional default.
 */
#ifndef MCPH_ELICIT_SCHEMA_H
#define MCPH_ELICIT_SCHEMA_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* A schema with more is refused: nobody answers 100 questions in a row,
 * and a hostile server must not make the terminal loop for ever. */
#define SCHEMA_MAX_FIELDS 100
#define SCHEMA_MAX_CHOICES 500

typedef enum field_kind {
  FIELD_STRING,
  FIELD_NUMBER,
  FIELD_INTEGER,
  FIELD_BOOLEAN,
  FIELD_ENUM, /* one of choices */
  FIELD_MULTI /* an array of choices */
} field_kind;

typedef enum field_format {
  FORMAT_NONE,
  FORMAT_EMAIL,
  FORMAT_URI,
  FORMAT_DATE,
  FORMAT_DATE_TIME
} field_format;

typedef struct choice {
  char *value;
  char *title; /* NULL when untitled */
} choice;

typedef struct field {
  char *name;
  char *title;       /* NULL when none */
  char *description; /* NULL when none */
  field_kind kind;
  bool required;
  long min_len, max_len; /* strings; -1: no limit */
  field_format format;
  bool has_min, has_max; /* numbers */
  double min, max;
  choice *choices; /* enums */
  size_t nchoices;
  long min_items, max_items; /* multi; -1: no limit */
  cJSON *def;                /* the default, or NULL */
} field;

typedef struct form {
  field *fields;
  size_t nfields;
} form;

/* Parses `schema` into *out (zeroed first). Returns 0, or -1 with a
 * sentence naming what is wrong in `why` (the -32602 message). */
int schema_parse(const cJSON *schema, form *out, char *why, size_t n);
void schema_free(form *f);

/* A new content object with every default filled in. NULL, with `why`
 * naming the required fields that have none, when those exist. */
cJSON *schema_defaults(const form *f, char *why, size_t n);

/* ---- value.c ---- */

/* Whether `v` is a valid value for `f`; else the reason in `why`. */
bool value_check(const field *f, const cJSON *v, char *why, size_t n);

/* Turns what a person typed (one line, no newline) into a value for `f`:
 * numbers, yes/no, choices by number, value or title, comma-separated
 * lists. Returns a new value, or NULL with the reason in `why`. */
cJSON *value_from_input(const field *f, const char *text, char *why, size_t n);

/* Checks an answer {action, content?} from a hook. `f` is NULL in URL
 * mode (content is then dropped). Returns a new, normalized answer, or
 * NULL with the reason. */
cJSON *value_check_answer(const form *f, const cJSON *answer, char *why,
                          size_t n);

/* The value as people read it: strings quoted, lists joined; choices with
 * their titles. New string. */
char *value_show(const field *f, const cJSON *v);

/* Number of code points in valid UTF-8 `s`, or -1 when it is not UTF-8. */
long value_utf8_len(const char *s);

#endif /* MCPH_ELICIT_SCHEMA_H */
