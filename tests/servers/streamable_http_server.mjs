// A small streamable-HTTP MCP server for the http transport's tests, on
// node's own http/https modules (no npm dependencies). Each tool exercises
// one transport behaviour, including ways of misbehaving:
//
//   echo_headers       the request's headers, as JSON text
//   drop_and_resume    SSE reply: "id: e1 / retry: 200 / data:" then the
//                      stream closes unanswered; the result comes on the GET
//                      that sends Last-Event-ID: e1 (the text says what the
//                      server saw and how long the client waited)
//   drop_long_retry    drop_and_resume with "retry: 120000" (2 minutes)
//   get_roundtrip      sends roots/list on the standalone GET stream, waits
//                      for the answer (POSTed), then answers the call
//   sse_reply          SSE reply: priming event, an event of another type, a
//                      log notification, then the result
//   batch_reply        a JSON array: a notification and the result
//   expire_session     the first call forgets the session (HTTP 404); the
//                      call resent on a new session succeeds
//   http_error         HTTP 500 with a text body
//   odd_error          HTTP 502 with a UTF-8 reason phrase ("Café") and a
//                      body holding ESC, a tab and a newline
//   unauthorized       HTTP 401 with a WWW-Authenticate challenge
//   big_result         a result of `size` bytes of text, as JSON or (with
//                      `sse: true`) as an event stream
//   hang               never answers
//   close_get          ends the standalone GET stream (id g1, retry 100) and
//                      answers once the client opened it again
//   drop_forever       like drop_and_resume, but every GET resuming it gets
//                      HTTP 503 (the text of the failure counts them)
//
// Usage: node streamable_http_server.mjs [--tls CERT KEY] [--bearer TOKEN]
//                                        [--get-status N]
// With --bearer, every request without "Authorization: Bearer TOKEN" gets
// HTTP 401 with a Bearer challenge (error="invalid_token" when a token was
// sent, and the resource metadata URL). With --get-status, every GET (the
// standalone event stream) is answered with status N and, for 401 and
// 403, a Bearer challenge with error="insufficient_scope".
// Listens on 127.0.0.1, a free port; prints "listening on PORT".
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const args = process.argv.slice(2);
const tls = args[0] === '--tls' ? { cert: fs.readFileSync(args[1]), key: fs.readFileSync(args[2]) } : null;
const bearerAt = args.indexOf('--bearer');
const bearer = bearerAt >= 0 ? args[bearerAt + 1] : null;
const getStatusAt = args.indexOf('--get-status');
const getStatus = getStatusAt >= 0 ? Number(args[getStatusAt + 1]) : 0;

const sessions = new Map(); // id -> { get: res|null, pending: Map<id, fn> }
let sessionCount = 0;
let expiredOnce = false;
const drops = new Map(); // last event id -> { callId, closedAt, session }
let failedResumes = 0; // GETs refused for drop_forever

const tools = [
  'echo_headers', 'drop_and_resume', 'get_roundtrip', 'sse_reply', 'batch_reply',
  'expire_session', 'http_error', 'odd_error', 'unauthorized', 'big_result', 'hang',
  'close_get', 'drop_forever', 'drop_long_retry',
].map((name) => ({ name, description: `test tool ${name}`, inputSchema: { type: 'object', properties: {} } }));

const text = (id, t) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });

function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function startSse(res, headers = {}) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', ...headers });
  res.flushHeaders();
}

const event = (obj, id) => `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(obj)}\n\n`;

function handleGet(req, res, session) {
  const last = req.headers['last-event-id'];
  if (last === 'f1') {
    failedResumes++;
    return sendJson(res, 503, { error: `resume attempt ${failedResumes} refused` });
  }
  if (last && drops.has(last)) {
    const drop = drops.get(last);
    if (!drop) return sendJson(res, 404, { error: `unknown event id ${last}` });
    drops.delete(last);
    const waited = Date.now() - drop.closedAt;
    startSse(res);
    res.write(event(text(drop.callId, `resumed with Last-Event-ID ${last} after ${waited} ms`), 'e2'));
    return; // kept open, as a real server would
  }
  startSse(res);
  res.write(': standalone stream\n\n');
  session.get = res;
  if (session.onGet) session.onGet(last ?? '(none)');
  res.on('close', () => { if (session.get === res) session.get = null; });
}

function callTool(req, res, msg, sid, session) {
  const name = msg.params?.name;
  const id = msg.id;
  switch (name) {
    case 'echo_headers': {
      const h = { ...req.headers };
      delete h.host;
      delete h['content-length'];
      return sendJson(res, 200, text(id, JSON.stringify(h)));
    }
    case 'drop_and_resume':
      startSse(res);
      res.write('id: e1\nretry: 200\ndata: \n\n');
      setTimeout(() => {
        drops.set('e1', { callId: id, closedAt: Date.now(), session: sid });
        res.end();
      }, 20);
      return;
    case 'get_roundtrip': {
      if (!session.get) return sendJson(res, 200, { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'no standalone GET stream was open' }] } });
      const rid = `srv-${Date.now()}`;
      const timer = setTimeout(() => {
        session.pending.delete(rid);
        sendJson(res, 200, { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'roots/list was not answered' }] } });
      }, 5000);
      session.pending.set(rid, (answer) => {
        clearTimeout(timer);
        const roots = (answer.result?.roots ?? []).map((r) => r.uri).join(' ');
        sendJson(res, 200, text(id, `roots via the GET stream: ${roots}`));
      });
      session.get.write(event({ jsonrpc: '2.0', id: rid, method: 'roots/list' }));
      return;
    }
    case 'sse_reply':
      startSse(res);
      res.write('id: p0\nretry: 3000\ndata:\n\n');
      res.write('event: other\ndata: {"jsonrpc":"2.0","id":' + JSON.stringify(id) + ',"result":{"content":[{"type":"text","text":"WRONG: an event of another type was delivered"}]}}\n\n');
      res.write(event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'from the POST stream' } }, 'p1'));
      res.write(`event: message\n${event(text(id, 'sse ok'), 'p2')}`);
      res.end();
      return;
    case 'batch_reply':
      return sendJson(res, 200, [
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'batched' } },
        text(id, 'batch ok'),
      ]);
    case 'expire_session':
      if (!expiredOnce) {
        expiredOnce = true;
        sessions.delete(sid);
        return sendJson(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
      }
      return sendJson(res, 200, text(id, `answered on ${sid} after the session expired`));
    case 'http_error':
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      return res.end('boom: the tool broke\n');
    case 'odd_error':
      // A latin1 string: these are the UTF-8 bytes of "é".
      res.writeHead(502, 'Caf\u00c3\u00a9', { 'Content-Type': 'text/plain' });
      return res.end('boom\x1b[2J\ttab\nline 2\n');
    case 'unauthorized':
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource", scope="mcp:read"' });
      return res.end();
    case 'hang':
      return;
    case 'close_get': {
      if (!session.get) return sendJson(res, 200, { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'no standalone GET stream was open' }] } });
      const timer = setTimeout(() => {
        session.onGet = null;
        sendJson(res, 200, { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'the standalone stream was not reopened' }] } });
      }, 5000);
      session.onGet = (lastId) => {
        clearTimeout(timer);
        session.onGet = null;
        sendJson(res, 200, text(id, `standalone stream reopened with Last-Event-ID ${lastId}`));
      };
      const old = session.get;
      old.write('id: g1\nretry: 100\ndata: \n\n');
      old.end();
      return;
    }
    case 'drop_long_retry':
      startSse(res);
      res.write('id: e2\nretry: 120000\ndata: \n\n');
      setTimeout(() => res.end(), 20);
      return;
    case 'drop_forever':
      startSse(res);
      res.write('id: f1\nretry: 50\ndata: \n\n');
      setTimeout(() => res.end(), 20);
      return;
    case 'big_result': {
      const big = text(id, 'x'.repeat(msg.params?.arguments?.size ?? 100000));
      if (!msg.params?.arguments?.sse) return sendJson(res, 200, big);
      startSse(res);
      res.write(event(big, 'b1'));
      res.end();
      return;
    }
    default:
      return sendJson(res, 200, { jsonrpc: '2.0', id, error: { code: -32602, message: `unknown tool ${name}` } });
  }
}

function handlePost(req, res, body) {
  let msg;
  try {
    msg = JSON.parse(body);
  } catch {
    return sendJson(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (msg.method === 'initialize') {
    const sid = `s-${++sessionCount}`;
    sessions.set(sid, { get: null, pending: new Map() });
    return sendJson(res, 200, {
      jsonrpc: '2.0', id: msg.id,
      result: { protocolVersion: msg.params?.protocolVersion ?? '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'mcphost-http-test', version: '1.0.0' } },
    }, { 'Mcp-Session-Id': sid });
  }
  const sid = req.headers['mcp-session-id'];
  const session = sessions.get(sid);
  if (!session) return sendJson(res, sid ? 404 : 400, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
  if (msg.id === undefined) { res.writeHead(202); return res.end(); }
  if (!msg.method) {
    const fn = session.pending.get(msg.id);
    session.pending.delete(msg.id);
    if (fn) fn(msg);
    res.writeHead(202);
    return res.end();
  }
  if (msg.method === 'tools/list') return sendJson(res, 200, { jsonrpc: '2.0', id: msg.id, result: { tools } });
  if (msg.method === 'tools/call') return callTool(req, res, msg, sid, session);
  if (msg.method === 'ping') return sendJson(res, 200, { jsonrpc: '2.0', id: msg.id, result: {} });
  return sendJson(res, 200, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `no method ${msg.method}` } });
}

function handler(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const sid = req.headers['mcp-session-id'];
    if (bearer && req.headers.authorization !== `Bearer ${bearer}`) {
      const port = server.address().port;
      const error = req.headers.authorization ? ', error="invalid_token", error_description="the token is not valid"' : '';
      res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="test"${error}, resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource"` });
      return res.end();
    }
    if (req.method === 'POST') return handlePost(req, res, Buffer.concat(chunks).toString('utf8'));
    if (req.method === 'DELETE') {
      sessions.delete(sid);
      res.writeHead(200);
      return res.end();
    }
    if (req.method === 'GET' && getStatus) {
      const port = server.address().port;
      const headers = getStatus === 401 || getStatus === 403
        ? { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="mcp:stream", resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource"` }
        : {};
      res.writeHead(getStatus, headers);
      return res.end();
    }
    if (req.method === 'GET') {
      const session = sessions.get(sid);
      if (!session) return sendJson(res, sid ? 404 : 400, { error: 'no session' });
      return handleGet(req, res, session);
    }
    res.writeHead(405);
    res.end();
  });
}

const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
