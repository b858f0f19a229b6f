// A stdio MCP server for the gateway's tests (test_serve.sh), on the TS
// SDK: a tool list that grows on request (the SDK then sends
// notifications/tools/list_changed), and a call that waits until it is
// cancelled, so that a cancellation forwarded by the gateway can be seen.
//   grow ()          registers the tool "grown", answers "grown"
//   wait ()          answers only when cancelled (then nothing goes back)
//   cancelled ()     "yes" once a wait saw its request cancelled, else "no"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "gateway-backend", version: "1.0.0" });
let sawCancel = false;
const text = (t) => ({ content: [{ type: "text", text: t }] });

server.registerTool("grow", { description: "Adds the tool grown." }, async () => {
  server.registerTool("grown", { description: "Added later." }, async () =>
    text("I was added"));
  return text("grown");
});
server.registerTool("wait", { description: "Waits to be cancelled." },
  async (extra) => new Promise((resolve) => {
    extra.signal.addEventListener("abort", () => {
      sawCancel = true;
      resolve(text("cancelled"));
    });
  }));
server.registerTool("cancelled", { description: "Whether a wait was cancelled." },
  async () => text(sawCancel ? "yes" : "no"));

await server.connect(new StdioServerTransport());
