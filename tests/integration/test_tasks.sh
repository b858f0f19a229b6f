#!/usr/bin/env bash
# Tasks (MCP 2025-11-25, experimental; docs/cli.md, Tasks): a tool whose
# execution.taskSupport is "required" runs as a task, an "optional" one
# with --task; the task is followed with tasks/get (status and progress on
# stderr) to tasks/result; Ctrl-C sends tasks/cancel; --detach prints the
# task id and `mcphost task status|result|cancel|list` finish it later,
# in `batch` too. Against server-everything's simulate-research-query
# (required; input_required through an elicitation) and
# tests/servers/task_server.py (optional; its tasks outlive its process,
# so a later run resumes them).
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_OPTION_ELICITATION
if [ ! -f "$EVERYTHING" ]; then
  skip_test "server-everything is not installed in tests/interop"
fi
command -v python3 >/dev/null || skip_test "no python3 for the task server"
T="$TMP/tasks"
mkdir -p "$T"
C="$TMP/servers.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"el\": {\"command\": \"$BUILDDIR/tests/mcphost-elicit-server\"},
  \"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/task_server.py\"],
          \"env\": {\"TASK_DIR\": \"$T\"}},
  \"slow\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/task_server.py\"],
          \"env\": {\"TASK_DIR\": \"$TMP/slow\", \"TASK_STEP_MS\": \"1000000\"}}}"
mkdir -p "$TMP/slow"
R=mcp__every__simulate-research-query
# last_call_has JQ: the last tools/call task_server.py received fits JQ.
last_call_has() {
  grep '"method": "tools/call"' "$T/requests.log" | tail -1 | jq -e "$1" >/dev/null
}

# run_until_status ARGS...: runs mcphost in the background until its
# stderr shows a task's status line, then sends it SIGINT; sets RC, OUT,
# ERR and TASK (the id in that line).
run_until_status() {
  # Emptied first: the background job's own redirection may come after
  # the loop below looked at the last run's stderr.
  : >"$TMP/out"
  : >"$TMP/err"
  "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null &
  local pid=$!
  for _ in $(seq 600); do
    grep -q '^task [^ ]*: working' "$TMP/err" && break
    sleep 0.1
  done
  kill -INT "$pid"
  wait "$pid"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
  TASK=$(sed -n 's/^task \([^ :]*\): .*/\1/p' "$TMP/err" | head -1)
}

# ---- server-everything: a required tool ----

run --config "$C" tools every
expect "tools marks the task-only tool" 0 \
  --out "$R  (task)" --no-out "mcp__every__echo  (task)"
run --config "$C" call $R topic=cats
expect "a required tool runs as a task: statuses on stderr, the result on stdout" 0 \
  --out "# Research Report: cats" --err ": working (Gathering sources...)" \
  --err ": completed"
run --config "$C" -q call $R topic=cats
expect "--quiet hides the status lines" 0 \
  --out "# Research Report: cats" --no-err "Gathering sources"

cat >"$TMP/clarify.sh" <<'SH'
#!/bin/sh
cat >"$(dirname "$0")/clarify.in"
echo '{"action": "accept", "content": {"interpretation": "historical"}}'
SH
chmod +x "$TMP/clarify.sh"
run --config "$C" --elicitation="hook:$TMP/clarify.sh" call $R topic=cats ambiguous=true
expect "input_required: the elicitation sent through tasks/result is answered" 0 \
  --err ": input_required (Found multiple interpretations" \
  --out "# Research Report: cats (historical)"
check "the elicitation reached the hook" \
  jqf '.server == "every" and (.message | contains("multiple interpretations"))' \
  "$TMP/clarify.in"

run_until_status -v --config "$C" call $R topic=cats
expect "Ctrl-C during the task sends tasks/cancel, which the server confirms" 130 \
  --err "task $TASK interrupted; tasks/cancel sent" \
  --err "[every] task $TASK is cancelled" --no-out "Research Report"

run --config "$C" call --detach $R topic=owls
expect "--detach prints the task id and says how to finish it" 0 \
  --err "mcphost task result every $OUT" --no-out "Research Report"
check "the detached id is the server's (32 hex digits)" \
  grep -Eqx '[0-9a-f]{32}' "$TMP/out"
expect "--detach from a stdio server without a session says its task ends with the run" 0 \
  --err 'warning: server "every" is a local process that ends with this run'
# In a session the server lives on: the task is there for a later run.
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"
run --config "$C" session start
expect "session start for tasks" 0 --out "session started"
run --config "$C" call --detach $R topic=owls
SID=$OUT
expect "--detach in a session: no warning" 0 --no-err "warning" \
  --err "mcphost task result every $SID"
run --config "$C" task result every "$SID"
expect "a later run in the session gets the detached task's result" 0 \
  --out "Research Report"
run --config "$C" session stop
unset XDG_RUNTIME_DIR
run --config "$C" --json call --detach $R topic=owls
expect "--json --detach prints the CreateTaskResult" 0 \
  --jq '.task.status == "working" and (.task.taskId | length) == 32'
run --config "$C" call --task every/echo message=hi
expect "--task on a tool without task support is a usage error" 2 \
  --err 'tool "echo" of server "every" does not run as a task (its execution.taskSupport is "forbidden")'

# batch: detach, then the status, the list and the result in the same
# process (server-everything keeps its tasks in memory).
rm -f "$TMP/in.fifo"
mkfifo "$TMP/in.fifo"
"$MCPHOST" --config "$C" batch <"$TMP/in.fifo" >"$TMP/out" 2>"$TMP/err" &
BPID=$!
exec 3>"$TMP/in.fifo"
echo "{\"id\": 1, \"call\": \"$R\", \"args\": [\"topic=owls\"], \"detach\": true}" >&3
for _ in $(seq 300); do grep -q '"id":1' "$TMP/out" && break; sleep 0.1; done
ID=$(head -1 "$TMP/out" | jq -r .result.task.taskId)
printf '%s\n' "{\"id\": 2, \"task\": \"status\", \"server\": \"every\", \"taskId\": \"$ID\"}" \
  "{\"id\": 3, \"task\": \"list\", \"server\": \"every\"}" \
  "{\"id\": 4, \"task\": \"result\", \"server\": \"every\", \"taskId\": \"$ID\"}" \
  "{\"id\": 5, \"task\": \"result\", \"server\": \"every\"}" >&3
exec 3>&-
wait $BPID
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "batch: a detached call's task, then its status, the list and its result" 0 \
  --jq "[., inputs] | length == 5" \
  --out "{\"id\":2,\"result\":{\"taskId\":\"$ID\",\"status\":\"working\"" \
  --out "{\"id\":3,\"result\":{\"tasks\":[{\"taskId\":\"$ID\"" \
  --out '{"id":4,"result":{"content":[{"type":"text","text":"# Research Report: owls' \
  --out '{"id":5,"error":{"exit":2,"message":"\"taskId\" is missing"' \
  --err "task $ID: completed"

# batch passes results on without a tree (json_raw.h), but a call run as
# a task has its first answer read: the task is followed to its result.
printf '%s\n' "{\"id\": 1, \"call\": \"$R\", \"args\": [\"topic=otters\"]}" \
  '{"id": 2, "call": "t/countdown", "arguments": {"steps": 1}, "task": true}' \
  >"$TMP/in"
"$MCPHOST" --config "$C" batch <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "batch: a call run as a task (required, or asked with \"task\": true) answers with its result" 0 \
  --jq "[., inputs] | length == 2" \
  --out '{"id":1,"result":{"content":[{"type":"text","text":"# Research Report: otters' \
  --out '"text":"done after 1 steps"'

# The gateway: its pipeline follows the task, so to its client the tool
# is a plain one (no execution member) and the call answers the result.
rm -f "$TMP/gw.fifo"
mkfifo "$TMP/gw.fifo"
"$MCPHOST" --config "$C" serve --stdio --server every <"$TMP/gw.fifo" >"$TMP/out" 2>"$TMP/err" &
GPID=$!
exec 4>"$TMP/gw.fifo"
printf '%s\n' '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}' \
  '{"jsonrpc": "2.0", "method": "notifications/initialized"}' \
  '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}' \
  "{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"$R\", \"arguments\": {\"topic\": \"gateways\"}}}" >&4
for _ in $(seq 600); do grep -q '"id":3' "$TMP/out" && break; sleep 0.1; done
exec 4>&-
wait $GPID
RC=$?
OUT=$(grep '"id":[23]' "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve: the gateway lists the task tool without execution and answers its result" 0 \
  --jq "[., inputs] | (map(select(.id == 2))[0].result.tools | map(select(.name == \"$R\")) | length == 1 and (.[0] | has(\"execution\") | not)) and (map(select(.id == 3))[0].result.content[0].text | startswith(\"# Research Report: gateways\"))"

# ---- task_server.py: an optional tool, tasks that outlive the process ----

run --config "$C" call t/countdown
expect "an optional tool without --task is a plain call" 0 --out "at once"
check "... sent without a task member" last_call_has '.params | has("task") | not'
run --config "$C" call --task t/countdown steps=3
expect "--task runs an optional tool as a task, with its progress" 0 \
  --out "done after 3 steps" --err "progress: 1/3" --err ": working (step 1 of 3)" \
  --err ": completed"
check "... sent with \"task\": {}" last_call_has '.params.task == {}'

run --config "$C" call --detach t/countdown steps=4
expect "--detach on an optional tool" 0 --err "mcphost task result t $OUT"
ID=$OUT
run --config "$C" task status t "$ID"
expect "task status in a later run" 0 --out "$ID  "
run --config "$C" --json task status t "$ID"
expect "... --json: the server's Task" 0 \
  --jq ".taskId == \"$ID\" and (.status == \"working\" or .status == \"completed\")"
run --config "$C" --json task list t
expect "task list shows it" 0 --jq "map(.taskId) | index(\"$ID\") != null"
run --config "$C" task result t "$ID"
expect "task result in a later run follows it to its result" 0 \
  --out "done after 4 steps" --err "task $ID: completed"
run --config "$C" task cancel t "$ID"
expect "task cancel of a completed task: the server's refusal, exit 4" 4 \
  --err "tasks/cancel failed: task $ID is already completed"

run_until_status --config "$C" call --task t/countdown steps=100000
expect "Ctrl-C during --task: exit 130, tasks/cancel sent" 130 \
  --err "task $TASK interrupted; tasks/cancel sent"
run --config "$C" task status t "$TASK"
expect "... and the server has it cancelled" 0 --out "$TASK  cancelled"
run --config "$C" task result t "$TASK"
expect "the result of a cancelled task is the server's error" 4 \
  --err "tasks/result failed: task $TASK was cancelled"

# The deadline: a task whose status, message and progress stay the same
# for the tool timeout (each step of "slow" lasts 1000 s).
MCP_TOOL_TIMEOUT=500 run --config "$C" call --task slow/countdown
expect "a call's task that stays the same for the tool timeout: exit 5, cancelled" 5 \
  --err 'its status stayed "working" for 500 ms; tasks/cancel sent'
run --config "$C" call --detach slow/countdown
ID=$OUT
MCP_TOOL_TIMEOUT=500 run --config "$C" task result slow "$ID"
expect "task result at the deadline stops waiting and leaves the task running" 5 \
  --err 'its status stayed "working" for 500 ms (it keeps running)'
run --config "$C" task status slow "$ID"
expect "... it is still working" 0 --out "$ID  working  step 1 of 3"

run --config "$C" call --task t/countdown steps=1 fail=true
expect "a failed task's result: exit 1" 1 \
  --out "failed at the end" --err ": failed" --err 'reported an error'
run --config "$C" call --task t/plain
expect "--task on a tool that takes no task (no execution member)" 2 \
  --err 'tool "plain" of server "t" does not run as a task'
run --config "$C" task status t no-such-task
expect "an unknown task id: the server's error" 4 --err "no task no-such-task"
run --config "$C" task status el 123
expect "a server without the tasks capability is not asked" 4 \
  --err 'server "el" does not support tasks/get (it declared no "tasks" capability)'
run --config "$C" task bogus t 1
expect "an unknown task command" 2 --err 'unknown task command "bogus"'
run --config "$C" task status t
expect "task status without an id" 2 --err "usage: mcphost task status|result|cancel SERVER ID"
run --config "$C" task status nope 1
expect "task for an unknown server" 6 --err 'no server named "nope"'

finish
