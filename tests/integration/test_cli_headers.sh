#!/usr/bin/env bash
# The CLI is a front end of the client library: host/cli/*.c and *.h
# include only the library's public headers (host/public-headers.txt),
# their own cli/ headers, common/ and the SDK (<mcphost/...>), and libc
# or other system headers (<...>). A public header includes only public
# headers, so nothing private reaches the CLI indirectly either.
. "$(dirname "$0")/lib.sh"

: >"$TMP/out"
: >"$TMP/err"
LIST="$SRCDIR/host/public-headers.txt"
public=$(grep -v '^#' "$LIST" | grep -v '^$')
common=$(cd "$SRCDIR/common" && ls ./*.h | sed 's|^\./||')
allowed() { # allowed HEADER: a public header, a common/ header
  printf '%s\n' $public $common | grep -qxF -- "$1"
}

bad_cli=""
for f in "$SRCDIR"/host/cli/*.[ch]; do
  while IFS= read -r inc; do
    case $inc in cli/*) [ -f "$SRCDIR/host/$inc" ] && continue ;; esac
    allowed "$inc" || bad_cli="$bad_cli ${f#"$SRCDIR"/}:$inc"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
if [ -z "$bad_cli" ]; then
  ok "host/cli includes only the library's public headers"
else
  RC=1 bad "host/cli includes only the library's public headers" \
    "private includes:$bad_cli"
fi

bad_pub=""
for h in $public; do
  [ -f "$SRCDIR/host/$h" ] || { bad_pub="$bad_pub $h:(missing)"; continue; }
  while IFS= read -r inc; do
    allowed "$inc" || bad_pub="$bad_pub $h:$inc"
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$SRCDIR/host/$h")
done
if [ -z "$bad_pub" ]; then
  ok "the public headers include only public headers"
else
  RC=1 bad "the public headers include only public headers" \
    "private includes:$bad_pub"
fi

# The check itself: a private include is caught.
printf '#include "mcp/session.h"\n' >"$TMP/probe.c"
inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$TMP/probe.c")
if allowed "$inc"; then
  RC=1 bad "mcp/session.h counts as private"
else
  ok "mcp/session.h counts as private"
fi

finish
