// A machine's normal through the package in Node: BaselineBuilder / buildBaseline over captures, and
// analyze's `baseline` option (the object or a .baseline.json file's text). The same construction as
// crate/src/analysis/baseline.rs's tests, with the expectations written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'counterlens';

const MIN = 60_000;
/** 2026-11-16 00:00 UTC, a Monday. */
const MONDAY = Date.UTC(2026, 10, 16);
const DAY = 86_400_000;

/** A relog CSV (no zone: UTC) of `machine`'s _Total CPU, one sample a minute from `start`. */
function log(machine, start, minutes, cpu) {
  const head = ['(PDH-CSV 4.0)', `\\\\${machine}\\Processor(_Total)\\% Processor Time`];
  const lines = [head.map((c) => `"${c}"`).join(',')];
  for (let k = 0; k < minutes; k++) {
    const d = new Date(start + k * MIN);
    const p = (n) => String(n).padStart(2, '0');
    const t = `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:00.000`;
    lines.push(`"${t}","${cpu(k)}"`);
  }
  return api.openCapture(new TextEncoder().encode(lines.join('\r\n') + '\r\n'));
}

/** Four weekdays (Monday to Thursday) of WEB01 at 10% from 10:00 to 13:59: each hour's normal rests on
 *  4 x 60 = 240 samples, its p95 10. */
function fourDays(machine = 'WEB01') {
  return [0, 1, 2, 3].map((d) => log(machine, MONDAY + d * DAY + 10 * 60 * MIN, 240, () => 10));
}

test('buildBaseline: one machine\'s normal, by hour, from its logs', () => {
  const logs = fourDays();
  const b = api.buildBaseline(logs, ['mon.csv', 'tue.csv', 'wed.csv', 'thu.csv']);
  assert.equal(b.format, 'counterlens-baseline');
  assert.equal(b.machine, 'WEB01');
  assert.deepEqual(b.logs, ['mon.csv', 'tue.csv', 'wed.csv', 'thu.csv']);
  // 4 logs x 240 samples.
  assert.equal(b.samples, 960);
  assert.equal(b.first, MONDAY + 10 * 60 * MIN);
  assert.equal(b.last, MONDAY + 3 * DAY + (10 * 60 + 239) * MIN);
  const [cpu] = b.counters;
  assert.equal(cpu.path, '\\Processor(_Total)\\% Processor Time');
  // Hours 10 to 13 on weekdays, 60 samples a day each.
  assert.deepEqual(cpu.cells.map((c) => [c.hour, c.weekend, c.samples]), [[10, false, 240], [11, false, 240], [12, false, 240], [13, false, 240]]);
  assert.deepEqual(cpu.cells[0].q, [10, 10, 10, 10, 10]);
  // Default names.
  assert.deepEqual(api.buildBaseline(logs.slice(0, 2)).logs, ['log 1', 'log 2']);
  logs.forEach((c) => c.free());
});

test('analyze with a baseline: 60% for two hours against a normal of 10% is one card, told in the story; 12% is none', () => {
  const logs = fourDays();
  const b = api.buildBaseline(logs);
  // Friday 10:00 to 13:59; 11:00 to 12:59 (120 samples) at 60%. Each hour's limit: max(3 x 10, 10 + 10) = 30.
  const start = MONDAY + 4 * DAY + 10 * 60 * MIN;
  const hot = log('WEB01', start, 240, (k) => (k >= 60 && k < 180 ? 60 : 10));
  for (const baseline of [b, JSON.stringify(b)]) {
    const a = api.analyze(hot, { baseline });
    const cards = a.groups.filter((g) => g.pack === 'baseline');
    assert.equal(cards.length, 1);
    const f = a.findings[cards[0].lead];
    assert.deepEqual([f.rule, f.start, f.end, f.mean, f.share, f.threshold, f.worst], ['cpu-above-normal', start + 60 * MIN, start + 179 * MIN, 60, 1, 30, 60]);
    assert.ok(a.packs.some((p) => p.id === 'baseline'));
    // No built-in rule breaks at 60%: the baseline's card is the story's one problem (239 min of log).
    assert.equal(a.story.headline, 'One problem in 3 h 59 min of log.');
    assert.equal(a.story.lines[0].text, 'The processors worked far harder than their normal for those hours from 11:00 to 12:59 UTC (119 min; mean 60%, worst 60%, more than 3 times its usual for the hour throughout).');
    assert.equal(a.groups[a.story.lines[0].group].pack, 'baseline');
  }
  // Without it, nothing.
  assert.equal(api.analyze(hot, {}).groups.length, 0);
  // 12% < 30: no card.
  const calm = log('WEB01', start, 240, (k) => (k >= 60 && k < 180 ? 12 : 10));
  assert.equal(api.analyze(calm, { baseline: b }).groups.length, 0);
  [...logs, hot, calm].forEach((c) => c.free());
});

test('a baseline of another machine, a file that is no baseline, and mixed machines are AnalysisErrors "baseline"', () => {
  const logs = fourDays();
  const b = api.buildBaseline(logs);
  const other = log('DB01', MONDAY + 4 * DAY, 60, () => 10);
  assert.throws(() => api.analyze(other, { baseline: b }), (e) => e instanceof api.AnalysisError && e.code === 'baseline' && e.field === 'baseline'
    && e.message.includes('machine WEB01 (4 logs), this log is of machine DB01'));
  assert.throws(() => api.analyze(other, { baseline: '{"format": 3}' }), (e) => e instanceof api.AnalysisError && e.code === 'baseline' && /line 1, column \d+/.test(e.message));
  assert.throws(() => api.buildBaseline([logs[0], other]), (e) => e instanceof api.AnalysisError && e.code === 'baseline' && e.message.includes('DB01'));
  const builder = new api.BaselineBuilder();
  builder.add('a', logs[0]);
  builder.finish();
  assert.throws(() => builder.finish(), (e) => e instanceof api.AnalysisError && e.code === 'invalid-argument');
  builder.free();
  assert.throws(() => new api.BaselineBuilder().finish(), (e) => e instanceof api.AnalysisError && e.code === 'baseline');
  [...logs, other].forEach((c) => c.free());
});
