/* Unit tests of the elicitation plugin's schema parsing, value checking,
 * terminal text cleaning, command splitting and URL checks
 * (plugins/elicitation/ schema.c, value.c, text.c, proc.c, url.c,
 * alloc.c, compiled into this test with elicit_fakes.c). */
#include <stdlib.h>

#include "browser.h"
#include "check.h"
#include "elicit.h"
#include "hook.h"
#include "schema.h"

static char why[600];

/* Parses a schema given as JSON text; 0 or -1 (reason in `why`). */
static int parse(const char *text, form *f) {
  cJSON *j = cJSON_Parse(text);
  why[0] = '\0';
  int rc = schema_parse(j, f, why, sizeof why);
  cJSON_Delete(j);
  return rc;
}

/* A one-field form, asserted to parse. */
static form one(const char *prop) {
  char text[2000];
  snprintf(text, sizeof text, "{\"type\":\"object\",\"properties\":{\"f\":%s}}",
           prop);
  form f;
  if (parse(text, &f) != 0) {
    fprintf(stderr, "  schema did not parse: %s: %s\n", prop, why);
    check_failures++;
  }
  return f;
}

/* Whether `typed` is accepted for the one-field form `prop`; the value as
 * JSON text in *out (free), or NULL. */
static bool input(const char *prop, const char *typed, char **out) {
  form f = one(prop);
  cJSON *v =
      f.nfields ? value_from_input(&f.fields[0], typed, why, sizeof why) : NULL;
  if (out)
    *out = v ? cJSON_PrintUnformatted(v) : NULL;
  cJSON_Delete(v);
  schema_free(&f);
  return v != NULL;
}

static bool accepts(const char *prop, const char *typed) {
  return input(prop, typed, NULL);
}

static void check_input(const char *prop, const char *typed, const char *want) {
  char *got = NULL;
  input(prop, typed, &got);
  CHECK_STR(got, want);
  free(got);
}

#define EMAIL "{\"type\":\"string\",\"format\":\"email\"}"
#define URI "{\"type\":\"string\",\"format\":\"uri\"}"
#define DATE "{\"type\":\"string\",\"format\":\"date\"}"
#define DATETIME "{\"type\":\"string\",\"format\":\"date-time\"}"

TEST(test_schema_reads_every_field_kind) {
  form f;
  int rc = parse(
      "{\"type\":\"object\",\"properties\":{"
      "\"s\":{\"type\":\"string\",\"title\":\"S\",\"minLength\":2},"
      "\"n\":{\"type\":\"number\",\"minimum\":0,\"default\":1.5},"
      "\"i\":{\"type\":\"integer\",\"maximum\":9},"
      "\"b\":{\"type\":\"boolean\",\"default\":false},"
      "\"e\":{\"type\":\"string\",\"enum\":[\"x\",\"y\"],"
      "\"enumNames\":[\"Ex\",\"Why\"]},"
      "\"o\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"a\",\"title\":\"A\"}]"
      "},"
      "\"m\":{\"type\":\"array\",\"items\":{\"anyOf\":[{\"const\":\"p\","
      "\"title\":\"P\"},{\"const\":\"q\",\"title\":\"Q\"}]},\"maxItems\":1}},"
      "\"required\":[\"s\",\"m\"]}",
      &f);
  CHECK(rc == 0);
  CHECK(f.nfields == 7);
  if (f.nfields != 7)
    return;
  CHECK(f.fields[0].kind == FIELD_STRING && f.fields[0].min_len == 2);
  CHECK_STR(f.fields[0].title, "S");
  CHECK(f.fields[0].required && !f.fields[1].required && f.fields[6].required);
  CHECK(f.fields[1].kind == FIELD_NUMBER && f.fields[1].has_min);
  CHECK(f.fields[2].kind == FIELD_INTEGER && f.fields[2].max == 9);
  CHECK(f.fields[3].kind == FIELD_BOOLEAN && cJSON_IsFalse(f.fields[3].def));
  CHECK(f.fields[4].kind == FIELD_ENUM && f.fields[4].nchoices == 2);
  CHECK_STR(f.fields[4].choices[1].title, "Why");
  CHECK(f.fields[5].kind == FIELD_ENUM);
  CHECK_STR(f.fields[5].choices[0].title, "A");
  CHECK(f.fields[6].kind == FIELD_MULTI && f.fields[6].max_items == 1);
  CHECK_STR(f.fields[6].choices[1].value, "q");
  schema_free(&f);
}

TEST(test_schema_refusals_name_the_property_and_the_problem) {
  static const struct {
    const char *schema, *reason;
  } cases[] = {
      {"[]", "requestedSchema must be a JSON object"},
      {"{\"type\":\"object\",\"properties\":[]}",
       "properties must be an object"},
      {"{\"properties\":{\"a\":{\"type\":\"object\"}}}",
       "property \"a\" is an object: nested objects are not allowed"},
      {"{\"properties\":{\"a\":{\"type\":[\"string\",\"null\"]}}}",
       "property \"a\" needs a \"type\" string"},
      {"{\"properties\":{\"a\":{\"type\":\"file\"}}}",
       "property \"a\" has unknown type \"file\""},
      {"{\"properties\":{\"a\":{\"type\":\"string\",\"minLength\":5,"
       "\"maxLength\":2}}}",
       "property \"a\": minLength 5 exceeds maxLength 2"},
      {"{\"properties\":{\"a\":{\"type\":\"number\",\"minimum\":\"0\"}}}",
       "property \"a\": minimum must be a number"},
      {"{\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\",\"x\"]}}}",
       "property \"a\": enum lists \"x\" twice"},
      {"{\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\"],"
       "\"enumNames\":[\"X\",\"Y\"]}}}",
       "enumNames must be an array as long as enum"},
      {"{\"properties\":{\"a\":{\"type\":\"integer\",\"default\":1.5}}}",
       "property \"a\": its default is invalid: not a whole number"},
      {"{\"properties\":{\"a\":{\"type\":\"string\",\"enum\":[\"x\"],"
       "\"default\":\"y\"}}}",
       "its default is invalid: \"y\" is not one of the choices"},
      {"{\"properties\":{\"a\":{\"type\":\"array\",\"items\":{\"enum\":[\"x\"]}"
       ","
       "\"minItems\":2}}}",
       "minItems 2 is more than the 1 choices"},
      {"{\"properties\":{},\"required\":\"a\"}",
       "required must be an array of names"},
      {"{\"properties\":{\"a\":{\"type\":\"string\"},\"a\":{\"type\":"
       "\"string\"}}}",
       "property \"a\" appears twice"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    form f;
    CHECK(parse(cases[i].schema, &f) == -1);
    CHECK_CONTAINS(why, cases[i].reason);
    CHECK(f.fields == NULL && f.nfields == 0); /* nothing left to free */
  }
}

TEST(test_schema_refuses_more_than_the_field_limit) {
  char text[20000] = "{\"properties\":{";
  for (int i = 0; i <= SCHEMA_MAX_FIELDS; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text),
             "%s\"f%d\":{\"type\":\"string\"}", i ? "," : "", i);
  snprintf(text + strlen(text), sizeof text - strlen(text), "}}");
  form f;
  CHECK(parse(text, &f) == -1);
  CHECK_CONTAINS(why, "properties (at most 100)");
}

TEST(test_schema_without_properties_is_an_empty_form) {
  form f;
  CHECK(parse("{\"type\":\"object\"}", &f) == 0);
  CHECK(f.nfields == 0);
  schema_free(&f);
}

TEST(test_defaults_fill_every_field_that_has_one) {
  form f;
  parse("{\"properties\":{\"a\":{\"type\":\"string\",\"default\":\"x\"},"
        "\"b\":{\"type\":\"integer\"},\"c\":{\"type\":\"boolean\","
        "\"default\":true}},\"required\":[\"a\"]}",
        &f);
  cJSON *c = schema_defaults(&f, why, sizeof why);
  char *text = c ? cJSON_PrintUnformatted(c) : NULL;
  CHECK_STR(text, "{\"a\":\"x\",\"c\":true}");
  free(text);
  cJSON_Delete(c);
  schema_free(&f);
}

TEST(test_defaults_name_every_required_field_without_one) {
  form f;
  parse("{\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":"
        "\"string\"},\"c\":{\"type\":\"string\",\"default\":\"z\"}},"
        "\"required\":[\"a\",\"b\",\"c\"]}",
        &f);
  CHECK(schema_defaults(&f, why, sizeof why) == NULL);
  CHECK_STR(why, "required fields \"a\", \"b\" have no default");
  schema_free(&f);
}

TEST(test_email_format) {
  CHECK(accepts(EMAIL, "ada@example.com"));
  CHECK(accepts(EMAIL, "a.b+c@mail.example.co.uk"));
  CHECK(!accepts(EMAIL, "ada@example"));
  CHECK(!accepts(EMAIL, "@example.com"));
  CHECK(!accepts(EMAIL, "a@@example.com"));
  CHECK(!accepts(EMAIL, "a b@example.com"));
  CHECK(!accepts(EMAIL, "a@example..com"));
  CHECK(!accepts(EMAIL, "a@example.com."));
  CHECK_CONTAINS(why, "not an email address");
}

TEST(test_uri_format) {
  CHECK(accepts(URI, "https://example.com/x?y=1"));
  CHECK(accepts(URI, "mailto:ada@example.com"));
  CHECK(accepts(URI, "urn:isbn:0451450523"));
  CHECK(!accepts(URI, "example.com"));
  CHECK(!accepts(URI, "1http://x"));
  CHECK(!accepts(URI, "https://exa mple.com"));
  CHECK(!accepts(URI, "https:"));
}

TEST(test_date_format_knows_the_calendar) {
  CHECK(accepts(DATE, "2024-02-29"));
  CHECK(accepts(DATE, "2000-02-29"));
  CHECK(!accepts(DATE, "1900-02-29"));
  CHECK(!accepts(DATE, "2023-02-29"));
  CHECK(!accepts(DATE, "2023-04-31"));
  CHECK(!accepts(DATE, "2023-13-01"));
  CHECK(!accepts(DATE, "2023-1-01"));
  CHECK(!accepts(DATE, "2023-01-01T00:00:00Z"));
  CHECK_CONTAINS(why, "YYYY-MM-DD");
}

TEST(test_date_time_format_is_rfc3339) {
  CHECK(accepts(DATETIME, "2024-05-01T12:30:00Z"));
  CHECK(accepts(DATETIME, "2024-05-01t12:30:00.123+02:00"));
  CHECK(accepts(DATETIME, "2016-12-31T23:59:60Z")); /* a leap second */
  CHECK(!accepts(DATETIME, "2024-05-01 12:30:00Z"));
  CHECK(!accepts(DATETIME, "2024-05-01T24:00:00Z"));
  CHECK(!accepts(DATETIME, "2024-05-01T12:30:00"));
  CHECK(!accepts(DATETIME, "2024-05-01T12:30:00+0200"));
  CHECK(!accepts(DATETIME, "2024-05-01T12:30:00.Z"));
}

TEST(test_string_length_counts_characters_not_bytes) {
  const char *p = "{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}";
  CHECK(accepts(p, "h\xc3\xa9llo")); /* 5 characters, 6 bytes */
  CHECK(!accepts(p, "h\xc3\xa9llo!"));
  CHECK_CONTAINS(why, "too long: 6 characters, at most 5");
  CHECK(!accepts(p, "x"));
  CHECK_CONTAINS(why, "too short");
  CHECK(!accepts("{\"type\":\"string\"}", "bad \xff byte"));
  CHECK_CONTAINS(why, "not valid UTF-8");
}

TEST(test_typed_strings_are_trimmed) {
  check_input("{\"type\":\"string\"}", "  Ada Lovelace \t", "\"Ada Lovelace\"");
}

TEST(test_numbers_as_people_write_them) {
  const char *num = "{\"type\":\"number\",\"minimum\":-5,\"maximum\":1000}";
  check_input(num, "3.25", "3.25");
  check_input(num, "-5", "-5");
  check_input(num, "1e2", "100");
  CHECK(!accepts(num, "inf"));
  CHECK(!accepts(num, "nan"));
  CHECK(!accepts(num, "0x10"));
  CHECK(!accepts(num, "3."));
  CHECK(!accepts(num, "12abc"));
  CHECK(!accepts(num, "1001"));
  CHECK_CONTAINS(why, "1001 is above the maximum 1000");
  CHECK(!accepts(num, "-6"));
  CHECK_CONTAINS(why, "below the minimum -5");
}

TEST(test_integers_are_whole_and_exact) {
  const char *in = "{\"type\":\"integer\"}";
  check_input(in, "42", "42");
  check_input(in, "+7", "7");
  CHECK(!accepts(in, "4.0"));
  CHECK_CONTAINS(why, "not a whole number");
  CHECK(!accepts(in, "9007199254740993")); /* beyond 2^53 */
}

TEST(test_booleans_take_yes_and_no_words) {
  const char *b = "{\"type\":\"boolean\"}";
  check_input(b, "y", "true");
  check_input(b, "YES", "true");
  check_input(b, "true", "true");
  check_input(b, "n", "false");
  check_input(b, "No", "false");
  check_input(b, "0", "false");
  CHECK(!accepts(b, "maybe"));
  CHECK_CONTAINS(why, "answer y or n");
}

TEST(test_single_choice_by_number_value_or_title) {
  const char *e = "{\"type\":\"string\",\"oneOf\":[{\"const\":\"hero-1\","
                  "\"title\":\"Superman\"},{\"const\":\"hero-2\",\"title\":"
                  "\"Green Lantern\"}]}";
  check_input(e, "2", "\"hero-2\"");
  check_input(e, "hero-1", "\"hero-1\"");
  check_input(e, "green lantern", "\"hero-2\"");
  CHECK(!accepts(e, "3"));
  CHECK(!accepts(e, "0"));
  CHECK(!accepts(e, "Batman"));
  CHECK_CONTAINS(why, "type its number (1-2) or value");
}

TEST(test_multi_choice_is_comma_separated_and_limited) {
  const char *m = "{\"type\":\"array\",\"items\":{\"type\":\"string\","
                  "\"enum\":[\"Guitar\",\"Piano\",\"Violin\"]},\"minItems\":1,"
                  "\"maxItems\":2}";
  check_input(m, "1, violin", "[\"Guitar\",\"Violin\"]");
  check_input(m, "Piano,2,,", "[\"Piano\"]"); /* repeats and blanks drop */
  CHECK(!accepts(m, "1,2,3"));
  CHECK_CONTAINS(why, "choose at most 2");
  CHECK(!accepts(m, ","));
  CHECK_CONTAINS(why, "choose at least 1");
  CHECK(!accepts(m, "1,Drums"));
  CHECK_CONTAINS(why, "\"Drums\" is not one of the choices");
}

/* Checks a hook's answer against the FORM schema; the normalized answer
 * as JSON text, or NULL. */
#define FORM                                                                   \
  "{\"properties\":{\"name\":{\"type\":\"string\"},\"age\":{\"type\":"         \
  "\"integer\",\"minimum\":0}},\"required\":[\"name\"]}"
static char *answer(const char *text, bool url_mode) {
  form f;
  parse(FORM, &f);
  cJSON *a = cJSON_Parse(text);
  cJSON *out = value_check_answer(url_mode ? NULL : &f, a, why, sizeof why);
  char *s = out ? cJSON_PrintUnformatted(out) : NULL;
  cJSON_Delete(out);
  cJSON_Delete(a);
  schema_free(&f);
  return s;
}

TEST(test_answers_are_checked_against_the_schema) {
  static const struct {
    const char *answer, *want, *reason;
  } cases[] = {
      {"{\"action\":\"accept\",\"content\":{\"name\":\"A\",\"age\":3}}",
       "{\"action\":\"accept\",\"content\":{\"name\":\"A\",\"age\":3}}", ""},
      {"{\"action\":\"decline\",\"content\":{\"name\":\"A\"}}",
       "{\"action\":\"decline\"}", ""},
      {"{\"action\":\"cancel\"}", "{\"action\":\"cancel\"}", ""},
      {"{\"action\":\"accept\",\"content\":{\"age\":3}}", NULL,
       "required field \"name\" is missing"},
      {"{\"action\":\"accept\",\"content\":{\"name\":\"A\",\"age\":-1}}", NULL,
       "field \"age\": -1 is below the minimum 0"},
      {"{\"action\":\"accept\",\"content\":{\"name\":\"A\",\"x\":1}}", NULL,
       "\"x\", which the schema does not ask for"},
      {"{\"action\":\"accept\",\"content\":[1]}", NULL,
       "\"content\" must be an object"},
      {"{\"action\":\"yes\"}", NULL, "\"action\" must be"},
      {"[\"accept\"]", NULL, "not a JSON object"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    why[0] = '\0';
    char *got = answer(cases[i].answer, false);
    if (cases[i].want)
      CHECK_STR(got, cases[i].want);
    else
      CHECK(got == NULL);
    CHECK_CONTAINS(why, cases[i].reason);
    free(got);
  }
}

TEST(test_url_mode_answers_carry_no_content) {
  char *got = answer("{\"action\":\"accept\",\"content\":{\"a\":1}}", true);
  CHECK_STR(got, "{\"action\":\"accept\"}");
  free(got);
}

TEST(test_text_clean_shows_controls_and_invisibles_as_escapes) {
  static const struct {
    const char *in, *want;
    bool multiline;
  } cases[] = {
      {"plain text", "plain text", false},
      {"\x1b]0;title\x07"
       "ok",
       "<U+001B>]0;title<U+0007>ok", false},
      {"a\x1b[2Jb", "a<U+001B>[2Jb", false},
      {"line1\nline2", "line1<U+000A>line2", false},
      {"line1\nline2", "line1\nline2", true},
      {"tab\there", "tab<U+0009>here", false},
      {"tab\there", "tab\there", true},
      {"c1\xc2\x9b"
       "31m",
       "c1<U+009B>31m", false}, /* U+009B CSI */
      {"rlo\xe2\x80\xae"
       "txt.exe",
       "rlo<U+202E>txt.exe", false},              /* U+202E */
      {"zw\xe2\x80\x8bsp", "zw<U+200B>sp", true}, /* zero-width space */
      {"\xef\xbb\xbf"
       "bom",
       "<U+FEFF>bom", true},                         /* BOM */
      {"tag\xf3\xa0\x81\x81", "tag<U+E0041>", true}, /* tag character */
      {"bad\xff\xfe", "bad<0xFF><0xFE>", false},
      {"overlong\xc0\xaf", "overlong<0xC0><0xAF>", false},
      {"caf\xc3\xa9 \xf0\x9f\x99\x82", "caf\xc3\xa9 \xf0\x9f\x99\x82", false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = text_clean(cases[i].in, cases[i].multiline);
    CHECK_STR(got, cases[i].want);
    free(got);
  }
}

static char *joined(const char *cmd) {
  char **argv = hook_split(cmd, why, sizeof why);
  if (!argv)
    return NULL;
  static char buf[500];
  buf[0] = '\0';
  for (char **a = argv; *a; a++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "[%s]", *a);
  hook_free_argv(argv);
  return buf;
}

TEST(test_commands_split_like_a_shell_without_expansion) {
  CHECK_STR(joined("hook --flag  value"), "[hook][--flag][value]");
  CHECK_STR(joined("'/path with/space' \"a b\" c\\ d"),
            "[/path with/space][a b][c d]");
  CHECK_STR(joined("echo $HOME '*' ~"), "[echo][$HOME][*][~]");
  CHECK_STR(joined("say \"\\\"hi\\\" \\n\""), "[say][\"hi\" \\n]");
  CHECK_STR(joined("it\\'s ''"), "[it's][]");
  CHECK(joined("a 'unclosed") == NULL);
  CHECK_CONTAINS(why, "a quote is not closed");
  CHECK(joined("   ") == NULL);
  CHECK_CONTAINS(why, "the command is empty");
}

TEST(test_hook_timeouts_are_seconds_or_milliseconds) {
  uint64_t ms = 7;
  CHECK(hook_parse_timeout("60", &ms) == 0 && ms == 60000);
  CHECK(hook_parse_timeout("2.5", &ms) == 0 && ms == 2500);
  CHECK(hook_parse_timeout("30s", &ms) == 0 && ms == 30000);
  CHECK(hook_parse_timeout("1500ms", &ms) == 0 && ms == 1500);
  ms = 7;
  CHECK(hook_parse_timeout("soon", &ms) == -1 && ms == 7);
  CHECK(hook_parse_timeout("0", &ms) == -1 && ms == 7);
  CHECK(hook_parse_timeout("-5", &ms) == -1 && ms == 7);
  CHECK(hook_parse_timeout("5m", &ms) == -1 && ms == 7);
  CHECK(hook_parse_timeout("90000", &ms) == -1 && ms == 7); /* over a day */
  CHECK(hook_parse_timeout("", &ms) == -1 && ms == 7);
}

/* url_check: 0, the host as shown and the URL rebuilt from its parts
 * (kept in `rebuilt`), or -1 and the reason. */
static char rebuilt[600];
static const char *url_host(const char *url) {
  static char shown[300];
  char *host = NULL, *full = NULL;
  why[0] = '\0';
  rebuilt[0] = '\0';
  if (url_check(url, &host, &full, why, sizeof why) != 0) {
    CHECK(host == NULL && full == NULL);
    return NULL;
  }
  snprintf(shown, sizeof shown, "%s", host);
  snprintf(rebuilt, sizeof rebuilt, "%s", full);
  free(host);
  free(full);
  return shown;
}

TEST(test_only_http_and_https_urls_with_a_host_may_be_opened) {
  CHECK_STR(url_host("https://example.com/cb?a=1&b=2"), "example.com");
  CHECK_STR(url_host("HTTP://Example.COM:8080/x"), "Example.COM");
  static const struct {
    const char *url, *reason;
  } refused[] = {
      {"javascript:alert(1)", "not \"javascript:\""},
      {"file:///etc/passwd", "not \"file:\""},
      {"data:text/html,<script>", "not \"data:\""},
      {"ssh://host", "not \"ssh:\""},
      {"example.com/x", "not an absolute URL"},
      {"https://", "the URL does not parse"},
      {"http://:80/x", "the URL does not parse"},
      {"https://exa mple.com/", "spaces or control characters"},
      {"https://example.com/\x1b[2J", "spaces or control characters"},
      {"https://example.com/\xe2\x80\xae", "cannot be shown as they are"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    CHECK(url_host(refused[i].url) == NULL);
    CHECK_CONTAINS(why, refused[i].reason);
  }
}

TEST(test_the_host_shown_is_the_one_the_url_goes_to) {
  /* Everything before '@' is a user name, not the host: the classic
   * disguise, refused. */
  CHECK(url_host("https://bank.example@evil.example/login") == NULL);
  CHECK_CONTAINS(why, "user name or password");
  /* curl reads good.example, browsers go to evil.example. */
  CHECK(url_host("http://evil.example\\@good.example/") == NULL);
  CHECK_CONTAINS(why, "backslash");
  CHECK(url_host("https://good.example\\.evil.example/") == NULL);
  CHECK(url_host("https:\\\\evil.example/") == NULL);
  CHECK(url_host("https:/evil.example/") == NULL);
  CHECK_CONTAINS(why, "not written as scheme://host/");
  CHECK(url_host("https:///evil.example/") == NULL);
  /* A host the two parsers write differently (percent-encoded). */
  CHECK(url_host("https://%65vil.example/") == NULL);
  /* A backslash in the query is data to both. */
  CHECK_STR(url_host("https://example.com/cb?path=a\\b"), "example.com");
}

TEST(test_the_url_opened_is_rebuilt_from_its_parsed_parts) {
  CHECK_STR(url_host("HTTPS://Example.COM/a/../b?q=1#f"), "Example.COM");
  CHECK_STR(rebuilt, "https://Example.COM/b?q=1#f");
  CHECK_STR(url_host("https://example.com"), "example.com");
  CHECK_STR(rebuilt, "https://example.com/");
}

/* $BROWSER entry -> its argv joined as [word][word]. */
static const char *browser_words(const char *entry, const char *url) {
  static char out[1200];
  char **argv = browser_argv(entry, url, why, sizeof why);
  out[0] = '\0';
  for (char **a = argv; a && *a; a++) {
    size_t o = strlen(out);
    snprintf(out + o, sizeof out - o, "[%s]", *a);
  }
  browser_free_argv(argv);
  return out;
}

TEST(test_a_url_handed_to_a_shell_by_browser_carries_no_shell_syntax) {
  const char *url = "https://example.com/cb?a=1&b=$(touch x)`id`;'\"|<>";
  /* In a word with other text (a shell's command line): encoded. */
  CHECK_STR(browser_words("sh -c 'firefox %s'", url),
            "[sh][-c][firefox https://example.com/cb?a=1%26b=%24%28touch"
            "%20x%29%60id%60%3B%27%22%7C%3C%3E]");
  /* The whole word, or no %s: one argument, as it is. */
  CHECK_STR(browser_words("firefox %s", "https://example.com/?a=1&b=2"),
            "[firefox][https://example.com/?a=1&b=2]");
  CHECK_STR(browser_words("firefox --new-tab", "https://example.com/?a&b"),
            "[firefox][--new-tab][https://example.com/?a&b]");
}

TEST(test_a_non_ascii_host_is_shown_in_punycode_too) {
  CHECK_STR(url_host("https://b\xc3\xbc"
                     "cher.example/"),
            "b\xc3\xbc"
            "cher.example (xn--bcher-kva.example)");
  /* Cyrillic "а" in "pаypal": the punycode gives it away. */
  CHECK_STR(url_host("https://p\xd0\xb0ypal.example/"),
            "p\xd0\xb0ypal.example (xn--pypal-4ve.example)");
  /* A zero-width joiner between Latin letters is no valid name. */
  CHECK(url_host("https://pay\xe2\x80\x8dpal.example/") == NULL);
  CHECK_CONTAINS(why, "its host is not a valid domain name");
}

int main(void) {
  static const test_case tests[] = {
      T(test_schema_reads_every_field_kind),
      T(test_schema_refusals_name_the_property_and_the_problem),
      T(test_schema_refuses_more_than_the_field_limit),
      T(test_schema_without_properties_is_an_empty_form),
      T(test_defaults_fill_every_field_that_has_one),
      T(test_defaults_name_every_required_field_without_one),
      T(test_email_format),
      T(test_uri_format),
      T(test_date_format_knows_the_calendar),
      T(test_date_time_format_is_rfc3339),
      T(test_string_length_counts_characters_not_bytes),
      T(test_typed_strings_are_trimmed),
      T(test_numbers_as_people_write_them),
      T(test_integers_are_whole_and_exact),
      T(test_booleans_take_yes_and_no_words),
      T(test_single_choice_by_number_value_or_title),
      T(test_multi_choice_is_comma_separated_and_limited),
      T(test_answers_are_checked_against_the_schema),
      T(test_url_mode_answers_carry_no_content),
      T(test_text_clean_shows_controls_and_invisibles_as_escapes),
      T(test_commands_split_like_a_shell_without_expansion),
      T(test_hook_timeouts_are_seconds_or_milliseconds),
      T(test_only_http_and_https_urls_with_a_host_may_be_opened),
      T(test_the_url_opened_is_rebuilt_from_its_parsed_parts),
      T(test_a_url_handed_to_a_shell_by_browser_carries_no_shell_syntax),
      T(test_the_host_shown_is_the_one_the_url_goes_to),
      T(test_a_non_ascii_host_is_shown_in_punycode_too),
  };
  return run_tests(tests, sizeof tests / sizeof *tests);
}
