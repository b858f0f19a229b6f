// Peer driver: the TypeScript SDK v2 client package,
// @modelcontextprotocol/client (default 'legacy' version negotiation: the
// plain initialize handshake, no server/discover probe).
import { Client } from '@modelcontextprotocol/client';

import { run } from './core.mjs';

await run({
  name: 'sdk2',
  Client,
  stdio: async () => (await import('@modelcontextprotocol/client/stdio')).StdioClientTransport,
  http: async () => (await import('@modelcontextprotocol/client')).StreamableHTTPClientTransport,
  sse: async () => (await import('@modelcontextprotocol/client')).SSEClientTransport,
});
