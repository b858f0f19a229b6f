// The TS SDK's client against `mcphost serve` (test_gateway.sh,
// test_gateway_http.sh):
//   node gateway_client.mjs SCENARIO MCPHOST ARGS...
// runs mcphost ARGS (ending in "serve --stdio ...") as its server;
//   node gateway_client.mjs SCENARIO http://127.0.0.1:PORT/mcp
// talks streamable HTTP to a running `serve --http` (with the bearer
// token in $GW_TOKEN, if set). Plays SCENARIO and prints what it saw as
// one JSON object. Waits are bounded by counts, never by how long
// something took.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  EmptyResultSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

import { error, sleep, stepper, text, until } from "./gateway_steps.mjs";

const [scenario, command, ...args] = process.argv.slice(2);
const out = {};
const step = stepper(out);

const elicit = scenario === "elicit-yes" || scenario === "elicit-no";
// forward: the client offers elicitation, roots and sampling, and the
// backend's own requests reach it; forward-none: it offers none of them;
// forward-cancel: an elicitation the backend cancels, waited on until the
// gateway says so.
const forward = scenario === "forward" || scenario === "forward-cancel";
const client = new Client(
  { name: "gateway-test", version: "1.0.0" },
  {
    capabilities: forward
      ? { elicitation: { form: {} }, roots: { listChanged: true }, sampling: {} }
      : elicit ? { elicitation: { form: {} } } : {},
  },
);
const seen = { elicit: 0, roots: 0, sampling: 0 };
if (forward) {
  client.setRequestHandler(ElicitRequestSchema, (req, extra) => {
    seen.elicit++;
    if (scenario === "forward-cancel") {
      // The cancellation may come before the handler runs.
      return new Promise((resolve) => {
        const done = () => {
          seen.cancelled = String(extra.signal.reason);
          resolve({ action: "cancel" });
        };
        if (extra.signal.aborted) done();
        else extra.signal.addEventListener("abort", done);
      });
    }
    return { action: "accept", content: { name: `Ada (asked: ${req.params.message})` } };
  });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    seen.roots++;
    return { roots: [{ uri: "file:///client/root", name: "client" }] };
  });
  client.setRequestHandler(CreateMessageRequestSchema, () => {
    seen.sampling++;
    return { role: "assistant", content: { type: "text", text: "hi from the client" }, model: "m" };
  });
}
let changed = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
  changed++;
});
const asked = [];
if (elicit) {
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    asked.push(req.params.message);
    return scenario === "elicit-yes"
      ? { action: "accept", content: { allow: true } }
      : { action: "decline" };
  });
}
const http = command.startsWith("http://");
const headers = process.env.GW_TOKEN ? { Authorization: `Bearer ${process.env.GW_TOKEN}` } : {};
const transport = http
  ? new StreamableHTTPClientTransport(new URL(command), { requestInit: { headers } })
  : new StdioClientTransport({ command, args, stderr: "inherit", env: process.env });
try {
  await client.connect(transport);
} catch (e) {
  out.connect = { error: String(e.message || e), code: e.code };
  process.stdout.write(JSON.stringify(out) + "\n");
  process.exit(0);
}
out.session = http ? transport.sessionId ?? null : null;
out.server = client.getServerVersion();
out.capabilities = client.getServerCapabilities();

if (scenario === "main") {
  await step("tools", async () => (await client.listTools()).tools.map((t) => t.name));
  await step("echo", async () =>
    text(await client.callTool({ name: "mcp__demo__echo", arguments: { message: "hi" } })));
  await step("every_echo", async () =>
    text(await client.callTool({ name: "mcp__every__echo", arguments: { message: "yo" } })));
  await step("denied", () => client.callTool({ name: "mcp__demo__add", arguments: { a: 1, b: 2 } }));
  await step("ask", () => client.callTool({ name: "mcp__demo__fail", arguments: {} }));
  await step("unknown_tool", () => client.callTool({ name: "mcp__demo__nope", arguments: {} }));
  await step("bad_backend_tool", () => client.callTool({ name: "mcp__bad__x", arguments: {} }));
  await step("resources", async () => (await client.listResources()).resources.map((r) => r.uri));
  await step("templates", async () =>
    (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate));
  await step("read", async () =>
    (await client.readResource({ uri: "demo://readme" })).contents[0].text);
  await step("read_unknown", () => client.readResource({ uri: "nowhere://x" }));
  await step("prompts", async () => (await client.listPrompts()).prompts.map((p) => p.name));
  await step("prompt", async () =>
    (await client.getPrompt({ name: "mcp__demo__greet", arguments: { name: "Ada" } }))
      .messages[0].content.text);
  await step("progress", async () => {
    const seen = [];
    const r = await client.callTool(
      { name: "mcp__every__trigger-long-running-operation", arguments: { duration: 0.4, steps: 4 } },
      undefined,
      { onprogress: (p) => seen.push(p.progress) },
    );
    return { text: text(r), seen };
  });
  await step("ping", async () => (await client.ping(), "pong"));
  await step("no_method", () => client.request({ method: "nope/nope" }, EmptyResultSchema));
  // Cancellation: the backend's call is cancelled too.
  await step("cancel", async () => {
    const ac = new AbortController();
    const p = client.callTool({ name: "mcp__grow__wait", arguments: {} }, undefined,
      { signal: ac.signal });
    await sleep(200);
    ac.abort("enough");
    let rejected = false;
    await p.catch(() => { rejected = true; });
    const seen = await until(async () =>
      text(await client.callTool({ name: "mcp__grow__cancelled", arguments: {} })) === "yes");
    return { rejected, backend_saw_cancel: seen };
  });
  // A backend's list changes: the client is told, the new tool is there.
  await step("list_changed", async () => {
    changed = 0;
    await client.callTool({ name: "mcp__grow__grow", arguments: {} });
    const told = await until(() => changed > 0);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    return { told, grown: tools.includes("mcp__grow__grown") };
  });
  // A backend that dies: the client is told its tools went.
  await step("crash", async () => {
    changed = 0;
    const r = await client.callTool({ name: "mcp__probe__die", arguments: { text: "bye" } })
      .then(() => "answered", (e) => error(e));
    const told = await until(() => changed > 0);
    // Reconnected on the next use: its tools are back.
    const back = await until(async () =>
      (await client.listTools()).tools.some((t) => t.name === "mcp__probe__die"));
    return { call: r, told, back };
  });
} else if (elicit) {
  await step("ask", async () =>
    text(await client.callTool({ name: "mcp__demo__fail", arguments: { reason: "r" } })));
  out.asked = asked;
} else if (scenario === "forward-cancel") {
  await step("ask", async () =>
    text(await client.callTool({ name: "mcp__grow__askcancel", arguments: {} })));
  await until(() => seen.cancelled !== undefined);
  out.seen = seen;
} else if (forward || scenario === "forward-none") {
  const call = async (name) => {
    const r = await client.callTool({ name, arguments: {} });
    return { text: text(r), isError: r.isError ?? false };
  };
  await step("ask", () => call("mcp__grow__ask"));
  await step("roots", () => call("mcp__grow__roots"));
  await step("sample", () => call("mcp__grow__sample"));
  out.seen = seen;
} else if (scenario === "ide") {
  await step("tools", async () => (await client.listTools()).tools.map((t) => t.name));
  await step("hidden", () => client.callTool({ name: "mcp__ide__openFile", arguments: {} }));
  await step("visible", async () =>
    (await client.callTool({ name: "mcp__ide__getDiagnostics", arguments: {} })).isError ?? false);
} else if (scenario === "cut") {
  await step("echo", async () =>
    text(await client.callTool({ name: "mcp__demo__echo", arguments: { message: "x".repeat(500) } })));
} else if (scenario === "passthrough") {
  await step("tools", async () => (await client.listTools()).tools.map((t) => t.name));
  await step("echo", async () =>
    text(await client.callTool({ name: "echo", arguments: { message: "hi" } })));
  await step("prompts", async () => (await client.listPrompts()).prompts.map((p) => p.name));
} else if (scenario.startsWith("exact")) {
  // Data through the gateway both ways: U+0000 in a string, and numbers a
  // double holds exactly that a 15-digit printer shortens (2^53 - 1 came
  // back as 9007199254740990, 0.30000000000000004 as 0.3). "exact":
  // server-everything as every and typed_server.py as t behind the
  // gateway; "exact-every" and "exact-t": the one with --passthrough.
  const name = (server, tool) =>
    scenario === "exact" ? `mcp__${server}__${tool}` : tool;
  if (scenario !== "exact-t") {
    await step("nul", async () =>
      text(await client.callTool({ name: name("every", "echo"), arguments: { message: "a\u0000b" } })));
  }
  if (scenario !== "exact-every") {
    await step("numbers", async () => {
      const r = await client.callTool({
        name: name("t", "exact"),
        arguments: { n: 9007199254740991, f: 0.30000000000000004, s: "x\u0000y" },
      });
      const sc = r.structuredContent;
      return {
        text: text(r),
        back: sc.n === 9007199254740991 && sc.f === 0.30000000000000004 && sc.s === "x\u0000y",
      };
    });
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
