#!/bin/bash
# Another local user tries to point mcphost's IDE connection at a server
# of their own (which would then receive ide_connected and every IDE call,
# and feed the model its tools): with a lockfile directory they own (a
# shared CLAUDE_CONFIG_DIR), a lockfile of theirs in the user's directory,
# and a link to their lockfile. Each is refused with the reason, and their
# server never hears from mcphost.
. "$(dirname "$0")/../lib/other_user.sh"
command -v node >/dev/null || skip_test "node is not installed"
other_user_setup
export INTEROP
FAKE="$SRCDIR/tests/servers/fake_ide.mjs"
WS="$TMP/project"
mkdir -p "$WS"

# The other user's IDE: its lockfile is made in a staging directory and
# then planted by the other user.
start_node "$FAKE" --dir "$TMP/staging" --transport sse --workspace "$WS" \
  --token none --log "$TMP/attacker.log" || exit 1
PORT=$NODE_PORT
: >"$TMP/attacker.log"
chmod 666 "$TMP/attacker.log"
other_mkdir "$TMP/shared"
other_mkdir "$TMP/shared/ide"
other_write "$TMP/shared/ide/$PORT.lock" <"$TMP/staging/$PORT.lock"
as_other chmod 600 "$TMP/shared/ide/$PORT.lock" 2>/dev/null ||
  chmod 600 "$TMP/shared/ide/$PORT.lock"

never_heard() {
  [ ! -s "$TMP/attacker.log" ] && ok "$1: the other user's server got no request" ||
    bad "$1: the other user's server got no request"
}

# A CLAUDE_CONFIG_DIR of the other user's.
CLAUDE_CONFIG_DIR="$TMP/shared" in_dir "$WS" ide list
expect "a lockfile directory another user owns is refused, with the reason" 0 \
  --out "lockfile directory not trusted" --out "$TMP/shared"
CLAUDE_CONFIG_DIR="$TMP/shared" in_dir "$WS" --ide call ide/openFile filePath=/x
expect "--ide never connects through it" 3 --err "lockfile directory not trusted"
never_heard "their directory"

# A lockfile of theirs in the user's own directory.
export CLAUDE_CONFIG_DIR="$TMP/claude"
mkdir -p "$CLAUDE_CONFIG_DIR/ide"
chmod 700 "$CLAUDE_CONFIG_DIR" "$CLAUDE_CONFIG_DIR/ide"
cp "$TMP/staging/$PORT.lock" "$CLAUDE_CONFIG_DIR/ide/$PORT.lock"
chown "$OTHER_UID:$OTHER_GID" "$CLAUDE_CONFIG_DIR/ide/$PORT.lock"
chmod 600 "$CLAUDE_CONFIG_DIR/ide/$PORT.lock"
in_dir "$WS" ide list --json
expect "a lockfile another user owns is refused, with the reason" 0 \
  --jq ".[0].port == $PORT and (.[0].error | startswith(\"not trusted, refused\"))"
in_dir "$WS" --ide call ide/openFile filePath=/x
expect "--ide never connects to it" 3 --err "not trusted, refused"
never_heard "their lockfile"
rm -f "$CLAUDE_CONFIG_DIR/ide/$PORT.lock"

# A link in the user's directory to their lockfile.
ln -s "$TMP/shared/ide/$PORT.lock" "$CLAUDE_CONFIG_DIR/ide/$PORT.lock"
in_dir "$WS" ide list --json
expect "a lockfile that is a link is refused, with the reason" 0 \
  --jq ".[0].port == $PORT and (.[0].error | startswith(\"not trusted, refused\"))"
in_dir "$WS" --ide call ide/openFile filePath=/x
expect "--ide never follows it" 3 --err "not trusted, refused"
never_heard "a link to their lockfile"

finish
