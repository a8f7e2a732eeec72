// Export and statistics of what is visible: the CSV holds the selected series over the zoomed range only;
// the PNG carries a title, the time range and the legend below the chart; the statistics add count, std
// dev, p99 and the trend per hour, as the package computes them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture } from 'counterlens';
import { serve, launch, openPage, repo, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const file = repo + 'tests/vectors/captures/BasicPerfCounters.blg';
const node = openCapture(new Uint8Array(readFileSync(file)));
const TOTAL = node.series().findIndex((s) => s.path === '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time');

test('CSV of the visible range, PNG with title, range and legend, stats with count/std dev/p99/trend', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', file);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('BasicPerfCounters.blg:'));
  await page.click('#zoom-in');
  await page.click('#zoom-in'); // a quarter of the capture, in the middle
  const [x0, x1] = await page.$eval('#chart', (c) => [Number(c.dataset.x0), Number(c.dataset.x1)]);
  const ts = node.timestamps();
  const inRange = [...ts].filter((t) => t >= x0 && t <= x1).length;
  assert.ok(inRange > 10 && inRange < ts.length / 3, `${inRange}`);
  // Stats: the new columns, equal to the package's figures over [x0, x1].
  const want = node.rangeStats(TOTAL, x0, x1);
  const row = await page.$eval(`#chart-stats tbody tr[data-index="${TOTAL}"]`, (tr) => Object.fromEntries(
    [...tr.cells].map((c, k) => [tr.closest('table').tHead.rows[0].cells[k].dataset.key, c.textContent])));
  assert.equal(row.count, String(want.count));
  assert.equal(want.count, inRange);
  assert.match(row.p99, /%$/);
  assert.match(row.stddev, /%$/);
  assert.match(row.trendPerHour, /^[+-]?[\d.,]+%\/h$/);
  // CSV: only the rows of the visible range, the selected series' columns.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  assert.equal(csv.suggestedFilename(), 'BasicPerfCounters-selected-range.csv');
  const back = openCapture(new Uint8Array(readFileSync(await csv.path())));
  assert.equal(back.sampleCount, inRange);
  assert.deepEqual([back.timestamps()[0], back.timestamps()[inRange - 1]], [...ts].filter((t) => t >= x0 && t <= x1).filter((_, k, a) => k === 0 || k === a.length - 1));
  assert.equal(back.seriesCount, 5);
  const first = [...ts].findIndex((t) => t >= x0);
  assert.deepEqual([...back.values(4)], [...node.values(TOTAL)].slice(first, first + inRange));
  // PNG: taller than the chart by the title, the range line and one legend line per series.
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  const bytes = readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const height = bytes.readUInt32BE(20);
  const chartHeight = await page.$eval('#chart', (c) => c.height);
  const ratio = await page.evaluate(() => devicePixelRatio);
  assert.ok(height >= chartHeight + ratio * 18 * (2 + 5), `${height} vs chart ${chartHeight}`);
  // The composed image, drawn in the page the same way, has the title text's pixels above the chart.
  await page.evaluate(async () => {
    const { composePng } = await import('/js/viewer/export.js');
    const img = composePng(document.querySelector('#chart'), { sourceName: 'BasicPerfCounters.blg', theme: 'light' },
      [{ color: '#0072b2', name: '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time — percent' }], document.querySelector('#chart-range').textContent);
    img.dataset.part = 'composed';
    document.body.append(img);
  });
  await page.locator('canvas[data-part="composed"]').screenshot({ path: artifacts + 'export.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
