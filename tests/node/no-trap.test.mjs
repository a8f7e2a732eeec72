// No public function can trap: thousands of random and mutated inputs go to every exported function, and
// each call must return or throw an Error (a wasm panic would surface as a RuntimeError "unreachable" and
// leave the module unusable). After all of it, the module must still compute correctly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from 'counterlens';

let seed = 0x5eed;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (a) => a[Math.floor(rand() * a.length)];

const SCALARS = [undefined, null, true, false, 0, -0, 1, -1, 0.5, NaN, Infinity, -Infinity, 2 ** 32, 2 ** 53 + 1, 2 ** 64,
  -(2 ** 63), 0n, 1n, -1n, 2n ** 64n, 2n ** 64n - 1n, '', ' ', '0', '-1', '0x10410400', 'PERF_COUNTER_COUNTER', 'x'.repeat(1000),
  '\u0000', '\ud800', '<script>alert(1)</script>', '\u202e', {}, [], [1, 2], () => 1, Symbol('s'), new Date(0)];

function randomValue(depth = 0) {
  const r = rand();
  if (depth > 2 || r < 0.5) return pick(SCALARS);
  if (r < 0.6) return new Uint8Array(Array.from({ length: Math.floor(rand() * 64) }, () => Math.floor(rand() * 256)));
  if (r < 0.65) return new BigUint64Array(Array.from({ length: Math.floor(rand() * 8) }, () => BigInt(Math.floor(rand() * 1e6))));
  if (r < 0.7) return new Float64Array(Array.from({ length: Math.floor(rand() * 8) }, () => rand() * 100));
  if (r < 0.85) {
    const o = {};
    for (const k of ['value', 'second', 'frequency', 'multi', 'cap100', 'scale', 'x1000', 'wrap32', 'format', 'encoding', 'size', 'counterSets']) {
      if (rand() < 0.4) o[k] = randomValue(depth + 1);
    }
    return o;
  }
  return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(depth + 1));
}

/** Flips, inserts and deletes bytes of a valid input. */
function mutate(bytes) {
  const b = Array.from(bytes);
  const n = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < n && b.length; i++) {
    const at = Math.floor(rand() * b.length);
    const r = rand();
    if (r < 0.4) b[at] = Math.floor(rand() * 256);
    else if (r < 0.7) b.splice(at, 1);
    else b.splice(at, 0, pick([0x22, 0x2c, 0x0a, 0x7b, 0x7d, 0x5b, 0x3c, 0x00, 0xff, 0x5c]));
  }
  if (rand() < 0.2) b.length = Math.floor(rand() * b.length); // cut short
  return new Uint8Array(b);
}

const thrown = new Map();
function call(name, fn) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof Error, `${name} threw a non-Error: ${String(e)}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${name} trapped: ${e.message}`);
    // Every error is one of the package's classes, with a stable code (a TypeError from JS glue for an
    // argument that is not even the right JS kind, such as a Symbol, is the only other).
    if (!(e instanceof TypeError)) {
      assert.ok(e instanceof api.CounterTypeError || e instanceof api.RegistrationError || e instanceof api.CaptureError, `${name}: ${e.name}: ${e.message}`);
      assert.equal(e.name, e.constructor.name);
      assert.equal(typeof e.code, 'string', `${name}: ${e.message}`);
      thrown.set(e.name, (thrown.get(e.name) ?? 0) + 1);
    }
  }
}

const vectors = new URL('../vectors/', import.meta.url);
const seeds = [
  ...['relog-pst.csv', 'relog.tsv', 'utf16le.csv', 'cp1251.csv', 'get-counter-ps51.json', 'get-counter-ps7.json', 'raw-tiny.json']
    .map((f) => readFileSync(new URL(`captures/${f}`, vectors))),
  ...['rich.man', 'rich.json', 'rich.hex'].map((f) => readFileSync(new URL(`registration/${f}`, vectors))),
  // The header, name table, definitions and first samples of a .blg (two 64 KiB buffers).
  readFileSync(new URL('captures/BasicPerfCounters.blg', vectors)).subarray(0, 0x20000),
];

test('random arguments to every function: returns or an Error, never a trap', () => {
  const fns = {
    describeCounterType: () => api.describeCounterType(randomValue()),
    cook: () => api.cook(randomValue(), randomValue(), randomValue(), randomValue()),
    explain: () => api.explain(randomValue(), randomValue(), randomValue(), randomValue()),
    formatValue: () => api.formatValue(randomValue(), randomValue(), randomValue()),
    cookSeries: () => api.cookSeries(randomValue(), randomValue(), randomValue()),
    seriesStats: () => api.seriesStats(randomValue(), randomValue(), randomValue()),
    validateRegistration: () => api.validateRegistration(randomValue(), randomValue()),
    openCapture: () => api.openCapture(randomValue(), randomValue()),
    CaptureReader: () => { const r = new api.CaptureReader(randomValue()); r.push(randomValue()); r.finish(); },
    fromParts: () => api.Capture.fromParts(randomValue()),
    readCatalogue: () => api.readCatalogue(randomValue(), randomValue()),
    CatalogueReader: () => { const r = new api.CatalogueReader(randomValue()); r.push(randomValue()); r.finish(); },
  };
  for (let i = 0; i < 3000; i++) {
    for (const [name, fn] of Object.entries(fns)) call(name, fn);
  }
  // All three families were thrown, and caught as their classes.
  assert.deepEqual([...thrown.keys()].sort(), ['CaptureError', 'CounterTypeError', 'RegistrationError']);
});

test('mutated captures and registrations: returns or an Error, never a trap', () => {
  for (let i = 0; i < 1500; i++) {
    const input = mutate(pick(seeds));
    call('openCapture', () => api.openCapture(input).free());
    call('CaptureReader', () => {
      const r = new api.CaptureReader({ size: input.length });
      for (let at = 0; at < input.length; at += 1 + Math.floor(rand() * 200)) r.push(input.subarray(at, at + 200));
      const c = r.finish();
      for (let s = 0; s < Math.min(c.seriesCount, 3); s++) { c.values(s); c.stats(s, rand() * 2e12, rand() * 2e12); }
      c.toCsv([0, 99, -1].filter((x) => x >= 0));
      c.free();
    });
    call('readCatalogue', () => api.readCatalogue(input));
    call('CatalogueReader', () => {
      const r = new api.CatalogueReader();
      for (let at = 0; at < input.length; at += 1 + Math.floor(rand() * 200)) r.push(input.subarray(at, at + 200));
      r.finish();
    });
    call('validateRegistration', () => api.validateRegistration(input));
    call('validateRegistration text', () => api.validateRegistration(new TextDecoder().decode(input)));
  }
});

test('the module still computes correctly afterwards', () => {
  assert.deepEqual(api.cook('PERF_COUNTER_COUNTER', { value: 1000, second: 10000000, frequency: 10000000 },
    { value: 1500, second: 30000000, frequency: 10000000 }), { value: 250, status: 'ok' });
  assert.equal(api.openCapture(seeds[0]).sampleCount, 3);
  assert.equal(api.validateRegistration(seeds[7]).errors, 0);
  assert.equal(api.openCapture(seeds[10]).format, 'blg');
});
