// A forward HTTP proxy for tests (absolute-form requests only, no
// CONNECT): forwards each request and adds "X-Via-Proxy: mcphost-test", so
// a server can show that a client used the proxy from its environment.
// Usage: node forward_proxy.mjs; prints "listening on PORT".
import http from 'node:http';

const proxy = http.createServer((req, res) => {
  let target;
  try {
    target = new URL(req.url);
  } catch {
    res.writeHead(400);
    return res.end('absolute-form requests only\n');
  }
  const upstream = http.request({
    host: target.hostname, port: target.port, path: target.pathname + target.search,
    method: req.method, headers: { ...req.headers, 'x-via-proxy': 'mcphost-test' },
  }, (up) => {
    res.writeHead(up.statusCode, up.headers);
    up.pipe(res);
  });
  upstream.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
});
proxy.listen(0, '127.0.0.1', () => process.stdout.write(`listening on ${proxy.address().port}\n`));
