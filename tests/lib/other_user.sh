# Shared helpers for the security reproductions that plant files as
# another user (bash): everything of lib.sh (run,
# expect, check, finish, a private $TMP and $HOME) and second_user.sh,
# plus the other user's side of an attack.
#
# The victim is the user running the test (root here and in CI, who
# trusts what root and itself own). The other user is, in order of
# preference:
#   - a user created for the test with useradd and removed at its end;
#     files it plants are written by it (setpriv), as an attacker would;
#   - else, when running as root, the uid of "nobody": the same attack set
#     up by ownership (files written by root, then chowned);
#   - else the test is skipped (exit 77) with the reason.
# After other_user_setup: OTHER_UID, OTHER_GID, OTHER_NAME, OTHER_HOW
# ("useradd" or "chown").
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/second_user.sh"

other_user_setup() {
  if [ "$(id -u)" -ne 0 ]; then
    skip_test "needs root to create a second user or to chown files to one"
  fi
  if second_user_add mcpho -M -s /usr/sbin/nologin -U; then
    OTHER_NAME=$SUSER
    OTHER_UID=$(id -u "$OTHER_NAME")
    OTHER_GID=$(id -g "$OTHER_NAME")
    OTHER_HOW=useradd
    echo "# the other user: $OTHER_NAME (uid $OTHER_UID), created for this test"
    return 0
  fi
  echo "# no second user ($SECOND_USER_WHY); using nobody"
  chmod 0711 "$TMP"
  OTHER_NAME=nobody
  OTHER_UID=$(id -u nobody 2>/dev/null || echo 65534)
  OTHER_GID=$(id -g nobody 2>/dev/null || echo 65534)
  OTHER_HOW=chown
  echo "# the other user: uid $OTHER_UID, files set up by root and chowned"
}

# as_other COMMAND...: runs a command as the other user (with useradd),
# or as root (with chown: the caller chowns what it made).
as_other() {
  if [ "$OTHER_HOW" = useradd ]; then
    setpriv --reuid="$OTHER_UID" --regid="$OTHER_GID" --clear-groups \
      --inh-caps=-all "$@"
  else
    "$@"
  fi
}

# other_write FILE: the other user writes stdin to FILE (its directory
# must let it), and owns it.
other_write() {
  as_other sh -c 'cat >"$1"' sh "$1"
  [ "$OTHER_HOW" = useradd ] || chown "$OTHER_UID:$OTHER_GID" "$1"
}

# other_mkdir DIR: a directory the other user owns (mode 0755).
other_mkdir() {
  mkdir -p "$1"
  chown "$OTHER_UID:$OTHER_GID" "$1"
  chmod 0755 "$1"
}

# A program that leaves a mark when run, then serves as the demo server:
# the proof that a planted command ran as the victim. marker_server FILE
# MARK prints its path.
marker_server() {
  printf '#!/bin/sh\ntouch "%s"\nexec "%s" "$@"\n' "$2" "$DEMO" >"$1"
  chmod 0755 "$1"
}

