#!/usr/bin/env bash
# The plugin scan (host/core/plugins.c), as strace sees `mcphost plugins`:
#   - the plugin directory is checked once (a stat a component, then
#     opened by its path: common/trusted_fs.h) and listed from the fd
#     that opened (no second open of it to list it);
#   - each plugin file is opened once and its head read once (the ELF
#     check and the stub's note from the same 2 KiB);
#   - a stub's implementation is checked with one fstatat() in the "impl"
#     directory beside the plugin directory, opened once from it: no
#     stub's path read back from /proc, no check from "/" for it, no open
#     of the implementation before it is used.
# Then what that quick check stands for: an implementation it cannot
# vouch for (a link, a file writable by its group) is checked as before,
# with its reason; one cut short is refused when first used, before
# dlopen(), naming the file.
. "$(dirname "$0")/../lib/lib.sh"
command -v strace >/dev/null || skip_test "no strace (scripts/deps.sh test installs it)"
strace -o /dev/null true 2>/dev/null || skip_test "strace cannot trace here"
unset MCPHOST_PLUGIN_PATH
: >"$TMP/out" # what a failed check shows
RC=0

IMPLDIR=$(cd "$PLUGINDIR/../impl" && pwd -P) || exit 1
files=0
stubs=()
for f in "$PLUGINDIR"/*.so; do
  files=$((files + 1))
  name=${f##*/}
  [ -e "$IMPLDIR/$name" ] && stubs+=("$name")
done
check "the build has stubs with their implementations (${#stubs[@]})" \
  test "${#stubs[@]}" -ge 9

ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
  strace -o "$TMP/trace" "$MCPHOST" plugins >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "plugins: every built plugin is loaded" 0 --no-out "refused"
check "  as many as there are files ($files)" \
  test "$(grep -c '^loaded ' "$TMP/out")" = "$files"
count() { grep -c -- "$1" "$TMP/trace"; }
check "  no stub's path read back from /proc" \
  test "$(count 'readlink("/proc/self/fd/')" = 0
check "  one check of the plugin directory: opened once, by its path, no walk from /" \
  test "$(count 'openat(AT_FDCWD, "/", ')" = 0 -a \
  "$(count 'openat(AT_FDCWD, "/[^"]*", O_RDONLY|O_NOFOLLOW|O_CLOEXEC|O_DIRECTORY)')" = 1
check "  the implementation directory opened once, beside it" \
  test "$(count 'openat([0-9]*, "\.\./impl", ')" = 1
check "  the directory listed from the walk's fd (not opened again)" \
  test "$(count 'openat([0-9]*, "\.", O_RDONLY|O_NONBLOCK')" = 0
check "  each plugin file's head read once ($files)" \
  test "$(count 'pread64([0-9]*, "\\177ELF.*, 2048, 0)')" = "$files"
opened=0 stated=0
for name in "${stubs[@]}"; do
  [ "$(count "openat([0-9]*, \"$name\", ")" = 1 ] && opened=$((opened + 1))
  [ "$(count "fstatat([0-9]*, \"$name\", .*AT_SYMLINK_NOFOLLOW")" = 1 ] &&
    stated=$((stated + 1))
done
check "  each stub opened once, its implementation not opened" \
  test "$opened" = "${#stubs[@]}"
check "  each implementation checked by one fstatat" \
  test "$stated" = "${#stubs[@]}"

# ---- what the quick check does not vouch for ----

# tree NAME: $TMP/NAME/plugins with the ws stub, and $TMP/NAME/impl.
tree() {
  mkdir -p "$TMP/$1/plugins" "$TMP/$1/impl"
  cp "$PLUGINDIR/transport-ws.so" "$TMP/$1/plugins/"
}

tree linked
ln -s "$IMPLDIR/transport-ws.so" "$TMP/linked/impl/transport-ws.so"
run --plugin-dir "$TMP/linked/plugins" plugins
expect "an implementation that is a link is followed and checked: the stub is loaded" 0 \
  --out "loaded   mcphost.transport.ws 0.1.0 (ABI 1.8)  $TMP/linked/plugins/transport-ws.so"

tree shared
cp "$IMPLDIR/transport-ws.so" "$TMP/shared/impl/"
chmod 775 "$TMP/shared/impl/transport-ws.so"
SHARED=$(cd "$TMP/shared" && pwd -P)
run --plugin-dir "$TMP/shared/plugins" plugins
expect "an implementation writable by its group refuses the stub, saying so" 0 \
  --out "refused  $TMP/shared/plugins/transport-ws.so" \
  --out "$SHARED/impl/transport-ws.so is writable by its group; refusing it"

tree cut
head -c 8192 "$IMPLDIR/transport-ws.so" >"$TMP/cut/impl/transport-ws.so"
chmod 755 "$TMP/cut/impl/transport-ws.so"
CUT=$(cd "$TMP/cut" && pwd -P)
run --plugin-dir "$TMP/cut/plugins" plugins
expect "an implementation cut short: the stub is listed (its content is checked on use)" 0 \
  --out "loaded   mcphost.transport.ws 0.1.0 (ABI 1.8)  $TMP/cut/plugins/transport-ws.so"
W="$TMP/ws.json"
config_file "$W" "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$(free_port)/\"}}"
run --plugin-dir "$TMP/cut/plugins" --config "$W" tools
expect "  and refused before dlopen() when first used, naming the file and why" 3 \
  --err "cannot load" --err "$CUT/impl/transport-ws.so" --err "cut short"

finish
