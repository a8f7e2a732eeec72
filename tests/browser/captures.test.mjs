// Opening captures in the viewer: the file input with the golden files, a broken file's error with its
// position, ?url= of a same-origin file, and a URL on another origin refused without a request.
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const golden = (name) => repo + 'tests/vectors/captures/' + name;
const status = (page) => page.textContent('#chart-status');

async function openFile(page, name) {
  await page.setInputFiles('#capture-file', golden(name));
  // Done when the status names the file's contents or an error (not while it says "Reading ...").
  await page.waitForFunction((n) => {
    const t = document.querySelector('#chart-status').textContent;
    return t.startsWith(`${n}:`) || t.startsWith('The last open failed.');
  }, name);
}

test('a relog CSV through the file input: its series, its zone, its notes', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openFile(page, 'relog-pst.csv');
  assert.equal(await status(page), 'relog-pst.csv: pdh-csv, UTF-8, 3 samples, 3 series, time zone Pacific Standard Time (bias 480 min)');
  // % Processor Time of the Processor object is what opens selected.
  const rows = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), ['\\\\WEB01\\Processor(_Total)\\% Processor Time']);
  // 12.5, 100.00000000000001 and 350 (a CSV's values are PDH's, not recomputed): max 350, in its unit.
  assert.equal(rows[0][3], '350%');
  await page.fill('#series-filter', 'disk reads');
  assert.equal(await page.textContent('#series-count'), '1 of 3 series');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a binary perfmon log (.blg) through the file input: 10 series, its zone, Processor time opens charted', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openFile(page, 'BasicPerfCounters.blg');
  assert.equal(await status(page), 'BasicPerfCounters.blg: blg, binary, 601 samples, 10 series, time zone UTC-08:00 (bias 480 min)');
  const rows = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.ok(rows.some((r) => r[0] === '\\\\GEORGIS3\\Processor(_Total)\\% Processor Time'), JSON.stringify(rows));
  await page.screenshot({ path: artifacts + 'viewer-blg.png' });
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
  // What the file is, where and what was expected, said once; and which capture is still shown.
  const failed = await status(page);
  assert.match(failed, /^The last open failed\. Cannot read wrong-cells\.csv \(a CSV file, [\d,]+ bytes\) at line 3, column 32: expected 3 cells/);
  assert.ok(failed.endsWith(' Still showing get-counter-ps51.json.'), failed);
  assert.ok(!/line 3, column 32: line 3/.test(failed));
  // The capture that was open stays open, with its selection (processor(_total)\% processor time).
  assert.equal(await page.$$eval('#chart-stats tbody tr', (t) => t.length), 1);
  await page.screenshot({ path: artifacts + 'viewer-capture-error.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a large file is read in the worker with progress, and cancelling keeps the open capture', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const before = await status(page);
  // 60,000 rows of 40 counters, about 18 MB: long enough to see progress and cancel. Cancelled as soon
  // as the progress bar shows, from inside the page, so a busy machine cannot let the read finish first.
  const row = (i) => `"07/04/2026 00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000"` + ',"1.5"'.repeat(40) + '\r\n';
  const header = '"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"' + Array.from({ length: 40 }, (_, c) => `,"\\\\H\\O\\C${c}"`).join('') + '\r\n';
  const big = Buffer.from(header + Array.from({ length: 60000 }, (_, i) => row(i)).join(''));
  await page.setInputFiles('#capture-file', { name: 'big.csv', mimeType: 'text/csv', buffer: big });
  await page.waitForFunction(() => {
    if (document.querySelector('#chart-progress').hidden) return false;
    document.querySelector('#chart-cancel').click();
    return true;
  }, null, { polling: 'raf' });
  assert.equal(await status(page), 'Reading big.csv cancelled. Still showing sample capture (DEMO-SQL01).');
  assert.equal(await page.isHidden('#chart-progress'), true);
  assert.match(before, /^sample capture/);
  assert.ok((await page.$$eval('#chart-stats tbody tr', (t) => t.length)) > 0, 'the open capture is still charted');
  // Reading it to the end works too.
  await page.setInputFiles('#capture-file', { name: 'big2.csv', mimeType: 'text/csv', buffer: big });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('big2.csv:'), null, { timeout: 60000 });
  assert.equal(await status(page), 'big2.csv: pdh-csv, UTF-8, 60000 samples, 40 series, time zone Coordinated Universal Time (bias 0 min)');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('?url= opens a same-origin capture; another origin is refused without a request', async () => {
  let { page, problems } = await openPage(browser, server.url + '?url=sample-capture.json');
  assert.match(await status(page), /^sample-capture\.json: counterlens-json, UTF-8, 600 samples/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
  ({ page, problems } = await openPage(browser, server.url + '?url=' + encodeURIComponent('http://example.invalid/log.csv')));
  assert.equal(await status(page), "The last open failed. http://example.invalid/log.csv is not on this site; captures are only read from the page's own origin. No capture is open.");
  assert.deepEqual(problems.foreign, []);
  await page.close();
});

test('hostile counter paths (markup, control characters, right-to-left override, a 100 KB name) are plain text', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const scripts = await page.$$eval('script', (s) => s.length);
  const paths = [
    '\\\\HOST\\<img src=x onerror=window.pwned=1>(<script>window.pwned=2</script>)\\% Processor Time',
    '\\\\HOST\\Proc\u0001ess(\u0007bell\u001b[31mred)\\Count\u0000er',
    '\\\\HOST\\Processor(\u202Eexe.evil)\\% Processor Time',
    `\\\\HOST\\Big(${'A'.repeat(100_000)})\\Counter`,
  ];
  const quote = (s) => `"${s.replace(/"/g, '""')}"`;
  const csv = [['(PDH-CSV 4.0) (<b>Zone</b>)(0)', ...paths], ['11/22/2026 09:00:00.000', '1', '2', '3', '4'], ['11/22/2026 09:00:01.000', '5', '6', '7', '8']]
    .map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
  const name = '<img src=y onerror=window.pwned=3>.csv';
  await page.setInputFiles('#capture-file', { name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
  // Every series selected, so every path is in the tree and in the stats table.
  await page.$$eval('#series-list [aria-expanded="false"]', (d) => d.forEach((x) => x.querySelector(':scope > .tree-row').click()));
  await page.evaluate(() => {
    for (let i = 0, box; i < 10 && (box = document.querySelector('#series-list input[type=checkbox]:not(:checked)')); i++) box.click();
  });
  // The 100 KB name is laid out in 100-character text nodes (dom.js setText): in one node, each layout of it
  // took 10-20 s (Blink shapes the rest of the node again for every line it wraps).
  const t0 = Date.now();
  await page.waitForFunction((n) => document.querySelectorAll('#chart-stats tbody tr').length === n, paths.length);
  assert.ok(Date.now() - t0 < 10_000, `selecting the four series took ${Date.now() - t0} ms`);
  // Nothing the file holds became markup or ran.
  assert.equal(await page.$$eval('img, b', (e) => e.length), 0);
  assert.equal(await page.$$eval('script', (s) => s.length), scripts);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // The text is exactly what the file says (control characters, the override and all 100 000 A's).
  const cells = await page.$$eval('#chart-stats tbody tr td:first-child', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(cells.sort(), [...paths].sort());
  assert.ok((await page.textContent('#chart-status')).includes('time zone <b>Zone</b>'));
  const labels = await page.$$eval('#series-list label span', (s) => s.map((x) => x.textContent));
  assert.ok(labels.includes('\u202Eexe.evil'), JSON.stringify(labels.map((l) => l.slice(0, 40))));
  // A 100 KB name wraps inside its box: the page does not grow sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
  await page.screenshot({ path: artifacts + 'viewer-hostile-paths.png' });
  // The long name is several text nodes; cutting never splits a surrogate pair (an emoji stays whole).
  assert.ok(await page.$$eval('#chart-stats tbody tr td:first-child', (tds) => Math.max(...tds.map((td) => td.childNodes.length))) >= 1000);
  const cut = await page.evaluate(async () => {
    const { setText } = await import('/js/viewer/dom.js');
    // 301 code units, high surrogates at odd indices: the cut at 100 falls inside a pair and moves to 101;
    // then 201 (a pair's start) and the end: nodes [0, 101), [101, 201), [201, 301).
    const text = 'x' + '\u{1F600}'.repeat(150);
    const d = document.createElement('div');
    setText(d, text);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    return { same: d.textContent === text, nodes: d.childNodes.length, lone: [...d.childNodes].some((n) => lone.test(n.nodeValue)) };
  });
  assert.deepEqual(cut, { same: true, nodes: 3, lone: false });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('every golden capture through the file input: its counts in the status and the tree, or its error', async () => {
  const { files } = JSON.parse(readFileSync(repo + 'tests/vectors/captures.json', 'utf8'));
  const { page, problems } = await openPage(browser, server.url);
  for (const [name, want] of Object.entries(files)) {
    await openFile(page, name);
    const text = await status(page);
    if (want.error) {
      assert.match(text, /^The last open failed\. Cannot read /, `${name}: ${text}`);
      continue;
    }
    const n = want.series.length;
    assert.ok(text.startsWith(`${name}: ${want.format}, ${want.encoding}, ${want.timestamps.length} samples, ${n} series`), `${name}: ${text}`);
    assert.equal(await page.textContent('#series-count'), `${n} of ${n} series`, name);
    // The machine level of the tree counts every series.
    const top = await page.$$eval('#series-list > [role="treeitem"] > .tree-row', (s) => s.map((x) => `${x.querySelector('.tree-label').textContent} (${x.querySelector('.tree-count').textContent})`));
    assert.equal(top.reduce((sum, t) => sum + Number(t.match(/\((\d+)\)$/)[1]), 0), n, `${name}: ${top}`);
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a localized log: the tree shows the English names beside the written ones, and English paths find it', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const csv = '"(PDH-CSV 4.0) (Hora estándar romance)(-60)","\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador","\\\\SRV\\Memoria\\Bytes disponibles"\r\n'
    + '"11/22/2026 09:00:00.000","12.5","1000"\r\n"11/22/2026 09:00:01.000","13.5","1001"\r\n';
  const name = 'es.csv';
  await page.setInputFiles('#capture-file', { name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
  const summaries = await page.$$eval('#series-list [aria-expanded] > .tree-row', (s) => s.map((x) => `${x.querySelector('.tree-label').textContent} (${x.querySelector('.tree-count').textContent})`));
  assert.ok(summaries.includes('Procesador — Processor (1)') && summaries.includes('% de tiempo de procesador — % Processor Time (1)'), JSON.stringify(summaries));
  const labels = await page.$$eval('#series-list label', (l) => l.map((x) => x.textContent));
  assert.ok(labels.includes('Bytes disponibles — Available Bytes'), JSON.stringify(labels));
  // A pattern matches as the CLI's -c does: any machine (\\*), the English object and counter.
  await page.fill('#series-filter', '\\\\*\\Processor(*)\\% Processor Time');
  assert.equal(await page.textContent('#series-count'), '1 of 2 series');
  await page.fill('#series-filter', 'available bytes');
  assert.equal(await page.textContent('#series-count'), '1 of 2 series');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
