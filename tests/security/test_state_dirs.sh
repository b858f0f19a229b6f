#!/usr/bin/env bash
# Issue 11, point 7: where mcphost writes. Without HOME it never falls
# back to the shared /tmp; a state, log or output directory that another
# user owns or may write is refused; log files are opened without
# following links, so another user cannot point NAME.log at the victim's
# ~/.bashrc.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/second_user.sh"
C="$TMP/probe.json"
probe_config "$C"
LINE='echo pwned-by-the-server'

# ---- as a second user: HOME unset ----

if make_victim; then
  BASHRC="$VHOME/.bashrc"
  as_victim sh -c "echo '# the victim' >'$BASHRC'"
  # What the attack needs from the other user: /tmp/.local/state/mcphost
  # as theirs, NAME.log a link to the victim's ~/.bashrc. Made only when
  # /tmp/.local is not there (and then removed), so other users of the
  # machine are left alone.
  PLANTED=
  if [ ! -e /tmp/.local ]; then
    PLANTED=1
    on_exit "rm -rf /tmp/.local"
    mkdir -p /tmp/.local/state/mcphost/logs
    chown -R nobody /tmp/.local
    chmod -R 777 /tmp/.local
    ln -s "$BASHRC" /tmp/.local/state/mcphost/logs/p.log
  fi
  touch "$TMP/stamp"
  vrun -- --config "$C" call p/log "text=$LINE"
  expect "without HOME, a server log message is handled" 0 --out "logged"
  check "without HOME, the log goes to the passwd entry's home" \
    grep -q "$LINE" "$VHOME/.local/state/mcphost/logs/p.log"
  check "without HOME, nothing is written under /tmp/.local" \
    test -z "$(find /tmp/.local -user "$VUSER" -newer "$TMP/stamp" 2>/dev/null)"
  if [ -n "$PLANTED" ]; then
    check "the planted link did not write into the victim's ~/.bashrc" \
      bash -c "! grep -q pwned '$BASHRC'"
  fi
  check "the log directory made is the victim's, 0700" \
    test "$(stat -c '%U %a' "$VHOME/.local/state/mcphost/logs")" = "$VUSER 700"

  # No home at all (its directory is gone): no log files, the command
  # still works.
  mv "$VHOME" "$VHOME.gone"
  vrun -- --config "$C" call p/log "text=$LINE"
  mv "$VHOME.gone" "$VHOME"
  expect "without a home, mcphost works and writes no log files" 0 --out "logged"
  check "without a home, nothing is written under /tmp/.local" \
    test -z "$(find /tmp/.local -user "$VUSER" -newer "$TMP/stamp" 2>/dev/null)"
fi

# ---- the same attacks by file ownership (as root) ----

BASHRC="$HOME/.bashrc"
echo "# the victim" >"$BASHRC"

# Another user's directory on the way to the logs, writable by all.
S="$TMP/shared-state"
mkdir -p "$S/mcphost/logs"
ln -s "$BASHRC" "$S/mcphost/logs/p.log"
ln -s "$BASHRC" "$S/mcphost/logs/p.stderr.log"
chown -R -h nobody "$S"
chmod 777 "$S" "$S/mcphost" "$S/mcphost/logs"
XDG_STATE_HOME="$S" run --config "$C" call p/log "text=$LINE"
expect "a state directory of another user is refused, with the reason" 0 \
  --out "logged" --err "$S is owned by uid 65534, not by you or root" \
  --err "not writing the server's log file"
check "nothing reached ~/.bashrc through another user's log directory" \
  bash -c "! grep -q pwned '$BASHRC'"

# A world-writable directory of root's own (not sticky) is refused too.
S2="$TMP/open-state"
mkdir -p "$S2"
chmod 777 "$S2"
XDG_STATE_HOME="$S2" run --config "$C" call p/log "text=$LINE"
expect "a world-writable state directory is refused" 0 \
  --err "$S2 is writable by everyone"
check "no log directory was made in it" test ! -e "$S2/mcphost"

# A group-writable log directory is refused.
S3="$TMP/group-state"
mkdir -p "$S3/mcphost/logs"
chmod 770 "$S3/mcphost/logs"
XDG_STATE_HOME="$S3" run --config "$C" call p/log "text=$LINE"
expect "a group-writable log directory is refused" 0 \
  --err "$S3/mcphost/logs is writable by its group"

# Our own directory, but NAME.log is a link: not followed.
S4="$TMP/own-state"
mkdir -p "$S4/mcphost/logs"
chmod 700 "$S4/mcphost/logs"
ln -s "$BASHRC" "$S4/mcphost/logs/p.log"
ln -s "$BASHRC" "$S4/mcphost/logs/p.stderr.log"
XDG_STATE_HOME="$S4" run --config "$C" call p/log "text=$LINE"
expect "a log file that is a link is not followed, and said so" 0 \
  --err "$S4/mcphost/logs/p.log is a symbolic link; refusing to follow it" \
  --err "$S4/mcphost/logs/p.stderr.log is a symbolic link"
check "nothing reached ~/.bashrc through a linked log file" \
  bash -c "! grep -q pwned '$BASHRC'"

# A sticky world-writable directory of root's on the way (as /tmp) is
# fine: nobody else can rename what we made in it.
S5="$TMP/sticky"
mkdir -p "$S5"
chmod 1777 "$S5"
XDG_STATE_HOME="$S5/state" run --config "$C" call p/log text=fine
expect "a state directory below a sticky one of root's is used" 0 --no-err "refus"
check "its log is written" grep -q fine "$S5/state/mcphost/logs/p.log"

# ---- the output directory of binary results ----

# Another user made $TMPDIR/mcphost-UID first: refused, and the result
# goes to $XDG_RUNTIME_DIR/mcphost instead.
T="$TMP/shared-tmp"
mkdir -p "$T/mcphost-$(id -u)"
chmod 1777 "$T"
chown nobody "$T/mcphost-$(id -u)"
chmod 700 "$T/mcphost-$(id -u)"
R="$TMP/runtime"
mkdir -p "$R"
chmod 700 "$R"
TMPDIR="$T" XDG_RUNTIME_DIR="$R" run --config "$C" call p/image
expect "an output directory of another user is refused for \$XDG_RUNTIME_DIR" 0 \
  --out "saved to $R/mcphost/mcp-resource-"
check "nothing was saved in the other user's directory" \
  test -z "$(ls -A "$T/mcphost-$(id -u)")"

TMPDIR="$T" XDG_RUNTIME_DIR= run --config "$C" call p/image
expect "with no usable output directory the result is not saved and the exit is not 0" 2 \
  --out "not saved" --out "owned by uid 65534"

# A link planted as $TMPDIR/mcphost-UID by another user, to a directory
# of the victim's: not followed.
rm -rf "$T/mcphost-$(id -u)"
mkdir -p "$HOME/documents"
chmod 700 "$HOME/documents"
ln -s "$HOME/documents" "$T/mcphost-$(id -u)"
chown -h nobody "$T/mcphost-$(id -u)"
TMPDIR="$T" XDG_RUNTIME_DIR= run --config "$C" call p/image
expect "a link of another user's as the output directory is refused" 2 \
  --out "not saved" --out "is a link made by uid 65534"
check "nothing was saved where the link pointed" \
  test -z "$(ls -A "$HOME/documents")"
finish
