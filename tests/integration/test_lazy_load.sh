#!/usr/bin/env bash
# Libraries a command does not need are not loaded: libcurl only when an
# http or sse server is used (the transports' implementations are opened
# on first use: their stubs name them, transports/common/plugin_stub.c), ICU only when a
# server sends non-ASCII text (common/icu_dl.h). The dynamic linker's own
# trace (LD_DEBUG=files, which reports dlopen too) says what was loaded.
. "$(dirname "$0")/lib.sh"
unset MCPHOST_PLUGIN_PATH
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"

# run_traced ARGS...: run, with the dynamic linker's file trace of mcphost
# (and of any process it starts) in $LOADS.
run_traced() {
  rm -f "$TMP"/ld.*
  LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" run "$@"
  LOADS=$(cat "$TMP"/ld.* 2>/dev/null)
}
# loads LIB: how many times the trace shows LIB (the start of a file
# name) loaded, as a dependency or by dlopen.
loads() {
  grep -c "file=\([^ ]*/\)\?$1[^ ]* \[[0-9]*\];  \(needed\|dynamically loaded\) by" <<<"$LOADS"
}

run_traced plugins
expect "plugins lists the http and sse transports with their versions and types" 0 \
  --out "mcphost.transport.http 0.1.0" --out "transports: http" \
  --out "mcphost.transport.sse 0.1.0" --out "transports: sse" \
  --no-out "transports: sse,sse-ide" \
  --out "mcphost.ide 0.1.0" --out "transports: ws-ide,sse-ide"
check "listing plugins loads no libcurl" test "$(loads libcurl)" = 0
check "listing plugins loads no ICU" test "$(loads libicu)" = 0

run_traced --config "$D" tools
expect "tools against the stdio demo server works" 0 --out "mcp__demo__echo"
check "the trace is there to read" test "$(loads libcjson)" -ge 1
check "an ASCII-only stdio server loads no libcurl" test "$(loads libcurl)" = 0
check "an ASCII-only stdio server loads no ICU" test "$(loads libicu)" = 0

# A plugin's global option comes from its provides list: giving the
# OAuth plugin's to a stdio run maps neither libcurl nor OpenSSL (its
# implementation is not opened to parse it).
run_traced --oauth-browser=print --config "$D" tools
expect "--oauth-browser is taken by a stdio run" 0 --out "mcp__demo__echo"
check "... which loads no libcurl" test "$(loads libcurl)" = 0
check "... nor OpenSSL" test "$(loads libssl)" = 0

# Fullwidth letters and a zero-width space: only ICU turns them into
# "full width". A tool result is kept as sent, which needs no ICU; with
# --sanitize=full it is sanitized as names are.
FULL=$(printf '\xef\xbd\x86\xef\xbd\x95\xef\xbd\x8c\xef\xbd\x8c\xe2\x80\x8b width')
run_traced --config "$D" call mcp__demo__echo message="$FULL"
expect "a non-ASCII result is kept as sent" 0 --out "Echo: $FULL"
check "a result kept as sent loads no ICU" test "$(loads libicuuc)" = 0
run_traced --config "$D" --sanitize=full call mcp__demo__echo message="$FULL"
expect "non-ASCII text from the server is sanitized" 0 --out "Echo: full width"
check "non-ASCII text loads ICU, once" test "$(loads libicuuc)" = 1
check "non-ASCII text loads no libcurl" test "$(loads libcurl)" = 0

# ---- an http server: libcurl, once, when its transport is created ----

start_node "$SRCDIR/tests/servers/streamable_http_server.mjs"
H="$TMP/http.json"
config_file "$H" "{\"t\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\"}}"

run_traced -vv --config "$H" tools
expect "tools against an http server works" 0 --out "mcp__t__echo_headers"
check "an http server loads libcurl once" test "$(loads libcurl)" = 1
# Plugins and implementations are loaded through the file descriptor
# that was checked (/proc/self/fd/N; docs/security.md). (Under ASan, the
# dlopen is libasan's: it intercepts dlopen.)
IMPL=$(cd "$PLUGINDIR/../impl" && pwd -P)/transport-http.so
expect "the http plugin opens its implementation" 0 \
  --err "[mcphost.transport.http] loaded $IMPL"
check "libcurl comes with the http transport's implementation" \
  grep -q "file=libcurl[^ ]* \[0\];  needed by /proc/self/fd/[0-9]*" <<<"$LOADS"

# A link to the plugin finds the implementation beside the file it points
# to. (The --plugin-dir copy wins over the built-in one: same id.)
mkdir -p "$TMP/linked"
ln -s "$PLUGINDIR/transport-http.so" "$TMP/linked/transport-http.so"
run --plugin-dir "$TMP/linked" --config "$H" tools
expect "a link to the plugin works from another directory" 0 --out "mcp__t__echo_headers"

# Installed, the implementation is found the same way.
PREFIX="$TMP/prefix"
if cmake --install "$BUILDDIR" --prefix "$PREFIX" >"$TMP/install.log" 2>&1; then
  RC=0
  MCPHOST="$PREFIX/bin/mcphost" run --config "$H" tools
  expect "an installed mcphost uses its installed http implementation" 0 \
    --out "mcp__t__echo_headers"
else
  RC=$?; bad "cmake --install works" "$(tail -5 "$TMP/install.log")"
fi

# ---- the plugin without its implementation ----

mkdir -p "$TMP/lone/plugins"
cp "$PLUGINDIR/transport-http.so" "$TMP/lone/plugins/"
LONE=$(cd "$TMP/lone" && pwd -P)
run --plugin-dir "$TMP/lone/plugins" plugins
expect "a stub without its implementation is refused at load time, naming the file and why" 0 \
  --out "refused  $TMP/lone/plugins/transport-http.so" \
  --out "cannot load $LONE/impl/transport-http.so" \
  --out "No such file or directory" --out "its id and types are left to another plugin" \
  --out "loaded   mcphost.transport.http"
run --plugin-dir "$TMP/lone/plugins" --json plugins
expect "  and so in --json, where the built-in one serves http" 0 \
  --jq '.[] | select(.file == "'"$TMP/lone/plugins/transport-http.so"'") | .status == "refused" and (.error | contains("impl/transport-http.so"))' \
  --jq '[.[] | select(.id == "mcphost.transport.http" and .status == "loaded")][0].file | endswith("/plugins/transport-http.so")'
run --plugin-dir "$TMP/lone/plugins" --config "$H" tools
expect "  it does not shadow the working built-in: the server is served" 0 \
  --out "mcp__t__echo_headers" --no-err "cannot load"

# The bundle plugin: libarchive, OpenSSL and libcurl are in mcpb-tools.so,
# opened by the bundle commands that need them; an installed bundle
# listed as a server maps none of them.
unset MCPHOST_PLUGIN_PATH
FXB="$SRCDIR/tests/fixtures/mcpb"
run_traced bundle install "$FXB/hello-bin-0.3.0.mcpb" --yes
expect "bundle install works" 0 --out "Installed hello-bin"
check "  and loads libarchive" test "$(loads libarchive)" -ge 1
check "  and OpenSSL's libcrypto" test "$(loads libcrypto)" -ge 1
run_traced servers
expect "the installed bundle is a server" 0 --out "hello-bin"
check "  listed without libarchive" test "$(loads libarchive)" = 0
check "  nor libcurl" test "$(loads libcurl)" = 0
run_traced bundle list
expect "bundle list works" 0 --out "hello-bin"
check "  without libarchive" test "$(loads libarchive)" = 0
finish
