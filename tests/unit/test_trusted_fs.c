/* The trust check for directories and files (common/trusted_fs.h), on a
 * real tree under $TMPDIR. The checks of another user's files need root
 * (to give them to nobody) and are skipped, said so, without it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trusted_fs.h"

static int failures;
static char root[PATH_MAX];
static char why[PATH_MAX + 256];

#define CHECK(cond, name)                                                      \
  do {                                                                         \
    if (cond) {                                                                \
      printf("ok   %s\n", name);                                               \
    } else {                                                                   \
      printf("FAIL %s (why: %s)\n", name, why);                                \
      failures++;                                                              \
    }                                                                          \
  } while (0)

static const char *at(const char *rel) {
  static char buf[4][PATH_MAX + 64];
  static int i;
  i = (i + 1) % 4;
  snprintf(buf[i], sizeof buf[i], "%s/%s", root, rel);
  return buf[i];
}

static void mkdir_mode(const char *rel, mode_t mode) {
  mkdir(at(rel), 0700);
  chmod(at(rel), mode);
}

static bool opens(const char *path, unsigned flags) {
  why[0] = '\0';
  int fd = trusted_fs_open_dir(path, flags, why, sizeof why);
  if (fd >= 0) {
    close(fd);
  }
  return fd >= 0;
}

static bool has(const char *text) {
  return strstr(why, text) != NULL;
}

static void test_trusted_fs_refuses_a_relative_path(void) {
  CHECK(!opens("relative/dir", 0) && has("not an absolute path"),
        "a relative path is refused");
}

static void test_trusted_fs_creates_missing_directories_0700(void) {
  CHECK(opens(at("made/a/b"), TRUSTED_FS_CREATE), "missing directories made");
  struct stat st;
  CHECK(stat(at("made/a"), &st) == 0 && (st.st_mode & 0777) == 0700,
        "a directory made is 0700");
  CHECK(!opens(at("absent"), 0) && errno == ENOENT,
        "without CREATE a missing directory is ENOENT");
}

static void test_trusted_fs_refuses_writable_directories(void) {
  mkdir_mode("open", 0777);
  CHECK(!opens(at("open"), 0) && has("writable by everyone"),
        "a world-writable last directory is refused");
  mkdir_mode("grp", 0770);
  CHECK(!opens(at("grp"), 0) && has("writable by its group"),
        "a group-writable last directory is refused");
  mkdir_mode("open/below", 0700);
  CHECK(!opens(at("open/below"), 0) && has("open is writable by everyone"),
        "a directory below a world-writable one is refused");
  mkdir_mode("sticky", 01777);
  mkdir_mode("sticky/mine", 0700);
  /* The sticky directory is made by the user running the test: root's
   * only when that is root (as /tmp is). */
  if (geteuid() == 0) {
    CHECK(opens(at("sticky/mine"), 0),
          "a directory below a sticky one of root's is used");
  } else {
    printf("skip a directory below a sticky one of root's: not root\n");
    CHECK(!opens(at("sticky/mine"), 0) && has("writable by everyone"),
          "a directory below a sticky one of another user's is refused");
  }
  CHECK(!opens(at("sticky"), 0), "a sticky directory itself is refused");
  mkdir_mode("readable", 0755);
  CHECK(opens(at("readable"), 0), "a directory others may read is used");
  CHECK(!opens(at("readable"), TRUSTED_FS_PRIVATE) && has("must be 0700"),
        "a private directory must be 0700");
}

static void test_trusted_fs_follows_our_links_and_dots(void) {
  mkdir_mode("real", 0700);
  mkdir_mode("real/inner", 0700);
  symlink("real", at("rel-link"));
  symlink(at("real"), at("abs-link"));
  CHECK(opens(at("rel-link/inner"), 0), "a relative link of ours is followed");
  CHECK(opens(at("abs-link/inner"), 0), "an absolute link of ours is followed");
  CHECK(opens(at("real/inner/../inner/./"), 0), "dots are walked");
  symlink("open", at("to-open"));
  CHECK(!opens(at("to-open"), 0) && has("open is writable by everyone"),
        "a link to a refused directory is refused");
  symlink("loop-b", at("loop-a"));
  symlink("loop-a", at("loop-b"));
  CHECK(!opens(at("loop-a"), 0) && has("too many links"), "a link loop ends");
  CHECK(opens(at("made/x/y"), TRUSTED_FS_CREATE) &&
            opens(at("abs-link/new/deeper"), TRUSTED_FS_CREATE),
        "directories are made through a link");
}

static void test_trusted_fs_files(void) {
  int dfd = trusted_fs_open_dir(at("real"), 0, why, sizeof why);
  int fd = trusted_fs_open_file(dfd, at("real"), "log",
                                O_WRONLY | O_CREAT | O_APPEND, 0600, why,
                                sizeof why);
  struct stat st;
  CHECK(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0600,
        "a file is created 0600");
  if (fd >= 0) {
    close(fd);
  }
  chmod(at("real/log"), 0644);
  fd = trusted_fs_open_file(dfd, at("real"), "log", O_WRONLY | O_APPEND, 0600,
                            why, sizeof why);
  CHECK(fd >= 0 && fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0600,
        "a 0644 file opened for writing becomes 0600");
  if (fd >= 0) {
    close(fd);
  }
  symlink(at("real/log"), at("real/link"));
  fd = trusted_fs_open_file(dfd, at("real"), "link", O_WRONLY | O_APPEND, 0600,
                            why, sizeof why);
  CHECK(fd < 0 && has("is a symbolic link"), "a link is not followed");
  chmod(at("real/log"), 0664);
  fd = trusted_fs_open_file(dfd, at("real"), "log", O_RDONLY, 0, why,
                            sizeof why);
  CHECK(fd < 0 && has("writable by its group"),
        "a group-writable file is refused for reading code");
  chmod(at("real/log"), 0644);
  fd = trusted_fs_open_code(dfd, at("real"), "link", why, sizeof why);
  CHECK(fd >= 0, "a link of ours to a trusted file is followed for code");
  if (fd >= 0) {
    close(fd);
  }
  bool linked = false;
  fd = trusted_fs_open_code_stat(dfd, at("real"), "link", NULL, &st, &linked,
                                 why, sizeof why);
  CHECK(fd >= 0 && linked && S_ISREG(st.st_mode) && st.st_size == 0,
        "open_code_stat says a link was followed, with the file's status");
  if (fd >= 0) {
    close(fd);
  }
  /* The status alone, judged as the open for code judges it. */
  why[0] = '\0';
  CHECK(trusted_fs_code_there(dfd, "log", NULL) == 0,
        "a trusted file is there");
  CHECK(trusted_fs_code_there(dfd, "link", NULL) == -1 && errno == ELOOP,
        "a link is left to the open, which follows and checks it");
  CHECK(trusted_fs_code_there(dfd, "none", NULL) == -1 && errno == ENOENT,
        "a missing file is not there");
  chmod(at("real/log"), 0664);
  CHECK(trusted_fs_code_there(dfd, "log", NULL) == -1 && errno == EPERM,
        "a group-writable file is not trusted without an open either");
  chmod(at("real/log"), 0644);
  /* A directory beside a walked one: one step up, checked as the last. */
  mkdir_mode("real-side", 0755);
  int side = trusted_fs_open_beside(dfd, "real-side", NULL);
  CHECK(side >= 0 && trusted_fs_code_there(side, "none", NULL) == -1 &&
            errno == ENOENT,
        "the directory beside is opened, for the files in it");
  if (side >= 0) {
    close(side);
  }
  chmod(at("real-side"), 0777);
  CHECK(trusted_fs_open_beside(dfd, "real-side", NULL) == -1 && errno == EPERM,
        "a world-writable directory beside is refused");
  symlink("real-side", at("side-link"));
  CHECK(trusted_fs_open_beside(dfd, "side-link", NULL) == -1 &&
            (errno == ELOOP || errno == ENOTDIR),
        "a link beside is not followed (the walk is the way for it)");
  CHECK(trusted_fs_open_beside(dfd, "../real", NULL) == -1 && errno == EINVAL,
        "a path is not a name");
  mkdir(at("real/sub"), 0700);
  fd = trusted_fs_open_file(dfd, at("real"), "sub", O_RDONLY, 0, why,
                            sizeof why);
  CHECK(fd < 0 && has("not a regular file"), "a directory is not a file");
  fd = trusted_fs_open_file(dfd, at("real"), "../x", O_RDONLY, 0, why,
                            sizeof why);
  CHECK(fd < 0 && has("not a file name"), "a path is not a file name");
  close(dfd);
}

static void test_trusted_fs_refuses_another_users(void) {
  if (geteuid() != 0) {
    printf("skip another user's files: not root\n");
    return;
  }
  mkdir_mode("theirs", 0755);
  mkdir_mode("theirs/below", 0700);
  if (chown(at("theirs"), 65534, 65534) != 0) {
    printf("skip another user's files: chown failed\n");
    return;
  }
  CHECK(!opens(at("theirs"), 0) && has("owned by uid 65534"),
        "another user's directory is refused");
  CHECK(!opens(at("theirs/below"), 0) && has("theirs is owned by uid 65534"),
        "a directory of ours below another user's is refused, naming theirs");
  symlink("real", at("their-link"));
  lchown(at("their-link"), 65534, 65534);
  CHECK(!opens(at("their-link"), 0) && has("a link made by uid 65534"),
        "another user's link is not followed");
  int dfd = trusted_fs_open_dir(at("real"), 0, why, sizeof why);
  close(open(at("real/their-file"), O_CREAT | O_WRONLY, 0644));
  chown(at("real/their-file"), 65534, 65534);
  int fd = trusted_fs_open_file(dfd, at("real"), "their-file", O_RDONLY, 0, why,
                                sizeof why);
  CHECK(fd < 0 && has("owned by uid 65534"), "another user's file is refused");
  close(dfd);
}

static const char *file_name(const char *text) {
  static char buf[4][128];
  static int i;
  i = (i + 1) % 4;
  trusted_fs_file_name(text, buf[i], sizeof buf[i] - 8);
  return buf[i];
}

/* The one ownership rule, on stat data alone. */
static void test_trusted_fs_one_rule_for_owner_and_writers(void) {
  why[0] = '\0';
  uid_t me = geteuid(), other = me == 4242 ? 4243 : 4242;
  /* A group that is nobody's private group: root's primary group is
   * named root, so gid 0 is private only to root; pick one past it. */
  gid_t shared = 65534;
  struct stat st = {.st_uid = me, .st_gid = shared, .st_mode = S_IFREG | 0644};
  CHECK(trusted_fs_check_owner(&st, NULL, 0) == TRUSTED_FS_OWN,
        "the user's own 0644 file is theirs");
  st.st_uid = 0;
  CHECK(trusted_fs_check_owner(&st, NULL, 0) == TRUSTED_FS_OWN,
        "root's 0644 file is trusted");
  st.st_uid = other;
  CHECK(me != 0 ? trusted_fs_check_owner(&st, NULL, 0) == TRUSTED_FS_FOREIGN
                : true,
        "another user's file is foreign");
  CHECK(trusted_fs_check_owner(&st, &other, 0) == TRUSTED_FS_OWN,
        "an owner trusted beside the user and root is trusted");
  st.st_uid = me;
  st.st_mode = S_IFREG | 0646;
  CHECK(trusted_fs_check_owner(&st, NULL, TRUSTED_FS_PRIVATE_GROUP) ==
            TRUSTED_FS_SHARED_WRITE,
        "world write is shared write, whatever the group");
  st.st_mode = S_IFREG | 0664;
  CHECK(trusted_fs_check_owner(&st, NULL, 0) == TRUSTED_FS_SHARED_WRITE,
        "group write is shared write");
  CHECK(trusted_fs_check_owner(&st, NULL, TRUSTED_FS_PRIVATE_GROUP) ==
            TRUSTED_FS_SHARED_WRITE,
        "group write by a shared group stays shared with the private-group "
        "rule");
}

static void test_trusted_fs_file_names_are_kept_or_marked(void) {
  why[0] = '\0';
  CHECK(strcmp(file_name("fs"), "fs") == 0 &&
            strcmp(file_name("my-server_2.x"), "my-server_2.x") == 0,
        "a plain name is its own file name");
  CHECK(strcmp(file_name(""), "server-811c9dc5") == 0,
        "an empty name is server and a mark");
  const char *ab = file_name("a b");
  CHECK(strncmp(ab, "a_b-", 4) == 0 && strlen(ab) == 12,
        "a changed name keeps what it can and gets a mark");
  CHECK(file_name(".hidden")[0] == '_' && file_name("..")[0] == '_',
        "never a hidden file, . or ..");
  char long1[200], long2[200];
  memset(long1, 'x', 150);
  long1[150] = '\0';
  memcpy(long2, long1, 151);
  long2[149] = 'y';
  CHECK(strlen(file_name(long1)) <= 100, "a long name is cut to 100 bytes");
  CHECK(strlen(file_name(long1)) <= 100 &&
            strcmp(file_name(long1), file_name(long2)) != 0,
        "two long names that differ after the cut get two files");
  static const char *const distinct[] = {
      "a b", "a_b",    "a:b",          "caf\xc3\xa9",  "caf\xc3\xa8", "caf__",
      "",    "server", "a_b-00000000", "plugin:x:dup", "plugin_x_dup"};
  size_t n = sizeof distinct / sizeof *distinct;
  bool all = true;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = i + 1; j < n; j++) {
      char one[128];
      snprintf(one, sizeof one, "%s", file_name(distinct[i]));
      if (strcmp(one, file_name(distinct[j])) == 0) {
        printf("     \"%s\" and \"%s\" share %s\n", distinct[i], distinct[j],
               one);
        all = false;
      }
    }
  }
  CHECK(all, "different names never share a file name");
  CHECK(strcmp(file_name("a b"), file_name("a b")) == 0,
        "the same name always gives the same file name");
}

/* Plain paths, however written, as the walk takes them; a name longer
 * than NAME_MAX refused, never cut into two directories. */
static void test_trusted_fs_plain_paths_and_long_names(void) {
  mkdir_mode("plain", 0700);
  mkdir_mode("plain/inner", 0700);
  char slashes[PATH_MAX + 64];
  snprintf(slashes, sizeof slashes, "%s//plain///inner/", root);
  CHECK(opens(slashes, 0), "repeated and trailing slashes are one path");
  CHECK(opens(at("plain/inner"), TRUSTED_FS_PRIVATE),
        "a 0700 directory passes the private check");
  int fd = trusted_fs_open_dir_owned_by(at("plain/inner"), 0, 65534, why,
                                        sizeof why);
  CHECK(fd >= 0, "a plain path with one more owner trusted opens");
  if (fd >= 0) {
    close(fd);
  }
  chmod(at("plain"), 0777);
  CHECK(!opens(at("plain/inner"), 0) && has("plain is writable by everyone"),
        "a shared directory on a plain path is refused in the walk's words");
  chmod(at("plain"), 0700);
  char longname[400];
  memset(longname, 'A', 300);
  longname[300] = '\0';
  char deep[PATH_MAX + 512];
  snprintf(deep, sizeof deep, "%s/plain/%s", root, longname);
  CHECK(!opens(deep, TRUSTED_FS_CREATE) && errno == ENAMETOOLONG &&
            has("too long"),
        "a name over NAME_MAX is refused (ENAMETOOLONG)");
  longname[255] = '\0';
  struct stat st;
  snprintf(deep, sizeof deep, "%s/plain/%s", root, longname);
  CHECK(stat(deep, &st) != 0, "  and nothing of it is made");
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/trusted-fs-XXXXXX", tmp ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  test_trusted_fs_refuses_a_relative_path();
  test_trusted_fs_creates_missing_directories_0700();
  test_trusted_fs_refuses_writable_directories();
  test_trusted_fs_follows_our_links_and_dots();
  test_trusted_fs_plain_paths_and_long_names();
  test_trusted_fs_files();
  test_trusted_fs_refuses_another_users();
  test_trusted_fs_file_names_are_kept_or_marked();
  test_trusted_fs_one_rule_for_owner_and_writers();
  char cmd[PATH_MAX + 32];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) {
    printf("warning: could not remove %s\n", root);
  }
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
