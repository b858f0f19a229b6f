// The workload half of a peer driver: the same two commands, the same
// input and the same output as mcphost, so that bench-harness drives every
// client the same way.
//
//   DRIVER --config FILE tools   connect every server, list tools, print
//                                mcp__SERVER__TOOL lines, exit
//   DRIVER --config FILE batch   mcphost's batch protocol (cli/batch.c):
//                                JSON request lines in, one JSON answer line
//                                out per request, as each completes
//
// Requests handled: {"id":N,"call":"SERVER/TOOL","arguments":{...}} and
// {"id":N,"list":"tools","server":S}. Servers connect on first use, as in
// mcphost batch. Each SDK supplies its Client class and its transports;
// transports are imported only when a server needs one, which is the
// cheapest start-up an SDK user can get.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

function parseArgs(argv) {
  const configs = [];
  let command;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--config' || argv[i] === '-c') configs.push(argv[++i]);
    else command = argv[i];
  }
  const servers = {};
  for (const f of configs) {
    const cfg = JSON.parse(readFileSync(f, 'utf8'));
    for (const [name, def] of Object.entries(cfg.mcpServers ?? {}))
      if (!(name in servers)) servers[name] = def;
  }
  return { command, servers };
}

export async function run(sdk) {
  const { command, servers } = parseArgs(process.argv.slice(2));
  const clients = new Map(); // name -> Promise<Client>

  async function makeTransport(def) {
    const type = def.type ?? (def.url ? 'http' : 'stdio');
    if (type === 'stdio') {
      const StdioClientTransport = await sdk.stdio();
      return new StdioClientTransport({
        command: def.command,
        args: def.args ?? [],
        // The whole environment, as mcphost passes it: the SDKs' default
        // keeps only HOME, PATH and a few more, and a server's start-up can
        // depend on the rest (NODE_EXTRA_CA_CERTS costs each Node.js
        // server ~60 ms of CPU), so without this the servers would not be
        // the same for every client.
        env: { ...process.env, ...(def.env ?? {}) },
        stderr: 'inherit',
        // Both SDKs refuse a stdio message over 10 MiB by default; allow
        // what mcphost allows (maxMessageBytes, 64 MiB).
        maxBufferSize: 64 * 1024 * 1024,
      });
    }
    if (type === 'http') return new (await sdk.http())(new URL(def.url));
    if (type === 'sse') return new (await sdk.sse())(new URL(def.url));
    throw new Error(`unknown transport type ${type}`);
  }

  function connect(name) {
    let p = clients.get(name);
    if (!p) {
      const def = servers[name];
      if (!def) return Promise.reject(new Error(`no server named "${name}" is configured`));
      p = (async () => {
        const client = new sdk.Client(
          { name: `bench-${sdk.name}`, version: '1.0.0' },
          sdk.clientOptions
        );
        await client.connect(await makeTransport(def));
        return client;
      })();
      clients.set(name, p);
    }
    return p;
  }

  async function listTools(client) {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async function closeAll() {
    await Promise.allSettled(
      [...clients.values()].map((p) => p.then((c) => c.close(), () => {})),
    );
  }

  if (command === 'tools') {
    const names = Object.keys(servers);
    const lists = await Promise.all(names.map(async (n) => listTools(await connect(n))));
    let out = '';
    names.forEach((n, i) => {
      for (const t of lists[i]) out += `mcp__${n}__${t.name}\t${t.description ?? ''}\n`;
    });
    process.stdout.write(out);
    await closeAll();
    process.exit(0);
  }

  if (command !== 'batch') {
    console.error('usage: DRIVER --config FILE tools|batch');
    process.exit(2);
  }

  let inflight = 0;
  let eof = false;
  const emit = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  const maybeDone = async () => {
    if (eof && inflight === 0) {
      await closeAll();
      process.exit(0);
    }
  };

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      emit({ id: null, error: { exit: 2, message: 'not a JSON object' } });
      return;
    }
    try {
      if (typeof req.call === 'string') {
        const slash = req.call.indexOf('/');
        const client = await connect(req.call.slice(0, slash));
        const result = await client.callTool({
          name: req.call.slice(slash + 1),
          arguments: req.arguments ?? {},
        });
        emit({ id: req.id, result });
      } else if (req.list === 'tools') {
        const tools = await listTools(await connect(req.server));
        emit({ id: req.id, result: { tools } });
      } else {
        emit({ id: req.id, error: { exit: 2, message: 'unsupported request' } });
      }
    } catch (e) {
      emit({ id: req.id, error: { exit: 3, message: String(e?.message ?? e) } });
    }
  }

  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    inflight++;
    handle(line).finally(() => {
      inflight--;
      maybeDone();
    });
  });
  rl.on('close', () => {
    eof = true;
    maybeDone();
  });
}
