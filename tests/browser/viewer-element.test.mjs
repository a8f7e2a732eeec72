// <counterlens-viewer> in examples/dashboard.html: attributes (src, series, range, theme, chart-only)
// set up each chart; changing an attribute changes the chart; `selection` and `zoom` events tell the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('examples/dashboard.html: elements from attributes, attribute changes, events', async () => {
  const { page, problems } = await openPage(browser, server.url + 'examples/dashboard.html');
  const cpu = page.locator('#cpu');
  const rows = await cpu.locator('[data-part="chart-stats"] tbody tr td:first-child').allTextContents();
  assert.ok(rows.length === 5 && rows.every((r) => /\\Processor\([^)]*\)\\% Processor Time$/.test(r)), JSON.stringify(rows));
  // range="2026-11-22T09:00:00Z,2026-11-22T09:05:00Z": five minutes.
  const x = await cpu.locator('canvas').evaluate((c) => [Number(c.dataset.x0), Number(c.dataset.x1)]);
  assert.deepEqual(x, [Date.UTC(2026, 10, 22, 9), Date.UTC(2026, 10, 22, 9, 5)]);
  // theme="dark" on the memory chart.
  assert.ok(await page.locator('#memory').evaluate((e) => e.classList.contains('theme-dark')));
  assert.ok((await page.locator('#memory [data-part="chart-stats"] tbody tr').count()) > 0);
  // Events: a selection change and a zoom, caught on the element.
  await page.evaluate(() => {
    window.events = [];
    const el = document.getElementById('cpu');
    el.addEventListener('selection', (e) => window.events.push(['selection', e.detail.series.length]));
    el.addEventListener('zoom', (e) => window.events.push(['zoom', e.detail.range]));
  });
  await page.evaluate(() => document.getElementById('cpu').setAttribute('series', '\\Processor(_Total)\\*'));
  const total = await cpu.locator('[data-part="chart-stats"] tbody tr td:first-child').allTextContents();
  assert.ok(total.length >= 2 && total.every((r) => r.includes('\\Processor(_Total)\\')), JSON.stringify(total));
  await page.evaluate(() => document.getElementById('cpu').setAttribute('range', `${Date.UTC(2026, 10, 22, 9, 1)},${Date.UTC(2026, 10, 22, 9, 2)}`));
  await cpu.locator('[data-part="zoom-reset"]').click();
  const events = await page.evaluate(() => window.events);
  assert.deepEqual(events, [['selection', total.length], ['zoom', [Date.UTC(2026, 10, 22, 9, 1), Date.UTC(2026, 10, 22, 9, 2)]], ['zoom', null]]);
  assert.equal(await page.textContent('#last-event'), 'cpu: whole capture');
  await page.evaluate(() => document.getElementById('cpu').setAttribute('theme', 'dark'));
  assert.ok(await cpu.evaluate((e) => e.classList.contains('theme-dark')));
  await page.screenshot({ path: artifacts + 'dashboard.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
