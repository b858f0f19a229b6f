# The gateway's tests (test_gateway.sh, test_gateway_http.sh,
# test_gateway_edges.sh), sourced after lib.sh: what they need installed,
# the permission rules (a deny and an ask on the demo server's tools), and
# the backends in $C: the demo server, server-everything, the growing
# backend of tests/interop/gateway_backend.mjs and the probe server; EXTRA
# (JSON members, starting with a comma) adds more. Sets PY and C.
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
command -v node >/dev/null || skip_test "no node for the TS SDK client"
PY=$(command -v python3) || skip_test "no python3 for the probe server"

mkdir -p "$XDG_CONFIG_HOME/mcphost"
chmod 700 "$XDG_CONFIG_HOME" "$XDG_CONFIG_HOME/mcphost"
printf '%s\n' '{"permissions": {"deny": ["mcp__demo__add"], "ask": ["mcp__demo__fail"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
chmod 600 "$XDG_CONFIG_HOME/mcphost/settings.json"

C="$TMP/servers.json"
config_file "$C" "{
  \"demo\": {\"command\": \"$DEMO\"},
  \"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"grow\": {\"command\": \"node\", \"args\": [\"$INTEROP/gateway_backend.mjs\"]},
  \"probe\": {\"command\": \"$PY\", \"args\": [\"$SRCDIR/tests/servers/probe_server.py\"]}${EXTRA:-}}"
