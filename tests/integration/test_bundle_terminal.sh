#!/usr/bin/env bash
# bundle install on a terminal (docs/bundles.md, install step 7): the
# user_config questions through the host's ui service, a default taken on
# an empty answer, a number out of range asked again, a required setting
# not satisfied by its default, a `multiple` setting collected until an
# empty answer, a sensitive answer never shown, and the confirmation.
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
tmux_server
answer() { # answer NAME QUESTION TEXT
  if tm_wait "$1" "$2"; then
    [ -z "$3" ] || tm send-keys -t "$1" -l -- "$3"
    tm send-keys -t "$1" Enter
  else
    RC=1 bad "the question \"$2\" came" "$(tm_screen "$1")"
  fi
}
start() { # start NAME ARGS...
  local name=$1 q
  shift
  printf -v q '%q ' "$MCPHOST" "$@"
  tm new-session -d -s "$name" -x 200 -y 50 \
    "$q >'$TMP/$name.out'; echo \$? >'$TMP/$name.rc'; sleep 600"
}
ended() { # ended NAME: waits for the exit; RC, OUT and ERR (the screen)
  for _ in $(seq 300); do [ -s "$TMP/$1.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$1.rc" 2>/dev/null || echo 99)
  OUT=$(cat "$TMP/$1.out" 2>/dev/null)
  ERR=$(tm_screen "$1")
}

start i bundle install "$FX/hello-node-1.0.0.mcpb"
answer i "Greeting (string)" ""
answer i "API key (string, sensitive, not shown)" "s3cret-value"
answer i "Max results (number, 1..100)" "500"
tm_wait i "above the maximum 100"
answer i "Max results (number, 1..100)" "7"
answer i "Verbose (boolean)" "yes"
answer i "Allowed directories (directory, required, one per answer" ""
tm_wait i "allowed_dirs is required"
answer i "Allowed directories (directory, required, one per answer" "/tmp"
answer i "another one, empty to end" ""
answer i "Install hello-node 1.0.0? [y/N]" "y"
ended i
expect "install asks each setting on a terminal" 0 \
  --out "Installed hello-node 1.0.0" --err "above the maximum 100" \
  --err "allowed_dirs is required: give at least one value" \
  --no-err "s3cret-value"
run call mcp__hello-node__hello name=Ada
expect "  and its answers are used, the default where none was given" 0 \
  --out 'argv=["--max=7","--verbose=true","/tmp"]' --out "GREETING=Hi"
check "  the sensitive one is in the secrets store" grep -q s3cret-value \
  "$XDG_STATE_HOME/mcphost/secrets/mcphost.feature.mcpb/hello-node--api_key"

start no bundle install "$FX/hello-bin-0.3.0.mcpb"
answer no "Workspace (directory)" ""
answer no "Install hello-bin 0.3.0? [y/N]" "n"
ended no
expect "answering no installs nothing" 8 --err "not installed"
check "  no directory" test ! -e "$HOME/.local/share/mcphost/bundles/hello-bin"

# A download shows its progress on a terminal, a line per tenth at most.
mkdir -p "$TMP/www"
cp "$FX/hello-bin-0.3.0.mcpb" "$TMP/www/"
serve_dir "$TMP/www"
PORT=$HTTP_PORT
start dl bundle install "http://127.0.0.1:$PORT/hello-bin-0.3.0.mcpb" \
  --insecure --yes
ended dl
expect "a download shows its progress on a terminal" 0 \
  --err "Downloading bundle: 100%" --out "Installed hello-bin"
lines=$(grep -c "Downloading bundle" <<<"$ERR")
check "  in at most 11 lines" test "$lines" -le 11

finish
