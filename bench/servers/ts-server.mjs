// A benchmark MCP server built with the official TypeScript SDK 1.x
// (@modelcontextprotocol/sdk, McpServer): the common real case. Same tools
// as the C bench server: echo(message) -> "Echo: <message>", and
// big(bytes) -> one text block of that many bytes (bench/servers/big_text.h
// has the same text).
//
//   node ts-server.mjs stdio
//   node ts-server.mjs http [PORT] Streamable HTTP at http://127.0.0.1:PORT/mcp
//   node ts-server.mjs sse [PORT]  legacy HTTP+SSE at http://127.0.0.1:PORT/sse
//
// The HTTP modes print the port they listen on (PORT 0 or none: any free
// port) as the first line on stdout.
import { randomUUID } from 'node:crypto';
import http from 'node:http';

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const LINE = 'The quick brown fox jumps over the lazy dog; "quoted", tab\there.\n';

function bigText(bytes) {
  const whole = Math.floor(bytes / LINE.length);
  return LINE.repeat(whole) + LINE.slice(0, bytes - whole * LINE.length);
}

function newServer() {
  const server = new McpServer({ name: 'bench-ts-server', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo a message back, prefixed with "Echo: ".',
      inputSchema: { message: z.string() },
    },
    async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
  );
  server.registerTool(
    'big',
    {
      description: 'Return one text block of `bytes` bytes.',
      inputSchema: { bytes: z.number().int().min(0).max(256 * 1024 * 1024) },
    },
    async ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
  );
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const s = Buffer.concat(chunks).toString('utf8');
  return s ? JSON.parse(s) : undefined;
}

const [mode, portArg] = process.argv.slice(2);

if (mode === 'stdio' || mode === undefined) {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  await newServer().connect(new StdioServerTransport());
} else if (mode === 'http') {
  const { StreamableHTTPServerTransport } = await import(
    '@modelcontextprotocol/sdk/server/streamableHttp.js'
  );
  const { isInitializeRequest } = await import('@modelcontextprotocol/sdk/types.js');
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      if (!req.url.startsWith('/mcp')) {
        res.writeHead(404).end();
        return;
      }
      const sid = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      let transport = sid ? sessions.get(sid) : undefined;
      if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => sessions.set(id, transport),
        });
        transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
        await newServer().connect(transport);
      }
      if (!transport) {
        res.writeHead(sid ? 404 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null,
          error: { code: -32000, message: sid ? 'Session not found' : 'No session' } }));
        return;
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  httpServer.keepAliveTimeout = 60000;
  httpServer.listen(Number(portArg ?? 0), '127.0.0.1', () => console.log(httpServer.address().port));
} else if (mode === 'sse') {
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/message', res);
        sessions.set(transport.sessionId, transport);
        res.on('close', () => sessions.delete(transport.sessionId));
        await newServer().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/message') {
        const transport = sessions.get(url.searchParams.get('sessionId'));
        if (!transport) {
          res.writeHead(404).end('Session not found');
          return;
        }
        await transport.handlePostMessage(req, res, await readBody(req));
        return;
      }
      res.writeHead(404).end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });
  httpServer.keepAliveTimeout = 60000;
  httpServer.listen(Number(portArg ?? 0), '127.0.0.1', () => console.log(httpServer.address().port));
} else {
  console.error('usage: ts-server.mjs stdio | http PORT | sse PORT');
  process.exit(2);
}
