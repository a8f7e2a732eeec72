// Analysis speed: one day at 10 s (8,640 samples) x 400 series = 3.5 M values, analysed with every
// built-in pack (the default of `analyze`), beside a straightforward JS implementation of the same slice
// statistics (per series and slice min/avg/max/count, then the trend of the slice averages) in the same run.
// The series are the counters the built-in packs read, with as many instances as it takes to make 400.
// Run: node bench/analysis.mjs   (after npm run build)
import { Capture, analyze, rulePacks, rulePack } from 'counterlens';
import { analysisParts, derivedPack, SAMPLES, SERIES } from './analysis-data.mjs';

const api = { Capture, rulePacks, rulePack };
const parts = analysisParts(api);
const { timestamps, series } = parts;
const capture = Capture.fromParts(parts);

/** The peer: what a JS programmer would write for PAL's slice statistics. */
function jsSliceStats(timestamps, columns, slices = 30) {
  const from = timestamps[0], to = timestamps[timestamps.length - 1];
  const len = (to - from) / slices;
  const out = [];
  for (const values of columns) {
    const min = new Array(slices).fill(Infinity), max = new Array(slices).fill(-Infinity);
    const sum = new Array(slices).fill(0), count = new Array(slices).fill(0);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (Number.isNaN(v)) continue;
      const s = Math.min(Math.floor((timestamps[i] - from) / len), slices - 1);
      if (v < min[s]) min[s] = v;
      if (v > max[s]) max[s] = v;
      sum[s] += v;
      count[s]++;
    }
    const avg = sum.map((x, s) => (count[s] ? x / count[s] : NaN));
    // Trend: least-squares slope of the averages of slices 0..s, per hour.
    const trend = [];
    let n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (let s = 0; s < slices; s++) {
      if (!Number.isNaN(avg[s])) {
        const x = ((s + 0.5) * len) / 3_600_000;
        n++; sx += x; sy += avg[s]; sxx += x * x; sxy += x * avg[s];
      }
      const d = n * sxx - sx * sx;
      trend.push(n >= 2 && d > 0 ? (n * sxy - sx * sy) / d : NaN);
    }
    out.push({ min, avg, max, count, trend });
  }
  return out;
}

/** Both contenders in turn, `rounds` times after two warm-ups each (V8's optimizing tiers for JS and
 *  wasm): the machine's load falls on both alike. Median and fastest of each, and the first call of each
 *  (the one a user waits for: this process has run nothing of it before; the contenders' first calls come
 *  in the order listed, so a later one finds the module's shared code already compiled). */
function race(contenders, rounds = 15) {
  for (const c of contenders) {
    const a = performance.now();
    c.fn();
    c.first ??= performance.now() - a;
    c.fn(); c.times = [];
  }
  for (let i = 0; i < rounds; i++) {
    for (const c of contenders) {
      const a = performance.now();
      c.out = c.fn();
      c.times.push(performance.now() - a);
    }
  }
  for (const c of contenders) {
    c.times.sort((x, y) => x - y);
    c.median = c.times[rounds >> 1];
    c.min = c.times[0];
  }
}

const values = SAMPLES * SERIES;
const columns = series.map((s) => s.values);
const ours = { name: 'counterlens analyze (wasm, whole analysis)', fn: () => analyze(capture) };
// The same work as the peer: a rule that selects every series (`(*)` matches paths without an instance
// too) and never breaks, so the time is the slice statistics (and the trend) of all 400 series.
const statsOnly = {
  id: 'stats-only', title: 'Slice statistics only',
  rules: [{ id: 'all', title: 'all', counter: '\\*(*)\\*', kind: 'static', severity: 'warning', operator: 'gt', threshold: 1e300 }],
};
const stats = { name: 'counterlens analyze, slice statistics only', fn: () => analyze(capture, { packs: [statsOnly] }) };
const peer = { name: 'peer: JS slice statistics only', fn: () => jsSliceStats(timestamps, columns) };
const all = [...rulePacks().map((p) => p.id), derivedPack];
// The first analysis of this process, before anything below calls `analyze`.
{ const a = performance.now(); analyze(capture); ours.first = performance.now() - a; }
let hasDerived = true;
try { analyze(capture, { packs: all }); } catch { hasDerived = false; } // a core without derived series
const withDerived = { name: 'counterlens analyze, all packs + derived series', fn: () => analyze(capture, { packs: all }) };
const contenders = hasDerived ? [ours, withDerived, stats, peer] : [ours, stats, peer];
race(contenders);
const covered = stats.out.rules.reduce((n, r) => n + r.series, 0);
if (covered !== SERIES) throw new Error(`the statistics-only pack read ${covered} series`);
// The peer is honest: its counts add up to the values present.
const present = columns.reduce((n, c) => n + c.filter((v) => !Number.isNaN(v)).length, 0);
const counted = peer.out.reduce((n, s) => n + s.count.reduce((a, b) => a + b, 0), 0);
if (present !== counted) throw new Error(`peer counted ${counted} of ${present}`);

const ran = ours.out.rules.filter((r) => !r.skipped);
const packs = new Set(ran.map((r) => r.pack));
console.log(`analysis: ${SERIES} series x ${SAMPLES} samples = ${(values / 1e6).toFixed(2)} M values, ${packs.size} packs, ` +
  `${ran.length} rules ran (${ours.out.rules.length - ran.length} skipped), ${ours.out.findings.length} findings`);
console.log(`${''.padEnd(48)} ${'first'.padStart(9)} ${'median'.padStart(9)} ${'fastest'.padStart(9)}  M values/s (median)`);
if (hasDerived) {
  const d = withDerived.out.rules.find((r) => r.pack === 'derived-bench');
  console.log(`derived series: ${d.series} series ran the derived-series rule`);
}
for (const c of contenders) {
  console.log(`${c.name.padEnd(48)} ${c.first.toFixed(1).padStart(6)} ms ${c.median.toFixed(1).padStart(6)} ms ${c.min.toFixed(1).padStart(6)} ms  ${(values / 1e6 / (c.median / 1000)).toFixed(0).padStart(5)}`);
}
console.log(`whole analysis: ${(peer.median / ours.median).toFixed(1)}x the JS peer (median), ${(peer.min / ours.min).toFixed(1)}x (fastest); ` +
  `statistics alone: ${(peer.median / stats.median).toFixed(1)}x (median), ${(peer.min / stats.min).toFixed(1)}x (fastest)`);
