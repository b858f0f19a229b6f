// A TS SDK v2 (@modelcontextprotocol/server 2.4.0) server for the
// 2026-07-28 tests: `node ts_v2_server.mjs stdio dual|modern` serves stdio
// (dual: both eras, as serveStdio does by default; modern: a 2025 opening
// is refused), `node ts_v2_server.mjs http dual|modern` serves streamable
// HTTP on 127.0.0.1 at /mcp (an ephemeral port, said as "listening on
// PORT").
// Tools: echo, confirm (elicitation through input_required, with a
// requestState), login (a URL-mode elicitation through input_required:
// the URL's outcome is the result), geo (x-mcp-header Region on a string, Count on an
// integer, Flag on a boolean), bad_header (x-mcp-header on a number: a
// client must leave it out), slow (30 s), flaky (over
// HTTP its first call's stream is cut after the first event), bump
// (tools/list_changed and resources/updated); a resource config://app; a
// prompt greet. With TS_V2_LOG=FILE every request's method and params
// (over HTTP: its mcp-* headers too, and "closed" when the client closed
// a response stream) go there, one line each.
// With TS_V2_CHANNEL=1 (HTTP) the server also declares
// experimental["claude/channel"], and a subscriptions/listen stream whose
// filter asks for it (notifications.experimental["claude/channel"]) gets
// one notifications/claude/channel after its acknowledgement, tagged with
// the subscriptionId. The SDK has no way to push a custom notification on
// a listen stream (its event bus carries the four change kinds only), so
// it is written on the stream here, beside the SDK's frames.
// TS_V2_CHANNEL=only declares no listChanged and no subscribe: the SDK
// honours nothing of such a filter and ends each listen stream right
// after the acknowledgement (and the channel message).
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const mods = join(here, '..', 'interop', 'node_modules');
const req = createRequire(join(mods, 'x.js'));
const sdk = await import(req.resolve('@modelcontextprotocol/server'));
const {
  McpServer,
  inputRequired,
  inputResponse,
  acceptedContent,
  createMcpHandler,
  fromJsonSchema
} = sdk;
const { z } = await import(req.resolve('zod'));

const [mode = 'stdio', era = 'dual'] = process.argv.slice(2);
const logFile = process.env.TS_V2_LOG;
const channelOnly = process.env.TS_V2_CHANNEL === 'only';
const channel = process.env.TS_V2_CHANNEL === '1' || channelOnly;
const CHANNEL_MESSAGE = {
  content: 'deploy <done>\u200b & ok',
  meta: { chat_id: 7, user: 'ann', 'bad-key': 'x', source: 'forged' }
};

function note(method, params, id) {
  if (logFile) {
    appendFileSync(logFile, JSON.stringify({ method, id, params }) + '\n');
  }
}

const servers = new Set();
let flakyCut = false;

function factory() {
  const server = new McpServer(
    { name: 'ts-v2-test', version: '2.4.0-test' },
    {
      capabilities: {
        tools: { listChanged: !channelOnly },
        resources: { subscribe: !channelOnly, listChanged: !channelOnly },
        prompts: { listChanged: !channelOnly },
        logging: {},
        ...(channel && { experimental: { 'claude/channel': {} } })
      },
      instructions: 'Test server for the 2026-07-28 era.'
    }
  );
  servers.add(server);
  server.registerTool(
    'echo',
    { description: 'Echoes text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }, ctx) => {
      const era = ctx?.mcpReq?.envelope ? 'modern' : 'legacy';
      return { content: [{ type: 'text', text: `echo(${era}): ${text}` }] };
    }
  );
  server.registerTool(
    'confirm',
    {
      description: 'Asks for a confirmation',
      inputSchema: z.object({ action: z.string() })
    },
    async ({ action }, ctx) => {
      const schema = z.object({ confirm: z.boolean() });
      const got = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', schema);
      if (got?.confirm !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Really ${action}?`,
              requestedSchema: schema
            })
          },
          requestState: Buffer.from(`{"action":"${action}"}`).toString(
            'base64url'
          )
        });
      }
      return { content: [{ type: 'text', text: `confirmed: ${action}` }] };
    }
  );
  server.registerTool(
    'login',
    {
      description: 'Asks for a visit to a URL',
      inputSchema: z.object({ url: z.string() })
    },
    async ({ url }, ctx) => {
      const got = inputResponse(ctx.mcpReq.inputResponses, 'visit');
      if (got.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            visit: inputRequired.elicitUrl({
              message: 'Sign in to go on',
              url
            })
          },
          requestState: Buffer.from(`{"url":"${url}"}`).toString('base64url')
        });
      }
      return { content: [{ type: 'text', text: `login: ${got.action}` }] };
    }
  );
  server.registerTool(
    'geo',
    {
      description: 'Headers from arguments',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
          q: { type: 'string' }
        }
      })
    },
    async (args) => ({
      content: [{ type: 'text', text: `region=${args.region}` }]
    })
  );
  server.registerTool(
    'bad_header',
    {
      description: 'x-mcp-header on a number',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { n: { type: 'number', 'x-mcp-header': 'N' } }
      })
    },
    async () => ({ content: [{ type: 'text', text: 'called' }] })
  );
  server.registerTool(
    'slow',
    { description: 'A long wait' },
    async () => {
      await new Promise((r) => setTimeout(r, 30000));
      return { content: [{ type: 'text', text: 'slow done' }] };
    }
  );
  server.registerTool(
    'flaky',
    { description: 'A stream cut once (HTTP)' },
    async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { content: [{ type: 'text', text: 'flaky ok' }] };
    }
  );
  server.registerTool(
    'bump',
    { description: 'Changes the tool list and config://app' },
    async () => {
      // Sent before the result: over stdio they come first.
      for (const s of servers) {
        try {
          await s.sendToolListChanged();
          await s.server.sendResourceUpdated({ uri: 'config://app' });
        } catch {}
      }
      return { content: [{ type: 'text', text: 'bumped' }] };
    }
  );
  server.registerResource(
    'config',
    'config://app',
    { mimeType: 'application/json' },
    async () => ({
      contents: [
        { uri: 'config://app', mimeType: 'application/json', text: '{"theme":"dark"}' }
      ]
    })
  );
  server.registerPrompt(
    'greet',
    { description: 'Greets', argsSchema: { who: z.string() } },
    async ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello ${who}` } }]
    })
  );
  return server;
}

if (mode === 'stdio') {
  const { serveStdio } = await import(req.resolve('@modelcontextprotocol/server/stdio'));
  if (logFile) {
    process.stdin.on('data', (d) => {
      for (const line of d.toString().split('\n')) {
        if (line.trim()) {
          try {
            const m = JSON.parse(line);
            note(m.method ?? 'response', m.params ?? null, m.id);
          } catch {
            note('unparsable', line);
          }
        }
      }
    });
  }
  serveStdio(factory, { legacy: era === 'modern' ? 'reject' : 'serve' });
} else {
  const handler = createMcpHandler(factory, {
    legacy: era === 'modern' ? 'reject' : 'stateless'
  });
  const srv = createServer(async (rq, rs) => {
    const chunks = [];
    for await (const c of rq) chunks.push(c);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [k, v] of Object.entries(rq.headers)) {
      headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    if (logFile) {
      const hdr = {};
      for (const [k, v] of Object.entries(rq.headers)) {
        if (k.startsWith('mcp-')) hdr[k] = v;
      }
      let m = {};
      try { m = JSON.parse(body.toString()); } catch {}
      note(`${rq.method} ${m.method ?? ''}`, { headers: hdr, id: m.id ?? null, params: m.params ?? null });
    }
    const ac = new AbortController();
    rs.on('close', () => {
      if (!rs.writableFinished) {
        let m = {};
        try { m = JSON.parse(body.toString()); } catch {}
        note('closed', { id: m.id ?? null, name: m.params?.name ?? null });
      }
      ac.abort();
    });
    let cut = false;
    let push = null; // the listen stream's id, when a channel message goes on it
    try {
      const m = JSON.parse(body.toString());
      cut = m.method === 'tools/call' && m.params?.name === 'flaky' && !flakyCut;
      if (cut) flakyCut = true;
      if (channel && m.method === 'subscriptions/listen' &&
          m.params?.notifications?.experimental?.['claude/channel']) {
        push = m.id;
      }
    } catch {}
    const url = `http://127.0.0.1${rq.url}`;
    const res = await handler.fetch(
      new Request(url, {
        method: rq.method,
        headers,
        body: rq.method === 'GET' || rq.method === 'HEAD' ? undefined : body,
        signal: ac.signal
      })
    );
    rs.writeHead(res.status, Object.fromEntries(res.headers));
    if (cut) {
      // A network break: the headers and a comment, then the socket goes.
      rs.write(': cut\n\n');
      setTimeout(() => rs.socket?.destroy(), 50);
      return;
    }
    if (res.body) {
      for await (const c of res.body) {
        rs.write(c);
        if (push !== null) {
          // After the acknowledgement, the first frame of the stream.
          const params = {
            ...CHANNEL_MESSAGE,
            _meta: { 'io.modelcontextprotocol/subscriptionId': push }
          };
          rs.write(`event: message\ndata: ${JSON.stringify({
            jsonrpc: '2.0', method: 'notifications/claude/channel', params
          })}\n\n`);
          push = null;
        }
      }
    }
    rs.end();
  });
  srv.listen(0, '127.0.0.1', () => {
    console.log(`listening on ${srv.address().port}`);
  });
}
