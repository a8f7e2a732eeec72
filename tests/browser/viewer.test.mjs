// The served viewer in real Chromium: it loads without errors, keeps every request on its origin,
// shows the counter-type table, draws a plotters chart on the canvas, and the calculator computes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('viewer loads cleanly and shows the counter-type table', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.click('#tab-types');
  const rows = await page.$$eval('#types tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 39);
  assert.deepEqual(rows[0], ['PERF_COUNTER_COUNTER', '0x10410400', '2', 'per-second', 'dN / (dD / F)']);
  assert.deepEqual(rows.find((r) => r[0] === 'PERF_COUNTER_RAWCOUNT_HEX'), ['PERF_COUNTER_RAWCOUNT_HEX', '0x00000000', '1', 'hex', 'N1']);
  await page.screenshot({ path: artifacts + 'viewer-types.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the chart is drawn by plotters on the canvas, in the series colours', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const pixels = await page.$eval('#chart', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let nonWhite = 0, blue = 0, orange = 0;
    for (let i = 0; i < d.length; i += 4) {
      const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
      if (r < 245 || g < 245 || b < 245) nonWhite++;
      if (r < 60 && g > 90 && g < 140 && b > 150) blue++;      // palette 0: (0, 114, 178)
      if (r > 190 && g > 70 && g < 120 && b < 40) orange++;   // palette 1: (213, 94, 0)
    }
    return { nonWhite, blue, orange, width: c.width, cssWidth: c.clientWidth, points: Number(c.dataset.pointsDrawn) };
  });
  assert.ok(pixels.nonWhite > 5000, JSON.stringify(pixels));
  assert.ok(pixels.blue > 300 && pixels.orange > 300, JSON.stringify(pixels));
  assert.equal(pixels.width, pixels.cssWidth * (await page.evaluate(() => devicePixelRatio)));
  // The sample capture opens with % Processor Time of the 4 CPUs and _Total: 5 series x 600 samples,
  // the first of each without a value, at most 4 points per pixel column per series.
  assert.ok(pixels.points > 0 && pixels.points <= 5 * 599, JSON.stringify(pixels));
  const stats = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(stats, [0, 1, 2, 3, '_Total'].map((i) => `\\\\DEMO-SQL01\\Processor(${i})\\% Processor Time`));
  assert.match(await page.textContent('#chart-status'), /^sample capture \(DEMO-SQL01\): counterlens-json, UTF-8, 600 samples, \d+ series, time zone Pacific Standard Time \(bias 480 min\)$/);
  await page.screenshot({ path: artifacts + 'viewer-chart.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the calculator cooks, explains and reports statuses', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.click('#tab-calc');
  // The worked example: PERF_100NSEC_TIMER_INV, dN 9,062,500 over dD 10,000,360 -> 9.378262... %
  assert.equal(await page.textContent('#calc-status'), 'ok');
  assert.match(await page.textContent('#calc-value'), /^9\.378% {3}\[9\.37826238255422\d\]$/);
  assert.match(await page.textContent('#calc-explain'), /^100 \* \(1 - \(1170383320312 - 1170374257812\) \/ \(130058022188447585 - 130058022178447225\)\) = 9\.378/);
  // Older larger than newer: the negative-value status, explained.
  await page.fill('input[name="older.value"]', '1170383320313');
  assert.equal(await page.textContent('#calc-status'), 'negative-value');
  assert.equal(await page.textContent('#calc-value'), '(no value)');
  // A malformed raw value: the error, as text.
  await page.fill('input[name="newer.value"]', '<b>12</b>');
  assert.match(await page.textContent('#calc-status'), /^CounterTypeError: newer\.value must be an integer/);
  assert.equal(await page.$$eval('#calc-status b', (b) => b.length), 0);
  // Another type from the list: a raw fraction needs one sample only.
  await page.selectOption('#calc-type', String(0x20020400));
  await page.fill('input[name="newer.value"]', '3');
  await page.fill('input[name="newer.second"]', '4');
  assert.equal(await page.textContent('#calc-value'), '75.000%   [75]');
  await page.screenshot({ path: artifacts + 'viewer-calculator.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('keyboard: tabs are reachable and switch with the arrow keys', async () => {
  const { page } = await openPage(browser, server.url);
  await page.focus('#tab-chart');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#tab-calc', 'aria-selected'), 'true');
  assert.equal(await page.isHidden('#panel-chart'), true);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.isVisible('#panel-reg'), true);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.isVisible('#panel-types'), true);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.isVisible('#panel-chart'), true, 'wraps around');
  await page.close();
});
