// The viewer's one redraw path in the page (js/viewer/redraw.js): many changes in one task are painted
// once, in the next animation frame. Every chart draw writes #chart-range and every statistics paint
// replaces the table's body, so their mutations count the paints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('30 wheel zooms and 10 hovers in one task: one chart draw and one statistics paint each, in the next frame', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
  const out = await page.evaluate(async () => {
    const range = document.querySelector('#chart-range');
    const stats = document.querySelector('#chart-stats tbody');
    const count = { draws: 0, stats: 0 };
    const mo = new MutationObserver((ms) => { for (const m of ms) count[m.target === range ? 'draws' : 'stats']++; });
    mo.observe(range, { childList: true });
    mo.observe(stats, { childList: true });
    const c = document.querySelector('#chart');
    const box = c.getBoundingClientRect();
    const x0 = c.dataset.x0;
    for (let k = 0; k < 30; k++) {
      c.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true, cancelable: true }));
    }
    const inTask = { ...count };
    await new Promise((r) => requestAnimationFrame(() => r()));
    const wheel = { ...count, zoomed: c.dataset.x0 !== x0 };
    count.draws = 0;
    count.stats = 0;
    // Hovering the legend's rows one after the other (each a different series): the highlight changes
    // ten times, the chart is drawn once (a hover repaints the chart alone, not the statistics).
    const rows = [...document.querySelectorAll('#chart-legend tbody button[data-index]')];
    for (let k = 0; k < 10; k++) rows[k % rows.length].dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(() => r()));
    mo.disconnect();
    return { inTask, wheel, hover: { ...count }, rows: rows.length };
  });
  assert.deepEqual(out.inTask, { draws: 0, stats: 0 }, 'nothing is painted inside the task');
  assert.deepEqual(out.wheel, { draws: 1, stats: 1, zoomed: true });
  assert.ok(out.rows >= 2, `${out.rows} legend rows`);
  assert.deepEqual(out.hover, { draws: 1, stats: 0 });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('wheel zooms in one burst (before the next frame) all centre on the instant under the cursor', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
  const out = await page.evaluate(async () => {
    const c = document.querySelector('#chart');
    const d = () => Object.fromEntries(['x0', 'x1', 'plotLeft', 'plotWidth'].map((k) => [k, Number(c.dataset[k])]));
    const before = d();
    const box = c.getBoundingClientRect();
    // A whole pixel about a quarter of the way across the plot (offsetX is whole pixels).
    const x = Math.round(before.plotLeft + before.plotWidth / 4);
    const at = (l) => l.x0 + ((x - l.plotLeft) / l.plotWidth) * (l.x1 - l.x0);
    for (let k = 0; k < 5; k++) {
      c.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: box.left + c.clientLeft + x, clientY: box.top + box.height / 2, bubbles: true, cancelable: true }));
    }
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    const after = d();
    return { before, after, t0: at(before), t1: at(after) };
  });
  // Five zooms of 0.8 around one instant: the span is 0.8^5 = 0.32768 of what it was, and the instant
  // under the cursor has not moved (within a millisecond).
  const span = (l) => l.x1 - l.x0;
  assert.ok(Math.abs(span(out.after) / span(out.before) - 0.32768) < 1e-6, `${span(out.after) / span(out.before)}`);
  assert.ok(Math.abs(out.t1 - out.t0) < 1, `${out.t1 - out.t0} ms ${JSON.stringify(out)}`);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
