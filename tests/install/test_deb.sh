#!/usr/bin/env bash
# The Debian packages (issue 30): `make deb` builds them from debian/ with
# Debian's own tools and lintian passes them; extracted into a fresh root
# (dpkg -x, no root needed), the installed mcphost runs the demo server
# from there, finds every plugin in the multiarch directory, names the
# package of a plugin implementation left out, and the example plugin
# builds against the extracted mcphost-plugin-dev with pkg-config alone.
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
for p in mcphost mcphost-plugin-ws mcphost-plugin-mcpb mcphost-plugin-dev \
         libmcphost1; do
  check "package $p was built" test -f "$(deb "$p")"
done
check "libmcphost1 holds the client library, named by its SONAME" \
  grep -q "usr/lib/$TRIPLET/libmcphost.so.1" \
  <<<"$(dpkg-deb -c "$(deb libmcphost1)")"
check "mcphost-plugin-dev depends on it (its libmcphost.so points there)" \
  grep -q 'libmcphost1 (= ' \
  <<<"$(dpkg-deb -f "$(deb mcphost-plugin-dev)" Depends)"

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
for p in mcphost mcphost-plugin-ws mcphost-plugin-mcpb mcphost-plugin-dev \
         libmcphost1; do
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
