// The series browser: every match of a wildcard selected in one action (Enter in the filter), all
// cleared, the top N instances by max/mean/p95 over the visible range ("the 5 busiest processes"), by
// keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture } from 'counterlens';
import { serve, launch, openPage, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const sample = openCapture(new Uint8Array(readFileSync(repo + 'web/sample-capture.json')));
const PATTERN = '\\Process(*)\\% Processor Time';
const statsPaths = (page) => page.$$eval('#chart-stats tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));

test('select all matches, clear, top 5 by max over the visible range, from the keyboard', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const matching = sample.series().filter((s) => s.object === 'Process' && s.counter === '% Processor Time');
  assert.ok(matching.length > 5);
  // Clear from the keyboard: Tab to the button, Space.
  await page.focus('#series-filter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'series-clear');
  await page.keyboard.press('Space');
  assert.deepEqual(await statsPaths(page), []);
  // Every match of the wildcard, with Enter in the filter.
  await page.focus('#series-filter');
  await page.keyboard.type(PATTERN);
  await page.keyboard.press('Enter');
  assert.deepEqual(await statsPaths(page), matching.map((s) => s.path));
  assert.equal(await page.textContent('#series-count'), `${matching.length} series selected`);
  // Zoom to the first half, then the 5 busiest by max there (not _Total), busiest first.
  const ts = sample.timestamps();
  const half = [ts[0], ts[0] + (ts[ts.length - 1] - ts[0]) / 2];
  await page.evaluate(async (r) => { document.querySelector('#zoom-in').click(); }, half);
  const [x0, x1] = await page.$eval('#chart', (c) => [Number(c.dataset.x0), Number(c.dataset.x1)]);
  await page.selectOption('#series-top-by', 'max');
  await page.selectOption('#series-top-n', '5');
  await page.click('#series-top');
  const want = matching.filter((s) => s.instance !== '_Total')
    .map((s) => ({ path: s.path, v: sample.stats(s.index, x0, x1).max }))
    .sort((a, b) => b.v - a.v).slice(0, 5).map((x) => x.path);
  assert.deepEqual(await statsPaths(page), want);
  assert.equal(await page.getAttribute('#chart-stats th[data-key="max"]', 'aria-sort'), 'descending');
  // Escape empties the filter.
  await page.focus('#series-filter');
  await page.keyboard.press('Escape');
  assert.equal(await page.inputValue('#series-filter'), '');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('top N leaves out _Total and Idle unless asked, and the legend follows the rank', async () => {
  // Process(*)\% Processor Time, in this file order; the busiest by max: _Total 400, Idle 300, sqlservr 80,
  // w3wp 50, chrome 30, svchost 5, System 2.
  const procs = [['svchost', 5], ['chrome', 30], ['_Total', 400], ['Idle', 300], ['w3wp', 50], ['sqlservr', 80], ['System', 2]];
  const head = ['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...procs.map(([p]) => `\\\\H\\Process(${p})\\% Processor Time`)].map((c) => `"${c}"`).join(',');
  const rows = [0, 1, 2, 3].map((i) => [`11/22/2026 09:00:0${i}.000`, ...procs.map(([, max]) => (i === 2 ? max : max / 2))].map((c) => `"${c}"`).join(','));
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'procs.csv', mimeType: 'text/csv', buffer: Buffer.from([head, ...rows].join('\r\n') + '\r\n') });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('procs.csv:'));
  await page.selectOption('#series-top-n', '3');
  await page.selectOption('#series-top-by', 'max');
  assert.equal(await page.isChecked('#series-top-totals'), false);
  await page.click('#series-top');
  const legend = () => page.$$eval('#chart-legend tbody tr[data-index] td:first-child', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(await legend(), ['sqlservr', 'w3wp', 'chrome'].map((p) => `Process(${p})\\% Processor Time`));
  // The colours follow the rank too: the busiest has the first palette slot.
  const { seriesColor } = await import('counterlens');
  assert.equal(await page.$eval('#chart-legend tbody tr:first-child .swatch', (s) => s.style.background), hexToRgb(seriesColor(0)));
  await page.check('#series-top-totals');
  await page.click('#series-top');
  assert.deepEqual(await legend(), ['_Total', 'Idle', 'sqlservr'].map((p) => `Process(${p})\\% Processor Time`));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

function hexToRgb(c) {
  if (c.startsWith('rgb')) return c;
  const n = parseInt(c.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}
