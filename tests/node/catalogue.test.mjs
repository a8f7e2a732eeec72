// The catalogue through the package (readCatalogue, CatalogueReader): a log's series, sample counts, rows
// and time range without its values, the same in chunks, with openCapture's errors, and the paths it
// lists read back as a part of the log (OpenOptions.series).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture, readCatalogue, CatalogueReader, CaptureError } from 'counterlens';

const dir = new URL('../vectors/captures/', import.meta.url);
const read = (name) => new Uint8Array(readFileSync(new URL(name, dir)));

test('a CSV with gaps: counts, rows and time range by hand', () => {
  const csv = new TextEncoder().encode('"(PDH-CSV 4.0) (UTC)(0)","\\\\H\\A\\x","\\\\H\\B(i)\\y"\r\n'
    + '"01/02/2026 00:00:00.000","1"," "\r\n"01/02/2026 00:00:15.000","2","3"\r\n"01/02/2026 00:00:30.000"," ","4"\r\n');
  const c = readCatalogue(csv);
  assert.equal(c.format, 'pdh-csv');
  assert.equal(c.rows, 3);
  // 2026-01-02 00:00 UTC: day 20455 x 86 400 000 ms; the last row 30 s later.
  assert.equal(c.firstMs, 20455 * 86_400_000);
  assert.equal(c.lastMs, 20455 * 86_400_000 + 30_000);
  // 3 rows x (1 + 2) columns x 8 bytes.
  assert.equal(c.columnBytes, 72);
  assert.deepEqual(c.series.map((s) => [s.index, s.path, s.object, s.instance, s.counter, s.samples]),
    [[0, '\\\\H\\A\\x', 'A', undefined, 'x', 2], [1, '\\\\H\\B(i)\\y', 'B', 'i', 'y', 2]]);
  assert.deepEqual(c.timeZone, { name: 'UTC', biasMinutes: 0 });
  assert.equal(c.bytes, csv.length);
});

test('a .blg in chunks of any size gives the whole catalogue, and its paths read back as a part', () => {
  const b = read('BasicPerfCounters.blg');
  const whole = readCatalogue(b);
  assert.equal(whole.format, 'blg');
  assert.equal(whole.rows, 601);
  assert.equal(whole.series.length, 10);
  assert.ok(whole.series.every((s) => s.samples === 601 && typeof s.counterType === 'number'));
  for (const size of [1000, 65536, 300_000]) {
    const r = new CatalogueReader();
    let pushed = 0;
    for (let at = 0; at < b.length; at += size) pushed = r.push(b.subarray(at, at + size)).bytes;
    assert.equal(pushed, b.length);
    assert.deepEqual(r.finish(), whole);
  }
  const c = openCapture(b);
  assert.deepEqual(whole.series.map((s) => s.path), c.series().map((s) => s.path));
  assert.equal(whole.firstMs, c.timestamps()[0]);
  assert.equal(whole.lastMs, c.timestamps()[600]);
  const part = openCapture(b, { series: [whole.series[3].path] });
  assert.equal(part.seriesCount, 1);
  assert.equal(part.series()[0].path, whole.series[3].path);
});

test('errors: the same as openCapture, and a spent reader', () => {
  const bad = new TextEncoder().encode('"(PDH-CSV 4.0)","\\\\H\\O\\C"\r\n"11/22/2026 09:00:00.000","x"\r\n');
  assert.throws(() => readCatalogue(bad), (e) => e instanceof CaptureError && e.code === 'bad-number' && e.line === 2 && e.column === 27);
  assert.throws(() => readCatalogue([1, 2]), (e) => e instanceof CaptureError && e.code === 'invalid-argument');
  assert.throws(() => readCatalogue(new Uint8Array()), (e) => e.code === 'empty');
  const r = new CatalogueReader();
  assert.throws(() => r.push(new TextEncoder().encode('hello world, not a log '.repeat(4000))), (e) => e.code === 'not-a-capture');
  assert.throws(() => r.finish(), (e) => e.code === 'finished');
  assert.throws(() => new CatalogueReader({ encoding: 'ebcdic' }), (e) => e instanceof CaptureError && e.code === 'bad-encoding');
});
