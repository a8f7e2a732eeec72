// The viewer's Analysis panel in real Chromium: a log with the CPUs pegged for half an hour, the default
// analysis run in the worker, the processor finding listed (its text as text, even from a counter named
// <script>), clicked to chart its series zoomed to its range with the thresholds drawn, and the report
// downloaded as one self-contained HTML file.
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Two hours at 15 s (480 samples) from 2026-07-04 00:00:00 (no zone: UTC). Processors 0, 1 and one
// whose instance is hostile markup, and _Total: 10 % except from 00:30 to 01:00, where they are at 97 %.
// PAL's AUTO slice is the duration / 30 = 7185 s / 30 = 239.5 s; the slices wholly inside the pegged half
// hour average 97 > 95 (critical, and > 80, warning: PAL's priority keeps critical), the two that
// straddle its edges average between, so the finding covers about 00:30 to 01:00.
const HOSTILE = '<script>window.pwned=1</script>';
const T0 = Date.UTC(2026, 6, 4);
function pegged() {
  const paths = ['0', '1', HOSTILE, '_Total'].map((i) => `\\\\SRV\\Processor(${i})\\% Processor Time`);
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  for (let k = 0; k < 480; k++) {
    const t = new Date(T0 + k * 15_000);
    const stamp = `${String(t.getUTCMonth() + 1).padStart(2, '0')}/${String(t.getUTCDate()).padStart(2, '0')}/${t.getUTCFullYear()} ` +
      `${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}:${String(t.getUTCSeconds()).padStart(2, '0')}.000`;
    const v = k * 15 >= 1800 && k * 15 < 3600 ? 97 : 10;
    lines.push([stamp, ...paths.map(() => String(v))].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

const part = (name) => `#panel-chart [data-part="${name}"]`;

test('the default analysis finds the pegged CPUs, charts a finding with its thresholds, and downloads the report', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  assert.equal(await page.textContent('#chart-status'), 'pegged.csv: pdh-csv, UTF-8, 480 samples, 4 series, no time zone (times are UTC)');

  // Ticked when the log opens: the packs whose counters it has (analyze's default), here the system
  // overview alone. Its processors question is filled in from the log: 0, 1 and the hostile instance
  // (not _Total) = 3.
  assert.deepEqual(await page.$$eval(`${part('analysis-packs')} input:checked`, (l) => l.map((i) => i.value)), ['system-overview']);
  assert.equal(await page.inputValue(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`), '3');

  await page.click(part('analysis-run'));
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', part('analysis-summary'), { timeout: 30000 });
  assert.match(await page.textContent(part('analysis-status')), /^Done in \d+ ms\.$/);
  // It ran the system overview (the only pack with these counters).
  assert.deepEqual(await page.$$eval(`${part('analysis-packs')} input:checked`, (l) => l.map((i) => i.value)), ['system-overview']);

  const findings = await page.$$eval(`${part('analysis-findings')} li`, (l) => l.map((li) => li.textContent));
  // One finding per processor series (4), each critical (PAL's priority: warning and critical in one group).
  assert.equal(findings.length, 4, findings.join('\n'));
  assert.ok(findings.every((f) => f.startsWith('Critical 2026-07-04 00:')), findings.join('\n'));
  const total = findings.findIndex((f) => f.includes('\\\\SRV\\Processor(_Total)\\% Processor Time'));
  assert.ok(total >= 0, findings.join('\n'));
  // The hostile instance is shown as text, never run or parsed as markup.
  assert.ok(findings.some((f) => f.includes(HOSTILE)), findings.join('\n'));
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval('[data-part="analysis"] script', (s) => s.length), 0);
  // By category: the processor's.
  assert.deepEqual(await page.$$eval(`${part('analysis-categories')} h4`, (h) => h.map((x) => x.textContent)), ['Processor: 4 findings (4 critical)']);
  assert.match(await page.textContent(`${part('analysis-variables')} summary`), /^Variables used: \d+$/);
  assert.match(await page.textContent(`${part('analysis-variables')}`), /logicalProcessors = 3 \(from the log\)/);
  assert.match(await page.textContent(`${part('analysis-skipped')} summary`), /^Rules that did not run: \d+ of \d+$/);
  assert.equal(await page.getAttribute(part('analysis-skipped'), 'open'), null, 'collapsed');

  // Clicking the _Total finding charts that series alone, zoomed to its range (a quarter of its width
  // either side), with the range marked and the warning (80) and critical (95) thresholds drawn.
  await page.click(`${part('analysis-findings')} li:nth-child(${total + 1}) button`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.shown === 'true', part('analysis-overlay'));
  const stats = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(stats, ['\\\\SRV\\Processor(_Total)\\% Processor Time']);
  const chart = await page.$eval('#chart', (c) => ({ x0: Number(c.dataset.x0), x1: Number(c.dataset.x1), left: Number(c.dataset.plotLeft), width: Number(c.dataset.plotWidth) }));
  const min = 60_000;
  // The finding covers about 00:30 to 01:00 (slice edges at 239.5 s steps): the view is that, padded.
  assert.ok(chart.x0 > T0 + 20 * min && chart.x0 < T0 + 30 * min, JSON.stringify(chart));
  assert.ok(chart.x1 > T0 + 60 * min && chart.x1 < T0 + 70 * min, JSON.stringify(chart));
  const overlay = await page.$eval(part('analysis-overlay'), (o) => ({ ...o.dataset }));
  const [a, b] = overlay.range.split(':').map(Number);
  // The range sits inside the plot, a quarter of the view's width from each side, roughly.
  assert.ok(a > chart.left + chart.width * 0.1 && b < chart.left + chart.width * 0.9 && b - a > chart.width * 0.5, JSON.stringify({ overlay, chart }));
  const lines = overlay.thresholds.split(' ').map((t) => t.split(':'));
  assert.deepEqual(lines.map((l) => l.slice(0, 3).join(':')).sort(), ['critical:gt:95', 'warning:gt:80']);
  // 95 is drawn above 80 (smaller y).
  const y = Object.fromEntries(lines.map((l) => [l[0], Number(l[3])]));
  assert.ok(y.critical < y.warning, JSON.stringify(y));
  assert.match(await page.textContent(part('analysis-focus')), /^Charted: \\\\SRV\\Processor\(_Total\)\\% Processor Time from 2026-07-04 00:3\d/);
  await page.screenshot({ path: artifacts + 'viewer-analysis.png', fullPage: true });

  // The report: one HTML file, saved from a Blob, self-contained.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(part('analysis-download'))]);
  assert.equal(download.suggestedFilename(), 'pegged-analysis.html');
  const html = readFileSync(await download.path(), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/i);
  assert.ok(html.includes('Processor(_Total)'), 'names the series');
  assert.ok(!/<script/i.test(html.replaceAll('&lt;script', '')), 'no script element');
  assert.ok(html.includes('&lt;script&gt;window.pwned=1&lt;/script&gt;'), 'the hostile name escaped');
  assert.ok(!/<link\b/i.test(html), 'no linked stylesheet');
  for (const m of html.matchAll(/\bsrc\s*=\s*["']?([^"'\s>]+)/gi)) assert.match(m[1], /^data:/, `only data: sources, not ${m[1]}`);
  for (const m of html.matchAll(/<(\w+)[^>]*\bhref\s*=/gi)) assert.equal(m[1].toLowerCase(), 'a', `href only on links, not <${m[1]}>`);
  assert.ok(!/url\(\s*["']?(?!data:|#)/i.test(html), 'no external url() in styles');

  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a bad pack file says where it is wrong; PAL XML that is not well formed names its line', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  // A pack that is JSON but breaks the schema (rules missing): the core's error, with its place.
  await page.setInputFiles(part('analysis-pack-file'), { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"id": "x", "title": "<b>x</b>"}') });
  await page.waitForFunction((sel) => document.querySelector(sel).children.length === 1, part('analysis-custom'));
  assert.match(await page.textContent(part('analysis-custom')), /^Pack file: bad\.json \(0 rules\)/);
  await page.click(part('analysis-run'));
  await page.waitForFunction((sel) => /AnalysisError/.test(document.querySelector(sel).textContent), part('analysis-status'), { timeout: 30000 });
  assert.match(await page.textContent(part('analysis-status')), /bad-pack/);
  // Not JSON at all: refused when picked.
  await page.setInputFiles(part('analysis-pack-file'), { name: 'worse.json', mimeType: 'application/json', buffer: Buffer.from('{"id": ') });
  await page.waitForFunction((sel) => /worse\.json is not a rule pack/.test(document.querySelector(sel).textContent), part('analysis-status'));
  // PAL XML cut short.
  await page.setInputFiles(part('analysis-pal-files'), { name: 'Broken.xml', mimeType: 'text/xml', buffer: Buffer.from('<PAL>\n<ANALYSIS NAME="x">\n</PAL>') });
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.includes('bad-pal-xml'), `${part('analysis-pal')} p`);
  assert.match(await page.textContent(`${part('analysis-pal')} p`), /line \d+/);
  assert.equal(await page.$$eval('[data-part="analysis"] b', (b) => b.length), 0);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

// A PAL threshold file of our own (the shape of PAL's: ANALYSIS, DATASOURCE, THRESHOLD with its
// StaticThreshold line), inheriting a file that is not given: one literal threshold translates, one
// that computes in PowerShell does not and says why; the import analyses the pegged log.
const PAL = `<?xml version="1.0"?>
<PAL PALVERSION="2.0" NAME="Ours" VERSION="1">
  <ANALYSIS NAME="Processor Time" ENABLED="True" CATEGORY="Processor" PRIMARYDATASOURCE="\\Processor(*)\\% Processor Time" ID="{1}">
    <DATASOURCE TYPE="CounterLog" NAME="\\Processor(*)\\% Processor Time" COLLECTIONVARNAME="CollectionOfProcessorTime" EXPRESSIONPATH="\\Processor(*)\\% Processor Time" DATATYPE="integer" />
    <THRESHOLD NAME="More than 90% processor time" CONDITION="Critical" COLOR="Red" PRIORITY="100">
      <CODE><![CDATA[StaticThreshold -CollectionOfCounterInstances $CollectionOfProcessorTime -Operator 'gt' -Threshold 90]]></CODE>
    </THRESHOLD>
    <THRESHOLD NAME="Something PowerShell computes" CONDITION="Warning" COLOR="Yellow" PRIORITY="50">
      <CODE><![CDATA[$x = Get-Random
StaticThreshold -CollectionOfCounterInstances $CollectionOfProcessorTime -Operator 'gt' -Threshold $x]]></CODE>
    </THRESHOLD>
  </ANALYSIS>
  <INHERITANCE FILEPATH="NotGiven.xml" />
</PAL>`;

test('PAL threshold files dropped on the panel import (translated / total, reasons) and analyse', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  // Dropped as a browser drops files: a DataTransfer on a drop event over the panel.
  await page.evaluate((xml) => {
    const dt = new DataTransfer();
    dt.items.add(new File([xml], 'Ours.xml', { type: 'text/xml' }));
    document.querySelector('[data-part="analysis-questions"]').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, PAL);
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('PAL import'), part('analysis-pal-summary'));
  assert.equal(await page.textContent(part('analysis-pal-summary')), 'PAL import of Ours.xml: 1 of 2 thresholds translated; inherited files not given: NotGiven.xml.');
  const reasons = await page.$$eval(`${part('analysis-pal-untranslated')} li`, (l) => l.map((x) => x.textContent));
  assert.equal(reasons.length, 1);
  assert.match(reasons[0], /^Processor Time \/ Something PowerShell computes: ./);
  // The capture stayed open (the drop was the panel's, not a capture to read).
  assert.match(await page.textContent('#chart-status'), /^pegged\.csv:/);
  assert.match(await page.textContent(part('analysis-custom')), /^PAL import: Ours\.xml \(1 rules\)/);
  // The imported pack alone: the system overview, ticked when the log opened, unticked.
  await page.uncheck(`${part('analysis-packs')} input[value="system-overview"]`);
  await page.click(part('analysis-run'));
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', part('analysis-summary'), { timeout: 30000 });
  const findings = await page.$$eval(`${part('analysis-findings')} li`, (l) => l.map((li) => li.textContent));
  assert.equal(findings.length, 4, findings.join('\n'));
  assert.ok(findings.every((f) => f.startsWith('Critical') && / above 90 /.test(f)), findings.join('\n'));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('an answer given wins over the derived value, and the run shows it is running', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  await page.fill(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`, '8');
  // Record what the panel shows between the click and the result.
  await page.evaluate((sel) => {
    window.seen = [];
    const root = document.querySelector(sel);
    new MutationObserver(() => window.seen.push(root.dataset.running)).observe(root, { attributes: true, attributeFilter: ['data-running'] });
  }, '#panel-chart [data-part="analysis"]');
  await page.click(part('analysis-run'));
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', part('analysis-summary'), { timeout: 30000 });
  assert.deepEqual(await page.evaluate(() => window.seen), ['true', 'false']);
  assert.equal(await page.isHidden(part('analysis-progress')), true);
  const used = await page.$$eval(`${part('analysis-variables')} li`, (l) => l.map((x) => x.textContent));
  assert.ok(used.includes('logicalProcessors = 8 (your answer)'), used.join('\n'));
  assert.ok(used.includes("PhysicalMemoryGB = 16 (the pack's default)"), used.join('\n'));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

// A pack whose thresholds are expressions over a variable (Limit, default 100): warning above Limit / 2 =
// 50, critical above Limit * 0.99 = 99. The pegged half hour at 97 breaks the warning only; the finding's
// chart still draws both, as the analysis evaluated them (the critical one produced no finding).
const EXPRESSIONS = JSON.stringify({
  id: 'limits', title: 'Limits', variables: [{ name: 'Limit', type: 'number', default: 100 }],
  rules: [
    { id: 'cpu-w', group: 'cpu', title: 'CPU warning', counter: '\\Processor(_Total)\\% Processor Time', kind: 'static', stats: ['avg'], severity: 'warning', operator: 'gt', threshold: 'Limit / 2' },
    { id: 'cpu-c', group: 'cpu', title: 'CPU critical', counter: '\\Processor(_Total)\\% Processor Time', kind: 'static', stats: ['avg'], severity: 'critical', operator: 'gt', threshold: 'Limit * 0.99' },
  ],
});

test('thresholds written as expressions are drawn as evaluated, also those that produced no finding', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  await page.setInputFiles(part('analysis-pack-file'), { name: 'limits.json', mimeType: 'application/json', buffer: Buffer.from(EXPRESSIONS) });
  await page.waitForFunction((sel) => document.querySelector(sel).children.length === 1, part('analysis-custom'));
  await page.uncheck(`${part('analysis-packs')} input[value="system-overview"]`);
  await page.click(part('analysis-run'));
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', part('analysis-summary'), { timeout: 30000 });
  const findings = await page.$$eval(`${part('analysis-findings')} li`, (l) => l.map((li) => li.textContent));
  assert.equal(findings.length, 1, findings.join('\n'));
  assert.match(findings[0], /^Warning .* above 50 /);
  await page.click(`${part('analysis-findings')} li:nth-child(1) button`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.shown === 'true', part('analysis-overlay'));
  const overlay = await page.$eval(part('analysis-overlay'), (o) => ({ ...o.dataset }));
  const lines = overlay.thresholds.split(' ').map((t) => t.split(':').slice(0, 3).join(':'));
  assert.deepEqual(lines.sort(), ['critical:gt:99', 'warning:gt:50']);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('runs on one capture copy its columns to the worker once; another capture sends its own', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const runOnce = async () => {
    await page.click(part('analysis-run'));
    await page.waitForFunction((sel) => /^Done in/.test(document.querySelector(sel).textContent), part('analysis-status'), { timeout: 30000 });
  };
  const transfers = () => page.getAttribute(part('analysis'), 'data-transfers');
  await page.setInputFiles('#capture-file', { name: 'pegged.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('pegged.csv:'));
  await runOnce();
  assert.equal(await transfers(), '1');
  const first = await page.$$eval(`${part('analysis-findings')} li`, (l) => l.map((li) => li.textContent));
  // Another answer on the same capture: options alone cross; the result is the analysis of that capture.
  await page.fill(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`, '8');
  await runOnce();
  assert.equal(await transfers(), '1');
  assert.deepEqual(await page.$$eval(`${part('analysis-findings')} li`, (l) => l.map((li) => li.textContent)), first);
  // Another capture: its columns go to a fresh worker.
  await page.setInputFiles('#capture-file', { name: 'again.csv', mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('again.csv:'));
  await runOnce();
  assert.equal(await transfers(), '2');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
