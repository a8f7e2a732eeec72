// The "Check a registration" panel in Chromium: the example, a binary file through the file input,
// sorting, the link to each rule, and hostile names shown as text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const rows = (page) => page.$$eval('#reg-diagnostics tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the example manifest: two errors, each linked to its rule, references resolved', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.click('#tab-reg');
  await page.click('#reg-example');
  assert.equal(await page.textContent('#reg-summary'), 'Read as manifest: 1 counter set, 2 errors, 0 warnings, 0 note(s).');
  const diags = await rows(page);
  // Counter 2 is declared twice; AVERAGE_TIMER's base (counter 3) is a RAW_BASE, not an AVERAGE_BASE.
  assert.deepEqual(diags.map((r) => [r[0], r[1], r[3], r[4]]), [
    ['error', 'base-counter-wrong-type', '2', 'BaseCounterId'],
    ['error', 'duplicate-counter-id', '2', 'CounterId'],
  ]);
  assert.match(diags[1][5], /^line 12, col \d+$/); // the second <counter id="2"
  assert.match(diags[1][6], /^CounterId 2 is used twice in this set \(first at line 8, column \d+\)/);
  const href = await page.getAttribute('#reg-diagnostics tbody tr:nth-child(2) a', 'href');
  assert.equal(href, 'docs/registration-rules.md#:~:text=%60duplicate-counter-id%60');
  const doc = await page.request.get(new URL(href.split('#')[0], server.url).href);
  assert.ok((await doc.text()).includes('`duplicate-counter-id`'));
  const counters = await page.$$eval('.reg-set tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(counters[1], ['2', 'Avg. Latency', 'PERF_AVERAGE_TIMER', 'Latency base', '', '', '']);
  await page.screenshot({ path: artifacts + 'viewer-registration.png', fullPage: true });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a binary block file, and sorting by severity', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.click('#tab-reg');
  const hex = readFileSync(repo + 'tests/vectors/registration/rich.hex', 'utf8').trim().split(/\s+/).map((b) => parseInt(b, 16));
  // Reserved of counter 1 (bytes 32+44..) set to 7: a warning; CounterId of counter 2 (byte 80) set to 1: an error.
  const bytes = Buffer.from(hex);
  bytes[76] = 7;
  bytes[80] = 1;
  await page.setInputFiles('#reg-file', { name: 'set.bin', mimeType: 'application/octet-stream', buffer: bytes });
  await page.waitForFunction(() => document.querySelector('#reg-summary').textContent.startsWith('Read as binary'));
  assert.equal(await page.textContent('#reg-summary'), 'Read as binary: 1 counter set, 1 error, 1 warning, 0 note(s).');
  assert.deepEqual((await rows(page)).map((r) => [r[0], r[1], r[5]]), [['error', 'duplicate-counter-id', 'byte 80'], ['warning', 'reserved-nonzero', 'byte 76']]);
  await page.click('#reg-sort');
  assert.deepEqual((await rows(page)).map((r) => r[0]), ['warning', 'error']);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('hostile names and messages are shown as text, never as markup', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.click('#tab-reg');
  const evil = '&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;\u202Eevil';
  const man = readFileSync(repo + 'tests/vectors/registration/rich.man', 'utf8')
    .replace('name="Test Set"', `name="${evil}"`)
    .replace('name="Counter 1"', `name="${evil}"`)
    .replace('type="perf_counter_counter"', 'type="&lt;b&gt;bold&lt;/b&gt;"');
  await page.fill('#reg-input', man);
  await page.waitForFunction(() => document.querySelector('#reg-summary').textContent.startsWith('Read as manifest'));
  assert.equal(await page.$$eval('#panel-reg img, #panel-reg script, #panel-reg b', (e) => e.length), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  const heading = await page.textContent('.reg-set h3');
  assert.ok(heading.startsWith('<img src=x onerror=alert(1)><script>window.pwned=1</script>\u202Eevil'), heading);
  const msg = (await rows(page))[0][6];
  assert.match(msg, /type="<b>bold<\/b>" is not valid/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
