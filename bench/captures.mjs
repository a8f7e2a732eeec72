// Reading captures: counterlens (wasm) beside JS readers in the same run, on the same bytes, each
// producing one f64 column per counter. Text decoding is part of every JS contender's time, since all
// start from bytes, as a file read gives them.
//   1. PDH files of 500 counters x 10,000 rows (bench/data.mjs):
//      a. relog-shaped CSV: values written as relog writes them (20 significant digits, integers for
//         counts and bytes; the rule is in bench/data.mjs), about 93 MB;
//      b. the same as PDH-TSV (relog -f tsv);
//      c. clean CSV: every value with 13 decimals (15 significant digits), about 95 MB;
//      d. (with --gapped) 20,000 rows of clean values with 1 % " " gaps (about 190 MB).
//      Contenders: counterlens openCapture, and CaptureReader fed 4 MiB pushes; PapaParse (dynamicTyping);
//      uDSV (typed columns); a hand-written split-and-parseFloat loop. They take turns: a first call each
//      (the "first" column), then ROUNDS rounds of one call each, the median printed, so a change in the
//      machine's load falls on all alike. Cold: the first call of each in a fresh Node process.
//   2. The real public logs (tests/vectors/captures/*.blg, the files of /work/shared/data): read as .blg,
//      and their values written out as a relog-shaped PDH-CSV read by every contender.
//   3. A Get-Counter JSON of 1 million samples: counterlens (exact 64-bit raw values, cooked by the core)
//      beside JSON.parse plus a JS cooking loop (raw values through doubles).
// Run: node bench/captures.mjs [rows]   (after npm run build); --only relog|tsv|clean|gapped|real|json runs
// one part, --no-<part> leaves one out; --no-cold leaves out the fresh processes; --gapped adds 1d.
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { pdhCsv, getCounterJson, relog } from './data.mjs';
import { openCapture, CaptureReader, initSync } from 'counterlens';

const COLS = 500;
const ROUNDS = 5;
const args = process.argv.slice(2).filter((a) => !a.startsWith('--') && !/^(relog|tsv|clean|gapped|real|json)$/.test(a));
const ROWS = Number(args[0] ?? 10_000);
const flag = (f) => process.argv.includes(f);
const only = flag('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const runs = (part) => (only ? only === part : (part !== 'gapped' || flag('--gapped')) && !flag(`--no-${part}`));
const mb = (n) => n / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const memory = initSync({ module: new Uint8Array() }).memory; // already initialised: returns the instance

/** Every value column of a capture, as Float64Arrays; the capture is freed. */
function columnsOf(c) {
  const cols = Array.from({ length: c.seriesCount }, (_, i) => c.values(i));
  c.free();
  return cols;
}

/** Streams `bytes` through CaptureReader in 4 MiB pushes, as the viewer reads a File. */
function stream(bytes) {
  const r = new CaptureReader({ size: bytes.length });
  for (let at = 0; at < bytes.length; at += 4 << 20) r.push(bytes.subarray(at, at + (4 << 20)));
  return r.finish();
}

/** The contenders, each from bytes to one Float64Array per counter. `tsv`: tab-separated. */
function contenders(tsv) {
  const sep = tsv ? '\t' : ',';
  return {
    'counterlens openCapture (wasm)': (b) => columnsOf(openCapture(b)),
    'counterlens CaptureReader, 4 MiB pushes': (b) => columnsOf(stream(b)),
    'PapaParse 5.7 (dynamicTyping)': (b) => {
      const text = new TextDecoder().decode(b);
      const rows = Papa.parse(text, { dynamicTyping: true, skipEmptyLines: true, delimiter: sep }).data;
      const n = rows[0].length - 1;
      const cols = Array.from({ length: n }, () => new Float64Array(rows.length - 1));
      for (let r = 1; r < rows.length; r++) {
        for (let c = 0; c < n; c++) {
          const v = rows[r][c + 1];
          cols[c][r - 1] = typeof v === 'number' ? v : NaN;
        }
      }
      return cols;
    },
    'uDSV 0.7 (typed columns)': (b) => {
      const text = new TextDecoder().decode(b);
      const schema = inferSchema(text, { col: sep });
      const parser = initParser(schema);
      const cols = parser.typedCols(text);
      return cols.slice(1).map((col) => Float64Array.from(col, (v) => (typeof v === 'number' ? v : NaN)));
    },
    'JS split-and-parseFloat loop': (b) => {
      const text = new TextDecoder().decode(b);
      const lines = text.split('\r\n');
      const n = lines.length - 2; // header, and the empty string after the last line end
      const quoted = `"${sep}"`;
      const width = lines[0].split(quoted).length - 1;
      const cols = Array.from({ length: width }, () => new Float64Array(n));
      for (let r = 0; r < n; r++) {
        const cells = lines[r + 1].split(quoted);
        for (let c = 0; c < width; c++) {
          const v = cells[c + 1];
          cols[c][r] = v === ' ' || v === ' "' ? NaN : parseFloat(v);
        }
      }
      return cols;
    },
  };
}

/** Counts the values of `theirs` that differ from `ours` (NaN = NaN). */
function wrongValues(ours, theirs) {
  let wrong = 0;
  for (let c = 0; c < ours.length; c++) {
    for (let r = 0; r < ours[c].length; r++) {
      const a = ours[c][r], b = theirs[c]?.[r];
      if (!(Number.isNaN(a) && Number.isNaN(b)) && a !== b) wrong++;
    }
  }
  return wrong;
}

// A child process: one call of one contender on one file, cold (nothing of it run before in this process).
if (flag('--cold')) {
  const [, file, name, tsv] = process.argv.slice(process.argv.indexOf('--cold'));
  const bytes = readFileSync(file);
  const fn = contenders(tsv === 'tsv')[name];
  const t = performance.now();
  fn(bytes);
  console.log(JSON.stringify({ ms: performance.now() - t }));
  process.exit(0);
}

// Peak memory is measured alone, in a fresh process: wasm memory only grows, so it is the peak.
if (flag('--memory')) {
  const c = stream(readFileSync(process.argv[process.argv.indexOf('--memory') + 1]));
  console.log(JSON.stringify({ wasm: memory.buffer.byteLength, columns: c.seriesCount * c.sampleCount * 8 }));
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'counterlens-bench-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const self = new URL(import.meta.url).pathname;
const load = () => `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
console.log(`node ${process.version}; ${load()} at the start (2 cores: other processes' share of them)`);

/** Every contender on `bytes`: a first call each, ROUNDS rounds in turn, fresh-process cold calls;
 *  prints the table, the wrong values and the ratios; returns the medians. `repeat`: calls per timing
 *  (small files). */
function round(label, bytes, { tsv = false, cold = !flag('--no-cold'), repeat = 1 } = {}) {
  console.log(`\n${label}: ${mb(bytes.length).toFixed(1)} MB; ${load()}`);
  const fns = contenders(tsv);
  const names = Object.keys(fns);
  const first = {}, times = Object.fromEntries(names.map((n) => [n, []])), out = {};
  const timeOnce = (n) => {
    const t = performance.now();
    for (let k = 0; k < repeat; k++) out[n] = fns[n](bytes);
    return (performance.now() - t) / repeat;
  };
  for (const n of names) first[n] = timeOnce(n);
  for (let r = 0; r < ROUNDS; r++) for (const n of names) times[n].push(timeOnce(n));
  const coldMs = {};
  if (cold) {
    const file = join(scratch, 'input');
    writeFileSync(file, bytes);
    for (const n of names) {
      coldMs[n] = JSON.parse(execFileSync(process.execPath, [self, '--cold', file, n, tsv ? 'tsv' : 'csv'], { encoding: 'utf8' })).ms;
    }
  }
  const rate = (ms) => (mb(bytes.length) / (ms / 1000)).toFixed(0).padStart(6);
  console.log(`${'contender'.padEnd(42)} ${'median'.padStart(9)} ${'MB/s'.padStart(6)} | ${'first'.padStart(7)} ${'MB/s'.padStart(6)}` +
    (cold ? ` | ${'cold'.padStart(7)} ${'MB/s'.padStart(6)}` : ''));
  const med = {};
  for (const n of names) {
    med[n] = median(times[n]);
    console.log(`${n.padEnd(42)} ${med[n].toFixed(1).padStart(9)} ${rate(med[n])} | ${first[n].toFixed(0).padStart(7)} ${rate(first[n])}` +
      (cold ? ` | ${coldMs[n].toFixed(0).padStart(7)} ${rate(coldMs[n])}` : ''));
  }
  const [ours, streamed, papa, udsv, loop] = names;
  console.log(`  values that differ from counterlens: PapaParse ${wrongValues(out[ours], out[papa])}, uDSV ${wrongValues(out[ours], out[udsv])}, ` +
    `JS loop ${wrongValues(out[ours], out[loop])}, CaptureReader ${wrongValues(out[ours], out[streamed])}`);
  for (const n of [ours, streamed]) {
    const x = (other) => (med[other] / med[n]).toFixed(1);
    console.log(`  ${n.replace('counterlens ', '')}: ${x(udsv)}x uDSV, ${x(papa)}x PapaParse, ${x(loop)}x the JS loop (medians, same run)` +
      (cold ? `; cold: ${(coldMs[udsv] / coldMs[n]).toFixed(1)}x uDSV, ${(coldMs[papa] / coldMs[n]).toFixed(1)}x PapaParse` : ''));
  }
  return med;
}

const relogCsv = () => pdhCsv(COLS, ROWS);
if (runs('relog')) round(`PDH-CSV, relog-shaped values (20 significant digits, integers): ${COLS} counters x ${ROWS} rows`, relogCsv());
if (runs('tsv')) round(`PDH-TSV, relog-shaped values: ${COLS} counters x ${ROWS} rows`, pdhCsv(COLS, ROWS, { tsv: true }), { tsv: true });
if (runs('clean')) round(`PDH-CSV, clean values (13 decimals, 15 significant digits): ${COLS} counters x ${ROWS} rows`, pdhCsv(COLS, ROWS, { values: 'clean' }));
if (runs('gapped')) {
  const gapped = pdhCsv(COLS, 2 * ROWS, { gaps: true, blankFirstRow: true, values: 'clean' });
  round(`PDH-CSV, clean values, 1 % " " gaps: ${COLS} counters x ${2 * ROWS} rows`, gapped, { cold: false });
  const file = join(scratch, 'gapped');
  writeFileSync(file, gapped);
  const m = JSON.parse(execFileSync(process.execPath, [self, '--memory', file], { encoding: 'utf8' }));
  console.log(`  peak wasm memory streaming (fresh process): ${mb(m.wasm).toFixed(0)} MB for ${mb(m.columns).toFixed(0)} MB of f64 columns ` +
    `(${(m.wasm / m.columns).toFixed(2)}x; it includes the module's own memory)`);
}

// ---- The real public logs: .blg as they are, and their values as a relog-shaped PDH-CSV --------------
if (runs('real')) {
  for (const name of ['BasicPerfCounters.blg', 'PAL_SampleLog.blg']) {
    const blg = readFileSync(new URL(`../tests/vectors/captures/${name}`, import.meta.url));
    const c = openCapture(blg);
    const values = c.seriesCount * c.sampleCount;
    // relog's CSV of the log: its header, each row's local time, every value written as relog writes it.
    const lines = c.toCsv().split('\r\n');
    const csv = Buffer.from(lines.map((line, i) => (i === 0 || !line ? line : line.split('","').map((cell, k, all) => {
      if (k === 0) return cell;
      const last = k === all.length - 1;
      const text = last ? cell.slice(0, -1) : cell;
      return (text === ' ' ? text : relog(Number(text))) + (last ? '"' : '');
    }).join('","'))).join('\r\n'));
    c.free();
    const n = 200;
    const times = [];
    for (let r = 0; r <= ROUNDS; r++) {
      const t = performance.now();
      for (let k = 0; k < n; k++) openCapture(blg).free();
      if (r > 0) times.push((performance.now() - t) / n);
    }
    const ms = median(times);
    console.log(`\n${name} (public, unchanged): ${(blg.length / 1e3).toFixed(0)} KB, ${values} values; openCapture ${ms.toFixed(2)} ms ` +
      `= ${(mb(blg.length) / (ms / 1000)).toFixed(0)} MB/s, ${(values / 1e3 / ms).toFixed(1)} M values/s (median of ${ROUNDS} x ${n} calls; ${load()})`);
    round(`${name}'s values as relog-shaped PDH-CSV`, csv, { cold: false, repeat: 20 });
  }
}

// ---- Get-Counter JSON: 5,000 sample sets x 200 counters = 1,000,000 samples --------------------------
if (runs('json')) {
  const SETS = 5000, PER = 200;
  const gc = getCounterJson(SETS, PER);
  console.log(`\nGet-Counter JSON: ${SETS} sample sets x ${PER} counters = ${SETS * PER} samples, ${mb(gc.length).toFixed(1)} MB; ${load()}`);
  const fns = {
    'counterlens openCapture (wasm, exact u64)': () => columnsOf(openCapture(gc)),
    'JSON.parse + JS cooking (raw values as doubles)': () => {
      const sets = JSON.parse(new TextDecoder().decode(gc));
      const cols = Array.from({ length: PER }, () => new Float64Array(SETS).fill(NaN));
      for (let k = 1; k < sets.length; k++) {
        for (let i = 0; i < PER; i++) {
          const a = sets[k - 1].CounterSamples[i], b = sets[k].CounterSamples[i];
          cols[i][k] = (100 * (b.RawValue - a.RawValue)) / (b.SecondValue - a.SecondValue);
        }
      }
      return cols;
    },
  };
  const times = Object.fromEntries(Object.keys(fns).map((n) => [n, []]));
  const out = {};
  for (let r = 0; r <= 3; r++) {
    for (const [n, fn] of Object.entries(fns)) {
      const t = performance.now();
      out[n] = fn();
      if (r > 0) times[n].push(performance.now() - t);
    }
  }
  for (const n of Object.keys(fns)) {
    const ms = median(times[n]);
    console.log(`${n.padEnd(48)} ${ms.toFixed(0).padStart(7)} ms ${(mb(gc.length) / (ms / 1000)).toFixed(1).padStart(8)} MB/s`);
  }
  const [ours, js] = Object.keys(fns);
  console.log(`  wrong values vs counterlens: JSON.parse path ${wrongValues(out[ours], out[js])} of ${SETS * PER} (100 ns time stamps beyond 2^53)`);
}
