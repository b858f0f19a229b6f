#!/usr/bin/env bash
# The public headers, the optional helpers among them, compile alone as
# C11 and as C++11 and C++17 with -pedantic and the tree's warnings, and a
# plugin can be built from them with nothing but the SDK. The client
# API's initializer macros and examples/embed/call.c compile as C++ too,
# and a C++ program links libmcphost.so.1 and calls it.
. "$(dirname "$0")/../lib/lib.sh"
INC="$SRCDIR/sdk/include"
WARN="-Wall -Wextra -Wshadow -Wconversion -pedantic -Werror"
headers=$(cd "$INC/mcphost" && find . -name '*.h' | sed 's|^\./||' | sort)
[ "$(echo "$headers" | grep -c '^helpers/')" -ge 3 ] ||
  { echo "the helpers are not among the headers: $headers"; exit 1; }
for h in $headers; do
  printf '#include <mcphost/%s>\nint main(void) { return 0; }\n' "$h" >"$TMP/t.c"
  if "$CC" -std=c11 $WARN -I"$INC" -c "$TMP/t.c" -o "$TMP/t.o" 2>"$TMP/err"; then
    ok "$h compiles as C11 -pedantic"
  else
    RC=1; : >"$TMP/out"; bad "$h compiles as C11 -pedantic"
  fi
  cp "$TMP/t.c" "$TMP/t.cpp"
  for std in c++11 c++17; do
    if "$CXX" -std=$std $WARN -I"$INC" -c "$TMP/t.cpp" -o "$TMP/t.o" 2>"$TMP/err"; then
      ok "$h compiles as $std -pedantic"
    else
      RC=1; : >"$TMP/out"; bad "$h compiles as $std -pedantic"
    fi
  done
done
# What a C++ program expands of client.h: every _INIT macro, without a
# C-style cast or a 0 for a null pointer (-Wold-style-cast and
# -Wzero-as-null-pointer-constant, which C++ projects often turn on).
# Every _INIT macro the header defines, each for its struct
# (MCPHOST_X_INIT: mcphost_x), so that one added later is checked too.
inits=$(sed -n 's/^#define \(MCPHOST_[A-Z_]*\)_INIT .*/\1/p' "$INC/mcphost/client.h")
[ "$(printf '%s\n' $inits | wc -l)" -ge 8 ] ||
  { RC=1; bad "client.h's _INIT macros are found" "$inits"; }
{
  echo '#include <mcphost/client.h>'
  echo 'int main() {'
  echo '  int bad = 0;'
  for m in $inits; do
    t=$(printf '%s' "$m" | tr 'A-Z' 'a-z')
    echo "  { $t v = ${m}_INIT; bad |= v.struct_size != sizeof v; }"
  done
  echo '  return bad;'
  echo '}'
} >"$TMP/init.cpp"
CXXSTRICT="$WARN -Wold-style-cast -Wzero-as-null-pointer-constant"
for std in c++11 c++17; do
  if "$CXX" -std=$std $CXXSTRICT -I"$INC" -c "$TMP/init.cpp" -o "$TMP/t.o" 2>"$TMP/err"; then
    ok "client.h's _INIT macros compile as $std, -Wold-style-cast"
  else
    RC=1; : >"$TMP/out"; bad "client.h's _INIT macros compile as $std, -Wold-style-cast"
  fi
  if "$CXX" -std=$std $WARN -I"$INC" -x c++ -c "$SRCDIR/examples/embed/call.c" \
       -o "$TMP/t.o" 2>"$TMP/err"; then
    ok "examples/embed/call.c compiles as $std -pedantic"
  else
    RC=1; : >"$TMP/out"; bad "examples/embed/call.c compiles as $std -pedantic"
  fi
done
# A C++ program linked to the built library: its version, its status
# names, and an error it fills (a major it is not).
cat >"$TMP/v.cpp" <<'CPP'
#include <mcphost/client.h>
#include <cstdio>
int main() {
  int major = -1, minor = -1;
  const char *v = mcphost_version(&major, &minor);
  std::printf("%s %d.%d %s %s\n", v, major, minor,
              mcphost_status_name(MCPHOST_ETIMEDOUT),
              mcphost_status_name(-1000));
  mcphost_options o = MCPHOST_OPTIONS_INIT;
  o.api_major = MCPHOST_API_MAJOR + 1;
  mcphost_client *c = nullptr;
  mcphost_error e = MCPHOST_ERROR_INIT;
  int rc = mcphost_client_new(&o, &c, &e);
  std::printf("%s %d %s\n", mcphost_status_name(rc), c == nullptr, e.message);
  return 0;
}
CPP
SAN=
grep -q '^MCPHOST_SANITIZE:BOOL=ON' "$BUILDDIR/CMakeCache.txt" &&
  SAN="-fsanitize=address,undefined" # the library's runtime, first
VERSION=$(sed -n '1s/^mcphost (\([0-9.]*\)) .*/\1/p' "$SRCDIR/debian/changelog")
run_cmd "$CXX" -std=c++17 $WARN $SAN -I"$INC" "$TMP/v.cpp" -o "$TMP/v" \
  "$BUILDDIR/lib/libmcphost.so.1" -Wl,-rpath,"$BUILDDIR/lib"
expect "a C++17 program links libmcphost.so.1" 0
run_cmd "$TMP/v"
expect "the C++ program gets the library's version and status names" 0 \
  --out "$VERSION 1.0 MCPHOST_ETIMEDOUT MCPHOST_E?" \
  --out "MCPHOST_EABI 1 built for the mcphost client API 2.0"
# A minimal plugin in C++ using the entry macro.
cat >"$TMP/p.cpp" <<'CPP'
#include <mcphost/mcphost.h>
static int init(const mcph_host *, void **ctx, mcph_error *) { *ctx = nullptr; return 0; }
static const void *ext(void *, const char *) { return nullptr; }
static mcph_entry make() {
  mcph_entry e{};
  e.struct_size = sizeof(mcph_entry);
  e.abi_major = MCPH_ABI_MAJOR;
  e.abi_minor = MCPH_ABI_MINOR;
  e.id = "test.cxx";
  e.init = init;
  e.get_extension = ext;
  return e;
}
MCPH_PLUGIN_ENTRY = make();
CPP
mkdir -p "$TMP/plugins"
if "$CXX" -std=c++11 -Wall -Wextra -pedantic -Werror -fPIC -shared -fvisibility=hidden \
     -I"$INC" -Wl,--version-script="$SRCDIR/cmake/plugin.map" -Wl,-z,defs \
     "$TMP/p.cpp" -o "$TMP/plugins/cxx.so" 2>"$TMP/err"; then
  ok "a C++ plugin builds from the SDK headers alone"
else
  RC=1; : >"$TMP/out"; bad "a C++ plugin builds from the SDK headers alone"
fi
run --plugin-dir "$TMP/plugins" --json plugins
expect "the C++ plugin loads" 0 --jq '.[0].id == "test.cxx" and .[0].status == "loaded"'
finish
