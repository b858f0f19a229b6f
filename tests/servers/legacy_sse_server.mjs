#!/usr/bin/env node
// A small MCP server on the legacy HTTP+SSE transport (2024-11-05), for the
// sse transport's tests. Plain node, no packages. One session for the whole
// process, so that a client that reconnects its stream keeps it.
//
//   GET  /sse                 the event stream: `endpoint` first, then
//                             every message as a `message` event; every
//                             event has an id (1, 2, 3, ...)
//   POST /message?sessionId=S&stream=K
//                             a client message; 202. K must be the current
//                             stream's number (404 otherwise): a client
//                             that keeps POSTing to an old endpoint fails.
//   GET  /redirect            302 to /sse (within the origin)
//   GET  /redirect-away       302 to /sse on localhost (another origin)
//
// Tools: echo(message), last-event-id (the Last-Event-ID headers seen).
//
// Options:
//   --port-file F        listen on a free port of 127.0.0.1, write it to F
//   --log F              append a JSON line per request {method, url,
//                        headers} and per event {event: ...}
//   --endpoint E         what the endpoint event says (default: the
//                        relative /message?... URL; {port} and {sid} are
//                        replaced by the port and session id, {stream} by
//                        the stream's number); "none": no endpoint
//   --end-after-ms N     end every stream N ms after it starts
//   --retry N            send `retry: N` first on each stream
//   --get-status N       answer every GET /sse with status N
//   --content-type T     the GET /sse answer's Content-Type
//   --post-status N      answer every POST with status N
//   --www-authenticate V with --post-status/--get-status 401
//   --drop-after-id N    on the first stream, a tools/call of echo sends
//                        log notifications until event id N, then the
//                        stream is cut (socket destroyed); the answer waits
//                        for the next stream, after a ping the client must
//                        answer on the new endpoint
//   --after-drop S,S,..  statuses for the GETs after the drop, in turn
//                        (then 200)
//   --cert F --key F     https instead of http
//   --port N             listen on port N (default: a free one)
//   --redirect-sse U     answer every GET /sse with a 302 to U
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import crypto from 'node:crypto';

const opts = {};
for (let i = 2; i < process.argv.length; i += 2) {
  opts[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
const log = (obj) => {
  if (opts.log) fs.appendFileSync(opts.log, JSON.stringify(obj) + '\n');
};

const sessionId = crypto.randomUUID();
let nextEventId = 1;
let streamNo = 0;
let stream = null; // the current GET response
const pending = []; // messages waiting for a stream
const lastEventIds = [];
let dropArmed = opts['drop-after-id'] !== undefined;
let dropped = false;
const afterDrop = (opts['after-drop'] || '').split(',').filter(Boolean).map(Number);
let heldAnswer = null; // the echo answer held across the drop

function writeEvent(res, event, data) {
  const id = nextEventId++;
  res.write(`id: ${id}\nevent: ${event}\ndata: ${data}\n\n`);
  log({ event, id, data });
  return id;
}

function send(msg) {
  if (!stream) {
    pending.push(msg);
    return;
  }
  const id = writeEvent(stream, 'message', JSON.stringify(msg));
  if (dropArmed && heldAnswer && id >= Number(opts['drop-after-id'])) {
    dropArmed = false;
    dropped = true;
    const s = stream;
    stream = null;
    log({ event: 'drop', after: id });
    // Flushed first, then cut without a clean end of the response.
    s.write('', () => s.socket.destroy());
  }
}

function onMessage(msg) {
  if (msg.method === 'initialize') {
    const want = msg.params?.protocolVersion;
    send({
      jsonrpc: '2.0', id: msg.id,
      result: {
        protocolVersion: want || '2024-11-05',
        capabilities: { tools: {} },
        serverInfo: { name: 'legacy-sse-test', version: '1.0.0' },
      },
    });
  } else if (msg.method === 'tools/list') {
    send({
      jsonrpc: '2.0', id: msg.id,
      result: {
        tools: [
          { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
          { name: 'last-event-id', description: 'Last-Event-ID headers seen', inputSchema: { type: 'object' } },
        ],
      },
    });
  } else if (msg.method === 'tools/call') {
    const name = msg.params?.name;
    let text;
    if (name === 'echo') text = `Echo: ${msg.params?.arguments?.message}`;
    else if (name === 'last-event-id') text = `Last-Event-ID: ${lastEventIds.join(',') || '(none)'}`;
    else {
      send({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: `Unknown tool: ${name}` } });
      return;
    }
    const answer = { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text }] } };
    if (name === 'echo' && dropArmed) {
      heldAnswer = answer;
      while (dropArmed && stream) {
        send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'debug', data: 'filler before the drop' } });
      }
      return;
    }
    send(answer);
  } else if (msg.method === 'ping') {
    send({ jsonrpc: '2.0', id: msg.id, result: {} });
  } else if (msg.id === 'server-ping' && heldAnswer) {
    // The client answered our ping on the new endpoint: release the answer.
    const a = heldAnswer;
    heldAnswer = null;
    send(a);
  }
}

function openStream(req, res) {
  if (opts['get-status']) {
    const status = Number(opts['get-status']);
    const headers = { 'Content-Type': 'text/plain' };
    if (opts['www-authenticate']) headers['WWW-Authenticate'] = opts['www-authenticate'];
    res.writeHead(status, headers);
    res.end(`no stream here (${status})`);
    return;
  }
  if (dropped && afterDrop.length > 0) {
    const status = afterDrop.shift();
    res.writeHead(status, { 'Content-Type': 'text/plain' });
    res.end(`try again later (${status})`);
    return;
  }
  if (req.headers['last-event-id'] !== undefined) lastEventIds.push(req.headers['last-event-id']);
  res.writeHead(200, {
    'Content-Type': opts['content-type'] || 'text/event-stream',
    'Cache-Control': 'no-cache',
  });
  if (stream) stream.end();
  stream = res;
  streamNo++;
  res.on('close', () => {
    log({ event: 'stream-closed', stream: streamNo });
    if (stream === res) stream = null;
  });
  if (opts.retry) res.write(`retry: ${opts.retry}\n\n`);
  const endpoint = (opts.endpoint ?? `/message?sessionId=${sessionId}&stream=${streamNo}`)
    .replace('{port}', String(server.address().port)).replace('{sid}', sessionId)
    .replace('{stream}', String(streamNo));
  if (endpoint !== 'none') writeEvent(res, 'endpoint', endpoint);
  if (opts['end-after-ms']) setTimeout(() => res.end(), Number(opts['end-after-ms']));
  if (heldAnswer) {
    // Resumed after the drop: the client must answer a ping on the new
    // endpoint before it gets the answer it waits for.
    send({ jsonrpc: '2.0', id: 'server-ping', method: 'ping' });
  }
  while (pending.length > 0 && stream) send(pending.shift());
}

function handle(req, res) {
  // A proxy request has an absolute URL as its target.
  const url = new URL(req.url, 'http://placeholder');
  log({ method: req.method, url: req.url, headers: req.headers });
  if (req.method === 'GET' && url.pathname === '/sse' && opts['redirect-sse']) {
    res.writeHead(302, { Location: opts['redirect-sse'] });
    return res.end();
  }
  if (req.method === 'GET' && url.pathname === '/sse') return openStream(req, res);
  if (req.method === 'GET' && url.pathname === '/redirect') {
    res.writeHead(302, { Location: '/sse' });
    return res.end();
  }
  if (req.method === 'GET' && url.pathname === '/redirect-away') {
    const port = server.address().port;
    res.writeHead(302, { Location: `http://localhost:${port}/sse` });
    return res.end();
  }
  if (req.method === 'POST' && url.pathname === '/message') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (opts['post-status']) {
        const status = Number(opts['post-status']);
        const headers = { 'Content-Type': 'text/plain' };
        if (opts['www-authenticate']) headers['WWW-Authenticate'] = opts['www-authenticate'];
        res.writeHead(status, headers);
        return res.end(`refused (${status})`);
      }
      if (url.searchParams.get('sessionId') !== sessionId ||
          url.searchParams.get('stream') !== String(streamNo)) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return res.end('stale or unknown endpoint');
      }
      let msg;
      try {
        msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400, { 'Content-Type': 'text/plain' });
        return res.end('not JSON');
      }
      res.writeHead(202, { 'Content-Type': 'text/plain' });
      res.end('Accepted');
      onMessage(msg);
    });
    return;
  }
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('not found');
}

const server = opts.cert
  ? https.createServer({ cert: fs.readFileSync(opts.cert), key: fs.readFileSync(opts.key) }, handle)
  : http.createServer(handle);
server.listen(Number(opts.port || 0), '127.0.0.1', () => {
  if (opts['port-file']) fs.writeFileSync(opts['port-file'], String(server.address().port));
});
