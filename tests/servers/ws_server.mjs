// A WebSocket MCP server for the ws transport's tests, on the npm `ws`
// package (tests/interop, pinned by its lock file). Tools:
//
//   echo           {message} back as text
//   echo_headers   the upgrade request's headers, as JSON text
//   big            a text result of `size` bytes, in one message
//   fragmented     the result sent as `parts` continuation frames
//   binary         a binary frame first, then the result as text
//   empty          an empty text message first, then the result
//   drop           closes the TCP connection without an answer or a close
//                  frame (the text of later calls counts connections)
//   connections    how many connections the server has seen
//   pinged         pings the client with {payload}, answers with the
//                  pong's payload: "pong PAYLOAD"
//   close          a close frame with {code} and {reason}, no answer
//   bad_frame      a text frame with a reserved bit set, no answer
//   trickle        the answer ("trickled" and 200 z) as two fragments
//                  with a ping between them, written a byte at a time
//
// Usage: node ws_server.mjs [--tls CERT KEY [--client-ca CA]]
//          [--require-header NAME VALUE] [--subprotocol none|NAME]
//          [--never-upgrade] [--no-pong] [--close-code CODE]
//          [--cut-heads [--upgrade-alone]]
// --client-ca asks for and checks a client certificate (mTLS);
// --require-header refuses the upgrade with 401 unless NAME is VALUE;
// --subprotocol answers without one (none) or with another;
// --never-upgrade accepts TCP and never answers; --no-pong ignores pings;
// --connect-proxy is no WebSocket server but an HTTP CONNECT proxy that
// prints "proxied HOST:PORT" for each tunnel.
// --cut-heads is a server of its own frames (tool echo only) whose every
// write ends inside the head of a notifications/message ("note N"): the
// 101 answer carries the first byte of note 1, each answer to a request
// the rest of the note begun and the start of the next one, cut after
// 1 of 2 head bytes or after 1, 2 or 3 of 4, so a head is cut whenever
// the client sends; with --upgrade-alone the 101 answer comes alone.
// Listens on 127.0.0.1, a free port; prints "listening on PORT". Each
// close it sees is printed as "close CODE", each ping as "ping".
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { WebSocketServer } = require('../interop/node_modules/ws');

const args = process.argv.slice(2);
const opt = (name, n = 1) => {
  const i = args.indexOf(name);
  return i < 0 ? null : args.slice(i + 1, i + 1 + n);
};
const tls = opt('--tls', 2);
const clientCa = opt('--client-ca');
const required = opt('--require-header', 2);
const sub = opt('--subprotocol');

if (args.includes('--connect-proxy')) {
  const p = http.createServer((req, res) => { res.writeHead(405); res.end(); });
  p.on('connect', (req, client, head) => {
    console.log(`proxied ${req.url}`);
    const [host, port] = req.url.split(':');
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  p.listen(0, '127.0.0.1', () => console.log(`listening on ${p.address().port}`));
} else if (args.includes('--cut-heads')) {
  const frame = (op, payload) => {
    const len = payload.length;
    const head = len < 126 ? Buffer.from([0x80 | op, len])
      : Buffer.from([0x80 | op, 126, len >> 8, len & 255]);
    return Buffer.concat([head, payload]);
  };
  const server = http.createServer();
  server.on('upgrade', (req, socket) => {
    socket.setNoDelay(true);
    const accept = crypto.createHash('sha1')
      .update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11')
      .digest('base64');
    let notes = 0;
    let rest = Buffer.alloc(0); // the part of the note begun not yet written
    const cuts = [[10, 1], [200, 1], [200, 2], [200, 3]]; // [size, head bytes]
    const begin = () => {
      const [size, k] = cuts[notes++ % cuts.length];
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message',
        params: { level: 'info', data: `note ${notes} ` + 'n'.repeat(size) } });
      const f = frame(1, Buffer.from(note));
      rest = f.subarray(k);
      return f.subarray(0, k);
    };
    socket.write(Buffer.concat([Buffer.from('HTTP/1.1 101 Switching Protocols\r\n'
      + 'Upgrade: websocket\r\nConnection: Upgrade\r\n'
      + `Sec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: mcp\r\n\r\n`),
    args.includes('--upgrade-alone') ? Buffer.alloc(0) : begin()]));
    const answer = (m) => {
      if (m.method === 'initialize') {
        return { result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
          serverInfo: { name: 'ws-cut-heads', version: '1.0.0' } } };
      }
      if (m.method === 'tools/list') {
        return { result: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } };
      }
      if (m.method === 'tools/call' && m.params.name === 'echo') {
        return { result: { content: [{ type: 'text', text: String(m.params.arguments.message) }] } };
      }
      return { error: { code: -32601, message: 'no such method' } };
    };
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) { // the client's frames: masked, small, whole messages
        if (buf.length < 2) return;
        let len = buf[1] & 127, at = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2); at = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2)); at = 10;
        }
        if (buf.length < at + 4 + len) return;
        const mask = buf.subarray(at, at + 4);
        const p = Buffer.from(buf.subarray(at + 4, at + 4 + len));
        for (let i = 0; i < len; i++) p[i] ^= mask[i & 3];
        const op = buf[0] & 15;
        buf = buf.subarray(at + 4 + len);
        if (op === 8) { // the note begun, then the close's answer
          console.log(`close ${len >= 2 ? p.readUInt16BE(0) : 1005}`);
          socket.end(Buffer.concat([rest, frame(8, p.subarray(0, 2))]));
          return;
        }
        if (op === 9) {
          socket.write(Buffer.concat([rest, frame(10, p), begin()]));
          continue;
        }
        const m = JSON.parse(p.toString());
        if (m.id === undefined) continue;
        const reply = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...answer(m) }));
        socket.write(Buffer.concat([rest, frame(1, reply), begin()]));
      }
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
} else if (args.includes('--never-upgrade')) {
  const held = [];
  const s = net.createServer((c) => held.push(c));
  s.listen(0, '127.0.0.1', () => console.log(`listening on ${s.address().port}`));
} else {
  const server = tls
    ? https.createServer({
      cert: fs.readFileSync(tls[0]), key: fs.readFileSync(tls[1]),
      ...(clientCa ? { ca: fs.readFileSync(clientCa[0]), requestCert: true, rejectUnauthorized: true } : {}),
    })
    : http.createServer();
  let connections = 0;
  const wss = new WebSocketServer({
    server,
    maxPayload: 256 << 20,
    autoPong: !args.includes('--no-pong'),
    handleProtocols: (protocols) => {
      if (sub && sub[0] === 'none') return false;
      if (sub) return sub[0];
      return protocols.has('mcp') ? 'mcp' : false;
    },
    verifyClient: (info, cb) => {
      if (required && info.req.headers[required[0].toLowerCase()] !== required[1]) {
        cb(false, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="ws"' });
        return;
      }
      cb(true);
    },
  });
  const tools = ['echo', 'echo_headers', 'big', 'fragmented', 'binary', 'empty', 'drop', 'connections', 'pinged', 'close', 'bad_frame', 'trickle']
    .map((name) => ({ name, description: `test tool ${name}`, inputSchema: { type: 'object' } }));
  const text = (id, t) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });
  wss.on('connection', (ws, req) => {
    connections++;
    ws.on('close', (code) => console.log(`close ${code}`));
    ws.on('ping', () => console.log('ping'));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const m = JSON.parse(data.toString());
      if (m.id === undefined) return;
      const reply = (result) => ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
      if (m.method === 'initialize') {
        reply({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'ws-test', version: '1.0.0' } });
      } else if (m.method === 'tools/list') {
        reply({ tools });
      } else if (m.method === 'tools/call') {
        const a = m.params.arguments || {};
        switch (m.params.name) {
          case 'echo': ws.send(text(m.id, String(a.message))); break;
          case 'echo_headers': ws.send(text(m.id, JSON.stringify(req.headers))); break;
          case 'big': ws.send(text(m.id, 'x'.repeat(a.size))); break;
          case 'fragmented': {
            const whole = Buffer.from(text(m.id, `in ${a.parts} parts: ` + 'y'.repeat(a.size || 100000)));
            const step = Math.ceil(whole.length / a.parts);
            for (let i = 0; i < a.parts; i++) {
              ws.send(whole.subarray(i * step, (i + 1) * step), { binary: false, fin: i === a.parts - 1 });
            }
            break;
          }
          case 'binary':
            ws.send(Buffer.from([0, 1, 2, 3]), { binary: true });
            ws.send(text(m.id, 'after the binary frame'));
            break;
          case 'empty':
            ws.send('');
            ws.send(text(m.id, 'after the empty message'));
            break;
          case 'drop': ws._socket.destroy(); break;
          case 'connections': ws.send(text(m.id, `connections: ${connections}`)); break;
          case 'pinged':
            ws.once('pong', (d) => ws.send(text(m.id, `pong ${d.toString()}`)));
            ws.ping(Buffer.from(String(a.payload)));
            break;
          case 'close': ws.close(Number(a.code), String(a.reason)); break;
          case 'bad_frame': ws._socket.write(Buffer.from([0xc1, 0x01, 0x41])); break;
          case 'trickle': {
            // Every frame head and the ping cut across reads: a text
            // fragment (7-bit length), a ping, a continuation (16-bit).
            const whole = Buffer.from(text(m.id, 'trickled ' + 'z'.repeat(200)));
            const a = whole.subarray(0, 100), b = whole.subarray(100);
            const bytes = Buffer.concat([
              Buffer.from([0x01, a.length]), a,
              Buffer.from([0x89, 1, 0x74]),
              Buffer.from([0x80, 126, b.length >> 8, b.length & 255]), b]);
            let i = 0;
            const next = () => {
              if (i < bytes.length) ws._socket.write(bytes.subarray(i, ++i), () => setTimeout(next, 1));
            };
            next();
            break;
          }
          default: ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'no such tool' } }));
        }
      } else {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } }));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
}
