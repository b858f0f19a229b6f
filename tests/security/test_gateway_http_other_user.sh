#!/usr/bin/env bash
# serve --http on loopback without a token serves only the user who
# started it. The attack: another local account posts to the gateway and
# calls a tool, which runs as the gateway's user (before the fix it ran
# `id` and wrote into the victim's home that way). Now that account's
# connection is answered 403 before a byte of its request is read; the
# gateway's own user is served; a token lets a token holder of any uid
# in; --no-auth opens it to everyone, with a warning at start.
. "$(dirname "$0")/../lib/other_user.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
other_user_setup
command -v setpriv >/dev/null || skip_test "no setpriv to connect as another user"
# The system's python: another user may not reach one under $HOME.
SYSPY=/usr/bin/python3
[ -x "$SYSPY" ] || skip_test "no $SYSPY to connect as another user"

# post USER TOKEN: initialize, then tools/call demo's echo, from a python
# client running as USER ("self" for this test's own user); prints the
# status of each and the echo's text.
post() {
  local who=$1 tok=${2:-}
  local cmd=("$SYSPY" - "$PORT" "$tok")
  if [ "$who" != self ]; then
    cmd=(setpriv --reuid="$OTHER_UID" --regid="$OTHER_GID" --clear-groups
         "${cmd[@]}")
  fi
  "${cmd[@]}" <<'PYEOF'
import http.client, json, sys
port, tok = int(sys.argv[1]), sys.argv[2]
hdr = {"Content-Type": "application/json",
       "Accept": "application/json, text/event-stream"}
if tok:
    hdr["Authorization"] = "Bearer " + tok
def post(body, extra={}):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        c.request("POST", "/mcp", json.dumps(body), {**hdr, **extra})
        r = c.getresponse()
        return r.status, r.getheader("Mcp-Session-Id"), r.read().decode()
    except (ConnectionError, http.client.HTTPException) as e:
        return "closed", None, str(e)
st, sid, text = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "t", "version": "1"}}})
print("initialize", st)
if st != 200:
    print("body", text.strip())
    sys.exit(0)
extra = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}
post({"jsonrpc": "2.0", "method": "notifications/initialized"}, extra)
st, _, text = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
    "params": {"name": "mcp__demo__echo",
               "arguments": {"message": "ran as the gateway's user"}}}, extra)
print("call", st)
print("echo" if "ran as the gateway" in text else "no echo")
PYEOF
}

gateway_start
OUT=$(post other)
echo "$OUT" | sed 's/^/# /'
check "another user's initialize is refused with 403" \
  grep -qx "initialize 403" <<<"$OUT"
check "the 403 says why" \
  grep -q "serves only the user who started it" <<<"$OUT"
OUT=$(post self)
check "the gateway's own user is served: initialize 200" \
  grep -qx "initialize 200" <<<"$OUT"
check "the gateway's own user calls a tool" grep -qx echo <<<"$OUT"
kill "$GW_PID"; wait "$GW_PID" 2>/dev/null

# A token is the authentication: whoever holds it is served, whatever
# its uid; without it, 401.
TOK="$TMP/token"
gateway_start --token-file "$TOK"
OUT=$(post other "$(head -1 "$TOK")")
check "with --token-file, another user holding the token is served" \
  grep -qx echo <<<"$OUT"
OUT=$(post other)
check "with --token-file, another user without it gets 401" \
  grep -qx "initialize 401" <<<"$OUT"
kill "$GW_PID"; wait "$GW_PID" 2>/dev/null

# --no-auth: the old behaviour, asked for, and said at start.
gateway_start --no-auth
check "--no-auth warns on stderr at start" \
  grep -q "warning: --no-auth: every user of this machine" "$GW_ERR"
OUT=$(post other)
check "--no-auth serves another user" grep -qx echo <<<"$OUT"
kill "$GW_PID"; wait "$GW_PID" 2>/dev/null

run --mcp-config "$C" serve --http 127.0.0.1:0 --no-auth --token
expect "--no-auth with --token is a usage error" 2 --err "exclude each other"
run --mcp-config "$C" serve --stdio --no-auth
expect "--no-auth is for --http" 2 --err "are for --http"
finish
