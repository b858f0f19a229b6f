// The Node.js counterpart of bench-floor-json: JSON.parse of the same
// 10 MiB message, the least a Node client must spend on it. Prints one
// JSON line: the median parse time of 5, and the peak RSS of the process.
const bytes = Number(process.argv[2] ?? 10 * 1024 * 1024);
const LINE = 'The quick brown fox jumps over the lazy dog; "quoted", tab\there.\n';
const whole = Math.floor(bytes / LINE.length);
const text = LINE.repeat(whole) + LINE.slice(0, bytes - whole * LINE.length);
const wire = JSON.stringify({ jsonrpc: '2.0', id: 102, result: { content: [{ type: 'text', text }] } });
const times = [];
for (let i = 0; i < 5; i++) {
  const t0 = process.hrtime.bigint();
  const m = JSON.parse(wire);
  times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (m.result.content[0].text.length !== bytes) process.exit(1);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({
  mode: 'floor_json_node', message_bytes: Buffer.byteLength(wire), text_bytes: bytes,
  parse_ms: Number(times[2].toFixed(3)), peak_rss_kb: process.resourceUsage().maxRSS,
}));
