#!/usr/bin/env bash
# Issue 11, point 10: any *.so in --plugin-dir or MCPHOST_PLUGIN_PATH ran
# (its constructors even for --version), from world-writable directories
# and other users' files, and relative directories meant a repository's
# plugins/. Now only trusted places are used (owned by the user or root,
# writable by nobody else, absolute), each file opened without following
# a link it did not check and loaded through that open file; the same
# check applies to a transport's implementation in lib/mcphost/impl/.
# Another user is played by file ownership (nobody), set up as root.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH
if [ "$(id -u)" != 0 ]; then
  skip_test "the ownership checks need root to give files to nobody"
fi
MARK="$TMP/constructor-ran"
export PLUGIN_MARK="$MARK"
# A library whose constructor leaves a mark: what an attacker's plugin
# would run the moment it is loaded.
cat >"$TMP/evil.c" <<'C'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void ran(void) {
  const char *m = getenv("PLUGIN_MARK");
  if (m)
    close(open(m, O_CREAT | O_WRONLY, 0600));
}
C
"$CC" -shared -fPIC -o "$TMP/evil.so" "$TMP/evil.c" || {
  echo "FAIL cannot build the test library"; exit 1; }
chmod 755 "$TMP/evil.so"

# plugin_in DIR: a copy of the library as DIR/x.so
plugin_in() { mkdir -p "$1"; cp "$TMP/evil.so" "$1/x.so"; chmod 755 "$1/x.so"; }
ran() { test -e "$MARK"; }
not_ran() { ! test -e "$MARK"; }

# The check can fail: from a trusted directory the library is loaded.
plugin_in "$TMP/good"
rm -f "$MARK"
run --plugin-dir "$TMP/good" --version
expect "a library in a trusted --plugin-dir is loaded" 0 --out "mcphost"
check "its constructor ran" ran

# A relative directory: a repository's plugins/.
mkdir -p "$TMP/repo"
plugin_in "$TMP/repo/plugins"
rm -f "$MARK"
(cd "$TMP/repo" && "$MCPHOST" --plugin-dir plugins --version >/dev/null 2>&1)
check "a relative --plugin-dir runs nothing, even for --version" not_ran
(cd "$TMP/repo" && "$MCPHOST" --plugin-dir plugins plugins \
  >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "mcphost plugins names the refused relative directory and why" 0 \
  --out "refused  plugins" --out "a relative path; give an absolute one"
# (--version -v: a lone --version loads no plugin at all.)
(cd "$TMP/repo" && MCPHOST_PLUGIN_PATH=plugins "$MCPHOST" --version -v >/dev/null 2>&1)
check "a relative MCPHOST_PLUGIN_PATH entry runs nothing" not_ran

# A world-writable directory (root's, not sticky).
plugin_in "$TMP/open"
chmod 777 "$TMP/open"
rm -f "$MARK"
run --plugin-dir "$TMP/open" --version
check "a world-writable --plugin-dir runs nothing" not_ran
run --plugin-dir "$TMP/open" plugins
expect "mcphost plugins says the directory is writable by everyone" 0 \
  --out "refused  $TMP/open" --out "$TMP/open is writable by everyone"
MCPHOST_PLUGIN_PATH="$TMP/open" run --version -v
check "a world-writable MCPHOST_PLUGIN_PATH entry runs nothing" not_ran

# A sticky world-writable directory is no better for plugins.
plugin_in "$TMP/sticky"
chmod 1777 "$TMP/sticky"
run --plugin-dir "$TMP/sticky" plugins
expect "a sticky world-writable --plugin-dir is refused" 0 \
  --out "$TMP/sticky is writable by everyone"
check "nothing from the sticky directory ran" not_ran

# Another user's directory, and another user's file.
plugin_in "$TMP/theirs"
chown -R nobody "$TMP/theirs"
run --plugin-dir "$TMP/theirs" plugins
expect "a --plugin-dir owned by another user is refused" 0 \
  --out "$TMP/theirs is owned by uid 65534, not by you or root"
check "nothing from another user's directory ran" not_ran
plugin_in "$TMP/mixed"
chown nobody "$TMP/mixed/x.so"
run --plugin-dir "$TMP/mixed" plugins
expect "a plugin file owned by another user is refused" 0 \
  --out "refused  $TMP/mixed/x.so" --out "owned by uid 65534"
check "another user's plugin file did not run" not_ran

# A group-writable file; a directory below a world-writable one.
plugin_in "$TMP/grp"
chmod 775 "$TMP/grp/x.so"
run --plugin-dir "$TMP/grp" plugins
expect "a group-writable plugin file is refused" 0 \
  --out "$TMP/grp/x.so is writable by its group"
mkdir -p "$TMP/wide"
chmod 777 "$TMP/wide"
plugin_in "$TMP/wide/plugins"
run --plugin-dir "$TMP/wide/plugins" plugins
expect "a --plugin-dir below a world-writable directory is refused" 0 \
  --out "$TMP/wide is writable by everyone"
check "nothing below the world-writable directory ran" not_ran

# Links: one in a trusted directory to a file of an untrusted one is
# refused; one to a trusted file is followed.
mkdir -p "$TMP/links"
ln -s "$TMP/open/x.so" "$TMP/links/a.so"
run --plugin-dir "$TMP/links" plugins
expect "a link to a plugin in an untrusted directory is refused" 0 \
  --out "refused  $TMP/links/a.so" --out "$TMP/open is writable by everyone"
check "the linked untrusted plugin did not run" not_ran
mkdir -p "$TMP/links2"
ln -s "$TMP/good/x.so" "$TMP/links2/b.so"
run --plugin-dir "$TMP/links2" --version
check "a link to a trusted plugin file is followed" ran

# ---- an installation of another user's, run by root ----

# Whoever owns the executable controls mcphost already: its built-in
# directory and the implementations beside it may be theirs.
P="$TMP/their-install"
if cmake --install "$BUILDDIR" --prefix "$P" >"$TMP/install.log" 2>&1; then
  chown -R nobody "$P"
  MCPHOST="$P/bin/mcphost" run plugins
  expect "the built-in plugins of an installation owned by its user load" 0 \
    --out "loaded   mcphost.transport.stdio" --no-out "refused"
  MCPHOST="$P/bin/mcphost" run --url "h=http://127.0.0.1:9/mcp" servers
  expect "and so does its http implementation" 3 --no-out "cannot load"
  MCPHOST="$P/bin/mcphost" run --plugin-dir "$TMP/theirs" plugins
  expect "that user's other directories are still refused" 0 \
    --out "$TMP/theirs is owned by uid 65534"
else
  RC=$?; bad "cmake --install works" "$(tail -5 "$TMP/install.log")"
fi

# ---- a transport's implementation (lib/mcphost/impl/) ----

I="$TMP/inst/lib/mcphost"
mkdir -p "$I/plugins" "$I/impl"
cp "$PLUGINDIR/transport-http.so" "$I/plugins/"
cp "$PLUGINDIR/../impl/transport-http.so" "$I/impl/"
chmod 777 "$I/impl"
# Checked when the stub is loaded: refused then, its types left to the
# built-in plugin.
run --plugin-dir "$I/plugins" plugins
expect "an implementation in a world-writable directory is not loaded" 0 \
  --out "refused  $I/plugins/transport-http.so" \
  --out "cannot load $I/impl/transport-http.so" --out "$I/impl is writable by everyone"
chmod 755 "$I/impl"
chown nobody "$I/impl/transport-http.so"
run --plugin-dir "$I/plugins" plugins
expect "an implementation file of another user's is not loaded" 0 \
  --out "refused  $I/plugins/transport-http.so" \
  --out "$I/impl/transport-http.so is owned by uid 65534"
chown root "$I/impl/transport-http.so"
run --plugin-dir "$I/plugins" --url "h=http://127.0.0.1:9/mcp" servers
expect "a trusted implementation loads (the server is simply unreachable)" 3 \
  --no-out "cannot load"
# An implementation cut short is refused before dlopen() (which would die
# of SIGBUS mapping what is not there): the host's implementations and
# the bundle plugin's own tools library alike. The stub's load checks the
# file's status only (there, trusted); its content is read when it is
# first used, before it is loaded.
head -c 3000 "$PLUGINDIR/../impl/transport-http.so" >"$I/impl/transport-http.so"
run --plugin-dir "$I/plugins" --url "h=http://127.0.0.1:9/mcp" servers
expect "an implementation cut short is refused, naming it" 3 \
  --out "cannot load $I/impl/transport-http.so" --out "cut short"
cp "$PLUGINDIR/feature-mcpb.so" "$I/plugins/"
cp "$PLUGINDIR/../impl/feature-mcpb.so" "$I/impl/"
head -c 3000 "$PLUGINDIR/../impl/mcpb-tools.so" >"$I/impl/mcpb-tools.so"
run --plugin-dir "$I/plugins" bundle info "$SRCDIR/bundles/testdata/hello-bin-0.3.0.mcpb"
expect "the bundle tools cut short are refused, naming them" 3 \
  --err "cannot load $I/impl/mcpb-tools.so" --err "cut short"
finish
