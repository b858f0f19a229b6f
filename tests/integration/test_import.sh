#!/usr/bin/env bash
# mcphost mcp import cursor|windsurf|vscode|codex|claude-desktop: sample
# files as each client writes them (tests/fixtures/import), each server
# imported as mcphost entry, skipped with its reason or noted; the
# client's own place found without --from; Codex's TOML read by our
# reader, whose errors name the file and the line.
. "$(dirname "$0")/../lib/lib.sh"
F="$SRCDIR/tests/fixtures/import"
U="$XDG_CONFIG_HOME/mcphost/settings.json"
# entry NAME: the user scope's entry NAME, compact.
entry() { jq -c --arg n "$1" '.mcpServers[$n]' "$U"; }
# is NAME JSON: the entry is exactly JSON.
is() { [ "$(entry "$1")" = "$(jq -c . <<<"$2")" ]; }
fresh() { rm -f "$U"; }

# ---- Cursor ----
run mcp import cursor --from "$F/cursor-mcp.json" --scope user
expect "cursor: what was imported and what was skipped, and why" 0 \
  --out "imported: github notion sqlite" \
  --out 'skipped web-search: it reads an envFile'
check "cursor: \${env:NAME} becomes \${NAME}" is github \
  '{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"${GITHUB_TOKEN}"}}'
check "cursor: a url entry is a remote server with its headers" is notion \
  '{"url":"https://mcp.notion.com/mcp","headers":{"Authorization":"Bearer ${NOTION_TOKEN}"}}'
check "cursor: \${userHome} becomes \${HOME}" is sqlite \
  '{"command":"uvx","args":["mcp-server-sqlite","--db-path","${HOME}/data/app.db"]}'
check "cursor: a skipped server is not written" is web-search null
run mcp import cursor --from "$F/cursor-mcp.json" --scope user
expect "cursor: imported again, each is already there" 0 \
  --out "already there: github notion sqlite" --no-out "imported:"

# Without --from: ~/.cursor/mcp.json.
fresh
mkdir -p "$HOME/.cursor"
cp "$F/cursor-mcp.json" "$HOME/.cursor/mcp.json"
run mcp import cursor --scope user
expect "cursor: ~/.cursor/mcp.json is read without --from" 0 \
  --out "From $HOME/.cursor/mcp.json" --out "imported: github notion sqlite"

# ---- Windsurf ----
fresh
mkdir -p "$HOME/.codeium/windsurf"
cp "$F/windsurf-mcp_config.json" "$HOME/.codeium/windsurf/mcp_config.json"
run mcp import windsurf --scope user
expect "windsurf: ~/.codeium/windsurf/mcp_config.json, disabled servers skipped, settings mcphost lacks noted" 0 \
  --out "imported: git figma puppeteer" \
  --out "skipped old-memory: it is disabled there" \
  --out 'note: server "puppeteer": "disabledTools" not imported'
check "windsurf: serverUrl becomes url" is figma \
  '{"headers":{"X-Figma-Region":"us-east-1"},"url":"https://mcp.figma.com/mcp"}'
check "windsurf: \${env:HOME} becomes \${HOME}" is git \
  '{"command":"uvx","args":["mcp-server-git","--repository","${HOME}/src/app"]}'

# ---- VS Code: JSON with comments, "servers", inputs ----
fresh
cp -r "$F/vscode-project" "$TMP/proj"
(cd "$TMP/proj" && "$MCPHOST" mcp import vscode --scope user >"$TMP/out" 2>"$TMP/err")
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "vscode: .vscode/mcp.json here, comments and trailing commas read" 0 \
  --out "From $TMP/proj/.vscode/mcp.json" \
  --out "imported: perplexity fetch github workspace-tools" \
  --out 'skipped notes: it reads an envFile'
expect "vscode: an input is said as the environment variable it became" 0 \
  --out "VS Code's input \"perplexity-key\" (Perplexity API Key) is \${PERPLEXITY_KEY}: set PERPLEXITY_KEY in the environment"
check "vscode: \${input:ID} becomes \${ID} as a variable name" is perplexity \
  '{"type":"stdio","command":"npx","args":["-y","server-perplexity-ask"],"env":{"PERPLEXITY_API_KEY":"${PERPLEXITY_KEY}"}}'
check "vscode: \${workspaceFolder} is the folder that holds .vscode" is workspace-tools \
  "{\"type\":\"stdio\",\"command\":\"node\",\"args\":[\"$TMP/proj/tools/server.js\"]}"
check "vscode: an http server keeps its type" is github \
  '{"type":"http","url":"https://api.githubcopilot.com/mcp/"}'
# A settings.json keeps them under "mcp".
fresh
printf '{"editor.fontSize": 14, "mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}}' >"$TMP/settings.json"
run mcp import vscode --from "$TMP/settings.json" --scope user
expect "vscode: a settings.json's mcp.servers" 0 --out "imported: time"
# ${workspaceFolder} outside a .vscode folder cannot be known.
printf '{"servers": {"ws": {"command": "node", "args": ["${workspaceFolder}/s.js"]}}}' >"$TMP/mcp.json"
run mcp import vscode --from "$TMP/mcp.json" --scope user
expect "vscode: a variable mcphost cannot expand skips the server, named" 0 \
  --out 'skipped ws: it uses ${workspaceFolder}, which mcphost cannot expand'

# ---- Codex: TOML ----
fresh
mkdir -p "$TMP/codex"
cp "$F/codex-config.toml" "$TMP/codex/config.toml"
CODEX_HOME="$TMP/codex" run mcp import codex --scope user
expect "codex: \$CODEX_HOME/config.toml's mcp_servers, disabled ones skipped" 0 \
  --out "From $TMP/codex/config.toml" \
  --out "imported: context7 docs figma escapes" \
  --out "skipped sentry: it is disabled there (enabled = false)" \
  --out 'note: server "docs": "startup_timeout_sec" not imported' \
  --err 'server "local tools" skipped: the name has characters'
check "codex: a multi-line array, an inline table, a comment" is docs \
  '{"command":"docs-server","args":["--port","4000"],"env":{"API_KEY":"value","LOG_LEVEL":"debug"}}'
check "codex: url, bearer_token_env_var and http_headers as an http server" is figma \
  '{"url":"https://mcp.figma.com/mcp","headers":{"Authorization":"Bearer ${FIGMA_OAUTH_TOKEN}","X-Figma-Region":"us-east-1"},"type":"http"}'
check "codex: escapes, literal strings, env_vars and an [env] sub-table" is escapes \
  '{"command":"/opt/tools/srv","args":["café","tab\there","C:\\literal\\path"],"env":{"PATH_EXTRA":"${PATH_EXTRA}","HOME_DIR":"/home/ada"}}'

# What the reader does not take is said with the file and the line.
bad_toml() { # DESCRIPTION LINE MESSAGE TEXT
  printf '%b' "$4" >"$TMP/bad.toml"
  run mcp import codex --from "$TMP/bad.toml" --scope user
  expect "codex: $1" 6 --err "cannot import: $TMP/bad.toml:$2: $3"
}
bad_toml "an unclosed string" 3 "a string is not closed on its line" \
  '# x\n[mcp_servers.a]\ncommand = "npx\n'
bad_toml "an array of tables" 1 "arrays of tables ([[...]]) are not read here" \
  '[[mcp_servers]]\nname = "a"\n'
bad_toml "a key defined twice" 3 'the key "command" is defined twice' \
  '[mcp_servers.a]\ncommand = "a"\ncommand = "b"\n'
bad_toml "a table defined twice" 4 'the table [a] is defined twice' \
  '[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.a]\n'
bad_toml "a date" 2 '"1979-05-27" is not a value this reader knows' \
  '[mcp_servers.a]\nsince = 1979-05-27\n'
bad_toml "a multi-line string" 2 "multi-line strings are not read here" \
  '[mcp_servers.a]\ncommand = """x"""\n'
bad_toml "an array left open" 4 "an array needs ',' or ']' here" \
  '[mcp_servers.a]\nargs = [\n  "a"\n  "b"]\n'
run mcp import codex --from "$TMP/none.toml" --scope user
expect "codex: a missing file is named" 6 --err "$TMP/none.toml: cannot be read"

# ---- Claude Desktop, through the same path ----
fresh
run mcp import claude-desktop --from "$F/claude_desktop_config.json" --scope user
expect "claude-desktop: its mcpServers" 0 --out "imported: filesystem brave-search"
check "claude-desktop: the entry as written" is brave-search \
  '{"command":"npx","args":["-y","@modelcontextprotocol/server-brave-search"],"env":{"BRAVE_API_KEY":"BSA-example"}}'

# Claude Desktop expands no ${VAR}: mcp-remote's documented header
# pattern reaches the server as written, and the server reads the value
# from the entry's env, never from the shell that runs mcphost.
fresh
jq -n --arg demo "$DEMO" --arg out "$TMP/seen" '{mcpServers: {hdr: {
  command: "sh",
  args: ["-c", "printf \"%s\\n\" \"$1\" \"$AUTH_HEADER\" >\"$0\"; exec \"$DEMO\"",
         $out, "Authorization:${AUTH_HEADER}"],
  env: {AUTH_HEADER: "Bearer configured", DEMO: $demo}}}}' >"$TMP/desktop.json"
run mcp import claude-desktop --from "$TMP/desktop.json" --scope user
expect "claude-desktop: a \${VAR} it passes on is kept as text, and said" 0 \
  --out "imported: hdr" \
  --out 'note: server "hdr": args[3]: ${AUTH_HEADER} is passed on as text, as Claude Desktop does (written ${:-$}{AUTH_HEADER}'
check "claude-desktop: written with \${:-\$}, which expands to the text" \
  test "$(jq -r '.mcpServers.hdr.args[3]' "$U")" = 'Authorization:${:-$}{AUTH_HEADER}'
AUTH_HEADER="Bearer from-the-shell" run tools hdr
check "claude-desktop: the server gets the argument and env it configured" \
  test "$(cat "$TMP/seen" 2>/dev/null)" = 'Authorization:${AUTH_HEADER}
Bearer configured'

# Claude Code expands ${VAR} itself (command, args, env, url, headers),
# as mcphost does: its references are copied as they are.
fresh
printf '{"mcpServers": {"cc": {"command": "srv", "args": ["--token=${TOKEN}"]}}}' >"$TMP/claude.json"
run mcp import claude-code --from "$TMP/claude.json" --scope user
expect "claude-code: its \${VAR} stays a reference, without a note" 0 \
  --out "imported: cc" --no-out "passed on as text"
check "claude-code: the entry as written" is cc \
  '{"command":"srv","args":["--token=${TOKEN}"]}'

# Cursor, Windsurf and VS Code expand only their own forms (${env:X},
# ${userHome}, ...); a plain ${NAME} reaches their server as text.
fresh
printf '{"mcpServers": {"plain": {"command": "srv", "args": ["${NAME}/x", "${env:HOME}"], "cwd": "${NAME}"}}}' >"$TMP/cursor.json"
run mcp import cursor --from "$TMP/cursor.json" --scope user
expect "cursor: a plain \${NAME} is kept as text, and said" 0 \
  --out 'note: server "plain": args[0]: ${NAME} is passed on as text, as Cursor does'
check "cursor: kept as text, its own variables translated, cwd as written" is plain \
  '{"command":"srv","args":["${:-$}{NAME}/x","${HOME}"],"cwd":"${NAME}"}'
fresh
printf '{"servers": {"plain": {"command": "srv", "env": {"K": "a${NAME}", "U": "b${open"}}}}' >"$TMP/vscode.json"
run mcp import vscode --from "$TMP/vscode.json" --scope user
expect "vscode: the same, naming the env key" 0 \
  --out 'note: server "plain": env.K: ${NAME} is passed on as text, as VS Code does' \
  --out 'note: server "plain": env.U: ${open is passed on as text'
check "vscode: an unclosed \${ kept as text too" \
  test "$(jq -r '.mcpServers.plain.env.U' "$U")" = 'b${:-$}{open'

# Codex expands nothing in its values; its own settings that name a
# variable (bearer_token_env_var, env_vars) stay references.
fresh
printf '[mcp_servers.cx]\nurl = "https://h.example/${P}"\nbearer_token_env_var = "TOK"\nhttp_headers = { "X-A" = "${A}" }\n' >"$TMP/codex.toml"
run mcp import codex --from "$TMP/codex.toml" --scope user
expect "codex: a \${VAR} in its values is kept as text, named by field" 0 \
  --out 'note: server "cx": url: ${P} is passed on as text, as Codex does' \
  --out 'note: server "cx": http_headers.X-A: ${A} is passed on as text'
check "codex: bearer_token_env_var is still a reference" is cx \
  '{"url":"https://h.example/${:-$}{P}","headers":{"Authorization":"Bearer ${TOK}","X-A":"${:-$}{A}"},"type":"http"}'

run mcp import zed
expect "an unknown client is a usage error naming the known ones" 2 \
  --err "cursor|vscode|windsurf|codex|claude-desktop|claude-code"
finish
