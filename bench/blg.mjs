// Reading a binary perfmon log (.blg) in wasm, beside the PDH-CSV reader on the same data exported as CSV
// (what a Windows user would get from `relog log.blg -f csv`), in the same run.
// The log is synthetic but real in layout: PAL_SampleLog.blg's header, name table and definitions, then
// its 11 samples (whole objects: 1,832 series, 3 fragments each) repeated with time stamps moving on by
// 60 s per sample, re-packed into 64 KiB ETW buffers, until the file is about 200 MB.
// Run: node bench/blg.mjs [megabytes]   (after npm run build); BLG_OUT=file also writes the log there, for
// the native counterpart: cargo run --release --example blg_bench -- file
import { writeFileSync } from 'node:fs';
import { openCapture, CaptureReader } from 'counterlens';
import { syntheticBlg } from './data.mjs';

const TARGET = Number(process.argv[2] ?? 200) * 1e6;
const blg = syntheticBlg(TARGET);
if (process.env.BLG_OUT) writeFileSync(process.env.BLG_OUT, blg);
const probe = openCapture(blg);
const values = probe.sampleCount * probe.seriesCount;
console.log(`synthetic .blg: ${(blg.length / 1e6).toFixed(1)} MB, ${probe.sampleCount} samples x ${probe.seriesCount} series = ${(values / 1e6).toFixed(1)} M values (${(blg.length / values).toFixed(1)} bytes per value)`);
const csv = Buffer.from(probe.toCsv());
console.log(`the same as relog-style CSV: ${(csv.length / 1e6).toFixed(1)} MB (${(csv.length / values).toFixed(1)} bytes per value)`);
probe.free();

// The readers take turns (a warm-up each, then ROUNDS rounds of one run each), so a change in the
// machine's load during the run falls on all of them alike; each prints its median.
const ROUNDS = 5;
const ONE = '\\\\ZACH-PC\\Processor(_Total)\\% Processor Time';
const readers = [
  ['counterlens openCapture, .blg (wasm)', blg.length, () => { const c = openCapture(blg); const n = c.seriesCount; c.free(); return n; }],
  ['counterlens CaptureReader, .blg in 4 MiB slices (wasm)', blg.length, () => {
    const r = new CaptureReader({ size: blg.length });
    for (let i = 0; i < blg.length; i += 4 << 20) r.push(blg.subarray(i, i + (4 << 20)));
    const c = r.finish(); const n = c.seriesCount; c.free(); return n;
  }],
  // Raw samples kept (keepRaw): one series, as the viewer reads a .blg again for a click; then every series.
  ['  with keepRaw: [one path] (the viewer\'s re-read)', blg.length, () => { const c = openCapture(blg, { keepRaw: [ONE] }); const n = c.seriesCount; c.free(); return n; }],
  ['  with keepRaw: true (every series)', blg.length, () => { const c = openCapture(blg, { keepRaw: true }); const n = c.seriesCount; c.free(); return n; }],
  ['counterlens openCapture, the same data as PDH-CSV (wasm)', csv.length, () => { const c = openCapture(csv); const n = c.seriesCount; c.free(); return n; }],
];
const runs = readers.map(() => []);
readers.forEach(([, , fn]) => fn());
for (let round = 0; round < ROUNDS; round++) {
  readers.forEach(([, , fn], i) => {
    const t = performance.now();
    fn();
    runs[i].push(performance.now() - t);
  });
}
const results = readers.map(([name, bytes], i) => {
  const ms = runs[i].sort((x, y) => x - y)[ROUNDS >> 1];
  console.log(`${name.padEnd(56)} ${ms.toFixed(0).padStart(7)} ms ${(bytes / 1e6 / (ms / 1000)).toFixed(1).padStart(8)} MB/s ${(bytes / 1e6).toFixed(1).padStart(7)} MB   (runs ${runs[i].map((r) => r.toFixed(0)).join(' ')} ms)`);
  return { ms };
});
const [a, b] = [results[0], results[results.length - 1]];
console.log(`values per second: .blg ${(values / (a.ms / 1000) / 1e6).toFixed(1)} M/s, CSV ${(values / (b.ms / 1000) / 1e6).toFixed(1)} M/s; the .blg reads ${(b.ms / a.ms).toFixed(2)}x as fast`);
