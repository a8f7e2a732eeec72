// The built-in rule packs (crate/data/packs/*.json) against the shipped JSON Schema (js/rule-pack.schema.json,
// draft 2020-12), and the schema against packs that are wrong in the ways users get them wrong.
// The Rust side (every built-in parses with the core's types) is tested in crate/src/analysis/builtin.rs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const schema = JSON.parse(readFileSync(`${repo}js/rule-pack.schema.json`, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
const validate = ajv.compile(schema);
const packDir = `${repo}crate/data/packs/`;
const files = readdirSync(packDir).filter((f) => f.endsWith('.json')).sort();
const packs = files.map((f) => ({ file: f, pack: JSON.parse(readFileSync(packDir + f, 'utf8')) }));

const errorsOf = (value) => (validate(value) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}`));

test('the five built-in packs are there', () => {
  assert.deepEqual(files, ['dotnet-clr.json', 'hyper-v.json', 'iis-aspnet.json', 'sql-server.json', 'system-overview.json']);
});

for (const { file, pack } of packs) {
  test(`${file} validates against the schema`, () => {
    assert.deepEqual(errorsOf(pack), []);
    assert.equal(`${pack.id}.json`, file, 'the file is named after the pack id');
    assert.equal(pack.source, 'counterlens built-in');
  });

  test(`${file}: every rule is written for a user (title, category, description, public references)`, () => {
    const ids = new Set();
    for (const rule of pack.rules) {
      assert.ok(!ids.has(rule.id), `duplicate rule id ${rule.id}`);
      ids.add(rule.id);
      assert.ok(rule.description.length >= 80, `${rule.id}: description too short to act on`);
      assert.ok(rule.references.length >= 1, `${rule.id}: no reference`);
      for (const r of rule.references) assert.match(r.url, /^https:\/\/(learn\.microsoft\.com|github\.com\/clinthuffman\/PAL)/, `${rule.id}: ${r.url}`);
      assert.ok(rule.counter.startsWith('\\'), rule.counter);
      assert.ok(rule.category, `${rule.id}: no category`);
    }
  });

  test(`${file}: threshold expressions only name the pack's numeric variables`, () => {
    const numeric = new Set((pack.variables ?? []).filter((v) => v.type === 'number').map((v) => v.name));
    for (const rule of pack.rules) {
      if (typeof rule.threshold !== 'string') continue;
      // Identifiers that are not a size suffix glued to a number (100MB) nor min/max.
      const names = rule.threshold.replace(/\d+(\.\d+)?(KB|MB|GB|TB)\b/g, '0').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
      for (const n of names.filter((n) => n !== 'min' && n !== 'max')) assert.ok(numeric.has(n), `${rule.id}: ${n} is not a numeric variable of ${pack.id}`);
    }
  });

  test(`${file}: a rule's warning and critical agree on counter and direction, the critical further out`, () => {
    // A group is a concern (docs/analysis.md, "Cards": processor time, kernel time and the queue are one
    // card); within it, a rule's pair is its id with -warning and -critical (processor-time-warning and
    // processor-time-critical), on one counter, one operator, the critical's literal threshold further.
    const pairs = new Map();
    for (const rule of pack.rules) {
      const m = /^(.*)-(warning|critical)$/.exec(rule.id);
      if (!m) continue;
      assert.equal(m[2], rule.severity, rule.id);
      pairs.set(m[1], [...(pairs.get(m[1]) ?? []), rule]);
    }
    for (const [stem, rules] of pairs) {
      if (rules.length < 2) continue;
      assert.deepEqual(rules.map((r) => r.severity).sort(), ['critical', 'warning'], stem);
      assert.equal(new Set(rules.map((r) => r.counter)).size, 1, stem);
      assert.equal(new Set(rules.map((r) => r.operator)).size, 1, stem);
      assert.equal(new Set(rules.map((r) => r.group)).size, 1, stem);
      const [w, c] = ['warning', 'critical'].map((s) => rules.find((r) => r.severity === s).threshold);
      if (typeof w === 'number') assert.ok(rules[0].operator.startsWith('g') ? c > w : c < w, `${stem}: ${w} vs ${c}`);
    }
  });
}

test('the PAL thresholds the issue names: disk latency 15/25 ms, processor 80/95', () => {
  const so = packs.find((p) => p.pack.id === 'system-overview').pack;
  const t = (id) => so.rules.find((r) => r.id === id).threshold;
  assert.equal(t('disk-read-latency-warning'), 0.015);
  assert.equal(t('disk-read-latency-critical'), 0.025);
  assert.equal(t('disk-write-latency-warning'), 0.015);
  assert.equal(t('disk-write-latency-critical'), 0.025);
  assert.equal(t('processor-time-warning'), 80);
  assert.equal(t('processor-time-critical'), 95);
  assert.equal(t('processor-queue-warning'), 'logicalProcessors * 10');
  const lp = so.variables.find((v) => v.name === 'logicalProcessors');
  assert.equal(lp.derive, 'logicalProcessors');
  const trends = so.rules.filter((r) => r.kind === 'trend').map((r) => r.counter);
  for (const c of ['\\Process(*)\\Handle Count', '\\Process(*)\\Thread Count', '\\Process(*)\\Private Bytes']) assert.ok(trends.includes(c), c);
});

test('the schema refuses what the format forbids, naming the place', () => {
  const base = () => ({ id: 'p', title: 'P', rules: [{ id: 'r', title: 'T', category: 'C', counter: '\\Memory\\Available MBytes', kind: 'static', severity: 'warning', operator: 'lt', threshold: 100 }] });
  assert.deepEqual(errorsOf(base()), []);
  const cases = [
    [(p) => { p.rules[0].treshold = 5; }, '/rules/0 must NOT have additional properties'],
    [(p) => { p.id = 'Bad Id'; }, '/id must match pattern "^[a-z0-9-]+$"'],
    [(p) => { p.rules[0].operator = '>'; }, '/rules/0/operator must be equal to one of the allowed values'],
    [(p) => { p.rules[0].severity = 'info'; }, '/rules/0/severity must be equal to one of the allowed values'],
    [(p) => { p.rules[0].threshold = true; }, '/rules/0/threshold must be number'],
    [(p) => { p.rules[0].stats = ['median']; }, '/rules/0/stats/0 must be equal to one of the allowed values'],
    [(p) => { p.rules[0].minDurationPercent = 150; }, '/rules/0/minDurationPercent must be <= 100'],
    [(p) => { p.rules[0].kind = 'trend'; p.rules[0].stats = ['avg']; }, '/rules/0/stats boolean schema is false'],
    [(p) => { delete p.rules[0].counter; }, "/rules/0 must have required property 'counter'"],
    [(p) => { p.variables = [{ name: 'RAM', type: 'number', default: '16' }]; }, '/variables/0/default must be number'],
    [(p) => { p.variables = [{ name: '1x', type: 'number', default: 1 }]; }, '/variables/0/name must match pattern "^[A-Za-z_][A-Za-z0-9_]*$"'],
    [(p) => { p.variables = [{ name: 'x', type: 'number', default: 1, derive: 'memory' }]; }, '/variables/0/derive must be equal to one of the allowed values'],
    [(p) => { p.rules[0].references = [{ title: 'x', url: 'javascript:alert(1)' }]; }, '/rules/0/references/0/url must match pattern "^https?://"'],
  ];
  for (const [mutate, expected] of cases) {
    const p = base();
    mutate(p);
    assert.ok(errorsOf(p).includes(expected), `${expected} not in ${JSON.stringify(errorsOf(p))}`);
  }
});

test('the schema imports by its package name, as users import it', async () => {
  const { default: exported } = await import('counterlens/rule-pack.schema.json', { with: { type: 'json' } });
  assert.deepEqual(exported, schema);
});

test('the package exports the schema', () => {
  const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8'));
  assert.equal(pkg.exports['./rule-pack.schema.json'], './js/rule-pack.schema.json');
  assert.ok(pkg.files.some((f) => 'js/rule-pack.schema.json'.startsWith(f)), pkg.files.join(', '));
});

test('the pack imported from PAL SystemOverview.xml (golden file of crate/tests/pal_import.rs) validates too', () => {
  const imported = JSON.parse(readFileSync(`${repo}tests/vectors/pal/SystemOverview.import.json`, 'utf8'));
  assert.deepEqual(errorsOf(imported.pack), []);
  assert.equal(imported.translated, 16);
  assert.equal(imported.total, 18);
  assert.equal(imported.translated + imported.untranslated.length, imported.total);
});
