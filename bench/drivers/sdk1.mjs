// Peer driver: the official TypeScript SDK 1.x client,
// @modelcontextprotocol/sdk (the client library Claude Code uses).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { run } from './core.mjs';

await run({
  name: 'sdk1',
  Client,
  stdio: async () => (await import('@modelcontextprotocol/sdk/client/stdio.js')).StdioClientTransport,
  http: async () =>
    (await import('@modelcontextprotocol/sdk/client/streamableHttp.js')).StreamableHTTPClientTransport,
  sse: async () => (await import('@modelcontextprotocol/sdk/client/sse.js')).SSEClientTransport,
});
