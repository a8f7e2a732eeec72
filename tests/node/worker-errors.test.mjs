// Errors crossing from a Worker: errorToData and errorFromData (js/errors.js), the one pair every Worker
// path uses (viewer/worker.js reading and analysing, parallel-worker.js; parallel.js and viewer/reading.js
// turn them back). An error the core throws comes back an instance of its class with every field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as api from '../../js/node.js';
import { errorToData, errorFromData } from '../../js/errors.js';

/** What a Worker's message does to the data: a structured clone. */
const cross = (e) => errorFromData(structuredClone(errorToData(e)));

test('a CaptureError from the core comes back a CaptureError with its code and position', () => {
  let thrown;
  try {
    api.openCapture(new TextEncoder().encode('"(PDH-CSV 4.0)","\\\\H\\O\\C"\r\n"11/22/2026 09:00:00.000","x"\r\n'));
  } catch (e) {
    thrown = e;
  }
  const back = cross(thrown);
  assert.ok(back instanceof api.CaptureError && back instanceof Error);
  assert.equal(back.name, 'CaptureError');
  assert.equal(back.message, thrown.message);
  // Line 2, column 27: the quoted time is 25 characters, then a comma (as api.test.mjs).
  assert.deepEqual([back.code, back.line, back.column], ['bad-number', 2, 27]);
  assert.deepEqual(errorToData(thrown), { name: 'CaptureError', message: thrown.message, code: 'bad-number', line: 2, column: 27 });
});

test('an AnalysisError keeps where the pack was wrong', () => {
  let thrown;
  try {
    api.analyze(api.openCapture(new TextEncoder().encode('"(PDH-CSV 4.0)","\\\\H\\O\\C"\r\n"11/22/2026 09:00:00.000","1"\r\n')), { packs: ['no-such-pack'] });
  } catch (e) {
    thrown = e;
  }
  const back = cross(thrown);
  assert.ok(back instanceof api.AnalysisError);
  assert.deepEqual([back.code, back.field], ['unknown-pack', 'packs']);
  assert.equal(back.message, thrown.message);
});

test('each class by name, every field kept, absent and null fields left out', () => {
  for (const Class of [api.CounterTypeError, api.RegistrationError, api.CaptureError, api.AnalysisError]) {
    const e = new Class('m');
    Object.assign(e, { code: 'c', field: 'f', pointer: '/rules/0', line: 3, column: 4, offset: 5, variable: 'v', file: 'x.xml' });
    const back = cross(e);
    assert.ok(back instanceof Class, Class.name);
    assert.deepEqual({ ...back }, { code: 'c', field: 'f', pointer: '/rules/0', line: 3, column: 4, offset: 5, variable: 'v', file: 'x.xml' });
  }
  const e = new api.CaptureError('m');
  e.code = 'empty';
  e.line = null;
  assert.deepEqual(errorToData(e), { name: 'CaptureError', message: 'm', code: 'empty' });
});

test('other errors stay Errors with their name; anything thrown becomes a message', () => {
  const t = cross(new TypeError('bad'));
  assert.ok(t instanceof Error && !(t instanceof api.CaptureError));
  assert.deepEqual([t.name, t.message], ['TypeError', 'bad']);
  assert.deepEqual(errorToData('a string'), { name: 'Error', message: 'a string' });
  assert.deepEqual(errorToData(undefined), { name: 'Error', message: 'undefined' });
  // A name that is not the package's (nor Object.prototype's) gives no class of it.
  assert.equal(errorFromData({ name: 'constructor', message: 'x' }).constructor, Error);
});

test('every Worker path sends and rebuilds errors through the pair', () => {
  const src = (f) => readFileSync(new URL(`../../js/${f}`, import.meta.url), 'utf8');
  for (const f of ['viewer/worker.js', 'parallel-worker.js']) {
    const s = src(f);
    assert.ok(/error: errorToData\(e\)/.test(s), `${f} posts errorToData`);
    assert.ok(!/error: \{/.test(s), `${f} builds an error object of its own`);
  }
  for (const f of ['parallel.js', 'viewer/reading.js']) assert.ok(/reject\(errorFromData\(/.test(src(f)), `${f} rebuilds with errorFromData`);
});
