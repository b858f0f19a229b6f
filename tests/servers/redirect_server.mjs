// Two minimal streamable-HTTP MCP servers on two origins (two ports of
// 127.0.0.1), for the redirect policy's tests. Plain node, no packages.
//
//   origin A  POST /away   307 to origin B's /mcp (another origin)
//             POST /moved  307 to A's own /mcp (within the origin)
//             POST /mcp    the MCP server
//   origin B  POST /mcp    the MCP server
//
// The MCP server answers initialize (with an Mcp-Session-Id), takes
// notifications, lists one tool, echo_headers, whose result is the
// request's headers as JSON text.
//
// Usage: node redirect_server.mjs LOG
// Appends {origin, method, url, headers} per request to LOG as JSON lines;
// prints "listening on PORT_A PORT_B".
import fs from 'node:fs';
import http from 'node:http';

const logFile = process.argv[2];
const ports = {};

function mcp(req, res, body) {
  const send = (obj, headers = {}) => {
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(obj));
  };
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    res.writeHead(400);
    return res.end();
  }
  if (msg.id === undefined) {
    res.writeHead(202);
    return res.end();
  }
  if (msg.method === 'initialize') {
    return send({
      jsonrpc: '2.0', id: msg.id,
      result: { protocolVersion: msg.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'redirect-test', version: '1' } },
    }, { 'Mcp-Session-Id': 'sess-1' });
  }
  if (msg.method === 'tools/list') {
    return send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'echo_headers', inputSchema: { type: 'object' } }] } });
  }
  if (msg.method === 'tools/call') {
    const h = { ...req.headers };
    delete h.host;
    delete h['content-length'];
    return send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: JSON.stringify(h) }] } });
  }
  return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no such method' } });
}

function handler(origin) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      fs.appendFileSync(logFile, JSON.stringify({ origin, method: req.method, url: req.url, headers: req.headers, body }) + '\n');
      if (req.method !== 'POST') {
        res.writeHead(405);
        return res.end();
      }
      if (origin === 'A' && req.url === '/away') {
        res.writeHead(307, { Location: `http://127.0.0.1:${ports.B}/mcp` });
        return res.end();
      }
      if (origin === 'A' && req.url === '/moved') {
        res.writeHead(307, { Location: '/mcp' });
        return res.end();
      }
      if (req.url === '/mcp') return mcp(req, res, body);
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    });
  };
}

const a = http.createServer(handler('A'));
const b = http.createServer(handler('B'));
a.listen(0, '127.0.0.1', () => {
  ports.A = a.address().port;
  b.listen(0, '127.0.0.1', () => {
    ports.B = b.address().port;
    process.stdout.write(`listening on ${ports.A} ${ports.B}\n`);
  });
});
