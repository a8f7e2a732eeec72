// The package's viewer outside the counterlens page: examples/embed.html mounts it twice (the whole
// viewer from a URL, and a chart only from bytes with a wildcard selection) under a strict CSP. Also the
// series tree's levels and counts, and hovering a series to highlight it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('examples/embed.html: two viewers in a plain page, no ids, no console errors, nothing off the origin', async () => {
  const { page, problems } = await openPage(browser, server.url + 'examples/embed.html');
  const full = page.locator('#full');
  const cpu = page.locator('#cpu');
  await page.waitForFunction(() => document.querySelector('#full [data-part="chart-status"]')?.textContent.startsWith('DEMO-SQL01 sample:'));
  assert.match(await full.locator('[data-part="chart-status"]').textContent(), /^DEMO-SQL01 sample: counterlens-json, UTF-8, 600 samples/);
  // The chart-only viewer has no file picker and no tree, and shows what the wildcard selects.
  assert.equal(await cpu.locator('[data-part="capture-file"], [data-part="series-list"]').count(), 0);
  const rows = await cpu.locator('[data-part="chart-stats"] tbody tr td:first-child').allTextContents();
  assert.ok(rows.length > 0 && rows.every((r) => /\\Processor\([^)]*\)\\% Processor Time$/.test(r)), JSON.stringify(rows));
  // Its range is the last five minutes, set through the handle.
  const [x0, x1] = await cpu.locator('canvas').evaluate((c) => [Number(c.dataset.x0), Number(c.dataset.x1)]);
  assert.ok(Math.abs(x1 - x0 - 300_000) < 1, `${x1 - x0}`);
  // No part has a document id: two viewers in one page do not collide.
  assert.equal(await page.locator('#full [id], #cpu [id]').count(), 0);
  // Both draw: canvases carry pixels.
  for (const v of [full, cpu]) assert.ok(Number(await v.locator('canvas').getAttribute('data-points-drawn')) > 0);
  await page.screenshot({ path: artifacts + 'embed.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the series tree goes machine > object > counter > instance with counts; hovering highlights', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', repo + 'tests/vectors/captures/PAL_SampleLog.blg');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('PAL_SampleLog.blg:'), null, { timeout: 60000 });
  const summaries = await page.$$eval('#series-list [aria-expanded] > .tree-row', (s) => s.map((x) => `${x.querySelector('.tree-label').textContent} (${x.querySelector('.tree-count').textContent})`));
  // One machine holding every series, then objects with their counts, then counters with instances.
  assert.equal(summaries[0], '\\\\ZACH-PC (1832)');
  assert.ok(summaries.includes('Processor (30)') && summaries.includes('Memory (35)'), JSON.stringify(summaries.slice(0, 12)));
  const cpu = await page.$$eval('#series-list .level-object', (d) => {
    const branch = (x) => `${x.querySelector('.tree-label').textContent} (${x.querySelector('.tree-count').textContent})`;
    return d.filter((x) => branch(x) === 'Processor (30)').map((x) => [...x.querySelectorAll(':scope > [role="group"] > .level-counter')].map(branch));
  });
  assert.ok(cpu[0].includes('% Processor Time (2)'), JSON.stringify(cpu));
  // Hovering a row of the stats table draws that series thicker (the canvas changes), leaving restores it.
  const before = await page.$eval('#chart', (c) => c.toDataURL());
  await page.hover('#chart-stats tbody tr:first-child td:first-child');
  await page.waitForFunction((b) => document.querySelector('#chart').toDataURL() !== b, before);
  await page.mouse.move(1, 1);
  await page.waitForFunction((b) => document.querySelector('#chart').toDataURL() === b, before);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('light and dark follow the system: the page, the viewer and the chart itself', async () => {
  for (const [scheme, dark] of [['light', false], ['dark', true]]) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, colorScheme: scheme });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
    // The canvas's own background (a corner pixel, outside the plot) and the page's text colour.
    const [r, g, b] = await page.$eval('#chart', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data]);
    const text = await page.$eval('#chart-status', (e) => getComputedStyle(e).color);
    const luminance = (r + g + b) / 3;
    assert.equal(luminance < 64, dark, `${scheme}: canvas corner rgb(${r}, ${g}, ${b})`);
    const [tr] = text.match(/\d+/g).map(Number);
    assert.equal(tr > 128, dark, `${scheme}: text ${text}`);
    await page.screenshot({ path: `${artifacts}viewer-${scheme}.png` });
    await page.close();
  }
});
