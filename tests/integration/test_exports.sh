#!/usr/bin/env bash
# Every plugin exports exactly one symbol, the entry; nothing else leaks.
# The transports' implementations, which their plugins open on first use,
# are plugins too.
. "$(dirname "$0")/../lib/lib.sh"
n=0
for so in "$PLUGINDIR"/*.so "$PLUGINDIR"/../impl/*.so "$FIXTURES"/a/*.so \
  "$FIXTURES"/v1.0/*.so "$FIXTURES"/v1.5/*.so; do
  [ -e "$so" ] || continue
  n=$((n + 1))
  name=$(basename "$(dirname "$so")")/$(basename "$so") # impl/transport-http.so
  syms=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort | tr '\n' ' ')
  if [ "$syms" = "mcph_plugin_entry " ]; then
    ok "$name exports only mcph_plugin_entry"
  else
    RC=0; : >"$TMP/out"; : >"$TMP/err"
    bad "$name exports only mcph_plugin_entry" "exports: $syms"
  fi
  # -z defs: nothing undefined may be left for the host to provide.
  if nm -D --undefined-only "$so" | grep -q ' mcph_\| host_\| rpc_\| session_'; then
    RC=0; bad "$name needs no host symbols" "$(nm -D --undefined-only "$so" | grep ' mcph_\| host_')"
  else
    ok "$name needs no host symbols"
  fi
done
RC=$n
[ "$n" -ge 3 ] && ok "found the plugins to check ($n)" || bad "found the plugins to check" "only $n"
finish
