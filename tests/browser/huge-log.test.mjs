// A log too large for the viewer's memory budget (forced small with ?budget=): the viewer lists it first
// (the catalogue pass), reads only the series the analysis packs look at, says what it left out, and its
// picker loads other series; the same file under the default budget opens whole.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// 60 series x 200 rows at 15 s: 4 counters the System overview pack reads, 56 it does not.
const PACK = ['Processor(_Total)\\% Processor Time', 'Memory\\Available MBytes', 'System\\Processor Queue Length', 'Memory\\Pages/sec'];
function bigCsv() {
  const paths = [...PACK, ...Array.from({ length: 56 }, (_, i) => `App(w${i % 7})\\Counter ${String(i).padStart(2, '0')}`)].map((p) => `\\\\SRV\\${p}`);
  const lines = [['"(PDH-CSV 4.0) (UTC)(0)"', ...paths.map((p) => `"${p}"`)].join(',')];
  for (let r = 0; r < 200; r++) {
    const s = r * 15;
    const time = `"03/01/2026 ${String(10 + Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000"`;
    lines.push([time, ...paths.map((_, c) => `"${(r * 7 + c * 13) % 97}.5"`)].join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

async function drop(page, buffer) {
  await page.setInputFiles('#capture-file', { name: 'big.csv', mimeType: 'text/csv', buffer });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('big.csv:'));
}

test('over the budget: listed, the packs\' series read, what was left out said, more loaded by the picker', async () => {
  const { page, problems } = await openPage(browser, server.url + '?budget=20000');
  await drop(page, bigCsv());
  assert.equal(await page.textContent('#chart-status'), 'big.csv: pdh-csv, UTF-8, 200 samples, 4 series, time zone UTC (bias 0 min)');
  // 200 rows x 61 columns x 8 bytes = 97,600 bytes = 95.3 KB (97,600 / 1024 = 95.31); 20,000 bytes = 19.5 KB (19.53); room for 20000 / 1600 - 1 = 11.
  assert.equal(await page.textContent('[data-part="part-message"]'),
    "big.csv is too large to read whole: its 60 series x 200 samples take 95.3 KB as columns, over this viewer's memory budget of 19.5 KB. "
    + 'Read 4 of its 60 series (4 the analysis packs look at); 56 left out. Choose series to load others instead.');
  const read = await page.$$eval('#series-list input[type=checkbox]', (b) => b.length);
  assert.ok(read >= 1);
  await page.click('[data-part="part-picker"] summary');
  assert.equal(await page.textContent('[data-part="part-use"]'), '4 ticked: 7.81 KB of 19.5 KB; room for 7 more.');
  await page.fill('[data-part="part-filter"]', 'counter 07');
  const listed = await page.$$eval('[data-part="part-list"] label', (l) => l.map((x) => x.textContent));
  assert.deepEqual(listed, ['\u005c\u005cSRV\u005cApp(w0)\u005cCounter 07 (200 samples)']);
  await page.check('[data-part="part-list"] input');
  assert.equal(await page.textContent('[data-part="part-use"]'), '5 ticked: 9.38 KB of 19.5 KB; room for 6 more.');
  await page.screenshot({ path: artifacts + 'huge-log-picker.png' });
  await page.click('[data-part="part-load"]');
  await page.waitForFunction(() => / 5 series/.test(document.querySelector('#chart-status').textContent));
  assert.match(await page.textContent('[data-part="part-message"]'), /Read 5 of its 60 series \(5 you picked\); 55 left out\./);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('within the default budget the same file opens whole, with no note', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await drop(page, bigCsv());
  assert.match(await page.textContent('#chart-status'), /^big\.csv: pdh-csv, UTF-8, 200 samples, 60 series/);
  assert.equal(await page.isVisible('[data-part="part"]'), false);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('screenshots of the note and its picker: wide and phone, light and dark', async () => {
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    for (const scheme of ['light', 'dark']) {
      const { page } = await openPage(browser, server.url + '?budget=20000');
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      await drop(page, bigCsv());
      await page.click('[data-part="part-picker"] summary');
      await page.locator('[data-part="part"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${artifacts}huge-log-${w}-${scheme}.png` });
      await page.close();
    }
  }
});
