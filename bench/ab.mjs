// Two builds of the wasm module side by side in one process, on the same bytes, runs interleaved
// (A, B, A, B, ...) so that a busy machine slows both alike: for checking that a change made for size
// does not cost speed. Each argument is a directory holding a wasm-bindgen --target web build
// (counterlens.js + counterlens_bg.wasm), e.g. a copy of pkg/ before the change and pkg/ after.
// Prints each reader's best time per build and B's speed relative to A.
//   node bench/ab.mjs /tmp/pkg-before pkg [rounds]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pdhCsv, getCounterJson } from './data.mjs';

const [dirA, dirB, roundsArg] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node bench/ab.mjs <build A dir> <build B dir> [rounds]');
  process.exit(2);
}
const rounds = Number(roundsArg ?? 5);

async function load(dir) {
  const glue = await import(pathToFileURL(resolve(dir, 'counterlens.js')).href);
  glue.initSync({ module: readFileSync(resolve(dir, 'counterlens_bg.wasm')) });
  return glue;
}
const builds = { A: await load(dirA), B: await load(dirB) };

// A Get-Counter JSON and a quoted PDH-CSV (bench/data.mjs), both about 30 MB.

const repo = new URL('..', import.meta.url);
const pal = readFileSync(new URL('tests/vectors/pal/SystemOverview.xml', repo), 'utf8');
const manifest = readFileSync(new URL('tests/vectors/registration/rich.man', repo));

const inputs = [
  ['Get-Counter JSON, 100,000 samples', getCounterJson(500, 200)],
  ['PDH-CSV, 500 counters x 3,000 rows, 13 decimals', pdhCsv(500, 3000, { values: 'clean' })],
  ['PDH-CSV, 500 counters x 3,000 rows, relog-shaped', pdhCsv(500, 3000)],
];
for (const [name, bytes] of inputs) {
  const best = { A: Infinity, B: Infinity };
  for (let r = 0; r <= rounds; r++) {
    for (const k of ['A', 'B']) {
      const t = performance.now();
      const c = builds[k].openCapture(bytes);
      const ms = performance.now() - t;
      c.free();
      if (r > 0) best[k] = Math.min(best[k], ms); // round 0 warms up
    }
  }
  const mbs = (ms) => (bytes.length / 1e6 / (ms / 1000)).toFixed(1);
  console.log(`${name} (${(bytes.length / 1e6).toFixed(1)} MB): A ${best.A.toFixed(1)} ms (${mbs(best.A)} MB/s), ` +
    `B ${best.B.toFixed(1)} ms (${mbs(best.B)} MB/s); B/A speed ${(best.A / best.B).toFixed(2)}`);
}

// .blg (the PAL sample log, read 20 times) and the analysis (bench/analysis.mjs's shape, smaller: 400
// series x 2,000 samples of the built-in packs' counters, every built-in pack).
const blg = readFileSync(new URL('tests/vectors/captures/PAL_SampleLog.blg', repo));
const counters = [...new Set(builds.A.rulePacks().flatMap((p) => builds.A.rulePack(p.id).rules.map((r) => r.counter)))];
const paths = [];
for (let k = 0; paths.length < 400; k++) {
  for (const c of counters) {
    if (paths.length >= 400) break;
    if (c.includes('(*)')) paths.push(`\\\\SRV${c.replace('(*)', `(${k === 0 ? '_Total' : `i${k}`})`)}`);
    else if (k === 0) paths.push(`\\\\SRV${c}`);
  }
}
let seed2 = 42;
const rand2 = () => ((seed2 = (seed2 * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const parts = {
  format: 'pdh-csv', encoding: 'UTF-8', timeZone: null, notes: [],
  timestamps: Float64Array.from({ length: 2000 }, (_, i) => Date.UTC(2026, 10, 20) + i * 10_000),
  series: paths.map((path) => ({ path, counterType: null, reference: null,
    values: Float64Array.from({ length: 2000 }, (_, i) => 50 * (1 + 0.3 * Math.sin(i / 500)) + rand2() * 5) })),
};
const analysed = { A: builds.A.Capture.fromParts(parts), B: builds.B.Capture.fromParts(parts) };

// Then cold paths, many times over: PAL threshold XML (roxmltree) and a manifest (roxmltree + the rules).
const cold = [
  ['.blg: PAL_SampleLog.blg x 20', (g) => { for (let i = 0; i < 20; i++) g.openCapture(blg).free(); }],
  ['analyze: 400 series x 2,000 samples, every built-in pack', (g) => g.analyze(g === builds.A ? analysed.A : analysed.B)],
  [`importPalThresholds(SystemOverview.xml) x 20`, (g) => { for (let i = 0; i < 20; i++) g.importPalThresholds(pal); }],
  [`validateRegistration(rich.man) x 500`, (g) => { for (let i = 0; i < 500; i++) g.validateRegistration(manifest); }],
];
for (const [name, fn] of cold) {
  const best = { A: Infinity, B: Infinity };
  for (let r = 0; r <= rounds; r++) {
    for (const k of ['A', 'B']) {
      const t = performance.now();
      fn(builds[k]);
      if (r > 0) best[k] = Math.min(best[k], performance.now() - t);
    }
  }
  console.log(`${name}: A ${best.A.toFixed(1)} ms, B ${best.B.toFixed(1)} ms; B/A speed ${(best.A / best.B).toFixed(2)}`);
}
