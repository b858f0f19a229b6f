// Per-call latency of echo over streamable HTTP, with the TS SDK's client
// (bench/gateway_http.sh): node gateway_http.mjs URL TOOL CALLS
// prints {"median_ms": ..., "p90_ms": ..., "calls": N} after 20 warm-up
// calls on the same session.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, tool, calls] = process.argv.slice(2);
const n = Number(calls ?? 300);
const client = new Client({ name: 'bench-gateway', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const call = () => client.callTool({ name: tool, arguments: { message: 'hi' } });
for (let i = 0; i < 20; i++) await call();
const ms = [];
for (let i = 0; i < n; i++) {
  const t = process.hrtime.bigint();
  await call();
  ms.push(Number(process.hrtime.bigint() - t) / 1e6);
}
ms.sort((a, b) => a - b);
const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
await client.close();
console.log(JSON.stringify({ median_ms: +at(0.5).toFixed(3), p90_ms: +at(0.9).toFixed(3), calls: n }));
