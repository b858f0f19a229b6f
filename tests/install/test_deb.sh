#!/usr/bin/env bash
# The Debian packages (issue 30): `make deb` builds them from debian/ with
# Debian's own tools and lintian passes them; extracted into a fresh root
# (dpkg -x, no root needed), the installed mcphost runs the demo server
# from there, finds every plugin in the multiarch directory, names the
# package of a plugin implementation left out, and the example plugin
# builds against the extracted mcphost-plugin-dev with pkg-config alone.
# libmcphost1 ships the library with a symbols file the build holds it
# to; examples/embed/call.c builds against the extracted libmcphost-dev
# with pkg-config alone and calls the demo server through libmcphost1.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH DESTDIR
[ "${MCPHOST_TEST_SANITIZED:-0}" = 1 ] &&
  skip_test "the packages are built and checked once, by the plain run"
for tool in dpkg-buildpackage dh lintian dpkg-deb dpkg-parsechangelog \
            pkg-config make; do
  command -v "$tool" >/dev/null ||
    skip_test "$tool is not installed (scripts/deps.sh deb installs it)"
done

D="$TMP/deb"
if make -C "$SRCDIR" deb DEB_BUILD="$D" JOBS=2 >"$TMP/make.log" 2>&1; then
  ok "make deb builds the packages and lintian passes them"
else
  bad "make deb builds the packages and lintian passes them" \
    "$(grep -E '^(E|W): |error' "$TMP/make.log" | tail -20)"
  finish
fi

VERSION=$(dpkg-parsechangelog -l "$SRCDIR/debian/changelog" -S Version)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
TRIPLET=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
deb() { echo "$D/${1}_${VERSION}_$ARCH.deb"; }
PACKAGES="mcphost mcphost-plugin-ws mcphost-plugin-mcpb mcphost-plugin-dev
          libmcphost1 libmcphost-dev"
for p in $PACKAGES; do
  check "package $p was built" test -f "$(deb "$p")"
done
# dpkg refuses to install two packages that hold one file.
# shellcheck disable=SC2086
twice=$(for p in $PACKAGES; do dpkg-deb -c "$(deb "$p")"; done |
        awk '$1 !~ /^d/ {print $6}' | sort | uniq -d)
check "no file is in two packages${twice:+: $twice}" test -z "$twice"
files() { dpkg-deb -c "$(deb "$1")" | awk '{print $6}'; }
check "libmcphost1 holds the client library, named by its SONAME" \
  grep -qx "./usr/lib/$TRIPLET/libmcphost.so.1" <<<"$(files libmcphost1)"
check "  in Section libs, Multi-Arch: same" test \
  "$(dpkg-deb -f "$(deb libmcphost1)" Section Multi-Arch | tr '\n' ' ')" = \
  "Section: libs Multi-Arch: same "
check "libmcphost-dev holds client.h, libmcphost.so, libmcphost.pc, McpHost" \
  test "$(files libmcphost-dev | grep -cxE "./usr/include/mcphost/client.h|./usr/lib/$TRIPLET/(libmcphost.so|pkgconfig/libmcphost.pc|cmake/McpHost/McpHostConfig.cmake)")" -eq 4
check "  depends on libmcphost1 of its version, Multi-Arch: same" \
  grep -q "libmcphost1 (= $VERSION)" \
  <<<"$(dpkg-deb -f "$(deb libmcphost-dev)" Depends)"
check "  and is Multi-Arch: same" \
  test "$(dpkg-deb -f "$(deb libmcphost-dev)" Multi-Arch)" = same
check "mcphost-plugin-dev holds the SDK headers but not the client's" \
  bash -c 'grep -q "/mcphost/mcphost.h$" <<<"$1" &&
           ! grep -qE "client\.h|libmcphost|McpHost/" <<<"$1"' _ \
  "$(files mcphost-plugin-dev)"
check "  and depends on no library of mcphost's (a plugin links none)" \
  bash -c '! grep -q libmcphost <<<"$1"' _ \
  "$(dpkg-deb -f "$(deb mcphost-plugin-dev)" Depends)"
check "mcphost, statically linked, does not depend on libmcphost1" \
  bash -c '! grep -q libmcphost <<<"$1"' _ \
  "$(dpkg-deb -f "$(deb mcphost)" Depends)"

# ---- libmcphost1's symbols file ----
# Every symbol the library exports, no more, no less; and the package
# build fails when they differ: debian/rules' rule run again in the
# built tree with one symbol taken out of the file, then with one the
# library does not have, of the version being built (which
# dpkg-gensymbols -c4 alone lets pass).
dpkg-deb -R "$(deb libmcphost1)" "$TMP/lib1"
x=$(nm -D --defined-only "$TMP/lib1/usr/lib/$TRIPLET/libmcphost.so.1" |
    awk '{print $3}' | sed 's/@@*/@/; s/^\([^@]*\)$/\1@\1/' | sort)
check "libmcphost1's symbols file lists what the library exports" \
  test "$(awk '/^ /{print $1}' "$TMP/lib1/DEBIAN/symbols" | sort)" = "$x"
# The version each appeared in: one of the changelog's.
releases=$(dpkg-parsechangelog -l "$SRCDIR/debian/changelog" --all -S Version)
check "  each with a version of debian/changelog" \
  test -z "$(awk '/^ /{print $2}' "$TMP/lib1/DEBIAN/symbols" |
             grep -vxF "$releases")"
B="$D/mcphost"
SYM="$B/debian/libmcphost1.symbols"
cp "$SYM" "$TMP/symbols.orig"
# makeshlibs SED: the rule run again on the file as the package had it,
# edited by the sed script SED.
makeshlibs() {
  cp "$TMP/symbols.orig" "$SYM"
  sed -i "$1" "$SYM"
  run_cmd bash -c 'cd "$1" && debian/rules override_dh_makeshlibs 2>&1' _ "$B"
}
makeshlibs '/^ mcphost_version@/d'
expect "the package build fails on a symbol the file lacks, naming it" 2 \
  --out '+ mcphost_version@MCPHOST_1.0'
makeshlibs '$a\ mcphost_gone@MCPHOST_1.0 0.1.0'
expect "  and on one the library does not export, naming it" 2 \
  --out '-mcphost_gone@MCPHOST_1.0'
makeshlibs ''
expect "  but not on the file as it is" 0

# ---- what each package depends on ----
DEPS=$(dpkg-deb -f "$(deb mcphost)" Depends)
check "mcphost depends on the libraries it opens (libcurl, libcrypto, ICU for elicitation)" \
  grep -q 'libcurl4.*' <<<"$DEPS"
check "  libcrypto's package" grep -q 'libssl' <<<"$DEPS"
check "  ICU's package" grep -q 'libicu[0-9]' <<<"$DEPS"
check "  but not on libwebsockets or libarchive" \
  bash -c '! grep -qE "libwebsockets|libarchive" <<<"$1"' _ "$DEPS"
check "  and recommends the packages split out" \
  grep -q 'mcphost-plugin-ws.*mcphost-plugin-mcpb\|mcphost-plugin-mcpb.*mcphost-plugin-ws' \
  <<<"$(dpkg-deb -f "$(deb mcphost)" Recommends)"
check "mcphost-plugin-ws depends on libwebsockets" \
  grep -q libwebsockets <<<"$(dpkg-deb -f "$(deb mcphost-plugin-ws)" Depends)"
check "mcphost-plugin-mcpb depends on libarchive" \
  grep -q libarchive <<<"$(dpkg-deb -f "$(deb mcphost-plugin-mcpb)" Depends)"

# ---- extracted into a fresh root ----
R="$TMP/root"
for p in $PACKAGES; do
  dpkg -x "$(deb "$p")" "$R"
done
MCPHOST="$R/usr/bin/mcphost"
PLUGINS="$R/usr/lib/$TRIPLET/mcphost/plugins"

run --version
expect "the installed mcphost says the packages' version" 0 \
  --out "mcphost $VERSION "

run --version -v
expect "  and looks for its plugins in the multiarch directory" 0 \
  --out "plugin dir (built-in): $(realpath "$PLUGINS")"

run plugins
n=$(find "$PLUGINS" -name '*.so' | wc -l)
check "  finds every plugin there ($n), each loaded" \
  test "$(grep -c "^loaded .* $(realpath "$PLUGINS")/" <<<"$OUT")" -eq "$n"
check "  and refuses none" bash -c '! grep -q "^refused" <<<"$1"' _ "$OUT"

config_file "$TMP/demo.json" "{\"demo\": {\"command\": \"$DEMO\"}}"
run --config "$TMP/demo.json" tools
expect "it lists the demo server's tools" 0 --out "mcp__demo__echo"
run --config "$TMP/demo.json" call mcp__demo__echo message="from the package"
expect "and calls one" 0 --out "from the package"

for f in bash-completion/completions/mcphost zsh/vendor-completions/_mcphost \
         fish/vendor_completions.d/mcphost.fish; do
  check "completion installed: /usr/share/$f" test -s "$R/usr/share/$f"
done
check "the manual page is installed" test -s "$R/usr/share/man/man1/mcphost.1.gz"
check "the copyright file is installed" \
  test -s "$R/usr/share/doc/mcphost/copyright"

# ---- a plugin built against mcphost-plugin-dev alone ----
export PKG_CONFIG_PATH="$R/usr/lib/$TRIPLET/pkgconfig"
FLAGS=$(pkg-config --cflags --libs mcphost-sdk)
mkdir -p "$TMP/mine"
# shellcheck disable=SC2086
if "$CC" -shared -fPIC -o "$TMP/mine/loopback.so" \
     "$SRCDIR/examples/plugins/loopback/loopback.c" $FLAGS \
     $(pkg-config --cflags --libs libcjson) 2>"$TMP/cc.err"; then
  ok "the example plugin builds with pkg-config's flags alone"
else
  bad "the example plugin builds with pkg-config's flags alone" \
    "$(cat "$TMP/cc.err")"
fi
INC=$(printf '%s\n' $FLAGS | sed -n 's/^-I//p')
check "  whose include directory is the extracted one" \
  test "$(realpath "$INC")" = "$(realpath "$R/usr/include")"
run --plugin-dir "$TMP/mine" plugins
expect "  and the installed mcphost loads it" 0 --out "$TMP/mine/loopback.so"

# ---- a program built against libmcphost-dev alone ----
# What apt installs for libmcphost-dev: it, libmcphost1 and (recommended)
# mcphost, whose plugins the library finds beside itself; not the plugin
# SDK, so client.h must need nothing of it.
R3="$TMP/embed"
for p in libmcphost-dev libmcphost1 mcphost; do
  dpkg -x "$(deb "$p")" "$R3"
done
unset PKG_CONFIG_PATH
export PKG_CONFIG_SYSROOT_DIR="$R3"
export PKG_CONFIG_LIBDIR="$R3/usr/lib/$TRIPLET/pkgconfig"
FLAGS=$(pkg-config --cflags --libs libmcphost)
# shellcheck disable=SC2086
if "$CC" -std=c11 -Wall -Wextra -Werror -o "$TMP/call" \
     "$R3/usr/share/doc/mcphost/examples/embed/call.c" $FLAGS \
     2>"$TMP/cc.err"; then
  ok "examples/embed/call.c builds with pkg-config --cflags --libs libmcphost alone"
else
  bad "examples/embed/call.c builds with pkg-config --cflags --libs libmcphost alone" \
    "$FLAGS: $(cat "$TMP/cc.err")"
fi
# shellcheck disable=SC2086
check "  from the extracted include and library directories" test \
  "$(printf '%s\n' $FLAGS | sed -n 's/^-[IL]//p' | xargs -n1 realpath |
     paste -sd' ')" = \
  "$(realpath "$R3/usr/include") $(realpath "$R3/usr/lib/$TRIPLET")"
unset PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_LIBDIR
run_cmd env LD_LIBRARY_PATH="$R3/usr/lib/$TRIPLET" "$TMP/call" \
  "$TMP/demo.json" demo/echo '{"message": "through libmcphost1"}'
expect "  and calls the demo server through the extracted libmcphost1" 0 \
  --out "through libmcphost1"
check "  which it loaded from the extracted root" \
  grep -q "$(realpath "$R3/usr/lib/$TRIPLET")/libmcphost.so.1" \
  <<<"$(LD_LIBRARY_PATH="$R3/usr/lib/$TRIPLET" ldd "$TMP/call")"

# ---- a plugin package left out ----
R2="$TMP/minimal"
dpkg -x "$(deb mcphost)" "$R2"
MCPHOST="$R2/usr/bin/mcphost"
config_file "$TMP/ws.json" \
  '{"w": {"type": "ws", "url": "ws://127.0.0.1:9/mcp"}}'
run --config "$TMP/ws.json" tools
expect "without mcphost-plugin-ws a ws server fails naming the package" 3 \
  --err "installed by the package mcphost-plugin-ws"
finish
