// The fleet view in real Chromium: five logs of three machines chosen at once (and dropped at once) read
// in the Worker pool into a table of three machines, ranked by construction, under the heatmap; a click
// (and Enter) opens a machine's log with its verdict and a bar leads back; a log that cannot be read is
// listed while the others make the fleet; Cancel stops the pool. Screenshots of the fleet view (light and
// dark, 1440x900 and 390x844) go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const T0 = Date.UTC(2026, 6, 4); // 2026-07-04 00:00:00 UTC (no zone in the files)
const HOUR = 3_600_000;

/** A relog CSV of `machine`'s _Total CPU and available memory over two hours at 15 s (480 samples) from
 *  `start` (ms); `cpu(s)` and `mem(s)` give the values at s seconds into the log. */
export function log(machine, start, cpu, mem = () => 8000) {
  const paths = [`\\\\${machine}\\Processor(_Total)\\% Processor Time`, `\\\\${machine}\\Memory\\Available MBytes`];
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  const p2 = (n) => String(n).padStart(2, '0');
  for (let k = 0; k < 480; k++) {
    const t = new Date(start + k * 15_000);
    const stamp = `${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000`;
    lines.push([stamp, cpu(k * 15), mem(k * 15)].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}
const busy = (from, to) => (s) => (s >= from && s < to ? 97 : 10);
const calm = () => 10;

// By construction, against the system overview's rules (CPU above 95 % is critical; Available MBytes
// under 10 % of the default 16 GB, 1638.4 MB, is a warning, under 5 %, 819.2 MB, critical):
// - WEB01: web-1 (00:00-02:00) at 97 % from 00:30 to 01:30, 60 min; web-2 (02:00-04:00) calm: critical,
//   60 min in trouble;
// - DB01: db-1 (00:00-02:00) calm; db-2 (02:00-04:00) at 97 % from 02:30 to 03:00, 30 min: critical,
//   30 min in trouble (60 > 30: WEB01 first);
// - APP01: app-1 (00:00-02:00) CPU calm, 1000 MB available all along (below 1638.4, above 819.2): a
//   warning only, so last whatever its time in trouble.
// Rows: WEB01, DB01, APP01. A click on DB01 opens db-2.csv, the first of its 2 logs in trouble.
export const FIVE = () => [
  { name: 'web-1.csv', mimeType: 'text/csv', buffer: log('WEB01', T0, busy(1800, 5400)) },
  { name: 'db-2.csv', mimeType: 'text/csv', buffer: log('DB01', T0 + 2 * HOUR, busy(1800, 3600)) },
  { name: 'app-1.csv', mimeType: 'text/csv', buffer: log('APP01', T0, calm, () => 1000) },
  { name: 'web-2.csv', mimeType: 'text/csv', buffer: log('WEB01', T0 + 2 * HOUR, calm) },
  { name: 'db-1.csv', mimeType: 'text/csv', buffer: log('DB01', T0, calm) },
];

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
