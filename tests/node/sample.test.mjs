// The viewer's sample capture (scripts/make-sample.mjs): valid against the published JSON Schema,
// read through the package, and its cooked values consistent the way Windows' are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openCapture, describeCounterType, counterTypes, analyze } from 'counterlens';

const root = new URL('../../', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('schema/counterlens-raw-capture-v1.schema.json', root), 'utf8'));
const bytes = readFileSync(new URL('web/sample-capture.json', root));
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(schema);

test('the generator is deterministic and its output is what the build put in web/', () => {
  const again = execFileSync(process.execPath, [new URL('scripts/make-sample.mjs', root).pathname], { maxBuffer: 64 << 20 });
  assert.ok(again.equals(bytes), 'scripts/make-sample.mjs wrote different bytes this time');
});

test('the sample and the small golden raw capture match the JSON Schema; broken ones do not', () => {
  for (const doc of [JSON.parse(bytes), JSON.parse(readFileSync(new URL('tests/vectors/captures/raw-tiny.json', root), 'utf8'))]) {
    assert.ok(validate(doc), JSON.stringify(validate.errors?.slice(0, 3)));
  }
  const broken = JSON.parse(bytes);
  broken.samples[0].perfTime100nSec = broken.samples[0].perfTime100NSec; // the winperf.h spelling is not ours
  delete broken.samples[0].perfTime100NSec;
  assert.equal(validate(broken), false);
  assert.equal(validate({ ...JSON.parse(bytes), version: 2 }), false);
});

const c = openCapture(new Uint8Array(bytes));
const info = c.series();
const find = (path) => {
  const s = info.find((x) => x.path === path);
  assert.ok(s, `no series ${path}`);
  return c.values(s.index);
};

test('the sample reads: ten minutes at one second, every object, most types', () => {
  assert.equal(c.format, 'counterlens-json');
  assert.equal(c.sampleCount, 600);
  assert.deepEqual(c.timeZone, { name: 'Pacific Standard Time', biasMinutes: 480 });
  assert.equal(c.timestamps()[0], Date.UTC(2026, 10, 22, 9, 0, 0));
  assert.deepEqual([...new Set(info.map((s) => s.object))], ['Processor', 'Memory', 'PhysicalDisk', 'Network Interface', 'Process', 'System', 'Example Service']);
  const types = new Set(info.map((s) => describeCounterType(s.counterType).name));
  // Every displayable type but TEXT is exercised (the bases through the counters that use them).
  const displayable = new Set(counterTypes().filter((t) => t.samples > 0 && t.display !== 'text').map((t) => t.name));
  assert.deepEqual([...displayable].filter((t) => !types.has(t)), []);
  assert.deepEqual(c.notes(), []);
});

// Raw counters are integers: the generator rounds each to a whole 100 ns unit, an error of at most 0.5 unit in
// each of N0 and N1, so 1 unit in dN over the 10^7 units of a second: 100 * 1 / 1e7 = 1e-5 percentage
// points per cooked value. A sum of three such values (user + privileged vs processor) is within 3e-5.
const ROUNDING = 3e-5;

test('consistent as Windows is: _Total is the mean of the CPUs, user + privileged = processor time', () => {
  const m = '\\\\DEMO-SQL01\\Processor(';
  const total = find(`${m}_Total)\\% Processor Time`);
  const cpus = [0, 1, 2, 3].map((i) => find(`${m}${i})\\% Processor Time`));
  for (let k = 1; k < c.sampleCount; k++) {
    const mean = cpus.reduce((s, v) => s + v[k], 0) / 4;
    assert.ok(Math.abs(total[k] - mean) <= ROUNDING, `k=${k}: ${total[k]} vs ${mean}`);
    for (let i = 0; i < 4; i++) {
      const sum = find(`${m}${i})\\% User Time`)[k] + find(`${m}${i})\\% Privileged Time`)[k];
      assert.ok(Math.abs(sum - cpus[i][k]) <= ROUNDING, `cpu ${i} k=${k}: ${sum} vs ${cpus[i][k]}`);
    }
  }
  assert.ok(Number.isNaN(total[0]), 'the first sample of a rate has no value');
});

test('instances come and go, and gaps are gaps', () => {
  const notepad = find('\\\\DEMO-SQL01\\Process(notepad)\\Working Set');
  const present = [...notepad].map((v) => !Number.isNaN(v));
  assert.equal(present.indexOf(true), 120);
  assert.equal(present.lastIndexOf(true), 299);
  const backup = find('\\\\DEMO-SQL01\\Process(backup)\\% Processor Time');
  assert.ok(Number.isNaN(backup[360]) && !Number.isNaN(backup[361]), 'a new instance has no older sample at its first');
  // Elapsed Time through PerfTimeId/PerfFreqId: notepad started at 09:02:00, so at 09:03:00 it is 60 s old.
  assert.equal(find('\\\\DEMO-SQL01\\Process(notepad)\\Elapsed Time')[180], 60);
  // Through BaseCounterId: disk latency in seconds (unscaled, as relog writes it; DefaultScale 3 stays on
  // the series), between the generator's 0.002 and 0.012 s per read.
  const lat = find('\\\\DEMO-SQL01\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read');
  assert.ok([...lat].slice(1).every((v) => v >= 0.002 && v <= 0.012), 'latency out of range');
  // Through MultiId: the four CPUs' average busy share equals the mean of the CPUs' % Processor Time.
  const avg = find('\\\\DEMO-SQL01\\System\\% Average Processor Busy');
  const total = find('\\\\DEMO-SQL01\\Processor(_Total)\\% Processor Time');
  assert.ok(Math.abs(avg[100] - total[100]) <= ROUNDING, `${avg[100]} vs ${total[100]}`);
});

test('DefaultScale stays on the series, not in its values: the analysis reads seconds, as from a .blg', () => {
  const disk = '\\\\DEMO-SQL01\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read';
  assert.equal(info.find((x) => x.path === disk).defaultScale, 3);
  assert.equal(info.find((x) => x.path === '\\\\DEMO-SQL01\\PhysicalDisk(0 C:)\\Disk Reads/sec').defaultScale, undefined);
  // The generator's reads take 0.002-0.012 s; the system overview warns from 0.015 s (10 minutes) and is
  // critical from 0.025 s (5 minutes), so the read latency rules run on both disks and find nothing. Read
  // at Perfmon's scale (x 10^3: 2-12) the same rules would call every sample of the ten minutes critical.
  const a = analyze(c);
  const ran = a.rules.filter((r) => r.rule === 'physical-disk-read-latency-critical');
  assert.deepEqual(ran.map((r) => [r.series, r.threshold]), [[2, 0.025]]);
  assert.deepEqual(a.findings.filter((f) => f.path.includes('Avg. Disk sec/')).map((f) => f.message), []);
});

test("the sample's verdict: its busy minute is not an episode, and nothing broke", () => {
  // The generator: per CPU busy = load +- 0.08 (+0.05 on CPU 0), privileged = busy x 0.2..0.4 (mean 0.3).
  // In 09:05:00-09:05:59 load = 0.2 + 0.12 sin(k / 45) + 0.45 = 0.69..0.77, so privileged time averages
  // about 0.73 x 0.3 = 22% there (the 20% warning) and about 9% elsewhere. The privileged-time warning
  // judges 15-minute windows, which a 10-minute log never fills (docs/analysis.md, "Episodes"); even a
  // window of the whole log would hold 60 busy samples of 600 (10%, not half) and a mean of about
  // (60 x 22 + 540 x 9) / 600 = 10.3%. Processor time passes 80% only within that minute; memory and the
  // disks stay under their thresholds. So: every built-in rule whose counters the sample has ran, and none
  // broke (the verdict says "No rule broke", not "not analysed").
  const a = analyze(c);
  assert.deepEqual(a.findings, []);
  assert.deepEqual(a.groups, []);
  const ran = (id) => a.rules.find((r) => r.rule === id);
  assert.equal(ran('privileged-time-warning').series, 5);
  assert.equal(ran('privileged-time-warning').skipped, undefined);
  assert.deepEqual(ran('privileged-time-warning').episode, { window: 900 });
  assert.deepEqual(a.packs.map((p) => [p.id, p.builtin]), [['system-overview', true]]);
});
