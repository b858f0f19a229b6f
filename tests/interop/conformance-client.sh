#!/bin/sh
# The client the MCP conformance runner starts: it maps the scenario in
# MCP_CONFORMANCE_SCENARIO to mcphost commands. The server URL is the last
# argument. The runner's timeout only kills the shell, hence `exec` and
# mcphost's own --timeout.
url=$(eval "echo \${$#}")
: "${MCPHOST:?MCPHOST must name the mcphost binary}"
set -- --timeout 20000 --url "c=$url"
case "$MCP_CONFORMANCE_SCENARIO" in
  initialize) exec "$MCPHOST" "$@" servers ;;
  tools_call) exec "$MCPHOST" "$@" call c/add_numbers a=2 b=3 ;;
  sse-retry) exec "$MCPHOST" "$@" call c/test_reconnection ;;
  elicitation-sep1034-client-defaults)
    # The policy both ways, the plugin option's flag and its environment
    # variable: either one alone is enough.
    MCPHOST_OPTION_ELICITATION=accept-defaults
    export MCPHOST_OPTION_ELICITATION
    exec "$MCPHOST" --elicitation=accept-defaults "$@" call c/test_client_elicitation_defaults ;;
  *) echo "conformance-client: no mapping for scenario '$MCP_CONFORMANCE_SCENARIO'" >&2; exit 2 ;;
esac
