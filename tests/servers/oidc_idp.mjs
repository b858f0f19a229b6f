// A small OpenID Connect identity provider on 127.0.0.1 for the cross-app
// access tests (SEP-990): discovery (/.well-known/openid-configuration),
// /authorize (approves at once: a 302 to the redirect URI with the code
// and the state; a request without PKCE S256, without the openid scope or
// from another client is refused), /token (authorization_code with the
// PKCE check, refresh_token with rotation, each giving an id_token (a
// JWT, HS256 with a key of its own) and a refresh_token; the RFC 8693
// token exchange of an unexpired id_token of its own for an ID-JAG),
// /revoke, /forget (every id_token issued so far is refused from now on,
// as after a revocation at the IdP), and /stats (counts: authorizations,
// codes, refreshes, exchanges, refused, revocations).
// Usage: node oidc_idp.mjs [--client-id ID] [--id-token-expires-in S]
//   [--no-offline-access]
// Prints "listening on PORT".
import http from 'node:http';
import crypto from 'node:crypto';

const arg = (n) => process.argv.includes(n);
const val = (n, d) => {
  const i = process.argv.indexOf(n);
  return i > 0 ? process.argv[i + 1] : d;
};
const clientId = val('--client-id', 'idp-client');
const idLife = Number(val('--id-token-expires-in', '3600'));
const key = crypto.randomBytes(32);
const stats = { authorizations: 0, codes: 0, refreshes: 0, exchanges: 0,
                refused: 0, revocations: 0, last_scope: '' };
const codes = new Map();   // code -> {challenge, redirect, scope}
const refresh = new Set(); // live refresh tokens
let origin = '';
let seq = 0, minSeq = 0; // id_token numbers; those below minSeq are refused

const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const sign = (s) => crypto.createHmac('sha256', key).update(s).digest('base64url');
const jwt = (claims, typ = 'JWT') => {
  const s = b64({ alg: 'HS256', typ }) + '.' + b64(claims);
  return s + '.' + sign(s);
};
// The claims of a JWT of ours, or null.
const verify = (t) => {
  const [h, c, sig] = (t || '').split('.');
  if (!sig || sign(h + '.' + c) !== sig) return null;
  return JSON.parse(Buffer.from(c, 'base64url').toString());
};
const now = () => Math.floor(Date.now() / 1000);
const json = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};
const tokens = (res, scope) => {
  const rt = 'idp-rt-' + crypto.randomBytes(12).toString('hex');
  if (scope.split(' ').includes('offline_access')) refresh.add(rt);
  json(res, 200, {
    access_token: 'idp-at-' + crypto.randomBytes(12).toString('hex'),
    token_type: 'Bearer', expires_in: 3600, scope,
    id_token: jwt({ iss: origin, sub: 'alice', aud: clientId, seq: seq++,
                    iat: now(), exp: now() + idLife }),
    ...(refresh.has(rt) && { refresh_token: rt }),
  });
};

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    const u = new URL(req.url, origin);
    if (u.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: origin + '/authorize',
        token_endpoint: origin + '/token',
        revocation_endpoint: origin + '/revoke',
        jwks_uri: origin + '/jwks',
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['HS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        grant_types_supported: ['authorization_code', 'refresh_token',
          'urn:ietf:params:oauth:grant-type:token-exchange'],
        scopes_supported: arg('--no-offline-access') ? ['openid']
                                                     : ['openid', 'offline_access'],
      });
    }
    if (u.pathname === '/stats') return json(res, 200, stats);
    if (u.pathname === '/forget' && req.method === 'POST') {
      minSeq = seq;
      return json(res, 200, {});
    }
    if (u.pathname === '/authorize') {
      stats.authorizations++;
      const q = u.searchParams, scope = q.get('scope') || '';
      stats.last_scope = scope;
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' ||
          q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') ||
          !scope.split(' ').includes('openid')) {
        stats.refused++;
        return json(res, 400, { error: 'invalid_request' });
      }
      const code = 'idp-code-' + crypto.randomBytes(12).toString('hex');
      codes.set(code, { challenge: q.get('code_challenge'),
                        redirect: q.get('redirect_uri'), scope });
      const to = new URL(q.get('redirect_uri'));
      to.searchParams.set('code', code);
      to.searchParams.set('state', q.get('state'));
      res.writeHead(302, { Location: to.toString() });
      return res.end();
    }
    if (u.pathname === '/revoke' && req.method === 'POST') {
      stats.revocations++;
      refresh.delete(new URLSearchParams(body).get('token'));
      res.writeHead(200);
      return res.end();
    }
    if (u.pathname === '/token' && req.method === 'POST') {
      const p = new URLSearchParams(body), g = p.get('grant_type');
      if (p.get('client_id') !== clientId) {
        stats.refused++;
        return json(res, 401, { error: 'invalid_client' });
      }
      if (g === 'authorization_code') {
        const c = codes.get(p.get('code'));
        codes.delete(p.get('code'));
        const s256 = crypto.createHash('sha256')
          .update(p.get('code_verifier') || '').digest('base64url');
        if (!c || c.challenge !== s256 || c.redirect !== p.get('redirect_uri')) {
          stats.refused++;
          return json(res, 400, { error: 'invalid_grant' });
        }
        stats.codes++;
        return tokens(res, c.scope);
      }
      if (g === 'refresh_token') {
        stats.refreshes++;
        const rt = p.get('refresh_token');
        if (!refresh.delete(rt)) return json(res, 400, { error: 'invalid_grant' });
        return tokens(res, 'openid offline_access');
      }
      if (g === 'urn:ietf:params:oauth:grant-type:token-exchange') {
        const c = verify(p.get('subject_token'));
        if (!c || c.exp <= now() || c.seq < minSeq ||
            p.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:id_token' ||
            p.get('requested_token_type') !== 'urn:ietf:params:oauth:token-type:id-jag' ||
            !p.get('audience') || !p.get('resource')) {
          stats.refused++;
          return json(res, 400, { error: 'invalid_grant' });
        }
        stats.exchanges++;
        return json(res, 200, {
          access_token: jwt({ iss: origin, sub: c.sub, aud: p.get('audience'),
                              resource: p.get('resource'), client_id: 'mcp-client',
                              iat: now(), exp: now() + 300 }, 'oauth-id-jag+jwt'),
          issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          token_type: 'N_A', expires_in: 300,
        });
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    res.writeHead(404);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`listening on ${server.address().port}`);
});
