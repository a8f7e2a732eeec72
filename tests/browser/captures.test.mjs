// Opening captures in the viewer: the file input with the golden files, a broken file's error with its
// position, ?url= of a same-origin file, and a URL on another origin refused without a request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const golden = (name) => repo + 'tests/vectors/captures/' + name;
const status = (page) => page.textContent('#chart-status');

async function openFile(page, name) {
  await page.setInputFiles('#capture-file', golden(name));
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.includes(n) ||
    document.querySelector('#chart-status').textContent.startsWith('Cannot read'), name);
}

test('a relog CSV through the file input: its series, its zone, its notes', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openFile(page, 'relog-pst.csv');
  assert.equal(await status(page), 'relog-pst.csv: pdh-csv, UTF-8, 3 samples, 3 series, time zone Pacific Standard Time (bias 480 min)');
  // % Processor Time of the Processor object is what opens selected.
  const rows = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['\\\\WEB01\\Processor(_Total)\\% Processor Time']);
  // 12.5, 100.00000000000001 and 350 (a CSV's values are PDH's, not recomputed): max 350.
  assert.equal(rows[0][3], '350');
  await page.fill('#series-filter', 'disk reads');
  assert.equal(await page.textContent('#series-count'), '1 of 3 series');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a Get-Counter capture in UTF-16, and a broken file names its line and column', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openFile(page, 'get-counter-ps51.json');
  assert.equal(await status(page), 'get-counter-ps51.json: get-counter-json, UTF-16LE, 3 samples, 3 series, no time zone (times are UTC)');
  assert.deepEqual(await page.$$eval('#chart-notes li', (l) => l.map((x) => x.textContent)),
    ["1 of 6 points where both have a value differ from PDH's CookedValue by more than 1e-9 relative"]);
  await openFile(page, 'wrong-cells.csv');
  assert.match(await status(page), /^Cannot read this capture \(line 3, column 32\): line 3, column 32: expected 3 cells/);
  // The capture that was open stays open, with its selection (processor(_total)\% processor time).
  assert.equal(await page.$$eval('#chart-stats tbody tr', (t) => t.length), 1);
  await page.screenshot({ path: artifacts + 'viewer-capture-error.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('?url= opens a same-origin capture; another origin is refused without a request', async () => {
  let { page, problems } = await openPage(browser, server.url + '?url=sample-capture.json');
  assert.match(await status(page), /^sample-capture\.json: counterlens-json, UTF-8, 600 samples/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
  ({ page, problems } = await openPage(browser, server.url + '?url=' + encodeURIComponent('http://example.invalid/log.csv')));
  assert.equal(await status(page), "http://example.invalid/log.csv is not on this site; captures are only read from the page's own origin");
  assert.deepEqual(problems.foreign, []);
  await page.close();
});
