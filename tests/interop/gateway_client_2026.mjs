// The TS SDK v2 client (@modelcontextprotocol/client), pinned to MCP
// 2026-07-28, against `mcphost serve` (test_gateway_2026.sh):
//   node gateway_client_2026.mjs MCPHOST ARGS...
// runs mcphost ARGS (ending in "serve --stdio ...") as its server;
//   node gateway_client_2026.mjs http://127.0.0.1:PORT/mcp
// talks streamable HTTP to a running `serve --http` (with the bearer
// token in $GW_TOKEN, if set). Discovers, lists, calls, reads, gets a
// prompt, listens for list_changed, and prints what it saw as one JSON
// object. Waits are bounded by counts, never by how long something took.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { stepper, text, until } from "./gateway_steps.mjs";

const [command, ...args] = process.argv.slice(2);
const out = {};
const step = stepper(out);

const client = new Client(
  { name: "gateway-test-2026", version: "1.0.0" },
  { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
let changed = 0;
client.setNotificationHandler("notifications/tools/list_changed", () => {
  changed++;
});
const http = command.startsWith("http");
const headers = process.env.GW_TOKEN
  ? { Authorization: `Bearer ${process.env.GW_TOKEN}` }
  : {};
const transport = http
  ? new StreamableHTTPClientTransport(new URL(command), { requestInit: { headers } })
  : new StdioClientTransport({ command, args, stderr: "inherit" });
await client.connect(transport);
out.version = client.getNegotiatedProtocolVersion();
out.server = client.getServerVersion();
out.capabilities = client.getServerCapabilities();
await step("tools", async () => (await client.listTools()).tools.map((t) => t.name));
await step("echo", async () =>
  text(await client.callTool({ name: "mcp__demo__echo", arguments: { message: "hi" } })));
await step("unknown_tool", async () =>
  await client.callTool({ name: "mcp__demo__nope", arguments: {} }));
await step("resources", async () =>
  (await client.listResources()).resources.map((r) => r.uri));
await step("read", async () =>
  (await client.readResource({ uri: "demo://readme" })).contents[0].text);
await step("prompts", async () => (await client.listPrompts()).prompts.map((p) => p.name));
await step("prompt", async () =>
  (await client.getPrompt({ name: "mcp__demo__greet", arguments: { name: "Ada" } }))
    .messages[0].content.text);
await step("listen", async () => {
  const sub = await client.listen({ toolsListChanged: true, promptsListChanged: true });
  const honored = sub.honoredFilter;
  await client.callTool({ name: "mcp__grow__grow", arguments: {} });
  const got = await until(() => changed > 0);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  await sub.close();
  return { honored, got, grown: tools.includes("mcp__grow__grown") };
});
console.log(JSON.stringify(out));
await client.close();
process.exit(0);
