// Cooking 10 million sample pairs of mixed types in Node through the wasm package's bulk API
// (cookSeries: one call per series), beside JS peers measured in the same run on the same data:
//   - JS BigInt: exact 64-bit subtraction per pair, then the formula in doubles (correct, like ours);
//   - JS Number: raw values read as doubles first (what JSON.parse would give): fast, and wrong
//     beyond 2^53, which is where 100 ns time stamps live.
// Run: node bench/cook-series.mjs   (after npm run build)
import { cookSeries } from 'counterlens';

const N = 2_000_000;
const TYPES = ['PERF_COUNTER_COUNTER', 'PERF_100NSEC_TIMER_INV', 'PERF_AVERAGE_BULK', 'PERF_COUNTER_RAWCOUNT', 'PERF_100NSEC_MULTI_TIMER'];
const F = 10_000_000n;

let seed = 0x2545f4914f6cdd1dn;
const rand = () => { seed ^= (seed << 13n) & 0xffffffffffffffffn; seed ^= seed >> 7n; seed ^= (seed << 17n) & 0xffffffffffffffffn; return seed; };
const series = TYPES.map((type) => {
  const value = new BigUint64Array(N), second = new BigUint64Array(N), multi = new BigUint64Array(N).fill(4n);
  let v = 1170374257812n, d = 130058022178447225n;
  for (let i = 0; i < N; i++) {
    const r = rand();
    d += 10_000_000n + (r % 1000n);
    v = i % 100_000 === 99_999 ? 0n : v + (r % 10_000_000n);
    value[i] = v; second[i] = d;
  }
  return { type, value, second, multi };
});

// The same five formulas in JS, with the status checks that make a value honest.
function jsBigInt({ type, value, second, multi }) {
  const out = new Float64Array(N);
  out[0] = NaN;
  const one = type === 'PERF_COUNTER_RAWCOUNT';
  if (one) out[0] = Number(value[0]);
  for (let i = 1; i < N; i++) {
    if (one) { out[i] = Number(value[i]); continue; }
    const n0 = value[i - 1], n1 = value[i], d0 = second[i - 1], d1 = second[i];
    if (n0 > n1 || d1 <= d0) { out[i] = NaN; continue; }
    const dn = Number(n1 - n0), dd = Number(d1 - d0);
    switch (type) {
      case 'PERF_COUNTER_COUNTER': out[i] = dn / (dd / Number(F)); break;
      case 'PERF_100NSEC_TIMER_INV': out[i] = Math.min(100, Math.max(0, 100 * (1 - dn / dd))); break;
      case 'PERF_AVERAGE_BULK': out[i] = dn / dd; break;
      default: out[i] = Math.min(100, Math.max(0, 100 * (dn / dd) / Number(multi[i])));
    }
  }
  return out;
}
const asNumbers = series.map((s) => ({ ...s, value: Float64Array.from(s.value, Number), second: Float64Array.from(s.second, Number), multi: Float64Array.from(s.multi, Number) }));
function jsNumber({ type, value, second, multi }) {
  const out = new Float64Array(N);
  out[0] = NaN;
  const one = type === 'PERF_COUNTER_RAWCOUNT';
  if (one) out[0] = value[0];
  for (let i = 1; i < N; i++) {
    if (one) { out[i] = value[i]; continue; }
    const dn = value[i] - value[i - 1], dd = second[i] - second[i - 1];
    if (dn < 0 || dd <= 0) { out[i] = NaN; continue; }
    switch (type) {
      case 'PERF_COUNTER_COUNTER': out[i] = dn / (dd / 1e7); break;
      case 'PERF_100NSEC_TIMER_INV': out[i] = Math.min(100, Math.max(0, 100 * (1 - dn / dd))); break;
      case 'PERF_AVERAGE_BULK': out[i] = dn / dd; break;
      default: out[i] = Math.min(100, Math.max(0, 100 * (dn / dd) / multi[i]));
    }
  }
  return out;
}

// Two untimed runs first: V8 runs wasm in its baseline tier until the optimizing compile finishes,
// and JS needs its own warm-up; every contender gets the same.
function time(name, fn, reps = 5) {
  const runs = [];
  let result;
  fn();
  fn();
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    result = fn();
    runs.push(performance.now() - t);
  }
  runs.sort((a, b) => a - b);
  const ms = runs[Math.floor(reps / 2)];
  console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms  ${((N * TYPES.length) / ms / 1e3).toFixed(1).padStart(7)} M pairs/s`);
  return result;
}

console.log(`cook ${N * TYPES.length / 1e6} M pairs of ${TYPES.length} types (median of 5 runs after 2 warm-ups), node ${process.version}`);
const ours = time('counterlens cookSeries (wasm, bulk)', () => series.map((s) => cookSeries(s.type, { value: s.value, second: s.second, frequency: F, multi: s.multi })));
const exact = time('peer: JS BigInt subtraction (exact)', () => series.map(jsBigInt));
const naive = time('peer: JS Number (inexact beyond 2^53)', () => asNumbers.map(jsNumber));

// Same answers? Ours and the exact JS agree; the Number path does not where the time stamps are large.
const differ = (a, b) => a.reduce((n, arr, k) => n + arr.reduce((m, v, i) => m + (!(Number.isNaN(v) && Number.isNaN(b[k][i])) && Math.abs(v - b[k][i]) > 1e-9 * Math.max(1, Math.abs(v)) ? 1 : 0), 0), 0);
console.log(`values differing from counterlens: JS BigInt ${differ(ours, exact)}, JS Number ${differ(ours, naive)} of ${N * TYPES.length}`);
