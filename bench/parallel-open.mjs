// Opening a big PDH-CSV in pieces read by workers side by side (openCaptureParallel) beside openCapture
// on the same bytes in the same run: 2, 4 and 8 workers, the first call (workers started) and warm calls,
// and where the time goes (cutting and copying the pieces, workers loading them, reading, the join).
// The figures depend on the machine's cores and its load: printed first; the CPU time of every thread is
// printed beside each, the work a reader costs whatever else runs. Results are checked equal to openCapture's.
// Run: node bench/parallel-open.mjs [rows]   (after npm run build)
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { openAsBlob, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openCapture, openCaptureParallel } from '../js/node.js';
import { joinCapturePieces } from '../pkg/counterlens.js';
import { readPieces } from '../js/parallel.js';
import { pdhCsv } from './data.mjs';

const COLS = 500;
const ROWS = Number(process.argv[2] ?? 20_000);
/** relog's dialect: every value quoted, 13 decimals, 1% " " gaps (bench/data.mjs), 1 s apart. */
const makeCsv = () => new Uint8Array(pdhCsv(COLS, ROWS, { gaps: true, values: 'clean' }));

const csv = makeCsv();
const MB = csv.length / 1e6;
console.log(`PDH-CSV: ${COLS} counters x ${ROWS} rows, ${MB.toFixed(1)} MB; node ${process.version}; ` +
  `${availableParallelism()} cores on this machine (more workers than cores share them), load average ` +
  `${loadavg()[0].toFixed(1)} at the start (other processes' share of those cores)`);

const row = (name, ms, extra = '') =>
  console.log(`${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms ${(MB / (ms / 1000)).toFixed(0).padStart(6)} MB/s${extra}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Same timestamps and values bit for bit, and the same notes. */
function same(a, b) {
  if (a.sampleCount !== b.sampleCount || a.seriesCount !== b.seriesCount || !bits(a.timestamps()).equals(bits(b.timestamps()))) return false;
  for (let i = 0; i < a.seriesCount; i++) if (!bits(a.values(i)).equals(bits(b.values(i)))) return false;
  return JSON.stringify(a.notes()) === JSON.stringify(b.notes());
}

/** CPU time of the whole process (every thread) in ms: the work a reader costs, whatever the load. */
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

const runs = [];
const cpus = [];
let reference = openCapture(csv); // warm-up, kept to check the parallel results against
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const c0 = cpu();
  openCapture(csv).free();
  runs.push(performance.now() - t);
  cpus.push(cpu() - c0);
}
const whole = median(runs);
row('openCapture (one thread)', whole, `  CPU ${cpus[runs.indexOf(whole)].toFixed(0)} ms`);

// The same file as a Blob (fs.openAsBlob, as a browser's File): each worker reads its own slice, so the
// page copies nothing.
const file = join(tmpdir(), `counterlens-parallel-${process.pid}.csv`);
writeFileSync(file, csv);
const blob = await openAsBlob(file);

let started = 0; // workers are kept for the next call: a first call starts only those it lacks
for (const [workers, input, kind] of [[2, csv], [4, csv], [8, csv], [2, blob, 'Blob'], [4, blob, 'Blob'], [8, blob, 'Blob']]) {
  const t = performance.now();
  const first = await openCaptureParallel(input, { workers });
  const cold = performance.now() - t;
  const ok = same(reference, first);
  first.free();
  const times = [];
  const parts = [];
  for (let i = 0; i < 3; i++) {
    const c0 = cpu();
    const t0 = performance.now();
    const read = await readPieces(input, { workers });
    const t1 = performance.now();
    const c = joinCapturePieces(read.results);
    const t2 = performance.now();
    c.free();
    times.push(t2 - t0);
    parts.push({ ...read.timings, join: t2 - t1, cpu: cpu() - c0 });
  }
  const ms = median(times);
  const p = parts[times.indexOf(ms)];
  row(`openCaptureParallel${kind ? ` (${kind})` : ''}, ${workers} workers`, ms, `  ${(whole / ms).toFixed(2)}x openCapture; first call ${cold.toFixed(0)} ms (${Math.max(0, workers - started)} workers started); equal: ${ok}`);
  started = Math.max(started, workers);
  console.log(`    cut ${p.cut.toFixed(0)} ms; then all copied, loaded and counted at ${p.load.toFixed(0)} ms, first piece read at ` +
    `${p.firstPiece.toFixed(0)} ms, all read at ${p.read.toFixed(0)} ms; join ${p.join.toFixed(0)} ms; CPU ${p.cpu.toFixed(0)} ms (all threads)`);
}
rmSync(file);
process.exit(0);
