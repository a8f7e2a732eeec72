// A derived series in real Chromium: a log of two SQL Server instances and a pack whose rule reads a
// series computed from two counters (compilations per 100 batch requests, per SQL instance). Show on its
// card charts the derived series itself (named by its path and definition, the rule's threshold drawn),
// the main chart its inputs; a point explained gives the inputs' values and the arithmetic.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// One hour at 15 s (240 samples) from 2026-07-04 00:00:00 UTC. INST1: 10 compilations/s (30 from 00:20 to
// 00:30), 40 batch requests/s; INST2: 5 and 50.
const T0 = Date.UTC(2026, 6, 4);
const PATHS = [
  '\\\\SQL1\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec',
  '\\\\SQL1\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec',
  '\\\\SQL1\\MSSQL$INST2:SQL Statistics\\SQL Compilations/sec',
  '\\\\SQL1\\MSSQL$INST2:SQL Statistics\\Batch Requests/sec',
];
function sqlLog() {
  const lines = [['(PDH-CSV 4.0)', ...PATHS].map((c) => `"${c}"`).join(',')];
  for (let k = 0; k < 240; k++) {
    const t = new Date(T0 + k * 15_000);
    const stamp = `${String(t.getUTCMonth() + 1).padStart(2, '0')}/${String(t.getUTCDate()).padStart(2, '0')}/${t.getUTCFullYear()} ` +
      `${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}:${String(t.getUTCSeconds()).padStart(2, '0')}.000`;
    const busy = k * 15 >= 1200 && k * 15 < 1800;
    lines.push([stamp, busy ? 30 : 10, 40, 5, 50].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

// PAL's guard and rounding: INST1 10 / 40 * 100 = 25, busy 30 / 40 * 100 = 75 (above 50: warning);
// INST2 5 / 50 * 100 = 10 (none).
const PACK = {
  id: 'sql-test', title: 'SQL test',
  derived: [{ id: 'ratio', counter: '\\SQL Generated(*)\\Compilations to Batch Requests', pairBy: 'sqlInstance',
    inputs: [{ name: 'c', counter: '\\*:SQL Statistics\\SQL Compilations/sec' }, { name: 'b', counter: '\\*:SQL Statistics\\Batch Requests/sec' }],
    expression: 'if(gt(c, 1) * gt(b, 1), round(c / b * 100), 0)' }],
  rules: [{ id: 'ratio-high', title: 'Compilations above half of batch requests', category: 'SQL Server',
    counter: '\\SQL Generated(*)\\Compilations to Batch Requests', kind: 'static', stats: ['max'],
    severity: 'warning', operator: 'gt', threshold: 50 }],
};

const part = (name) => `#panel-chart [data-part="${name}"]`;

test('Show on a derived finding charts the derived series with its threshold, its inputs below, and explains a point', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'sql.csv', mimeType: 'text/csv', buffer: sqlLog() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('sql.csv:'));
  await page.setInputFiles(part('analysis-pack-file'), { name: 'sql.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(PACK)) });
  await page.waitForFunction(() => /from 1 rules of sql-test/.test(document.querySelector('[data-part="analysis-summary"]').textContent), null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('#verdict')?.dataset.state !== 'running');
  const cards = await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent));
  assert.equal(cards.length, 1, cards.join('\n'));
  assert.match(cards[0], /SQL Generated\(INST1\)\\Compilations to Batch Requests/);
  assert.match(cards[0], /75/);

  await page.click(`${part('analysis-cards')} [data-part="card-show"]`);
  await page.waitForSelector(`${part('analysis-derived')}:not([hidden])`);
  // Named by its path and its definition; its inputs named.
  assert.equal(await page.textContent(part('derived-title')), 'Derived series: \\\\SQL1\\SQL Generated(INST1)\\Compilations to Batch Requests');
  const definition = await page.textContent(part('derived-definition'));
  assert.ok(definition.startsWith('\\\\SQL1\\SQL Generated(INST1)\\Compilations to Batch Requests = if(gt(c, 1) * gt(b, 1), round(c / b * 100), 0)'), definition);
  assert.match(definition, /c: \\\\SQL1\\MSSQL\$INST1:SQL Statistics\\SQL Compilations\/sec/);
  assert.match(definition, /b: \\\\SQL1\\MSSQL\$INST1:SQL Statistics\\Batch Requests\/sec/);
  // Its chart has the rule's threshold (warning at 50) and the finding's range; the main chart shows the
  // two inputs, without it (50 compilations per second would mean nothing).
  assert.match(await page.getAttribute(part('derived-chart'), 'data-marks'), /warning:50:/);
  assert.match(await page.getAttribute(part('derived-chart'), 'data-marks'), /range:/);
  await page.waitForFunction(() => document.querySelectorAll('#chart-legend tr[data-index]').length === 2);
  assert.deepEqual(await page.$$eval('#chart-legend tr[data-index]', (l) => l.map((r) => r.dataset.index).sort()), ['0', '1']);
  assert.doesNotMatch(await page.getAttribute('#chart', 'data-marks'), /warning/);
  assert.match(await page.textContent(part('analysis-focus')), /a derived series: charted below with its thresholds/);

  // The worst point explained: 30 / 40 * 100 = 75, the inputs' values at that sample.
  await page.click(part('derived-explain-worst'));
  await page.waitForSelector(`${part('derived-explain')}:not([hidden])`);
  assert.equal(await page.textContent(part('derived-arithmetic')), 'if(gt(30, 1) * gt(40, 1), round(30 / 40 * 100), 0) = 75');
  assert.deepEqual(await page.$$eval(`${part('derived-explain')} li[data-input]`, (l) => l.map((x) => [x.dataset.input, x.dataset.value])), [['c', '30'], ['b', '40']]);
  // 00:20 is the first busy sample (the first of the highest values).
  assert.match(await page.textContent(`${part('derived-explain')} h3`), /00:20/);

  // A click on the chart before the busy stretch explains a quiet point: 10 / 40 * 100 = 25.
  const box = await page.$eval(part('derived-chart'), (c) => { const r = c.getBoundingClientRect(); return { x: r.left, y: r.top, ...c.dataset }; });
  const x0 = Number(box.x0), x1 = Number(box.x1);
  const at = T0 + 15 * 60_000 + 5_000; // nearest sample: 00:15:00
  assert.ok(at > x0 && at < x1, `00:15 is charted (${new Date(x0).toISOString()} to ${new Date(x1).toISOString()})`);
  await page.mouse.click(box.x + Number(box.plotLeft) + ((at - x0) / (x1 - x0)) * Number(box.plotWidth), box.y + Number(box.plotTop) + 10);
  await page.waitForFunction((sel) => /= 25$/.test(document.querySelector(sel)?.textContent ?? ''), part('derived-arithmetic'));
  assert.match(await page.textContent(`${part('derived-explain')} h3`), /00:15/);
  await page.screenshot({ path: artifacts + 'derived-show.png', fullPage: false });

  // Back hides it.
  await page.click(part('analysis-back'));
  assert.equal(await page.$eval(part('analysis-derived'), (b) => b.hidden), true);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
