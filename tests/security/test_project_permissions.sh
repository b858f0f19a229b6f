#!/usr/bin/env bash
# Issue 11, point 3: a project file's permission rules govern only the
# servers that file defines, once approved. A planted parent .mcp.json
# with allow: ["mcp__*"] must neither reach the repository's servers nor
# override the repository's own "default": "ask".
. "$(dirname "$0")/../lib/other_user.sh"
W="$HOME/work"
mkdir -p "$W/repo"
printf '{"mcpServers": {"p": {"command": "%s"}}, "permissions": {"allow": ["mcp__*"]}}\n' \
  "$DEMO" >"$W/.mcp.json"
printf '{"mcpServers": {"t": {"command": "%s"}}, "permissions": {"default": "ask"}}\n' \
  "$DEMO" >"$W/repo/.mcp.json"

in_dir "$W/repo" mcp approve t
in_dir "$W/repo" call mcp__t__echo message=x
expect "the repository's default ask holds while the parent's server is pending" 8 \
  --err "needs permission" --no-out "Echo: x"
in_dir "$W/repo" mcp approve p
in_dir "$W/repo" call mcp__t__echo message=x
expect "an approved parent file's allow does not reach the repository's server" 8 \
  --err "default \"ask\" (project settings $W/repo/.mcp.json: permissions.default)" \
  --no-out "Echo: x"
in_dir "$W/repo" call mcp__p__echo message=own
expect "the parent file's rules govern its own server" 0 --out "Echo: own"
in_dir "$W/repo" --allow mcp__t__echo call mcp__t__echo message=allowed
expect "the ask is answered as usual" 0 --out "Echo: allowed"

# A pending file's rules govern nothing, not even for a server of its
# name: here the project's "q" is pending, so the user's own "q" runs, and
# the pending file's allow for mcp__q__* must not answer the user's ask.
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
mkdir -p "$(dirname "$SETTINGS")" "$W/other"
printf '{"mcpServers": {"q": {"command": "%s"}}, "permissions": {"default": "ask"}}\n' \
  "$DEMO" >"$SETTINGS"
printf '{"mcpServers": {"q": {"command": "%s"}}, "permissions": {"allow": ["mcp__q__*"]}}\n' \
  "$DEMO" >"$W/other/.mcp.json"
in_dir "$W/other" call mcp__q__echo message=x
expect "a pending file's allow does not reach the user's server of the same name" 8 \
  --err "needs permission" --no-out "Echo: x"

# An approval binds the file's permission rules too: added rules after
# the approval make the server pending, "changed since approval".
printf '{"permissions": {"default": "ask"}}\n' >"$SETTINGS"
mkdir -p "$W/bound/.git"
printf '{"mcpServers": {"t": {"command": "%s"}}}\n' "$DEMO" >"$W/bound/.mcp.json"
in_dir "$W/bound" mcp approve t
in_dir "$W/bound" call mcp__t__echo message=x
expect "an approved server asks under the user's default" 8 --err "needs permission"
printf '{"mcpServers": {"t": {"command": "%s"}}, "permissions": {"allow": ["mcp__t__*"]}}\n' \
  "$DEMO" >"$W/bound/.mcp.json"
in_dir "$W/bound" call mcp__t__echo message=x
expect "rules added to its file after the approval make it pending" 8 \
  --err "changed since approval" \
  --err 'permissions of its file: (none) -> {"allow":["mcp__t__*"]}' --no-out "Echo: x"
in_dir "$W/bound" mcp approve t
expect "approve shows the file's rules it approves" 0 \
  --out 'permissions of its file: {"allow":["mcp__t__*"]}'
in_dir "$W/bound" call mcp__t__echo message=ok
expect "approved with its rules, they apply" 0 --out "Echo: ok"
finish
