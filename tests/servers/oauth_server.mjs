// A loopback OAuth 2.1 authorization server and the MCP server it
// protects, for the OAuth plugin's tests (node's http module and the npm
// `ws` package of tests/interop). The one resource answers initialize,
// tools/list and tools/call "whoami" (the token's scope) over streamable
// HTTP (POST /mcp), the legacy HTTP+SSE transport (GET /sse: an
// `endpoint` event naming POST /message?sessionId=N) and WebSocket (an
// upgrade on /ws, subprotocol mcp) when the bearer token is valid, else
// 401 with resource_metadata (the upgrade is refused so). The AS: metadata, DCR, /authorize (approves at once:
// 302 to the redirect URI), /token (authorization_code, refresh_token with
// rotation: a used refresh token is dead), /revoke, and /stats (counts; unauthorized: the 401s given, and
// mcp_requests, sse_requests, ws_requests per transport).
//
// Usage: node oauth_server.mjs [--expires-in S] [--as-elsewhere]
//   [--issuer-mismatch] [--slow-metadata MS] [--wrong-state] [--wrong-iss]
//   [--kill-refresh] [--invalid-client-once] [--protocol-version V]
//   [--refuse-after-initialize] [--iss MODE] [--iss-advertised]
//   [--resource-mismatch] [--offline-access] [--migrate-as]
//   [--refresh-fail N] [--log FILE] [--auth-methods A,B]
// --as-elsewhere: the AS on a second port (another origin) that the PRM
// names; --issuer-mismatch: its metadata's issuer is another one;
// --slow-metadata: the AS metadata answers after MS; --wrong-state and
// --wrong-iss: the redirect carries another state, or an iss not the
// AS's; --kill-refresh: every refresh token is refused (invalid_grant);
// --protocol-version: initialize answers V (else the client's);
// --refuse-after-initialize: the first request after an initialize that
// carries a token is refused with 401 and the token revoked (a 401 once
// the session negotiated its version). /stats also lists the
// MCP-Protocol-Version of every discovery GET (discovery_versions).
// --iss correct|omit|wrong|normalized: the redirect's iss is the
// issuer, absent, another one, or the issuer with a '/' added
// (--wrong-iss is --iss wrong); --iss-advertised: the metadata says
// authorization_response_iss_parameter_supported; --resource-mismatch:
// the PRM's resource is another server's; --offline-access: the AS lists
// offline_access in scopes_supported (stats.last_scope: the scope of the
// last authorization request); --migrate-as: after the first request
// that a token served, the PRM names a second AS (another port) and
// tokens of the first are refused; the second's client ids start with
// "as2-" (stats.as2_registrations, and stats.as2_foreign_client: the
// requests at the second AS that carried another client id).
// --refresh-fail N: the first N refresh requests are answered 503 (a
// passing failure; -1: every one). stats.refreshes counts every refresh
// request, stats.registered_redirects the redirect_uris of the last
// registration, stats.last_redirect the redirect_uri of the last
// authorization request.
// grant_type jwt-bearer (cross-app access): an ID-JAG whose aud is the AS
// and resource the server gets a token (stats.jwt_bearer).
// --log: every request line and body appended to FILE (for the redaction
// check: it holds the secrets, the client's output must not).
// --auth-methods A,B: the metadata's token_endpoint_auth_methods_supported
// (default none).
// Prints "listening on PORT".
import http from 'node:http';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { WebSocketServer } = require('../interop/node_modules/ws');
const wss = new WebSocketServer({
  noServer: true,
  handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
});

const arg = (n) => process.argv.includes(n);
const val = (n, d) => {
  const i = process.argv.indexOf(n);
  return i > 0 ? process.argv[i + 1] : d;
};
const expiresIn = Number(val('--expires-in', '3600'));
const slow = Number(val('--slow-metadata', '0'));
const refreshFail = Number(val('--refresh-fail', '0'));
const logFile = val('--log', null);
const stats = { authorizations: 0, refreshes: 0, codes: 0, registrations: 0,
                revocations: 0, unauthorized: 0, discovery_versions: [] };
const tokens = new Map();   // access token -> scope
const refresh = new Map();  // refresh token -> scope
const codes = new Map();    // code -> {challenge, redirect, scope}
let mcpOrigin = '', as1Origin = '', as2Origin = '';
let migrated = false;
const tokenAs = new Map(); // access token -> the AS that issued it
const issMode = val('--iss', arg('--wrong-iss') ? 'wrong' : 'omit');

const rand = () => crypto.randomBytes(12).toString('hex');
const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const issue = (res, scope, asName = 'as1') => {
  const at = 'at-' + rand(), rt = 'rt-' + rand();
  tokens.set(at, scope);
  tokenAs.set(at, asName);
  refresh.set(rt, scope);
  json(res, 200, { access_token: at, token_type: 'Bearer',
                   expires_in: expiresIn, refresh_token: rt, scope });
};

// The authorization server `asName` ("as1", or "as2" of --migrate-as)
// at `asOrigin`.
function asHandler(req, res, body, asName, asOrigin) {
  const u = new URL(req.url, asOrigin);
  const p2 = asName === 'as2';
  if (p2 && ['/authorize', '/token'].includes(u.pathname)) {
    const cid = u.searchParams.get('client_id') ||
      new URLSearchParams(body).get('client_id') || '';
    if (!cid.startsWith('as2-'))
      stats.as2_foreign_client = (stats.as2_foreign_client || 0) + 1;
  }
  if (u.pathname.startsWith('/.well-known/'))
    stats.discovery_versions.push(req.headers['mcp-protocol-version'] || '');
  if (u.pathname === '/.well-known/oauth-authorization-server') {
    const meta = {
      issuer: arg('--issuer-mismatch') ? 'http://127.0.0.1:1/other' : asOrigin,
      authorization_endpoint: asOrigin + '/authorize',
      token_endpoint: asOrigin + '/token',
      registration_endpoint: asOrigin + '/register',
      revocation_endpoint: asOrigin + '/revoke',
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported:
        val('--auth-methods', 'none').split(','),
      scopes_supported: arg('--offline-access') ? ['mcp:read', 'offline_access']
                                                : ['mcp:read'],
      ...(arg('--iss-advertised') &&
          { authorization_response_iss_parameter_supported: true }),
    };
    setTimeout(() => json(res, 200, meta), slow);
    return true;
  }
  if (u.pathname === '/register' && req.method === 'POST') {
    stats.registrations++;
    stats.registered_redirects = JSON.parse(body || '{}').redirect_uris;
    if (p2) stats.as2_registrations = (stats.as2_registrations || 0) + 1;
    return json(res, 201, { client_id: (p2 ? 'as2-client-' : 'client-') + rand(),
                            ...JSON.parse(body || '{}') }), true;
  }
  if (u.pathname === '/authorize') {
    stats.authorizations++;
    const q = u.searchParams, code = 'code-' + rand();
    stats.last_scope = q.get('scope') || '';
    stats.last_redirect = q.get('redirect_uri');
    codes.set(code, { challenge: q.get('code_challenge'),
                      redirect: q.get('redirect_uri'),
                      scope: q.get('scope') || 'mcp:read' });
    const to = new URL(q.get('redirect_uri'));
    to.searchParams.set('code', code);
    to.searchParams.set('state', arg('--wrong-state') ? 'forged' : q.get('state'));
    const iss = { correct: asOrigin, wrong: 'http://evil.example',
                  normalized: asOrigin + '/' }[issMode];
    if (iss) to.searchParams.set('iss', iss);
    res.writeHead(302, { Location: to.toString() });
    res.end();
    return true;
  }
  if (u.pathname === '/token' && req.method === 'POST') {
    const p = new URLSearchParams(body);
    if (p.get('grant_type') === 'authorization_code') {
      const c = codes.get(p.get('code'));
      codes.delete(p.get('code'));
      if (arg('--invalid-client-once') && !stats.refusedClient) {
        stats.refusedClient = true;
        return json(res, 401, { error: 'invalid_client' }), true;
      }
      const s256 = crypto.createHash('sha256')
        .update(p.get('code_verifier') || '').digest('base64url');
      if (!c || c.challenge !== s256 || c.redirect !== p.get('redirect_uri'))
        return json(res, 400, { error: 'invalid_grant' }), true;
      stats.codes++;
      return issue(res, c.scope, asName), true;
    }
    if (p.get('grant_type') === 'refresh_token') {
      stats.refreshes++;
      if (refreshFail < 0 || stats.refreshes <= refreshFail)
        return json(res, 503, { error: 'temporarily_unavailable' }), true;
      const rt = p.get('refresh_token'), scope = refresh.get(rt);
      refresh.delete(rt); // rotation: a refresh token works once
      if (!scope || arg('--kill-refresh'))
        return json(res, 400, { error: 'invalid_grant',
                                error_description: 'refresh token ' + rt +
                                                   ' is dead' }), true;
      return issue(res, scope, asName), true;
    }
    if (p.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      // Cross-app access: an ID-JAG (oidc_idp.mjs's) for this AS and this
      // server's resource. Its signature is the IdP's business here.
      let c = null;
      try {
        c = JSON.parse(Buffer.from((p.get('assertion') || '').split('.')[1],
                                   'base64url').toString());
      } catch { c = null; }
      if (!c || c.aud !== asOrigin || c.resource !== mcpOrigin + '/mcp' ||
          c.client_id !== p.get('client_id'))
        return json(res, 400, { error: 'invalid_grant' }), true;
      stats.jwt_bearer = (stats.jwt_bearer || 0) + 1;
      return issue(res, 'mcp:read', asName), true;
    }
    return json(res, 400, { error: 'unsupported_grant_type' }), true;
  }
  if (u.pathname === '/revoke' && req.method === 'POST') {
    const t = new URLSearchParams(body).get('token');
    stats.revocations++;
    refresh.delete(t);
    tokens.delete(t);
    res.writeHead(200);
    res.end();
    return true;
  }
  return false;
}

// The answer to one JSON-RPC message from a client holding `token`, or
// null for a notification: the same resource over every transport.
function answer(m, token) {
  if (m.id === undefined) return null;
  let result = {};
  if (m.method === 'initialize') {
    result = { protocolVersion: val('--protocol-version',
                                    m.params.protocolVersion),
               capabilities: { tools: {} },
               serverInfo: { name: 'oauth-test', version: '1.0.0' } };
  } else if (m.method === 'tools/list') {
    result = { tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] };
  } else if (m.method === 'tools/call') {
    result = { content: [{ type: 'text',
                           text: 'scope ' + tokens.get(token) }] };
  }
  return { jsonrpc: '2.0', id: m.id, result };
}

// The bearer token of a request if the AS issued it, else null.
const bearer = (req) => {
  const auth = req.headers.authorization || '';
  const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
  return token && tokens.has(token) ? token : null;
};
// The challenge for the resource at PATH (/mcp, /sse or /ws).
const challenge = (path) =>
  `Bearer error="invalid_token", resource_metadata="${mcpOrigin}` +
  `/.well-known/oauth-protected-resource${path}"`;

const sseStreams = new Map(); // session id -> the GET /sse response
let nextSession = 1;

function mcpHandler(req, res, body) {
  const u = new URL(req.url, mcpOrigin);
  if (u.pathname === '/stats') return json(res, 200, stats), true;
  if (u.pathname.startsWith('/.well-known/oauth-protected-resource'))
    stats.discovery_versions.push(req.headers['mcp-protocol-version'] || '');
  if (u.pathname.startsWith('/.well-known/oauth-protected-resource')) {
    const path = u.pathname.slice('/.well-known/oauth-protected-resource'.length);
    // A ws resource is named by its ws:// URL (same origin as the server's).
    const resource = path === '/ws' ? mcpOrigin.replace(/^http/, 'ws') + '/ws'
                                    : mcpOrigin + (path || '/mcp');
    return json(res, 200, { resource: arg('--resource-mismatch')
                              ? 'http://127.0.0.1:1/elsewhere' : resource,
                            authorization_servers: [migrated ? as2Origin : as1Origin],
                            scopes_supported: ['mcp:read'] }), true;
  }
  const path = u.pathname === '/message' ? '/sse' : u.pathname;
  if (path !== '/mcp' && path !== '/sse') return false;
  stats[path.slice(1) + '_requests'] = (stats[path.slice(1) + '_requests'] || 0) + 1;
  let token = bearer(req);
  if (token && arg('--migrate-as')) {
    if (!migrated) {
      const m = JSON.parse(body || '{}');
      // served once: the next request needs the second AS's token
      if (m.id !== undefined && m.method && m.method !== 'initialize')
        migrated = true;
    } else if (tokenAs.get(token) !== 'as2') {
      token = null; // the first AS's tokens are no good any more
    }
  }
  if (token && arg('--refuse-after-initialize') && !stats.refusedAfterInit) {
    const m = JSON.parse(body || '{}');
    // Only once a session has negotiated: a request before any
    // initialize (a server/discover probe) is served.
    if (m.method === 'initialize') {
      stats.initialized = true;
    } else if (stats.initialized && m.id !== undefined && m.method) {
      stats.refusedAfterInit = true;
      tokens.delete(token);
      token = null;
    }
  }
  if (!token) {
    stats.unauthorized++;
    res.writeHead(401, { 'WWW-Authenticate': challenge(path) });
    res.end();
    return true;
  }
  if (u.pathname === '/sse' && req.method === 'GET') {
    // The legacy HTTP+SSE transport: the stream names the POST endpoint.
    const sid = String(nextSession++);
    sseStreams.set(sid, res);
    res.writeHead(200, { 'Content-Type': 'text/event-stream',
                         'Cache-Control': 'no-cache' });
    res.write(`event: endpoint\ndata: /message?sessionId=${sid}\n\n`);
    res.on('close', () => sseStreams.delete(sid));
    return true;
  }
  if (u.pathname === '/message' && req.method === 'POST') {
    const stream = sseStreams.get(u.searchParams.get('sessionId'));
    if (!stream) {
      res.writeHead(404);
      res.end();
      return true;
    }
    res.writeHead(202);
    res.end();
    const a = answer(JSON.parse(body), token);
    if (a) stream.write(`event: message\ndata: ${JSON.stringify(a)}\n\n`);
    return true;
  }
  if (u.pathname !== '/mcp' || req.method !== 'POST') {
    res.writeHead(405);
    res.end();
    return true;
  }
  const a = answer(JSON.parse(body), token);
  if (!a) {
    res.writeHead(202);
    res.end();
    return true;
  }
  json(res, 200, a);
  return true;
}

// WebSocket on /ws (subprotocol mcp): the upgrade is refused with 401 and
// the challenge unless the bearer token is valid.
function wsUpgrade(req, socket, head) {
  const u = new URL(req.url, mcpOrigin);
  if (logFile) {
    fs.appendFileSync(logFile, `UPGRADE ${req.url} ` +
      `${req.headers.authorization || ''}\n`);
  }
  if (u.pathname !== '/ws') {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  stats.ws_requests = (stats.ws_requests || 0) + 1;
  const token = bearer(req);
  if (!token) {
    stats.unauthorized++;
    socket.end('HTTP/1.1 401 Unauthorized\r\n' +
               `WWW-Authenticate: ${challenge('/ws')}\r\n` +
               'Content-Length: 0\r\nConnection: close\r\n\r\n');
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data) => {
      const a = answer(JSON.parse(String(data)), token);
      if (a) ws.send(JSON.stringify(a));
    });
  });
}

function serve(handlers) {
  return http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      if (logFile) {
        fs.appendFileSync(logFile, `${req.method} ${req.url} ` +
          `${req.headers.authorization || ''} ${body}\n`);
      }
      for (const h of handlers) if (h(req, res, body)) return;
      res.writeHead(404);
      res.end();
    });
  });
}

const as1 = (req, res, body) => asHandler(req, res, body, 'as1', as1Origin);
const as2 = (req, res, body) => asHandler(req, res, body, 'as2', as2Origin);
const main = serve(arg('--as-elsewhere') ? [mcpHandler] : [mcpHandler, as1]);
main.on('upgrade', wsUpgrade);
main.listen(0, '127.0.0.1', () => {
  mcpOrigin = `http://127.0.0.1:${main.address().port}`;
  const done = () => console.log(`listening on ${main.address().port}`);
  const second = () => {
    if (!arg('--migrate-as')) return done();
    const s2 = serve([as2]);
    s2.listen(0, '127.0.0.1', () => {
      as2Origin = `http://127.0.0.1:${s2.address().port}`;
      done();
    });
  };
  if (!arg('--as-elsewhere')) {
    as1Origin = mcpOrigin;
    return second();
  }
  const as = serve([as1]);
  as.listen(0, '127.0.0.1', () => {
    as1Origin = `http://127.0.0.1:${as.address().port}`;
    second();
  });
});
