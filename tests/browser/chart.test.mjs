// The chart's interaction in a real browser: drag, wheel, keys and double-click change the time range;
// the crosshair reads values from the data; the stats follow the visible range and sort; PNG and CSV
// export (the CSV read back through the file input); the view in the URL hash reopens it; perfmon
// wildcard filters. Expected values come from the package in Node, on the same file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openCapture, formatInUnit } from 'counterlens';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const file = repo + 'tests/vectors/captures/BasicPerfCounters.blg';
const node = openCapture(new Uint8Array(readFileSync(file)));
const TOTAL = node.series().findIndex((s) => s.path === '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time');

async function openBasic(page) {
  await page.setInputFiles('#capture-file', file);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('BasicPerfCounters.blg:'));
  // The analysis runs on open and its verdict, above the chart, moves the chart down when it lands:
  // wait for it so that the chart's place on the page is final.
  await page.waitForFunction(() => {
    const v = document.querySelector('#verdict');
    return v && !v.hidden && !['running', undefined].includes(v.dataset.state);
  }, null, { timeout: 30000 });
}
const layout = (page) => page.$eval('#chart', (c) => Object.fromEntries(Object.entries(c.dataset).map(([k, v]) => [k, Number(v)])));
const statsRows = (page) => page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('drag zooms to the dragged times, the stats follow, wheel/keys/buttons move, double-click resets', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openBasic(page);
  const box = await page.$eval('#chart', (c) => { const r = c.getBoundingClientRect(); return { x: r.left + c.clientLeft, y: r.top + c.clientTop }; });
  const l = await layout(page);
  assert.equal(l.x0, node.timestamps()[0]);
  // Drag across the second quarter of the plot.
  const [xa, xb] = [l.plotLeft + l.plotWidth * 0.25, l.plotLeft + l.plotWidth * 0.5];
  const y = l.plotTop + l.plotHeight / 2;
  await page.mouse.move(box.x + xa, box.y + y);
  await page.mouse.down();
  await page.mouse.move(box.x + xb, box.y + y, { steps: 5 });
  await page.mouse.up();
  const z = await layout(page);
  const t = (x) => l.x0 + ((x - l.plotLeft) / l.plotWidth) * (l.x1 - l.x0);
  // Within a pixel's worth of time of where the drag began and ended.
  const px = (l.x1 - l.x0) / l.plotWidth;
  assert.ok(Math.abs(z.x0 - t(xa)) <= px && Math.abs(z.x1 - t(xb)) <= px, `${z.x0}..${z.x1} vs ${t(xa)}..${t(xb)}`);
  assert.match(await page.textContent('#chart-range'), / to /);
  // Stats of the visible range: _Total's mean over [x0, x1] as the package computes it.
  const st = node.stats(TOTAL, z.x0, z.x1);
  const row = (await statsRows(page)).find((r) => r[0] === '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time');
  // As the core writes a percent wherever it is read (formatInUnit: three significant digits).
  assert.equal(row[2], formatInUnit(st.mean, 'percent'));
  await page.screenshot({ path: artifacts + 'chart-zoomed.png' });
  // Wheel out around the middle widens the range; the keyboard pans it.
  await page.mouse.move(box.x + l.plotLeft + l.plotWidth / 2, box.y + y);
  await page.mouse.wheel(0, 100);
  const w = await layout(page);
  assert.ok(w.x1 - w.x0 > z.x1 - z.x0);
  await page.focus('#chart');
  await page.keyboard.press('Shift+ArrowRight'); // (Right alone moves the keyboard crosshair)
  const k = await layout(page);
  assert.ok(k.x0 > w.x0 && Math.abs((k.x1 - k.x0) - (w.x1 - w.x0)) < 1, 'panned right by the same width');
  await page.click('#zoom-in');
  const b = await layout(page);
  assert.ok(Math.abs((b.x1 - b.x0) - (k.x1 - k.x0) / 2) < 1, 'the button halves the range');
  // Shift-drag pans: dragging right by a quarter of the plot moves the range back by a quarter of it.
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x + l.plotLeft + l.plotWidth * 0.5, box.y + y);
  await page.mouse.down();
  await page.mouse.move(box.x + l.plotLeft + l.plotWidth * 0.75, box.y + y, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  const p = await layout(page);
  const quarter = (b.x1 - b.x0) / 4;
  assert.ok(Math.abs((b.x0 - p.x0) - quarter) < quarter * 0.05, `${b.x0 - p.x0} vs ${quarter}`);
  await page.dblclick('#chart', { position: { x: l.plotLeft + 10, y } });
  const r = await layout(page);
  assert.deepEqual([r.x0, r.x1], [l.x0, l.x1]);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the crosshair shows each selected series at the nearest sample, read from the data', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openBasic(page);
  // The verdict sits above the chart: the user scrolls down to it first.
  const box = await page.$eval('#chart', (c) => { c.scrollIntoView({ block: 'center' }); const r = c.getBoundingClientRect(); return { x: r.left + c.clientLeft, y: r.top + c.clientTop }; });
  const l = await layout(page);
  for (const f of [0.1, 0.5, 0.9]) {
    const x = l.plotLeft + l.plotWidth * f;
    await page.mouse.move(box.x + x, box.y + l.plotTop + 20);
    await page.waitForSelector('#chart-readout:not([hidden])');
    const shown = await page.$$eval('#chart-readout [data-index]', (d) => d.map((e) => [Number(e.dataset.index), Number(e.dataset.value), e.textContent]));
    const k = node.sampleAt(l.x0 + ((x - l.plotLeft) / l.plotWidth) * (l.x1 - l.x0));
    assert.equal(shown.length, 5, 'the five Processor series selected on open');
    for (const [i, v, text] of shown) {
      assert.ok(Object.is(v, node.valueAt(i, k)), `series ${i} at sample ${k}: ${v} vs ${node.valueAt(i, k)}`);
      assert.ok(text.endsWith(formatInUnit(v, 'percent')), text);
    }
    // The cursor line sits on that sample's time.
    const cx = await page.$eval('#chart-cursor', (c) => parseFloat(c.style.left) - document.querySelector('#chart').clientLeft);
    const want = l.plotLeft + ((node.timestamps()[k] - l.x0) / (l.x1 - l.x0)) * l.plotWidth;
    assert.ok(Math.abs(cx - want) < 0.5, `${cx} vs ${want}`);
  }
  await page.screenshot({ path: artifacts + 'chart-crosshair.png' });
  await page.mouse.move(1, 1);
  assert.equal(await page.isHidden('#chart-readout'), true);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('stats sort by a column; wildcard filters; PNG and CSV export, the CSV read back', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openBasic(page);
  await page.click('#chart-stats th[data-key="max"] button');
  assert.equal(await page.getAttribute('#chart-stats th[data-key="max"]', 'aria-sort'), 'descending');
  const maxima = (await statsRows(page)).map((r) => parseFloat(r[3]));
  assert.deepEqual(maxima, [...maxima].sort((a, b) => b - a));
  await page.click('#chart-stats th[data-key="max"] button');
  assert.equal(await page.getAttribute('#chart-stats th[data-key="max"]', 'aria-sort'), 'ascending');
  // Perfmon wildcards: any machine, any instance; and a path without a machine.
  await page.fill('#series-filter', '\\\\*\\Processor(*)\\% Processor Time');
  assert.equal(await page.textContent('#series-count'), '5 of 10 series');
  await page.fill('#series-filter', '\\PhysicalDisk(*)\\Avg. Disk * Queue Length');
  assert.equal(await page.textContent('#series-count'), '2 of 10 series');
  await page.fill('#series-filter', '');
  // PNG: a real PNG of the canvas.
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
  assert.equal(png.suggestedFilename(), 'BasicPerfCounters.png');
  const bytes = readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // CSV of the selected series, read back through the file input: the same five series and values.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const text = readFileSync(await csv.path());
  await page.setInputFiles('#capture-file', { name: 'exported.csv', mimeType: 'text/csv', buffer: text });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('exported.csv:'));
  assert.equal(await page.textContent('#chart-status'), 'exported.csv: pdh-csv, UTF-8, 601 samples, 5 series, time zone UTC-08:00 (bias 480 min)');
  const back = openCapture(new Uint8Array(text));
  assert.deepEqual(back.series().map((s) => s.path), node.series().filter((s) => s.object === 'Processor').map((s) => s.path));
  assert.deepEqual([...back.values(4)], [...node.values(TOTAL)]);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the view lives in the URL hash: a link reopens the same series and range', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const l = await layout(page);
  await page.evaluate(() => document.querySelector('#zoom-in').click());
  const z = await layout(page);
  const hash = new URL(page.url()).hash;
  // The file's identity, the series by counter path, the range.
  assert.match(hash, /^#file=sample%20capture%20\(DEMO-SQL01\)~\d+~[0-9a-f]{8}(&s=[^&]+)+&from=\d+&to=\d+$/);
  assert.ok(hash.includes('&s=\\\\DEMO-SQL01\\Processor(0)\\%25%20Processor%20Time&'), hash);
  await page.close();
  const again = await openPage(browser, server.url + hash);
  await again.page.waitForFunction(() => document.querySelectorAll('#chart-stats tbody tr').length > 0);
  const r = await layout(again.page);
  assert.ok(Math.abs(r.x0 - z.x0) < 1 && Math.abs(r.x1 - z.x1) < 1 && r.x1 - r.x0 < l.x1 - l.x0, JSON.stringify([r, z]));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  assert.deepEqual(again.problems, { console: [], errors: [], foreign: [] });
  await again.page.close();
});

test('Get-Counter captures: PDH values overlaid dashed, and the points where they differ listed', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // Not offered for a capture without PDH's values.
  assert.equal(await page.isHidden('#pdh-overlay-label'), true);
  await page.setInputFiles('#capture-file', repo + 'tests/vectors/captures/get-counter-ps51.json');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('get-counter-ps51.json:'));
  assert.equal(await page.isHidden('#pdh-overlay-label'), false);
  const before = await page.$eval('#chart', (c) => c.toDataURL());
  await page.check('#pdh-overlay');
  await page.waitForFunction((b) => document.querySelector('#chart').toDataURL() !== b, before);
  // _Total's % processor time at set 2: ours 100 * (1 - 6 250 000 / 10 000 000) = 37.5, PDH's 37.5000001.
  assert.equal(await page.textContent('#pdh-diffs-summary'), 'Where counterlens and PDH differ: 1 points');
  const row = await page.$$eval('#pdh-diffs-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(row.map((r) => r.slice(1, 4)), [['\\\\web01\\processor(_total)\\% processor time', '37.5', '37.5000001']]);
  await page.screenshot({ path: artifacts + 'chart-pdh-overlay.png' });
  await page.uncheck('#pdh-overlay');
  assert.equal(await page.isHidden('#pdh-diffs'), true);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('clicking a point explains it with the raw numbers (Get-Counter), or says a CSV holds none', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', repo + 'tests/vectors/captures/get-counter-ps51.json');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('get-counter-ps51.json:'));
  const l = await layout(page);
  // A click at the right edge of the plot picks set 2: 100 * (1 - 6 250 000 / 10 000 000) = 37.5.
  await page.click('#chart', { position: { x: l.plotLeft + l.plotWidth - 1, y: l.plotTop + 20 } });
  await page.waitForSelector('#chart-explain:not([hidden])');
  const text = await page.textContent('#chart-explain');
  assert.match(text, /How the values at 2025-11-21 20:25:10\.000 were computed/);
  assert.ok(text.includes('100 * (1 - (1170388007812 - 1170381757812) / (134082303100000000 - 134082303090000000))'), text);
  await page.click('#chart-explain button');
  assert.equal(await page.isHidden('#chart-explain'), true);
  // A relog CSV has only cooked values.
  await page.setInputFiles('#capture-file', repo + 'tests/vectors/captures/relog-pst.csv');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('relog-pst.csv:'));
  await page.click('#chart', { position: { x: l.plotLeft + 5, y: l.plotTop + 20 } });
  assert.match(await page.textContent('#chart-explain'), /holds the values as they were written, not the raw samples/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

// ---- Explaining a .blg point: the viewer reads the file again keeping the clicked series' raw samples ----
const withRaw = openCapture(new Uint8Array(readFileSync(file)), { keepRaw: true });
/** Each explained item of the box: [series index, text]; and the sample the box explains. */
const explained = (page) => page.$eval('#chart-explain', (b) => ({
  sample: Number(b.dataset.sample),
  items: [...b.querySelectorAll('[data-index]')].map((d) => [Number(d.dataset.index), d.textContent, d.dataset.pending === 'true']),
  text: b.textContent,
}));

test('clicking a point of a .blg reads the raw samples again and explains it; the next click is instant', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openBasic(page);
  const l = await layout(page);
  await page.click('#chart', { position: { x: l.plotLeft + l.plotWidth * 0.5, y: l.plotTop + 20 } });
  await page.waitForSelector('#chart-explain:not([hidden])');
  // Until the file is read again, the box says so (the read may already be over on a fast machine).
  const first = await explained(page);
  assert.ok(first.items.length > 0, 'the selected series are listed');
  if (first.items.some(([, , pending]) => pending)) assert.match(first.text, /Reading the raw samples of BasicPerfCounters\.blg again/);
  await page.waitForFunction(() => !document.querySelector('#chart-explain [data-pending]'), null, { timeout: 30000 });
  const done = await explained(page);
  assert.doesNotMatch(done.text, /Reading the raw samples|holds the values as they were written|no longer available/);
  for (const [i, text] of done.items) {
    const e = withRaw.explainAt(i, done.sample);
    assert.ok(text.includes(e.formula) && text.includes(e.substituted) && /\d{12,}/.test(e.substituted), `${i}: ${text}`);
  }
  // A second click, at sample 1, is answered from the cache: explained at once, nothing pending.
  const t = withRaw.timestamps();
  const x = l.plotLeft + ((t[1] - l.x0) / (l.x1 - l.x0)) * l.plotWidth;
  await page.click('#chart', { position: { x, y: l.plotTop + 20 } });
  const again = await explained(page);
  assert.equal(again.sample, 1);
  assert.ok(again.items.every(([, , pending]) => !pending) && !/Reading the raw samples/.test(again.text), again.text);
  // _Total's % Processor Time at sample 1, PERF_100NSEC_TIMER_INV: 100 * (1 - (N1 - N0) / (D1 - D0)) with
  // N0 = 1 170 374 257 812, N1 = 1 170 383 320 312, D0 = 130 058 022 178 447 225, D1 = 130 058 022 188 447 585:
  // dN = 9 062 500, dD = 10 000 360, 100 * (1 - 9 062 500 / 10 000 360) = 9.3782...
  const total = again.items.find(([i]) => i === TOTAL);
  assert.ok(total, 'the _Total series is selected by default');
  assert.ok(total[1].includes('100 * (1 - (1170383320312 - 1170374257812) / (130058022188447585 - 130058022178447225)) = 9.378'), total[1]);
  await page.locator('#chart-explain').screenshot({ path: artifacts + 'chart-explain-blg.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a .blg opened from a URL that now serves another log, then nothing: the explanation says so plainly, and tries again', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const bytes = readFileSync(file);
  await page.route('**/logs/basic.blg', (r) => r.fulfill({ body: bytes, contentType: 'application/octet-stream' }));
  await page.evaluate(async () => {
    const { mountViewer } = await import('/js/browser.js');
    const host = document.createElement('div');
    host.id = 'second';
    document.body.prepend(host);
    await mountViewer(host, { url: '/logs/basic.blg', chartOnly: true }).ready;
  });
  const canvas = page.locator('#second canvas[data-part="chart"]');
  const l = await canvas.evaluate((c) => Object.fromEntries(Object.entries(c.dataset).map(([k, v]) => [k, Number(v)])));
  const box = page.locator('#second [data-part="chart-explain"]');
  // Another log under the same URL now: read again, it is not the one on screen, and the box says so.
  await page.unroute('**/logs/basic.blg');
  await page.route('**/logs/basic.blg', (r) => r.fulfill({ body: readFileSync(repo + 'tests/vectors/captures/PAL_SampleLog.blg'), contentType: 'application/octet-stream' }));
  await canvas.click({ position: { x: l.plotLeft + l.plotWidth * 0.5, y: l.plotTop + 20 } });
  await box.locator('[data-part="explain-error"]').first().waitFor({ timeout: 30000 });
  assert.match(await box.textContent(), /basic\.blg has changed since it was opened \(11 samples, not 601\): open it again to explain its points\./);
  // The file is gone from the server now: the re-read fails, and the box says why and what to do.
  await page.unroute('**/logs/basic.blg');
  await page.route('**/logs/basic.blg', (r) => r.fulfill({ status: 404, body: 'gone' }));
  await canvas.click({ position: { x: l.plotLeft + l.plotWidth * 0.5, y: l.plotTop + 20 } });
  await page.waitForFunction(() => /no longer available/.test(document.querySelector('#second [data-part="chart-explain"]').textContent), null, { timeout: 30000 });
  assert.match(await box.textContent(), /basic\.blg is no longer available to read again \(\/logs\/basic\.blg: HTTP 404\), and its raw samples are needed to explain this point: open the file again to explain it\./);
  // Back on the server: the next click tries again, and explains.
  await page.unroute('**/logs/basic.blg');
  await page.route('**/logs/basic.blg', (r) => r.fulfill({ body: bytes, contentType: 'application/octet-stream' }));
  await canvas.click({ position: { x: l.plotLeft + l.plotWidth * 0.5, y: l.plotTop + 20 } });
  await page.waitForFunction(() => {
    const b = document.querySelector('#second [data-part="chart-explain"]');
    return !b.querySelector('[data-pending], [data-part="explain-error"]') && b.querySelector('.formula');
  }, null, { timeout: 30000 });
  const k = Number(await box.getAttribute('data-sample'));
  const items = await box.locator('[data-index]').evaluateAll((ds) => ds.map((d) => [Number(d.dataset.index), d.textContent]));
  assert.ok(items.length > 0);
  for (const [i, text] of items) assert.ok(text.includes(withRaw.explainAt(i, k).substituted), text);
  assert.deepEqual(problems.errors, []);
  assert.deepEqual(problems.foreign, []);
  await page.close();
});
