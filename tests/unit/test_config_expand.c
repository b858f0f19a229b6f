/* ${VAR} and ${VAR:-default} expansion, as Claude Code does it. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config/config.h"
#include "config/config_expand.h"
#include "util.h"

static const char *lookup(void *ud, const char *name) {
  (void)ud;
  if (strcmp(name, "HOME_DIR") == 0)
    return "/home/ada";
  if (strcmp(name, "EMPTY") == 0)
    return "";
  if (strcmp(name, "PORT") == 0)
    return "8080";
  return NULL;
}

typedef struct missing {
  char names[256];
} missing;

static void on_missing(void *ud, const char *name) {
  missing *m = ud;
  size_t n = strlen(m->names);
  snprintf(m->names + n, sizeof m->names - n, "%s%s", n ? "," : "", name);
}

typedef struct expand_case {
  const char *in, *want, *missing;
} expand_case;

static const expand_case cases[] = {
    /* set */
    {"${HOME_DIR}", "/home/ada", ""},
    /* unset, no default: stays as written and is reported */
    {"${NOPE}", "${NOPE}", "NOPE"},
    /* unset with a default */
    {"${NOPE:-fallback}", "fallback", ""},
    /* set wins over the default */
    {"${PORT:-1}", "8080", ""},
    /* set but empty is used as is (not the default), as in Claude Code */
    {"[${EMPTY:-x}]", "[]", ""},
    /* an empty default */
    {"[${NOPE:-}]", "[]", ""},
    /* nested in text, several per string */
    {"http://localhost:${PORT}/${NOPE:-mcp}?u=${HOME_DIR}",
     "http://localhost:8080/mcp?u=/home/ada", ""},
    /* a default holding a variable */
    {"${NOPE:-${HOME_DIR}/x}", "/home/ada/x", ""},
    {"${NOPE:-${ALSO_NOPE}}", "${ALSO_NOPE}", "ALSO_NOPE"},
    /* what is not a reference stays */
    {"$HOME_DIR and $ and ${ and ${} and ${1X} and ${A B}",
     "$HOME_DIR and $ and ${ and ${} and ${1X} and ${A B}", ""},
    {"${HOME_DIR", "${HOME_DIR", ""},
    {"${NOPE:-unterminated", "${NOPE:-unterminated", ""},
    {"", "", ""},
    {"$${HOME_DIR}", "$/home/ada", ""},
    /* no variable: always the default, so "${:-$}" is a "$" that opens
     * nothing (Claude Code reads both the same) */
    {"${:-$}{HOME_DIR}", "${HOME_DIR}", ""},
    {"$${:-$}{HOME_DIR}", "$${HOME_DIR}", ""},
    {"${:-$}{:-$}", "${:-$}", ""},
    {"${:-a}${:-}b", "ab", ""},
    {"${NOPE:-${:-$}{HOME_DIR}}", "${HOME_DIR}", ""},
    {"${:}", "${:}", ""},
};

TEST(test_expansion_table) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    missing m = {{0}};
    char *out = expand_vars(cases[i].in, lookup, NULL, on_missing, &m);
    int before = check_failures;
    CHECK_STR(out, cases[i].want);
    CHECK_STR(m.names, cases[i].missing);
    if (check_failures != before)
      fprintf(stderr, "  for input \"%s\"\n", cases[i].in);
    free(out);
  }
}

TEST(test_quoted_text_expands_to_itself) {
  static const char *const texts[] = {
      "Authorization:${AUTH_HEADER}", "$${HOME_DIR}", "${:-$}", "a$", "$",
      "${HOME_DIR:-${PORT}}x${",      "{${}}",        "plain",  ""};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    char *q = expand_quote(texts[i]);
    missing m = {{0}};
    char *out = expand_vars(q, lookup, NULL, on_missing, &m);
    CHECK_STR(out, texts[i]);
    CHECK_STR(m.names, "");
    free(out);
    free(q);
  }
}

TEST(test_expansion_covers_command_args_env_url_and_headers) {
  setenv("MCPHOST_T_TOKEN", "s3cret", 1);
  unsetenv("MCPHOST_T_UNSET");
  cJSON *e = cJSON_Parse(
      "{\"command\": \"${MCPHOST_T_TOKEN}\", \"args\": [\"a\", "
      "\"--t=${MCPHOST_T_TOKEN}\"], \"env\": {\"K\": \"${MCPHOST_T_TOKEN}\"}, "
      "\"url\": \"https://x/${MCPHOST_T_TOKEN}\", \"headers\": "
      "{\"Authorization\": \"Bearer ${MCPHOST_T_UNSET}\"}, \"cwd\": "
      "\"${MCPHOST_T_TOKEN}\"}");
  config c;
  config_init(&c);
  config_expand_entry(&c, "f.json", "mcpServers.s", "s", e, NULL);
  CHECK_STR(cJSON_GetObjectItem(e, "command")->valuestring, "s3cret");
  CHECK_STR(cJSON_GetArrayItem(cJSON_GetObjectItem(e, "args"), 1)->valuestring,
            "--t=s3cret");
  CHECK_STR(
      cJSON_GetObjectItem(cJSON_GetObjectItem(e, "env"), "K")->valuestring,
      "s3cret");
  CHECK_STR(cJSON_GetObjectItem(e, "url")->valuestring, "https://x/s3cret");
  /* Not one of the expanded fields. */
  CHECK_STR(cJSON_GetObjectItem(e, "cwd")->valuestring, "${MCPHOST_T_TOKEN}");
  CHECK(c.nwarnings == 1);
  CHECK_STR(c.nwarnings ? c.warnings[0] : NULL,
            "f.json: server \"s\": ${MCPHOST_T_UNSET} is not set and has no "
            "default; left as written (at mcpServers.s.headers.Authorization)");
  CHECK_STR(
      cJSON_GetObjectItem(cJSON_GetObjectItem(e, "headers"), "Authorization")
          ->valuestring,
      "Bearer ${MCPHOST_T_UNSET}");
  cJSON_Delete(e);
  config_free(&c);
  unsetenv("MCPHOST_T_TOKEN");
}

TEST(test_a_deeply_nested_default_does_not_exhaust_the_stack) {
  strbuf b;
  sb_init(&b);
  for (int i = 0; i < 10000; i++)
    sb_adds(&b, "${NOPE:-");
  sb_adds(&b, "x");
  for (int i = 0; i < 10000; i++)
    sb_addc(&b, '}');
  char *out = expand_vars(sb_str(&b), lookup, NULL, NULL, NULL);
  CHECK(out != NULL && strlen(out) > 0);
  free(out);
  sb_free(&b);
}

static bool only_mcp(void *ud, const char *var) {
  (void)ud;
  return strncmp(var, "MCP_", 4) == 0;
}

/* A URL of a project or plugin server: the environment never sets its
 * scheme or host. */
TEST(test_a_guarded_url_never_takes_its_scheme_or_host_from_the_environment) {
  setenv("MCPT_HOST", "evil.example", 1);
  setenv("MCPT_PORT", "8080", 1);
  setenv("MCPT_AT", "1@evil.example", 1);
  setenv("MCPT_BS", "1\\@evil.example", 1);
  setenv("MCPT_SCHEME", "https", 1);
  unsetenv("MCPT_UNSET");
  static const struct {
    const char *url, *want; /* want NULL: refused */
  } urls[] = {
      {"http://localhost:${MCPT_PORT}/mcp", "http://localhost:8080/mcp"},
      {"http://localhost:${MCPT_UNSET:-9}/mcp", "http://localhost:9/mcp"},
      {"https://good.example/${MCPT_HOST}?q=${MCPT_AT}",
       "https://good.example/evil.example?q=1@evil.example"},
      {"http://${MCPT_HOST}/mcp", NULL},
      {"http://${MCPT_UNSET:-good.example}/mcp", "http://good.example/mcp"},
      {"http://${MCPT_HOST:-good.example}/mcp", NULL},
      {"${MCPT_SCHEME}://good.example/", NULL},
      {"${MCPT_URL_UNSET}", NULL},
      {"http://localhost:${MCPT_AT}/mcp", NULL},
      {"http://localhost:${MCPT_BS}/mcp", NULL},
      {"http://u:${MCPT_AT}@good.example/", NULL},
  };
  expand_rules rules = {.guard_url = true};
  for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "url", urls[i].url);
    config c;
    config_init(&c);
    int rc = config_expand_entry(&c, "p.json", "mcpServers.s", "s", e, &rules);
    int before = check_failures;
    if (urls[i].want) {
      CHECK(rc == 0);
      CHECK_STR(cJSON_GetObjectItem(e, "url")->valuestring, urls[i].want);
    } else {
      CHECK(rc < 0);
      CHECK_CONTAINS(c.nerrors ? c.errors[0] : NULL,
                     "would set the scheme or host of \"url\"");
    }
    if (check_failures != before)
      fprintf(stderr, "  for \"%s\"\n", urls[i].url);
    cJSON_Delete(e);
    config_free(&c);
  }
  /* The user's own scopes are not guarded. */
  cJSON *e = cJSON_Parse("{\"url\": \"http://${MCPT_HOST}/mcp\"}");
  config c;
  config_init(&c);
  CHECK(config_expand_entry(&c, "u.json", "mcpServers.s", "s", e, NULL) == 0);
  CHECK_STR(cJSON_GetObjectItem(e, "url")->valuestring,
            "http://evil.example/mcp");
  cJSON_Delete(e);
  config_free(&c);
}

TEST(test_allowed_env_vars_withholds_the_others_as_if_unset) {
  setenv("MCP_OK", "yes", 1);
  setenv("MCPT_SECRET", "s3cret", 1);
  cJSON *e = cJSON_Parse(
      "{\"command\": \"x\", \"args\": [\"${MCP_OK}\", \"${MCPT_SECRET}\", "
      "\"${MCPT_SECRET:-fallback}\"], \"env\": {\"T\": \"${MCPT_SECRET}\"}}");
  expand_rules rules = {.allowed = only_mcp,
                        .allowed_origin = "u.json: allowedEnvVars"};
  config c;
  config_init(&c);
  CHECK(config_expand_entry(&c, "p.json", "mcpServers.s", "s", e, &rules) == 0);
  const cJSON *args = cJSON_GetObjectItem(e, "args");
  CHECK_STR(cJSON_GetArrayItem(args, 0)->valuestring, "yes");
  CHECK_STR(cJSON_GetArrayItem(args, 1)->valuestring, "${MCPT_SECRET}");
  CHECK_STR(cJSON_GetArrayItem(args, 2)->valuestring, "fallback");
  CHECK_STR(
      cJSON_GetObjectItem(cJSON_GetObjectItem(e, "env"), "T")->valuestring,
      "${MCPT_SECRET}");
  CHECK(c.nwarnings == 3);
  CHECK_STR(c.nwarnings ? c.warnings[0] : NULL,
            "p.json: server \"s\": ${MCPT_SECRET} not expanded: not in "
            "allowedEnvVars (u.json: allowedEnvVars) (at "
            "mcpServers.s.args[1])");
  cJSON_Delete(e);
  config_free(&c);
}

RUN(T(test_expansion_table), T(test_quoted_text_expands_to_itself),
    T(test_a_guarded_url_never_takes_its_scheme_or_host_from_the_environment),
    T(test_allowed_env_vars_withholds_the_others_as_if_unset),
    T(test_expansion_covers_command_args_env_url_and_headers),
    T(test_a_deeply_nested_default_does_not_exhaust_the_stack))
