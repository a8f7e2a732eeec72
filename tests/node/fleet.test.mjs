// The fleet through the package in Node (fleetRuns, rankFleet, fleetHeatmapSvg, sparklineSvg) and the
// fleet view's rules as plain functions (which log a click opens, names made unique, the pool's size).
// Expectations written out by hand from the inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from 'counterlens';
import { logToOpen } from '../../js/viewer/fleet.js';
import { uniqueNames } from '../../js/viewer/fleet-files.js';
import { poolSize } from '../../js/viewer/fleet-pool.js';
import { learningText, judgedText } from '../../js/viewer/fleet-normal.js';

/** A relog CSV of one machine's _Total CPU (and available memory) at 15 s from 2026-07-04 00:00 UTC. */
function csv(machine, cpu, mem) {
  const paths = [`\\\\${machine}\\Processor(_Total)\\% Processor Time`, `\\\\${machine}\\Memory\\Available MBytes`];
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  cpu.forEach((v, k) => lines.push([`07/04/2026 00:${String(Math.floor(k / 4)).padStart(2, '0')}:${String((k % 4) * 15).padStart(2, '0')}.000`, v, mem[k]].map((c) => `"${c}"`).join(',')));
  return new TextEncoder().encode(lines.join('\r\n') + '\r\n');
}
const T0 = Date.UTC(2026, 6, 4);

test('fleetRuns: one run per machine with its key figures; rankFleet ranks; the heatmap escapes names', () => {
  // CPU 10, 20, 30, 40 %: mean 25; p95 by closest ranks, h = 3 x 0.95 = 2.85: 30 + 0.85 x 10 = 38.5.
  // Memory 900, 800, 700, 600 MB: least 600.
  const c = api.openCapture(csv('WEB<b>01', [10, 20, 30, 40], [900, 800, 700, 600]));
  const a = api.analyze(c, {});
  const runs = api.fleetRuns(c, a, 'web.csv');
  assert.equal(runs.length, 1);
  const [r] = runs;
  assert.equal(r.machine, 'WEB<b>01');
  assert.deepEqual(r.logs, ['web.csv']);
  assert.equal(r.samples, 4);
  assert.equal(r.first, T0);
  assert.equal(r.last, T0 + 45_000);
  assert.equal(r.figures.cpuMean, 25);
  assert.ok(Math.abs(r.figures.cpuP95 - 38.5) < 1e-9, String(r.figures.cpuP95));
  assert.equal(r.figures.availableMbMin, 600);
  assert.equal(r.figures.diskLatencyP95Ms, undefined);
  // Four points, fewer than 96: the line is the samples themselves.
  assert.deepEqual(r.cpu, [[T0, 10], [T0 + 15_000, 20], [T0 + 30_000, 30], [T0 + 45_000, 40]]);
  // Its logs given: they name it.
  assert.deepEqual(api.fleetRuns(c, a, 'x', ['a.csv', 'b.csv'])[0].logs, ['a.csv', 'b.csv']);
  // A critical card beats a calm machine; the calm one last.
  const hot = { ...structuredClone(r), machine: 'HOT', cards: [{ pack: 'p', group: 'g', category: 'Processor', severity: 'critical', start: T0, end: T0 + 29_000, summary: 's' }] };
  const f = api.rankFleet([r, hot]);
  assert.deepEqual(f.machines.map((m) => [m.machine, m.worst ?? 'calm', m.troubleMs]), [['HOT', 'critical', 29_000], ['WEB<b>01', 'calm', 0]]);
  const svg = api.fleetHeatmapSvg(f, { width: 400, columns: 3 });
  assert.ok(svg.startsWith('<svg') && svg.includes('WEB&lt;b&gt;01') && !svg.includes('<b>'));
  // 2 rows x 18 + 36 = 72 px tall; of 3 columns (0-15 s, 15-30 s, 30-45 s), HOT's card (0-29 s) makes
  // the first two critical, the third calm.
  assert.match(svg, /height="72"/);
  assert.equal(svg.match(/fill="#CF222E"/g).length, 2);
  assert.equal(api.fleetHeatmapSvg({ machines: [] }), '');
  assert.throws(() => api.rankFleet([{ machine: 3 }]), (e) => e instanceof api.AnalysisError && e.field === 'runs');
  // The sparkline: (0, 0) (1, 100) in 100 x 20 on 0..100: x 1 and 99, y 19 and 1.
  assert.match(api.sparklineSvg([[0, 0], [1, 100]], 100, 20, [0, 100]), /points="1\.0,19\.0 99\.0,1\.0"/);
  c.free();
});

test('a click opens the first log in trouble, else the latest, and says which', () => {
  const run = (logs, worst) => ({ logs, worst, first: 0, last: 1, samples: 1, cards: 0, troubleMs: 0, figures: {} });
  assert.deepEqual(logToOpen({ logs: ['a', 'b', 'c'], runs: [run(['a']), run(['b'], 'warning'), run(['c'], 'critical')] }), { name: 'b', why: 'the first of its 3 logs in trouble' });
  assert.deepEqual(logToOpen({ logs: ['a', 'b'], runs: [run(['a']), run(['b'])] }), { name: 'b', why: 'the latest of its 2 logs' });
  assert.deepEqual(logToOpen({ logs: ['a'], runs: [run(['a'])] }), { name: 'a', why: '' });
});

test('names made unique in order; the pool is the cores, 1 to 4', () => {
  assert.deepEqual(uniqueNames([{ name: 'a.csv' }, { name: 'b.csv' }, { name: 'a.csv' }, { name: 'a.csv' }]).map((l) => l.name), ['a.csv', 'b.csv', 'a.csv (2)', 'a.csv (3)']);
  assert.deepEqual([poolSize(1), poolSize(2), poolSize(8), poolSize(undefined)], [1, 2, 4, 2]);
});

test('the fleet bar says what the opened log was judged against, and nothing that is not so', () => {
  const others = [{ name: 'a.csv' }, { name: 'b.csv' }];
  assert.equal(learningText('WEB05', others), 'judged against its normal: learning it from 2 other logs…');
  // No other log: said, without "by the rules alone" (a baseline file from the panel may apply).
  assert.equal(learningText('APP01', []), 'no other log of APP01 to learn its normal from');
  // 2026-07-06 00:00 to 2026-07-09 01:59:45 UTC.
  const first = Date.UTC(2026, 6, 6), last = Date.UTC(2026, 6, 9, 1, 59, 45);
  assert.equal(judgedText({ logs: 4, first, last }), 'judged against its normal: 4 other logs, 2026-07-06 00:00 – 2026-07-09 01:59:45 UTC');
  assert.equal(judgedText({ error: 'x' }), 'its normal could not be used: x');
  assert.equal(judgedText({ replaced: 'WEB05.baseline.json' }), 'judged against WEB05.baseline.json (opened in the Analysis panel), not its other logs');
  assert.equal(judgedText(null), 'not judged against its other logs (removed in the Analysis panel)');
});
