#!/usr/bin/env bash
# Issue 11, point 12: a configured URL's password and query (which often
# carries an API key) never appear in an error or a log line; messages
# quote the redacted form (scheme://host:port/path?…), from the remote
# transports' configuration checks, their connection errors and the
# host's --url parsing alike.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
DEAD=$(free_port)

no_secret() { # NAME: neither stdout nor stderr of the last run holds one
  check "$1: no password or query in any message" \
    sh -c "! grep -q 'hunter2\|SECRET' '$TMP/out' '$TMP/err'"
}

for type in http sse; do
  config_file "$TMP/bad.json" \
    "{\"s\": {\"type\": \"$type\", \"url\": \"http://admin:hunter2@exa mple.com/mcp?api_key=SECRET\"}}"
  run -vv --config "$TMP/bad.json" servers
  expect "$type: an invalid URL is refused, quoting its redacted form" 3 \
    --out '"url" must be an absolute http or https URL' \
    --out 'http://exa mple.com/mcp?…'
  no_secret "$type: an invalid URL"

  config_file "$TMP/dead.json" \
    "{\"s\": {\"type\": \"$type\", \"url\": \"http://admin:hunter2@127.0.0.1:$DEAD/mcp?api_key=SECRET\"}}"
  run -vv --config "$TMP/dead.json" servers
  expect "$type: a refused connection names the redacted URL" 3 \
    --out "http://127.0.0.1:$DEAD/mcp?…"
  no_secret "$type: a refused connection"
done

run --url "s=admin:hunter2@host/x?token=SECRET" servers
expect "--url: a value that is not a URL is quoted redacted" 2 \
  --err '--url "host/x?…": not a URL'
no_secret "--url"

run mcp add -s user -t http tok "http://admin:hunter2@127.0.0.1:$DEAD/mcp?token=SECRET"
expect "mcp add takes a URL with credentials" 0
run mcp list
expect "mcp list shows the URL redacted" 3 --out "http://127.0.0.1:$DEAD/mcp?…"
no_secret "mcp list"
run mcp get tok
expect "mcp get shows the URL redacted" 3 --out "URL: http://127.0.0.1:$DEAD/mcp?…"
no_secret "mcp get"
finish
