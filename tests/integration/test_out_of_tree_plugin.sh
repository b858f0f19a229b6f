#!/usr/bin/env bash
# The SDK as a third party gets it: `cmake --install` lays out the host, the
# headers, the pkg-config and CMake package files and the version script;
# the example plugin (examples/plugin-echo) builds against that install
# alone, with CMake and with make + pkg-config; it exports only its entry;
# and the installed host loads it, calls its tool, and still finds its own
# installed stdio plugin.
. "$(dirname "$0")/lib.sh"
unset MCPHOST_PLUGIN_PATH PKG_CONFIG_PATH

# step NAME COMMAND...: like check, but keeps the command's output for the
# report when it fails.
step() {
  local name=$1
  shift
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  if [ "$RC" -eq 0 ]; then ok "$name"; else bad "$name" "command failed: $*"; fi
}

# only_entry_exported NAME SO: the shared object's dynamic symbol table
# defines mcph_plugin_entry and nothing else.
only_entry_exported() {
  local syms
  syms=$(nm -D --defined-only "$2" 2>&1 | awk '{print $NF}' | sort | tr '\n' ' ')
  RC=0; : >"$TMP/out"; : >"$TMP/err"
  if [ "$syms" = "mcph_plugin_entry " ]; then ok "$1"; else bad "$1" "exports: $syms"; fi
}

PREFIX="$TMP/prefix"
LIBDIR=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$BUILDDIR/CMakeCache.txt")
LIBDIR=${LIBDIR:-lib}
STRICT="-Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Werror"

# ---- the install ----

step "cmake --install puts the build into a fresh prefix" \
  cmake --install "$BUILDDIR" --prefix "$PREFIX"

missing=()
for f in bin/mcphost \
         include/mcphost/mcphost.h include/mcphost/abi.h include/mcphost/host.h \
         include/mcphost/plugin.h include/mcphost/transport.h \
         "$LIBDIR/pkgconfig/mcphost-sdk.pc" \
         "$LIBDIR/cmake/mcphost-sdk/mcphost-sdkConfig.cmake" \
         "$LIBDIR/cmake/mcphost-sdk/mcphost-sdkConfigVersion.cmake" \
         "$LIBDIR/cmake/mcphost-sdk/mcphost-sdkTargets.cmake" \
         share/mcphost/plugin.map \
         "$LIBDIR/mcphost/plugins/transport-stdio.so"; do
  [ -e "$PREFIX/$f" ] || missing+=("missing: $f")
done
RC=${#missing[@]}
if [ "$RC" -eq 0 ]; then
  ok "the install holds the host, the SDK headers, pkg-config and CMake files, the version script and the stdio plugin"
else
  bad "the install holds the host, the SDK headers, pkg-config and CMake files, the version script and the stdio plugin" "${missing[@]}"
fi

step "the installed headers are the SDK headers" \
  diff -r "$SRCDIR/sdk/include/mcphost" "$PREFIX/include/mcphost"

# The SDK files must not lead back to the trees they were made in.
leaks=$(grep -rlF -e "$SRCDIR" -e "$BUILDDIR" "$PREFIX/include" "$PREFIX/share" \
          "$PREFIX/$LIBDIR/pkgconfig" "$PREFIX/$LIBDIR/cmake" 2>/dev/null)
RC=0; : >"$TMP/out"; : >"$TMP/err"
if [ -z "$leaks" ]; then
  ok "the installed SDK files name no path in the source or build tree"
else
  bad "the installed SDK files name no path in the source or build tree" "$leaks"
fi

# The prefix given to `cmake --install` differs from the one the build was
# configured with: the package files must resolve to where they are.
export PKG_CONFIG_PATH="$PREFIX/$LIBDIR/pkgconfig"
PC_INC=$(pkg-config --variable=includedir mcphost-sdk 2>"$TMP/err")
PC_MAP=$(pkg-config --variable=versionscript mcphost-sdk 2>>"$TMP/err")
PC_DIR=$(pkg-config --variable=plugindir mcphost-sdk 2>>"$TMP/err")
RC=0; printf '%s\n%s\n%s\n' "$PC_INC" "$PC_MAP" "$PC_DIR" >"$TMP/out"
if [ -f "$PC_INC/mcphost/mcphost.h" ] && [ -f "$PC_MAP" ] &&
   [ "$(realpath -m "$PC_DIR")" = "$(realpath -m "$PREFIX/$LIBDIR/mcphost/plugins")" ]; then
  ok "mcphost-sdk.pc points into the prefix it was installed to"
else
  bad "mcphost-sdk.pc points into the prefix it was installed to"
fi
unset PKG_CONFIG_PATH

# ---- building the example against the install only ----

# Copies, so that nothing can reach into the source tree by a relative path.
for d in src-cmake src-make; do
  mkdir -p "$TMP/$d"
  cp "$SRCDIR"/examples/plugin-echo/{loopback.c,CMakeLists.txt,Makefile,README.md} "$TMP/$d/"
done

step "the example configures with CMake from the installed package alone" \
  cmake -S "$TMP/src-cmake" -B "$TMP/build-cmake" \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS="$STRICT" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
RC=0; : >"$TMP/err"
grep '^mcphost-sdk_DIR' "$TMP/build-cmake/CMakeCache.txt" >"$TMP/out" 2>&1
if [ "$(sed -n 's/^mcphost-sdk_DIR:PATH=//p' "$TMP/build-cmake/CMakeCache.txt")" = \
     "$PREFIX/$LIBDIR/cmake/mcphost-sdk" ]; then
  ok "find_package(mcphost-sdk) finds the installed package"
else
  bad "find_package(mcphost-sdk) finds the installed package"
fi
step "the example builds with CMake, warning-free" \
  cmake --build "$TMP/build-cmake"

step "the example builds with make and pkg-config, warning-free" \
  env PKG_CONFIG_PATH="$PREFIX/$LIBDIR/pkgconfig" \
    make -C "$TMP/src-make" CC="$CC" CFLAGS="-O2 -g $STRICT"

leaks=$(grep -rlF "$SRCDIR" "$TMP/build-cmake" 2>/dev/null)
RC=0; : >"$TMP/out"; : >"$TMP/err"
case $TMP in
  "$SRCDIR"/*) ok "the CMake build of the example uses no path into the source tree (not checkable: TMP is inside it)" ;;
  *) if [ -z "$leaks" ]; then
       ok "the CMake build of the example uses no path into the source tree"
     else
       bad "the CMake build of the example uses no path into the source tree" "$leaks"
     fi ;;
esac

only_entry_exported "the CMake-built loopback.so exports only mcph_plugin_entry" \
  "$TMP/build-cmake/loopback.so"
only_entry_exported "the make-built loopback.so exports only mcph_plugin_entry" \
  "$TMP/src-make/loopback.so"

# ---- the installed host with the example ----

MCPHOST="$PREFIX/bin/mcphost"
RPREFIX=$(realpath "$PREFIX")
LB="$TMP/lb.json"
config_file "$LB" '{"lb": {"type": "loopback"}}'

run --plugin-dir "$TMP/build-cmake" --config "$LB" call mcp__lb__reverse text=abc
expect "the installed host calls the CMake-built plugin's tool" 0 --out cba --no-out abc
run --plugin-dir "$TMP/src-make" --config "$LB" call mcp__lb__reverse text=abc
expect "the installed host calls the make-built plugin's tool" 0 --out cba --no-out abc

run --plugin-dir "$TMP/src-make" --config "$LB" call mcp__lb__reverse 'text=añb✓'
expect "reverse keeps multi-byte characters whole" 0 --out "✓bña"

run --plugin-dir "$TMP/src-make" --json plugins
expect "plugins --json shows the example loaded and serving loopback" 0 \
  --jq '[.[] | select(.id == "com.example.loopback")] | length == 1 and .[0].status == "loaded" and .[0].version == "1.0.0" and .[0].transports == [{"type": "loopback", "active": true}]'

config_file "$TMP/lat.json" '{"lb": {"type": "loopback", "latencyMs": "soon"}}'
run --plugin-dir "$TMP/src-make" --config "$TMP/lat.json" call mcp__lb__reverse text=abc
expect "a bad loopback setting fails that server with a message naming the field" 3 \
  --err '"latencyMs" must be an integer'

# ---- the installed host on its own ----

D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"
run --config "$D" call mcp__demo__echo message=installed
expect "the installed host finds its installed stdio plugin by itself" 0 \
  --out "Echo: installed"
run --json plugins
expect "the installed host's built-in plugin directory is the installed one" 0 \
  --jq 'map(select(.id == "mcphost.transport.stdio"))[0] | .status == "loaded" and .file == "'"$RPREFIX/$LIBDIR"'/mcphost/plugins/transport-stdio.so"'

config_file "$TMP/both.json" "{\"demo\": {\"command\": \"$DEMO\"}, \"lb\": {\"type\": \"loopback\"}}"
run --plugin-dir "$TMP/src-make" --config "$TMP/both.json" tools
expect "an out-of-tree plugin and the built-in one serve side by side" 0 \
  --out mcp__lb__reverse --out mcp__demo__echo

# The example's own install rule targets the host's built-in directory.
step "cmake --install of the example puts it into the host's plugin directory" \
  cmake --install "$TMP/build-cmake"
run --config "$LB" call mcp__lb__reverse text=xyz
expect "the installed host then finds the example without --plugin-dir" 0 --out zyx

finish
