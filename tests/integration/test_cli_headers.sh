#!/usr/bin/env bash
# The front ends of the client library, the CLI (cli/, with its shell in
# cli/interactive/ and its session daemon in cli/daemon/) and the gateway
# (gateway/): their *.c and *.h include no header of the library's
# (host/): only their own headers, common/ and the SDK (<mcphost/...>,
# the public API an embedding program uses), and libc or other system
# headers (<...>). Nothing private reaches a front end, directly or
# through a header it includes.
. "$(dirname "$0")/../lib/lib.sh"

: >"$TMP/out"
: >"$TMP/err"
common=$(cd "$SRCDIR/common" && ls ./*.h | sed 's|^\./||')
allowed() { # allowed HEADER: a common/ header
  printf '%s\n' $common | grep -qxF -- "$1"
}

# includes FILE: the "..." includes of FILE, one a line.
includes() {
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

# own FILE HEADER: whether HEADER is one of the front end of FILE's own,
# or the one header of the other front end it may include: the CLI runs
# the gateway through gateway/gateway.h, the gateway sees of the CLI only
# cli/frontend.h (its context's accessors, the exit codes, the helpers
# it shares).
own() {
  case $1:$2 in
    "$SRCDIR"/cli/*:cli/* | "$SRCDIR"/gateway/*:gateway/*) ;;
    "$SRCDIR"/cli/*:gateway/gateway.h) ;;
    "$SRCDIR"/gateway/*:cli/frontend.h) ;;
    *) return 1 ;;
  esac
  [ -f "$SRCDIR/$2" ]
}

# private_includes FILE...: "FILE:HEADER" for each include of a FILE that
# is neither allowed nor one of its front end's own headers.
private_includes() {
  local f inc
  for f in "$@"; do
    [ -f "$f" ] || { printf ' %s:(missing)' "${f#"$SRCDIR"/host/}"; continue; }
    while IFS= read -r inc; do
      own "$f" "$inc" && continue
      allowed "$inc" || printf ' %s:%s' "${f#"$SRCDIR"/}" "$inc"
    done < <(includes "$f")
  done
}

# The front ends' sources, one a line.
front_ends() { find "$SRCDIR/cli" "$SRCDIR/gateway" -name "$1" | sort; }

bad=$(private_includes $(front_ends '*.[ch]'))
if [ -z "$bad" ]; then
  ok "cli/ and gateway/ include no header of the library's"
else
  RC=1 bad "cli/ and gateway/ include no header of the library's" \
    "private includes:$bad"
fi

# Nor does a front end read or set a field of the host object: host.h's
# accessors (host_cfg, host_loop, host_registry, ...) stand between.
fields=$(sed -n '/^typedef struct host {/,/^} host;/p' "$SRCDIR/host/core/host.h" |
  sed -n 's/^[[:space:]]*[A-Za-z_][A-Za-z_0-9 ]*[ *]\**\([a-z_][a-z_0-9]*\)\(\[[^]]*\]\)\{0,1\};.*/\1/p' |
  sort -u | tr '\n' '|')
fields=${fields%|}
hits=$(grep -nE "(\\bh|\\bc(->|\\.)h)->(${fields})\\b" $(front_ends '*.c') |
  sed "s|^$SRCDIR/||")
if [ -n "$fields" ] && [ -z "$hits" ]; then
  ok "cli/ and gateway/ read no field of the host object"
else
  RC=1 bad "cli/ and gateway/ read no field of the host object" \
    "fields: ${fields:-(none found in host.h)}" $hits
fi

# The rule between the two: the gateway may not reach into the CLI, nor
# the CLI into the gateway.
if own "$SRCDIR/gateway/serve.c" cli/frontend.h &&
  ! own "$SRCDIR/gateway/serve.c" cli/cli.h &&
  own "$SRCDIR/cli/main.c" gateway/gateway.h &&
  ! own "$SRCDIR/cli/main.c" gateway/serve.h; then
  ok "the gateway sees only cli/frontend.h of the CLI, the CLI only gateway/gateway.h of it"
else
  RC=1 bad "the gateway sees only cli/frontend.h of the CLI, the CLI only gateway/gateway.h of it"
fi

# The check itself: an include of the library is caught, the client it
# wraps as much as a session's internals.
for h in mcp/session.h mcp/client.h core/host.h config/config.h; do
  printf '#include "%s"\n' "$h" >"$TMP/probe.c"
  if [ -z "$(private_includes "$TMP/probe.c")" ]; then
    RC=1 bad "$h counts as private"
  else
    ok "$h counts as private"
  fi
done

finish
