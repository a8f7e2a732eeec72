// Captures through the npm package: the golden files of tests/vectors/captures/ against
// tests/vectors/captures.json, whole and through CaptureReader, toCsv round trips, and CaptureError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture, CaptureReader, Capture, CaptureError } from 'counterlens';

const dir = new URL('../vectors/captures/', import.meta.url);
const { files } = JSON.parse(readFileSync(new URL('../vectors/captures.json', import.meta.url), 'utf8'));
const read = (name) => new Uint8Array(readFileSync(new URL(name, dir)));

function check(name, want, open) {
  if (want.error) {
    assert.throws(open, (e) => {
      assert.equal(e.name, 'CaptureError', `${name}: ${e}`);
      assert.equal(e.code, want.error.code, `${name}: ${e.message}`);
      if (want.error.line) assert.deepEqual([e.line, e.column], [want.error.line, want.error.column], e.message);
      return true;
    });
    return;
  }
  const c = open();
  assert.equal(c.format, want.format, name);
  assert.equal(c.encoding, want.encoding, name);
  assert.deepEqual(c.timeZone, want.timeZone, name);
  assert.deepEqual([...c.timestamps()], want.timestamps, `${name}: ${want.why}`);
  assert.equal(c.sampleCount, want.timestamps.length);
  assert.equal(c.seriesCount, want.series.length);
  const infos = c.series();
  const plain = (a) => [...a].map((v) => (Number.isNaN(v) ? null : v));
  want.series.forEach((w, i) => {
    const { values, reference, ...meta } = w;
    assert.deepEqual(infos[i], { index: i, ...meta }, name);
    assert.deepEqual(plain(c.values(i)), values, `${name} ${w.path}`);
    assert.deepEqual(reference && plain(c.reference(i)), reference, `${name} ${w.path} reference`);
  });
  assert.deepEqual(c.notes().map((n) => n.code), want.notes, name);
  if (want.noteMessage) assert.equal(c.notes()[0].message, want.noteMessage);
  return c;
}

for (const [name, want] of Object.entries(files)) {
  test(`capture ${name}`, () => {
    const bytes = read(name);
    check(name, want, () => openCapture(bytes));
    for (const size of [1, 7, 4096]) {
      check(`${name} in chunks of ${size}`, want, () => {
        const r = new CaptureReader();
        let pushed = 0;
        for (let i = 0; i < bytes.length; i += size) pushed = r.push(bytes.subarray(i, i + size)).bytes;
        assert.equal(pushed, bytes.length);
        return r.finish();
      });
    }
  });
}

test('toCsv reads back to the same values, and a subset in the order asked', () => {
  for (const name of ['relog-pst.csv', 'utf16le.csv', 'cp1251.csv', 'quirky-paths.csv']) {
    const a = openCapture(read(name));
    const b = openCapture(new TextEncoder().encode(a.toCsv()));
    assert.deepEqual([...b.timestamps()], [...a.timestamps()], name);
    for (let i = 0; i < a.seriesCount; i++) {
      assert.deepEqual(b.series()[i].path, a.series()[i].path);
      assert.deepEqual(Object.is(b.values(i)[0], a.values(i)[0]) || [...b.values(i)].every((v, k) => Object.is(v, a.values(i)[k])), true, name);
    }
  }
  const c = openCapture(read('relog-pst.csv'));
  const csv = c.toCsv([2, 0]);
  assert.ok(csv.startsWith('"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\\\WEB01\\PhysicalDisk(0 C:)\\Disk Reads/sec","\\\\WEB01\\Processor(_Total)\\% Processor Time"\r\n'), csv);
  // Stats over a time range: % Processor Time from the second sample on is 100.00000000000001 and 350.
  const s = c.stats(0, 1795291201000);
  assert.deepEqual([s.count, s.max, s.last], [2, 350, 350]);
});

test('bad input: options, spent readers, indices', () => {
  assert.throws(() => openCapture(read('relog-pst.csv'), { encoding: 'klingon' }), (e) => e.code === 'bad-encoding');
  assert.throws(() => openCapture(new Uint8Array()), (e) => e.name === 'CaptureError' && e.code === 'empty');
  assert.throws(() => openCapture(read('relog-pst.csv'), { format: 'xlsx' }), (e) => e.code === 'unsupported');
  const c = openCapture(read('relog-pst.csv'));
  assert.throws(() => c.values(99), (e) => e.code === 'invalid-argument');
  // The first 64 KiB are held to detect the encoding, so a small file's error comes at finish().
  const r = new CaptureReader();
  r.push(read('wrong-cells.csv').subarray(0, 10));
  r.push(read('wrong-cells.csv').subarray(10));
  assert.throws(() => r.finish(), (e) => e.code === 'wrong-cell-count' && e.line === 3);
  assert.throws(() => r.push(new Uint8Array([1])), (e) => e.code === 'finished');
  // Past the first 64 KiB, a bad row fails the push that delivers it.
  const header = '"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\H\\Memory\\Available Bytes"\r\n';
  const row = '"07/04/2026 00:00:00.000","1"\r\n';
  const big = new CaptureReader();
  big.push(new TextEncoder().encode(header + row.repeat(3000)));
  assert.throws(() => big.push(new TextEncoder().encode('"07/04/2026 00:00:00.000","1","2"\r\n')), (e) => e.code === 'wrong-cell-count' && e.line === 3002);
  // The module is still fine afterwards.
  assert.equal(openCapture(read('typeperf.csv')).sampleCount, 1);
});

test('toParts and Capture.fromParts round trip (what the viewer\'s worker sends); bad parts are refused', () => {
  const a = openCapture(read('get-counter-ps51.json'));
  const parts = a.toParts();
  assert.ok(parts.timestamps instanceof Float64Array && parts.series[0].values instanceof Float64Array);
  const b = Capture.fromParts(structuredClone(parts));
  assert.deepEqual([b.format, b.encoding, b.timeZone, b.sampleCount, b.seriesCount], [a.format, a.encoding, a.timeZone, a.sampleCount, a.seriesCount]);
  assert.deepEqual(b.series(), a.series());
  for (let i = 0; i < a.seriesCount; i++) {
    assert.deepEqual([...b.values(i)], [...a.values(i)]);
    assert.deepEqual([...b.reference(i)], [...a.reference(i)]);
  }
  assert.deepEqual(parts.notes.map((n) => n.code), ['pdh-comparison']);
  assert.throws(() => Capture.fromParts({ ...parts, timestamps: new Float64Array(1) }), (e) => e.name === 'CaptureError' && e.code === 'invalid-argument');
  assert.throws(() => Capture.fromParts({ ...parts, series: [{ path: 'x', values: [1, 2, 3] }] }), (e) => e.code === 'invalid-argument');
  assert.throws(() => Capture.fromParts(null), (e) => e.code === 'invalid-argument');
  // Checked by the core (Capture::from_parts), each message naming the part at fault; the binding refuses a
  // column of the wrong kind with the same words as one of the wrong length.
  const n = parts.timestamps.length;
  assert.throws(() => Capture.fromParts({ ...parts, timestamps: new Float64Array(1) }),
    { name: 'CaptureError', field: 'parts', message: `Capture.fromParts: series[0] has ${n} values for 1 timestamps` });
  const withRaw = (raw) => ({ ...parts, series: [{ ...parts.series[0], raw: { ...parts.series[0].raw, ...raw } }] });
  assert.throws(() => Capture.fromParts(withRaw({ multi: new BigUint64Array(n + 1) })),
    { code: 'invalid-argument', message: `Capture.fromParts: series[0].raw.multi must be a BigUint64Array of ${n}` });
  assert.throws(() => Capture.fromParts(withRaw({ present: [1] })),
    { code: 'invalid-argument', message: `Capture.fromParts: series[0].raw.present must be a Uint8Array of ${n}` });
  // Names it does not know give "unknown"; an encoding label gives its encoding's name.
  const odd = Capture.fromParts({ ...parts, format: 'xlsx', encoding: 'latin1' });
  assert.deepEqual([odd.format, odd.encoding], ['unknown', 'windows-1252']);
  assert.deepEqual([Capture.fromParts({ ...parts, encoding: 'ebcdic' }).encoding, odd.toParts().format], ['unknown', 'unknown']);
});

test('.blg through the package: sniffed from the bytes, streamed by buffer, relog-style CSV', () => {
  const bytes = read('BasicPerfCounters.blg');
  const c = openCapture(bytes);
  assert.equal(c.format, 'blg');
  assert.equal(c.encoding, 'binary');
  assert.deepEqual([c.sampleCount, c.seriesCount], [601, 10]);
  assert.deepEqual(c.timeZone, { name: 'UTC-08:00', biasMinutes: 480 });
  // 2013-02-20 02:50:18.844 UTC, the first value's time (Windows PDH, through microsoft/Tx).
  assert.equal(c.timestamps()[1], Date.UTC(2013, 1, 20, 2, 50, 18, 844));
  const first = c.series()[0];
  assert.deepEqual(first, { index: 0, path: '\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read', machine: 'GEORGIS3',
    object: 'PhysicalDisk', instance: '0 C:', counter: 'Avg. Disk Bytes/Read', counterType: 0x40020500, defaultScale: -2 });
  let values = 0;
  for (let i = 0; i < c.seriesCount; i++) values += c.values(i).filter((v) => !Number.isNaN(v)).length;
  assert.equal(values, 6000);
  // In 64 KiB buffers' worth of odd slices, as the viewer's Worker reads a File.
  const r = new CaptureReader({ size: bytes.length });
  for (let i = 0; i < bytes.length; i += 50_000) r.push(bytes.subarray(i, i + 50_000));
  const s = r.finish();
  assert.deepEqual([...s.values(9)], [...c.values(9)]);
  // toParts carries the scale; fromParts keeps the format.
  const back = Capture.fromParts(c.toParts());
  assert.equal(back.format, 'blg');
  assert.equal(back.series()[0].defaultScale, -2);
  const csv = openCapture(new TextEncoder().encode(c.toCsv()));
  assert.deepEqual([...csv.values(5)], [...c.values(5)]);
  // Cut inside a buffer: the complete samples before the cut, and a note naming the byte and the buffer.
  const cut = openCapture(bytes.subarray(0, 70_000));
  assert.ok(cut.sampleCount > 0 && cut.notes().some((n) => n.code === 'truncated' && /byte 70000 \(4464 bytes into buffer 1 /.test(n.message)));
});

test('.blg points explain themselves when keepRaw names their series, also after crossing threads', () => {
  const bytes = read('BasicPerfCounters.blg');
  const TOTAL = '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time';
  const plain = openCapture(bytes);
  const i = plain.series().findIndex((s) => s.path === TOTAL);
  assert.ok(i >= 0);
  // By default a .blg keeps no raw samples: nothing to explain, and none in its parts.
  assert.equal(plain.explainAt(i, 1), null);
  assert.ok(plain.toParts().series.every((s) => s.raw === null));
  // One path (in another case: names compare case-insensitively), read whole and through CaptureReader.
  const whole = openCapture(bytes, { keepRaw: [TOTAL.toLowerCase()] });
  const reader = new CaptureReader({ size: bytes.length, keepRaw: [TOTAL] });
  for (let at = 0; at < bytes.length; at += 50_000) reader.push(bytes.subarray(at, at + 50_000));
  const streamed = reader.finish();
  for (const x of [whole, streamed, Capture.fromParts(whole.toParts())]) {
    // PERF_100NSEC_TIMER_INV at sample 1: 100 * (1 - (1 170 383 320 312 - 1 170 374 257 812)
    //   / (130 058 022 188 447 585 - 130 058 022 178 447 225)) = 100 * (1 - 9 062 500 / 10 000 360) = 9.378...
    const e = x.explainAt(i, 1);
    assert.equal(e.formula, '100 * (1 - dN / dD)');
    assert.match(e.substituted, /^100 \* \(1 - \(1170383320312 - 1170374257812\) \/ \(130058022188447585 - 130058022178447225\)/);
    assert.ok(Math.abs(e.result.value - 100 * (1 - 9_062_500 / 10_000_360)) < 1e-12);
    assert.equal(e.result.value, x.valueAt(i, 1));
    // Only that series kept its raw samples.
    assert.deepEqual(x.series().map((s) => x.explainAt(s.index, 1) !== null), x.series().map((s) => s.index === i));
    // The values are those read without raw samples, bit for bit.
    for (let j = 0; j < plain.seriesCount; j++) assert.deepEqual(x.values(j), plain.values(j));
  }
  // keepRaw: true keeps every series'. Every point's explanation is the value shown, but the averages'
  // idle intervals, which show 0 where the formula says "zero denominator" (docs/blg.md).
  const all = openCapture(bytes, { keepRaw: true });
  let checked = 0;
  for (let j = 0; j < all.seriesCount; j++) {
    const values = all.values(j);
    assert.deepEqual(values, plain.values(j));
    for (let k = 1; k < values.length; k++) {
      const e = all.explainAt(j, k);
      if (e.result.status === 'zero-denominator') assert.equal(values[k], 0);
      else assert.equal(e.result.value ?? NaN, values[k], `${j} at ${k}`);
      checked++;
    }
  }
  assert.equal(checked, 10 * 600);
  // A wildcard: every processor's % Processor Time (5 series: 0, 1, 2, 3 and _Total).
  const cpus = openCapture(bytes, { keepRaw: ['\\\\*\\Processor(*)\\% Processor Time'] });
  assert.equal(cpus.series().filter((s) => cpus.explainAt(s.index, 1) !== null).length, 5);
  // Bad options are refused with what was expected; a hostile pattern is quoted, not run.
  for (const [keepRaw, why] of [[1, /must be true, false or an array/], ['\\Processor(*)\\x', /must be true, false or an array/],
    [[5], /must be true, false or an array of counter path strings/], [['<script>alert(1)</script>'], /"<script>alert\(1\)<\/script>" is not a counter path pattern/]]) {
    assert.throws(() => openCapture(bytes, { keepRaw }), (e) => e instanceof CaptureError && e.code === 'invalid-option' && why.test(e.message));
    assert.throws(() => new CaptureReader({ keepRaw }), (e) => e instanceof CaptureError && e.code === 'invalid-option');
  }
  // keepRaw changes nothing for Get-Counter, which keeps its raw samples anyway.
  const gc = openCapture(read('get-counter-ps51.json'), { keepRaw: false });
  assert.ok(gc.series().some((s) => gc.explainAt(s.index, 1) !== null));
});

test('Get-Counter points explain themselves, also after the parts cross to another thread', () => {
  const c = openCapture(read('get-counter-ps51.json'));
  const back = Capture.fromParts(c.toParts());
  for (const x of [c, back]) {
    // 100 * (1 - 6 250 000 / 10 000 000) = 37.5 at set 2 of _Total's % processor time.
    const e = x.explainAt(0, 2);
    assert.equal(e.result.value, 37.5);
    assert.match(e.substituted, /^100 \* \(1 - \(1170388007812 - 1170381757812\)/);
  }
  assert.equal(openCapture(read('relog-pst.csv')).explainAt(0, 1), null);
  assert.throws(() => c.explainAt(99, 0), (e) => e instanceof CaptureError && e.code === 'invalid-argument');
});
