// The viewer's rules as plain functions (no page): what a top N leaves out, what the default selection of a
// log of several machines (or in Spanish) is and says, how a share link matches series across machines and
// when it keeps its range, when two runs overlap, how a series is named and in what order the legend lists
// them. Expectations written out by hand from the inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topSeries, isAggregate, defaultSelection, describeDefault } from '../../js/viewer/series-tree.js';
import { matchSeries, describeElsewhere, rangeInside } from '../../js/viewer/url-state.js';
import { runsOverlap } from '../../js/viewer/compare.js';
import { displayName, legendOrder } from '../../js/viewer/legend.js';
import { hasSeveralMachines } from '../../js/viewer/state.js';
import { dateTime, clockTime } from '../../js/viewer/verdict.js';

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
