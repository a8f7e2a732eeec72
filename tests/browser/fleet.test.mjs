// The fleet view in real Chromium: five logs of three machines chosen at once (and dropped at once) read
// in the Worker pool into a table of three machines, ranked by construction, under the heatmap; a click
// (and Enter) opens a machine's log with its verdict and a bar leads back; a log that cannot be read is
// listed while the others make the fleet; Cancel stops the pool. Screenshots of the fleet view (light and
// dark, 1440x900 and 390x844) go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';
import { log, FIVE, T0, busy, calm } from './fleet-logs.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const rows = (page) => page.$$eval('[data-part="fleet-table"] tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
const fleetDone = (page, n) => page.waitForFunction((k) => (document.querySelector('[data-part="fleet-status"]')?.textContent ?? '').startsWith(`${k} of ${k} logs read in`), n, { timeout: 60000 });

test('five logs of three machines chosen at once: three rows ranked, the heatmap, a click opens one with its verdict', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.equal(await page.$eval('#capture-file', (i) => i.multiple), true);
  await page.setInputFiles('#capture-file', FIVE());
  await fleetDone(page, 5);
  const r = await rows(page);
  assert.deepEqual(r.map((c) => [c[0], c[1], c[2]]), [['1', 'WEB01', 'critical'], ['2', 'DB01', 'critical'], ['3', 'APP01', 'warning']]);
  // Logs per machine: WEB01 2, DB01 2, APP01 1; CPU mean of APP01 is 10 % exactly, its least memory 1000 MB.
  assert.deepEqual(r.map((c) => c[9]), ['2', '2', '1']);
  assert.equal(r[2][5], '10%'); // as the core writes values (crate::words)
  assert.equal(r[2][7], '1000 MB');
  assert.match(r[0][3], /^(1 h|60 min|\d+ min)$/);
  assert.match(await page.textContent('[data-part="fleet-status"]'), /^5 of 5 logs read in .+: 3 machines, 3 in trouble\.$/);
  // The heatmap: one svg with the three machines' labels, in rank order; a sparkline per row.
  const labels = await page.$$eval('[data-part="fleet-heatmap"] svg text', (t) => t.map((x) => x.textContent.trim()));
  for (const m of ['WEB01', 'DB01', 'APP01']) assert.ok(labels.includes(m), labels.join('|'));
  assert.ok(labels.indexOf('WEB01') < labels.indexOf('DB01') && labels.indexOf('DB01') < labels.indexOf('APP01'));
  assert.equal(await page.$$eval('[data-part="fleet-table"] td.spark svg polyline', (p) => p.length), 3);
  // The single-log parts are hidden while the fleet shows.
  assert.equal(await page.isVisible('[data-part="chart-layout"]'), false);
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width: w, height: h });
      await page.selectOption('#theme', theme);
      // The heatmap is drawn again for its box's width (readable labels on a phone).
      await page.waitForFunction((vw) => Number(document.querySelector('[data-part="fleet-heatmap"] svg')?.getAttribute('width')) <= vw, w);
      await page.screenshot({ path: `${artifacts}fleet-${w}x${h}-${theme}.png`, fullPage: false });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.selectOption('#theme', 'light');
  // A click on DB01 opens db-2.csv (its first log in trouble) with its verdict.
  await page.click('[data-part="fleet-table"] tbody tr:nth-child(2) td.machine');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('db-2.csv:'), null, { timeout: 30000 });
  await page.waitForFunction(() => { const v = document.querySelector('#verdict'); return v && !v.hidden && v.dataset.state === 'critical' && /DB01/.test(v.textContent); }, null, { timeout: 30000 });
  assert.equal(await page.textContent('[data-part="fleet-back-text"]'), 'DB01: db-2.csv (the first of its 2 logs in trouble)');
  assert.equal(await page.isVisible('[data-part="fleet-table"]'), false);
  await page.screenshot({ path: `${artifacts}fleet-opened-1440x900.png` });
  // Back to the fleet; then Enter on APP01's row (keyboard) opens its only log.
  await page.click('[data-part="fleet-back-button"]');
  assert.equal(await page.isVisible('[data-part="fleet-table"]'), true);
  await page.focus('[data-part="fleet-table"] tbody tr:nth-child(3)');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('app-1.csv:'), null, { timeout: 30000 });
  assert.equal(await page.textContent('[data-part="fleet-back-text"]'), 'APP01: app-1.csv');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('dropped at once, with a damaged log: the others make the fleet, the damaged one is listed', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const files = [...FIVE(), { name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('not a log at all\r\n\u0000\u0001') }]
    .map((f) => ({ name: f.name, text: f.buffer.toString('latin1') }));
  const dt = await page.evaluateHandle((list) => {
    const d = new DataTransfer();
    for (const f of list) d.items.add(new File([Uint8Array.from(f.text, (c) => c.charCodeAt(0))], f.name, { type: 'text/csv' }));
    return d;
  }, files);
  await page.dispatchEvent('.counterlens-viewer', 'drop', { dataTransfer: dt });
  await fleetDone(page, 6);
  assert.deepEqual((await rows(page)).map((c) => c[1]), ['WEB01', 'DB01', 'APP01']);
  assert.match(await page.textContent('[data-part="fleet-status"]'), /; 1 could not be read\.$/);
  const errs = await page.$$eval('[data-part="fleet-errors-list"] li', (l) => l.map((x) => x.textContent));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^broken\.csv: Cannot read broken\.csv/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('Cancel stops the pool: its Workers are ended and nothing more is read', async () => {
  const { page } = await openPage(browser, server.url);
  // The pool's Workers are held at their script until Cancel is clicked: on a fast machine 40 small logs
  // are read before a click lands, and the button is gone.
  let release;
  const gate = new Promise((r) => { release = r; });
  await page.route('**/fleet-worker.js', async (route) => { await gate; await route.continue(); });
  const many = Array.from({ length: 40 }, (_, k) => ({ name: `m${k}.csv`, mimeType: 'text/csv', buffer: log(`M${String(k).padStart(2, '0')}`, T0, calm) }));
  await page.setInputFiles('#capture-file', many);
  await page.click('[data-part="fleet-cancel"]');
  release();
  await page.waitForFunction(() => /^Cancelled: \d+ of 40 logs read/.test(document.querySelector('[data-part="fleet-status"]').textContent));
  const status = await page.textContent('[data-part="fleet-status"]');
  const read = Number(/^Cancelled: (\d+)/.exec(status)[1]);
  assert.equal(read, 0, `${read} of 40 read before Cancel: the Workers were held`);
  assert.equal(await page.isVisible('[data-part="fleet-cancel"]'), false);
  // The Workers were ended: nothing more arrives once their scripts are let through.
  await page.waitForTimeout(500);
  assert.equal(await page.textContent('[data-part="fleet-status"]'), status);
  await page.close();
});

test('on a phone (390x844) each machine is a block of three lines: the page never scrolls sideways, Enter opens', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 390, height: 844 });
  const long = { name: 'long.csv', mimeType: 'text/csv', buffer: log('FILESERVER-WITH-A-LONG-NAME-07', T0, busy(0, 600)) };
  await page.setInputFiles('#capture-file', [...FIVE(), long]);
  await fleetDone(page, 6);
  // Nothing wider than the screen: the page does not scroll sideways (the heatmap is drawn for its box).
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  const shape = await page.$$eval('[data-part="fleet-table"] tbody tr', (trs) => trs.map((tr) => {
    const box = (e) => e.getBoundingClientRect();
    const text = tr.querySelector('.top-card-text');
    return {
      machine: tr.querySelector('.machine').textContent,
      height: box(tr).height,
      // The first line: rank, worst, time in trouble and the CPU line beside the machine's name (each
      // overlaps its height), all above the figures.
      firstLine: ['.rank', '.sev', '.trouble:not(.none)', '.spark'].map((q) => tr.querySelector(q)).filter(Boolean).every((e) =>
        box(e).top < box(tr.querySelector('.machine')).bottom && box(e).bottom > box(tr.querySelector('.machine')).top &&
        box(e).bottom <= box(tr.querySelector('.figure')).top),
      label: getComputedStyle(tr.querySelector('td.figure'), '::before').content,
      textLines: text ? Math.round(box(text).height / parseFloat(getComputedStyle(text).lineHeight)) : 0,
      cut: text ? text.scrollHeight > text.clientHeight + 1 : false,
      more: !!tr.querySelector('.cl-fleet-more') && getComputedStyle(tr.querySelector('.cl-fleet-more')).display !== 'none',
    };
  }));
  await page.screenshot({ path: `${artifacts}fleet-phone.png`, fullPage: true });
  assert.equal(shape.length, 4);
  for (const [k, s] of shape.entries()) {
    // A block of three lines: the first (20 px; a machine's name of 30 characters wraps to three in the
    // 126 px left beside the rest, 60 px), two lines of figures (13 px text, 19 px each: 38), the top
    // card's two lines (37), 8 px padding above and below (16), 4 px between the four flex lines, the
    // break between the first line and the figures counting as one (16): 20 + 38 + 37 + 16 + 16 = 127 px
    // for a short name, 167 px for the long one; 140 and 180 leave a little for fonts.
    const long = s.machine.length > 20;
    assert.ok(s.height <= (long ? 180 : 140), `row ${k + 1} (${s.machine}): ${s.height} px`);
    assert.ok(s.firstLine, `row ${k + 1}'s first line`);
    assert.match(s.label, /^"CPU mean "/, `row ${k + 1}'s first figure is named`);
    assert.ok(s.textLines <= 2, `row ${k + 1}'s top card: ${s.textLines} lines`);
    assert.equal(s.more, s.cut, `row ${k + 1}: More shows exactly when the top card is cut`);
  }
  // WEB01's top card (its CPU above 95 % for 60 min, a sentence of about 130 characters) is cut on a phone.
  assert.equal(shape[0].cut, true);
  // Still a table to a screen reader: the roles are explicit, the head is in the page (seen or not), the
  // top card's whole text is in its cell.
  const roles = await page.$eval('[data-part="fleet-table"]', (t) => ({
    table: t.getAttribute('role'), groups: [t.tHead, t.tBodies[0]].map((g) => g.getAttribute('role')),
    rows: [...t.rows].every((r) => r.getAttribute('role') === 'row'),
    heads: [...t.tHead.rows[0].cells].map((c) => c.getAttribute('role') === 'columnheader' && c.textContent),
    cells: [...t.tBodies[0].rows].every((r) => r.cells.length === 11 && [...r.cells].every((c) => c.getAttribute('role') === 'cell')),
    top: t.tBodies[0].rows[0].querySelector('.top-card-text').textContent,
  }));
  assert.deepEqual(roles.heads, ['#', 'Machine', 'Worst', 'In trouble', 'CPU', 'CPU mean', 'CPU p95', 'Least available memory', 'Disk latency p95', 'Logs', 'Top card']);
  assert.deepEqual({ ...roles, heads: undefined, top: undefined }, { table: 'table', groups: ['rowgroup', 'rowgroup'], rows: true, heads: undefined, cells: true, top: undefined });
  assert.match(roles.top, /^Processor: \\Processor\(_Total\)\\% Processor Time above 95% for 60 min from 00:30 to 01:29:45 UTC/);
  // Focus on a row shows its whole top card; the More button shows it for a pointer, and does not open.
  await page.focus('[data-part="fleet-table"] tbody tr:nth-child(1)');
  assert.ok(await page.$eval('[data-part="fleet-table"] tbody tr:nth-child(1) .top-card-text', (t) => t.scrollHeight <= t.clientHeight + 1));
  await page.screenshot({ path: `${artifacts}fleet-phone-focus.png` });
  // Its More is not shown then (all of the text is).
  assert.equal(await page.isVisible('[data-part="fleet-table"] tbody tr:nth-child(1) .cl-fleet-more'), false);
  await page.evaluate(() => document.activeElement.blur());
  await page.click('[data-part="fleet-table"] tbody tr:nth-child(2) .cl-fleet-more');
  assert.equal(await page.getAttribute('[data-part="fleet-table"] tbody tr:nth-child(2) .cl-fleet-more', 'aria-expanded'), 'true');
  assert.ok(await page.$eval('[data-part="fleet-table"] tbody tr:nth-child(2) .top-card-text', (t) => t.scrollHeight <= t.clientHeight + 1));
  assert.equal(await page.isVisible('[data-part="fleet-table"]'), true, 'More did not open the machine');
  await page.click('[data-part="fleet-table"] tbody tr:nth-child(2) .cl-fleet-more');
  assert.equal(await page.getAttribute('[data-part="fleet-table"] tbody tr:nth-child(2) .cl-fleet-more', 'aria-expanded'), 'false');
  // Enter on DB01's row opens its log (db-2.csv, the first of its 2 logs in trouble).
  await page.focus('[data-part="fleet-table"] tbody tr:nth-child(2)');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('db-2.csv:'), null, { timeout: 30000 });
  assert.equal(await page.textContent('[data-part="fleet-back-text"]'), 'DB01: db-2.csv (the first of its 2 logs in trouble)');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('at 1440x900 the eleven columns fit: the table does not scroll sideways in its box', async () => {
  const { page } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.setInputFiles('#capture-file', FIVE());
  await fleetDone(page, 5);
  const { scroll, client } = await page.$eval('[data-part="fleet-table"]', (t) => ({ scroll: t.parentElement.scrollWidth, client: t.parentElement.clientWidth }));
  assert.ok(scroll <= client, `${scroll} > ${client}`);
  assert.equal(await page.isVisible('[data-part="fleet-table"] thead th'), true);
  await page.close();
});
