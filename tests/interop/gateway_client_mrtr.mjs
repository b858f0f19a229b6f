// The TS SDK v2 client (@modelcontextprotocol/client), pinned to MCP
// 2026-07-28, against `mcphost serve` fronting backends that ask
// (test_gateway_mrtr.sh):
//   node gateway_client_mrtr.mjs MCPHOST ARGS...   (serve --stdio)
//   node gateway_client_mrtr.mjs http://127.0.0.1:PORT/mcp
// It declares elicitation (form and URL), roots and sampling, answers
// each from its handlers (the SDK's input_required driver retries the
// call with them), and prints what the calls returned and what its
// handlers were asked, as one JSON object.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { stepper, text } from "./gateway_steps.mjs";

const [command, ...args] = process.argv.slice(2);
const out = { asked: [] };
const step = stepper(out);

const client = new Client(
  { name: "gateway-test-mrtr", version: "1.0.0" },
  {
    capabilities: { elicitation: { form: {}, url: {} }, roots: {}, sampling: {} },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  },
);
// The modern backend's confirm is declined once, then accepted: two
// rounds for one call.
let confirms = 0;
client.setRequestHandler("elicitation/create", (req) => {
  const p = req.params;
  out.asked.push({ method: "elicitation/create", mode: p.mode ?? "form",
                   message: p.message });
  if (p.mode === "url") return { action: "accept" };
  if (p.message.startsWith("Really")) {
    return ++confirms === 1 ? { action: "decline" }
                            : { action: "accept", content: { confirm: true } };
  }
  return { action: "accept", content: { name: "Ada" } };
});
client.setRequestHandler("roots/list", () => {
  out.asked.push({ method: "roots/list" });
  return { roots: [{ uri: "file:///mrtr-root", name: "mrtr" }] };
});
client.setRequestHandler("sampling/createMessage", () => {
  out.asked.push({ method: "sampling/createMessage" });
  return { role: "assistant", content: { type: "text", text: "sampled hi" },
           model: "test-model" };
});
const http = command.startsWith("http");
const transport = http
  ? new StreamableHTTPClientTransport(new URL(command))
  : new StdioClientTransport({ command, args, stderr: "inherit" });
await client.connect(transport);
out.version = client.getNegotiatedProtocolVersion();
const call = (name, a = {}) => async () =>
  text(await client.callTool({ name, arguments: a }));
await step("ask", call("mcp__grow__ask"));
await step("askurl", call("mcp__grow__askurl"));
await step("roots", call("mcp__grow__roots"));
await step("sample", call("mcp__grow__sample"));
await step("confirm", call("mcp__v2__confirm", { action: "deploy" }));
await step("prompt", async () =>
  (await client.getPrompt({ name: "mcp__grow__askprompt" })).messages[0].content.text);
await step("read", async () => {
  await client.listResources(); // the gateway routes a URI it has listed
  return (await client.readResource({ uri: "asked://name" })).contents[0].text;
});
console.log(JSON.stringify(out));
await client.close();
process.exit(0);
