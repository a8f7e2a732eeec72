// openCaptureParallel against openCapture on the same bytes: the same capture bit for bit (timestamps,
// values, series, notes, format, encoding) or the same CaptureError at the same line, for 1, 2, 4 and 8
// workers, and from a Blob. `minBytes: 0` makes small inputs go through the workers; readPieces (js/parallel.js) shows
// where the pieces were cut, so the seams the tests aim at are checked, not assumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, rmSync, openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCapture, openCaptureParallel, CaptureError } from 'counterlens';
import { readPieces } from '../../js/parallel.js';

const vectors = new URL('../vectors/captures/', import.meta.url);
const enc = new TextEncoder();
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

function sameCapture(a, b, what) {
  assert.equal(b.format, a.format, what);
  assert.equal(b.encoding, a.encoding, what);
  assert.deepEqual(b.timeZone, a.timeZone, what);
  assert.equal(b.sampleCount, a.sampleCount, what);
  assert.deepEqual(b.series(), a.series(), what);
  assert.equal(bits(b.timestamps()), bits(a.timestamps()), `${what}: timestamps`);
  for (let i = 0; i < a.seriesCount; i++) assert.equal(bits(b.values(i)), bits(a.values(i)), `${what}: series ${i}`);
  assert.deepEqual(b.notes(), a.notes(), `${what}: notes`);
}

const errorOf = async (f) => {
  try {
    await f();
  } catch (e) {
    return e;
  }
  assert.fail('expected a CaptureError');
};
const fields = (e) => ({ name: e.name, code: e.code, message: e.message, line: e.line, column: e.column, offset: e.offset });

/** Every worker count gives openCapture's capture, or its error. */
async function same(bytes, what) {
  let whole;
  try {
    whole = openCapture(bytes);
  } catch (e) {
    for (const workers of [1, 2, 4, 8]) {
      const p = await errorOf(() => openCaptureParallel(bytes, { workers, minBytes: 0 }));
      assert.ok(p instanceof CaptureError, `${what}, ${workers} workers: ${p}`);
      assert.deepEqual(fields(p), fields(e), `${what}, ${workers} workers`);
    }
    const p = await errorOf(() => openCaptureParallel(new Blob([bytes]), { workers: 3, minBytes: 0 }));
    assert.deepEqual(fields(p), fields(e), `${what}, a Blob`);
    return e;
  }
  for (const workers of [1, 2, 4, 8]) {
    sameCapture(whole, await openCaptureParallel(bytes, { workers, minBytes: 0 }), `${what}, ${workers} workers`);
  }
  // A Blob (a File): each worker reads its own slice.
  sameCapture(whole, await openCaptureParallel(new Blob([bytes]), { workers: 3, minBytes: 0 }), `${what}, a Blob`);
  return whole;
}

/** Rows every `step` seconds from `start` (local "MM/dd/yyyy HH:mm:ss"), all of one length. */
function rows(count, startMs, stepS, cells, sep = ',') {
  const out = [];
  for (let r = 0; r < count; r++) {
    const d = new Date(startMs + r * stepS * 1000);
    const p = (n) => String(n).padStart(2, '0');
    const time = `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.000`;
    out.push([`"${time}"`, ...cells(r)].join(sep) + '\r\n');
  }
  return out.join('');
}
const HEADER = '"(PDH-CSV 4.0) (Pacific Daylight Time)(420)","\\\\WEB01\\Processor(_Total)\\% Processor Time","\\\\WEB01\\Memory\\Available Bytes"\r\n';
const values = (r) => [`"${(r % 97) + 0.125}"`, `"${1000000 + r}"`];

test('the sample logs exported as CSV read the same in pieces', async () => {
  for (const name of ['BasicPerfCounters.blg', 'PAL_SampleLog.blg']) {
    const csv = enc.encode(openCapture(new Uint8Array(readFileSync(new URL(name, vectors)))).toCsv());
    const whole = await same(csv, name);
    assert.ok(whole.sampleCount >= 11 && whole.seriesCount >= 10, name); // 601 x 10 and 11 x 1,832
    const read = await readPieces(csv, { workers: 4, minBytes: 0 });
    assert.equal(read.results.length, 4, `${name}: read in 4 pieces`);
  }
});

test('a daylight-time change exactly at the seam of two pieces', async () => {
  // 40 rows of one length L; 2 workers cut at the first line end at or after half the body (20 L), the
  // end of row 20, so row 21 starts the second piece. Rows 0..20 run to 01:59:45 local (15 s apart,
  // from 01:54:45), row 21 is 01:00:00 again: daylight time ended, bias 420 -> 480 minutes.
  const before = rows(21, Date.UTC(2026, 10, 1, 1, 54, 45), 15, values);
  const after = rows(19, Date.UTC(2026, 10, 1, 1, 0, 0), 15, (r) => values(r + 21));
  const bytes = enc.encode(HEADER + before + after);
  const read = await readPieces(bytes, { workers: 2, minBytes: 0 });
  assert.equal(read.results[1].lines[0], 23, 'row 21 (line 23) starts the second piece');
  const whole = await same(bytes, 'dst at the seam');
  const t = whole.timestamps();
  // 01:59:45 PDT = 08:59:45 UTC; 01:00:00 PST = 09:00:00 UTC: 15 s later, in order.
  assert.equal(t[21] - t[20], 15_000);
  assert.deepEqual(whole.notes().map((n) => [n.code, n.line]), [['dst-change', 23]]);
});

test('gaps, blank lines and a cut last row', async () => {
  const body = rows(50, Date.UTC(2026, 2, 4, 9, 0, 0), 1, (r) => (r % 7 === 3 ? ['" "', '""'] : values(r)));
  const bytes = enc.encode(HEADER + body + '\r\n\r\n' + body.slice(0, 2 * body.length / 50 + 30));
  const whole = await same(bytes, 'gaps and a cut row');
  assert.equal(whole.sampleCount, 52);
  const cut = whole.notes().find((n) => n.code === 'cut-short');
  assert.equal(cut.line, 1 + 50 + 2 + 3);
  assert.match(cut.message, /the 52 complete rows before it were$/);
});

test('TSV with no time zone and a description column (hostile text stays data)', async () => {
  const header = '"(PDH-TSV 4.0)"\t"\\\\H\\System\\Threads"\t"<script>alert(1)</script>"\n';
  const bytes = enc.encode(header + rows(60, Date.UTC(2026, 0, 2, 3, 4, 0), 1, (r) => [`"${r}"`, '" "'], '\t'));
  const whole = await same(bytes, 'tsv');
  assert.deepEqual(whole.notes().map((n) => n.code), ['no-time-zone', 'dropped-column']);
  assert.equal(whole.format, 'pdh-tsv');
});

test('a windows-1252 file is detected once and every piece decoded in it', async () => {
  const text = '"(PDH-CSV 4.0) (Romance Standard Time)(-60)","\\\\H\\Caf\u00e9(_Total)\\% Temps processeur"\r\n' +
    rows(80, Date.UTC(2026, 5, 1, 0, 0, 0), 1, (r) => [`"${r / 8}"`]);
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0)); // Latin-1 = windows-1252 here
  const whole = await same(bytes, 'windows-1252');
  assert.equal(whole.encoding, 'windows-1252');
  assert.match(whole.series()[0].path, /Café/);
});

test('an error row in the third of four pieces has openCapture\'s line and column', async () => {
  const body = rows(100, Date.UTC(2026, 2, 4, 9, 0, 0), 1, (r) => (r === 62 ? ['"12x"', '"1"'] : values(r)));
  const bytes = enc.encode(HEADER + body);
  const read = await readPieces(enc.encode(HEADER + rows(100, Date.UTC(2026, 2, 4, 9, 0, 0), 1, values)), { workers: 4, minBytes: 0 });
  const third = read.results[2].lines;
  assert.ok(third[0] <= 64 && 64 <= third[third.length - 1], `line 64 is in the third piece (${third[0]}..)`);
  const e = await same(bytes, 'error row');
  assert.deepEqual([e.code, e.line], ['bad-number', 64]);
});

test('what cannot be cut at line ends is read whole, and a bad workers option is refused', async () => {
  for (const name of ['BasicPerfCounters.blg', 'PAL_SampleLog.blg']) {
    const bytes = new Uint8Array(readFileSync(new URL(name, vectors)));
    assert.equal(await readPieces(bytes, { workers: 4, minBytes: 0 }), null, name);
    sameCapture(openCapture(bytes), await openCaptureParallel(bytes, { workers: 4, minBytes: 0 }), name);
  }
  const utf16 = Uint8Array.from([0xff, 0xfe, ...[...HEADER + rows(3, 0, 1, values)].flatMap((c) => [c.charCodeAt(0), 0])]);
  assert.equal(await readPieces(utf16, { workers: 2, minBytes: 0 }), null);
  await same(utf16, 'utf-16');
  await same(enc.encode('hello <script>\n'), 'not a capture');
  const e = await errorOf(() => openCaptureParallel(enc.encode(HEADER), { workers: 0 }));
  assert.deepEqual([e.name, e.code, e.field], ['CaptureError', 'invalid-option', 'workers']);
  // Small inputs take openCapture's path unless told otherwise.
  assert.equal(await readPieces(enc.encode(HEADER + rows(3, 0, 1, values)), { workers: 2 }), null);
});

test('a file opened as a Blob (fs.openAsBlob) reads the same', async () => {
  const bytes = enc.encode(HEADER + rows(300, Date.UTC(2026, 2, 4, 9, 0, 0), 1, values));
  const file = join(tmpdir(), `counterlens-parallel-test-${process.pid}.csv`);
  writeFileSync(file, bytes);
  try {
    sameCapture(openCapture(bytes), await openCaptureParallel(await openAsBlob(file), { workers: 4, minBytes: 0 }), 'openAsBlob');
  } finally {
    rmSync(file);
  }
});

test('the worker loads only the package core (pkg/), never an entry or the viewer', () => {
  const src = readFileSync(new URL('../../js/parallel-worker.js', import.meta.url), 'utf8');
  assert.deepEqual([...src.matchAll(/^import .* from '([^']+)';/gm)].map((m) => m[1]), ['../pkg/counterlens.js', './errors.js']);
});
