#!/usr/bin/env bash
# The enterprise URL policy reads a server's url as the transports do
# (libcurl's URL API). The attack: a URL that a hand parser, or a plain
# glob over the text, reads as another host than the one libcurl connects
# to — upper case, a trailing dot, userinfo, a backslash before '@',
# percent-encoded dots, an explicit default port, an IPv6 literal written
# long, an IPv4 address written in hex. Before the fix each of them
# slipped past deniedMcpServers' serverUrl entry; now every one is denied
# by it, an allow entry is met only by what really is its host, and a
# url that cannot be read at all is refused (fail closed).
. "$(dirname "$0")/../lib/lib.sh"
SYS="$TMP/system"
mkdir -p "$SYS"
# Every host here is this machine's (localhost is resolved by libcurl
# itself), every port closed: what is not denied fails to connect.
hostile=(
  "http://LOCALHOST:9/mcp"
  "HTTP://localhost:9/mcp"
  "http://localhost.:9/mcp"
  "http://user:pw@localhost:9/mcp"
  'http://127.0.0.2:9\\@localhost:9/mcp'
  "http://127.0.0.2:9@localhost:9/mcp"
  "http://local%68ost:9/mcp"
  "http://localhost:9/x/../mcp"
  "http://localhost:80/mcp"
)
json="{"
i=0
for u in "${hostile[@]}"; do
  json+="\"h$i\": {\"type\": \"http\", \"url\": \"$u\"},"
  i=$((i + 1))
done
json+="\"v6\": {\"type\": \"http\", \"url\": \"http://[0:0:0:0:0:0:0:1]:9/mcp\"},"
json+="\"hex\": {\"type\": \"http\", \"url\": \"http://0x7f.1:9/mcp\"},"
json+="\"good\": {\"type\": \"http\", \"url\": \"http://127.0.0.2:9/mcp\"}}"
config_file "$TMP/servers.json" "$json"

cat >"$SYS/managed-settings.json" <<'EOF2'
{"deniedMcpServers": [{"serverUrl": "http://localhost:9/*"},
                      {"serverUrl": "http://localhost/*"},
                      {"serverUrl": "http://[::1]:9/*"},
                      {"serverUrl": "http://127.0.0.1:9/*"}]}
EOF2
run --mcp-config "$TMP/servers.json" mcp list --json
# The servers not denied fail to connect (closed ports): exit 3.
check "mcp list: the servers not denied were tried and failed" test "$RC" = 3
RC=0
for j in $(seq 0 $((${#hostile[@]} - 1))); do
  expect "deny catches ${hostile[$j]}" 0 \
    --jq ".[] | select(.name == \"h$j\") | .state == \"denied\""
done
expect "deny catches an IPv6 literal written long" 0 \
  --jq '.[] | select(.name == "v6") | .state == "denied"'
expect "deny catches an IPv4 address written in hex" 0 \
  --jq '.[] | select(.name == "hex") | .state == "denied"'
expect "a server of another host is not denied" 0 \
  --jq '.[] | select(.name == "good") | .state != "denied"'

# An allow entry: only the host it names.
cat >"$SYS/managed-settings.json" <<'EOF2'
{"allowedMcpServers": [{"serverUrl": "http://127.0.0.2:9/*"}]}
EOF2
run --mcp-config "$TMP/servers.json" mcp list --json
RC=0 # as above
expect "allow: the host it names is allowed" 0 \
  --jq '.[] | select(.name == "good") | .state != "denied"'
expect "allow: a backslash before @ does not earn it" 0 \
  --jq '.[] | select(.name == "h4") | .state == "denied"'
expect "allow: userinfo naming it does not earn it" 0 \
  --jq '.[] | select(.name == "h5") | .state == "denied"'

# What libcurl cannot read is refused while any serverUrl rule stands.
config_file "$TMP/bad.json" '{"bad": {"type": "http", "url": "http://local host:9/mcp"}}'
run --mcp-config "$TMP/bad.json" mcp list --json
expect "an unreadable url is refused, saying why" 0 \
  --jq '.[0].status | test("cannot be checked against the serverUrl policy")'
finish
