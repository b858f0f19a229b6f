/* Which project files are trusted (config_trust.h): the owner and mode of
 * the file and its directory, and symbolic links that leave the tree.
 * Files owned by another user are made with chown, so those checks need
 * root (the tests run as root); without it they are skipped, saying so. */
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "config/config_trust.h"
#include "util.h"

static char root[PATH_MAX];

static char *at(const char *rel) {
  return xasprintf("%s/%s", root, rel);
}

static void put(const char *rel, mode_t mode) {
  char *p = at(rel);
  FILE *f = fopen(p, "w");
  fputs("{}", f);
  fclose(f);
  chmod(p, mode);
  free(p);
}

static int trust(const char *rel, const char *tree_rel, char *why, size_t len) {
  char *p = at(rel), *t = at(tree_rel);
  int rc = trust_project_file(p, t, why, len);
  free(p);
  free(t);
  return rc;
}

static void setup(void) {
  snprintf(root, sizeof root, "/tmp/mcphost-trust.XXXXXX");
  if (!mkdtemp(root))
    abort();
  char *real = realpath(root, NULL);
  snprintf(root, sizeof root, "%s", real);
  free(real);
  static const char *const dirs[] = {"repo", "sticky", "open", "theirs"};
  for (size_t i = 0; i < 4; i++) {
    char *d = at(dirs[i]);
    mkdir(d, 0755);
    free(d);
  }
  char *d = at("sticky");
  chmod(d, 01777);
  free(d);
  d = at("open");
  chmod(d, 0777);
  free(d);
}

static void teardown(void) {
  char *cmd = xasprintf("rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
}

TEST(test_the_users_own_file_is_trusted) {
  char why[1024] = "";
  put("repo/.mcp.json", 0644);
  CHECK(trust("repo/.mcp.json", "repo", why, sizeof why) == 0);
  CHECK(trust("repo/none.json", "repo", why, sizeof why) == 1);
}

TEST(test_a_file_others_can_write_is_refused) {
  char why[1024] = "";
  put("repo/ww.json", 0646);
  CHECK(trust("repo/ww.json", "repo", why, sizeof why) < 0);
  CHECK_CONTAINS(why, "ww.json: skipped: writable by its group or by others "
                      "(mode 0646)");
  if (geteuid() == 0) {
    /* Group write for a group of others (nogroup here). */
    put("repo/gw.json", 0664);
    char *p = at("repo/gw.json");
    CHECK(chown(p, (uid_t)-1, 65534) == 0);
    CHECK(trust("repo/gw.json", "repo", why, sizeof why) < 0);
    CHECK_CONTAINS(why, "gw.json: skipped: writable by its group or by "
                        "others (mode 0664)");
    free(p);
  }
  put("open/.mcp.json", 0644);
  CHECK(trust("open/.mcp.json", "open", why, sizeof why) < 0);
  CHECK_CONTAINS(why, "is writable by its group or by others (mode 0777)");
  put("sticky/.mcp.json", 0644);
  CHECK(trust("sticky/.mcp.json", "sticky", why, sizeof why) == 0);
}

TEST(test_group_write_for_the_users_private_group_is_the_users_own) {
  const struct passwd *pw = getpwuid(geteuid());
  const struct group *gr = pw ? getgrgid(pw->pw_gid) : NULL;
  if (!gr || strcmp(gr->gr_name, pw->pw_name) != 0 || gr->gr_mem[0]) {
    printf("  skip: the user has no private group here\n");
    return;
  }
  char why[1024] = "";
  put("repo/upg.json", 0664);
  char *p = at("repo/upg.json");
  CHECK(chown(p, (uid_t)-1, pw->pw_gid) == 0);
  CHECK(trust("repo/upg.json", "repo", why, sizeof why) == 0);
  free(p);
}

TEST(test_other_users_files_and_directories_are_refused) {
  if (geteuid() != 0) {
    printf("  skip: needs root to chown files to another user\n");
    return;
  }
  char why[1024] = "";
  put("repo/other.json", 0644);
  char *p = at("repo/other.json");
  CHECK(chown(p, 65534, 65534) == 0);
  CHECK(trust("repo/other.json", "repo", why, sizeof why) < 0);
  CHECK_CONTAINS(why, "other.json: skipped: owned by uid 65534");
  free(p);
  /* In a sticky directory only the user's own file is safe. */
  put("sticky/theirs.json", 0644);
  p = at("sticky/theirs.json");
  CHECK(chown(p, 65534, 65534) == 0);
  CHECK(trust("sticky/theirs.json", "sticky", why, sizeof why) < 0);
  free(p);
  put("theirs/.mcp.json", 0644);
  p = at("theirs");
  CHECK(chown(p, 65534, 65534) == 0);
  CHECK(trust("theirs/.mcp.json", "theirs", why, sizeof why) < 0);
  CHECK_CONTAINS(why, "its directory");
  CHECK_CONTAINS(why, "is owned by uid 65534");
  free(p);
}

TEST(test_a_link_out_of_the_project_tree_is_refused) {
  char why[1024] = "";
  put("settings.json", 0600);
  char *target = at("settings.json"), *link = at("repo/out.json");
  CHECK(symlink(target, link) == 0);
  CHECK(trust("repo/out.json", "repo", why, sizeof why) < 0);
  CHECK_CONTAINS(why, "a symbolic link to ");
  CHECK_CONTAINS(why, "outside the project tree");
  char *tree = at("repo");
  CHECK(trust_project_link(link, tree, why, sizeof why) < 0);
  free(link);
  link = at("repo/in.json");
  CHECK(symlink(".mcp.json", link) == 0);
  CHECK(trust("repo/in.json", "repo", why, sizeof why) == 0);
  CHECK(trust_project_link(link, tree, why, sizeof why) == 0);
  free(tree);
  free(link);
  free(target);
}

TEST(test_path_within) {
  CHECK(trust_path_within("/a/b", "/a"));
  CHECK(trust_path_within("/a", "/a"));
  CHECK(!trust_path_within("/ab", "/a"));
  CHECK(trust_path_within("/x", "/"));
}

int main(void) {
  static const test_case tests[] = {
      T(test_the_users_own_file_is_trusted),
      T(test_a_file_others_can_write_is_refused),
      T(test_group_write_for_the_users_private_group_is_the_users_own),
      T(test_other_users_files_and_directories_are_refused),
      T(test_a_link_out_of_the_project_tree_is_refused), T(test_path_within)};
  setup();
  int rc = run_tests(tests, sizeof tests / sizeof tests[0]);
  teardown();
  return rc;
}
