#!/usr/bin/env bash
# The host's layers (host/layers.txt, scripts/check_layers.sh): no folder
# uses one above it or beside it, by #include or by a linked symbol. And
# the check itself: an upward include, an upward symbol use and a folder
# without a line are each caught, named with the file and the edge.
. "$(dirname "$0")/../lib/lib.sh"

: >"$TMP/out"
: >"$TMP/err"
CHECK="$SRCDIR/scripts/check_layers.sh"

bash "$CHECK" "$SRCDIR" "$BUILDDIR" >"$TMP/out" 2>"$TMP/err"
RC=$?
if [ $RC = 0 ] && [ ! -s "$TMP/out" ]; then
  ok "the tree keeps host/layers.txt (includes and symbols)"
else
  RC=1 bad "the tree keeps host/layers.txt (includes and symbols)"
fi

# A copy of the sources the rule covers, to break on purpose.
copy_tree() {
  rm -rf "$TMP/src"
  mkdir -p "$TMP/src"
  local d
  for d in host common cli gateway; do
    [ -d "$SRCDIR/$d" ] && cp -r "$SRCDIR/$d" "$TMP/src/"
  done
}

# caught NAME WANT [BUILD]: the check of the copy (and of BUILD's
# objects) fails with one line, which starts with WANT.
caught() {
  bash "$CHECK" "$TMP/src" ${3:+"$3"} >"$TMP/out" 2>"$TMP/err"
  RC=$?
  if [ $RC = 1 ] && [ "$(wc -l <"$TMP/out")" = 1 ] &&
    [ "$(head -c ${#2} "$TMP/out")" = "$2" ]; then
    ok "$1"
  else
    bad "$1" "wanted: $2"
  fi
}

# An upward include: safety including a session.
copy_tree
bash "$CHECK" "$TMP/src" >"$TMP/out" 2>"$TMP/err"
[ $? = 0 ] || RC=1 bad "the copy passes before anything is injected"
printf '#include "mcp/session.h"\n' >>"$TMP/src/host/safety/sanitize.c"
line=$(wc -l <"$TMP/src/host/safety/sanitize.c")
caught "an upward include fails, naming the file, the line and the edge" \
  "host/safety/sanitize.c:$line: host/safety -> host/mcp:"\
" #include \"mcp/session.h\""

# An upward symbol, with no include to show it: an object of the safety
# folder that calls the MCP client. The build's objects are linked into a
# copy of the build tree, with the probe's beside them.
copy_tree
mkdir -p "$TMP/build"
(cd "$BUILDDIR" && find . -name '*.c.o' -path '*/CMakeFiles/*.dir/*' \
  ! -path './tests/*' ! -path './bench/*' ! -path './examples/*') |
  while IFS= read -r o; do
    mkdir -p "$TMP/build/$(dirname "$o")"
    ln -s "$BUILDDIR/$o" "$TMP/build/$o"
  done
cat >"$TMP/src/host/safety/probe_upward.c" <<'C'
/* Declared by hand: only the linked symbol shows the edge. */
struct host;
struct mcp_client;
struct mcp_client *mcp_client_new(struct host *h);
struct mcp_client *probe_upward(struct host *h) {
  return mcp_client_new(h);
}
C
lib=$(dirname "$(find "$TMP/build" -path '*/mcphost.dir/safety/sanitize.c.o' |
  head -1)")
if [ -z "$lib" ] || [ "$lib" = . ]; then
  RC=1 bad "the build holds the safety folder's objects" "under $BUILDDIR"
else
  "${CC:-cc}" -c -o "$lib/probe_upward.c.o" \
    "$TMP/src/host/safety/probe_upward.c"
  caught "an upward symbol use fails, naming the file, the edge, the symbol" \
    "host/safety/probe_upward.c: host/safety -> host/mcp: uses"\
" mcp_client_new (defined in host/mcp/client.c)" \
    "$TMP/build"
fi

# A folder of host/ with no line is not left out of the check.
copy_tree
mkdir -p "$TMP/src/host/newpart"
printf 'int newpart;\n' >"$TMP/src/host/newpart/newpart.c"
caught "a folder with no line in host/layers.txt fails" \
  "host/newpart: a folder with no line in host/layers.txt"

finish
