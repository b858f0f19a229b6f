// What the gateway's test clients (gateway_client.mjs,
// gateway_client_2026.mjs) share: a step that keeps its value or its
// error in `out`, and a wait bounded by a count of turns.
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const text = (r) => (r.content || []).map((c) => c.text).join("");
export const error = (e) => ({ code: e.code, message: e.message, data: e.data });

// A step(key, f) that runs `f`, keeping its value or its error under
// `key` of `out`.
export function stepper(out) {
  return async (key, f) => {
    try {
      out[key] = await f();
    } catch (e) {
      out[key] = { error: error(e) };
    }
  };
}

// Waits (at most 200 turns of 50 ms) until `cond()` holds.
export async function until(cond) {
  for (let i = 0; i < 200 && !(await cond()); i++) await sleep(50);
  return await cond();
}
