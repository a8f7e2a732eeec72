// Shared by the capture benchmarks: the median of three timed runs after a warm-up (V8's optimizing tiers
// for JS and wasm), printed with the throughput over `bytes`.
export function time(name, bytes, fn, width = 46) {
  fn();
  const runs = [];
  let out;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    out = fn();
    runs.push(performance.now() - t);
  }
  const ms = runs.sort((a, b) => a - b)[1];
  console.log(`${name.padEnd(width)} ${ms.toFixed(0).padStart(7)} ms ${(bytes / 1e6 / (ms / 1000)).toFixed(1).padStart(8)} MB/s ${(bytes / 1e6).toFixed(1).padStart(7)} MB`);
  return { out, ms };
}
