// A WebSocket front for a stdio MCP server, for the ws transport's tests:
// each connection (subprotocol mcp) spawns `COMMAND ARGS...` and relays
// every text message to its stdin as one line, every line of its stdout
// back as one text message. The child ends with the connection.
// Usage: node ws_bridge.mjs COMMAND [ARGS...]; prints "listening on PORT".
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { WebSocketServer } = require('../interop/node_modules/ws');
const [command, ...args] = process.argv.slice(2);

const wss = new WebSocketServer({
  host: '127.0.0.1', port: 0, maxPayload: 256 << 20,
  handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
});
wss.on('connection', (ws) => {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  readline.createInterface({ input: child.stdout }).on('line', (line) => ws.send(line));
  ws.on('message', (data) => child.stdin.write(data.toString() + '\n'));
  ws.on('close', () => child.kill());
  child.on('exit', () => ws.close(1001, 'server exited'));
});
wss.on('listening', () => console.log(`listening on ${wss.address().port}`));
