// The viewer's reading Worker's warm-up, run while the user picks a file (viewer/worker.js, started at page
// load by viewer/reading.js): a few small reads of a relog-shaped PDH-CSV (made here) and of a .blg (warm-up.blg, the
// first five 64 KiB buffers of PAL's sample log: whole-object samples of 1,804 series), so V8 has
// compiled the readers' hot functions with its optimizing tier (TurboFan) before the user's file comes.
// Without it the first file runs on the baseline tier (Liftoff) until those compiles finish, and a
// 10 MB file's first open took 2-4x its fifth (docs/performance.md, "The first open"). Each read is its
// own task, and `stop()` is asked between them, so a file dropped at once waits for one small read at
// most. It is no part of the viewer (no DOM): Workers load it; it imports the package's core only.
import { openCapture, CaptureReader } from './core.js';

/** The .blg read by the warm-up, next to this module. */
const WARM_UP_BLG = new URL('./warm-up.blg', import.meta.url);

/** A relog-shaped PDH-CSV: `cols` counters x `rows` rows of the value kinds relog writes (20 significant
 *  digits, integers, latencies, a blank cell now and then), quoted, CRLF. Deterministic. */
export function warmUpCsv(cols = 60, rows = 300) {
  let seed = 11;
  const r = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const kinds = [(x) => (x * 100).toPrecision(20), (x) => (x * 20000).toPrecision(20), (x) => String(Math.round(x * 8e9)),
    (x) => (Math.round(x * 500000) / 1e7).toPrecision(20), (x) => String(Math.round(x * 5000))];
  const paths = Array.from({ length: cols }, (_, c) => `"\\\\WARM\\Process(p#${c})\\Counter ${c}"`);
  const lines = [`"(PDH-CSV 4.0) (UTC)(0)",${paths.join(',')}`];
  for (let k = 0; k < rows; k++) {
    const s = k % 60, m = Math.floor(k / 60) % 60;
    const cells = paths.map((_, c) => (r() < 0.01 ? '" "' : `"${kinds[c % kinds.length](r())}"`));
    lines.push(`"11/22/2026 09:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000",${cells.join(',')}`);
  }
  return new TextEncoder().encode(lines.join('\r\n') + '\r\n');
}

const task = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Warms the readers: `rounds` reads each of the CSV (through openCapture and through CaptureReader in
 * 64 KiB pushes, as the viewer's worker reads a File in slices) and of the .blg (fetched next to this
 * module; skipped when it cannot be). Resolves to `{ ms, reads }`; stops early when `stop()` says so.
 */
export async function warmUp({ stop = () => false, rounds = 4, blgUrl = WARM_UP_BLG } = {}) {
  const t0 = performance.now();
  const csv = warmUpCsv();
  const blg = await fetch(blgUrl).then((r) => (r.ok ? r.arrayBuffer() : null), () => null).then((b) => b && new Uint8Array(b));
  const steps = [];
  for (let k = 0; k < rounds; k++) {
    for (const bytes of blg ? [csv, blg] : [csv]) {
      steps.push(() => openCapture(bytes).free());
      steps.push(() => {
        const reader = new CaptureReader({ size: bytes.length });
        try {
          for (let at = 0; at < bytes.length; at += 1 << 16) reader.push(bytes.subarray(at, at + (1 << 16)));
          reader.finish().free();
        } finally {
          reader.free();
        }
      });
    }
  }
  let reads = 0;
  for (const step of steps) {
    if (stop()) break;
    try {
      step();
    } catch {
      // A warm-up read that fails (it should not) only warms less.
    }
    reads++;
    await task();
  }
  return { ms: performance.now() - t0, reads };
}
