/* `mcphost --help`, its Options: section written from the option table
 * (options.h), and each command's own --help (`mcphost COMMAND --help`):
 * what it does, its arguments, and the options it takes after its name. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

static const char usage_head[] =
    "usage: mcphost [OPTIONS] COMMAND [ARGS...]\n"
    "\n"
    "Commands:\n"
    "  servers [SERVER]           connect and show each server's state and "
    "counts\n"
    "  tools [--all] [SERVER]     list tools as mcp__SERVER__TOOL\n"
    "  resources [SERVER]         list resources and resource templates\n"
    "  prompts [SERVER]           list prompts and their arguments\n"
    "  tool TOOL                  what a tool takes: its signature, "
    "description,\n"
    "                             parameters, output schema and annotations\n"
    "  call TOOL [--no-validate] [--follow-links[=N]] [--task] [--detach]\n"
    "       [--args JSON|@FILE] [JSON | KEY=VALUE ...]\n"
    "                             call a tool (TOOL: mcp__SERVER__TOOL or "
    "SERVER/TOOL);\n"
    "                             KEY=VALUE by the tool's schema (a string "
    "keeps\n"
    "                             the text), KEY:=JSON, KEY=@FILE (@- stdin),\n"
    "                             a.b=1 nested; checked locally (exit 2); the\n"
    "                             options also after the arguments, up to --\n"
    "  ping SERVER...             each server's round trip for an MCP ping\n"
    "  grep [-i] PATTERN [SERVER] tools, prompts and resources whose name or\n"
    "                             description matches a regular expression\n"
    "  complete PROMPT|SERVER/URI-TEMPLATE ARG PREFIX [NAME=VALUE ...]\n"
    "                             the values a server proposes for ARG\n"
    "  subscribe SERVER URI [--read]\n"
    "                             print each update of a resource until\n"
    "                             Ctrl-C\n"
    "  task status|result|cancel SERVER ID, task list SERVER\n"
    "                             a task that call --task/--detach started\n"
    "  read SERVER URI            read a resource\n"
    "  prompt PROMPT [ARG | NAME=VALUE ...]\n"
    "                             get a prompt; positional ARGs fill the "
    "declared\n"
    "                             arguments in order\n"
    "  batch                      read JSON requests from stdin, one per "
    "line:\n"
    "                             "
    "{\"id\":1,\"call\":TOOL,\"arguments\":{...}},\n"
    "                             {\"read\":SERVER,\"uri\":URI}, "
    "{\"prompt\":PROMPT,\n"
    "                             \"arguments\":{...}}, "
    "{\"list\":\"tools\"[,\"server\":S]},\n"
    "                             {\"subscribe\":SERVER,\"uri\":URI}, "
    "\"unsubscribe\",\n"
    "                             {\"roots\":[DIR...]}; answers one JSON line\n"
    "                             each, as they complete (batch --help)\n"
    "  serve --stdio | --http HOST:PORT [--server NAME]... [--passthrough]\n"
    "                             one MCP server (stdin/stdout, or streamable\n"
    "                             HTTP) in front of the configured ones\n"
    "                             (serve --help; docs/gateway.md)\n"
    "  session start [--idle MINUTES] | stop | status [--json]\n"
    "                             a background process keeping the servers\n"
    "                             connected; the commands above then run\n"
    "                             through it (docs/sessions.md)\n"
    "  shell                      an interactive session: the commands above "
    "on\n"
    "                             servers kept connected, with editing, "
    "history\n"
    "                             and completion (shell --help)\n"
    "  completion bash|zsh|fish   a completion script for the shell named\n"
    "  plugins                    list plugins found, loaded or refused, and "
    "why\n"
    "  plugin check FILE.so       whether a plugin loads, and what it offers\n"
    "  mcp list|get|add|add-json|remove|approve|reject|reset-project-choices|\n"
    "      import ...             manage configured servers like `claude mcp`\n"
    "                             (mcphost mcp --help; docs/config.md)\n"
    "  COMMAND --help             what COMMAND does and takes\n"
    "\n"
    "Options:\n";

static const char usage_tail[] =
    "\n"
    "Environment:\n"
    "  MCPHOST_PLUGIN_PATH        more plugin directories, ':'-separated, "
    "searched\n"
    "                             after --plugin-dir and before the built-in "
    "one\n"
    "  MCPHOST_SYSTEM_CONFIG_DIR  enterprise directory (default /etc/mcphost)\n"
    "  XDG_CONFIG_HOME            user settings in $XDG_CONFIG_HOME/mcphost/\n"
    "  MCPHOST_APPROVE_PROJECT_SERVERS=1   as --approve-project (for CI)\n"
    "  MCPHOST_NO_SESSION=1       as --no-session\n"
    "  MCP_TIMEOUT                deadline of the whole connect in ms "
    "(default\n"
    "                             30000)\n"
    "  MCP_TOOL_TIMEOUT           tool call deadline in ms (default 600000)\n"
    "  MCPHOST_REQUEST_TIMEOUT    other requests' deadline in ms (default "
    "60000)\n"
    "  MCP_SERVER_CONNECTION_BATCH_SIZE  local (stdio) servers connected at\n"
    "                             once (default 3)\n"
    "  MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE  remote servers connected at\n"
    "                             once (default 20)\n"
    "  MCPHOST_STDIO_EXIT_MS      how long a stdio server may take to exit "
    "once\n"
    "                             its stdin is closed, before SIGTERM "
    "(default\n"
    "                             2000; SIGKILL 1000 ms after; Ctrl-C "
    "hurries)\n"
    "  MCPHOST_STILL_RUNNING_MS   on a terminal, a line this often while a "
    "tool\n"
    "                             call runs (default 30000)\n"
    "  MCPHOST_LIST_CACHE_TTL     batch: how long a tool list is kept, ms "
    "(20000)\n"
    "  MCPHOST_SERVE_REQUEST_MS   serve --http: time for a connection's next\n"
    "                             request, ms (default 30000)\n"
    "  MCPHOST_MAX_NAME_CHARS     longest mcp__SERVER__TOOL name (default 64, "
    "at\n"
    "                             least 32); longer ones are cut and hashed\n"
    "  MCPHOST_MAX_DESCRIPTION_CHARS\n"
    "                             tool and prompt descriptions are cut after "
    "this\n"
    "                             many characters (default 2048)\n"
    "  MCPHOST_MAX_OUTPUT_CHARS   as --max-output-chars: its limit replaces "
    "the\n"
    "                             terminal's 100000; the full text is saved "
    "to\n"
    "                             a file named in the note\n"
    "\n"
    "Exit codes:\n"
    "  0    success\n"
    "  1    the tool ran and returned isError\n"
    "  2    usage error (bad option, argument or JSON; a --url, --server,\n"
    "       --transport or --mcp-config that cannot be read)\n"
    "  3    a server failed: not startable, unreachable, misconfigured, no "
    "plugin\n"
    "       for its type, or it went away\n"
    "  4    protocol error: the server answered with an error or broke MCP\n"
    "  5    a deadline passed\n"
    "  6    no such server, tool, prompt or resource\n"
    "  7    the server needs authorization (needs-auth)\n"
    "  8    refused: the server is pending approval, rejected, denied or\n"
    "       disabled, or a permission rule denied the tool call\n"
    "  9    done, but a text result was cut as --max-output-chars or\n"
    "       MCPHOST_MAX_OUTPUT_CHARS asked\n"
    "  10   the output could not be written (stdout full or failing; a pipe\n"
    "       closed by its reader ends quietly with 141)\n"
    "  20-29  plugin check: the plugin is not loadable, one code per reason\n"
    "       (mcphost plugin --help)\n"
    "  130  interrupted (Ctrl-C); pending requests were cancelled\n"
    "  143  terminated (SIGTERM); any signal N gives 128 + N\n";

/* The column where an option's help begins; a longer left side stands on
 * a line of its own. */
#define HELP_COLUMN 29

static void print_option(FILE *f, const cli_option *o) {
  char left[80];
  char sn[5] = "    ";
  if (o->short_name) {
    snprintf(sn, sizeof sn, "-%c, ", o->short_name);
  }
  /* --NAME=VALUES when the values are few, else --NAME ARG */
  const char *sep = o->values ? "=" : " ";
  const char *arg = o->values ? o->values : o->arg;
  snprintf(left, sizeof left, "  %s--%s%s%s", sn, o->name, arg ? sep : "",
           arg ? arg : "");
  const char *h = o->help;
  size_t n = strcspn(h, "\n");
  if (strlen(left) < HELP_COLUMN) {
    fprintf(f, "%-*s%.*s\n", HELP_COLUMN, left, (int)n, h);
  } else {
    fprintf(f, "%s\n%*s%.*s\n", left, HELP_COLUMN, "", (int)n, h);
  }
  while (h[n]) {
    h += n + 1;
    n = strcspn(h, "\n");
    fprintf(f, "%*s%.*s\n", HELP_COLUMN, "", (int)n, h);
  }
}

void cli_print_usage(FILE *f) {
  fputs(usage_head, f);
  size_t n;
  const cli_option *opts = cli_options(&n);
  for (size_t i = 0; i < n; i++) {
    print_option(f, &opts[i]);
  }
  fputs(usage_tail, f);
}

#define AFTER                                                                  \
  "\n"                                                                         \
  "The global options --json, -v, -q and --timeout MS may also follow the\n"   \
  "command. Every option and exit code: mcphost --help.\n"

static const struct {
  const char *name, *text;
} helps[] = {
    {"servers",
     "usage: mcphost [OPTIONS] servers [SERVER]\n"
     "\n"
     "Connects every server (or SERVER) and shows its state, its name and\n"
     "version, and how many tools, resources and prompts it offers.\n"
     "Servers that may not start are listed with the reason. -v adds each\n"
     "server's protocol version, capabilities and instructions, and what\n"
     "plugins say about it. On a terminal lines fit its width and the\n"
     "state is coloured (never with NO_COLOR). Exits with the code of the\n"
     "first server that failed.\n" AFTER},
    {"tools",
     "usage: mcphost [OPTIONS] tools [--all] [SERVER]\n"
     "\n"
     "Lists the tools of every server (or SERVER) as mcp__SERVER__TOOL, the\n"
     "names `call` takes, with their descriptions. --json gives each tool's\n"
     "schema too. Of an IDE (types ws-ide, sse-ide) only the tools a model\n"
     "is shown are listed, getDiagnostics and executeCode; --all lists\n"
     "every one (`call` takes any).\n" AFTER},
    {"resources",
     "usage: mcphost [OPTIONS] resources [SERVER]\n"
     "\n"
     "Lists the resources and resource templates of every server (or\n"
     "SERVER). Read one with: mcphost read SERVER URI.\n" AFTER},
    {"prompts", "usage: mcphost [OPTIONS] prompts [SERVER]\n"
                "\n"
                "Lists the prompts of every server (or SERVER) and their "
                "arguments.\n" AFTER},
    {"call",
     "usage: mcphost [OPTIONS] call TOOL [--no-validate] [--follow-links[=N]]\n"
     "                               [--task] [--detach] [--args JSON|@FILE]\n"
     "                               [JSON | KEY=VALUE ...] [-- ARG ...]\n"
     "\n"
     "Calls a tool. TOOL is mcp__SERVER__TOOL (as `tools` lists it) or\n"
     "SERVER/TOOL (the server's own name for it). The arguments are one\n"
     "JSON object (or --args JSON|@FILE), and KEY=VALUE words over it, typed\n"
     "by the tool's inputSchema (mcphost tool TOOL shows it): a string\n"
     "parameter keeps the text (id=007 is \"007\"), a number, integer or\n"
     "boolean is parsed and checked, an array or object is JSON, null is\n"
     "null where allowed. KEY:=JSON is always JSON, KEY=@FILE a file's\n"
     "content (@- stdin), a.b=1 sets b of object a. A key without a schema:\n"
     "JSON when the VALUE parses as JSON, else a string. Missing required\n"
     "parameters, unknown keys and wrong types are refused before the call\n"
     "(exit 2, with the signature); --no-validate sends them as they are.\n"
     "Only that server is connected. Exit 1 when the tool reports an error,\n"
     "6 when the server has no such tool. --follow-links[=N] reads the\n"
     "resource links of the result from that server and prints them after\n"
     "it (at most N, default 10; each URI once; --json: {\"result\": ...,\n"
     "\"links\": [{\"uri\", \"contents\" or \"error\"}]}).\n"
     "\n"
     "A tool whose execution.taskSupport is \"required\" runs as a task\n"
     "(MCP 2025-11-25), an \"optional\" one with --task: its status and\n"
     "progress go to stderr, Ctrl-C sends tasks/cancel. --detach prints the\n"
     "task id once the server created it; `mcphost task` finishes it.\n"
     "\n"
     "call's options and the global --json, -v, -q and --timeout MS may\n"
     "come before or after TOOL and the arguments; \"--\" ends them (a word\n"
     "after it is an argument even if it begins with '-'). Every option and\n"
     "exit code: mcphost --help.\n"},
    {"read",
     "usage: mcphost [OPTIONS] read SERVER URI\n"
     "\n"
     "Reads a resource: text is printed, binary contents are saved to files\n"
     "(--output-dir) and a line names each one.\n" AFTER},
    {"prompt",
     "usage: mcphost [OPTIONS] prompt PROMPT [ARG | NAME=VALUE ...]\n"
     "\n"
     "Gets a prompt (mcp__SERVER__PROMPT or SERVER/PROMPT) and prints its\n"
     "messages. Positional ARGs fill the declared arguments in order;\n"
     "NAME=VALUE sets a declared argument by name (a NAME the prompt does\n"
     "not declare is a usage error, exit 2). --follow-links[=N] right after\n"
     "PROMPT reads the messages' resource links as `call` does. `mcphost\n"
     "prompt PROMPT --help` shows the prompt's arguments.\n"
     "\n"
     "Global options (--json, -v, -q, --timeout MS) may follow the command\n"
     "up to the first NAME=VALUE argument; use -- before an argument that\n"
     "starts with '-'. Every option and exit code: mcphost --help.\n"},
    {"batch",
     "usage: mcphost [OPTIONS] batch\n"
     "\n"
     "Reads JSON requests from stdin, one per line, and writes one JSON\n"
     "line per answer as each completes (requests run concurrently, at\n"
     "most 256 at once: the next line is read as one ends):\n"
     "  {\"id\":1, \"call\":TOOL, \"arguments\":{...}}\n"
     "                 or \"args\":[\"KEY=VALUE\", ...] typed as `call` types\n"
     "                 them; \"validate\":false is --no-validate;\n"
     "                 \"task\":true, \"detach\":true as --task, --detach\n"
     "  {\"id\":2, \"read\":SERVER, \"uri\":URI}\n"
     "  {\"id\":3, \"prompt\":PROMPT, \"arguments\":{...}}\n"
     "  {\"id\":4, \"list\":\"tools\"|\"resources\"|\"prompts\"[, "
     "\"server\":S]}\n"
     "                 without \"server\": every server\n"
     "  {\"id\":5, \"subscribe\":SERVER, \"uri\":URI}  and \"unsubscribe\":\n"
     "                 notifications/resources/updated then arrive as\n"
     "                 {\"server\":S, \"notification\":M, \"params\":{...}}\n"
     "  {\"id\":6, \"roots\":[DIR...][, \"server\":S]}\n"
     "                 the roots offered from now on (docs/config.md);\n"
     "                 connected servers get notifications/roots/list_changed\n"
     "  {\"id\":7, \"task\":\"status\"|\"result\"|\"cancel\", \"server\":S,\n"
     "   \"taskId\":ID}  and {\"task\":\"list\", \"server\":S}: as `task`\n"
     "Answers: {\"id\":N, \"result\":{...}} or {\"id\":N, "
     "\"error\":{\"exit\":CODE,\n"
     "\"message\":...}}, CODE being the exit code the same request would\n"
     "have given as a command.\n" AFTER},
    {"serve",
     "usage: mcphost [OPTIONS] serve --stdio [--server NAME]... "
     "[--passthrough]\n"
     "       mcphost [OPTIONS] serve --http HOST:PORT [--token-file F | "
     "--token | --no-auth]\n"
     "                 [--allow-origin ORIGIN]... [--session-idle SECONDS]\n"
     "                 [--server NAME]... [--passthrough]\n"
     "\n"
     "Runs an MCP server on stdin and stdout in front of the configured\n"
     "servers (every one that may start, or those named): their tools and\n"
     "prompts as mcp__SERVER__NAME (as `tools` lists them), resources and\n"
     "templates as they are. Calls take the same path as `call`: policy,\n"
     "permission rules (an \"ask\" is --allow's, else the client's through\n"
     "elicitation, else refused), sanitizing, cuts. Progress, cancellation,\n"
     "logging and list_changed are forwarded, and a server's own requests\n"
     "(elicitation, roots, sampling) go to the client whose call caused\n"
     "them. --passthrough with one --server keeps that server's names and\n"
     "capabilities as they are.\n"
     "--http serves streamable HTTP on http://HOST:PORT/mcp instead (port\n"
     "0: a free one, said on stderr), a session per client. A request with\n"
     "a foreign Origin (not loopback, not --allow-origin) or Host is\n"
     "refused. --token-file F (made, mode 0600, when missing) or --token\n"
     "(printed) requires \"Authorization: Bearer TOKEN\"; an address\n"
     "beyond loopback needs one. Without a token a loopback gateway\n"
     "serves only your own user's connections (--no-auth: every local\n"
     "user's, with a warning). A session idle for --session-idle\n"
     "seconds (1800) ends; a full table (256) ends the idlest.\n"
     "For Claude Code or Claude Desktop: {\"command\": \"mcphost\",\n"
     "\"args\": [\"serve\", \"--stdio\"]} (docs/gateway.md).\n" AFTER},
    {"tool",
     "usage: mcphost [OPTIONS] tool TOOL|PROMPT\n"
     "\n"
     "Shows what a tool takes: its signature in one line, its description\n"
     "wrapped to the terminal, each parameter (type, required, default,\n"
     "format, description, nested members), the output schema, annotations\n"
     "and task support. --json prints the tool object as the server lists\n"
     "it. Only that server is connected. A name that is a prompt's shows\n"
     "the prompt (as prompt PROMPT --help). Exit 6 when there is no such\n"
     "tool or prompt (with the closest names).\n" AFTER},
    {"task",
     "usage: mcphost [OPTIONS] task status|result|cancel SERVER ID\n"
     "       mcphost [OPTIONS] task list SERVER\n"
     "\n"
     "A task (MCP 2025-11-25, experimental) that `call --detach` left\n"
     "running (from a later run: a stdio server's tasks end with its run,\n"
     "and a remote server may keep them per MCP session, which ends with\n"
     "the run; `mcphost session start` keeps both): status shows it\n"
     "(tasks/get: ID  STATUS  MESSAGE), result\n"
     "follows it to its end (tasks/get every pollInterval, status lines on\n"
     "stderr, then tasks/result printed as `call` prints; Ctrl-C stops\n"
     "waiting and leaves it running), cancel sends tasks/cancel, list\n"
     "lists the server's tasks (tasks/list). --json prints what the server\n"
     "answered. Exit 4 when the server refuses (an unknown id, a task\n"
     "already ended).\n" AFTER},
    {"ping",
     "usage: mcphost [OPTIONS] ping SERVER...\n"
     "\n"
     "Connects each SERVER, then prints the round trip of an MCP ping to\n"
     "it in milliseconds (--json: [{\"server\": S, \"ms\": N}]). A server\n"
     "that fails is said on stderr and sets the exit; the others are still\n"
     "pinged.\n" AFTER},
    {"grep",
     "usage: mcphost [OPTIONS] grep [-i] PATTERN [SERVER]\n"
     "\n"
     "Lists the tools, prompts, resources and resource templates of every\n"
     "server (or SERVER) whose name, title, URI or description matches\n"
     "PATTERN, a POSIX extended regular expression (-i: ignoring case),\n"
     "each line of a description alone; the lines that match are shown,\n"
     "the match highlighted on a terminal (never with NO_COLOR). --json: a\n"
     "list of the items, each with \"kind\", \"server\" and \"matched\" (the\n"
     "fields that matched). Exit 6 when nothing matches, 2 for a bad\n"
     "PATTERN. Use -- before a PATTERN that starts with '-'.\n" AFTER},
    {"complete",
     "usage: mcphost [OPTIONS] complete PROMPT ARG PREFIX [NAME=VALUE ...]\n"
     "       mcphost [OPTIONS] complete SERVER/URI-TEMPLATE VAR PREFIX\n"
     "                                  [NAME=VALUE ...]\n"
     "\n"
     "Asks the server for the values of a prompt's argument ARG, or of a\n"
     "resource template's variable VAR, that complete PREFIX\n"
     "(completion/complete) and prints one a line (--json: the result).\n"
     "NAME=VALUE gives the other arguments already chosen, sent as the\n"
     "request's context (MCP 2025-06-18 and later). PROMPT is\n"
     "mcp__SERVER__PROMPT or SERVER/PROMPT; URI-TEMPLATE one the server\n"
     "lists (mcphost resources). Exit 6 for no such prompt or template, 2\n"
     "for an argument it does not declare.\n" AFTER},
    {"subscribe",
     "usage: mcphost [OPTIONS] subscribe SERVER URI [--read]\n"
     "\n"
     "Subscribes to the resource URI (resources/subscribe) and prints a\n"
     "line \"updated URI\" for each notifications/resources/updated, with\n"
     "--read the resource read again below it; --json: one JSON line each,\n"
     "{\"server\": S, \"params\": {...}[, \"contents\": [...]]}. Runs until\n"
     "Ctrl-C (it unsubscribes, exit 130) or until the server goes away\n"
     "(exit 3). A server that does not declare resources.subscribe: exit "
     "4.\n" AFTER},
    {"plugins",
     "usage: mcphost [OPTIONS] plugins\n"
     "\n"
     "Lists the plugins found along the search path, loaded or refused, and\n"
     "why; what each serves (transport types, features, commands).\n" AFTER},
    {"plugin",
     "usage: mcphost [OPTIONS] plugin check FILE.so [--json]\n"
     "\n"
     "Loads FILE.so in a child process, as mcphost loads a plugin at every\n"
     "start, and says whether it is loadable and what it offers: its id,\n"
     "version and ABI, transport types, feature, commands, options,\n"
     "extensions, the host services it asks for, its struct sizes and\n"
     "exported symbols; its provides list is checked against what its init\n"
     "really gives. A plugin that crashes, exits, hangs (--timeout MS,\n"
     "default 10000) or writes to stdout is refused and mcphost goes on.\n"
     "Exit 0 when loadable (warnings are printed), else one code per class:\n"
     "20 file (missing or not trusted), 21 load (dlopen failed), 22 entry,\n"
     "23 abi, 24 init failed, 25 crash, 26 exit, 27 timeout, 28 stdout,\n"
     "29 mismatch (provides against what init registers). --json: one\n"
     "object with the same facts, \"verdict\", \"class\", \"reason\" and\n"
     "\"exitCode\".\n" AFTER},
    {"shell",
     "usage: mcphost [OPTIONS] shell\n"
     "\n"
     "An interactive session: connects every server once and keeps it,\n"
     "then runs a command per line on them (call, tool, tools, servers,\n"
     "resources, prompts, prompt, read, ping, grep, complete, subscribe,\n"
     "task, reconnect [SERVER]; help, exit [CODE]), as `mcphost COMMAND`\n"
     "does: the same KEY=VALUE rule, permission questions and\n"
     "elicitation, asked inline. A line may begin with a tool's name.\n"
     "A server that went away is connected again (servers shows it\n"
     "reconnecting; reconnect does it at once).\n"
     "Tab completes commands, server, tool and prompt names and a tool's\n"
     "argument names; the history is kept in\n"
     "$XDG_STATE_HOME/mcphost/shell_history (0600; a line that begins with\n"
     "a space is not kept). Ctrl-C cancels the running command, or drops\n"
     "the line being typed; Ctrl-D or exit leaves (exit 0, or CODE). With\n"
     "stdin not a terminal, lines are read without editing or prompt and\n"
     "the exit is the last command's.\n" AFTER},
    {"session",
     "usage: mcphost [OPTIONS] session start [--idle MINUTES] |\n"
     "                         stop [ID | --all] | status [--json] |\n"
     "                         list [--json] | reconnect [SERVER]\n"
     "\n"
     "A background process keeping this configuration's servers\n"
     "connected: servers, tools, tool, resources, prompts, call, read,\n"
     "prompt, ping, batch, grep, complete and task then run through it\n"
     "(--no-session or MCPHOST_NO_SESSION=1: not). It stops after --idle\n"
     "minutes without a command (default 30; 0: never), on stop, or\n"
     "when a configuration file changes. status says what it holds\n"
     "(exit 6 when none runs); list shows every session of the user (id,\n"
     "pid, directory, options); stop ends this configuration's, the one\n"
     "ID names (from list, or its pid), or --all (exit 6 when the one\n"
     "asked for does not run). A server that went away is connected\n"
     "again by itself; reconnect does it now, for SERVER or every one.\n"
     "See docs/sessions.md.\n" AFTER},
    {"completion",
     "usage: mcphost completion bash|zsh|fish\n"
     "\n"
     "Prints a completion script for the shell named:\n"
     "  bash: source <(mcphost completion bash)    (in ~/.bashrc)\n"
     "  zsh:  source <(mcphost completion zsh)     (after compinit)\n"
     "  fish: mcphost completion fish | source\n"
     "It completes commands, options, server names (from the\n"
     "configuration), and tool and prompt names as the last `tools`,\n"
     "`prompts` or shell listing of each server saw them (kept in\n"
     "$XDG_STATE_HOME/mcphost/completion/, a file a server): completing\n"
     "never starts a server. The scripts call `mcphost completion\n"
     "complete -- WORD...` with the words of the line.\n"},
};

const char *cli_command_help(const char *name) {
  for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
    if (strcmp(helps[i].name, name) == 0)
      return helps[i].text;
  }
  return NULL;
}
