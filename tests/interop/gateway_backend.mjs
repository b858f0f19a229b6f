// A stdio MCP server for the gateway's tests (test_gateway.sh), on the TS
// SDK: a tool list that grows on request (the SDK then sends
// notifications/tools/list_changed), and a call that waits until it is
// cancelled, so that a cancellation forwarded by the gateway can be seen.
//   grow ()          registers the tool "grown", answers "grown"
//   wait ()          answers only when cancelled (then nothing goes back)
//   cancelled ()     "yes" once a wait saw its request cancelled, else "no"
//   ask, roots, sample ()  elicitation/create, roots/list (tied to its
//                    call by its progressToken), sampling/createMessage to
//                    the client; answer what came
//   askcancel ()     an elicitation/create it cancels (notifications/cancelled)
//                    right after sending it; answers "cancelled"
//   asktied ()       as ask, its request's _meta naming the call's
//                    progressToken (which call it belongs to)
//   askurl ()        a URL-mode elicitation/create; answers what came
//   lastask ()       the answer the last ask or askurl got, and whether
//                    its call was cancelled ("none" before any)
// A prompt askprompt and a resource asked://name elicit a name too, and
// say what came.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new McpServer({ name: "gateway-backend", version: "1.0.0" });
let sawCancel = false;
const text = (t) => ({ content: [{ type: "text", text: t }] });

server.registerTool("grow", { description: "Adds the tool grown." }, async () => {
  server.registerTool("grown", { description: "Added later." }, async () =>
    text("I was added"));
  return text("grown");
});
// With GATEWAY_BACKEND_LOG set, a wait says in that file when it starts
// and when it is cancelled, and SIGINT and SIGTERM wait for the end of
// stdin, so that what the gateway wrote before stopping it is read.
const log = process.env.GATEWAY_BACKEND_LOG;
const note = (line) => log && appendFileSync(log, line + "\n");
if (log) {
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => {});
  process.stdin.on("end", () => process.exit(0));
}
server.registerTool("wait", { description: "Waits to be cancelled." },
  async (extra) => new Promise((resolve) => {
    extra.signal.addEventListener("abort", () => {
      sawCancel = true;
      note("wait cancelled");
      resolve(text("cancelled"));
    });
    note("wait started");
  }));
server.registerTool("cancelled", { description: "Whether a wait was cancelled." },
  async () => text(sawCancel ? "yes" : "no"));
// The server's own requests while a call runs (forwarded by the gateway
// to the client that made the call): each answers what it got.
let lastAsk = "none";
const remember = async (asked, extra) => {
  const got = await asked;
  lastAsk = JSON.stringify({ got, aborted: extra.signal.aborted });
  return text(JSON.stringify(got));
};
server.registerTool("ask", { description: "Elicits a name." }, async (extra) =>
  remember(server.server.elicitInput({
    message: "Your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  }), extra));
// The same question tied to its call: the call's progressToken in the
// request's _meta, the one tie a stdio server can give.
server.registerTool("asktied", { description: "Elicits a name, tied." },
  async (extra) => remember(server.server.elicitInput({
    message: "Your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    _meta: { progressToken: extra._meta?.progressToken },
  }), extra));
server.registerTool("askurl", { description: "Elicits through a URL." },
  async (extra) => remember(server.server.request({
    method: "elicitation/create",
    params: { mode: "url", message: "Sign in", url: "https://example.com/sign-in",
              elicitationId: "e-1" },
  }, ElicitResultSchema), extra));
const askName = async () => JSON.stringify(await server.server.elicitInput({
  message: "Your name, for a prompt or a resource?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } } },
}));
server.registerPrompt("askprompt", { description: "Elicits, then prompts." },
  async () => ({
    messages: [{ role: "user", content: { type: "text", text: await askName() } }],
  }));
server.registerResource("asked", "asked://name", { description: "Elicited." },
  async (uri) => ({ contents: [{ uri: uri.href, text: await askName() }] }));
server.registerTool("lastask", { description: "What the last ask got." },
  async () => text(lastAsk));
server.registerTool("askcancel", { description: "Elicits, then cancels." },
  async () => {
    const ac = new AbortController();
    const asked = server.server.elicitInput({
      message: "Never mind?",
      requestedSchema: { type: "object", properties: {} },
    }, { signal: ac.signal });
    setImmediate(() => ac.abort("the backend changed its mind"));
    try {
      await asked;
      return text("answered");
    } catch {
      return text("cancelled");
    }
  });
// Tied to its call as asktied is: a roots/list nothing ties gets the
// gateway's own roots, whatever call runs.
server.registerTool("roots", { description: "Lists the client's roots." }, async (extra) =>
  text(JSON.stringify((await server.server.listRoots({
    _meta: { progressToken: extra._meta?.progressToken },
  })).roots.map((r) => r.uri))));
server.registerTool("sample", { description: "Asks for a completion." }, async () => {
  const r = await server.server.createMessage({
    messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
    maxTokens: 10,
  });
  return text(r.content.text);
});

await server.connect(new StdioServerTransport());
