#!/usr/bin/env bash
# The CLI is a front end of the client library: host/cli/*.c and *.h
# include only the library's public headers (host/public-headers.txt),
# their own cli/ headers, common/ and the SDK (<mcphost/...>), and libc
# or other system headers (<...>). A public header includes only public
# headers, so nothing private reaches the CLI indirectly either.
. "$(dirname "$0")/../lib/lib.sh"

: >"$TMP/out"
: >"$TMP/err"
LIST="$SRCDIR/host/public-headers.txt"
public=$(grep -v '^#' "$LIST" | grep -v '^$')
common=$(cd "$SRCDIR/common" && ls ./*.h | sed 's|^\./||')
allowed() { # allowed HEADER: a public header, a common/ header
  printf '%s\n' $public $common | grep -qxF -- "$1"
}

# includes FILE: the "..." includes of FILE, one a line.
includes() {
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

# private_includes FILE...: "FILE:HEADER" for each include of a FILE that
# is neither allowed nor (for host/cli) one of the CLI's own headers.
private_includes() {
  local f inc
  for f in "$@"; do
    [ -f "$f" ] || { printf ' %s:(missing)' "${f#"$SRCDIR"/host/}"; continue; }
    while IFS= read -r inc; do
      case $f:$inc in "$SRCDIR"/host/cli/*:cli/*)
        [ -f "$SRCDIR/host/$inc" ] && continue ;;
      esac
      allowed "$inc" || printf ' %s:%s' "${f#"$SRCDIR"/}" "$inc"
    done < <(includes "$f")
  done
}

bad=$(private_includes "$SRCDIR"/host/cli/*.[ch])
if [ -z "$bad" ]; then
  ok "host/cli includes only the library's public headers"
else
  RC=1 bad "host/cli includes only the library's public headers" \
    "private includes:$bad"
fi

bad=$(private_includes $(printf "$SRCDIR/host/%s\n" $public))
if [ -z "$bad" ]; then
  ok "the public headers include only public headers"
else
  RC=1 bad "the public headers include only public headers" \
    "private includes:$bad"
fi

# Nor does the CLI read or set a field of the host object: host.h's
# accessors (host_cfg, host_loop, host_registry, ...) stand between.
fields=$(sed -n '/^typedef struct host {/,/^} host;/p' "$SRCDIR/host/core/host.h" |
  sed -n 's/^[[:space:]]*[A-Za-z_][A-Za-z_0-9 ]*[ *]\**\([a-z_][a-z_0-9]*\)\(\[[^]]*\]\)\{0,1\};.*/\1/p' |
  sort -u | tr '\n' '|')
fields=${fields%|}
hits=$(grep -nE "(\\bh|\\bc(->|\\.)h)->(${fields})\\b" "$SRCDIR"/host/cli/*.c |
  sed "s|^$SRCDIR/||")
if [ -n "$fields" ] && [ -z "$hits" ]; then
  ok "host/cli reads no field of the host object"
else
  RC=1 bad "host/cli reads no field of the host object" \
    "fields: ${fields:-(none found in host.h)}" $hits
fi

# The check itself: a private include is caught.
printf '#include "mcp/session.h"\n' >"$TMP/probe.c"
if [ -z "$(private_includes "$TMP/probe.c")" ]; then
  RC=1 bad "mcp/session.h counts as private"
else
  ok "mcp/session.h counts as private"
fi

finish
