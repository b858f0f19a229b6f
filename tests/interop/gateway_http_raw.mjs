// Raw streamable HTTP against a running `mcphost serve --http`
// (test_gateway_http.sh), for what the SDK's client does not show:
//   node gateway_http_raw.mjs resume URL
//     a call's SSE stream is dropped after its first progress event; a
//     GET with Last-Event-ID gets what followed, the answer included.
// Prints what it saw as one JSON object.
const [scenario, url] = process.argv.slice(2);
const out = {};
const base = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

async function initialize() {
  const r = await fetch(url, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0", id: 1, method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {},
        clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await r.text();
  const sid = r.headers.get("mcp-session-id");
  await fetch(url, {
    method: "POST",
    headers: { ...base, "Mcp-Session-Id": sid },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  return sid;
}

// Reads SSE events from a fetch body until `stop(event)` says so.
async function readEvents(body, stop) {
  const events = [];
  const reader = body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const raw = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const ev = { id: null, data: "" };
      for (const line of raw.split("\n")) {
        if (line.startsWith("id: ")) ev.id = line.slice(4);
        if (line.startsWith("data: ")) ev.data += line.slice(6);
      }
      if (ev.data) ev.msg = JSON.parse(ev.data);
      events.push(ev);
      if (stop(ev)) {
        await reader.cancel();
        return events;
      }
    }
  }
  return events;
}

if (scenario === "resume") {
  const sid = await initialize();
  const ac = new AbortController();
  const r = await fetch(url, {
    method: "POST",
    headers: { ...base, "Mcp-Session-Id": sid },
    signal: ac.signal,
    body: JSON.stringify({
      jsonrpc: "2.0", id: 7, method: "tools/call",
      params: { name: "mcp__every__trigger-long-running-operation",
        arguments: { duration: 1, steps: 5 }, _meta: { progressToken: "p" } },
    }),
  });
  out.type = r.headers.get("content-type");
  const first = await readEvents(r.body, (e) => e.msg?.method === "notifications/progress");
  ac.abort();
  const last = first[first.length - 1];
  out.first = { id: last.id, progress: last.msg.params.progress };
  const g = await fetch(url, {
    headers: { Accept: "text/event-stream", "Mcp-Session-Id": sid, "Last-Event-ID": last.id },
  });
  out.resume_status = g.status;
  const rest = await readEvents(g.body, (e) => e.msg?.id === 7);
  out.rest = rest.filter((e) => e.msg).map((e) => ({
    id: e.id, progress: e.msg.params?.progress ?? null, answered: e.msg.id === 7,
  }));
  out.answer = rest.find((e) => e.msg?.id === 7)?.msg?.result?.content?.[0]?.text ?? null;
  // The stream is delivered: nothing is left to resume.
  const again = await fetch(url, {
    headers: { Accept: "text/event-stream", "Mcp-Session-Id": sid,
      "Last-Event-ID": rest[rest.length - 1].id },
  });
  out.again_status = again.status;
}
process.stdout.write(JSON.stringify(out) + "\n");
