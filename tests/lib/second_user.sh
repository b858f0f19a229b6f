# A second local user for the security tests (bash, sourced after
# lib.sh). second_user_add makes one for the test and removes it at its
# end. make_victim makes one to run mcphost as (the victim), with a home
# of its own under $TMP; it fails with a "skipped: ..." line where the
# machine does not allow it (not root, no useradd or setpriv, mcphost not
# reachable by another user). other_user.sh's other_user_setup makes one
# to plant files as (the other user).
#   VUSER, VHOME   the user and its home
#   as_victim CMD  runs CMD as that user, in a clean environment
#   vrun ARGS      runs mcphost as that user; sets RC, OUT, ERR like run

# second_user_add PREFIX USERADD-OPTIONS...: a user made for this test
# (PREFIX and the shell's pid), removed with its group when the test ends;
# sets SUSER. Returns 1 with the reason in SECOND_USER_WHY where the
# machine does not allow one.
second_user_add() {
  local prefix=$1
  shift
  SECOND_USER_WHY=
  if [ "$(id -u)" != 0 ]; then
    SECOND_USER_WHY="not root, so no second user can be made"
    return 1
  fi
  if ! command -v useradd >/dev/null || ! command -v setpriv >/dev/null; then
    SECOND_USER_WHY="no useradd or setpriv for a second user"
    return 1
  fi
  SUSER="$prefix$$"
  chmod 711 "$TMP" # the other user reaches the test's files
  local try
  for try in 1 2 3 4 5 6 7 8 9 10; do # /etc/passwd may be locked by a parallel test
    useradd "$@" "$SUSER" 2>"$TMP/useradd.err" && break
    sleep 0.5
  done
  if ! id "$SUSER" >/dev/null 2>&1; then
    SECOND_USER_WHY="useradd failed: $(cat "$TMP/useradd.err")"
    return 1
  fi
  on_exit "userdel -f '$SUSER' 2>/dev/null; groupdel '$SUSER' 2>/dev/null"
}

make_victim() {
  VHOME="$TMP/victim-home"
  if ! second_user_add mcphv -M -d "$VHOME" -s /bin/sh -U; then
    echo "skipped: $SECOND_USER_WHY"
    return 1
  fi
  VUSER=$SUSER
  mkdir -p "$VHOME"
  chown "$VUSER:$VUSER" "$VHOME"
  chmod 700 "$VHOME"
  if ! as_victim "$MCPHOST" --version >/dev/null 2>&1; then
    echo "skipped: $VUSER cannot run $MCPHOST (a parent directory is closed)"
    return 1
  fi
}

as_victim() {
  local keep=()
  local v
  for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
    [ -n "${!v:-}" ] && keep+=("$v=${!v}")
  done
  setpriv --reuid="$VUSER" --regid="$VUSER" --init-groups \
    env -i PATH=/usr/local/bin:/usr/bin:/bin "${keep[@]}" "$@"
}

# vrun [VAR=VALUE...] -- ARGS...: mcphost as the victim.
vrun() {
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  as_victim "${envs[@]}" "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
