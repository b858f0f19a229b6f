// A loopback fake of the two Anthropic endpoints the claude.ai connectors
// use (plugins/claudeai), on node's own http module:
//
//   GET  /v1/mcp_servers?limit=1000   the listing: answers the connectors
//        of --connectors FILE ({"data": [...]}) when the request carries
//        "Authorization: Bearer <--token>", "Content-Type:
//        application/json", "anthropic-beta: mcp-servers-2025-12-04" and
//        "anthropic-version: 2023-06-01"; otherwise HTTP 400 naming the
//        header at fault.
//   POST /v1/mcp/<id>                 the proxy: a streamable-HTTP MCP
//        server per connector (tools "whoami" and "headers"; resources
//        and prompts, empty), requiring "X-Mcp-Client-Session-Id" and a
//        valid token (else HTTP 401 with a Bearer challenge).
//
// --mode chooses how the proxy treats tokens after initialize:
//   ok              the --token is valid throughout;
//   revoked         every request after initialize gets 401, the file
//                   untouched (the token is stale for good);
//   revoked-init    so does initialize;
//   rotate          the first request after initialize makes the fake
//                   write a new token into --creds (as Claude Code would
//                   after a refresh) and answers 401; from then on only the
//                   new token is valid;
//   rotate-always   every request after initialize writes a new token
//                   into --creds and gets 401 (a retry must not loop);
//   expire-once     the first tools/call gets HTTP 404: its session is
//                   gone (the client initializes again and resends);
//   slow-list       the listing never answers.
// --log FILE gets a JSON line per request: {"kind": "list"|"rpc", "method",
// "id", "status", "token": "initial"|"rotated-N"|"other"|"none"}.
// Listens on 127.0.0.1, a free port; prints "listening on PORT".
import fs from 'node:fs';
import http from 'node:http';

const args = process.argv.slice(2);
const opt = (name, dflt = null) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const mode = opt('mode', 'ok');
const initial = opt('token');
const credsFile = opt('creds');
const logFile = opt('log');
const connectors = opt('connectors');

let valid = new Set([initial]);
const names = new Map([[initial, 'initial']]);
let rotations = 0;
let expired = false;
const sessions = new Set();

function log(entry) {
  if (logFile) fs.appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
}

function bearerOf(req) {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  return m ? m[1] : null;
}

function tokenName(tok) {
  if (tok === null) return 'none';
  return names.get(tok) ?? 'other';
}

function rotate() {
  rotations++;
  const tok = `${initial}-rotated-${rotations}`;
  names.set(tok, `rotated-${rotations}`);
  const doc = JSON.parse(fs.readFileSync(credsFile, 'utf8'));
  doc.claudeAiOauth.accessToken = tok;
  const tmp = `${credsFile}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(doc), { mode: 0o600 });
  fs.renameSync(tmp, credsFile);
  return tok;
}

function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function listing(req, res) {
  const want = {
    authorization: `Bearer ${initial}`,
    'content-type': 'application/json',
    'anthropic-beta': 'mcp-servers-2025-12-04',
    'anthropic-version': '2023-06-01',
  };
  const tok = bearerOf(req);
  if (mode === 'slow-list') {
    log({ kind: 'list', status: 'held', token: tokenName(tok) });
    return; // never answered
  }
  for (const [k, v] of Object.entries(want)) {
    if (req.headers[k] !== v) {
      log({ kind: 'list', status: 400, token: tokenName(tok), bad: k });
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: `bad header ${k}` } });
    }
  }
  if (req.url !== '/v1/mcp_servers?limit=1000') {
    log({ kind: 'list', status: 404, token: tokenName(tok), bad: req.url });
    return sendJson(res, 404, { type: 'error' });
  }
  log({ kind: 'list', status: 200, token: tokenName(tok) });
  const data = JSON.parse(fs.readFileSync(connectors, 'utf8'));
  sendJson(res, 200, { data, has_more: false, next_page: null });
}

const text = (id, t) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: t }] } });

function answer(req, res, msg, connector) {
  const id = msg.id;
  switch (msg.method) {
    case 'initialize': {
      const sid = `s${sessions.size + 1}`;
      sessions.add(sid);
      return sendJson(res, 200, {
        jsonrpc: '2.0', id,
        result: {
          protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: `fake-${connector}`, version: '1.0' },
        },
      }, { 'Mcp-Session-Id': sid });
    }
    case 'tools/list':
      return sendJson(res, 200, { jsonrpc: '2.0', id, result: { tools: [
        { name: 'whoami', description: 'the connector and the session header', inputSchema: { type: 'object', properties: {} } },
      ] } });
    case 'resources/list':
      return sendJson(res, 200, { jsonrpc: '2.0', id, result: { resources: [] } });
    case 'prompts/list':
      return sendJson(res, 200, { jsonrpc: '2.0', id, result: { prompts: [] } });
    case 'tools/call':
      if (mode === 'expire-once' && !expired) {
        expired = true;
        sessions.delete(req.headers['mcp-session-id']);
        return sendJson(res, 404, { jsonrpc: '2.0', id, error: { code: -32001, message: 'Session not found' } });
      }
      return sendJson(res, 200, text(id, JSON.stringify({
        connector, session: req.headers['x-mcp-client-session-id'],
      })));
    default:
      return sendJson(res, 200, { jsonrpc: '2.0', id, error: { code: -32601, message: 'no such method' } });
  }
}

function proxy(req, res, connector) {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    if (req.method === 'GET') return sendJson(res, 405, { error: 'no stream' });
    if (req.method === 'DELETE') return sendJson(res, 200, {});
    let msg;
    try { msg = JSON.parse(body); } catch { return sendJson(res, 400, { error: 'not JSON' }); }
    const tok = bearerOf(req);
    const entry = { kind: 'rpc', connector, method: msg.method ?? null, id: msg.id ?? null, token: tokenName(tok) };
    if (!/^[0-9a-f-]{36}$/.test(req.headers['x-mcp-client-session-id'] ?? '')) {
      log({ ...entry, status: 400 });
      return sendJson(res, 400, { error: 'no X-Mcp-Client-Session-Id' });
    }
    const challenge = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
    const later = mode === 'revoked-init' ||
      (msg.method !== 'initialize' && msg.method !== 'notifications/initialized');
    if (later && msg.id !== undefined) {
      if (mode === 'revoked' || mode === 'revoked-init' || mode === 'rotate-always') {
        if (mode === 'rotate-always') valid = new Set([rotate()]);
        log({ ...entry, status: 401 });
        return sendJson(res, 401, { error: 'invalid_token' }, challenge);
      }
      if (mode === 'rotate' && rotations === 0 && valid.has(tok)) {
        valid = new Set([rotate()]);
      }
    }
    if (!valid.has(tok)) {
      log({ ...entry, status: 401 });
      return sendJson(res, 401, { error: 'invalid_token' }, challenge);
    }
    log({ ...entry, status: 200 });
    if (msg.id === undefined) { res.writeHead(202); return res.end(); }
    answer(req, res, msg, connector);
  });
}

const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (req.method === 'GET' && u.pathname === '/v1/mcp_servers') return listing(req, res);
  const m = /^\/v1\/mcp\/([^/]+)$/.exec(u.pathname);
  if (m) return proxy(req, res, decodeURIComponent(m[1]));
  sendJson(res, 404, { error: `no ${u.pathname}` });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on ${server.address().port}`);
});
