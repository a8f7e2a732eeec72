// Several panes, each with its own series, sharing the time axis: a zoom in one is the zoom of all, the
// crosshair shows the same time in every pane, and a link restores the panes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const canvases = (page) => page.$$eval('#chart-panes canvas', (cs) => cs.map((c) => ({
  pane: c.dataset.pane ?? '0', x0: Number(c.dataset.x0), x1: Number(c.dataset.x1), points: Number(c.dataset.pointsDrawn),
  left: c.getBoundingClientRect().left + c.clientLeft, top: c.getBoundingClientRect().top + c.clientTop,
  plotLeft: Number(c.dataset.plotLeft), plotTop: Number(c.dataset.plotTop), plotWidth: Number(c.dataset.plotWidth), plotHeight: Number(c.dataset.plotHeight) })));

test('panes: own series, one time axis (zoom and crosshair in sync), restored from a link', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // Move the _Total series (the 5th legend row) and Processor(3) to a second pane.
  await page.selectOption('#chart-legend tbody tr:nth-child(5) select', 'new');
  await page.selectOption('#chart-legend tbody tr:nth-child(4) select', { value: '1' });
  let c = await canvases(page);
  assert.equal(c.length, 2);
  assert.ok(c.every((p) => p.points > 0), JSON.stringify(c));
  assert.equal(await page.$eval('#chart-legend tbody tr:nth-child(5) select', (s) => s.value), '1');
  // Zoom by dragging across the second pane: both show the same range.
  const [, b] = c;
  const y = b.top + b.plotTop + b.plotHeight / 2;
  await page.mouse.move(b.left + b.plotLeft + b.plotWidth * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(b.left + b.plotLeft + b.plotWidth * 0.6, y, { steps: 4 });
  await page.mouse.up();
  c = await canvases(page);
  assert.equal(c[0].x0, c[1].x0);
  // Their plots line up to the pixel (the same room for value axes in both).
  assert.deepEqual([c[0].plotLeft, c[0].plotWidth], [c[1].plotLeft, c[1].plotWidth]);
  assert.equal(c[0].x1, c[1].x1);
  assert.ok(c[0].x1 - c[0].x0 < (b.x1 - b.x0) / 2);
  // The crosshair over the first pane shows a line at the same x in the second.
  const [a] = c;
  await page.mouse.move(a.left + a.plotLeft + a.plotWidth * 0.5, a.top + a.plotTop + a.plotHeight / 2);
  const cursors = await page.$$eval('#chart-panes [data-part="chart-cursor"]', (cs) => cs.map((e) => ({ hidden: e.hidden, x: e.getBoundingClientRect().left })));
  assert.equal(cursors.length, 2);
  assert.ok(cursors.every((k) => !k.hidden), JSON.stringify(cursors));
  assert.ok(Math.abs(cursors[0].x - cursors[1].x) <= 1, JSON.stringify(cursors));
  await page.screenshot({ path: artifacts + 'panes.png' });
  // The link keeps the panes.
  const hash = new URL(page.url()).hash;
  assert.match(hash, /&pane=0,0,0,1,1&/);
  await page.close();
  const again = await openPage(browser, server.url + hash);
  await again.page.waitForFunction(() => document.querySelectorAll('#chart-panes canvas').length === 2);
  const r = await canvases(again.page);
  assert.ok(Math.abs(r[1].x0 - c[1].x0) < 1 && Math.abs(r[1].x1 - c[1].x1) < 1);
  for (const p of [problems, again.problems]) assert.deepEqual(p, { console: [], errors: [], foreign: [] });
  await again.page.close();
});
