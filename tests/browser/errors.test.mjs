// Errors a user understands: what the file is, what was expected and where, no raw bytes; the status
// line says the last open failed and which capture is still on screen (or that none is).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const dir = mkdtempSync(join(tmpdir(), 'counterlens-errors-'));
const file = (name, bytes) => { const f = join(dir, name); writeFileSync(f, bytes); return f; };

async function openFailing(page, path) {
  await page.setInputFiles('#capture-file', path);
  await page.waitForFunction(() => document.querySelector('#chart-status').dataset.failed === 'true');
  return page.textContent('#chart-status');
}

test('bad files: what they are, what was expected, where; the capture on screen is named', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // An empty .blg: said to be empty, not "expected PDH-CSV".
  const empty = await openFailing(page, file('empty.blg', new Uint8Array()));
  assert.equal(empty, 'The last open failed. Cannot read empty.blg (a binary perfmon log (.blg), 0 bytes): the file is empty; a perfmon log (.blg, relog CSV or TSV, Get-Counter JSON) starts with a header. Still showing sample capture (DEMO-SQL01).');
  // Binary garbage: no raw bytes in the message (no control characters, no replacement characters).
  const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256);
  const bin = await openFailing(page, file('garbage.blg', garbage));
  assert.match(bin, /^The last open failed\. Cannot read garbage\.blg \(a binary perfmon log \(\.blg\), 4,096 bytes\)/);
  assert.match(bin, /expected a perfmon log/);
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/.test(bin), JSON.stringify(bin));
  assert.ok(bin.endsWith('Still showing sample capture (DEMO-SQL01).'), bin);
  // A hostile HTML file: shown as text, never as markup.
  const html = await openFailing(page, file('page.csv', '<img src=x onerror=alert(1)><script>alert(2)</script>\n'));
  assert.match(html, /^The last open failed\. Cannot read page\.csv \(a CSV file, \d+ bytes\) at line 1, column 1: expected a perfmon log/);
  assert.equal(await page.$$eval('[data-part="chart-status"] img, [data-part="chart-status"] script', (e) => e.length), 0);
  await page.screenshot({ path: artifacts + 'errors.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
