# The serve --http reproductions' setup, sourced after lib.sh: python3,
# a gateway fronting the demo server.
PY=$(command -v python3) || skip_test "no python3"
C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

# gateway_start ARGS...: lib.sh's start_gateway on $C and 127.0.0.1:0
# with ARGS (the caller's environment assignments reach it); sets PORT
# too, or exits the test when the gateway does not start.
gateway_start() {
  start_gateway "$C" 127.0.0.1:0 "$@" || exit 1
  PORT=${GW_URL#http://127.0.0.1:}
  PORT=${PORT%/mcp}
}
