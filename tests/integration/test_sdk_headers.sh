#!/usr/bin/env bash
# The public headers, the optional helpers among them, compile alone as
# C11 and as C++ with -pedantic and the tree's warnings, and a plugin can
# be built from them with nothing but the SDK.
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
  if "$CXX" -std=c++11 $WARN -I"$INC" -c "$TMP/t.cpp" -o "$TMP/t.o" 2>"$TMP/err"; then
    ok "$h compiles as C++11 -pedantic"
  else
    RC=1; : >"$TMP/out"; bad "$h compiles as C++11 -pedantic"
  fi
done
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
