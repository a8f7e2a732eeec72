// The legend outside the plot: a row per series with its colour, short name, value at the crosshair (or
// last) and the range's min/max/mean; clicking hides and shows the line (read from the canvas), hovering
// highlights it; colours stay with their series and 24 slots are 24 distinct colours.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** Pixels of the plot in palette slot 0's blue (0, 114, 178) and slot 1's vermillion (213, 94, 0). */
const colours = (page) => page.$eval('#chart', (c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let blue = 0, orange = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (Math.abs(d[i] - 0) < 30 && Math.abs(d[i + 1] - 114) < 30 && Math.abs(d[i + 2] - 178) < 30) blue++;
    if (Math.abs(d[i] - 213) < 30 && Math.abs(d[i + 1] - 94) < 30 && Math.abs(d[i + 2] - 0) < 30) orange++;
  }
  return { blue, orange };
});
const legendRows = (page) => page.$$eval('#chart-legend tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('legend: outside the plot, click hides and shows, hover highlights, values at the crosshair', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // The sample opens with % Processor Time of 4 CPUs and _Total.
  const rows = await legendRows(page);
  assert.deepEqual(rows.map((r) => r[0]), [0, 1, 2, 3, '_Total'].map((i) => `Processor(${i})\\% Processor Time`));
  // Min, max and mean of the whole capture, as the stats table has them.
  const stats = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => [r[2], r[3], r[4]]), stats.map((r) => [r[1], r[3], r[2]]));
  const before = await colours(page);
  assert.ok(before.blue > 300 && before.orange > 300, JSON.stringify(before));
  // Hide the first series: its blue leaves the canvas; the button says so.
  await page.click('#chart-legend tbody tr:nth-child(1) button');
  assert.equal(await page.getAttribute('#chart-legend tbody tr:nth-child(1) button', 'aria-pressed'), 'false');
  await page.mouse.move(0, 0);
  await page.dispatchEvent('#chart-legend', 'pointerleave');
  const hidden = await colours(page);
  assert.ok(hidden.blue < before.blue / 20, JSON.stringify(hidden));
  // The others keep their colours (slot 1 is still vermillion).
  assert.ok(hidden.orange > 300, JSON.stringify(hidden));
  await page.click('#chart-legend tbody tr:nth-child(1) button');
  await page.mouse.move(0, 0);
  await page.dispatchEvent('#chart-legend', 'pointerleave');
  assert.ok((await colours(page)).blue > before.blue * 0.9);
  // Hovering the second row draws it thicker: more vermillion pixels.
  await page.hover('#chart-legend tbody tr:nth-child(2) td:nth-child(3)');
  const lit = await colours(page);
  assert.ok(lit.orange > before.orange * 1.3, `${lit.orange} vs ${before.orange}`);
  // The crosshair: the legend's value column is the value at the sample under the pointer, as the
  // readout (read from the data) shows it.
  const l = await page.$eval('#chart', (c) => ({ ...Object.fromEntries(Object.entries(c.dataset).map(([k, v]) => [k, Number(v)])), box: c.getBoundingClientRect().toJSON() }));
  await page.mouse.move(l.box.x + l.plotLeft + l.plotWidth * 0.4, l.box.y + l.plotTop + l.plotHeight / 2);
  assert.match(await page.textContent('#chart-legend thead [data-col="value"]'), /^at \d\d:\d\d:\d\d\.\d{3}$/);
  const readout = await page.$$eval('#chart-readout [data-index] b', (bs) => bs.map((b) => b.textContent));
  const atCursor = (await legendRows(page)).map((r) => r[1]);
  assert.deepEqual(atCursor, readout);
  await page.mouse.move(0, 0);
  assert.equal(await page.textContent('#chart-legend thead [data-col="value"]'), 'last');
  await page.screenshot({ path: artifacts + 'legend.png' });
  // 24 palette slots, 24 different colours.
  const palette = await page.evaluate(async () => {
    const { seriesColor } = await import('/js/browser.js');
    return Array.from({ length: 24 }, (_, i) => seriesColor(i));
  });
  assert.equal(new Set(palette).size, 24);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
