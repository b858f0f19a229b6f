#!/usr/bin/env node
// A fake IDE for the IDE integration's tests: the MCP server an IDE
// extension (VS Code, JetBrains, Neovim) runs for Claude Code, with its
// lockfile. Prints "listening on PORT" once the lockfile is written.
//
//   --dir D           write D/<port>.lock (D is created, mode 0700)
//   --workspace W     a workspaceFolders entry (repeatable)
//   --token T         the lockfile's authToken, checked on every request
//                     (header x-claude-code-ide-authorization); "none":
//                     no authToken in the lockfile (as Emacs writes) and
//                     no check
//   --transport T     "sse" (GET /sse + POST /message, the legacy HTTP+SSE
//                     wire) or "ws" (WebSocket, subprotocol mcp; the ws
//                     package from tests/interop)
//   --name N          ideName (default "Fake IDE")
//   --pid P           the lockfile's pid (default this process's)
//   --mode M          the lockfile's mode, octal (default 600)
//   --log F           a JSON line per request's headers, per call and per
//                     ide_connected
//
// Tools: the VS Code extension's twelve. After the client's
// ide_connected notification the IDE sends selection_changed,
// at_mentioned and diagnostics_changed.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const opts = { workspace: [] };
for (let i = 2; i < process.argv.length; i += 2) {
  const k = process.argv[i].replace(/^--/, '');
  if (k === 'workspace') opts.workspace.push(process.argv[i + 1]);
  else opts[k] = process.argv[i + 1];
}
const token = opts.token ?? 'tok-0123456789abcdef';
const transport = opts.transport || 'sse';
const log = (obj) => {
  if (opts.log) fs.appendFileSync(opts.log, JSON.stringify(obj) + '\n');
};

const TOOLS = ['openFile', 'openDiff', 'getCurrentSelection',
  'getLatestSelection', 'getOpenEditors', 'getWorkspaceFolders',
  'getDiagnostics', 'checkDocumentDirty', 'saveDocument', 'close_tab',
  'closeAllDiffTabs', 'executeCode'];

function authorized(headers) {
  if (token === 'none') return true;
  const got = headers['x-claude-code-ide-authorization'];
  return typeof got === 'string' && got.length === token.length &&
    crypto.timingSafeEqual(Buffer.from(got), Buffer.from(token));
}

// One client at a time: `send` goes to it.
let send = () => {};

function onMessage(msg) {
  if (msg.method === 'initialize') {
    send({ jsonrpc: '2.0', id: msg.id, result: {
      protocolVersion: '2024-11-05',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: opts.name || 'Fake IDE', version: '1.0.0' } } });
  } else if (msg.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: msg.id, result: { tools: TOOLS.map((name) => ({
      name, description: `the IDE's ${name}`,
      inputSchema: { type: 'object', properties: { filePath: { type: 'string' } } } })) } });
  } else if (msg.method === 'tools/call') {
    const name = msg.params?.name;
    log({ event: 'call', name, arguments: msg.params?.arguments });
    let text = 'ok';
    if (name === 'openFile') text = `opened ${msg.params?.arguments?.filePath}`;
    else if (name === 'getDiagnostics') text = '[]';
    else if (!TOOLS.includes(name)) {
      send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: `Unknown tool: ${name}` } });
      return;
    }
    send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text }] } });
  } else if (msg.method === 'ping') {
    send({ jsonrpc: '2.0', id: msg.id, result: {} });
  } else if (msg.method === 'ide_connected') {
    log({ event: 'ide_connected', params: msg.params });
    const file = path.join(opts.workspace[0] || '/', 'src', 'main.c');
    send({ jsonrpc: '2.0', method: 'selection_changed', params: {
      text: 'int main', filePath: file, fileUrl: `file://${file}`,
      selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 8 }, isEmpty: false } } });
    send({ jsonrpc: '2.0', method: 'at_mentioned', params: { filePath: file, lineStart: 10, lineEnd: 20 } });
    send({ jsonrpc: '2.0', method: 'diagnostics_changed', params: { uris: [`file://${file}`] } });
  }
}

function serveSse(req, res) {
  const url = new URL(req.url, 'http://placeholder');
  log({ event: 'request', method: req.method, url: req.url, headers: req.headers });
  if (!authorized(req.headers)) {
    res.writeHead(401, { 'Content-Type': 'text/plain' });
    return res.end('bad or missing x-claude-code-ide-authorization');
  }
  if (req.method === 'GET' && url.pathname === '/sse') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    send = (m) => res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
    res.write('event: endpoint\ndata: /message\n\n');
    return;
  }
  if (req.method === 'POST' && url.pathname === '/message') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(202, { 'Content-Type': 'text/plain' });
      res.end('Accepted');
      onMessage(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('not found');
}

const server = http.createServer(transport === 'sse' ? serveSse : (req, res) => {
  res.writeHead(426, { 'Content-Type': 'text/plain' });
  res.end('WebSocket only');
});

if (transport === 'ws') {
  const require = createRequire(path.join(process.env.INTEROP || '.', 'package.json'));
  const { WebSocketServer } = require('ws');
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
  });
  server.on('upgrade', (req, socket, head) => {
    log({ event: 'request', method: 'UPGRADE', url: req.url, headers: req.headers });
    if (!authorized(req.headers)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      send = (m) => ws.send(JSON.stringify(m));
      ws.on('message', (data) => onMessage(JSON.parse(data.toString('utf8'))));
    });
  });
}

server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  const dir = opts.dir;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = {
    pid: opts.pid ? Number(opts.pid) : process.pid,
    workspaceFolders: opts.workspace,
    ideName: opts.name || 'Fake IDE',
    transport,
    runningInWindows: false,
  };
  if (token !== 'none') lock.authToken = token;
  const file = path.join(dir, `${port}.lock`);
  fs.writeFileSync(file, JSON.stringify(lock), { mode: 0o600 });
  fs.chmodSync(file, parseInt(opts.mode || '600', 8));
  console.log(`listening on ${port}`);
});
