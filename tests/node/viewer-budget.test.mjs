// The viewer's memory budget and the part of a log too large for it (js/viewer/catalogue.js), as plain
// functions: the budget from the device's memory, the page's ?budget=, the estimate before reading, and
// which series are read. Expectations worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import 'counterlens'; // initialises the module (Node's entry) that the viewer's modules share
import { columnBudget, parseBudget, estimateColumnBytes, planPart, partBytes, packPatterns, formatBytes, DEFAULT_BUDGET } from '../../js/viewer/catalogue.js';

const MiB = 2 ** 20;

test('the budget: an eighth of the device memory, 256 MiB to 1 GiB, 512 MiB when the browser does not say', () => {
  assert.equal(columnBudget(undefined), 512 * MiB);
  assert.equal(DEFAULT_BUDGET, 512 * MiB);
  assert.equal(columnBudget(8), 1024 * MiB); // 8 GiB / 8
  assert.equal(columnBudget(4), 512 * MiB);
  assert.equal(columnBudget(2), 256 * MiB);
  assert.equal(columnBudget(0.5), 256 * MiB); // 64 MiB, raised to the floor
  assert.equal(columnBudget(32), 1024 * MiB); // 4 GiB, capped
  assert.equal(columnBudget(0), 512 * MiB);
});

test('?budget= in bytes or with a unit; anything else is no budget', () => {
  assert.equal(parseBudget('20000'), 20000);
  assert.equal(parseBudget('300M'), 300 * MiB);
  assert.equal(parseBudget('2G'), 2048 * MiB);
  assert.equal(parseBudget('64kb'), 65536);
  for (const bad of [null, '', 'lots', '-5', '0', '1e9']) assert.equal(parseBudget(bad), undefined, bad);
});

test('the estimate before reading: a .blg x 1, text x 2', () => {
  assert.equal(estimateColumnBytes(1000, 'x.BLG'), 1000);
  assert.equal(estimateColumnBytes(1000, 'x.csv'), 2000);
  assert.equal(estimateColumnBytes(1000, undefined), 2000);
});

const cat = (paths, rows) => ({ rows, series: paths.map((path, index) => ({ index, path, samples: rows })), columnBytes: partBytes(rows, paths.length) });

test('the part: the packs\' series within the budget, the user\'s picks first, every Nth sample when one series does not fit', () => {
  const paths = ['\\\\S\\Processor(_Total)\\% Processor Time', '\\\\S\\App\\A', '\\\\S\\Memory\\Available MBytes', '\\\\S\\App\\B', '\\\\S\\Memory\\Pages/sec'];
  assert.ok(packPatterns().includes('\\Memory\\Available MBytes'));
  // 100 rows: 800 bytes a series; 3,300 bytes hold 4 columns: the timestamps and 3 series.
  const p = planPart(cat(paths, 100), 3300);
  assert.deepEqual([p.indices, p.packs, p.picked, p.every, p.fits, p.bytes], [[0, 2, 4], 3, 0, 1, 3, 3200]);
  // 2,500 bytes: 2 series; the packs' first two in file order.
  assert.deepEqual(planPart(cat(paths, 100), 2500).indices, [0, 2]);
  // The user's pick first, then the packs' as room allows.
  const q = planPart(cat(paths, 100), 2500, { picked: [3] });
  assert.deepEqual([q.indices, q.picked, q.packs], [[0, 3], 1, 1]);
  // Exactly the picks (the picker's Load: no patterns).
  assert.deepEqual(planPart(cat(paths, 100), 3300, { patterns: [], picked: [1, 3] }).paths, ['\\\\S\\App\\A', '\\\\S\\App\\B']);
  // 1,000 rows in 5,000 bytes: one series and the timestamps take 1000 x 8 x 2 = 16,000 bytes, so every
  // ceil(16000 / 5000) = 4th sample: 250 rows, 2,000 bytes a column; 5000 / 2000 = 2 columns: 1 series.
  const r = planPart(cat(paths, 1000), 5000);
  assert.deepEqual([r.every, r.fits, r.indices, r.bytes], [4, 1, [0], 4000]);
  // A log the packs know nothing of: its first series.
  assert.deepEqual(planPart(cat(['\\\\S\\X\\a', '\\\\S\\X\\b', '\\\\S\\X\\c'], 10), 250).indices, [0, 1]);
});

test('bytes in words, as the core writes sizes', () => {
  // 97,600 / 1024 = 95.3125 KB: three significant digits, 95.3 KB; 3.6 GiB = 3.6 GB.
  assert.deepEqual([formatBytes(512), formatBytes(97600), formatBytes(300 * MiB), formatBytes(3.6 * 1024 * MiB)], ['512 B', '95.3 KB', '300 MB', '3.6 GB']);
});
