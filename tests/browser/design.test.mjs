// The page's design: one set of tokens (viewer.css) for the page and the viewer, so the Theme choice
// darkens the whole page; a bar with the open log's name and facts and the actions; the file input as a
// styled button plus a drop zone while nothing is open; errors as an alert that says what to do; no empty
// toggles before anything ran; an empty state when no series is selected; no outside requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const background = (page, selector) => page.$eval(selector, (e) => getComputedStyle(e).backgroundColor);

test('the theme applies to the whole page; tokens come from one stylesheet', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await background(page, 'body'), 'rgb(255, 255, 255)');
  await page.selectOption('#theme', 'dark');
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains('theme-dark')));
  // The page's body and header, not only the viewer's box.
  assert.equal(await background(page, 'body'), 'rgb(15, 18, 22)');
  assert.equal(await background(page, '.page-header'), 'rgb(23, 27, 33)');
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');
  await page.screenshot({ path: artifacts + 'design-dark.png' });
  // And back to the system's (light here).
  await page.selectOption('#theme', 'auto');
  assert.equal(await background(page, 'body'), 'rgb(255, 255, 255)');
  // Every token the page uses is defined once, in viewer.css (on :root).
  const tokens = await page.evaluate(() => ['--cl-bg', '--cl-fg', '--cl-accent', '--cl-space-4', '--cl-text-md', '--cl-focus-ring'].map((t) => getComputedStyle(document.documentElement).getPropertyValue(t).trim()));
  assert.ok(tokens.every(Boolean), JSON.stringify(tokens));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('bar, drop zone, alerts, empty states', async () => {
  // A shared link waits for its file: nothing is open, the drop zone says what to do.
  const { page, problems } = await openPage(browser, server.url + '#file=x.csv~10~0000abcd&s=%5C%5CH%5CProcessor(_Total)%5C%25%20Processor%20Time');
  assert.ok(await page.isVisible('#dropzone'));
  assert.equal(await page.isVisible('#chart'), false);
  assert.match(await page.textContent('#dropzone'), /^Drop a performance log here/);
  // The Choose button opens the same file input as the bar's Open (a file chooser).
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#dropzone-open')]);
  await chooser.setFiles({ name: 'x.csv', mimeType: 'text/csv', buffer: Buffer.from('"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\H\\Processor(_Total)\\% Processor Time"\r\n"11/22/2026 09:00:00.000","1"\r\n"11/22/2026 09:00:01.000","2"\r\n') });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('x.csv:'));
  assert.equal(await page.isVisible('#dropzone'), false);
  assert.equal(await page.textContent('#capture-name'), 'x.csv');
  // The file input is inside a label styled as a button, reachable by keyboard.
  assert.ok(await page.$eval('#capture-file', (i) => i.closest('label').classList.contains('cl-button')));
  // Nothing selected: an empty state, not an empty chart.
  assert.equal(await page.isVisible('#chart-empty'), false);
  await page.click('#series-clear');
  assert.ok(await page.isVisible('#chart-empty'));
  // No empty "Details" toggles: every <details> shown has a summary.
  assert.equal(await page.$$eval('details', (d) => d.filter((x) => x.getClientRects().length && !x.querySelector(':scope > summary')).length), 0);
  // A failed open: an alert (styled apart) saying what went wrong, and what to do.
  await page.setInputFiles('#capture-file', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('hello\n') });
  await page.waitForFunction(() => document.querySelector('#chart-status').dataset.failed === 'true');
  assert.ok(await page.isVisible('#chart-hint'));
  assert.match(await page.textContent('#chart-hint'), /^What to do: /);
  const alert = await page.$eval('#chart-status', (e) => ({ bg: getComputedStyle(e).backgroundColor, border: getComputedStyle(e).borderLeftWidth }));
  assert.notEqual(alert.bg, 'rgba(0, 0, 0, 0)');
  assert.equal(alert.border, '4px');
  await page.screenshot({ path: artifacts + 'design-alert.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test("the Perfmon-scale axis title is drawn whole, not cut at the canvas's edge", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.selectOption('#theme', 'light');
  await page.selectOption('#chart-scale', 'perfmon');
  // The band above the plot holds the title "scaled (factor in legend)": text pixels (dark on white) start
  // inside the canvas, past its 10 px margin, and none touch its left edge (the cut title did, from x = 0).
  const ink = await page.$eval('#chart', (c) => {
    const ratio = c.width / c.clientWidth;
    const top = Math.floor(Number(c.dataset.plotTop) * ratio);
    const d = c.getContext('2d').getImageData(0, 0, c.width, top).data;
    let first = Infinity;
    for (let y = 0; y < top; y++) for (let x = 0; x < c.width; x++) {
      const i = 4 * (y * c.width + x);
      if (d[i] < 128 && d[i + 1] < 128 && d[i + 2] < 128) first = Math.min(first, x / ratio);
    }
    return first;
  });
  assert.ok(ink >= 8 && ink < 80, `the title's first ink at x = ${ink} CSS px`);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
