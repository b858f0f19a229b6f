// The peer client of the WebSocket workload: about 30 lines of Node on the
// npm ws package (tests/interop, pinned by its lock file), since the TS SDK
// has no WebSocket client. It speaks mcphost's batch protocol (one request
// line in, one answer line out) for `call` requests, to the one server of
// the configuration, as `mcphost --config F batch` does.
// Usage: node ws_peer.mjs --config FILE batch
import fs from 'node:fs';
import readline from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const WebSocket = require('../../tests/interop/node_modules/ws');
const config = JSON.parse(fs.readFileSync(process.argv[process.argv.indexOf('--config') + 1], 'utf8'));
const [, server] = Object.entries(config.mcpServers)[0];
const ws = new WebSocket(server.url, 'mcp', { headers: server.headers || {} });
const pending = new Map();
let next = 1;
const rpc = (method, params) => new Promise((resolve) => {
  const id = next++;
  pending.set(id, resolve);
  ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
});
ws.on('message', (data) => {
  const m = JSON.parse(data.toString());
  const done = pending.get(m.id);
  if (done) { pending.delete(m.id); done(m); }
});
ws.on('open', async () => {
  await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ws-peer', version: '1' } });
  ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', async (line) => {
    const r = JSON.parse(line);
    const m = await rpc('tools/call', { name: r.call.split('/').pop(), arguments: r.arguments || {} });
    process.stdout.write(JSON.stringify(m.error ? { id: r.id, error: m.error } : { id: r.id, result: m.result }) + '\n');
  });
  lines.on('close', () => ws.close(1000));
});
ws.on('close', () => process.exit(0));
