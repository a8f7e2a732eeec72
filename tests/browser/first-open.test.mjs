// The first open in a fresh page: the viewer makes its reading Worker once the page is idle and warms it
// (js/warm-up.js: small CSV and .blg reads), and the first file the user opens is read by that
// Worker; a file opened at once, before the warm-up ends, is read all the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const golden = (name) => repo + 'tests/vectors/captures/' + name;

async function openFile(page, name) {
  await page.setInputFiles('#capture-file', golden(name));
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
}

test('the reading Worker is warmed at page load (4 rounds of 2 reads of the CSV and of the .blg), then reads the first file', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.waitForSelector('#panel-chart[data-reader-warmed]', { timeout: 60000 });
  // After the sample capture opened, the next reading Worker warmed whole: 4 x (2 + 2) reads.
  await page.waitForFunction(() => document.querySelector('#panel-chart').dataset.readerWarmed === '16', null, { timeout: 60000 });
  await openFile(page, 'BasicPerfCounters.blg');
  assert.equal(await page.textContent('#chart-status'), 'BasicPerfCounters.blg: blg, binary, 601 samples, 10 series, time zone UTC-08:00 (bias 480 min)');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a file opened at once, while the Worker is still warming, is read', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openFile(page, 'relog-pst.csv');
  await openFile(page, 'BasicPerfCounters.blg');
  assert.match(await page.textContent('#chart-status'), /^BasicPerfCounters\.blg: blg, binary, 601 samples/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
