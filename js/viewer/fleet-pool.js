// The fleet view's pool of Workers (fleet-worker.js): min(hardwareConcurrency, 4) of them, each given one
// log at a time from the queue; what comes back is the log's runs (small) or its error, never a capture.
// `onDone` is told after each log (read or failed; with the size of its Worker's wasm memory), so the page counts "37 of 200 logs read"; a failed
// log does not stop the rest. `cancel()` terminates every Worker at once (what is running is dropped)
// and settles the run with what was done so far.
import { errorFromData } from '../errors.js';

/** How many Workers: the cores the browser reports, at most 4 (each holds one log's columns). */
export function poolSize(cores = globalThis.navigator?.hardwareConcurrency) {
  return Math.max(1, Math.min(Number.isFinite(cores) ? cores : 2, 4));
}

/**
 * Reads and reduces `logs` (`[{ name, file }]`) in the pool.
 * @returns {{ done: Promise<{ cancelled: boolean }>, cancel(): void }}
 */
export function runPool(logs, { onDone, size = poolSize() } = {}) {
  const workers = [];
  let next = 0;
  let finished = 0;
  let settle;
  let over = false;
  const done = new Promise((resolve) => { settle = resolve; });
  const end = (cancelled) => {
    if (over) return;
    over = true;
    for (const w of workers) w.terminate();
    settle({ cancelled });
  };
  const give = (w) => {
    if (over) return;
    if (next >= logs.length) {
      w.terminate();
      if (finished === logs.length) end(false);
      return;
    }
    const id = next++;
    w.busy = id;
    w.postMessage({ id, blob: logs[id].file, name: logs[id].name });
  };
  const report = (w, id, result) => {
    if (over) return;
    finished++;
    onDone?.(logs[id], result, finished);
    give(w);
  };
  const spawn = () => {
    const w = new Worker(new URL('./fleet-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = ({ data }) => report(w, data.id, { ...(data.error ? { error: errorFromData(data.error) } : { runs: data.runs }), wasmBytes: data.wasmBytes });
    // A Worker that dies (out of memory on a huge log) fails its log; a new one takes the rest.
    w.onerror = (e) => {
      e.preventDefault?.();
      w.terminate();
      if (over) return;
      const fresh = spawn();
      workers[workers.indexOf(w)] = fresh;
      report(fresh, w.busy, { error: new Error(`the Worker reading it stopped (${e.message || 'out of memory?'})`) });
    };
    return w;
  };
  for (let k = 0; k < Math.min(size, logs.length); k++) workers.push(spawn());
  if (!logs.length) end(false);
  else for (const w of [...workers]) give(w);
  return { done, cancel: () => end(true) };
}
