#!/usr/bin/env bash
# Servers that cannot start, die, babble or hang: each gets a clear error,
# and the other servers keep working.
. "$(dirname "$0")/../lib/lib.sh"
G="\"good\": {\"command\": \"$DEMO\"}"

config_file "$TMP/c1.json" "{$G, \"missing\": {\"command\": \"/nonexistent/mcp-server\"}}"
run --config "$TMP/c1.json" servers
expect "command not found: the error names the command and errno" 3 \
  --out "missing  stdio  failed: cannot start \"/nonexistent/mcp-server\": No such file or directory" \
  --out "good     stdio  connected"
run --config "$TMP/c1.json" call mcp__good__echo message=ok
expect "a call never waits on an unrelated broken server" 0 --out "Echo: ok"
run --config "$TMP/c1.json" call mcp__missing__echo message=x
expect "calling the broken server fails with exit code 3" 3 \
  --err "server \"missing\" failed: cannot start"

config_file "$TMP/c2.json" "{$G, \"dies\": {\"command\": \"$DEMO\", \"args\": [\"--exit-at-start\"]}}"
run --config "$TMP/c2.json" servers
expect "a server that exits at once: exit status and its stderr are quoted" 3 \
  --out "dies  stdio  failed:" --out "exited with status 3" \
  --out "fatal: demo server refusing to start" --out "good  stdio  connected"
check "the server's stderr is kept in its log file" \
  grep -q "fatal: demo server refusing to start" "$XDG_STATE_HOME/mcphost/logs/dies.stderr.log"

config_file "$TMP/c3.json" "{\"noisy\": {\"command\": \"$DEMO\", \"args\": [\"--noise\"]}}"
run --config "$TMP/c3.json" call mcp__noisy__echo message=through
expect "a server that prints noise before JSON still works; the noise is reported" 0 \
  --out "Echo: through" --err "non-JSON line"
run --config "$TMP/c3.json" -q call mcp__noisy__echo message=through
expect "-q keeps the noise off stderr, and the answer whole" 0 \
  --out "Echo: through" --no-err "non-JSON line"
run --config "$TMP/c3.json" call -q mcp__noisy__echo message=quiet
expect "-q after the command too" 0 --out "Echo: quiet" --no-err "non-JSON"
run --config "$TMP/c3.json" -q -v call mcp__noisy__echo message=through
expect "-q -v: the noise as info" 0 --err "mcphost: info: [noisy] server wrote a non-JSON line"

config_file "$TMP/c4.json" "{$G, \"mute\": {\"command\": \"$DEMO\", \"args\": [\"--no-initialize\"]}}"
run --config "$TMP/c4.json" --timeout 1500 servers
expect "a server that never answers initialize hits the deadline; the other connects" 5 \
  --out "mute  stdio  failed: server did not answer initialize in time" \
  --out "good  stdio  connected"
MCP_TIMEOUT=1000 run --config "$TMP/c4.json" call mcp__mute__echo message=x
expect "MCP_TIMEOUT sets the connect deadline" 5 \
  --err "server \"mute\" failed: server did not answer initialize in time"

config_file "$TMP/c5.json" "{\"cwdbad\": {\"command\": \"$DEMO\", \"cwd\": \"/nonexistent/dir\"}}"
run --config "$TMP/c5.json" servers
expect "a cwd that does not exist is named" 3 --out "/nonexistent/dir"

config_file "$TMP/c6.json" "{\"argsbad\": {\"command\": \"$DEMO\", \"args\": [\"ok\", 3]}}"
run --config "$TMP/c6.json" servers
expect "a wrongly typed field is named with the file and server" 3 \
  --out "$TMP/c6.json: server \"argsbad\":" --out "args[1]"

config_file "$TMP/c7.json" "{$G, \"typo\": {\"type\": \"stdoi\", \"command\": \"x\"}}"
run --config "$TMP/c7.json" --json servers
expect "an unknown transport type names the type and where plugins were looked for" 3 \
  --jq '(.[] | select(.name == "typo") | .error | contains("no plugin serves transport type \"stdoi\"") and contains("plugins looked for in:"))' \
  --jq '(.[] | select(.name == "good") | .state) == "connected"'

printf '{"mcpServers": {' >"$TMP/broken.json"
run --config "$TMP/broken.json" --config "$TMP/c1.json" call mcp__good__echo message=x
expect "a broken --config file is a usage error naming it; nothing starts" 2 \
  --err "config error: $TMP/broken.json: invalid JSON" --no-out "Echo: x"
run --config "$TMP/nope.json" tools
expect "a missing --config file is a usage error naming it" 2 --err "$TMP/nope.json: cannot open"

# A server that dies in the middle of a call: the call fails at once.
cat >"$TMP/dies-mid-call.sh" <<SH
#!/bin/sh
# Answers initialize through the demo server, then dies on tools/call.
exec python3 -c '
import json, sys, subprocess
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        print(json.dumps({"jsonrpc":"2.0","id":m["id"],"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"dier","version":"1"}}}), flush=True)
    elif m.get("method") == "tools/list":
        print(json.dumps({"jsonrpc":"2.0","id":m["id"],"result":{"tools":[{"name":"boom","inputSchema":{"type":"object"}}]}}), flush=True)
    elif m.get("method") == "tools/call":
        sys.stderr.write("crashing on purpose\\n"); sys.exit(7)
'
SH
chmod +x "$TMP/dies-mid-call.sh"
if command -v python3 >/dev/null; then
  config_file "$TMP/c8.json" "{\"dier\": {\"command\": \"$TMP/dies-mid-call.sh\"}}"
  run --config "$TMP/c8.json" call mcp__dier__boom
  expect "a server that dies during a call: the call fails at once with its exit status" 3 \
    --err "went away during tools/call" --err "exited with status 7" --err "crashing on purpose"
fi

# A server that offers a protocol version we do not speak (and knows no
# server/discover: the probe gets -32601).
cat >"$TMP/oldproto.sh" <<'SH'
#!/bin/sh
while read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
  case $line in *'"initialize"'*) break ;; esac
  printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"
done
printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"old","version":"0"}}}\n' "$id"
cat >/dev/null
SH
chmod +x "$TMP/oldproto.sh"
config_file "$TMP/c9.json" "{\"old\": {\"command\": \"$TMP/oldproto.sh\"}}"
run --config "$TMP/c9.json" servers
expect "an unsupported protocol version is refused by name" 4 \
  --out "server chose protocol version \"1999-01-01\", which mcphost does not support"

# A server that downgrades to an older supported version is accepted.
sed 's/1999-01-01/2024-11-05/' "$TMP/oldproto.sh" >"$TMP/downgrade.sh"
chmod +x "$TMP/downgrade.sh"
config_file "$TMP/c10.json" "{\"down\": {\"command\": \"$TMP/downgrade.sh\"}}"
run --config "$TMP/c10.json" --json servers
expect "a downgrade to 2024-11-05 is accepted" 0 \
  --jq '.[0].state == "connected" and .[0].protocolVersion == "2024-11-05"'
run --config "$TMP/c10.json" call down/anything
expect "a method whose capability the server did not declare is refused locally" 4 \
  --err "server \"down\" does not support tools/call (it declared no \"tools\" capability)"

finish
