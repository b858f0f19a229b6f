#!/usr/bin/env bash
# Issue 11, points 2 and 11: the .mcp.json walk reads only files no other
# user could have written, stops at the repository root or the
# file-system boundary, --approve-project covers only the working
# directory's repository, and a project file that is a symbolic link out
# of the project tree is neither read nor written.
. "$(dirname "$0")/../lib/other_user.sh"
other_user_setup
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
mkdir -p "$(dirname "$SETTINGS")"
EVIL="$TMP/evil-server"
marker_server "$EVIL" "$TMP/pwned"
servers() { printf '{"mcpServers": {"%s": {"command": "%s"}}}\n' "$1" "$2"; }

# ---- a CI job under a shared, world-writable directory (/tmp/build-x) ----

SHARED="$TMP/shared" # like /tmp: world-writable and sticky
mkdir -p "$SHARED" && chmod 1777 "$SHARED"
mkdir -p "$SHARED/build-x"
servers evil "$EVIL" | other_write "$SHARED/.mcp.json"
servers job "$DEMO" >"$SHARED/build-x/.mcp.json"
in_dir "$SHARED/build-x" --approve-project call mcp__evil__echo message=x
expect "another user's .mcp.json in a parent is skipped, with a warning naming it" 6 \
  --err "$SHARED/.mcp.json: skipped: owned by uid $OTHER_UID"
check "its command never ran, even with --approve-project" test ! -e "$TMP/pwned"
in_dir "$SHARED/build-x" --approve-project call mcp__job__echo message=ci
expect "the job's own file is still used" 0 --out "Echo: ci"
MCPHOST_APPROVE_PROJECT_SERVERS=1 in_dir "$SHARED/build-x" mcp list
check "MCPHOST_APPROVE_PROJECT_SERVERS does not bring it back" sh -c "! grep -q '^evil' '$TMP/out'"
rm -f "$SHARED/.mcp.json"

# The user's own file in a sticky directory is safe: others cannot
# replace it. A root-owned one in a world-writable directory without the
# sticky bit is not (anyone may rename it away and put another there).
servers mine "$DEMO" >"$SHARED/.mcp.json"
in_dir "$SHARED/build-x" mcp approve mine
in_dir "$SHARED/build-x" call mcp__mine__echo message=own
expect "the user's own file in a sticky directory is read" 0 --out "Echo: own"
rm -f "$SHARED/.mcp.json"
OPEN="$TMP/open"
mkdir -p "$OPEN/job" && chmod 0777 "$OPEN"
servers planted "$EVIL" >"$OPEN/.mcp.json"
in_dir "$OPEN/job" --approve-project call mcp__planted__echo message=x
expect "a file in a world-writable directory is skipped" 6 \
  --err "$OPEN/.mcp.json: skipped: its directory $OPEN is writable by its group or by others (mode 0777)"
servers planted "$EVIL" >"$OPEN/job/.mcp.json"
chgrp "$OTHER_GID" "$OPEN/job/.mcp.json" # the group of another user
chmod 0664 "$OPEN/job/.mcp.json"
in_dir "$OPEN/job" --approve-project call mcp__planted__echo message=x
expect "a group-writable .mcp.json is skipped" 6 \
  --err "$OPEN/job/.mcp.json: skipped: writable by its group or by others (mode 0664)"
# The victim's own file below a world-writable, non-sticky ancestor: the
# ancestor's writers may swap the directory between check and read.
chgrp "$(id -g)" "$OPEN/job/.mcp.json"
chmod 0644 "$OPEN/job/.mcp.json"
rm -f "$OPEN/.mcp.json"
in_dir "$OPEN/job" --approve-project call mcp__planted__echo message=x
expect "a file below a world-writable directory that is not sticky is skipped" 6 \
  --err "$OPEN/job/.mcp.json: skipped: the directory above it $OPEN is writable by its group or by others (mode 0777) and not a sticky directory of root's"
check "its command never ran" test ! -e "$TMP/pwned"
chmod 0755 "$OPEN"
# Group write for the user's private group (umask 002) is the user's own.
chmod 0664 "$OPEN/job/.mcp.json"
if [ "$(id -gn)" = "$(id -un)" ] && [ -z "$(getent group "$(id -g)" | cut -d: -f4)" ]; then
  in_dir "$OPEN/job" --approve-project call mcp__planted__echo message=upg
  expect "a file writable by the user's private group is read" 0 --out "Echo: upg"
  rm -f "$TMP/pwned"
else
  echo "# skip: the user has no private group here"
fi
rm -f "$OPEN/job/.mcp.json"

# A directory another user owns: whatever is in it is theirs to swap.
THEIRS="$TMP/theirs"
other_mkdir "$THEIRS"
mkdir -p "$THEIRS/job"
servers planted "$EVIL" >"$THEIRS/.mcp.json"
in_dir "$THEIRS/job" --approve-project call mcp__planted__echo message=x
expect "a file in a directory another user owns is skipped" 6 \
  --err "$THEIRS/.mcp.json: skipped: its directory $THEIRS is owned by uid $OTHER_UID"
check "no planted command ran" test ! -e "$TMP/pwned"

# ---- the walk stops at the repository root ----

OUT_R="$TMP/outer"
mkdir -p "$OUT_R/repo/.git" "$OUT_R/repo/src"
servers above "$DEMO" >"$OUT_R/.mcp.json"
servers inrepo "$DEMO" >"$OUT_R/repo/.mcp.json"
in_dir "$OUT_R/repo/src" --json mcp list
expect "the walk stops at the repository root (.git)" 0 \
  --jq 'map(.name) == ["inrepo"]'
rm -rf "$OUT_R/repo/.git"
in_dir "$OUT_R/repo/src" --approve-project mcp list
expect "without a repository the walk goes on" 0 --out "above"
check "but --approve-project covers only the working directory's file" \
  sh -c "grep -q '^above .*pending approval' '$TMP/out' && grep -q '^inrepo .*pending approval' '$TMP/out'"

# ---- mcp list and mcp get name each project server's file ----

mkdir -p "$OUT_R/repo/.git"
in_dir "$OUT_R/repo/src" mcp list
expect "mcp list shows a project server's source file" 0 \
  --out "$OUT_R/repo/.mcp.json"
in_dir "$OUT_R/repo/src" mcp get inrepo
expect "mcp get shows it too" 0 --out "Source: $OUT_R/repo/.mcp.json"

# ---- point 11: a project .mcp.json that links out of the project ----

L="$HOME/linked"
mkdir -p "$L/.git"
printf '{"mcpServers": {"u": {"command": "%s"}}, "permissions": {"allow": ["mcp__*"]}}\n' "$DEMO" >"$SETTINGS"
cp "$SETTINGS" "$TMP/settings.orig"
ln -s "$SETTINGS" "$L/.mcp.json"
in_dir "$L" mcp add -s project x -- "$EVIL"
expect "mcp add -s project refuses to write through a link out of the project" 3 \
  --err "$L/.mcp.json: a symbolic link to $SETTINGS, outside the project tree $L; refused"
check "the user settings are untouched" cmp -s "$SETTINGS" "$TMP/settings.orig"
in_dir "$L" mcp remove u -s project
expect "mcp remove -s project does not touch it either" 6
check "still untouched" cmp -s "$SETTINGS" "$TMP/settings.orig"
in_dir "$L" --json mcp list
expect "the linked file is not read as a project file" 0 \
  --jq 'map(select(.scope == "project")) | length == 0' \
  --err "outside the project tree"
mkdir -p "$L/conf"
rm -f "$L/.mcp.json"
servers intree "$DEMO" >"$L/conf/mcp.json"
ln -s conf/mcp.json "$L/.mcp.json"
in_dir "$L" --approve-project call mcp__intree__echo message=link
expect "a link that stays inside the project is followed" 0 --out "Echo: link"

# A dotfiles repository in $HOME: ~/.git must not make $HOME the project
# tree, so a link from a project up into ~/.config stays refused; and a
# project file that is another scope's file (a hard link) is refused too.
U="$HOME/.config/mcphost/settings.json"
A="$HOME/src/app"
mkdir -p "$HOME/.git" "$A" "$(dirname "$U")"
printf '{"mcpServers": {"u": {"command": "%s"}}}\n' "$DEMO" >"$U"
cp "$U" "$TMP/u.orig"
ln -s ../../.config/mcphost/settings.json "$A/.mcp.json"
# refused_both WHAT TEXT: $A/.mcp.json is neither written nor read.
refused_both() {
  XDG_CONFIG_HOME="$HOME/.config" in_dir "$A" mcp add -s project evil -- "$EVIL"
  expect "$1: mcp add -s project refuses to write it" 3 --err "$2"
  check "$1: the user settings in \$HOME are untouched" cmp -s "$U" "$TMP/u.orig"
  XDG_CONFIG_HOME="$HOME/.config" in_dir "$A" --json mcp list
  expect "$1: nor is it read as a project file" 0 \
    --jq 'map(select(.scope == "project")) | length == 0' --err "$2"
}
refused_both "with ~/.git, a link into the user settings" \
  "outside the project tree $A; refused"
rm -f "$A/.mcp.json"
ln "$U" "$A/.mcp.json"
refused_both "a hard link to the user settings" \
  "$A/.mcp.json: refused: it is the same file as $U"
rm -f "$A/.mcp.json"
servers m "$DEMO" >"$TMP/extra.json"
ln "$TMP/extra.json" "$A/.mcp.json"
in_dir "$A" --mcp-config "$TMP/extra.json" --json mcp list
expect "or to a --mcp-config file" 0 --err "the same file as $TMP/extra.json"
rm -rf "$HOME/.git" "$A/.mcp.json"
finish
