// The analysis through the package in Node: rulePacks, analyze, analysisReport, importPalThresholds and
// AnalysisError, on captures built here (expectations computed by hand in the comments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'counterlens';

const MIN = 60_000;
// 2026-11-20 10:00:00 UTC.
const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

/** 61 samples a minute apart (10:00..11:00): "auto" cuts 30 slices of 2 minutes. */
function capture(series) {
  const timestamps = Float64Array.from({ length: 61 }, (_, i) => T0 + i * MIN);
  return api.Capture.fromParts({
    format: 'pdh-csv', encoding: 'UTF-8', timeZone: null, notes: [], timestamps,
    series: series.map(([path, f]) => ({
      path, counterType: null, reference: null, values: Float64Array.from({ length: 61 }, (_, m) => f(m)),
    })),
  });
}

/** 20% but minutes 40..=49 (slices 20..=24): 90 on even minutes, 97.3 on odd ones. */
const pegged = (m) => (m >= 40 && m <= 49 ? (m % 2 ? 97.3 : 90) : 20);

const pack = {
  id: 'test', title: 'Test', variables: [{ name: 'PhysicalMemoryGB', default: 8 }],
  rules: [
    { id: 'cpu-w', group: 'cpu', title: 'CPU high', category: 'Processor', counter: '\\Processor(*)\\% Processor Time',
      kind: 'static', severity: 'warning', operator: 'gt', threshold: 80 },
    { id: 'cpu-c', group: 'cpu', title: 'CPU very high', category: 'Processor', counter: '\\Processor(*)\\% Processor Time',
      kind: 'static', severity: 'critical', operator: 'gt', threshold: 95 },
    { id: 'mem', title: 'Low memory', category: 'Memory', counter: '\\Memory\\Available MBytes', kind: 'static',
      stats: ['avg'], severity: 'critical', operator: 'lt', threshold: 'PhysicalMemoryGB * 1024 * 0.10' },
  ],
};

test('rulePacks lists the built-in packs with their rule counts and questions', () => {
  const packs = api.rulePacks();
  assert.ok(packs.length >= 5);
  for (const p of packs) {
    assert.match(p.id, /^[a-z0-9-]+$/);
    assert.ok(p.rules > 0 && typeof p.title === 'string' && typeof p.source === 'string');
    assert.ok(Array.isArray(p.variables));
    assert.equal(api.rulePack(p.id).rules.length, p.rules);
  }
  assert.equal(api.rulePack('no-such-pack'), null);
});

test('a pegged CPU: warning and critical ranges with PAL priority, the worst value, the message', () => {
  const c = capture([['\\\\SRV\\Processor(_Total)\\% Processor Time', pegged]]);
  const a = api.analyze(c, { packs: [pack] });
  assert.equal(a.slices.length, 30);
  // Every slice 20..=24 holds {90, 97.3}: max 97.3 > 95 breaks the critical rule, so the warning loses
  // them all (PAL's priority): one critical finding 10:40-10:50, worst 97.3.
  assert.deepEqual(a.findings.map((f) => [f.rule, f.severity, (f.start - T0) / MIN, (f.end - T0) / MIN, f.worst]),
    [['cpu-c', 'critical', 40, 50, 97.3]]);
  const f = a.findings[0];
  assert.deepEqual(f.broke, ['max']); // min 90 and avg 93.65 are not above 95
  assert.equal(f.message, '\\\\SRV\\Processor(_Total)\\% Processor Time above 95% (max 97.3%) from 10:40 to 10:50 UTC');
  assert.equal(f.seriesIndex, 0);
  // The memory rule had no series: skipped with the reason.
  const mem = a.rules.find((r) => r.rule === 'mem');
  assert.equal(mem.series, 0);
  assert.equal(mem.skipped, 'no series in the capture matches \\Memory\\Available MBytes');
  assert.equal(mem.threshold, undefined); // skipped: nothing was compared
  assert.deepEqual(a.variables, { PhysicalMemoryGB: 8 });
  assert.deepEqual(a.variableSources, { PhysicalMemoryGB: 'pack' });
});

test('variables: the user wins, as number or numeric text', () => {
  // 4000 MB but 1000 at minutes 10..=13 (slices 5, 6). 8 GB: 8 * 1024 * 0.10 = 819.2 -> no finding;
  // 16 GB: 1638.4 -> the avg 1000 of slices 5-6 is below it.
  const c = capture([['\\\\SRV\\Memory\\Available MBytes', (m) => (m >= 10 && m <= 13 ? 1000 : 4000)]]);
  assert.equal(api.analyze(c, { packs: [pack] }).findings.length, 0);
  for (const gb of [16, '16']) {
    const a = api.analyze(c, { packs: [pack], variables: { PhysicalMemoryGB: gb } });
    assert.equal(a.variableSources.PhysicalMemoryGB, 'user');
    assert.equal(a.findings.length, 1);
    assert.ok(Math.abs(a.findings[0].threshold - 1638.4) < 1e-9);
    // The rule reports the threshold it evaluated (16 * 1024 * 0.10) with what ran.
    assert.ok(Math.abs(a.rules.find((r) => r.rule === 'mem').threshold - 1638.4) < 1e-9);
    assert.deepEqual([(a.findings[0].start - T0) / MIN, (a.findings[0].end - T0) / MIN], [10, 14]);
  }
});

test('slice statistics in wasm (SIMD lanes and the rest): min, avg, max by hand', () => {
  // 10-minute slices: slice 0 holds minutes 0..=9 = [4, NaN, 2, 8, 1, 5, 3, NaN, 9, 6] (two chunks of
  // four and two left over); present 4 2 8 1 5 3 9 6: 8 values, sum 38, min 1, avg 38 / 8 = 4.75, max 9.
  // Every other minute is 100, so an `eq` rule on each statistic breaks in slice 0 only.
  const first = [4, NaN, 2, 8, 1, 5, 3, NaN, 9, 6];
  const c = capture([['\\\\SRV\\Memory\\Pages/sec', (m) => (m < 10 ? first[m] : 100)]]);
  const rule = (stat, threshold) => ({ id: stat, title: stat, counter: '\\Memory\\Pages/sec', kind: 'static',
    stats: [stat], severity: 'warning', operator: 'eq', threshold });
  const a = api.analyze(c, { slice: 10 * MIN, packs: [{ id: 's', title: 'S', rules: [rule('min', 1), rule('avg', 4.75), rule('max', 9)] }] });
  assert.deepEqual(a.findings.map((f) => [f.rule, f.broke, (f.start - T0) / MIN, (f.end - T0) / MIN]),
    [['avg', ['avg'], 0, 10], ['max', ['max'], 0, 10], ['min', ['min'], 0, 10]]);
});

test('slice length and range options', () => {
  const c = capture([['\\\\SRV\\Processor(_Total)\\% Processor Time', pegged]]);
  // 10-minute slices from 10:30: 3 slices; minutes 40..=49 fill slice 1.
  const a = api.analyze(c, { packs: [pack], slice: 10 * MIN, from: T0 + 30 * MIN });
  assert.equal(a.slices.length, 3);
  assert.deepEqual(a.slices[1], { start: T0 + 40 * MIN, end: T0 + 50 * MIN });
  assert.deepEqual(a.findings.map((f) => f.rule), ['cpu-c']);
});

test('the default runs the built-in packs whose counters the capture has; a calm server has no finding', () => {
  const c = capture([
    ['\\\\SRV\\Processor(_Total)\\% Processor Time', () => 12],
    ['\\\\SRV\\Processor(0)\\% Processor Time', () => 10],
    ['\\\\SRV\\Processor(1)\\% Processor Time', () => 14],
    ['\\\\SRV\\Memory\\Available MBytes', () => 6000],
  ]);
  const a = api.analyze(c);
  assert.ok(a.rules.length > 0, 'some pack ran');
  assert.ok(a.rules.some((r) => !r.skipped));
  assert.deepEqual(a.findings, []);
  assert.equal(a.variables.logicalProcessors, 2);
  assert.equal(a.variableSources.logicalProcessors, 'capture');
  // A pegged CPU on the same server is found by the built-in packs.
  const hot = capture([
    ['\\\\SRV\\Processor(_Total)\\% Processor Time', (m) => (m >= 20 && m < 50 ? 99 : 10)],
    ['\\\\SRV\\Processor(0)\\% Processor Time', (m) => (m >= 20 && m < 50 ? 99 : 10)],
  ]);
  const b = api.analyze(hot);
  assert.ok(b.findings.some((f) => f.category && f.path.includes('Processor(_Total)') && f.severity === 'critical'),
    JSON.stringify(b.findings.map((f) => f.message)));
});

test('errors are AnalysisErrors naming the place', () => {
  const c = capture([['\\\\SRV\\Processor(_Total)\\% Processor Time', pegged]]);
  const bad = structuredClone(pack);
  bad.rules[1].operator = 'above';
  assert.throws(() => api.analyze(c, { packs: [bad] }), (e) => {
    assert.ok(e instanceof api.AnalysisError && e instanceof Error);
    assert.equal(e.code, 'bad-pack');
    assert.equal(e.pointer, '/rules/1/operator');
    assert.match(e.message, /expected one of/);
    return true;
  });
  // Pack JSON text: the line and column.
  assert.throws(() => api.analyze(c, { packs: ['{\n  "id": ,'] }),
    (e) => e instanceof api.AnalysisError && e.line === 2 && e.column === 9);
  assert.throws(() => api.analyze(c, { packs: ['no-such-pack'] }),
    (e) => e instanceof api.AnalysisError && e.code === 'unknown-pack');
  const unknown = structuredClone(pack);
  unknown.rules[2].threshold = 'TotalRamGB * 2';
  assert.throws(() => api.analyze(c, { packs: [unknown] }),
    (e) => e instanceof api.AnalysisError && e.code === 'unknown-variable' && e.variable === 'TotalRamGB');
  assert.throws(() => api.analyze(c, { packs: [pack], variables: { PhysicalMemoryGB: 'lots' } }),
    (e) => e.code === 'non-numeric-variable' && e.variable === 'PhysicalMemoryGB');
  assert.throws(() => api.analyze(c, { slice: -5 }), (e) => e.code === 'invalid-option');
  assert.throws(() => api.analyze(c, { slice: 'hourly' }), (e) => e.code === 'invalid-argument' && e.field === 'slice');
  assert.throws(() => api.analyze(c, { packs: 'test' }), (e) => e.code === 'invalid-argument' && e.field === 'packs');
  assert.throws(() => api.importPalThresholds('<PAL><ANALYSIS'), (e) => e.code === 'bad-pal-xml' && e.line === 1);
  assert.throws(() => api.importPalThresholds(42), (e) => e instanceof api.AnalysisError && e.field === 'files');
});

test('analysisReport: one self-contained page, hostile names as text', () => {
  const c = capture([['\\\\SRV\\Processor(<script>alert(1)</script>)\\% Processor Time', pegged]]);
  const a = api.analyze(c, { packs: [pack] });
  assert.equal(a.findings.length, 1);
  const html = api.analysisReport(c, a, { title: '<img src=x onerror=alert(2)>' });
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(!/<script/i.test(html) && !/<img/i.test(html));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.equal((html.match(/<svg/g) ?? []).length, 1);
  assert.ok(!/\bsrc="|<link|@import|url\(/i.test(html));
  // The analysis survives a structured clone (a Worker's postMessage) and JSON.
  assert.equal(api.analysisReport(c, structuredClone(a), {}), api.analysisReport(c, JSON.parse(JSON.stringify(a))));
  assert.throws(() => api.analysisReport(c, { findings: 3 }), (e) => e instanceof api.AnalysisError);
});

test('importPalThresholds turns a PAL file into a pack analyze runs', () => {
  const xml = `<?xml version="1.0"?>
<PAL PALVERSION="2.0" NAME="Mini" DESCRIPTION="x" CONTENTOWNERS="" FEEDBACKEMAILADDRESS="" VERSION="1" LANGUAGE="English" DISPLAYNAME="Mini">
<ANALYSIS NAME="Processor Time" ENABLED="True" CATEGORY="Processor" PRIMARYDATASOURCE="\\Processor(*)\\% Processor Time" ID="cpu" FROMALLCOUNTERSTATS="False">
<DATASOURCE TYPE="CounterLog" NAME="\\Processor(*)\\% Processor Time" COLLECTIONVARNAME="CollectionOfProcessorPercentProcessorTime" EXPRESSIONPATH="\\Processor(*)\\% Processor Time" NUMBEROFSAMPLESVARNAME="" MINVARNAME="" AVGVARNAME="" MAXVARNAME="" TRENDVARNAME="" DATATYPE="round3"/>
<THRESHOLD NAME="More than 80% processor utilization" CONDITION="Warning" COLOR="Yellow" PRIORITY="50">
<DESCRIPTION><![CDATA[Busy.]]></DESCRIPTION>
<CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfProcessorPercentProcessorTime -Operator 'gt' -Threshold 80]]></CODE>
</THRESHOLD>
</ANALYSIS>
</PAL>`;
  const r = api.importPalThresholds({ 'Mini.xml': xml });
  assert.equal(r.total, 1);
  assert.equal(r.translated, 1);
  assert.deepEqual(r.untranslated, []);
  const c = capture([['\\\\SRV\\Processor(_Total)\\% Processor Time', pegged]]);
  const a = api.analyze(c, { packs: [r.pack] });
  // Slices 20..=24 (10:40-10:50) break "gt 80" by min 90, avg 93.65 and max 97.3.
  assert.deepEqual(a.findings.map((f) => [(f.start - T0) / MIN, (f.end - T0) / MIN, f.worst, f.threshold]),
    [[40, 50, 97.3, 80]]);
});

test('derivedSeries and explainDerived: a ratio per SQL instance, two named instances, computed and explained', () => {
  // Minute m: INST1 compilations 10 (30 at minutes 40..=49), batches 40; INST2 compilations 7, batches 8.
  const cap = capture([
    ['\\\\SQL1\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec', (m) => (m >= 40 && m <= 49 ? 30 : 10)],
    ['\\\\SQL1\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec', () => 40],
    ['\\\\SQL1\\MSSQL$INST2:SQL Statistics\\SQL Compilations/sec', () => 7],
    ['\\\\SQL1\\MSSQL$INST2:SQL Statistics\\Batch Requests/sec', () => 8],
  ]);
  const sql = {
    id: 'sql', title: 'SQL',
    derived: [{ id: 'ratio', counter: '\\SQL Generated(*)\\Compilations to Batch Requests', pairBy: 'sqlInstance',
      inputs: [{ name: 'c', counter: '\\*:SQL Statistics\\SQL Compilations/sec' }, { name: 'b', counter: '\\*:SQL Statistics\\Batch Requests/sec' }],
      expression: 'if(gt(c, 1) * gt(b, 1), round(c / b * 100), 0)' }],
    rules: [{ id: 'r', title: 'Compilations high', counter: '\\SQL Generated(*)\\Compilations to Batch Requests', kind: 'static',
      stats: ['max'], severity: 'warning', operator: 'gt', threshold: 50 }],
  };
  const a = api.analyze(cap, { packs: [sql] });
  // INST1: 10 / 40 * 100 = 25, and 30 / 40 * 100 = 75 > 50 at minutes 40..=49: one finding. INST2:
  // 7 / 8 * 100 = 87.5, halves to even = 88 > 50 all along: one finding.
  const byInst = Object.fromEntries(a.findings.map((f) => [f.path.match(/\((INST\d)\)/)[1], f]));
  assert.deepEqual(Object.keys(byInst).sort(), ['INST1', 'INST2']);
  const v1 = api.derivedSeries(cap, byInst.INST1.derived);
  assert.ok(v1 instanceof Float64Array);
  assert.equal(v1.length, 61);
  assert.deepEqual([v1[0], v1[39], v1[40], v1[49], v1[50]], [25, 25, 75, 75, 25]);
  assert.ok(api.derivedSeries(cap, byInst.INST2.derived).every((v) => v === 88));
  // Minute 40 of INST1: its own inputs (series 0 and 1), 30 and 40.
  const e = api.explainDerived(cap, byInst.INST1.derived, 40);
  assert.equal(e.time, T0 + 40 * MIN);
  assert.deepEqual(e.inputs.map((i) => [i.name, i.seriesIndex, i.value]), [['c', 0, 30], ['b', 1, 40]]);
  assert.equal(e.substituted, 'if(gt(30, 1) * gt(40, 1), round(30 / 40 * 100), 0) = 75');
  assert.equal(e.value, 75);
  // INST2 explained from its inputs (series 2 and 3): 7 / 8 * 100 = 87.5 -> 88.
  const e2 = api.explainDerived(cap, byInst.INST2.derived, 0);
  assert.deepEqual(e2.inputs.map((i) => i.seriesIndex), [2, 3]);
  assert.equal(e2.substituted, 'if(gt(7, 1) * gt(8, 1), round(7 / 8 * 100), 0) = 88');
  // Typed errors: not a definition, a sample that is not an index, one past the capture.
  assert.throws(() => api.derivedSeries(cap, { nope: 1 }), (err) => err instanceof api.AnalysisError && err.code === 'invalid-argument' && err.field === 'derived');
  assert.throws(() => api.explainDerived(cap, byInst.INST1.derived, 1.5), (err) => err instanceof api.AnalysisError && err.field === 'sample');
  assert.throws(() => api.explainDerived(cap, byInst.INST1.derived, 61), (err) => err instanceof api.AnalysisError && err.code === 'invalid-option' && /sample 61 is past the capture's 61 samples/.test(err.message));
  const stray = { ...byInst.INST1.derived, inputs: [{ name: 'c', seriesIndex: 99, path: 'x' }, byInst.INST1.derived.inputs[1]] };
  assert.throws(() => api.derivedSeries(cap, stray), (err) => err instanceof api.AnalysisError && /past the capture's 4/.test(err.message));
  cap.free();
});

test('counterTemplate: the counters to collect, one path per line for logman -cf, built-in or given packs', () => {
  const all = api.counterTemplate();
  assert.ok(all.endsWith('\r\n'));
  const lines = all.split('\r\n').slice(0, -1);
  // What the rules read and what names the cause: processor time and the processes' share of it.
  for (const p of ['\\Processor(*)\\% Processor Time', '\\Process(*)\\% Processor Time', '\\Memory\\Available MBytes', '\\Process(*)\\Private Bytes']) {
    assert.ok(lines.includes(p), p);
  }
  assert.equal(new Set(lines.map((l) => l.toLowerCase())).size, lines.length, 'nothing twice');
  // One pack given whole: its counter with the instance as (*) and no machine, then its breakdown.
  const pack = { id: 't', title: 'T', version: '1', source: 'test', rules: [
    { id: 'r', title: 'R', counter: '\\\\SRV\\LogicalDisk(C:)\\Avg. Disk sec/Write', kind: 'static', severity: 'warning', operator: 'gt', threshold: 0.02 }] };
  assert.equal(api.counterTemplate({ packs: [pack] }), '\\LogicalDisk(*)\\Avg. Disk sec/Write\r\n\\Process(*)\\IO Write Bytes/sec\r\n');
  assert.throws(() => api.counterTemplate({ packs: ['no-such-pack'] }), (e) => e.code === 'unknown-pack');
});
