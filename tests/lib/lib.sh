# Shared helpers for the test scripts (bash): integration, security and
# install. Each test script sources this (or a helper of tests/lib that
# sources it), runs checks, and ends with `finish`, which prints
# "N passed, N failed" and exits non-zero when a check failed.
# ctest passes: MCPHOST (the CLI), DEMO (the demo server), FIXTURES (the
# test plugin tree), INTEROP (tests/interop with node_modules),
# SRCDIR and BUILDDIR.
set -u
PASS=0
FAIL=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-test.XXXXXX")
export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state" TMPDIR="$TMP"
# No configuration from the machine running the tests: user settings and
# the enterprise directory live in the test's own tree.
export XDG_CONFIG_HOME="$TMP/config" MCPHOST_SYSTEM_CONFIG_DIR="$TMP/system"
unset MCPHOST_APPROVE_PROJECT_SERVERS CLAUDE_CONFIG_DIR ENABLE_CLAUDEAI_MCP_SERVERS \
  MCPHOST_CLAUDE_CREDENTIALS MCPHOST_CLAUDEAI_API_BASE MCPHOST_CLAUDEAI_PROXY_URL
# tmux and script(1) run their command with $SHELL, and the tests quote
# for bash (printf %q writes $'...' for a control character, which sh reads
# as text): whatever the machine's login shell, they get bash.
export SHELL=/bin/bash
# A server that never exits by itself once its stdin is closed
# (server-everything keeps timers running) would cost every command the
# default 2 s before its SIGTERM: the tests give it 500 ms.
# test_server_exit checks the default.
export MCPHOST_STDIO_EXIT_MS=500
mkdir -p "$HOME"
trap 'cleanup_all' EXIT
CLEANUP=""
cleanup_all() {
  eval "$CLEANUP"
  rm -rf "$TMP"
}
on_exit() { CLEANUP="$CLEANUP
$*"; }

ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() {
  FAIL=$((FAIL + 1))
  echo "FAIL $1"
  shift
  for line in "$@"; do echo "     $line"; done
  echo "     rc=$RC"
  echo "     stdout: $(head -c 2000 "$TMP/out")"
  echo "     stderr: $(head -c 2000 "$TMP/err")"
}

# run ARGS...: runs mcphost; sets RC, OUT and ERR.
run() {
  local try
  for try in 1 2; do
    "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    RC=$?
    # LeakSanitizer's own tracer sometimes crashes while it stops the
    # threads at exit ("Tracer caught signal 11"), a fault of the tool on
    # loaded machines, not of mcphost: such a run is made once more. A
    # real leak report is never retried.
    grep -q "^Tracer caught signal" "$TMP/err" 2>/dev/null || break
    echo "     (LeakSanitizer tracer crashed; running again)"
  done
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# run_cmd CMD...: runs any command (stdin /dev/null); sets RC, OUT and ERR
# as run does.
run_cmd() {
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# expect NAME RC [--out TEXT]... [--err TEXT]... [--no-out TEXT]... [--jq EXPR]...
# checks the last run: exit code, substrings of stdout/stderr, and jq
# expressions over stdout that must print "true".
expect() {
  local name=$1 want=$2 why=()
  shift 2
  [ "$RC" -eq "$want" ] || why+=("exit code $RC, wanted $want")
  while [ $# -gt 0 ]; do
    case $1 in
      --out) [[ $OUT == *"$2"* ]] || why+=("stdout lacks: $2") ;;
      --err) [[ $ERR == *"$2"* ]] || why+=("stderr lacks: $2") ;;
      --no-out) [[ $OUT != *"$2"* ]] || why+=("stdout has: $2") ;;
      --no-err) [[ $ERR != *"$2"* ]] || why+=("stderr has: $2") ;;
      --jq)
        local v
        v=$(printf '%s' "$OUT" | jq -r "$2" 2>&1)
        [ "$v" = "true" ] || why+=("jq '$2' gave: $v") ;;
      *) why+=("bad expect option $1") ;;
    esac
    shift 2
  done
  if [ ${#why[@]} -eq 0 ]; then ok "$name"; else bad "$name" "${why[@]}"; fi
}

# check NAME COMMAND...: passes when the command succeeds.
check() {
  local name=$1
  shift
  if "$@"; then ok "$name"; else RC=$?; bad "$name" "command failed: $*"; fi
}

# in_dir DIR ARGS...: runs mcphost in directory DIR (a project, whose
# .mcp.json it reads), for at most 60 s; sets RC, OUT and ERR as run does.
in_dir() {
  local dir=$1
  shift
  (cd "$dir" && timeout 60 "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null)
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# prun ARGS...: in_dir in the test's project directory, $P.
prun() { in_dir "$P" "$@"; }

# free_port: a TCP port on 127.0.0.1 that nobody listens on right now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# pid_gone PID: the process ended (a zombie nobody reaped counts as
# ended). The state is the field after the command's name, which may hold
# spaces and parentheses.
pid_gone() {
  local st
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
  [ -z "$st" ] || [ "$st" = Z ]
}

# jqf EXPR FILE: jq's EXPR over FILE is neither false nor null.
jqf() { jq -e "$1" "$2" >/dev/null; }

# A config file with the given servers JSON object: config_file FILE JSON
config_file() { printf '{"mcpServers": %s}\n' "$2" >"$1"; }

EVERYTHING="$INTEROP/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

# start_listener CMD...: runs CMD in the background, gone with the test,
# its stdout and stderr in LISTEN_LOG, until it prints "listening on
# PORT" (15 s at most); sets LISTEN_PORT, or says why and returns 1.
start_listener() {
  LISTEN_LOG="$TMP/listen-$RANDOM$RANDOM.log"
  : >"$LISTEN_LOG" # exists before the background job gets to open it
  "$@" >"$LISTEN_LOG" 2>&1 &
  on_exit "kill $! 2>/dev/null"
  LISTEN_PORT=
  for _ in $(seq 150); do
    LISTEN_PORT=$(sed -n 's/^listening on //p' "$LISTEN_LOG")
    [ -n "$LISTEN_PORT" ] && return 0
    sleep 0.1
  done
  echo "could not start $*: $(cat "$LISTEN_LOG")"
  return 1
}

# start_node SCRIPT [ARGS...]: a server of ours that prints "listening on
# PORT"; sets NODE_PORT.
start_node() {
  NODE_PORT=
  start_listener node "$@" || return 1
  NODE_PORT=$LISTEN_PORT
}

# start_gateway CONFIG [ARGS...]: `mcphost --mcp-config CONFIG serve
# --http ARGS...` (127.0.0.1:0 without ARGS) in the background, gone with
# the test; sets GW_PID, GW_ERR (its stderr file) and GW_URL (from the
# line it says on stderr). The array GW_OPTS, when set, holds global
# options to give before serve.
start_gateway() {
  local config=$1
  shift
  [ $# -gt 0 ] || set -- 127.0.0.1:0
  GW_ERR="$TMP/gw-$RANDOM.err"
  : >"$GW_ERR"
  "$MCPHOST" ${GW_OPTS[@]+"${GW_OPTS[@]}"} --mcp-config "$config" serve --http "$@" 2>"$GW_ERR" </dev/null &
  GW_PID=$!
  on_exit "kill $GW_PID 2>/dev/null"
  GW_URL=
  for _ in $(seq 150); do
    GW_URL=$(sed -n 's/^mcphost serve: listening on //p' "$GW_ERR")
    [ -n "$GW_URL" ] && return 0
    kill -0 "$GW_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the gateway did not start: $(cat "$GW_ERR")"
  return 1
}

# stop_gateway: SIGTERM to the gateway of start_gateway; RC is 0 when it
# ended by the signal (143, as documented), ERR its stderr, OUT empty.
stop_gateway() {
  kill -TERM "$GW_PID"
  wait "$GW_PID"
  RC=$?
  [ "$RC" -eq 143 ] && RC=0
  OUT=
  ERR=$(cat "$GW_ERR")
}

# serve_dir DIR: a plain HTTP server of DIR's files on 127.0.0.1 (Python's
# http.server), gone with the test; sets HTTP_PORT.
serve_dir() {
  # The log is named before the server starts, and python writes its
  # "port N" line unbuffered (-u), so the port is read as soon as it is said.
  local log="$TMP/http-$RANDOM$RANDOM.log" pid
  python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$1" \
    >"$log" 2>&1 &
  pid=$!
  on_exit "kill $pid 2>/dev/null"
  HTTP_PORT=
  for _ in $(seq 300); do
    HTTP_PORT=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$log" | head -1)
    [ -n "$HTTP_PORT" ] && return 0
    sleep 0.1
  done
  echo "could not serve $1: $(cat "$log")"
  return 1
}

# batch_run CONFIG LINE...: mcphost --config CONFIG batch with the LINEs
# on stdin; sets RC, OUT and ERR.
batch_run() {
  local cfg=$1
  shift
  printf '%s\n' "$@" | "$MCPHOST" --config "$cfg" batch >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# run_until_kill TEXT PID ARGS...: runs mcphost in the background, waits
# (bounded) until its stderr shows TEXT, kills PID (a server) with SIGKILL
# and waits for mcphost; sets RC, OUT and ERR like run.
run_until_kill() {
  local text=$1 victim=$2 pid
  shift 2
  : >"$TMP/out" # not the last run's: the loop below may look first
  : >"$TMP/err"
  "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null &
  pid=$!
  for _ in $(seq 150); do
    grep -qF -- "$text" "$TMP/err" && break
    sleep 0.1
  done
  kill -9 "$victim" 2>/dev/null
  wait "$pid"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# term_run NAME STREAM ENV... -- ARGS...: mcphost ARGS in a 100x50
# terminal of its own (a private tmux server, gone with $TMP), with STREAM
# (stdout or stderr) on the terminal and the other one in a file; waits
# until it ends. Sets RC, SCREEN (all the terminal showed), FILE (the
# other stream) and TITLE (the terminal's title at the end).
term_run() {
  local name=$1 stream=$2 envs=() q redirect
  shift 2
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  [ "$stream" = stdout ] && redirect="2>'$TMP/$name.file'" ||
    redirect=">'$TMP/$name.file'"
  printf -v q '%q ' env "${envs[@]}" "$MCPHOST" "$@"
  if [ -z "${TERM_RUN_CLEANUP:-}" ]; then
    on_exit "tmux -S '$TMP/tmux.sock' kill-server 2>/dev/null"
    TERM_RUN_CLEANUP=1
  fi
  tmux -S "$TMP/tmux.sock" new-session -d -s "$name" -x 100 -y 50 \
    "$q $redirect; echo \$? >'$TMP/$name.rc'; sleep 600"
  for _ in $(seq 300); do [ -s "$TMP/$name.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$name.rc" 2>/dev/null || echo 99)
  SCREEN=$(tmux -S "$TMP/tmux.sock" capture-pane -p -J -S - -t "$name")
  FILE=$(cat "$TMP/$name.file" 2>/dev/null)
  TITLE=$(tmux -S "$TMP/tmux.sock" display-message -p -t "$name" '#{pane_title}')
}

# code_signing_ca: a CA ($TMP/ca.pem, ca.key) and a certificate for code
# signing it issued to "Test Publisher" ($TMP/leaf.pem, leaf.key), to sign
# bundles with (mcphost bundle sign) and trust them (--trust ca.pem).
code_signing_ca() {
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/ca.key" \
    -out "$TMP/ca.pem" -days 30 -subj "/CN=Test Root" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign" >/dev/null 2>&1
  openssl req -newkey rsa:2048 -nodes -keyout "$TMP/leaf.key" \
    -out "$TMP/leaf.csr" -subj "/CN=Test Publisher" >/dev/null 2>&1
  printf '%s\n' basicConstraints=CA:FALSE keyUsage=critical,digitalSignature \
    extendedKeyUsage=codeSigning >"$TMP/leaf.ext"
  openssl x509 -req -in "$TMP/leaf.csr" -CA "$TMP/ca.pem" \
    -CAkey "$TMP/ca.key" -CAcreateserial -out "$TMP/leaf.pem" -days 30 \
    -extfile "$TMP/leaf.ext" >/dev/null 2>&1
}

# tmux_server: a private tmux server whose socket lives (and goes) with
# $TMP, driven with tm; fails the test when tmux is missing.
tmux_server() {
  if ! command -v tmux >/dev/null 2>&1; then
    RC=1
    bad "tmux is installed (scripts/deps.sh test installs it)"
    finish
    exit
  fi
  SOCK="$TMP/tmux.sock"
  on_exit "tmux -S '$SOCK' kill-server 2>/dev/null"
}
tm() { tmux -S "$SOCK" "$@"; }
# tm_screen NAME: what the terminal NAME shows, scrollback too.
tm_screen() { tm capture-pane -p -J -S - -t "$1"; }
# tm_wait NAME TEXT: until the terminal shows TEXT (20 s at most).
tm_wait() {
  for _ in $(seq 200); do
    tm_screen "$1" | grep -qF -- "$2" && return 0
    sleep 0.1
  done
  return 1
}
# tm_type NAME TEXT: types TEXT and Enter.
tm_type() { tm send-keys -t "$1" -l -- "$2"; tm send-keys -t "$1" Enter; }

finish() {
  echo "$PASS passed, $FAIL failed"
  [ "$FAIL" -eq 0 ]
}

# skip_test REASON...: the rest of the script cannot run here. Exit 77,
# which ctest reports as skipped (SKIP_RETURN_CODE), never as passed; a
# check that already failed still fails the script.
skip_test() {
  echo "SKIP: $*"
  if [ "$FAIL" -gt 0 ]; then
    finish
    exit
  fi
  exit 77
}

# probe_config FILE [ENV_JSON]: FILE configures the probe server
# (tests/servers/probe_server.py) as "p", with ENV_JSON as its "env";
# readable by other users (the security tests' second user). Skips the
# test (skip_test) without python3.
probe_config() {
  local py=/usr/bin/python3
  [ -x "$py" ] || py=$(command -v python3) || {
    skip_test "no python3 for the probe server"
  }
  config_file "$1" "{\"p\": {\"command\": \"$py\", \"args\": [\"$SRCDIR/tests/servers/probe_server.py\"], \"env\": ${2:-{\}}}}"
  chmod 644 "$1"
}
