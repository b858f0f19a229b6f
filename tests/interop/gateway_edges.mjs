// The TS SDK's client against `mcphost serve` (test_gateway_edges.sh):
//   node gateway_edges.mjs SCENARIO http://127.0.0.1:PORT/mcp
// talks to a running `serve --http`;
//   node gateway_edges.mjs SCENARIO MCPHOST ARGS...
// runs mcphost ARGS (ending in "serve --stdio ...") as its server.
// Plays SCENARIO and prints what it saw as one JSON object:
//   caps      the capabilities the gateway advertised
//   roots     a client that offers roots makes a long call right after
//             initialize (over stdio the gateway connects its backends
//             for it; server-everything asks roots/list 350 ms after it
//             started, tied to no call), then asks the backend which
//             roots it holds
//   sanitize  a tool, a prompt and a read result carrying a zero-width
//             space, a right-to-left override and tag characters
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

import { stepper, text } from "./gateway_steps.mjs";

const [scenario, url, ...args] = process.argv.slice(2);
const out = {};
const step = stepper(out);
// What a model must not read: U+200B, U+202E and the tag characters
// U+E0041 U+E0042 ("AB" spelled invisibly).
const HIDDEN = "a\u200Bb\u202Ec\u{E0041}\u{E0042}d";

const roots = scenario === "roots";
const client = new Client({ name: "gateway-edges", version: "1.0.0" },
  { capabilities: roots ? { roots: { listChanged: true } } : {} });
out.asked_roots = 0;
if (roots) {
  client.setRequestHandler(ListRootsRequestSchema, () => {
    out.asked_roots++;
    return { roots: [{ uri: "file:///client/secret", name: "client" }] };
  });
}
await client.connect(url.startsWith("http://")
  ? new StreamableHTTPClientTransport(new URL(url))
  : new StdioClientTransport({ command: url, args, stderr: "inherit", env: process.env }));
out.capabilities = client.getServerCapabilities();

if (roots) {
  await step("long", async () => text(await client.callTool({
    name: "mcp__every__trigger-long-running-operation",
    arguments: { duration: 3, steps: 3 },
  })));
  await step("held", async () => text(await client.callTool({
    name: "mcp__every__get-roots-list", arguments: {},
  })));
} else if (scenario === "sanitize") {
  await step("tool", async () => text(await client.callTool({
    name: "mcp__every__echo", arguments: { message: HIDDEN },
  })));
  await step("prompt", async () => (await client.getPrompt({
    name: "mcp__demo__greet", arguments: { name: HIDDEN },
  })).messages[0].content.text);
  await step("read", async () => (await client.readResource({
    uri: `demo://item/${HIDDEN}`,
  })).contents[0].text);
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
