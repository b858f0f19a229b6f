# A second local user for the security tests (bash, sourced after
# ../integration/lib.sh). make_victim creates one, with a home of its own
# under $TMP, and removes it when the test ends; it fails with a
# "skipped: ..." line where the machine does not allow it (not root, no
# useradd or setpriv, mcphost not reachable by another user).
#   VUSER, VHOME   the user and its home
#   as_victim CMD  runs CMD as that user, in a clean environment
#   vrun ARGS      runs mcphost as that user; sets RC, OUT, ERR like run

make_victim() {
  if [ "$(id -u)" != 0 ]; then
    echo "skipped: not root, so no second user can be made"
    return 1
  fi
  if ! command -v useradd >/dev/null || ! command -v setpriv >/dev/null; then
    echo "skipped: no useradd or setpriv for a second user"
    return 1
  fi
  VUSER="mcphv$$"
  VHOME="$TMP/victim-home"
  chmod 711 "$TMP" # the victim reaches its home and the test's files
  local try
  for try in 1 2 3 4 5; do # /etc/passwd may be locked by a parallel test
    useradd -M -d "$VHOME" -s /bin/sh -U "$VUSER" 2>"$TMP/useradd.err" && break
    sleep 0.5
  done
  if ! id "$VUSER" >/dev/null 2>&1; then
    echo "skipped: useradd failed: $(cat "$TMP/useradd.err")"
    return 1
  fi
  on_exit "userdel -f '$VUSER' 2>/dev/null; groupdel '$VUSER' 2>/dev/null"
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
