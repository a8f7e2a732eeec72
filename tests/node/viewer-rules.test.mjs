// The viewer's rules as plain functions (no page): what a top N leaves out, what the default selection of a
// log of several machines (or in Spanish) is and says, how a share link matches series across machines and
// when it keeps its range, when two runs overlap, how a series is named and in what order the legend lists
// them, what a PAL import carries to the next log and where it disagrees with the built-in rules.
// Expectations written out by hand from the inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topSeries, isAggregate, defaultSelection, describeDefault } from '../../js/viewer/series-tree.js';
import { matchSeries, describeElsewhere, rangeInside } from '../../js/viewer/url-state.js';
import { runsOverlap } from '../../js/viewer/compare.js';
import { displayName, legendOrder } from '../../js/viewer/legend.js';
import { hasSeveralMachines } from '../../js/viewer/state.js';
import { dateTime, clockTime, machinesInTrouble } from '../../js/viewer/verdict.js';
import { createPackScope, describePacks, disagreements, disagreementText } from '../../js/viewer/pack-scope.js';
import { cardThresholds, contributorsText } from '../../js/viewer/cards.js';
import { formatInUnit } from '../../js/node.js'; // initialises the module cards.js formats with

/** A SeriesInfo of `\\machine\object(instance)\counter` at `index`. */
const s = (index, machine, object, instance, counter, extra = {}) => ({
  index, machine, object, instance, counter, path: `\\\\${machine}\\${object}${instance !== undefined ? `(${instance})` : ''}\\${counter}`, ...extra,
});

test('top N: _Total, Idle, Total, _Global_ and <All instances> are left out unless asked for', () => {
  const names = ['_Total', 'Idle', 'Total', '_Global_', '<All instances>', 'sqlservr', 'w3wp', 'idle-worker', 'System'];
  const info = names.map((n, i) => s(i, 'H', 'Process', n, '% Processor Time'));
  assert.deepEqual(info.filter(isAggregate).map((x) => x.instance), ['_Total', 'Idle', 'Total', '_Global_', '<All instances>']);
  // max of each: 900, 800, 700, 600, 500, 80, 50, 30, 2 (in that order: index i has 900 - 100 i for the
  // first five, then the listed figures).
  const max = [900, 800, 700, 600, 500, 80, 50, 30, 2];
  const stats = (i) => ({ max: max[i] });
  assert.deepEqual(topSeries(info, 3, 'max', stats), [5, 6, 7]); // sqlservr 80, w3wp 50, idle-worker 30
  assert.deepEqual(topSeries(info, 3, 'max', stats, true), [0, 1, 2]); // _Total 900, Idle 800, Total 700
  // A statistic that is not a number (no value in the range) is never ranked.
  assert.deepEqual(topSeries(info, 9, 'max', (i) => ({ max: i === 5 ? NaN : max[i] })), [6, 7, 8]);
});

test('the default selection: _Total first, 8 at most, by English names; on 26 machines it says 8 of 26', () => {
  const machines = Array.from({ length: 26 }, (_, k) => `WEB${String(k + 1).padStart(2, '0')}`);
  const info = machines.flatMap((m, k) => [s(2 * k, m, 'Processor', '_Total', '% Processor Time'), s(2 * k + 1, m, 'Memory', undefined, 'Available MBytes')]);
  const chosen = defaultSelection(info);
  assert.deepEqual(chosen, [0, 2, 4, 6, 8, 10, 12, 14]); // WEB01..WEB08's _Total
  const d = describeDefault(info, chosen);
  assert.equal(d.text, 'Showing Processor(_Total)\\% Processor Time of 8 of 26 machines (at most 8 lines at first).');
  assert.equal(d.machines, 26);
  assert.deepEqual(d.all, machines.map((_, k) => 2 * k)); // the same counter on all 26
  // With their means: the busiest 8 (WEB26's mean is 26, WEB01's 1; ties keep file order), in file order.
  const meanOf = (i) => (i === 6 ? 99 : i === 8 ? NaN : i / 2 + 1);
  const busiest = defaultSelection(info, meanOf);
  assert.deepEqual(busiest, [6, 38, 40, 42, 44, 46, 48, 50]); // WEB04 (99), then WEB20..WEB26
  assert.equal(describeDefault(info, busiest, true).text, 'Showing Processor(_Total)\\% Processor Time of the 8 busiest (by mean) of 26 machines (at most 8 lines at first).');
  // One machine: nothing to say.
  assert.equal(describeDefault(info.slice(0, 2), [0]), null);
  // Spanish: Procesador is Processor; memory first in the file is not chosen.
  const es = [s(0, 'SRV', 'Memoria', undefined, 'Bytes disponibles', { englishObject: 'Memory', englishCounter: 'Available Bytes' }),
    s(1, 'SRV', 'Procesador', '0', '% de tiempo de procesador', { englishObject: 'Processor', englishCounter: '% Processor Time' }),
    s(2, 'SRV', 'Procesador', '_Total', '% de tiempo de procesador', { englishObject: 'Processor', englishCounter: '% Processor Time' })];
  assert.deepEqual(defaultSelection(es), [1, 2]);
  // No processor at all: the first four series.
  assert.deepEqual(defaultSelection(info.filter((x) => x.object === 'Memory').slice(0, 6)), [1, 3, 5, 7]);
});

test('a share link: exact paths first, then the same counter on another machine (said), then missing', () => {
  const info = [s(0, 'WEB02', 'Processor', '_Total', '% Processor Time'), s(1, 'WEB02', 'Memory', undefined, 'Available MBytes'),
    s(2, 'WEB03', 'Processor', '_Total', '% Processor Time')];
  const view = { paths: ['\\\\WEB01\\Processor(_Total)\\% Processor Time', '\\\\web02\\memory\\available mbytes', '\\\\WEB01\\System\\Threads'], panes: [0, 1, 0] };
  const m = matchSeries(view, info);
  // Memory matches as written (case-insensitive) on WEB02; the CPU of WEB01 is found on WEB02 (the first in
  // file order not already taken); Threads is nowhere.
  assert.deepEqual(m.indices, [1, 0]);
  assert.deepEqual(m.missing, ['\\\\WEB01\\System\\Threads']);
  assert.deepEqual(m.elsewhere, [{ path: '\\\\WEB01\\Processor(_Total)\\% Processor Time', found: '\\\\WEB02\\Processor(_Total)\\% Processor Time' }]);
  assert.deepEqual([...m.paneOf], [[1, 1]]);
  assert.equal(describeElsewhere(m.elsewhere), '1 series was matched on \\\\WEB02: the link names \\\\WEB01, which this log does not have.');
  assert.equal(describeElsewhere([]), '');
  // Two links to the CPU of WEB01 and WEB04: WEB02's and WEB03's (never the same series twice).
  const two = matchSeries({ paths: ['\\\\WEB01\\Processor(_Total)\\% Processor Time', '\\\\WEB04\\Processor(_Total)\\% Processor Time'] }, info);
  assert.deepEqual(two.indices, [0, 2]);
});

test("a link's range is kept only inside the log's times; two runs overlap when their spans meet", () => {
  const ts = new Float64Array([1000, 2000, 3000]);
  assert.equal(rangeInside([1000, 3000], ts), true);
  assert.equal(rangeInside([1500, 2500], ts), true);
  assert.equal(rangeInside([500, 2500], ts), false); // starts before the log
  assert.equal(rangeInside([2500, 3500], ts), false); // ends after it
  assert.equal(rangeInside(null, ts), false);
  assert.equal(rangeInside([1000, 2000], new Float64Array()), false);
  assert.equal(runsOverlap(ts, new Float64Array([3000, 4000])), true); // they touch at 3000
  assert.equal(runsOverlap(ts, new Float64Array([3001, 4000])), false);
  assert.equal(runsOverlap(new Float64Array([5000]), ts), false);
  assert.equal(runsOverlap(ts, new Float64Array()), false);
});

test('names: the machine when the log has several, the English beside a localized one; the legend in rank order', () => {
  const cpu = s(0, 'WEB01', 'Processor', '_Total', '% Processor Time');
  assert.equal(displayName(cpu, false), 'Processor(_Total)\\% Processor Time');
  assert.equal(displayName(cpu, true), '\\\\WEB01 Processor(_Total)\\% Processor Time');
  const es = s(1, 'SRV', 'Disco físico', '_Total', 'Promedio de segundos de disco/transferencia', { englishObject: 'PhysicalDisk', englishCounter: 'Avg. Disk sec/Transfer' });
  assert.equal(displayName(es, false), 'Disco físico(_Total)\\Promedio de segundos de disco/transferencia — PhysicalDisk(_Total)\\Avg. Disk sec/Transfer');
  assert.equal(hasSeveralMachines([cpu, es]), true);
  assert.equal(hasSeveralMachines([cpu, { ...cpu, index: 2 }]), false);
  // Ranked 7, 3, 5 by a top N, then 1 and 9 added: the ranked first in rank order, then file order.
  const state = { selected: new Set([1, 3, 5, 7, 9]), rank: [7, 3, 5] };
  assert.deepEqual(legendOrder(state), [7, 3, 5, 1, 9]);
  assert.deepEqual(legendOrder({ selected: new Set([9, 1]), rank: null }), [1, 9]);
});

test('times in cards and the verdict to the nearest second, as the core writes them in messages', () => {
  // PST is 480 min west (offset -480). 2026-11-22 09:04:59.500 UTC is 01:04:59.5 local: a slice edge that
  // the finding's message writes 01:05, so the card does too.
  assert.equal(dateTime(Date.UTC(2026, 10, 22, 9, 4, 59, 500), -480), '2026-11-22 01:05');
  assert.equal(clockTime(Date.UTC(2026, 10, 22, 9, 4, 59, 499), -480), '01:04:59');
  // 23:59:59.5 local is the next day's 00:00 (never 24:00, never the day before's 23:59:59).
  assert.equal(clockTime(Date.UTC(2026, 10, 23, 7, 59, 59, 500), -480, true), '2026-11-23 00:00');
});

test('a PAL import stays with its log unless kept; the verdict names the packs', () => {
  const scope = createPackScope();
  const builtins = [{ id: 'system-overview', title: 'System overview' }, { id: 'sql-server', title: 'SQL Server' }];
  const ran = (...packs) => ({ rules: packs.map((pack) => ({ pack, rule: 'r' })) });
  assert.equal(describePacks(ran('system-overview', 'sql-server'), scope, builtins).text, 'Analysed with the built-in rules (System overview, SQL Server)');
  // The core's own list wins over the rules' pack ids.
  assert.equal(describePacks({ ...ran('x'), packs: [{ id: 'sql-server', title: 'SQL Server', source: '', builtin: true }] }, scope, builtins).text, 'Analysed with the built-in rules (SQL Server)');
  scope.add({ kind: 'pal', label: 'Quick.xml', pack: { id: 'pal-quick' } });
  assert.equal(describePacks(ran('pal-quick'), scope, builtins).text, 'Analysed with PAL file Quick.xml (imported for this log)');
  // Another log: set aside, offered back once, then forgotten by the verdict (still listed in the panel).
  scope.nextLog();
  assert.deepEqual(scope.active(), []);
  assert.equal(scope.aside().off, 'previous-log');
  scope.nextLog();
  assert.equal(scope.aside(), null);
  assert.equal(scope.entries.length, 1);
  // Used again, kept: the next log has it, said as kept.
  assert.ok(scope.reapply(0));
  scope.keep(true);
  scope.nextLog();
  assert.equal(describePacks(ran('pal-quick', 'system-overview'), scope, builtins).text,
    'Analysed with PAL file Quick.xml (kept from the previous log) and the built-in rules (System overview)');
  // The way back; a new import replaces the one set aside.
  scope.useBuiltin();
  assert.equal(scope.aside().off, 'built-in');
  scope.add({ kind: 'pal', label: 'A.xml, B.xml', pack: { id: 'pal-a' } });
  assert.deepEqual(scope.entries.map((e) => e.label), ['A.xml, B.xml']);
  assert.equal(describePacks(ran('pal-a'), scope, builtins).text, 'Analysed with PAL files A.xml, B.xml (imported for this log)');
});

test('where the built-in rules and a PAL file disagree: per English counter, both sides covering it', () => {
  const info = [s(0, 'H', 'Procesador', '_Total', '% de tiempo de procesador', { englishObject: 'Processor', englishCounter: '% Processor Time' }),
    s(1, 'H', 'Memory', undefined, 'Available MBytes'), s(2, 'H', 'System', undefined, 'Processor Queue Length'),
    s(3, 'H', 'LogicalDisk', 'C:', 'Avg. Disk sec/Read')];
  const counters = { 'pal:cpu': '\\Processor(*)\\% Processor Time', 'pal:mem': '\\Memory\\Available MBytes', 'pal:queue': '\\System\\Processor Queue Length',
    'pal:disk': '\\LogicalDisk(*)\\Avg. Disk sec/Read', 'b:cpu': '\\Processor(*)\\% Processor Time', 'b:mem': '\\Memory\\Available MBytes',
    'b:disk': '\\LogicalDisk(*)\\Avg. Disk sec/Read' };
  const counterOf = (pack, rule) => counters[`${pack}:${rule}`];
  const f = (pack, rule, seriesIndex, severity) => ({ pack, rule, seriesIndex, severity, path: info[seriesIndex].path });
  const pal = {
    rules: ['cpu', 'mem', 'queue', 'disk'].map((rule) => ({ pack: 'pal', rule, series: 1 })),
    findings: [f('pal', 'cpu', 0, 'warning'), f('pal', 'cpu', 0, 'critical'), f('pal', 'mem', 1, 'warning'), f('pal', 'queue', 2, 'warning'), f('pal', 'disk', 3, 'critical')],
  };
  const builtin = {
    rules: [{ pack: 'b', rule: 'cpu', series: 1 }, { pack: 'b', rule: 'mem', series: 1 }, { pack: 'b', rule: 'disk', series: 1 }],
    findings: [f('b', 'mem', 1, 'critical'), f('b', 'disk', 3, 'critical')],
  };
  // CPU: critical vs no card (the biggest gap, first); memory: warning vs critical; the queue has no
  // built-in rule (not compared); the disk agrees.
  const d = disagreements(pal, builtin, { info, palIds: ['pal'], counterOf });
  assert.deepEqual(d, [{ counter: '\\Processor(*)\\% Processor Time', pal: 'critical', builtin: null },
    { counter: '\\Memory\\Available MBytes', pal: 'warning', builtin: 'critical' }]);
  assert.match(disagreementText(d), /^The built-in rules differ on 2 counters: \\Processor\(\*\)\\% Processor Time \(PAL: critical, built-in: no card\) and \\Memory\\Available MBytes \(PAL: warning, built-in: critical\)\. PAL's file/);
  const many = Array.from({ length: 5 }, (_, k) => ({ counter: `\\C${k}`, pal: 'warning', builtin: null }));
  assert.match(disagreementText(many), /: \\C0 \(PAL: warning, built-in: no card\), \\C1 .*, \\C2 .* and 2 more\. /);
  assert.equal(disagreementText([]), '');
});

test("Show in context draws a card's thresholds on its worst counter only, one per severity", () => {
  // A processor card (the pack's group "processor" also holds kernel time and the queue): a critical
  // finding on CPU 0, a warning on _Total; the long critical rule over _Total alone has no finding here.
  const info = [s(0, 'H', 'Processor', '0', '% Processor Time'), s(1, 'H', 'Processor', '_Total', '% Processor Time')];
  const f = (rule, seriesIndex, severity, threshold) => ({ pack: 'p', rule, seriesIndex, severity, threshold, operator: 'gt', path: info[seriesIndex].path });
  const rule = (id, severity, threshold) => ({ pack: 'p', rule: id, severity, threshold, operator: 'gt', group: 'processor', series: 2 });
  const analysis = {
    findings: [f('cpu-critical', 0, 'critical', 95), f('cpu-warning', 1, 'warning', 80)],
    rules: [rule('cpu-warning', 'warning', 80), rule('cpu-critical', 'critical', 95), rule('cpu-long-critical', 'critical', 80),
      rule('kernel-warning', 'warning', 20), rule('queue-critical', 'critical', 40), { ...rule('cpu-trend', 'warning', 5), trend: true }],
  };
  const counters = { 'cpu-warning': '\\Processor(*)\\% Processor Time', 'cpu-critical': '\\Processor(*)\\% Processor Time',
    'cpu-long-critical': '\\Processor(_Total)\\% Processor Time', 'kernel-warning': '\\Processor(*)\\% Privileged Time', 'queue-critical': '\\System\\Processor Queue Length' };
  const g = { pack: 'p', rule: 'cpu-critical', severity: 'critical', findings: [0, 1], worst: 0, series: 2 };
  assert.deepEqual(cardThresholds(analysis, g, info, (p, r) => counters[r]), [
    { severity: 'critical', operator: 'gt', value: 95 }, { severity: 'warning', operator: 'gt', value: 80 }]);
  // A critical card alone: its warning partner on the same counter is drawn beside it, not the queue's.
  assert.deepEqual(cardThresholds(analysis, { ...g, findings: [0] }, info, (p, r) => counters[r]), [
    { severity: 'critical', operator: 'gt', value: 95 }, { severity: 'warning', operator: 'gt', value: 80 }]);
  // A trend card: none.
  assert.deepEqual(cardThresholds({ ...analysis, findings: [f('cpu-trend', 0, 'warning', 5)] }, { ...g, rule: 'cpu-trend', findings: [0] }, info, (p, r) => counters[r]), []);
});

test("a card's processes read as the core's summary names them", () => {
  // Processor time: shares of the machine's capacity (288% of one core on 4 = 72%), the first "of the machine".
  const cpu = { contributors: [{ seriesIndex: 0, name: 'sqlservr', value: 288, share: 0.72 }, { seriesIndex: 1, name: 'w3wp', value: 40, share: 0.1 }] };
  const pct = [{ unit: 'percent', multiplier: 1 }, { unit: 'percent', multiplier: 1 }];
  assert.equal(contributorsText(cpu, pct), 'sqlservr 72% of the machine, w3wp 10%');
  // Private bytes: the value in its unit and the share of all processes' (11 GB of 12: 92%).
  const gb = 1024 ** 3;
  const mem = { contributors: [{ seriesIndex: 0, name: 'sqlservr', value: 11 * gb, share: 11 / 12 }] };
  assert.equal(contributorsText(mem, [{ unit: 'bytes', multiplier: 1 }]), `sqlservr ${formatInUnit(11 * gb, 'bytes')} (92%)`);
});

test('the machines in trouble: in the cards\' order, each once, the rest counted; nothing on one machine', () => {
  const machines = ['DB01', 'WEB01', 'WEB02', 'WEB05', 'WEB06'];
  const groups = [{ machine: 'WEB05' }, { machine: 'db01' }, { machine: 'WEB05' }, { machine: '' }, { machine: 'WEB02' }];
  assert.equal(machinesInTrouble(groups, machines), '3 of 5 machines in trouble: WEB05, DB01, WEB02; 2 calm');
  assert.equal(machinesInTrouble([{ machine: '' }], machines), '0 of 5 machines in trouble; 5 calm');
  assert.equal(machinesInTrouble(groups, ['WEB05']), null);
  assert.equal(machinesInTrouble(groups, []), null);
});
