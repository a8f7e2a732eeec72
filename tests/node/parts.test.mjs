// Reading a part of a log through the package (openCapture, CaptureReader, openCaptureParallel with
// `series`, `from`, `to`, `every`): the part of the whole read, value for value, with `invalid-option`
// naming a bad option; a Shift_JIS header whose description is past the first 64 KiB (the wasm build
// detects with the host's TextDecoder); and the column budget (`maxColumnBytes`): a `too-large` error,
// after which the same module reads the next log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture, openCaptureParallel, CaptureReader, CaptureError } from 'counterlens';

const vectors = new URL('../vectors/captures/', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(name, vectors)));
const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

/** A PDH-CSV of `series` series and `rows` rows one second apart from 2026-11-21 12:00:00 Pacific (bias
 *  480: 20:00:00 UTC); value (row * 1000 + k) / 8, a blank every 7th cell. */
function csv(series, rows) {
  const path = (k) => [`\\\\WEB01\\Processor(${k / 3 | 0})\\% Processor Time`,
    `\\\\WEB01\\Process(w3wp#${k / 3 | 0})\\Working Set`, `\\\\WEB01\\Memory\\Counter ${k}`][k % 3];
  let s = '"(PDH-CSV 4.0) (Pacific Standard Time)(480)"';
  for (let k = 0; k < series; k++) s += `,"${path(k)}"`;
  s += '\r\n';
  const two = (n) => String(n).padStart(2, '0');
  for (let r = 0; r < rows; r++) {
    s += `"11/21/2026 ${two(12 + (r / 3600 | 0))}:${two((r / 60 | 0) % 60)}:${two(r % 60)}.000"`;
    for (let k = 0; k < series; k++) s += (r + k) % 7 === 0 ? ',\" \"' : `,"${(r * 1000 + k) / 8}"`;
    s += '\r\n';
  }
  return new TextEncoder().encode(s);
}
const T0 = Date.UTC(2026, 10, 21, 20, 0, 0);

/** The part of `whole` the options ask for, cut from the whole read (names matched by the test's own
 *  list, not the core's matcher). */
function cut(whole, keepSeries, from = -Infinity, to = Infinity, every = 1) {
  const t = whole.timestamps();
  const rows = [];
  let n = 0;
  t.forEach((x, k) => { if (x >= from && x <= to && n++ % every === 0) rows.push(k); });
  const series = whole.series().filter((s) => keepSeries(s.path));
  return {
    timestamps: rows.map((k) => t[k]),
    series: series.map((s) => ({ path: s.path, values: bits(Float64Array.from(rows, (k) => whole.values(s.index)[k])) })),
  };
}
const shape = (c) => ({
  timestamps: [...c.timestamps()],
  series: c.series().map((s) => ({ path: s.path, values: bits(c.values(s.index)) })),
});

test('openCapture, CaptureReader and openCaptureParallel read the part asked for', async () => {
  const bytes = csv(30, 40);
  const whole = openCapture(bytes);
  const cases = [
    [{ series: ['\\Processor(*)\\% Processor Time'] }, (p) => p.includes('Processor(')],
    [{ from: T0 + 5000, to: T0 + 20000 }, () => true, T0 + 5000, T0 + 20000],
    [{ series: ['\\\\web01\\process(w3wp#1*)\\*'], from: T0 + 2000, every: 3 }, (p) => /Process\(w3wp#1/.test(p), T0 + 2000, Infinity, 3],
  ];
  for (const [options, keep, from, to, every] of cases) {
    const want = cut(whole, keep, from, to, every);
    assert.ok(want.series.length > 0 && want.timestamps.length > 0);
    const c = openCapture(bytes, options);
    assert.deepEqual(shape(c), want, JSON.stringify(options));
    assert.match(c.notes().find((n) => n.code === 'part').message, new RegExp(`${want.series.length} of its 30 series, ${want.timestamps.length} of its 40 samples`));
    const r = new CaptureReader(options);
    for (let i = 0; i < bytes.length; i += 333) r.push(bytes.subarray(i, i + 333));
    assert.deepEqual(shape(r.finish()), want, `CaptureReader ${JSON.stringify(options)}`);
    for (const workers of [2, 3]) {
      const p = await openCaptureParallel(bytes, { ...options, workers, minBytes: 0 });
      assert.deepEqual(shape(p), want, `${workers} workers ${JSON.stringify(options)}`);
      assert.deepEqual(p.notes(), c.notes());
    }
  }
  // A .blg: Processor(*) of BasicPerfCounters, every 2nd sample.
  const blg = read('BasicPerfCounters.blg');
  const all = openCapture(blg);
  const part = openCapture(blg, { series: ['\\Processor(*)\\*'], every: 2 });
  assert.deepEqual(shape(part), cut(all, (p) => p.includes('\\Processor('), -Infinity, Infinity, 2));
  assert.equal(part.seriesCount, 5);
  assert.equal(part.sampleCount, 301);
});

test('options that cannot be used are invalid-option errors naming the option', () => {
  const bytes = csv(6, 5);
  const cases = [
    [{ series: ['not a path'] }, 'series'],
    [{ series: 'Processor' }, 'series'],
    [{ series: ['\\Nothing(*)\\Here'] }, 'series'],
    [{ from: T0 + 10, to: T0 }, 'to'],
    [{ from: 'yesterday' }, 'from'],
    [{ every: 0 }, 'every'],
    [{ every: 1.5 }, 'every'],
    [{ from: T0 + 3_600_000 }, 'from'],
    [{ maxColumnBytes: -1 }, 'maxColumnBytes'],
  ];
  for (const [options, field] of cases) {
    assert.throws(() => openCapture(bytes, options), (e) => {
      assert.ok(e instanceof CaptureError, `${JSON.stringify(options)}: ${e}`);
      assert.equal(e.code, 'invalid-option', e.message);
      assert.equal(e.field, field, e.message);
      return true;
    }, JSON.stringify(options));
  }
});

test('a Shift_JIS description past the first 64 KiB of ASCII reads as Shift_JIS', () => {
  // 753 ASCII paths of 87 characters, then Windows' Japanese "System Performance" description (its
  // Shift_JIS bytes), as a Japanese Windows' Data Collector Set writes it; a " " under it in each row.
  const sjis = Buffer.from('838d815b834a838b20836e815b836883458346834120838a835c815b835881418356835883658380899e939a8e9e8ad4814182a882e682d1838d815b834a838b208352839383738385815b835e815b8fe382cc8376838d835a835882cc8ff391d482c98ad682b782e9838c837c815b836782f090b690ac82b582dc82b78142', 'hex');
  const text = 'ローカル ハードウェア リソース、システム応答時間、およびローカル コンピューター上のプロセスの状態に関するレポートを生成します。';
  let head = '"(PDH-CSV 4.0) ("';
  for (let k = 0; k < 753; k++) head += `,"\\\\JP-SQL-NODE01\\Process(sqlservr#${String(k).padStart(3, '0')})\\IO Other Operations/sec of SQL Server's DB engine"`;
  let rows = '';
  for (let r = 0; r < 3; r++) rows += `"11/26/2026 09:00:${String(r * 15).padStart(2, '0')}.000"${',"1"'.repeat(753)}," "\r\n`;
  const enc = new TextEncoder();
  const bytes = Buffer.concat([enc.encode(`${head},"`), sjis, enc.encode('"\r\n'), enc.encode(rows)]);
  assert.ok(head.length > 67_000);
  for (const open of [() => openCapture(bytes), () => {
    const r = new CaptureReader();
    for (let i = 0; i < bytes.length; i += 4096) r.push(bytes.subarray(i, i + 4096));
    return r.finish();
  }]) {
    const c = open();
    assert.equal(c.encoding, 'Shift_JIS');
    assert.equal(c.seriesCount, 753);
    const note = c.notes().find((n) => n.code === 'dropped-column');
    assert.ok(note.message.includes(text.slice(0, 60)), note.message);
  }
});

test('columns past the budget are a too-large error and the module stays usable', () => {
  // 20 series and the timestamps take 168 bytes a row: 100,000 bytes hold 595 rows.
  const bytes = csv(20, 2000);
  assert.throws(() => openCapture(bytes, { maxColumnBytes: 100_000 }), (e) => {
    assert.equal(e.code, 'too-large', e.message);
    assert.equal(e.line, 597);
    assert.match(e.message, /20 series x 595 samples were read.*at most 595 samples of 20 series fit.*series.*from and to.*every/);
    return true;
  });
  const r = new CaptureReader({ maxColumnBytes: 100_000 });
  assert.throws(() => { for (let i = 0; i < bytes.length; i += 65536) r.push(bytes.subarray(i, i + 65536)); }, /too-large|larger than this reader can hold/);
  // The same module reads the next log, and this one in part.
  assert.equal(openCapture(read('BasicPerfCounters.blg')).seriesCount, 10);
  assert.equal(openCapture(bytes, { maxColumnBytes: 100_000, every: 4 }).sampleCount, 500);
});
