// validateRegistration through the npm package: the shared cases of tests/vectors/registration.json,
// every input kind (string, Uint8Array, object with bigints), and the argument errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validateRegistration } from 'counterlens';

const dir = new URL('../vectors/', import.meta.url);
const { cases } = JSON.parse(readFileSync(new URL('registration.json', dir), 'utf8'));
const fixture = (name) => readFileSync(new URL(`registration/${name}`, dir), 'utf8');

for (const c of cases) {
  test(`registration: ${c.name}`, () => {
    let text = c.base ? fixture(c.base) : c.text;
    if (c.replace) {
      assert.ok(text.includes(c.replace[0]), `${c.replace[0]} not in ${c.base}`);
      text = text.replace(c.replace[0], c.replace[1]);
    }
    if (c.lines) text = text.split('\n').slice(0, c.lines).map((l) => l + '\n').join('');
    const r = validateRegistration(text);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.severity, d.field ?? null, d.counterId ?? null]), c.expect);
    assert.equal(r.errors, c.expect.filter((e) => e[1] === 'error').length);
    if (c.line) assert.equal(r.diagnostics[0].line, c.line);
    if (c.setName) assert.equal(r.counterSets[0].name, c.setName);
    for (const d of r.diagnostics) {
      assert.ok(d.message.length > 10 && d.source.length > 0, JSON.stringify(d));
      assert.equal(typeof d.offset, 'number');
    }
  });
}

test('registration: report shape, bytes, objects and argument errors', () => {
  const r = validateRegistration(fixture('rich.man'));
  assert.equal(r.format, 'manifest');
  assert.deepEqual(Object.keys(r).sort(), ['counterSets', 'diagnostics', 'errors', 'format', 'warnings']);
  const set = r.counterSets[0];
  assert.equal(set.guid, 'ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab');
  assert.equal(set.counters, 17);
  assert.deepEqual(set.counterList[2], { counterId: 3, name: 'Counter 3', type: 0x30020400, typeName: 'PERF_AVERAGE_TIMER',
    base: 'Counter 4', perfTime: null, perfFreq: null, multi: null });
  // The hex fixture as bytes: the binary form.
  const hex = fixture('rich.hex').trim().split(/\s+/).map((b) => parseInt(b, 16));
  const b = validateRegistration(new Uint8Array(hex));
  assert.equal(b.format, 'binary');
  assert.equal(b.errors + b.warnings, 0);
  // A plain object with a bigint, as a caller might build it.
  const obj = JSON.parse(fixture('rich.json'));
  obj.counterSets[0].counters[0].attrib = 0n;
  const o = validateRegistration(obj);
  assert.equal(o.errors, 0);
  assert.throws(() => validateRegistration(42), (e) => e.name === 'RegistrationError' && e.code === 'invalid-argument');
  assert.throws(() => validateRegistration('x', { format: 'yaml' }), (e) => e.code === 'invalid-option');
  // A format that does not fit the bytes is a diagnostic, not a throw.
  const wrong = validateRegistration(new Uint8Array([0xff, 0xfe]), { format: 'manifest' });
  assert.equal(wrong.diagnostics[0].code, 'parse-error');
});
