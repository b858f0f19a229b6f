/* Tool permission rules: deny > ask > allow, defaults, and no lower scope
 * loosening a higher one. */
#include <stdlib.h>

#include "check.h"
#include "config/config.h"
#include "config/permissions.h"
#include "util.h"

/* Builds rules from "SCOPE:JSON" strings, e.g.
 * "user:{\"allow\": [\"mcp__a__*\"]}". */
static perm_rules *rules(const char *const *specs, size_t n) {
  perm_rules *r = perm_rules_new();
  config c;
  config_init(&c);
  for (size_t i = 0; i < n; i++) {
    const char *colon = strchr(specs[i], ':');
    config_scope scope = SCOPE_USER;
    for (int s = SCOPE_ENTERPRISE; s <= SCOPE_PLUGIN; s++)
      if (strncmp(specs[i], config_scope_name((config_scope)s),
                  (size_t)(colon - specs[i])) == 0)
        scope = (config_scope)s;
    cJSON *j = cJSON_Parse(colon + 1);
    perm_rules_load(r, &c, j, scope, "test.json", "permissions");
    cJSON_Delete(j);
  }
  CHECK(c.nerrors == 0);
  config_free(&c);
  return r;
}

typedef struct perm_case {
  const char *name;
  const char *specs[4];
  const char *tool;
  perm_kind want;
} perm_case;

static const perm_case cases[] = {
    {"no rules: allowed", {NULL}, "mcp__a__x", PERM_ALLOW},
    {"deny beats ask and allow",
     {"user:{\"allow\": [\"mcp__a__x\"], \"ask\": [\"mcp__a__x\"], \"deny\": "
      "[\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_DENY},
    {"ask beats allow",
     {"user:{\"allow\": [\"mcp__a__x\"], \"ask\": [\"mcp__a__*\"]}"},
     "mcp__a__x",
     PERM_ASK},
    {"a server wildcard",
     {"user:{\"deny\": [\"mcp__a__*\"]}"},
     "mcp__a__y",
     PERM_DENY},
    {"a bare server name covers its tools",
     {"user:{\"deny\": [\"mcp__a\"]}"},
     "mcp__a__y",
     PERM_DENY},
    {"a bare server name is not a prefix of another server",
     {"user:{\"deny\": [\"mcp__a\"]}"},
     "mcp__ab__y",
     PERM_ALLOW},
    {"mcp__* covers every tool",
     {"user:{\"ask\": [\"mcp__*\"]}"},
     "mcp__q__z",
     PERM_ASK},
    {"an exact rule does not match another tool",
     {"user:{\"deny\": [\"mcp__a__x\"]}"},
     "mcp__a__xy",
     PERM_ALLOW},
    {"rules are matched in normalized form",
     {"user:{\"deny\": [\"mcp__my.demo__echo\"]}"},
     "mcp__my_demo__echo",
     PERM_DENY},
    {"default ask with an allow rule of the same scope",
     {"user:{\"default\": \"ask\", \"allow\": [\"mcp__a__*\"]}"},
     "mcp__a__x",
     PERM_ALLOW},
    {"default ask without a matching allow",
     {"user:{\"default\": \"ask\"}"},
     "mcp__a__x",
     PERM_ASK},
    {"default deny", {"local:{\"default\": \"deny\"}"}, "mcp__a__x", PERM_DENY},
    {"enterprise deny cannot be loosened by a user allow",
     {"enterprise:{\"deny\": [\"mcp__a__*\"]}",
      "user:{\"allow\": [\"mcp__a__x\"]}",
      "local:{\"allow\": [\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_DENY},
    {"enterprise ask cannot be loosened by a local allow",
     {"enterprise:{\"ask\": [\"mcp__a__x\"]}",
      "local:{\"allow\": [\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_ASK},
    {"enterprise default ask cannot be loosened by a user allow",
     {"enterprise:{\"default\": \"ask\"}", "user:{\"allow\": [\"mcp__*\"]}",
      "user:{\"default\": \"allow\"}"},
     "mcp__a__x",
     PERM_ASK},
    {"enterprise default ask yields to an enterprise allow",
     {"enterprise:{\"default\": \"ask\", \"allow\": [\"mcp__a__*\"]}"},
     "mcp__a__x",
     PERM_ALLOW},
    {"a lower scope may tighten an enterprise allow",
     {"enterprise:{\"allow\": [\"mcp__a__x\"]}",
      "user:{\"deny\": [\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_DENY},
    {"local outranks user for loosening its default",
     {"user:{\"default\": \"ask\"}", "local:{\"allow\": [\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_ALLOW},
    {"user does not loosen a local default",
     {"local:{\"default\": \"deny\"}", "user:{\"allow\": [\"mcp__a__x\"]}"},
     "mcp__a__x",
     PERM_DENY},
    {"the strictest default holds",
     {"enterprise:{\"default\": \"ask\"}", "user:{\"default\": \"deny\"}"},
     "mcp__a__x",
     PERM_DENY},
};

TEST(test_permission_table) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const perm_case *k = &cases[i];
    size_t n = 0;
    while (n < 4 && k->specs[n])
      n++;
    perm_rules *r = rules(k->specs, n);
    perm_verdict v = perm_decide(r, k->tool, NULL);
    int before = check_failures;
    CHECK_STR(perm_kind_name(v.kind), perm_kind_name(k->want));
    printf("  %s %s\n", check_failures == before ? "ok  " : "FAIL", k->name);
    perm_rules_free(r);
  }
}

static server_config server(config_scope scope, server_state state) {
  server_config s = {.name = "p",
                     .type = "stdio",
                     .source = "test.json",
                     .scope = scope,
                     .state = state};
  return s;
}

TEST(test_project_rules_govern_only_the_servers_of_their_own_file) {
  perm_rules *r = perm_rules_new();
  config c;
  config_init(&c);
  cJSON *parent = cJSON_Parse("{\"allow\": [\"mcp__*\"]}");
  cJSON *repo = cJSON_Parse("{\"default\": \"ask\"}");
  perm_rules_load(r, &c, parent, SCOPE_PROJECT, "/up/.mcp.json", "permissions");
  perm_rules_load(r, &c, repo, SCOPE_PROJECT, "/up/repo/.mcp.json",
                  "permissions");
  server_config mine = server(SCOPE_PROJECT, SERVER_ACTIVE);
  mine.source = "/up/repo/.mcp.json";
  server_config theirs = server(SCOPE_PROJECT, SERVER_ACTIVE);
  theirs.source = "/up/.mcp.json";
  /* The parent's allow neither reaches the repository's server nor
   * overrides the repository's own default. */
  perm_verdict v = perm_decide(r, "mcp__p__x", &mine);
  CHECK(v.kind == PERM_ASK);
  CHECK(v.rule == NULL);
  /* Its own server it governs, and the repository's default does not
   * reach it. */
  CHECK(perm_decide(r, "mcp__p__x", &theirs).kind == PERM_ALLOW);
  /* A pending server is governed by no project rule at all. */
  theirs.state = SERVER_PENDING;
  CHECK(perm_decide(r, "mcp__p__x", &theirs).rule == NULL);
  cJSON_Delete(parent);
  cJSON_Delete(repo);
  config_free(&c);
  perm_rules_free(r);
}

TEST(test_project_rules_govern_only_its_approved_servers) {
  const char *specs[] = {"user:{\"default\": \"ask\"}",
                         "project:{\"allow\": [\"mcp__*\"], \"deny\": "
                         "[\"mcp__u__x\"]}"};
  perm_rules *r = rules(specs, 2);
  server_config approved = server(SCOPE_PROJECT, SERVER_ACTIVE);
  server_config user = server(SCOPE_USER, SERVER_ACTIVE);
  CHECK(perm_decide(r, "mcp__p__x", &approved).kind == PERM_ALLOW);
  /* The project's allow does not reach a user server... */
  CHECK(perm_decide(r, "mcp__u__y", &user).kind == PERM_ASK);
  /* ...nor does its deny. */
  CHECK(perm_decide(r, "mcp__u__x", &user).kind == PERM_ASK);
  perm_rules_free(r);
}

TEST(test_verdict_names_the_rule_and_where_it_is) {
  const char *specs[] = {"enterprise:{\"deny\": [\"mcp__fs__*\"]}"};
  perm_rules *r = rules(specs, 1);
  perm_verdict v = perm_decide(r, "mcp__fs__write", NULL);
  char *d = perm_describe(&v);
  CHECK_STR(d, "deny rule \"mcp__fs__*\" (enterprise settings test.json: "
               "permissions.deny[0])");
  free(d);
  perm_rules_free(r);
}

TEST(test_bad_rules_are_errors_that_cost_only_themselves) {
  perm_rules *r = perm_rules_new();
  config c;
  config_init(&c);
  cJSON *j = cJSON_Parse("{\"allow\": \"mcp__x\", \"deny\": [\"mcp__a\", 3], "
                         "\"default\": \"maybe\"}");
  perm_rules_load(r, &c, j, SCOPE_USER, "u.json", "permissions");
  CHECK(r->n == 1);
  CHECK(c.nerrors == 3);
  CHECK_CONTAINS(c.nerrors > 0 ? c.errors[0] : NULL, "(at permissions.allow)");
  CHECK_CONTAINS(c.nerrors > 1 ? c.errors[1] : NULL,
                 "(at permissions.deny[1])");
  CHECK_CONTAINS(c.nerrors > 2 ? c.errors[2] : NULL,
                 "(at permissions.default)");
  cJSON_Delete(j);
  config_free(&c);
  perm_rules_free(r);
}

RUN(T(test_permission_table),
    T(test_project_rules_govern_only_its_approved_servers),
    T(test_project_rules_govern_only_the_servers_of_their_own_file),
    T(test_verdict_names_the_rule_and_where_it_is),
    T(test_bad_rules_are_errors_that_cost_only_themselves))
