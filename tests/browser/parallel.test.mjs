// openCaptureParallel in Chromium (module Web Workers, each reading its own slice of a Blob) against
// openCapture on the same bytes, and the viewer opening a big CSV through it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** A relog CSV of `cols` counters x `rows` rows, 1 s apart, with a " " gap in every 11th cell. */
function csv(cols, rows, bad = -1) {
  const head = ['"(PDH-CSV 4.0) (Pacific Standard Time)(480)"'];
  for (let c = 0; c < cols; c++) head.push(`"\\\\WEB01\\Process(w3wp#${c})\\% Processor Time"`);
  const out = [head.join(',') + '\r\n'];
  for (let r = 0; r < rows; r++) {
    const s = r % 60, m = Math.floor(r / 60) % 60, h = 9 + Math.floor(r / 3600);
    const cells = [`"11/22/2026 ${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.000"`];
    for (let c = 0; c < cols; c++) cells.push(r === bad && c === 3 ? '"7x"' : (r * cols + c) % 11 === 0 ? '" "' : `"${((r * 7919 + c * 104729) % 100000) / 1000}"`);
    out.push(cells.join(',') + '\r\n');
  }
  return out.join('');
}

test('openCaptureParallel in the browser gives openCapture\'s capture, and its errors at the same line', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const result = await page.evaluate(async ({ good, bad }) => {
    const { openCapture, openCaptureParallel } = await import('/js/browser.js');
    const hex = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), (b) => b.toString(16).padStart(2, '0')).join('');
    const out = [];
    const bytes = new TextEncoder().encode(good);
    const whole = openCapture(bytes);
    for (const workers of [2, 4]) {
      const c = await openCaptureParallel(new Blob([bytes]), { workers, minBytes: 0 });
      let same = hex(c.timestamps()) === hex(whole.timestamps()) && c.seriesCount === whole.seriesCount
        && JSON.stringify(c.notes()) === JSON.stringify(whole.notes()) && JSON.stringify(c.series()) === JSON.stringify(whole.series());
      for (let i = 0; i < whole.seriesCount; i++) same &&= hex(c.values(i)) === hex(whole.values(i));
      out.push({ workers, same, samples: c.sampleCount });
    }
    const errorOf = async (f) => { try { await f(); } catch (e) { return [e.name, e.code, e.line, e.column, e.message]; } };
    const badBytes = new TextEncoder().encode(bad);
    return { out, parallel: await errorOf(() => openCaptureParallel(new Blob([badBytes]), { workers: 4, minBytes: 0 })), whole: await errorOf(() => openCapture(badBytes)) };
  }, { good: csv(40, 900), bad: csv(40, 900, 700) });
  assert.deepEqual(result.out, [{ workers: 2, same: true, samples: 900 }, { workers: 4, same: true, samples: 900 }]);
  // Row 700 is line 702, in the fourth piece.
  assert.deepEqual(result.parallel, result.whole);
  assert.deepEqual(result.whole.slice(0, 3), ['CaptureError', 'bad-number', 702]);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

// The viewer reads a big CSV (8 MiB and more) in pieces from 4 cores on, and in one worker on fewer
// (on 2 cores the pieces cost more than they save: docs/performance.md). The page is told its cores.
for (const cores of [8, 2]) {
  test(`the viewer reads a big CSV (8 MiB and more) ${cores >= 4 ? 'in pieces' : 'in one worker'} on ${cores} cores`, async () => {
    const { page, problems } = await openPage(browser, server.url, {
      init: (n) => Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => n }),
      arg: cores,
    });
    const text = csv(250, 5000);
    assert.ok(text.length > 8 << 20, `${text.length} bytes`);
    await page.setInputFiles('#capture-file', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    await page.waitForFunction(() => /^big\.csv:|^The last open failed/.test(document.querySelector('#chart-status').textContent), null, { timeout: 120000 });
    assert.equal(await page.textContent('#chart-status'), 'big.csv: pdh-csv, UTF-8, 5000 samples, 250 series, time zone Pacific Standard Time (bias 480 min)');
    // openCaptureParallel's workers started for the pieces; none for the one-worker reader.
    const pool = await page.evaluate(async () => (await import('/js/parallel.js')).poolSize());
    if (cores >= 4) assert.ok(pool >= 2, `pool ${pool}`);
    else assert.equal(pool, 0);
    assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
    await page.close();
  });
}
