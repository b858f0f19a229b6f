#!/usr/bin/env bash
# The embedding examples (examples/embed) as a newcomer builds them: the
# tree installed with `cmake --install` into a prefix of its own, call.c,
# loop.c and inproc.c copied from its share/doc/mcphost/examples/embed and
# compiled out of the source tree with `pkg-config --cflags
# --libs libmcphost` only, call.c again through CMake's
# find_package(McpHost) and McpHost::client, and python/call.py through
# ctypes, the library found on the loader's path. Each runs against the
# demo server and answers as `mcphost call` does: the same stdout and exit
# status, case by case; inproc.c lists its in-process server's tools and
# the demo server's, and calls its own. libmcphost.so.1 exports the API
# and nothing else.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH DESTDIR
for tool in cmake pkg-config python3 nm cc; do
  command -v "$tool" >/dev/null || skip_test "$tool is not installed"
done

LIBDIR=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$BUILDDIR/CMakeCache.txt")
LIBDIR=${LIBDIR:-lib}
STRICT="-std=c11 -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Werror"
# The sanitizer build's library needs its runtime first in the program:
# the C examples are built with it; Python, which cannot load it, runs
# only against the plain build.
PY="python3 $TMP/embed/python/call.py" # the copy made below
if grep -q '^MCPHOST_SANITIZE:BOOL=ON' "$BUILDDIR/CMakeCache.txt"; then
  STRICT="$STRICT -fsanitize=address,undefined"
  PY=
fi

P="$TMP/prefix"
run_cmd cmake --install "$BUILDDIR" --prefix "$P"
expect "cmake --install puts the library into a prefix" 0
run_cmd readelf -d "$P/$LIBDIR/libmcphost.so.1"
expect "libmcphost.so.1 has its SONAME" 0 --out "[libmcphost.so.1]"
syms=$(nm -D --defined-only "$P/$LIBDIR/libmcphost.so.1" | awk '{print $3}' |
       grep -v -e '^mcphost_[a-z_]*@@MCPHOST_1\.0$' -e '^MCPHOST_1\.0$')
if [ -z "$syms" ]; then ok "the library exports mcphost_* (MCPHOST_1.0) only"
else RC=1; bad "the library exports mcphost_* (MCPHOST_1.0) only" "$syms"; fi

export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
E="$TMP/embed"
# The copies the prefix holds, as a newcomer finds them.
cp -r "$P/share/doc/mcphost/examples/embed" "$E"
for x in call loop inproc; do
  # shellcheck disable=SC2046,SC2086
  run_cmd cc $STRICT "$E/$x.c" $(pkg-config --cflags --libs libmcphost) \
    -o "$E/$x"
  expect "examples/embed/$x.c builds with pkg-config --cflags --libs libmcphost alone" 0
done
mkdir -p "$E/cm"
cat >"$E/cm/CMakeLists.txt" <<EOF2
cmake_minimum_required(VERSION 3.16)
project(embed C)
find_package(McpHost 2 QUIET)
if(McpHost_FOUND)
  message(FATAL_ERROR "McpHost 2 found")
endif()
find_package(McpHost 1.0 REQUIRED)
add_executable(call "$E/call.c")
target_link_libraries(call PRIVATE McpHost::client)
EOF2
run_cmd cmake -S "$E/cm" -B "$E/cm/build" -DCMAKE_PREFIX_PATH="$P" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_C_FLAGS="$STRICT"
expect "find_package(McpHost 1.0) finds the prefix's package (and not 2)" 0
run_cmd cmake --build "$E/cm/build"
expect "call.c builds with McpHost::client" 0

# The library of the prefix, where the loader looks (the programs carry
# no path to it).
export LD_LIBRARY_PATH="$P/$LIBDIR"
CFG="$TMP/demo.json"
config_file "$CFG" "{\"demo\": {\"command\": \"$DEMO\"}}"

# same NAME REF [JSON]: mcphost call, call, loop, call.py and the CMake
# build of call say the same, exit with the same status.
same() {
  local name=$1 want_out want_rc prog why=()
  shift
  "$MCPHOST" --strict-mcp-config --mcp-config "$CFG" call "$@" \
    >"$TMP/want" 2>"$TMP/err" </dev/null
  want_rc=$?
  for prog in "$E/call" "$E/loop" "$E/cm/build/call" ${PY:+"$PY"}; do
    # shellcheck disable=SC2086
    $prog "$CFG" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    RC=$?
    [ "$RC" -eq "$want_rc" ] || why+=("$prog: exit $RC, mcphost call $want_rc")
    cmp -s "$TMP/want" "$TMP/out" ||
      why+=("$prog: stdout \"$(head -c 300 "$TMP/out")\", mcphost call \"$(head -c 300 "$TMP/want")\"")
  done
  if [ ${#why[@]} -eq 0 ]; then ok "$name (exit $want_rc)"
  else bad "$name" "${why[@]}"; fi
}

same "a call's text" demo/echo '{"message": "hello"}'
same "an mcp__ name, a result of two lines" mcp__demo__echo \
  '{"message": "two\nlines"}'
same "a tool that reports an error" demo/fail
same "a tool that does not exist" demo/nope
same "a server that does not exist" demx/echo
same "arguments the tool's schema refuses" demo/add '{"a": 1}'

BAD="$TMP/bad.json"
config_file "$BAD" '{"demo": {"command": 5}}'
for prog in "$E/call" "$E/loop" ${PY:+"$PY"}; do
  # shellcheck disable=SC2086
  $prog "$BAD" demo/echo >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
  expect "${prog##*/}: a bad configuration is a usage error naming the field" 2 \
    --err '"command" must be a non-empty string'
done

# inproc.c: its server "calc" alone, then beside the demo server of a
# --config file, whose tools it lists as `mcphost tools` does (SERVER/TOOL
# for mcp__SERVER__TOOL); the call of calc/add prints 5 either way.
# inproc_prints NAME WANT [ARGS]: exit 0, stdout exactly WANT.
inproc_prints() {
  local name=$1 want=$2
  shift 2
  run_cmd "$E/inproc" "$@"
  if [ "$RC" -eq 0 ] && [ "$OUT" = "$want" ]; then ok "$name"
  else bad "$name" "wanted exit 0 and stdout: $want"; fi
}
inproc_prints "inproc.c: its in-process server's tool, and 2 + 3" \
  "$(printf 'calc/add\n5')"
demo_tools=$("$MCPHOST" --strict-mcp-config --mcp-config "$CFG" tools |
  sed -n 's|^mcp__demo__|demo/|p')
inproc_prints "inproc.c --config: calc's tool, the demo server's, then 5" \
  "$(printf 'calc/add\n%s\n5' "$demo_tools")" --config "$CFG"
run_cmd "$E/inproc" --config "$BAD"
expect "inproc.c --config: a bad file is refused naming the field" 1 \
  --err '"command" must be a non-empty string'

# loop.c cancels the call when a line comes on its stdin, in its own
# poll() loop beside the library's descriptor: mcphost call's Ctrl-C.
echo stop | "$E/loop" "$CFG" demo/slow '{"steps": 1, "delay_ms": 60000}' \
  >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "loop.c: a line on stdin cancels the call it drives (130)" 130 \
  --err "interrupted"
finish
