#!/usr/bin/env bash
# Token refresh against the loopback authorization server of
# tests/servers/oauth_server.mjs: a token of 120 s is used while it is
# fresh, not refreshed at every run (the margin is a quarter of a short
# lifetime, 5 minutes of a long one); parallel runs with an expired token
# share one refresh (each reads the store again inside its lock and takes
# the token another process stored); a passing failure of the token
# endpoint (503) is tried twice more before giving up (an invalid_grant,
# tried once, is test_oauth.sh's).
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
. "$(dirname "$0")/../lib/oauth.sh"

# ---- short-lived tokens ----
server --expires-in 120
MCPHOST_OAUTH_BROWSER=follow run --config "$C" mcp login srv
expect "login gets a token of 120 s" 0 --out 'Authorized server "srv"'
check "its lifetime is stored beside its expiry (issuedAt)" \
  jq -e '.mcpOAuth[] | .expiresAt - .issuedAt == 120000' "$CREDS"
good=0
for _ in 1 2 3 4 5; do
  run --config "$C" call mcp__srv__whoami
  [ "$RC" = 0 ] && grep -q "scope mcp:read" "$TMP/out" && good=$((good + 1))
done
[ "$good" = 5 ] && [ "$(stat_of refreshes)" = 0 ] &&
  ok "5 runs in a row while the 120 s token is fresh: all succeed, 0 refreshes" ||
  bad "$good of 5 runs succeeded, $(stat_of refreshes) refreshes"

# Expired 80 s ago (the same lifetime): 8 parallel runs, one refresh.
edit_creds '.mcpOAuth[] |= (.expiresAt = (now * 1000 | floor) - 80000 | .issuedAt = .expiresAt - 120000)'
parallel_calls 8
okruns=$PAR_OK
[ "$okruns" = 8 ] && [ "$(stat_of refreshes)" = 1 ] &&
  ok "8 parallel runs with an expired 120 s token all succeed and refresh once" ||
  bad "parallel: $okruns of 8 succeeded, $(stat_of refreshes) refreshes: $(cat "$TMP"/par.*.err)"
check "the refreshed token's lifetime is stored" \
  jq -e '.mcpOAuth[] | .expiresAt - .issuedAt == 120000 and .expiresAt > now * 1000' "$CREDS"
run --config "$C" call mcp__srv__whoami
[ "$RC" = 0 ] && [ "$(stat_of refreshes)" = 1 ] &&
  ok "a run after them uses the refreshed token (no more refreshes)" ||
  bad "rc $RC, $(stat_of refreshes) refreshes"

# ---- a passing failure of the token endpoint ----
server --refresh-fail 1
MCPHOST_OAUTH_BROWSER=follow run --config "$C" mcp login srv
kill_server_tokens
run --config "$C" call mcp__srv__whoami
expect "a refresh answered 503 once is tried again and the run succeeds" 0 \
  --out "scope mcp:read"
check "... with 2 refresh requests" test "$(stat_of refreshes)" = 2

server --refresh-fail -1
MCPHOST_OAUTH_BROWSER=follow run --config "$C" mcp login srv
kill_server_tokens
run --config "$C" call mcp__srv__whoami
expect "a refresh answered 503 every time: given up after 3 tries, the login hint, exit 7" 7 \
  --err 'the token refresh failed 3 times (HTTP 503); the stored tokens are kept' \
  --err 'mcphost mcp login srv'
check "... 3 refresh requests" test "$(stat_of refreshes)" = 3
check "... the tokens are kept for a later run" \
  jq -e '.mcpOAuth[] | has("refreshToken") and has("accessToken")' "$CREDS"

finish
