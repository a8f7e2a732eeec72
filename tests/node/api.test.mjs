// The npm package under Node, imported by its own name (package self-reference through `exports`):
// the shared vectors, every spelling, the bulk series path, errors, and the .d.ts contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from 'counterlens';

const vectors = JSON.parse(readFileSync(new URL('../vectors/cook.json', import.meta.url), 'utf8'));

function close(got, want, why) {
  assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(Math.abs(want), 1), `${why}: ${got} != ${want}`);
}

for (const group of ['rows', 'statuses', 'options', 'errors']) {
  test(`cook.json ${group} through the package`, () => {
    for (const c of vectors[group]) {
      if (c.error) {
        assert.throws(() => api.cook(c.type, c.older, c.newer, c.options),
          (e) => e instanceof Error && e.name === 'CounterTypeError' && e.field.endsWith(c.error), c.why);
        continue;
      }
      const r = api.cook(c.type, c.older, c.newer, c.options);
      assert.equal(r.status, c.status, c.why);
      if (c.value === null) assert.equal(r.value, null, c.why);
      else close(r.value, c.value, c.why);
    }
  });
}

test('raw values as bigint, number and string agree; 2^53+1 stays exact', () => {
  const mk = (conv) => api.cook('PERF_COUNTER_LARGE_DELTA', { value: conv(9007199254740993n) }, { value: conv(9007199254740995n) });
  assert.deepEqual(mk((v) => v), { value: 2, status: 'ok' });
  assert.deepEqual(mk((v) => v.toString()), { value: 2, status: 'ok' });
  // As JS numbers both values are already rounded (to 2^53 and 2^53+4): the caller's loss, visible here.
  assert.deepEqual(mk((v) => Number(v)), { value: 4, status: 'ok' });
});

test('bad raw values and types throw Errors that name the field', () => {
  for (const bad of [-1, 1.5, NaN, Infinity, '1e3', ' 5', -1n, 2n ** 64n, {}, true]) {
    assert.throws(() => api.cook('PERF_COUNTER_RAWCOUNT', null, { value: bad }),
      (e) => e.code === 'invalid-raw-value' && e.field === 'newer.value', String(bad));
  }
  assert.throws(() => api.describeCounterType('PERF_NOT_A_TYPE'), (e) => e.code === 'invalid-type');
  assert.throws(() => api.describeCounterType(2 ** 32), (e) => e.code === 'invalid-type');
  assert.throws(() => api.describeCounterType(null), (e) => e.code === 'invalid-type');
  assert.throws(() => api.cook('PERF_COUNTER_RAWCOUNT', null, { value: 1 }, { scale: 1.5 }), (e) => e.code === 'invalid-option');
  assert.throws(() => api.cook('PERF_COUNTER_RAWCOUNT', null, undefined), (e) => e.code === 'invalid-argument');
  // The module still works after all of that.
  assert.equal(api.cook('PERF_COUNTER_RAWCOUNT', null, { value: 7 }).value, 7);
});

test('describeCounterType takes every spelling; counterTypes lists the 39 rows', () => {
  const all = api.counterTypes();
  assert.equal(all.length, 39);
  assert.deepEqual(all.map((t) => t.name).slice(0, 3), ['PERF_COUNTER_COUNTER', 'PERF_SAMPLE_COUNTER', 'PERF_COUNTER_BULK_COUNT']);
  for (const s of [0x21510500, '0x21510500', '558957824', 'PERF_100NSEC_TIMER_INV', 'perf_100nsec_timer_inv', 'Timer100NsInverse']) {
    const d = api.describeCounterType(s);
    assert.equal(d.name, 'PERF_100NSEC_TIMER_INV', String(s));
    assert.equal(d.formula, '100 * (1 - dN / dD)');
    assert.deepEqual(d.fields, { size: 'PERF_SIZE_LARGE', type: 'PERF_TYPE_COUNTER', subtype: 'PERF_COUNTER_RATE', timer: 'PERF_TIMER_100NS',
      delta: true, deltaBase: false, inverse: true, multi: false, suffix: 'PERF_DISPLAY_PERCENT' });
  }
  const unknown = api.describeCounterType(0x20c20500);
  assert.equal(unknown.name, null);
  assert.equal(unknown.samples, 0);
  assert.equal(api.describeCounterType('PERF_PRECISION_TIMESTAMP').name, 'PERF_LARGE_RAW_BASE');
});

test('explain and formatValue', () => {
  const e = api.explain('PERF_COUNTER_COUNTER', { value: 1000, second: 10000000, frequency: 10000000 },
    { value: 1500, second: 30000000, frequency: 10000000 });
  assert.equal(e.formula, 'dN / (dD / F)');
  assert.equal(e.substituted, '(1500 - 1000) / ((30000000 - 10000000) / 10000000) = 250');
  assert.deepEqual(e.result, { value: 250, status: 'ok' });
  assert.equal(api.formatValue(250, 'PERF_COUNTER_COUNTER'), '250.000/sec');
  assert.equal(api.formatValue(1234567, 'PERF_COUNTER_RAWCOUNT'), '1,234,567');
  assert.equal(api.formatValue(1234567, 'PERF_COUNTER_RAWCOUNT', 0x4), '1234567');
  assert.equal(api.formatValue(255, 'PERF_COUNTER_RAWCOUNT', 0x10n), '0xff');
  assert.equal(api.formatValue(NaN, 'PERF_COUNTER_TIMER'), '');
  assert.equal(api.formatValue(9.375, 'Timer100NsInverse'), '9.375%');
});

test('cookSeries: one call per series, frequency constant or per sample', () => {
  const value = new BigUint64Array([100n, 200n, 400n, 50n, 150n]);
  const second = new BigUint64Array([0n, 10n, 20n, 30n, 40n]);
  const a = api.cookSeries('PERF_COUNTER_COUNTER', { value, second, frequency: 10 });
  const b = api.cookSeries('PERF_COUNTER_COUNTER', { value, second, frequency: new BigUint64Array(5).fill(10n) });
  // NaN first; 100/(10/10) = 100; 200; 400 > 50: negative-value, a gap; (150-50)/1 = 100
  for (const out of [a, b]) {
    assert.ok(out instanceof Float64Array);
    assert.deepEqual([...out].map((v) => (Number.isNaN(v) ? 'gap' : v)), ['gap', 100, 200, 'gap', 100]);
  }
  assert.throws(() => api.cookSeries('PERF_COUNTER_COUNTER', { value, second: new BigUint64Array(2), frequency: 1 }),
    (e) => e.code === 'column-length');
  assert.throws(() => api.cookSeries('PERF_COUNTER_COUNTER', { value: [1, 2] }), (e) => e.field === 'columns.value');
  const st = api.seriesStats(a);
  assert.deepEqual({ ...st, stddev: Math.round(st.stddev * 1e9) / 1e9 },
    // values 100, 200, 100: mean 400/3; population variance = (2*(100-133.3)^2 + 66.7^2)/3 = 2222.2; sd 47.14
    { count: 3, min: 100, max: 200, mean: 400 / 3, last: 100, stddev: 47.140452079, p95: 200 });
  assert.deepEqual(api.statusNames(), ['ok', 'needs-two-samples', 'negative-value', 'negative-denominator',
    'zero-denominator', 'not-displayable', 'unknown-type']);
});

test('index.d.ts declares exactly the functions the package exports', () => {
  const dts = readFileSync(new URL('../../js/index.d.ts', import.meta.url), 'utf8');
  const declared = new Set([...dts.matchAll(/^export (?:function|class) (\w+)/gm)].map((m) => m[1]));
  declared.add('default');
  const exported = new Set(Object.keys(api));
  assert.deepEqual([...exported].sort(), [...declared].sort());
});

test('errors are instances of the package classes, with their code and position', () => {
  const expectations = [
    [() => api.describeCounterType('PERF_NO_SUCH_TYPE'), api.CounterTypeError, 'invalid-type'],
    [() => api.validateRegistration(42), api.RegistrationError, undefined],
    [() => api.openCapture(new TextEncoder().encode('"(PDH-CSV 4.0)","\\\\H\\O\\C"\r\n"11/22/2026 09:00:00.000","x"\r\n')), api.CaptureError, 'bad-number'],
    // Not a Uint8Array: refused before wasm touches it (openCapture reads its argument in slices).
    [() => api.openCapture([1, 2, 3]), api.CaptureError, 'invalid-argument'],
    [() => api.openCapture('"(PDH-CSV 4.0)"'), api.CaptureError, 'invalid-argument'],
  ];
  for (const [fn, Class, code] of expectations) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof Class && e instanceof Error, `${e.name} is a ${Class.name}`);
      assert.equal(e.name, Class.name);
      assert.equal(typeof e.code, 'string');
      if (code) assert.equal(e.code, code);
      assert.match(e.stack, new RegExp(Class.name));
      return true;
    });
  }
  // A capture error says where: line 2, column 27 (the quoted time is 25 characters, then a comma).
  try { expectations[2][0](); } catch (e) { assert.deepEqual([e.line, e.column], [2, 27]); }
});

test('mountViewer is exported everywhere and says plainly that it needs a browser', () => {
  assert.throws(() => api.mountViewer({}), (e) => e instanceof TypeError && /needs a browser page/.test(e.message));
});
