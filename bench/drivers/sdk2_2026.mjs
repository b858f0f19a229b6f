// Peer driver: the TypeScript SDK v2 client package,
// @modelcontextprotocol/client, pinned to MCP 2026-07-28
// (versionNegotiation {pin}: server/discover, the _meta envelope, the
// 2026 HTTP headers; no initialize). Workload 8.
import { Client } from '@modelcontextprotocol/client';

import { run } from './core.mjs';

await run({
  name: 'sdk2-2026',
  Client,
  clientOptions: { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  stdio: async () => (await import('@modelcontextprotocol/client/stdio')).StdioClientTransport,
  http: async () => (await import('@modelcontextprotocol/client')).StreamableHTTPClientTransport,
  sse: async () => (await import('@modelcontextprotocol/client')).SSEClientTransport,
});
