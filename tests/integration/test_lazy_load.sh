#!/usr/bin/env bash
# Libraries a command does not need are not loaded: libcurl only when an
# http or sse server is used (the transports' implementations are opened
# on first use: their stubs name them, transports/common/plugin_stub.c), and
# ICU never by the host, not even for text that needs normalizing (its NFKC
# is tables generated from ICU at build time, host/safety/unicode_quick.h).
# The dynamic linker's own trace (LD_DEBUG=files, which reports dlopen
# too) says what was loaded.
. "$(dirname "$0")/../lib/lib.sh"
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
# run_traced_input TEXT ARGS...: run_traced with the lines of TEXT on
# stdin.
run_traced_input() {
  local input=$1
  shift
  rm -f "$TMP"/ld.*
  printf '%s\n' "$input" >"$TMP/in"
  LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" "$MCPHOST" "$@" <"$TMP/in" \
    >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
  LOADS=$(cat "$TMP"/ld.* 2>/dev/null)
}
# maps_no_heavy WHAT: the last trace (mcphost, the processes it forked,
# and the C demo server, which links none of them) loaded none of the
# libraries only some work needs: OpenSSL's libcrypto, libcurl,
# libarchive, libwebsockets; nor libm, which an optimized host does not
# need (300 KiB resident for one llround(); unoptimized, floor() is a
# call into it, and the sanitizers' runtime needs it anyway).
HEAVY="libcrypto libcurl libarchive libwebsockets"
grep -q '^CMAKE_BUILD_TYPE:STRING=Debug$' "$BUILDDIR/CMakeCache.txt" ||
  HEAVY="$HEAVY libm\.so"
maps_no_heavy() {
  local lib
  for lib in $HEAVY; do
    check "  $1 maps no ${lib//\\/}" test "$(loads "$lib")" = 0
  done
}

# maps_no_heavy_but_ws WHAT: the same for a run with a ws server, whose
# transport needs libwebsockets, which links OpenSSL (so libcrypto is
# there whatever OAuth does), and no OAuth plugin's flows (which link
# libcurl and OpenSSL: plugins/oauth/front.c).
maps_no_heavy_but_ws() {
  local lib
  for lib in libcurl libarchive feature-oauth-flows; do
    check "  $1 maps no ${lib//\\/}" test "$(loads "$lib")" = 0
  done
}

run_traced --version
expect "--version says the version" 0 --out "mcphost " --out "(plugin ABI "
check "  and opens no plugin for it" \
  test "$(grep -c "dynamically loaded by" <<<"$LOADS")" = 0

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

# ---- every command that talks to a stdio server, with nothing else ----
# (The protocol era's cache key once loaded libcrypto on every connect.)

run_traced --config "$D" tools
maps_no_heavy "tools"
run_traced --config "$D" call mcp__demo__echo message=plain
expect "call against the stdio demo server works" 0 --out "Echo: plain"
maps_no_heavy "call"
run_traced_input '{"id":1,"call":"mcp__demo__echo","arguments":{"message":"b"}}' \
  --config "$D" batch
expect "batch against the stdio demo server works" 0 --out '"text":"Echo: b"'
maps_no_heavy "batch"
run_traced_input 'call mcp__demo__echo message=sh' --config "$D" shell
expect "shell (lines on stdin) against the stdio demo server works" 0 \
  --out "Echo: sh"
maps_no_heavy "shell"
run_traced_input '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mcp__demo__echo","arguments":{"message":"gw"}}}' \
  --mcp-config "$D" serve --stdio
expect "serve --stdio in front of the stdio demo server works" 0 \
  --out '"text":"Echo: gw"'
maps_no_heavy "serve --stdio"
# A session: the session process is forked by session start, so its
# loads are in that command's trace; the call runs through it.
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
on_exit "'$MCPHOST' --config '$D' session stop >/dev/null 2>&1"
rm -f "$TMP"/ld.*
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" run --config "$D" session start
expect "session start" 0 --out "session started"
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" run --config "$D" call \
  mcp__demo__echo message=se
expect "a call through the session works" 0 --out "Echo: se"
run --config "$D" session status --json
expect "  it ran in the session" 0 --jq '.commands >= 1'
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" run --config "$D" session stop
expect "session stop" 0
LOADS=$(cat "$TMP"/ld.* 2>/dev/null)
maps_no_heavy "session (its process and the command through it)"
unset XDG_RUNTIME_DIR

# ---- which plugins' code a cold stdio tools maps ----
# A plugin file with an implementation in lib/mcphost/impl is a stub
# (plugin.h, mcph_provides.implementation): what counts is the code
# mapped, the plugin files that are no stub and the implementations:
# elicitation and sampling give their capabilities from their stubs and
# are opened when a server asks them something. The server holds the
# run at its handshake (the configuration listed, the features asked for
# their capabilities) until the test has read
# /proc/PID/maps; then it answers, and the run's whole trace shows no
# implementation opened either.
PLUGREAL=$(cd "$PLUGINDIR" && pwd -P)
IMPLREAL=$(cd "$PLUGINDIR/../impl" && pwd -P)
# code_mapped PID: the plugin files whose code PID maps, sorted.
code_mapped() {
  local f
  awk '{print $6}' "/proc/$1/maps" | sort -u | while read -r f; do
    case $f in
    "$PLUGREAL"/*.so) [ -e "$IMPLREAL/${f##*/}" ] || echo "${f##*/}" ;;
    "$IMPLREAL"/*.so) echo "impl/${f##*/}" ;;
    esac
  done | sort | tr '\n' ' '
}
mkfifo "$TMP/hold"
HELD="$TMP/held.json"
cat >"$TMP/held.sh" <<EOF
#!/bin/bash
# The demo server, once the test says go; the initialize request it was
# sent meanwhile is kept for it, and written to a file that says it came.
IFS= read -r init
printf '%s\n' "\$init" >"$TMP/init"
read -r go <"$TMP/hold"
{ printf '%s\n' "\$init"; exec cat; } | exec "$DEMO"
EOF
chmod +x "$TMP/held.sh"
config_file "$HELD" "{\"demo\": {\"command\": \"$TMP/held.sh\"}}"
rm -f "$TMP"/ld.* "$TMP/init"
: >"$TMP/out"
: >"$TMP/err"
LD_DEBUG=files LD_DEBUG_OUTPUT="$TMP/ld" "$MCPHOST" --config "$HELD" tools \
  >"$TMP/out" 2>"$TMP/err" &
HPID=$!
for _ in $(seq 300); do [ -s "$TMP/init" ] && break; sleep 0.1; done
CODE=$(code_mapped "$HPID")
echo go >"$TMP/hold"
wait "$HPID"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
LOADS=$(cat "$TMP"/ld.* 2>/dev/null)
expect "a cold tools held at the handshake then answered works" 0 \
  --out "mcp__demo__echo"
check "  it maps the code of the stdio transport, and no other plugin's: \
channels sleeps without --channels (mapped: $CODE)" \
  test "$CODE" = "transport-stdio.so "
check "  the handshake declares elicitation all the same (from the stub)" \
  grep -q '"elicitation":{"form":{},"url":{}}' "$TMP/init"
# A stub carries its note (common/plugin_note.h): the host reads what it
# provides from the file and never dlopens it for a run that needs none
# of its code.
check "  it dlopens the one plugin that is no stub, once, and no stub nor \
implementation" \
  test "$(grep -c "dynamically loaded by" <<<"$LOADS")" = 1

# The server sources' implementations open when they may have servers.
run -vv --config "$D" tools
expect "with no IDE asked for, no bundle, no claude.ai opt-in: none of \
their implementations" 0 --out "mcp__demo__echo" \
  --no-err "[mcphost.ide] loaded" --no-err "[mcphost.claudeai] loaded" \
  --no-err "[mcphost.feature.mcpb] loaded"
CLAUDE_CODE_AUTO_CONNECT_IDE=true run -vv --config "$D" tools
expect "CLAUDE_CODE_AUTO_CONNECT_IDE opens the IDE plugin's" 0 \
  --out "mcp__demo__echo" --err "[mcphost.ide] loaded $IMPLREAL/ide.so"
run -vv --ide --config "$D" tools
expect "--ide opens it, and the IDE it asks for is looked for" 0 \
  --err "[mcphost.ide] loaded $IMPLREAL/ide.so" \
  --err "no running IDE has the working directory in its workspace"
ENABLE_CLAUDEAI_MCP_SERVERS=1 run -vv --config "$D" tools
expect "ENABLE_CLAUDEAI_MCP_SERVERS=1 opens the claude.ai plugin's" 0 \
  --out "mcp__demo__echo" \
  --err "[mcphost.claudeai] loaded $IMPLREAL/claudeai.so"
ENABLE_CLAUDEAI_MCP_SERVERS=0 run -vv --config "$D" tools
expect "  ENABLE_CLAUDEAI_MCP_SERVERS=0 does not" 0 --out "mcp__demo__echo" \
  --no-err "[mcphost.claudeai] loaded"
mkdir -p "$XDG_CONFIG_HOME/mcphost"
echo '{"claudeAiConnectors": true}' >"$XDG_CONFIG_HOME/mcphost/settings.json"
run -vv --config "$D" tools
expect "  the setting claudeAiConnectors does" 0 --out "mcp__demo__echo" \
  --err "[mcphost.claudeai] loaded $IMPLREAL/claudeai.so"
rm "$XDG_CONFIG_HOME/mcphost/settings.json"
# A note answers only while nothing its stub's code reads is there: the
# bundle store present, the stub's own code is asked (and the
# implementation lists the bundles).
STORE="${XDG_DATA_HOME:-$HOME/.local/share}/mcphost/bundles"
mkdir -p "$STORE"
run -vv --config "$D" tools
expect "a bundle store opens the bundle plugin's implementation" 0 \
  --out "mcp__demo__echo" \
  --err "[mcphost.feature.mcpb] loaded $IMPLREAL/feature-mcpb.so"
rmdir "$STORE"

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
check "  with no ICU" test "$(loads libicu)" = 0
check "non-ASCII text loads no libcurl" test "$(loads libcurl)" = 0

# Non-ASCII text already in NFKC with nothing to remove (accented
# letters, Japanese, Russian, Hindi, Hebrew points, emoji) is cleared by
# the Unicode tables (host/safety/unicode_quick.h) without normalizing;
# text that needs normalizing is normalized by the same tables. Neither
# maps ICU.
INTL="h=$HOSTILE --mode intl-names"
run_traced --server "$INTL" tools
expect "tools lists a server's non-ASCII names and descriptions" 0 \
  --out 'original name: "café"' --out "日本語のツールです。" \
  --out 'original name: "नमस्ते"' --out "हिन्दी שָׁלוֹם" --out "😀 ❤️ 👍🏽"
check "  names already in NFKC load no ICU" test "$(loads libicu)" = 0
CLEAN="日本語 café Привет नमस्ते"
run_traced --server "$INTL" --sanitize=full call h/echo message="$CLEAN"
expect "a call of that server sanitizes its result" 0 --out "Echo: $CLEAN"
check "  text already in NFKC loads no ICU" test "$(loads libicu)" = 0
run_traced --server "$INTL" --sanitize=full call h/echo message="ﬁle café"
expect "a ligature is normalized" 0 --out "Echo: file café"
check "  with no ICU" test "$(loads libicu)" = 0
run_traced --server "$INTL" --sanitize=full call h/echo \
  message="$(printf 'e\xcc\x81t\xc3\xa9')"
expect "a combining mark is composed" 0 --out "Echo: été"
check "  with no ICU" test "$(loads libicu)" = 0

# A server whose tool names need NFKC (fullwidth letters, a ligature, a
# combining accent) and hostile ones (zero-width, bidi, private use):
# listed, and a batch of that server with its result normalized, with no
# ICU mapped.
NFKC="h=$HOSTILE --mode nfkc-names --mode weird-names"
run_traced --server "$NFKC" tools
expect "tools normalizes names that need NFKC" 0 \
  --out "mcp__h__full" --out "mcp__h__file" --out 'original name: "café"' \
  --out "mcp__h__zerowidth"
check "  with no ICU" test "$(loads libicu)" = 0
maps_no_heavy "tools of names that need NFKC"
run_traced_input '{"id":1,"call":"mcp__h__echo","arguments":{"message":"ｆｕｌｌ"}}' \
  --server "$NFKC" --sanitize=full batch
expect "batch against that server sanitizes its result" 0 \
  --out '"text":"Echo: full"'
check "  with no ICU" test "$(loads libicu)" = 0

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

# The OAuth provider is asked for the server's Authorization value at
# connect: with no stored credential and no "oauth" settings its front
# (impl/feature-oauth.so) answers, and the rest of it, which links
# libcurl and OpenSSL, is not opened (plugins/oauth/front.c).
check "  the OAuth plugin's flows are not opened for a server with no \
credential" test "$(loads feature-oauth-flows)" = 0
run_traced -vv --config "$H" call mcp__t__echo_headers
expect "call against the http server works" 0 \
  --no-err "feature-oauth-flows.so"
check "  and opens no OAuth flows" test "$(loads feature-oauth-flows)" = 0
H2="$TMP/http-oauth.json"
config_file "$H2" "{\"t\": {\"type\": \"http\", \"oauth\": {\"scopes\": \"x\"},
  \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\"}}"
run_traced -vv --config "$H2" tools
expect "a server with \"oauth\" settings opens them" 0 \
  --out "mcp__t__echo_headers" \
  --err "[mcphost.oauth] loaded $IMPLREAL/feature-oauth-flows.so"

# A ws server: its transport maps no libcurl, and nor does OAuth.
if [ -d "$INTEROP/node_modules/ws" ]; then
  start_listener node "$SRCDIR/tests/servers/ws_server.mjs" || exit 1
  W="$TMP/ws.json"
  config_file "$W" "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$LISTEN_PORT/mcp\"}}"
  run_traced --config "$W" tools
  expect "tools over ws works" 0 --out "mcp__w__echo"
  maps_no_heavy_but_ws "tools over ws"
  run_traced --config "$W" call w/echo message=hi
  expect "a call over ws works" 0 --out "hi"
  maps_no_heavy_but_ws "call over ws"
fi

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

# The bundle plugin: libarchive and libcurl are in mcpb-tools.so, opened
# by the bundle commands that need them (libcurl by a download only),
# OpenSSL in mcpb-sig.so, which it opens for a signature to check or
# make only; an installed bundle listed as a server maps none of them.
unset MCPHOST_PLUGIN_PATH
FXB="$SRCDIR/bundles/testdata"
run_traced bundle install "$FXB/hello-bin-0.3.0.mcpb" --yes
expect "bundle install works" 0 --out "Installed hello-bin"
check "  and loads libarchive" test "$(loads libarchive)" -ge 1
check "  but no OpenSSL: the bundle is not signed" \
  test "$(loads libcrypto)" = 0
check "  nor libcurl: a file is not downloaded" test "$(loads libcurl)" = 0
run_traced bundle verify "$FXB/hello-node-1.0.0.selfsigned.mcpb"
expect "a signed bundle is verified" 0 --out "self-signed"
check "  with OpenSSL's libcrypto, loaded once" test "$(loads libcrypto)" = 1
run_traced -vv servers
expect "the installed bundle is a server" 0 --out "hello-bin" \
  --err "[mcphost.feature.mcpb] loaded $IMPLREAL/feature-mcpb.so"
check "  listed without libarchive" test "$(loads libarchive)" = 0
check "  nor libcurl" test "$(loads libcurl)" = 0
run_traced bundle list
expect "bundle list works" 0 --out "hello-bin"
check "  without libarchive" test "$(loads libarchive)" = 0
finish
