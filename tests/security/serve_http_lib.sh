# The serve --http reproductions' setup, sourced after lib.sh: python3,
# a gateway fronting the demo server.
PY=$(command -v python3) || skip_test "no python3"
C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

# gateway_start ARGS...: `mcphost serve --http 127.0.0.1:0 ARGS...` in the
# background, gone with the test (the caller's environment assignments
# reach it); sets PORT (from the line it says on stderr) and GW_PID, or
# exits the test when it does not start.
gateway_start() {
  local err="$TMP/gw.err"
  "$MCPHOST" --mcp-config "$C" serve --http 127.0.0.1:0 "$@" 2>"$err" \
    </dev/null &
  GW_PID=$!
  on_exit "kill $GW_PID 2>/dev/null"
  PORT=
  for _ in $(seq 150); do
    PORT=$(sed -n 's|^mcphost serve: listening on http://127.0.0.1:\([0-9]*\)/mcp$|\1|p' "$err")
    [ -n "$PORT" ] && return 0
    kill -0 "$GW_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "the gateway did not start: $(cat "$err")"
  exit 1
}
