// Reading captures: counterlens (wasm) beside JS readers in the same run, on the same bytes, each
// producing one f64 column per counter.
//   1. Two PDH-CSVs of 500 counters, every value quoted with 13 decimals, as relog writes them:
//      a. clean: 10,000 rows, no blanks (about 97 MB), the case where uDSV is at its fastest;
//      b. gapped: 20,000 rows (about 200 MB) with 1 % " " gaps (no value), where uDSV slows down.
//      Each through counterlens openCapture and CaptureReader (4 MiB slices); PapaParse (dynamicTyping);
//      uDSV (typed columns); a hand-written split-and-parseFloat loop. Text decoding is part of every JS
//      contender's time, since all start from bytes, as a file read gives them.
//   2. A Get-Counter JSON of 1 million samples: counterlens (exact 64-bit raw values, cooked by the core)
//      beside JSON.parse plus a JS cooking loop (raw values through doubles).
// Run: node bench/captures.mjs [gapped rows] [clean rows]   (after npm run build); `--only clean` or
// `--only gapped` runs one of the two CSVs.
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { execFileSync } from 'node:child_process';
import { time as timed } from './timing.mjs';
import { pdhCsv, getCounterJson } from './data.mjs';
import { openCapture, CaptureReader, initSync } from 'counterlens';

const COLS = 500;
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const ROWS = Number(args[0] ?? 20_000);
const CLEAN_ROWS = Number(args[1] ?? 10_000);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const mb = (n) => n / 1e6;
const memory = initSync({ module: new Uint8Array() }).memory; // already initialised: returns the instance

/** `rows` rows; with `gaps`, the first row and 1 % of the other cells are " " (no value). */
const makeCsv = (rows, gaps) => pdhCsv(COLS, rows, { gaps, blankFirstRow: gaps });


/** Counts the values of `cols` (arrays of columns) that differ from counterlens' (NaN = NaN). */
function wrongValues(ours, theirs) {
  let wrong = 0;
  for (let c = 0; c < ours.length; c++) {
    for (let r = 0; r < ours[c].length; r++) {
      const a = ours[c][r], b = theirs[c][r];
      if (!(Number.isNaN(a) && Number.isNaN(b)) && a !== b) wrong++;
    }
  }
  return wrong;
}

const time = timed;

/** Streams `csv` through CaptureReader in 4 MiB slices, as the viewer reads a File. */
function stream(csv) {
  const r = new CaptureReader({ size: csv.length });
  for (let at = 0; at < csv.length; at += 4 << 20) r.push(csv.subarray(at, at + (4 << 20)));
  return r.finish();
}

// Peak memory is measured alone, in a fresh process (on the gapped CSV): wasm memory only grows, so it is
// the peak.
if (process.argv.includes('--memory')) {
  const c = stream(makeCsv(ROWS, true));
  console.log(JSON.stringify({ wasm: memory.buffer.byteLength, columns: COLS * ROWS * 8, series: c.seriesCount }));
  process.exit(0);
}

/** Every value column of a capture, as Float64Arrays; the capture is freed. */
function columnsOf(c) {
  const cols = Array.from({ length: c.seriesCount }, (_, i) => c.values(i));
  c.free();
  return cols;
}

/** Every contender on one CSV, then the wrong values and the ratios. */
function csvRound(label, rows, gaps) {
  const csv = makeCsv(rows, gaps);
  console.log(`\nPDH-CSV, ${label}: ${COLS} counters x ${rows} rows, ${mb(csv.length).toFixed(1)} MB; node ${process.version}`);
  const ours = time('counterlens openCapture (wasm)', csv.length, () => columnsOf(openCapture(csv)));
  const streamed = time('counterlens CaptureReader, 4 MiB slices (wasm)', csv.length, () => columnsOf(stream(csv)));
  if (gaps) {
    const m = JSON.parse(execFileSync(process.execPath, [new URL(import.meta.url).pathname, String(rows), '--memory'], { encoding: 'utf8' }));
    console.log(`  peak wasm memory streaming (fresh process): ${mb(m.wasm).toFixed(0)} MB for ${mb(m.columns).toFixed(0)} MB of f64 columns ` +
      `(${(m.wasm / m.columns).toFixed(2)}x; it includes the module's own memory)`);
  }

  const papa = time('PapaParse 5.7 (dynamicTyping)', csv.length, () => {
    const text = new TextDecoder().decode(csv);
    const rows = Papa.parse(text, { dynamicTyping: true, skipEmptyLines: true }).data;
    const cols = Array.from({ length: COLS }, () => new Float64Array(rows.length - 1));
    for (let r = 1; r < rows.length; r++) {
      for (let c = 0; c < COLS; c++) {
        const v = rows[r][c + 1];
        cols[c][r - 1] = typeof v === 'number' ? v : NaN;
      }
    }
    return cols;
  });

  const udsv = time('uDSV 0.7 (typed columns)', csv.length, () => {
    const text = new TextDecoder().decode(csv);
    const schema = inferSchema(text);
    const parser = initParser(schema);
    const cols = parser.typedCols(text);
    return cols.slice(1).map((col) => Float64Array.from(col, (v) => (typeof v === 'number' ? v : NaN)));
  });

  const loop = time('JS split-and-parseFloat loop', csv.length, () => {
    const text = new TextDecoder().decode(csv);
    const lines = text.split('\r\n');
    const n = lines.length - 2; // header, and the empty string after the last line end
    const cols = Array.from({ length: COLS }, () => new Float64Array(n));
    for (let r = 0; r < n; r++) {
      const cells = lines[r + 1].split('","');
      for (let c = 0; c < COLS; c++) {
        const v = cells[c + 1];
        cols[c][r] = v === ' ' || v === ' "' ? NaN : parseFloat(v);
      }
    }
    return cols;
  });
  console.log(`  wrong values vs counterlens: PapaParse ${wrongValues(ours.out, papa.out)}, uDSV ${wrongValues(ours.out, udsv.out)} ` +
    `${gaps ? '(" " read as 0, not a gap)' : ''}, JS loop ${wrongValues(ours.out, loop.out)}`);
  for (const [name, r] of [['openCapture', ours], ['CaptureReader', streamed]]) {
    console.log(`  ${label}: counterlens ${name} is ${(udsv.ms / r.ms).toFixed(1)}x uDSV, ${(loop.ms / r.ms).toFixed(1)}x the JS loop, ${(papa.ms / r.ms).toFixed(1)}x PapaParse`);
  }
}

if (only !== 'gapped') csvRound('clean (every value quoted, no blanks)', CLEAN_ROWS, false);
if (only !== 'clean') csvRound('gapped (1 % " " cells)', ROWS, true);
if (only) process.exit(0);

// ---- Get-Counter JSON: 5,000 sample sets x 200 counters = 1,000,000 samples --------------------------
const SETS = 5000, PER = 200;
const gc = getCounterJson(SETS, PER);
console.log(`\nGet-Counter JSON: ${SETS} sample sets x ${PER} counters = ${SETS * PER} samples, ${mb(gc.length).toFixed(1)} MB`);
const gcOurs = time('counterlens openCapture (wasm, exact u64)', gc.length, () => columnsOf(openCapture(gc)));
const gcJs = time('JSON.parse + JS cooking (raw values as doubles)', gc.length, () => {
  const sets = JSON.parse(new TextDecoder().decode(gc));
  const cols = Array.from({ length: PER }, () => new Float64Array(SETS).fill(NaN));
  for (let k = 1; k < sets.length; k++) {
    for (let i = 0; i < PER; i++) {
      const a = sets[k - 1].CounterSamples[i], b = sets[k].CounterSamples[i];
      cols[i][k] = (100 * (b.RawValue - a.RawValue)) / (b.SecondValue - a.SecondValue);
    }
  }
  return cols;
});
console.log(`  wrong values vs counterlens: JSON.parse path ${wrongValues(gcOurs.out, gcJs.out)} of ${SETS * PER} (100 ns time stamps beyond 2^53)`);
