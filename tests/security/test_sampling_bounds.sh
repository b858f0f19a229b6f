#!/usr/bin/env bash
# Issue 26, point 7: the sampling hook had no bound: one server's
# requests started as many hook processes as it sent (300 at once). Per
# server at most 4 hooks run, 16 more requests wait their turn, and
# further ones are declined with a message the server gets; a request
# that comes while no call of this client to that server is in flight is
# declined unless --sampling-outside-calls names the server.
# tests/servers/sampling_server.py sends the requests; the hook records
# its start and end in a file and holds until the test releases it.
. "$(dirname "$0")/../lib/other_user.sh"
D="$TMP/hooks"
mkdir -p "$D"
HOOKS="$D/hooks.log" SLOG="$D/server.log"
: >"$HOOKS"
cat >"$D/hook" <<EOF
#!/bin/sh
cat >/dev/null
echo "start \$\$" >>"$HOOKS"
while [ ! -e "$D/release" ]; do sleep 0.05; done
echo "end \$\$" >>"$HOOKS"
echo '{"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "hook"}'
EOF
chmod 0755 "$D/hook"
C="$TMP/sampling.json"
config_file "$C" "{\"flood\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/sampling_server.py\"], \"env\": {\"SAMPLING_SERVER_LOG\": \"$SLOG\"}}}"
starts() { grep -c '^start' "$HOOKS"; }
declines() { grep -c '^error .* -1 sampling declined' "$SLOG" 2>/dev/null || echo 0; }

# 30 requests at once within one call: 4 hooks run, 16 wait, 10 declined.
"$MCPHOST" --config "$C" --sampling="hook:$D/hook" call flood/flood n:=30 \
  >"$TMP/flood.out" 2>"$TMP/flood.err" </dev/null &
FLOOD=$!
on_exit "kill $FLOOD 2>/dev/null"
# Until more than 4 hooks started (the hole), or 4 did and the server has
# its 10 declines (the bound); the hooks hold until released.
for _ in $(seq 600); do
  s=$(starts)
  [ "$s" -gt 4 ] && break
  [ "$s" -eq 4 ] && [ "$(declines)" -ge 10 ] && break
  kill -0 "$FLOOD" 2>/dev/null || break
  sleep 0.1
done
RC=0 OUT="" ERR=""
[ "$(starts)" -eq 4 ] && ok "a server's 30 sampling requests at once run 4 hooks" ||
  bad "a server's 30 sampling requests at once run 4 hooks" "hooks started: $(starts)"
[ "$(declines)" -eq 10 ] && ok "... 16 wait, and the 10 beyond are declined (the server is told)" ||
  bad "... 16 wait, and the 10 beyond are declined" "declines: $(declines)" "$(head -3 "$SLOG")"
grep -q "sampling declined: 4 requests of this server are being answered and 16 wait" "$SLOG" &&
  ok "... with a message saying why" || bad "... with a message saying why" "$(head -3 "$SLOG")"
touch "$D/release"
wait "$FLOOD"
RC=$? OUT=$(cat "$TMP/flood.out") ERR=$(cat "$TMP/flood.err")
expect "once released the waiting ones are answered in turn" 0 \
  --out "answered 20 declined 10: sampling declined: 4 requests of this server"
most=$(awk '/^start/ {n++; if (n > m) m = n} /^end/ {n--} END {print m + 0}' "$HOOKS")
[ "$most" -le 4 ] && [ "$(starts)" -eq 20 ] &&
  ok "20 hooks ran, never more than 4 at a time (at most $most)" ||
  bad "20 hooks ran, never more than 4 at a time" "started $(starts), at most $most at once"

# A request outside any call (the server asks during tools/list).
: >"$HOOKS"
: >"$SLOG"
config_file "$C" "{\"flood\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/sampling_server.py\"], \"env\": {\"SAMPLING_SERVER_LOG\": \"$SLOG\", \"SAMPLING_SERVER_ASK_ON_LIST\": \"1\"}}}"
run --config "$C" --sampling="hook:$D/hook" tools flood --json
expect "a sampling request while no call is in flight is declined, the server told why" 0 \
  --out "asked during tools/list: declined: sampling declined: no call of this client to the server is in flight" \
  --out "--sampling-outside-calls=SERVER"
[ "$(starts)" -eq 0 ] && ok "... and no hook ran" || bad "... and no hook ran" "hooks: $(starts)"
run --config "$C" --sampling="hook:$D/hook" --sampling-outside-calls=other,flood tools flood --json
expect "--sampling-outside-calls naming the server lets the hook answer it" 0 \
  --out "asked during tools/list: answered"
MCPHOST_OPTION_SAMPLING_OUTSIDE_CALLS=other run --config "$C" --sampling="hook:$D/hook" tools flood --json
expect "... and naming another server does not" 0 --out "asked during tools/list: declined"
finish
