// Comparing two captures: run B on another server, started an hour later, 50 % busier. Matched by path
// without the machine; aligned by offset from each start, the change table says +50 % for mean, p95 and
// max; by clock time the ranges do not overlap and B has no values; sortable; exported as CSV.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const dir = mkdtempSync(join(tmpdir(), 'counterlens-compare-'));
function run(name, machine, hour, factor) {
  const rows = [`"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\${machine}\\Processor(_Total)\\% Processor Time","\\\\${machine}\\System\\Processor Queue Length"`];
  for (let i = 0; i < 60; i++) rows.push(`"11/22/2026 ${String(hour).padStart(2, '0')}:00:${String(i).padStart(2, '0')}.000","${factor * (10 + (i % 10))}","${factor * 2 * (1 + (i % 4))}"`);
  const f = join(dir, name);
  writeFileSync(f, rows.join('\r\n') + '\r\n');
  return f;
}

test('compare two runs: change table by offset and by clock, sortable, CSV', async () => {
  const a = run('run-a.csv', 'WEB01', 9, 1);
  const b = run('run-b.csv', 'WEB02', 10, 1.5);
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', a);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('run-a.csv:'));
  await page.fill('#series-filter', 'queue');
  await page.keyboard.press('Enter'); // CPU (selected on open) and the queue length
  await page.click('#compare summary');
  await page.selectOption('#compare-align', 'offset');
  await page.setInputFiles('#compare-file', b);
  await page.waitForFunction(() => document.querySelector('#compare-status').textContent.startsWith('A: run-a.csv'));
  assert.equal(await page.textContent('#compare-status'), 'A: run-a.csv; B: run-b.csv, aligned by offset from each start; 2 counters compared.');
  const cells = (key) => page.$$eval(`#compare-table tbody td[data-key="${key}"]`, (tds) => tds.map((t) => t.textContent));
  // CPU mean of A: 10..19 repeated, 14.5; B 1.5 times it, 21.75: +7.25, +50.0 %. Queue: mean 5 -> 7.5.
  assert.deepEqual(await cells('meanPct'), ['+50%', '+50%']);
  assert.deepEqual(await cells('maxPct'), ['+50%', '+50%']);
  assert.deepEqual((await cells('meanA'))[0], '14.5%');
  assert.deepEqual((await cells('meanB'))[0], '21.8%'); // 21.75, to three digits
  // Sort by the mean's difference, descending: the CPU (+7.25) above the queue (+2.5).
  await page.click('#compare-table th[data-key="meanDiff"] button');
  const paths = await page.$$eval('#compare-table tbody td:first-child', (t) => t.map((x) => x.textContent));
  assert.deepEqual(paths, ['\\\\WEB01\\Processor(_Total)\\% Processor Time', '\\\\WEB01\\System\\Processor Queue Length']);
  await page.screenshot({ path: artifacts + 'compare.png', fullPage: true });
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#compare-csv')]);
  const text = readFileSync(await csv.path(), 'utf8').split('\r\n');
  assert.equal(text[0].split(',').length, 13);
  assert.equal(text[1].split(',')[4], '50');
  // B drawn over A (dashed, same colours, on the same axes): twice the points, all of B's 60 samples
  // found at A's times by offset.
  const points = () => page.$eval('#chart', (c) => Number(c.dataset.pointsDrawn));
  const alone = await points();
  await page.check('#compare-overlay');
  assert.equal(await points(), 2 * alone);
  await page.screenshot({ path: artifacts + 'compare-overlay.png' });
  // By clock time B (an hour later) has nothing in A's range.
  await page.selectOption('#compare-align', 'clock');
  assert.deepEqual(await cells('meanB'), ['', '']);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('two runs that do not overlap: aligned by offset on their own, said so; B has legend rows; numbers do not wrap', async () => {
  const a = run('run-c.csv', 'WEB01', 9, 1);
  const b = run('run-d.csv', 'WEB02', 10, 1.5);
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1024, height: 900 });
  await page.setInputFiles('#capture-file', a);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('run-c.csv:'));
  await page.click('#compare summary');
  assert.equal(await page.inputValue('#compare-align'), 'clock');
  await page.setInputFiles('#compare-file', b);
  await page.waitForFunction(() => document.querySelector('#compare-status').textContent.startsWith('A: run-c.csv'));
  assert.equal(await page.inputValue('#compare-align'), 'offset');
  assert.equal(await page.textContent('#compare-status'), 'A: run-c.csv; B: run-d.csv, aligned by offset from each start (the two runs do not overlap in time); 1 counters compared.');
  // CPU mean 14.5 % in A, 21.75 % in B: found by offset, not empty.
  assert.deepEqual(await page.$$eval('#compare-table tbody td[data-key="meanPct"]', (t) => t.map((x) => x.textContent)), ['+50%']);
  // Choosing clock time says why B is empty.
  await page.selectOption('#compare-align', 'clock');
  assert.ok((await page.textContent('#compare-status')).endsWith('The two runs do not overlap in time: align them by offset to compare them.'));
  await page.selectOption('#compare-align', 'offset');
  // B drawn over A: a legend row of its own, named by B's path, dashed, with B's statistics.
  await page.check('#compare-overlay');
  const rows = await page.$$eval('#chart-legend tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['Processor(_Total)\\% Processor Time', 'B: \\\\WEB02\\Processor(_Total)\\% Processor Time']);
  assert.equal(rows[1][4], '21.8%'); // B's mean, 1.5 x 14.5
  assert.ok(await page.$eval('#chart-legend tr.legend-b .swatch', (s) => s.classList.contains('dashed')));
  // Table cells with numbers stay on one line.
  // (A cell's text on more than one line has line boxes at more than one height.)
  const wrapped = await page.$$eval('#compare-table td.num, #chart-stats td.num', (tds) => tds.filter((td) => {
    const r = document.createRange();
    r.selectNodeContents(td);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
  }).map((td) => td.textContent));
  assert.deepEqual(wrapped, []);
  assert.deepEqual(await page.$$eval('#compare-table td.num', (tds) => [...new Set(tds.map((td) => getComputedStyle(td).whiteSpace))]), ['nowrap']);
  await page.screenshot({ path: artifacts + 'compare-offset.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
