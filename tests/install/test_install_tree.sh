#!/usr/bin/env bash
# The install, as a third party gets it (issue 20): `cmake --install` and
# `make install` (with DESTDIR) lay out exactly the expected tree; the SDK
# is found by pkg-config and find_package(McpHostSDK) from a clean
# directory; the example plugins (examples/plugins: tcp and audit with
# CMake, loopback with one cc line) build from the installed tree alone,
# load with --plugin-dir and work end to end; and the installed host, moved
# elsewhere, still finds its plugins and says where it looks.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH DESTDIR
for tool in cmake pkg-config python3 nm make; do
  command -v "$tool" >/dev/null || skip_test "$tool is not installed"
done

# step NAME COMMAND...: passes when the command succeeds; sets RC, OUT and
# ERR as run does.
step() {
  local name=$1
  shift
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
  if [ "$RC" -eq 0 ]; then ok "$name"; else bad "$name" "command failed: $*"; fi
}

# verdict NAME TEXT: passes when TEXT (what was wrong) is empty.
verdict() {
  RC=0; : >"$TMP/out"; : >"$TMP/err"
  if [ -z "$2" ]; then ok "$1"; else bad "$1" "$2"; fi
}

LIBDIR=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$BUILDDIR/CMakeCache.txt")
LIBDIR=${LIBDIR:-lib}
CONFIG=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILDDIR/CMakeCache.txt" |
         tr '[:upper:]' '[:lower:]')
STRICT="-Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Werror"

# The tree an install must hold, file by file, sorted. What is installed
# by glob (the documents, the manual pages) is what the source tree holds.
expected_tree() {
  local f
  {
    echo bin/mcphost
    for f in abi auth client command configuration feature host mcphost \
             permission plugin rpc secrets server_source transport ui; do
      echo "include/mcphost/$f.h"
    done
    for f in event_queue pass version; do
      echo "include/mcphost/helpers/$f.h"
    done
    for f in McpHostAddPlugin McpHostSDKConfig McpHostSDKConfigVersion \
             McpHostSDKTargets; do
      echo "$LIBDIR/cmake/McpHostSDK/$f.cmake"
    done
    for f in claudeai feature-channels feature-elicitation feature-mcpb \
             feature-oauth feature-oauth-flows feature-sampling ide \
             mcpb-sig mcpb-tools transport-http transport-sse transport-ws; do
      echo "$LIBDIR/mcphost/impl/$f.so"
    done
    for f in claudeai feature-channels feature-elicitation feature-mcpb \
             feature-oauth feature-sampling ide transport-http transport-sse \
             transport-stdio transport-ws; do
      echo "$LIBDIR/mcphost/plugins/$f.so"
    done
    echo "$LIBDIR/pkgconfig/mcphost-sdk.pc"
    echo "$LIBDIR/pkgconfig/libmcphost.pc"
    for f in libmcphost.so libmcphost.so.1 libmcphost.so.1.0.0; do
      echo "$LIBDIR/$f"
    done
    for f in McpHostConfig McpHostConfigVersion McpHostTargets \
             "McpHostTargets-$CONFIG"; do
      echo "$LIBDIR/cmake/McpHost/$f.cmake"
    done
    echo share/mcphost/plugin.map
    echo share/bash-completion/completions/mcphost
    echo share/zsh/site-functions/_mcphost
    echo share/fish/vendor_completions.d/mcphost.fish
    echo share/doc/mcphost/README.md
    echo share/doc/mcphost/sdk/README.md
    for f in audit/CMakeLists.txt audit/README.md audit/audit.c \
             loopback/README.md loopback/loopback.c \
             tcp/CMakeLists.txt tcp/README.md tcp/tcp.c; do
      echo "share/doc/mcphost/examples/plugins/$f"
    done
    for f in call.c inproc.c loop.c python/call.py python/mcphost.py; do
      echo "share/doc/mcphost/examples/embed/$f"
    done
    for f in "$SRCDIR"/docs/*.md; do
      echo "share/doc/mcphost/docs/${f##*/}"
    done
    for f in "$SRCDIR"/docs/man/*.1; do
      [ -e "$f" ] && echo "share/man/man1/${f##*/}"
    done
  } | LC_ALL=C sort
}

# same_tree NAME ROOT: the files (and links) under ROOT are the expected
# ones, none missing and none more.
same_tree() {
  local diff
  diff=$(diff <(expected_tree) \
              <(cd "$2" && find . \( -type f -o -type l \) | sed 's#^\./##' |
                  LC_ALL=C sort) | grep '^[<>]' |
         sed -e 's/^</missing:/' -e 's/^>/not expected:/')
  verdict "$1" "$diff"
}

# only_entry_exported NAME SO: the dynamic symbol table defines
# mcph_plugin_entry and nothing else.
only_entry_exported() {
  local syms
  syms=$(nm -D --defined-only "$2" 2>&1 | awk '{print $NF}' | tr '\n' ' ')
  verdict "$1" "$([ "$syms" = "mcph_plugin_entry " ] || echo "exports: $syms")"
}

# ---- cmake --install into a prefix ----

P="$TMP/prefix"
step "cmake --install BUILD --prefix P installs without root" \
  cmake --install "$BUILDDIR" --prefix "$P"
same_tree "the prefix holds exactly the expected files" "$P"
step "the installed headers are the SDK's" \
  diff -r "$SRCDIR/sdk/include/mcphost" "$P/include/mcphost"
verdict "the installed host and plugins are executable, the rest is not" \
  "$(cd "$P" && find . -type f -perm -u+x | sed 's#^\./##' |
     grep -v -e '^bin/mcphost$' -e "^$LIBDIR/mcphost/.*\.so$" \
       -e "^$LIBDIR/libmcphost\.so\.1\.0\.0$")"

for sh in bash zsh fish; do
  case $sh in
    bash) f=bash-completion/completions/mcphost ;;
    zsh) f=zsh/site-functions/_mcphost ;;
    fish) f=fish/vendor_completions.d/mcphost.fish ;;
  esac
  step "the installed $sh completion is what mcphost completion $sh prints" \
    cmp -s <("$P/bin/mcphost" completion $sh) "$P/share/$f"
done

# The SDK's files must not lead back to the trees they were made in.
verdict "the installed SDK files name no path in the source or build tree" \
  "$(grep -rlF -e "$SRCDIR" -e "$BUILDDIR" "$P/include" "$P/share" \
       "$P/$LIBDIR/pkgconfig" "$P/$LIBDIR/cmake")"

# ---- make install, staged with DESTDIR ----

S="$TMP/stage"
step "make install PREFIX=/opt/mcphost DESTDIR=STAGE installs the build" \
  make -C "$SRCDIR" install BUILD="$BUILDDIR" PREFIX=/opt/mcphost \
    DESTDIR="$S" JOBS=1
same_tree "DESTDIR/PREFIX holds exactly the expected files" "$S/opt/mcphost"
verdict "nothing is installed outside DESTDIR/PREFIX" \
  "$(cd "$S" && find . -mindepth 1 -maxdepth 2 | grep -v -x -e ./opt -e ./opt/mcphost)"
MCPHOST="$S/opt/mcphost/bin/mcphost"
run --version -v
expect "the staged host runs where it was staged, finding its plugins there" 0 \
  --out "plugin dir (built-in): $(realpath "$S")/opt/mcphost/$LIBDIR/mcphost/plugins"

# ---- pkg-config and find_package from a clean directory ----

export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
FLAGS=$(pkg-config --cflags --libs mcphost-sdk 2>"$TMP/err")
INC=$(printf '%s\n' $FLAGS | sed -n 's/^-I//p')
MAP=$(printf '%s\n' $FLAGS | sed -n 's/^-Wl,--version-script=//p')
why=()
[ -f "$INC/mcphost/mcphost.h" ] || why+=("-I$INC has no mcphost/mcphost.h")
[ "$(realpath -m "$INC")" = "$(realpath "$P/include")" ] || why+=("-I$INC is not P/include")
cmp -s "$MAP" "$SRCDIR/cmake/plugin.map" || why+=("--version-script=$MAP is not plugin.map")
for f in -fvisibility=hidden -Wl,-z,defs; do
  [[ " $FLAGS " == *" $f "* ]] || why+=("no $f")
done
verdict "pkg-config --cflags --libs mcphost-sdk: the prefix's headers, hidden visibility, the version script, -z defs" \
  "$(printf '%s\n' "${why[@]}")"
ABI=$(sed -n 's/^#define MCPH_ABI_MAJOR \([0-9]*\)$/\1/p' "$SRCDIR/sdk/include/mcphost/abi.h").$(sed -n 's/^#define MCPH_ABI_MINOR \([0-9]*\)$/\1/p' "$SRCDIR/sdk/include/mcphost/abi.h")
verdict "mcphost-sdk's version is the plugin ABI's ($ABI)" \
  "$(v=$(pkg-config --modversion mcphost-sdk); [ "$v" = "$ABI" ] || echo "version $v")"
verdict "mcphost-sdk's plugindir is the prefix's plugin directory" \
  "$(d=$(pkg-config --variable=plugindir mcphost-sdk)
     [ "$(realpath -m "$d")" = "$(realpath "$P/$LIBDIR/mcphost/plugins")" ] || echo "plugindir $d")"

mkdir -p "$TMP/fp"
cat >"$TMP/fp/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(fp C)
find_package(McpHostSDK 2 QUIET)
if(McpHostSDK_FOUND)
  message(FATAL_ERROR "McpHostSDK 2 found: ${McpHostSDK_VERSION}")
endif()
find_package(McpHostSDK 1.0 REQUIRED)
foreach(t McpHostSDK::sdk McpHostSDK::plugin)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "no target ${t}")
  endif()
endforeach()
if(NOT COMMAND mcphost_add_plugin)
  message(FATAL_ERROR "no mcphost_add_plugin")
endif()
message(STATUS "found ${McpHostSDK_DIR} ${McpHostSDK_VERSION} ${MCPHOST_SDK_PLUGIN_DIR}")
EOF
step "find_package(McpHostSDK 1.0) from a clean directory: the targets and mcphost_add_plugin; McpHostSDK 2 is not found" \
  cmake -S "$TMP/fp" -B "$TMP/fp/build" -DCMAKE_PREFIX_PATH="$P" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
expect "find_package finds the prefix's package, version $ABI" 0 \
  --out "found $P/$LIBDIR/cmake/McpHostSDK $ABI $P/$LIBDIR/mcphost/plugins"

# ---- the examples, from the installed tree alone ----

# Copies of what the prefix holds, built in directories of their own.
E="$TMP/examples"
mkdir -p "$E"
cp -r "$P/share/doc/mcphost/examples/plugins/." "$E/"
for x in tcp audit; do
  step "examples/plugins/$x configures against the installed SDK" \
    cmake -S "$E/$x" -B "$E/$x/build" -DCMAKE_PREFIX_PATH="$P" \
      -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$STRICT" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
  step "examples/plugins/$x builds warning-free" cmake --build "$E/$x/build"
  only_entry_exported "$x.so exports only mcph_plugin_entry" \
    "$E/$x/build/$x.so"
done
# loopback/README.md's line, as written there.
step "examples/plugins/loopback builds with one cc line and pkg-config" \
  bash -c "cd '$E/loopback' && $CC \$(pkg-config --cflags mcphost-sdk libcjson) -std=c11 -O2 $STRICT -shared -fPIC -o loopback.so loopback.c \$(pkg-config --libs mcphost-sdk libcjson)"
only_entry_exported "loopback.so exports only mcph_plugin_entry" \
  "$E/loopback/loopback.so"
case $TMP in
  "$SRCDIR"/*) ;; # not checkable: every path is inside the source tree
  *) verdict "the examples' builds use no path into the source or build tree" \
       "$(grep -rlF -e "$SRCDIR" -e "$BUILDDIR" "$E")" ;;
esac
unset PKG_CONFIG_PATH

# ---- the examples, used by the installed host ----

MCPHOST="$P/bin/mcphost"
TCP="$E/tcp/build" AUDIT="$E/audit/build" LOOP="$E/loopback"

# A stdio server (the demo server) behind a loopback TCP socket.
start_listener python3 -u "$(dirname "$0")/tcp_server.py" "$DEMO" ||
  skip_test "the TCP server did not start"
PORT=$LISTEN_PORT TCP_LOG=$LISTEN_LOG
config_file "$TMP/tcp.json" \
  "{\"calc\": {\"type\": \"tcp\", \"host\": \"127.0.0.1\", \"port\": $PORT}}"

run --plugin-dir "$TCP" --config "$TMP/tcp.json" tools
expect "tools through the tcp transport" 0 \
  --out mcp__calc__echo --out mcp__calc__add
run --plugin-dir "$TCP" --config "$TMP/tcp.json" call mcp__calc__add a=2 b=3
expect "call through the tcp transport" 0 --out 5
run --plugin-dir "$TCP" --config "$TMP/tcp.json" call mcp__calc__echo message=hi
expect "a second connection through the tcp transport" 0 --out "Echo: hi"
verdict "each command was one TCP connection" \
  "$(n=$(grep -c '^connection' "$TCP_LOG"); [ "$n" = 3 ] || echo "$n connections")"
run --plugin-dir "$TCP" --json plugins
expect "plugins --json shows the tcp example loaded and serving tcp" 0 \
  --jq '[.[] | select(.id == "com.example.tcp")] | length == 1 and .[0].status == "loaded" and .[0].transports == [{"type": "tcp", "active": true}]'

config_file "$TMP/badport.json" '{"calc": {"type": "tcp", "host": "127.0.0.1", "port": "x"}}'
run --plugin-dir "$TCP" --config "$TMP/badport.json" call mcp__calc__add a=1 b=1
expect "a bad tcp port fails the server with a message naming the field" 3 \
  --err "server \"calc\": \"port\" must be an integer from 1 to 65535"
# A port that was just free: nobody listens there.
FREE=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
config_file "$TMP/refused.json" \
  "{\"calc\": {\"type\": \"tcp\", \"host\": \"127.0.0.1\", \"port\": $FREE}}"
run --plugin-dir "$TCP" --config "$TMP/refused.json" call mcp__calc__add a=1 b=1
expect "a refused tcp connection fails the server, naming the address" 3 \
  --err "127.0.0.1:$FREE: cannot connect: Connection refused"

# The audit plugin: a line per permission question, then it abstains.
mkdir -p "$XDG_CONFIG_HOME/mcphost"
echo '{"permissions": {"ask": ["mcp__calc__add", "mcp__calc__echo"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
LOG="$TMP/audit.jsonl"
run --plugin-dir "$TCP" --plugin-dir "$AUDIT" --audit-log "$LOG" \
  --config "$TMP/tcp.json" call mcp__calc__add a=1 b=2
expect "the audit plugin abstains: with nobody else to decide, the call is refused" 8 \
  --err "nobody can answer" --no-out 3
MCPHOST_OPTION_AUDIT_LOG="$LOG" run --plugin-dir "$TCP" --plugin-dir "$AUDIT" \
  --config "$TMP/tcp.json" call mcp__calc__echo message=x
expect "the audit file may come from MCPHOST_OPTION_AUDIT_LOG" 8 --err "nobody can answer"
run --plugin-dir "$TCP" --plugin-dir "$AUDIT" --audit-log "$LOG" \
  --config "$TMP/tcp.json" --allow mcp__calc__add call mcp__calc__add a=1 b=2
expect "--allow decides before any plugin is asked" 0 --out 3
OUT=$(jq -s . "$LOG" 2>&1); RC=$?
expect "the audit file has one JSON line per question: time, server, tool" 0 \
  --jq 'length == 2' \
  --jq 'map(.server) == ["calc", "calc"]' \
  --jq 'map(.tool) == ["mcp__calc__add", "mcp__calc__echo"]' \
  --jq 'all(.time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"))'
run --plugin-dir "$AUDIT" --help
expect "--help lists the audit plugin's option" 0 --out "--audit-log=FILE"
rm "$XDG_CONFIG_HOME/mcphost/settings.json"

config_file "$TMP/lb.json" '{"lb": {"type": "loopback"}}'
run --plugin-dir "$LOOP" --config "$TMP/lb.json" call mcp__lb__reverse 'text=añb✓'
expect "the cc-built loopback plugin serves its tool" 0 --out "✓bña"

# The examples' own install rule: the host's built-in directory.
step "cmake --install of the tcp example puts it into the host's plugin directory" \
  cmake --install "$TCP"
run --config "$TMP/tcp.json" call mcp__calc__add a=4 b=5
expect "the installed host then serves tcp without --plugin-dir" 0 --out 9

# ---- the installed host, moved ----

M="$TMP/moved/elsewhere"
mkdir -p "$TMP/moved"
mv "$P" "$M"
RM=$(realpath "$M")
MCPHOST="$M/bin/mcphost"
run --version
verdict "--version prints one line: mcphost VERSION (plugin ABI $ABI)" \
  "$([[ $OUT =~ ^mcphost\ [0-9]+\.[0-9]+\.[0-9]+\ \(plugin\ ABI\ ${ABI//./\\.}\)$ ]] || echo "printed: $OUT")"
VERSION=${OUT#mcphost }; VERSION=${VERSION%% *}
MCPHOST_PLUGIN_PATH="$AUDIT" run --version -v --plugin-dir "$LOOP"
# The sanitizer's Unicode tables and the ICU they came from.
UNI=$(grep -x 'Unicode [0-9.]* (tables from ICU [0-9.]*)' <<<"$OUT")
want="mcphost $VERSION
plugin ABI $ABI
$UNI
plugin dir (--plugin-dir): $LOOP
plugin dir (MCPHOST_PLUGIN_PATH): $AUDIT
plugin dir (built-in): $RM/$LIBDIR/mcphost/plugins"
verdict "--version -v: the version, the ABI, the Unicode version and the plugin dirs in search order, one per line" \
  "$([ "$OUT" = "$want" ] || printf 'printed:\n%s\nwanted:\n%s' "$OUT" "$want")"
run -v --version
expect "-v before --version too" 0 --out "plugin dir (built-in): $RM/$LIBDIR/mcphost/plugins"

config_file "$TMP/demo.json" "{\"demo\": {\"command\": \"$DEMO\"}}"
run --config "$TMP/demo.json" call mcp__demo__echo message=moved
expect "the moved host finds its stdio plugin" 0 --out "Echo: moved"
run --json plugins
expect "the moved host's built-in plugins are the moved ones" 0 \
  --jq 'map(select(.id == "mcphost.transport.stdio"))[0] | .status == "loaded" and .file == "'"$RM/$LIBDIR"'/mcphost/plugins/transport-stdio.so"'
run --config "$TMP/tcp.json" call mcp__calc__add a=6 b=7
expect "the moved host finds the tcp plugin installed into it" 0 --out 13
# The http transport's code is in impl/, opened at its first server: a
# refused connection (not "cannot load") shows it was found.
run --url http://127.0.0.1:"$FREE"/mcp tools
expect "the moved host loads the http transport's implementation on first use" 3 \
  --err "cannot be reached" --no-err "cannot load"
export PKG_CONFIG_PATH="$M/$LIBDIR/pkgconfig"
verdict "the moved mcphost-sdk.pc points into the moved prefix" \
  "$(i=$(pkg-config --variable=includedir mcphost-sdk)
     [ "$(realpath -m "$i")" = "$RM/include" ] || echo "includedir $i")"
unset PKG_CONFIG_PATH

finish
