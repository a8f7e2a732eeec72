// Sharing exactly: the URL names series by counter path plus the file's identity; opened on another log
// whose columns are in another order (and which lacks one counter), it selects the same counters, says
// what did not match and that the file differs, and restores the range, the scale and the theme.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const CPU = '\\\\H\\Processor(_Total)\\% Processor Time';
const MEM = '\\\\H\\Memory\\Available MBytes';
const DISK = '\\\\H\\PhysicalDisk(_Total)\\Disk Reads/sec';
const QUEUE = '\\\\H\\System\\Processor Queue Length';
const value = { [CPU]: (i) => 20 + (i % 7), [MEM]: (i) => 8000 - i, [DISK]: (i) => 100 + 3 * i, [QUEUE]: (i) => i % 3 };

function csv(name, columns) {
  const rows = [['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...columns.map((c) => `"${c}"`)].join(',')];
  for (let i = 0; i < 60; i++) rows.push([`"11/22/2026 09:00:${String(i).padStart(2, '0')}.000"`, ...columns.map((c) => `"${value[c](i)}"`)].join(','));
  const file = join(mkdtempSync(join(tmpdir(), 'counterlens-share-')), name);
  writeFileSync(file, rows.join('\r\n') + '\r\n');
  return file;
}

const statsPaths = (page) => page.$$eval('#chart-stats tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
const xRange = (page) => page.$eval('#chart', (c) => [Number(c.dataset.x0), Number(c.dataset.x1)]);

test('a shared link opened on a log with its columns in another order selects by path and says what is missing', async () => {
  const a = csv('a.csv', [CPU, MEM, DISK, QUEUE]);
  const b = csv('b.csv', [QUEUE, DISK, CPU]); // no memory counter; the others moved
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', a);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('a.csv:'));
  await page.fill('#series-filter', 'memory');
  await page.check('#series-list input[data-index="1"]');
  await page.fill('#series-filter', 'disk');
  await page.check('#series-list input[data-index="2"]');
  await page.click('#zoom-in');
  await page.selectOption('#chart-scale', 'perfmon');
  await page.selectOption('#theme', 'dark');
  assert.deepEqual(await statsPaths(page), [CPU, MEM, DISK]);
  const range = await xRange(page);
  const hash = new URL(page.url()).hash;
  assert.match(hash, /^#file=a\.csv~\d+~[0-9a-f]{8}&s=/);
  assert.ok(!/series=/.test(hash), 'no positions in the link');
  await page.close();

  const again = await openPage(browser, server.url + hash);
  // Waiting for the file the link names (no sample capture opened over it).
  assert.match(await again.page.textContent('#chart-status'), /^This link shows a view of a\.csv \([\d,]+ bytes\): open that file/);
  await again.page.setInputFiles('#capture-file', b);
  await again.page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('b.csv:'));
  // The same counters, found in their new columns (listed in b's order); memory is reported missing.
  assert.deepEqual(await statsPaths(again.page), [DISK, CPU]);
  const note = await again.page.textContent('#share-note');
  assert.match(note, /^The link was made on a\.csv \([\d,]+ bytes\); this is b\.csv \([\d,]+ bytes\), so its series were matched by counter path\./);
  assert.ok(note.endsWith(`Shared view: 2 of 3 series found; not in this file: ${MEM}.`), note);
  const r = await xRange(again.page);
  assert.ok(Math.abs(r[0] - range[0]) < 1 && Math.abs(r[1] - range[1]) < 1, JSON.stringify([r, range]));
  assert.equal(await again.page.$eval('#chart-scale', (s) => s.value), 'perfmon');
  assert.equal(await again.page.$eval('#chart', (c) => c.dataset.axes), 'left:count');
  assert.equal(await again.page.$eval('#theme', (s) => s.value), 'dark');
  assert.ok(await again.page.$eval('#panel-chart', (e) => e.classList.contains('theme-dark')));
  await again.page.screenshot({ path: artifacts + 'share.png' });
  // The same file again: no "made on another file" sentence.
  const same = await openPage(browser, server.url + hash);
  await same.page.setInputFiles('#capture-file', a);
  await same.page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('a.csv:'));
  assert.equal(await same.page.textContent('#share-note'), 'Shared view: 3 of 3 series found.');
  assert.deepEqual(await statsPaths(same.page), [CPU, MEM, DISK]);
  for (const p of [problems, again.problems, same.problems]) assert.deepEqual(p, { console: [], errors: [], foreign: [] });
  await again.page.close();
  await same.page.close();
});

/** The same counters on machine `machine`, starting at `hour`:00. */
function csvOn(name, machine, hour, columns) {
  const rows = [['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...columns.map((c) => `"${c.replace('\\\\H\\', `\\\\${machine}\\`)}"`)].join(',')];
  for (let i = 0; i < 60; i++) rows.push([`"11/22/2026 ${String(hour).padStart(2, '0')}:00:${String(i).padStart(2, '0')}.000"`, ...columns.map((c) => `"${value[c](i)}"`)].join(','));
  const file = join(mkdtempSync(join(tmpdir(), 'counterlens-share-')), name);
  writeFileSync(file, rows.join('\r\n') + '\r\n');
  return file;
}

test("a link opened on another server's log: matched without the machine, said so; a range outside the log is dropped; Copy link", async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.setInputFiles('#capture-file', csvOn('web01.csv', 'WEB01', 9, [CPU, DISK]));
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('web01.csv:'));
  await page.fill('#series-filter', 'disk');
  await page.keyboard.press('Enter');
  await page.click('#zoom-in');
  // Copy link puts this view's address on the clipboard.
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-link').textContent === 'Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, page.url());
  assert.match(link, /#file=web01\.csv~\d+~[0-9a-f]{8}&s=\\\\WEB01\\Processor/);

  // Opened on WEB02's log of an hour later: both series found on WEB02, the range (09:00) not inside
  // this log (10:00 to 10:00:59), so the whole log is shown.
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForSelector('body[data-ready="true"]');
  await other.setInputFiles('#capture-file', csvOn('web02.csv', 'WEB02', 10, [CPU, DISK]));
  await other.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('web02.csv:'));
  assert.deepEqual(await statsPaths(other), [CPU, DISK].map((p) => p.replace('\\\\H\\', '\\\\WEB02\\')));
  const note = await other.textContent('#share-note');
  assert.ok(note.includes('Shared view: 2 of 2 series found. 2 series were matched on \\\\WEB02: the link names \\\\WEB01, which this log does not have.'), note);
  assert.ok(note.endsWith("The link's time range is not inside this log, so the whole log is shown."), note);
  const r = await xRange(other);
  const start = Date.UTC(2026, 10, 22, 10, 0, 0);
  assert.deepEqual(r, [start, start + 59_000]);
  assert.ok(Number(await other.$eval('#chart', (c) => c.dataset.pointsDrawn)) > 0);
  await other.screenshot({ path: artifacts + 'share-other-machine.png' });
  await context.close();
});
