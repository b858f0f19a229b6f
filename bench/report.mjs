// Turns one run's raw data (bench/results/raw/<stamp>/) into
//   bench/results/<date>.md        every figure, every client, the ratios
//   bench/results/<date>.csv       the same figures, one row each
//   bench/results/latency-<date>.png  latency distributions (gnuplot)
// and puts the headline table into bench/README.md between its markers.
//
//   node bench/report.mjs bench/results/raw/<stamp>
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(BENCH, 'results');
const raw = process.argv[2];
if (!raw) {
  console.error('usage: node bench/report.mjs bench/results/raw/<stamp>');
  process.exit(2);
}
const machine = JSON.parse(readFileSync(join(raw, 'machine.json'), 'utf8'));
const rows = readFileSync(join(raw, 'results.jsonl'), 'utf8')
  .split('\n').filter(Boolean).map((l) => JSON.parse(l));
// BENCH_LABEL names a variant run (a prototype build, say): its files get
// the label and the README is left alone. A run with a candidate and no
// label is <date>-candidate and does go into the README.
const variant = Boolean(process.env.BENCH_LABEL);
const label = variant ? `-${process.env.BENCH_LABEL}`
  : rows.some((r) => r.client === 'candidate') ? '-candidate' : '';
const date = machine.date.slice(0, 10);
const stem = `${date}${label}`;

// "candidate": a second mcphost build run beside the first (BENCH_CANDIDATE).
const CLIENTS = ['mcphost', 'sdk1', 'sdk2', ...(rows.some((r) => r.client === 'candidate') ? ['candidate'] : [])];
const CLIENT_NAME = {
  mcphost: 'mcphost',
  sdk1: `TS SDK ${machine.sdk1} (\`@modelcontextprotocol/sdk\`)`,
  sdk2: `TS client ${machine.sdk2} (\`@modelcontextprotocol/client\`)`,
  candidate: 'a second mcphost build (BENCH_CANDIDATE' +
    (machine.candidate_commit ? `: ${machine.candidate_commit}, ${machine.candidate_build_type} build` : '') + ')',
};
const SERVER_NAME = {
  c: 'C server, stdio',
  ts: 'TS SDK server, stdio',
  http: 'TS SDK server, streamable HTTP',
  sse: 'TS SDK server, legacy SSE',
  intl: 'C server with non-ASCII tool names in NFKC, stdio',
  icu: 'C server with non-ASCII tool names, one needing NFKC (ICU), stdio',
  '-': '-',
};

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pick = (w, s, c) => rows.filter((r) => r.workload === w && r.server === s && r.client === c && !r.failed);
const stat = (w, s, c, key) => {
  const xs = pick(w, s, c).map((r) => r[key]);
  const f = xs.filter((x) => !Number.isNaN(x));
  return { med: median(f), min: Math.min(...f), max: Math.max(...f), n: f.length };
};
const med = (w, s, c, key) => stat(w, s, c, key).med;

const fmt = (x, digits) => {
  if (!Number.isFinite(x)) return '–';
  if (digits !== undefined) return x.toFixed(digits);
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : x.toFixed(3);
};
const mib = (kb) => kb / 1024;
const ratio = (peer, ours) => (Number.isFinite(peer) && Number.isFinite(ours) && ours > 0 ? peer / ours : NaN);
const fx = (r) => (Number.isFinite(r) ? `${fmt(r)}×` : r === Infinity ? 'no wall added' : '–');
// The peer's wall added to the server alone over the client's: a client
// whose run ends no later than the server alone's (its reading keeps up
// with the server's writing) adds nothing measurable, an unbounded ratio
// (Infinity), not a negative one.
const addedRatio = (peerAdded, oursAdded) =>
  Number.isFinite(peerAdded) && Number.isFinite(oursAdded) && oursAdded <= 0 ? Infinity : ratio(peerAdded, oursAdded);

// ---- CSV: every figure ----
const csv = ['workload,server,client,metric,median,min,max,runs,ratio_vs_mcphost'];
const METRICS = {
  cold: ['wall_ms', 'cpu_ms', 'rss_kb'],
  cold_untraced: ['wall_ms'],
  cold_pair: ['wall_ms', 'cpu_ms'],
  cold_pair_untraced: ['wall_ms'],
  seq: ['lat_p50_us', 'lat_p99_us', 'cpu_per_call_us', 'rss_kb'],
  conc: ['calls_per_s', 'cpu_per_call_us', 'lat_p50_us', 'lat_p99_us', 'rss_kb'],
  big: ['wall_ms', 'cpu_ms', 'rss_kb'],
  many: ['wall_ms', 'wall_from_spawn_ms', 'cpu_ms', 'rss_kb'],
  plugins: ['load_ms', 'total_ms', 'loaded'],
  floor_pipe: ['lat_p50_us', 'lat_p99_us', 'cpu_per_call_us'],
  seq_pair: ['cpu_per_call_us'],
  floor_pipe_pair: ['cpu_per_call_us'],
  floor_json: ['parse_ms', 'print_ms', 'peak_rss_kb'],
  footprint: ['instructions', 'children', 'rss_kib'],
  whole_batch: ['rss_kb'],
  whole_call: ['rss_kb'],
};
// The pipe floors (floor_pipe.c): a raw round trip (1 hop), the relay
// that does nothing (2 hops), and the same relay waiting in epoll_wait()
// before each read as mcphost's loop does (2 hops, epoll).
const floorRows = (hops, epoll) =>
  rows.filter((r) => r.workload === 'floor_pipe' && r.hops === hops && !!r.epoll === epoll);
// The relay a client's CPU per call is held against: the epoll one, which
// makes the system calls an event loop makes (runs before it had only
// the plain relay).
const relayRows = () => (floorRows(2, true).length ? floorRows(2, true) : floorRows(2, false));
const servers = (w) => [...new Set(rows.filter((r) => r.workload === w).map((r) => r.server))];
for (const [w, keys] of Object.entries(METRICS)) {
  for (const s of servers(w)) {
    const clients = [...new Set(rows.filter((r) => r.workload === w && r.server === s).map((r) => r.client))];
    for (const c of clients) {
      for (const k of keys) {
        if (w === 'floor_pipe') {
          for (const [hops, epoll] of [[1, false], [2, false], [2, true]]) {
            const xs = floorRows(hops, epoll).map((r) => r[k]);
            if (!xs.length) continue;
            csv.push([w, `hops${hops}${epoll ? '-epoll' : ''}`, c, k, fmt(median(xs), 3), fmt(Math.min(...xs), 3), fmt(Math.max(...xs), 3), xs.length, ''].join(','));
          }
          continue;
        }
        const st = stat(w, s, c, k);
        if (!st.n) continue;
        const base = med(w, s, 'mcphost', k);
        const r = c === 'mcphost' || !Number.isFinite(base) ? '' : fmt(k === 'calls_per_s' ? base / st.med : st.med / base, 2);
        csv.push([w, s, c, k, fmt(st.med, 3), fmt(st.min, 3), fmt(st.max, 3), st.n, r].join(','));
      }
    }
  }
}

// ---- hyperfine cross-check of the cold command ----
const hyperfine = {};
for (const s of ['c', 'ts']) {
  const f = join(raw, `hyperfine-cold-${s}.json`);
  if (!existsSync(f)) continue;
  for (const r of JSON.parse(readFileSync(f, 'utf8')).results) hyperfine[`${s}/${r.command}`] = r.median * 1e3;
}

// ---- targets ----
const MB = 1e6 / 1024; // kB per MB
const bigMsg = machine.big_bytes;
// At most one copy of the result in memory, and 5 MiB besides.
const bigLimitKb = (bigMsg + 5 * 1048576) / 1024;
const rssLimitKb = 3.4 * 1024; // 1/20 of the TS SDK's in issue 27
// Per-run values, paired by run number: clients take turns within a run,
// so run r of two clients saw the same machine. The range of these shows
// how much a ratio moves from run to run.
const byRun = (w, s, c, k) => new Map(pick(w, s, c).map((r) => [r.run, r[k]]));
// Client CPU per call over the relay's, paired by run: the pipe floors
// run right after each run of workload 2's C server.
const relayRange = (me) => {
  const relay = new Map(relayRows().map((x) => [x.run, x.cpu_per_call_us]));
  const xs = pick('seq', 'c', me).filter((x) => relay.has(x.run)).map((x) => x.cpu_per_call_us / relay.get(x.run));
  return xs.length > 1 ? [Math.min(...xs), Math.max(...xs)] : null;
};
// Workload 1b: mcphost ÷ the candidate, pair by pair (each ran right
// after the other). The median of the pairs' ratios and its 95%
// confidence interval, from the order statistics (no assumption on how
// the ratios spread): the ratios ranked k and n + 1 - k, k = n/2 - 0.98 √n.
const pairRatios = (w, k) => {
  const cand = byRun(w, 'c', 'candidate', k);
  return [...byRun(w, 'c', 'mcphost', k)].filter(([run]) => cand.get(run) > 0)
    .map(([run, v]) => v / cand.get(run)).filter(Number.isFinite).sort((a, b) => a - b);
};
const pairCi = (xs) => {
  const n = xs.length, k = Math.floor(n / 2 - 0.98 * Math.sqrt(n));
  return n >= 10 && k >= 1 ? [xs[k - 1], xs[n - k]] : null;
};
// Workload 2b: a client's CPU per call over the relay's of the same
// turn, sorted.
const relayTurns = (me) => {
  const relay = byRun('floor_pipe_pair', '-', 'floor', 'cpu_per_call_us');
  return [...byRun('seq_pair', 'c', me, 'cpu_per_call_us')].filter(([run, v]) => relay.get(run) > 0 && v > 0)
    .map(([run, v]) => v / relay.get(run)).sort((a, b) => a - b);
};
const pairedRange = (w, s, me, k, { added = false, abs = false } = {}) => {
  const mine = byRun(w, s, me, k);
  const peer = byRun(w, s, 'sdk1', k);
  const none = byRun(w, s, 'none', k);
  const xs = [];
  for (const [run, v] of mine) {
    if (abs) xs.push(v);
    else if (added && peer.has(run) && none.has(run)) xs.push(addedRatio(peer.get(run) - none.get(run), v - none.get(run)));
    else if (!added && peer.has(run)) xs.push(peer.get(run) / v);
  }
  const f = xs.filter((x) => !Number.isNaN(x));
  return f.length > 1 ? [Math.min(...f), Math.max(...f)] : null;
};
// [what, goal, value, met?, kind, per-run range]
const targetsFor = (me) => {
  const r = (w, s, k) => ratio(med(w, s, 'sdk1', k), med(w, s, me, k));
  const rr = (w, s, k) => pairedRange(w, s, me, k);
  // The relay that does nothing, waiting as mcphost does (floor_pipe.c,
  // 2 hops, --epoll): its CPU per call.
  const relayCpu = median(relayRows().map((x) => x.cpu_per_call_us));
  const stdioCpu = med('seq', 'c', me, 'cpu_per_call_us');
  // Workload 2b, where it ran: the median of the per-turn ratios, the
  // range its 95% confidence interval.
  const turns = relayTurns(me);
  const relayTarget = turns.length ? [median(turns), pairCi(turns)] : [ratio(stdioCpu, relayCpu), relayRange(me)];
  const added = addedRatio(med('big', 'c', 'sdk1', 'wall_ms') - med('big', 'c', 'none', 'wall_ms'),
    med('big', 'c', me, 'wall_ms') - med('big', 'c', 'none', 'wall_ms'));
  return [
    ['Client CPU per call, stdio (C server)', '≤ 1/10', r('seq', 'c', 'cpu_per_call_us'), (x) => x >= 10, 'ratio', rr('seq', 'c', 'cpu_per_call_us')],
    ['Client CPU per call, stdio (TS server)', '≤ 1/10', r('seq', 'ts', 'cpu_per_call_us'), (x) => x >= 10, 'ratio', rr('seq', 'ts', 'cpu_per_call_us')],
    ['Client CPU per call, stdio (C server), against the relay that does nothing (waiting in epoll, as mcphost does)', '≤ 1.3×', relayTarget[0],
      (x) => x <= 1.3, 'ratio', relayTarget[1]],
    ['Client CPU per call, WebSocket against stdio (C server)', '≤ 1.5×',
      ratio(med('seq', 'ws', me, 'cpu_per_call_us'), stdioCpu), (x) => x <= 1.5, 'ratio', null],
    ['Client CPU per call, streamable HTTP', '≤ 1/5', r('seq', 'http', 'cpu_per_call_us'), (x) => x >= 5, 'ratio', rr('seq', 'http', 'cpu_per_call_us')],
    ['Client CPU per call, legacy SSE', '≤ 1/5', r('seq', 'sse', 'cpu_per_call_us'), (x) => x >= 5, 'ratio', rr('seq', 'sse', 'cpu_per_call_us')],
    ['Client peak RSS, one server (C server, stdio, 2,000 calls)', '≤ 1/20', r('seq', 'c', 'rss_kb'), (x) => x >= 20, 'ratio', rr('seq', 'c', 'rss_kb')],
    ['Client peak RSS, one server (C server, stdio), absolute', '≤ 3.4 MiB', med('seq', 'c', me, 'rss_kb'), (kb) => kb <= rssLimitKb,
      'abs_kb', pairedRange('seq', 'c', me, 'rss_kb', { abs: true })],
    ['Client peak RSS, one server (TS server, stdio)', '≤ 1/20', r('seq', 'ts', 'rss_kb'), (x) => x >= 20, 'ratio', rr('seq', 'ts', 'rss_kb')],
    ...['intl', 'icu'].flatMap((s) => [
      [`Client peak RSS, ${SERVER_NAME[s]}`, '≤ 1/20', r('seq', s, 'rss_kb'), (x) => x >= 20, 'ratio', rr('seq', s, 'rss_kb')],
      [`Client peak RSS, ${SERVER_NAME[s]}, absolute`, '≤ 3.4 MiB', med('seq', s, me, 'rss_kb'), (kb) => kb <= rssLimitKb,
        'abs_kb', pairedRange('seq', s, me, 'rss_kb', { abs: true })],
    ]),
    ['Client peak RSS, 50 stdio servers (C)', '≤ 15 MB', med('many', 'c', me, 'rss_kb'), (kb) => kb <= 15 * MB, 'abs_kb',
      pairedRange('many', 'c', me, 'rss_kb', { abs: true })],
    ['10 MiB result, wall time (C server)', '≥ 10× faster', r('big', 'c', 'wall_ms'), (x) => x >= 10, 'ratio', rr('big', 'c', 'wall_ms')],
    ['10 MiB result, wall time (TS server)', '≥ 10× faster', r('big', 'ts', 'wall_ms'), (x) => x >= 10, 'ratio', rr('big', 'ts', 'wall_ms')],
    ['10 MiB result, wall the client adds to the server alone (C server)', '≥ 10× faster', added, (x) => x >= 10, 'ratio',
      pairedRange('big', 'c', me, 'wall_ms', { added: true })],
    ['10 MiB result, client peak RSS (C server)', `≤ 10 MiB + 5 MiB = ${fmt(bigLimitKb / 1024, 1)} MiB`,
      med('big', 'c', me, 'rss_kb'), (kb) => kb <= bigLimitKb, 'abs_kb', pairedRange('big', 'c', me, 'rss_kb', { abs: true })],
    ['Cold command, wall (C server)', '≥ 20× faster', r('cold', 'c', 'wall_ms'), (x) => x >= 20, 'ratio', rr('cold', 'c', 'wall_ms')],
    ['All plugins loaded and initialized', '≤ 5 ms', med('plugins', '-', me, 'total_ms'), (ms) => ms <= 5, 'abs_ms',
      pairedRange('plugins', '-', me, 'total_ms', { abs: true })],
  ];
};
const plugins = med('plugins', '-', 'mcphost', 'total_ms');
const showTarget = (v, ok, kind, range) => {
  const one = (x) => (kind === 'abs_kb' ? `${fmt(mib(x), 1)} MiB` : kind === 'abs_ms' ? `${fmt(x, 2)} ms` : fx(x));
  const met = !Number.isNaN(v) && v !== undefined && v !== null ? (ok(v) ? '**met**' : '**missed**') : '–';
  return `${one(v)} | ${range ? `${one(range[0])} – ${one(range[1])}` : '–'} | ${met}`;
};
const hasCand = CLIENTS.includes('candidate');
const candTargets = hasCand ? targetsFor('candidate') : [];
const targetRows = targetsFor('mcphost').map(([what, goal, v, ok, kind, range], i) =>
  `| ${what} | ${goal} | ${showTarget(v, ok, kind, range)} |` +
  (hasCand ? ` ${showTarget(...candTargets[i].slice(2))} |` : ''));

// ---- tables ----
const md = [];
const h = (s) => md.push('', s, '');
const table = (head, body) => {
  md.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`));
};
const machineLine =
  `${machine.cpu}, ${machine.cores} cores, ${machine.mem_gib} GiB; ${machine.os}, Linux ${machine.kernel}; ` +
  `Node.js ${machine.node}, gcc ${machine.gcc}, libcurl ${machine.libcurl}; mcphost ${machine.commit}` +
  `${machine.dirty ? ' with uncommitted changes' : ''}, ${machine.build_type || 'Release'} build` +
  (machine.candidate_commit ? `; candidate ${machine.candidate_commit}, ${machine.candidate_build_type} build` : '') +
  (machine.nice ? `; run at nice ${machine.nice}` : '');

md.push(`# mcphost benchmarks, ${date}${label ? ` (${label.slice(1)})` : ''}`, '');
const loads = existsSync(join(raw, 'load.txt'))
  ? readFileSync(join(raw, 'load.txt'), 'utf8').split('\n').filter(Boolean).map((l) => Number(l.split(' ')[1]))
  : [];
md.push(`Machine: ${machineLine}. Load average (1, 5, 15 min) at the start ${machine.load_start ?? '?'}, at the end ${machine.load_end ?? '?'}` +
  (loads.length ? `; 1-minute load at each workload's start from ${Math.min(...loads)} to ${Math.max(...loads)} on ${machine.cores} cores` : '') +
  '. Other jobs may share the machine: ratios are side by side and fair, absolute times move with the load.', '');
md.push(
  `Clients: **mcphost** (\`mcphost batch\`), **sdk1** = ${CLIENT_NAME.sdk1}, **sdk2** = ${CLIENT_NAME.sdk2}; ` +
    'each driven by `bench-harness` through the same JSON-lines protocol, against the same server in the same run. ' +
    `Figures are medians of ${machine.runs} runs per client (cold command: ${machine.cold_runs}); ` +
    'ratios are peer ÷ mcphost (how many times mcphost is cheaper or faster). ' +
    'CPU and RSS are the client process only (bench/README.md says how). Raw data: `' +
    relative(join(BENCH, '..'), raw) + '` (not committed), every figure: `' + `${stem}.csv` + '`.',
);
h('## Targets (mcphost vs the TS SDK 1.x client)');
table(hasCand ? ['target', 'goal', 'mcphost', 'per run', '', 'candidate', 'per run', '']
  : ['target', 'goal', 'median', 'per run', ''], []);
md.splice(md.length - 2, 0, 'Median of the runs, and the range of the per-run values (a ratio per run pairs the clients\' runs of the same number, which took turns on the same machine).', '');
md.push(...targetRows);

// The floor with no client: the harness talks to the stdio server itself.
const noneRow = (w, s, keys, blanks) =>
  pick(w, s, 'none').length
    ? [['*no client* (server alone)', ...keys.map((k) => fmt(med(w, s, 'none', k))), ...Array(blanks).fill('–')]]
    : [];
const rowsFor = (w, s, cols) => CLIENTS.map((c) => [`${c === 'mcphost' ? '**mcphost**' : c}`, ...cols.map((f) => f(c))]);
if (hasCand) md.push('', '**candidate** = ' + CLIENT_NAME.candidate + '; its ratio columns are, like the others\', the client\'s figure ÷ mcphost\'s (below 1×: the candidate is cheaper).');

h('## 1. Cold command: start → connected → tools listed → exit');
md.push('`mcphost --config F tools` vs `node driver --config F tools`. Wall from exec to exit, CPU and peak RSS at the exit, the client traced (ptrace: it also stops at each signal it is sent until the harness lets it go on); untraced: the wall from the spawn to the reap, in runs of their own, the clients taking turns as well; hyperfine median as a cross-check.', '');
for (const s of ['c', 'ts', 'intl', 'icu']) {
  if (!pick('cold', s, 'mcphost').length) continue;
  md.push(`**${SERVER_NAME[s]}**`, '');
  const base = med('cold', s, 'mcphost', 'wall_ms');
  const baseU = med('cold_untraced', s, 'mcphost', 'wall_ms');
  table(['client', 'wall ms', 'untraced wall ms', 'hyperfine ms', 'CPU ms', 'peak RSS MiB', 'wall ratio', 'untraced ratio'],
    rowsFor('cold', s, [
      (c) => fmt(med('cold', s, c, 'wall_ms')),
      (c) => fmt(med('cold_untraced', s, c, 'wall_ms')),
      (c) => fmt(hyperfine[`${s}/${c}`]),
      (c) => fmt(med('cold', s, c, 'cpu_ms')),
      (c) => fmt(mib(med('cold', s, c, 'rss_kb')), 1),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('cold', s, c, 'wall_ms'), base))),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('cold_untraced', s, c, 'wall_ms'), baseU))),
    ]));
  md.push('');
}

h(`## 2. Sequential \`tools/call\` echo, ${machine.seq_calls} calls`);
const fp = (hops, k, epoll = false) => median(floorRows(hops, epoll).map((r) => r[k]));
md.push(
  'Latency from the request line written to the answer line read, one call at a time. CPU per call: client CPU over the ' +
    'measured calls ÷ calls (warm-up excluded). ' +
    `Floor (stdio): a raw pipe round trip between two C processes p50 ${fmt(fp(1, 'lat_p50_us'))} µs / p99 ${fmt(fp(1, 'lat_p99_us'))} µs; ` +
    `the harness → relay → server chain with a relay that does nothing p50 ${fmt(fp(2, 'lat_p50_us'))} µs / p99 ${fmt(fp(2, 'lat_p99_us'))} µs, ` +
    `relay CPU ${fmt(fp(2, 'cpu_per_call_us'))} µs per call; ` +
    (floorRows(2, true).length
      ? `the same relay waiting in epoll_wait() before each read, as mcphost's loop does (6 system calls a round trip, not 4), ` +
        `p50 ${fmt(fp(2, 'lat_p50_us', true))} µs, relay CPU ${fmt(fp(2, 'cpu_per_call_us', true))} µs per call: ` +
        'the floor of the CPU-per-call target. '
      : '') +
    '*No client*: the harness talks JSON-RPC to the stdio server itself, the least any client can take.',
  '',
);
for (const s of ['c', 'ts', 'http', 'sse', 'intl', 'icu']) {
  if (!pick('seq', s, 'mcphost').length) continue;
  md.push(`**${SERVER_NAME[s]}**`, '');
  const base = med('seq', s, 'mcphost', 'cpu_per_call_us');
  const baseRss = med('seq', s, 'mcphost', 'rss_kb');
  table(['client', 'p50 µs', 'p99 µs', 'CPU/call µs', 'peak RSS MiB', 'CPU ratio', 'RSS ratio'],
    [...rowsFor('seq', s, [
      (c) => fmt(med('seq', s, c, 'lat_p50_us')),
      (c) => fmt(med('seq', s, c, 'lat_p99_us')),
      (c) => fmt(med('seq', s, c, 'cpu_per_call_us')),
      (c) => fmt(mib(med('seq', s, c, 'rss_kb')), 1),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('seq', s, c, 'cpu_per_call_us'), base))),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('seq', s, c, 'rss_kb'), baseRss))),
    ]), ...noneRow('seq', s, ['lat_p50_us', 'lat_p99_us'], 4)]);
  md.push('');
}
if (pick('seq', 'intl', 'mcphost').length)
  md.push('The servers with non-ASCII tool names: mcphost lists the tools before its first call and sanitizes the names ' +
    '(the TS SDK drivers call without listing); the "icu" server\'s fullwidth name is the one that needs ICU.', '');
md.push(`![latency distributions](latency-${stem}.png)`);

h(`## 3. ${machine.conc_inflight} calls in flight, ${machine.conc_calls} calls`);
for (const s of ['c', 'ts', 'http', 'sse']) {
  md.push(`**${SERVER_NAME[s]}**`, '');
  const base = med('conc', s, 'mcphost', 'cpu_per_call_us');
  const baseRate = med('conc', s, 'mcphost', 'calls_per_s');
  table(['client', 'calls/s', 'CPU/call µs', 'p50 µs', 'p99 µs', 'peak RSS MiB', 'throughput ratio', 'CPU ratio'],
    rowsFor('conc', s, [
      (c) => fmt(med('conc', s, c, 'calls_per_s'), 0),
      (c) => fmt(med('conc', s, c, 'cpu_per_call_us')),
      (c) => fmt(med('conc', s, c, 'lat_p50_us')),
      (c) => fmt(med('conc', s, c, 'lat_p99_us')),
      (c) => fmt(mib(med('conc', s, c, 'rss_kb')), 1),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(baseRate, med('conc', s, c, 'calls_per_s')))),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('conc', s, c, 'cpu_per_call_us'), base))),
    ]));
  md.push('');
}

const fj = (c, k) => median(rows.filter((r) => r.workload === 'floor_json' && r.client === c).map((r) => r[k]));
h(`## 4. One ${fmt(bigMsg / 1048576, 0)} MiB text result`);
md.push(
  `\`big\` returns ${bigMsg} bytes of text (${fmt(fj('floor', 'message_bytes') / 1048576, 2)} MiB as a JSON-RPC line). ` +
    'Wall from the request written to the whole answer line read; peak RSS of the client at the end. ' +
    `Floor: a plain cJSON parse of that line ${fmt(fj('floor', 'parse_ms'))} ms (cJSON print ${fmt(fj('floor', 'print_ms'))} ms); ` +
    `Node's JSON.parse ${fmt(fj('floor-node', 'parse_ms'))} ms.`,
  '',
);
for (const s of ['c', 'ts']) {
  md.push(`**${SERVER_NAME[s]}**`, '');
  const base = med('big', s, 'mcphost', 'wall_ms');
  const baseRss = med('big', s, 'mcphost', 'rss_kb');
  table(['client', 'wall ms', 'client CPU ms', 'peak RSS MiB', 'wall ratio', 'RSS ratio'],
    [...rowsFor('big', s, [
      (c) => fmt(med('big', s, c, 'wall_ms')),
      (c) => fmt(med('big', s, c, 'cpu_ms')),
      (c) => fmt(mib(med('big', s, c, 'rss_kb')), 1),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('big', s, c, 'wall_ms'), base))),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('big', s, c, 'rss_kb'), baseRss))),
    ]), ...noneRow('big', s, ['wall_ms'], 4)]);
  const floor = med('big', s, 'none', 'wall_ms');
  if (Number.isFinite(floor))
    md.push('', `The server alone takes ${fmt(floor)} ms; the wall each client adds to it: ` +
      CLIENTS.map((c) => `${c} ${fmt(med('big', s, c, 'wall_ms') - floor)} ms`).join(', ') +
      ` (sdk1 ÷ mcphost: ${fx(ratio(med('big', s, 'sdk1', 'wall_ms') - floor, med('big', s, 'mcphost', 'wall_ms') - floor))}).`);
  md.push('');
}

h(`## 5. ${machine.many} stdio servers connected and listed at once`);
md.push('All `tools/list` requests written at once to a started client; wall until the last answer (and from the client\'s spawn).', '');
for (const s of ['c', 'ts']) {
  md.push(`**${machine.many} × ${SERVER_NAME[s]}**`, '');
  const base = med('many', s, 'mcphost', 'wall_ms');
  table(['client', 'wall ms', 'from spawn ms', 'client CPU ms', 'peak RSS MiB', 'wall ratio', 'RSS ratio'],
    rowsFor('many', s, [
      (c) => fmt(med('many', s, c, 'wall_ms')),
      (c) => fmt(med('many', s, c, 'wall_from_spawn_ms')),
      (c) => fmt(med('many', s, c, 'cpu_ms')),
      (c) => fmt(mib(med('many', s, c, 'rss_kb')), 1),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('many', s, c, 'wall_ms'), base))),
      (c) => (c === 'mcphost' ? '1×' : fx(ratio(med('many', s, c, 'rss_kb'), med('many', s, 'mcphost', 'rss_kb')))),
    ]));
  md.push('');
}

h('## 6. Loading every built plugin');
const pl = pick('plugins', '-', 'mcphost');
md.push(
  `\`bench-plugin-load\`: host_new, then host_load_plugins (dlopen, ABI check, init) of all ${pl[0]?.found ?? '?'} plugins ` +
    `in \`${'build-bench/lib/mcphost/plugins'}\`, one fresh process each time, ${pl.length} times.`,
  '',
);
table(['build', 'figure', 'median ms', 'min ms', 'max ms'], CLIENTS.filter((c) => pick('plugins', '-', c).length).flatMap((c) => ['load_ms', 'total_ms'].map((k) => {
  const st = stat('plugins', '-', c, k);
  return [c, k === 'load_ms' ? 'host_load_plugins' : 'host_new + host_load_plugins', fmt(st.med, 3), fmt(st.min, 3), fmt(st.max, 3)];
})));
md.push('');

// One server, the clients that ran against it: the table of 7 and 8.
function seqTable(server, peers) {
  const clients = ['mcphost', ...peers, ...(hasCand ? ['candidate'] : [])].filter((c) => pick('seq', server, c).length);
  const base = med('seq', server, 'mcphost', 'cpu_per_call_us');
  table(['client', 'p50 µs', 'p99 µs', 'CPU/call µs', 'peak RSS MiB', 'CPU ratio'],
    clients.map((c) => [c === 'mcphost' ? '**mcphost**' : c,
      fmt(med('seq', server, c, 'lat_p50_us')), fmt(med('seq', server, c, 'lat_p99_us')),
      fmt(med('seq', server, c, 'cpu_per_call_us')), fmt(mib(med('seq', server, c, 'rss_kb')), 1),
      c === 'mcphost' ? '1×' : fx(ratio(med('seq', server, c, 'cpu_per_call_us'), base))]));
  md.push('');
}

h(`## 7. Sequential \`tools/call\` echo over a WebSocket, ${machine.seq_calls} calls`);
md.push(
  'The same measure as 2, against the tests\' Node `ws` server (`tests/servers/ws_server.mjs`). The TS SDK has no ' +
    'WebSocket client: the peer is `drivers/ws_peer.mjs`, a Node client on the npm `ws` package.',
  '',
);
seqTable('ws', ['ws-peer']);
{
  // mcphost's own WebSocket against its stdio: the same calls, the
  // transport alone differs (the stdio row is workload 2's C server).
  const both = ['mcphost', ...(hasCand ? ['candidate'] : [])].filter((c) => pick('seq', 'ws', c).length);
  if (both.length) {
    md.push('mcphost over a WebSocket beside mcphost over stdio (C server, workload 2):', '');
    table(['client', 'transport', 'CPU/call µs', 'peak RSS MiB', 'CPU ratio', 'RSS ratio'],
      both.flatMap((c) => ['c', 'ws'].map((s) => [c === 'mcphost' ? '**mcphost**' : c, s === 'c' ? 'stdio' : 'ws',
        fmt(med('seq', s, c, 'cpu_per_call_us')), fmt(mib(med('seq', s, c, 'rss_kb')), 1),
        s === 'c' ? '1×' : fx(ratio(med('seq', 'ws', c, 'cpu_per_call_us'), med('seq', 'c', c, 'cpu_per_call_us'))),
        s === 'c' ? '1×' : fx(ratio(med('seq', 'ws', c, 'rss_kb'), med('seq', 'c', c, 'rss_kb')))])));
    md.push('');
  }
}

h(`## 8. Sequential \`tools/call\` echo at MCP 2026-07-28 over HTTP, ${machine.seq_calls} calls`);
md.push(
  'The same measure as 2, against the TS SDK v2 server (`tests/servers/ts_v2_server.mjs http modern`, ' +
    '`@modelcontextprotocol/server` 2.4.0): mcphost (era found by probing) against the TS v2 client ' +
    '`@modelcontextprotocol/client` 2.4.0 pinned to 2026-07-28 (`drivers/sdk2_2026.mjs`).',
  '',
);
seqTable('http2026', ['sdk2-2026']);

// ---- 9. mcphost against the candidate: the figures of issue 27 ----
const fpr = (c, w, k) => pick('footprint', '-', c).find((r) => r.step === w)?.[k];
const BUILDS = ['candidate', 'mcphost'].filter((c) => CLIENTS.includes(c));
const Mi = (x) => (!Number.isFinite(x) ? '–' : x < 1e5 ? `${fmt(x / 1e3)} k` : `${fmt(x / 1e6, 2)} M`);
const KiB = (x) => (Number.isFinite(x) ? `${fmt(x / 1024, 1)}` : '–');
const wholeRows = [
  ['cold `tools`: instructions of the mcphost process (callgrind)', (c) => fpr(c, 'tools', 'instructions'), Mi],
  ['cold `tools`: instructions of its forked children (callgrind)', (c) => fpr(c, 'tools', 'children'), Mi],
  ['cold `tools`: wall (ms, bench-harness)', (c) => med('cold', 'c', c, 'wall_ms'), fmt],
  ['cold `tools`: wall, untraced (ms, bench-harness)', (c) => med('cold_untraced', 'c', c, 'wall_ms'), fmt],
  ['cold `tools`: CPU (ms, bench-harness)', (c) => med('cold', 'c', c, 'cpu_ms'), fmt],
  ['cold `tools`: peak RSS (MiB, GNU time)', (c) => fpr(c, 'tools', 'rss_kib'), KiB],
  ['cold `tools`: resident at its exit (MiB, smaps: exact)', (c) => fpr(c, 'tools', 'exit_kib'), KiB],
  ['one cold `call`, non-ASCII tool names, one that needs NFKC: peak RSS (MiB, GNU time)', (c) => fpr(c, 'names', 'rss_kib'), KiB],
  ['one cold `call`, non-ASCII tool names, one that needs NFKC: resident at its exit (MiB, smaps: exact)', (c) => fpr(c, 'names', 'exit_kib'), KiB],
  ['cold `--version`: instructions (callgrind)', (c) => fpr(c, 'version', 'instructions'), Mi],
  [`peak RSS, one server, ${machine.seq_calls} sequential calls (MiB, bench-harness)`, (c) => med('seq', 'c', c, 'rss_kb'), KiB],
  [`peak RSS of \`mcphost batch\` given ${machine.seq_calls} echo calls at once (MiB, GNU time)`, (c) => med('whole_batch', 'c', c, 'rss_kb'), KiB],
  ['peak RSS of one `mcphost call`, non-ASCII names in NFKC (MiB, GNU time)', (c) => med('whole_call', 'intl', c, 'rss_kb'), KiB],
  ['peak RSS of one `mcphost call`, a name that needs ICU (MiB, GNU time)', (c) => med('whole_call', 'icu', c, 'rss_kb'), KiB],
  [`peak RSS, ${machine.seq_calls} sequential calls, a name that needs ICU (MiB, bench-harness)`, (c) => med('seq', 'icu', c, 'rss_kb'), KiB],
  [`peak RSS, ${machine.many} servers (MiB, bench-harness)`, (c) => med('many', 'c', c, 'rss_kb'), KiB],
  ['10 MiB result, peak RSS of `batch` (MiB, bench-harness)', (c) => med('big', 'c', c, 'rss_kb'), KiB],
  ['10 MiB result, instructions of `call` (callgrind)', (c) => fpr(c, 'big', 'instructions'), Mi],
  ['1,000 sequential calls in `batch`: instructions (callgrind)', (c) => fpr(c, 'batch', 'instructions'), Mi],
  ['`plugins`: instructions (callgrind)', (c) => fpr(c, 'plugins', 'instructions'), Mi],
  ['`serve --stdio`, 1,000 calls: instructions (callgrind)', (c) => fpr(c, 'serve', 'instructions'), Mi],
  ['all plugins loaded and initialized (ms, bench-plugin-load)', (c) => med('plugins', '-', c, 'total_ms'), (x) => fmt(x, 2)],
  ['CPU per sequential call, C server, stdio (µs, bench-harness; workload 2b where it ran, else 2)',
    (c) => (pick('seq_pair', 'c', c).length ? med('seq_pair', 'c', c, 'cpu_per_call_us') : med('seq', 'c', c, 'cpu_per_call_us')), fmt],
  ['CPU per sequential call, WebSocket (µs, bench-harness)', (c) => med('seq', 'ws', c, 'cpu_per_call_us'), fmt],
  ['peak RSS, WebSocket, sequential calls (MiB, bench-harness)', (c) => med('seq', 'ws', c, 'rss_kb'), KiB],
];
// What these figures are not, and why some are missing ('–').
const wholeNotes = [
  '- GNU time\'s `%M` and `VmHWM` come from the kernel\'s per-CPU RSS counters, which may each hold back up to 31 pages ' +
    '(a run of one binary moves by 128-136 KiB, and by how much differs between binaries); the rows "resident at its exit" ' +
    'count the pages of `/proc/self/smaps` at the command\'s exit (`smaps_exit.so`), exact and the same in every run.',
  '- GNU time\'s `%M` is the most of the command and of the children it reaped: a server\'s own peak counts when it is the larger. ' +
    'The demo server stays under 2 MiB for echo calls, so these rows are mcphost\'s; for the 10 MiB result the server\'s 33 MiB ' +
    'would show, so that row is the harness\'s (`VmHWM` of the client alone).',
  '- Forked children: the processes mcphost forks without exec (its process guardian), counted apart with ' +
    '`--dump-before=fork`; the servers it execs are not counted.',
  '- A candidate figure shown as – is a command or transport the candidate build does not have (an older build: ' +
    '`serve`, the WebSocket transport, MCP 2026-07-28), or a run that failed (`stderr-*.log` in the raw data say which).',
  '- Bundles are measured by `bench/bundles.sh`, run alone (a 150 MiB bundle is too slow to run beside the rest); ' +
    'the README quotes its newest `results/bundles-<date>.md`.',
];
const wholeTable = () => {
  const head = ['figure', ...BUILDS.map((c) => (c === 'candidate' ? `candidate (${machine.candidate_commit ?? '?'})` : `mcphost (${machine.commit})`))];
  if (BUILDS.length === 2) head.push('mcphost ÷ candidate');
  return [head, wholeRows.map(([what, f, show]) => {
    const v = BUILDS.map(f);
    const row = [what, ...v.map((x) => (Number.isFinite(x) ? show(x) : '–'))];
    if (BUILDS.length === 2) row.push(fx(ratio(v[1], v[0])));
    return row;
  })];
};
const pairRows = [
  ['wall, traced (the harness holds the client with ptrace)', 'cold_pair', 'wall_ms'],
  ['CPU of the client, traced', 'cold_pair', 'cpu_ms'],
  ['wall, untraced', 'cold_pair_untraced', 'wall_ms'],
  ['CPU per sequential call, C server (workload 2b)', 'seq_pair', 'cpu_per_call_us'],
].filter(([, w]) => pick(w, 'c', 'mcphost').length);
const pairTable = () => {
  const body = pairRows.map(([what, w, k]) => {
    const xs = pairRatios(w, k);
    const ci = pairCi(xs);
    const verdict = !ci ? '–' : ci[1] < 1 ? 'below' : ci[0] > 1 ? 'above' : 'no difference measured';
    return [what, String(xs.length), fx(median(xs)), ci ? `${fx(ci[0])} – ${fx(ci[1])}` : '–', verdict];
  });
  return [['measured (cold: `tools`, C server)', 'pairs', 'mcphost ÷ candidate (median of the pairs)', '95% confidence interval', 'mcphost against the candidate'], body];
};

const haveWhole = pick('footprint', '-', 'mcphost').length || pick('whole_batch', 'c', 'mcphost').length;
if (haveWhole) {
  h('## 9. Whole commands: mcphost beside the candidate');
  md.push('Instructions: `bench/footprint.py measure` (callgrind, deterministic: one run; the workloads of the footprint guard). ' +
    'GNU time: the most resident memory of the whole command (median of the runs). bench-harness figures: the medians above.', '');
  table(...wholeTable());
  md.push('', ...wholeNotes, '');
}
if (pick('cold_pair', 'c', 'candidate').length || pick('seq_pair', 'c', 'candidate').length) {
  if (!haveWhole) h('## 9. Whole commands: mcphost beside the candidate');
  md.push(`The cold command and sequential calls, mcphost and the candidate paired (workload 1b: ${machine.pair_runs} pairs; ` +
    `2b: ${machine.seq_pair_runs ?? '–'} turns of ${machine.seq_calls} calls; each build right after the other, ` +
    'the first of the two alternating): a difference of a few per cent between two builds is less than what the machine moves ' +
    'a run by, and a pair shares the machine\'s state. "No difference measured": the interval holds 1×.', '');
  table(...pairTable());
  md.push('');
}

// ---- plot: latency CDFs of workload 2 ----
const plotDir = join(raw, 'plot');
mkdirSync(plotDir, { recursive: true });
const panels = [];
for (const s of ['c', 'ts', 'http', 'sse']) {
  const series = [];
  for (const c of [...CLIENTS, 'none']) {
    const files = existsSync(join(raw, 'lat'))
      ? readdirSync(join(raw, 'lat')).filter((f) => f.startsWith(`seq-${s}-${c}-`))
      : [];
    const xs = files.flatMap((f) => readFileSync(join(raw, 'lat', f), 'utf8').split('\n').filter(Boolean).map(Number))
      .filter((x) => x > 0).sort((a, b) => a - b);
    if (!xs.length) continue;
    const pts = [];
    const steps = Math.min(1000, xs.length);
    for (let i = 1; i <= steps; i++) {
      const k = Math.min(xs.length - 1, Math.ceil((i / steps) * xs.length) - 1);
      pts.push(`${xs[k]} ${(k + 1) / xs.length}`);
    }
    const f = join(plotDir, `seq-${s}-${c}.dat`);
    writeFileSync(f, pts.join('\n') + '\n');
    series.push({ c, f });
  }
  if (series.length) panels.push({ s, series });
}
const png = join(RESULTS, `latency-${stem}.png`);
let plotted = false;
try {
  const colors = { mcphost: '#1b7837', sdk1: '#c51b7d', sdk2: '#2166ac', candidate: '#e08214', none: '#999999' };
  const gp = [
    `set terminal pngcairo size 1400,1000 font "DejaVu Sans,11"`,
    `set output '${png}'`,
    `set multiplot layout 2,2 title "Sequential tools/call echo latency, ${machine.seq_calls} calls × ${machine.runs} runs per client (${date})"`,
    'set logscale x', 'set grid', 'set key bottom right', 'set xlabel "latency (µs, log scale)"',
    'set ylabel "fraction of calls ≤ x"', 'set yrange [0:1]', 'set xrange [5:100000]',
    ...panels.flatMap(({ s, series }) => [
      `set title "${SERVER_NAME[s]}"`,
      'plot ' + series.map(({ c, f }) => `'${f}' using 1:2 with lines lw 2 ${c === 'none' ? 'dt 2 ' : ''}lc rgb '${colors[c]}' title '${c === 'none' ? 'no client (server alone)' : c}'`).join(', '),
    ]),
    'unset multiplot',
  ].join('\n');
  writeFileSync(join(plotDir, 'latency.gp'), gp + '\n');
  execFileSync('gnuplot', [join(plotDir, 'latency.gp')], { stdio: 'inherit' });
  plotted = true;
} catch (e) {
  console.error(`report: no plot (${e.message})`);
}
if (!plotted) md.splice(md.indexOf(`![latency distributions](latency-${stem}.png)`), 1);

// The newest run of bench/bundles.sh (run alone: a bundle install against
// `mcpb unpack`): its first table, linked.
function bundlesTable() {
  const f = readdirSync(RESULTS).filter((n) => /^bundles-\d{4}-\d\d-\d\d\.md$/.test(n)).sort().pop();
  if (!f) return [];
  const lines = readFileSync(join(RESULTS, f), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return [`Bundle install against \`mcpb unpack\` (\`bench/bundles.sh\`, run alone: [results/${f}](results/${f})):`, '',
    ...lines.slice(start, end < 0 ? undefined : end), ''];
}

// ---- write ----
const mdText = md.join('\n') + '\n';
writeFileSync(join(RESULTS, `${stem}.md`), mdText);
writeFileSync(join(RESULTS, `${stem}.csv`), csv.join('\n') + '\n');

// The README's latest table: the targets and the main figures.
const readme = join(BENCH, 'README.md');
if (!variant && existsSync(readme)) {
  const text = readFileSync(readme, 'utf8');
  const begin = '<!-- bench:latest:begin -->';
  const end = '<!-- bench:latest:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) {
    const latest = [
      begin,
      `Run of ${date} on ${machineLine}. Load average (1, 5, 15 min) at the start ${machine.load_start ?? '?'}, ` +
        `at the end ${machine.load_end ?? '?'}. Full tables: [results/${stem}.md](results/${stem}.md).`,
      '',
      hasCand ? '| target (vs TS SDK 1.x) | goal | mcphost | per run | | candidate | per run | |'
        : '| target (mcphost vs TS SDK 1.x) | goal | median | per run | |',
      hasCand ? '|---|---|---|---|---|---|---|---|' : '|---|---|---|---|---|',
      ...targetRows,
      '',
      `| figure (median) | ${CLIENTS.join(' | ')} |`,
      `|---|${CLIENTS.map(() => '---').join('|')}|`,
      ...[
        ['cold command wall, C server (ms)', (c) => fmt(med('cold', 'c', c, 'wall_ms'))],
        ['cold command peak RSS, C server (MiB)', (c) => fmt(mib(med('cold', 'c', c, 'rss_kb')), 1)],
        ['cold command peak RSS, a name that needs ICU (MiB)', (c) => fmt(mib(med('cold', 'icu', c, 'rss_kb')), 1)],
        ...['c', 'ts', 'http', 'sse'].flatMap((s) => [
          [`echo p50 / p99, ${SERVER_NAME[s]} (µs)`, (c) => `${fmt(med('seq', s, c, 'lat_p50_us'))} / ${fmt(med('seq', s, c, 'lat_p99_us'))}`],
          [`client CPU per call, ${SERVER_NAME[s]} (µs)`, (c) => fmt(med('seq', s, c, 'cpu_per_call_us'))],
        ]),
        [`calls/s with ${machine.conc_inflight} in flight, C server`, (c) => fmt(med('conc', 'c', c, 'calls_per_s'), 0)],
        [`calls/s with ${machine.conc_inflight} in flight, TS server HTTP`, (c) => fmt(med('conc', 'http', c, 'calls_per_s'), 0)],
        ['client CPU per call, C server, stdio, ÷ the relay that does nothing (waiting in epoll)', (c) => fx(ratio(med('seq', 'c', c, 'cpu_per_call_us'),
          median(relayRows().map((x) => x.cpu_per_call_us))))],
        ['peak RSS, one C server (MiB)', (c) => fmt(mib(med('seq', 'c', c, 'rss_kb')), 1)],
        ['peak RSS, one C server, non-ASCII names in NFKC (MiB)', (c) => fmt(mib(med('seq', 'intl', c, 'rss_kb')), 1)],
        ['peak RSS, one C server, a name that needs ICU (MiB)', (c) => fmt(mib(med('seq', 'icu', c, 'rss_kb')), 1)],
        ['client CPU per call, WebSocket (µs)', (c) => fmt(med('seq', 'ws', c, 'cpu_per_call_us'))],
        ['peak RSS, one WebSocket server (MiB)', (c) => fmt(mib(med('seq', 'ws', c, 'rss_kb')), 1)],
        ['10 MiB result wall, C server (ms)', (c) => fmt(med('big', 'c', c, 'wall_ms'))],
        ['10 MiB result, wall added to the server alone (ms)', (c) => fmt(med('big', 'c', c, 'wall_ms') - med('big', 'c', 'none', 'wall_ms'))],
        ['10 MiB result peak RSS (MiB)', (c) => fmt(mib(med('big', 'c', c, 'rss_kb')), 1)],
        [`${machine.many} C servers listed, wall (ms)`, (c) => fmt(med('many', 'c', c, 'wall_ms'))],
        [`${machine.many} C servers, peak RSS (MiB)`, (c) => fmt(mib(med('many', 'c', c, 'rss_kb')), 1)],
      ].map(([name, f]) => `| ${name} | ${CLIENTS.map(f).join(' | ')} |`),
      `| all plugins loaded (ms) | ${CLIENTS.map((c) => (pick('plugins', '-', c).length ? fmt(med('plugins', '-', c, 'total_ms'), 2) : '')).join(' | ')} |`,
      '',
      ...(haveWhole ? (() => {
        const [head, body] = wholeTable();
        return ['Whole commands (section 9 of the full tables):', '', `| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`,
          ...body.map((r) => `| ${r.join(' | ')} |`), ''];
      })() : []),
      ...bundlesTable(),
      plotted ? `![latency distributions](results/latency-${stem}.png)` : '',
      end,
    ].join('\n');
    writeFileSync(readme, text.slice(0, i) + latest + text.slice(j + end.length));
  }
}
console.log(`report: ${join(RESULTS, `${stem}.md`)}`);
