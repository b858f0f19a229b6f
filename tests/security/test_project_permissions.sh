#!/usr/bin/env bash
# Issue 11, point 3: a project file's permission rules govern only the
# servers that file defines, once approved. A planted parent .mcp.json
# with allow: ["mcp__*"] must neither reach the repository's servers nor
# override the repository's own "default": "ask".
. "$(dirname "$0")/lib.sh"
W="$HOME/work"
mkdir -p "$W/repo"
printf '{"mcpServers": {"p": {"command": "%s"}}, "permissions": {"allow": ["mcp__*"]}}\n' \
  "$DEMO" >"$W/.mcp.json"
printf '{"mcpServers": {"t": {"command": "%s"}}, "permissions": {"default": "ask"}}\n' \
  "$DEMO" >"$W/repo/.mcp.json"

prun "$W/repo" mcp approve t
prun "$W/repo" call mcp__t__echo message=x
expect "the repository's default ask holds while the parent's server is pending" 8 \
  --err "needs permission" --no-out "Echo: x"
prun "$W/repo" mcp approve p
prun "$W/repo" call mcp__t__echo message=x
expect "an approved parent file's allow does not reach the repository's server" 8 \
  --err "default \"ask\" (project settings $W/repo/.mcp.json: permissions.default)" \
  --no-out "Echo: x"
prun "$W/repo" call mcp__p__echo message=own
expect "the parent file's rules govern its own server" 0 --out "Echo: own"
prun "$W/repo" --allow mcp__t__echo call mcp__t__echo message=allowed
expect "the ask is answered as usual" 0 --out "Echo: allowed"

# A pending file's rules govern nothing, not even a deny.
printf '{"mcpServers": {"q": {"command": "%s"}}, "permissions": {"deny": ["mcp__t__*"]}}\n' \
  "$DEMO" >"$W/.mcp.json"
prun "$W/repo" --allow mcp__t__echo call mcp__t__echo message=still
expect "a parent's deny for another file's server is not applied either" 0 --out "Echo: still"
finish
