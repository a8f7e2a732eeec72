// The viewer's Analysis panel in real Chromium: a log with the CPUs pegged for half an hour analysed on
// open in the worker, the processor card listed (its text as text, even from a counter named <script>),
// Show charting its series around its range with the thresholds drawn by the core's chart, the report
// downloaded as one self-contained HTML file; pack files and PAL XML, answers, and the worker's copy of
// the capture. (The verdict, cards and Back: verdict.test.mjs.)
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

/** Opens the pegged log and waits for its analysis (run on open). */
async function openPegged(page, name = 'pegged.csv') {
  await page.setInputFiles('#capture-file', { name, mimeType: 'text/csv', buffer: pegged() });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
  await done(page);
}
const done = (page) => page.waitForFunction((sel) => /^Done in \d+ ms\.$/.test(document.querySelector(sel).textContent), part('analysis-status'), { timeout: 30000 });
const openSetup = (page) => page.$eval(part('analysis-setup'), (d) => { d.open = true; });

test('the analysis runs on open, finds the pegged CPUs, shows a card in context with its thresholds, and downloads the report', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openPegged(page);
  assert.equal(await page.textContent('#chart-status'), 'pegged.csv: pdh-csv, UTF-8, 480 samples, 4 series, no time zone (times are UTC)');
  // It ran the system overview (the only pack with these counters), ticked after the run.
  assert.deepEqual(await page.$$eval(`${part('analysis-packs')} input:checked`, (l) => l.map((i) => i.value)), ['system-overview']);
  // The processors question: from the log, 0, 1 and the hostile instance (not _Total) = 3.
  assert.equal(await page.inputValue(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`), '3');
  assert.match(await page.textContent(part('analysis-questions')), /\(from the log: 3\)/);

  // One card: the four processor series, critical (PAL's priority: warning and critical in one group).
  const cards = await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent));
  assert.equal(cards.length, 1, cards.join('\n'));
  assert.match(cards[0], /^Critical/);
  // Four series: "4 of 4 series", or led by the machine-level series where the core names one.
  assert.match(cards[0], /4 of 4 series|Processor\(_Total\)\\% Processor Time and 3 of 3 processors/);
  // The hostile instance is shown as text (in the card's list), never run or parsed as markup.
  assert.ok(cards[0].includes(HOSTILE), cards[0]);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval('[data-part="analysis"] script, #verdict script', (s) => s.length), 0);
  assert.match(await page.textContent(`${part('analysis-variables')} summary`), /^Variables used: \d+$/);
  assert.match(await page.textContent(`${part('analysis-variables')}`), /logicalProcessors = 3 \(from the log\)/);
  assert.match(await page.textContent(`${part('analysis-skipped')} summary`), /^Rules that did not run: \d+ of \d+$/);
  assert.equal(await page.getAttribute(part('analysis-skipped'), 'open'), null, 'collapsed');

  // Show: the card's series (the worst first), around the finding's range, with the warning (80) and
  // critical (95) thresholds drawn by the chart itself and the range shaded.
  await page.click(`${part('analysis-cards')} [data-part="card-show"]`);
  await page.waitForFunction(() => /critical:95/.test(document.querySelector('#chart').dataset.marks ?? ''));
  const stats = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.equal(stats.length, 4);
  const chart = await page.$eval('#chart', (c) => ({ x0: Number(c.dataset.x0), x1: Number(c.dataset.x1), left: Number(c.dataset.plotLeft), width: Number(c.dataset.plotWidth),
    top: Number(c.dataset.plotTop), height: Number(c.dataset.plotHeight), marks: c.dataset.marks }));
  const min = 60_000;
  // The finding covers about 00:32 to 01:00: the view is that, with as long again each side.
  assert.ok(chart.x0 < T0 + 5 * min && chart.x1 > T0 + 85 * min, JSON.stringify(chart));
  const marks = chart.marks.split(' ').map((t) => t.split(':'));
  assert.deepEqual(marks.filter((m) => m[0] !== 'range').map((m) => m.slice(0, 2).join(':')).sort(), ['critical:95', 'warning:80']);
  // 95 is drawn above 80 (smaller y), both inside the plot.
  const y = Object.fromEntries(marks.map((m) => [m[0], Number(m[2])]));
  assert.ok(y.critical < y.warning && y.critical > chart.top && y.warning < chart.top + chart.height, JSON.stringify(y));
  const [a, b] = marks.find((m) => m[0] === 'range').slice(2).map(Number);
  assert.ok(a > chart.left + chart.width * 0.2 && b < chart.left + chart.width * 0.8, JSON.stringify({ a, b, chart }));
  assert.match(await page.textContent(part('analysis-focus')), /^Showing: Critical: Processor busy more than 95% of the time on (4 of 4 series|Processor\(_Total\)\\% Processor Time and 3 of 3 processors), 2026-07-04 00:3/);
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
  await openPegged(page);
  // A pack that is JSON but breaks the schema (rules missing): the core's error, with its place.
  await page.setInputFiles(part('analysis-pack-file'), { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"id": "x", "title": "<b>x</b>"}') });
  await page.waitForFunction((sel) => document.querySelector(sel).children.length === 1, part('analysis-custom'));
  assert.match(await page.textContent(part('analysis-custom')), /^Pack file: bad\.json \(0 rules\)/);
  // A pack added runs the analysis again by itself.
  await page.waitForFunction((sel) => /AnalysisError/.test(document.querySelector(sel).textContent), part('analysis-status'), { timeout: 30000 });
  assert.match(await page.textContent(part('analysis-status')), /bad-pack/);
  assert.match(await page.textContent('#verdict'), /^The analysis failed: AnalysisError \(bad-pack\)/);
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
  await openPegged(page);
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
  assert.match(await page.textContent(part('analysis-custom')), /^PAL import: Ours\.xml \(1 rules\): used on this log only/);
  // The imported pack alone, for this log: the system overview (ticked after the first run) unticked by the
  // import, and the verdict says so.
  await page.waitForFunction(() => /from 1 rules of (?!system-overview)/.test(document.querySelector('[data-part="analysis-summary"]').textContent), null, { timeout: 30000 });
  assert.deepEqual(await page.$$eval(`${part('analysis-packs')} input:checked`, (l) => l.map((i) => i.value)), []);
  assert.equal(await page.textContent('#verdict [data-part="verdict-pal-text"]'), 'Analysed with PAL file Ours.xml (imported for this log)');
  const cards = await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent));
  assert.equal(cards.length, 1, cards.join('\n'));
  assert.match(cards[0], /^Critical/);
  assert.match(await page.textContent(`${part('analysis-cards')} [data-part="card-threshold"]`), /^above 90%$/);
  assert.match(cards[0], /All 4 findings on 4 series/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('an answer given wins over the value from the log, runs again by itself, and shows it is running', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openPegged(page);
  await openSetup(page);
  // Record what the panel shows between the change and the result.
  await page.evaluate((sel) => {
    window.seen = [];
    const root = document.querySelector(sel);
    new MutationObserver(() => window.seen.push(root.dataset.running)).observe(root, { attributes: true, attributeFilter: ['data-running'] });
  }, '#panel-chart [data-part="analysis"]');
  await page.fill(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`, '8');
  await page.dispatchEvent(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`, 'change');
  await page.waitForFunction(() => window.seen.length === 2, null, { timeout: 30000 });
  assert.deepEqual(await page.evaluate(() => window.seen), ['true', 'false']);
  assert.equal(await page.isHidden(part('analysis-progress')), true);
  const used = await page.$$eval(`${part('analysis-variables')} li`, (l) => l.map((x) => x.textContent));
  assert.ok(used.includes('logicalProcessors = 8 (your answer)'), used.join('\n'));
  assert.ok(used.includes("PhysicalMemoryGB = 16 (the pack's default)"), used.join('\n'));
  assert.match(await page.textContent(part('analysis-questions')), /\(answered\)/);
  assert.match(await page.textContent(part('analysis-questions')), /\(default 16: an answer to confirm\)/);
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
  await openPegged(page);
  await openSetup(page);
  await page.setInputFiles(part('analysis-pack-file'), { name: 'limits.json', mimeType: 'application/json', buffer: Buffer.from(EXPRESSIONS) });
  await page.waitForFunction((sel) => document.querySelector(sel).children.length === 1, part('analysis-custom'));
  await page.uncheck(`${part('analysis-packs')} input[value="system-overview"]`);
  await page.waitForFunction(() => / of limits /.test(document.querySelector('[data-part="analysis-summary"]').textContent), null, { timeout: 30000 });
  const cards = await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent));
  assert.equal(cards.length, 1, cards.join('\n'));
  assert.match(cards[0], /^Warning/);
  assert.equal(await page.textContent(`${part('analysis-cards')} [data-part="card-threshold"]`), 'above 50%');
  await page.click(`${part('analysis-cards')} [data-part="card-show"]`);
  await page.waitForFunction(() => /warning:50/.test(document.querySelector('#chart').dataset.marks ?? ''));
  const marks = (await page.getAttribute('#chart', 'data-marks')).split(' ').map((t) => t.split(':').slice(0, 2).join(':')).filter((m) => !m.startsWith('range'));
  assert.deepEqual(marks.sort(), ['critical:99', 'warning:50']);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('runs on one capture copy its columns to the worker once; another capture sends its own', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const transfers = async () => Number(await page.getAttribute(part('analysis'), 'data-transfers'));
  await openPegged(page);
  const before = await transfers();
  const first = await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent));
  // Another answer on the same capture: options alone cross; the result is the analysis of that capture.
  await openSetup(page);
  await page.fill(`${part('analysis-questions')} input[data-variable="logicalProcessors"]`, '8');
  await page.click(part('analysis-run'));
  await done(page);
  assert.equal(await transfers(), before);
  assert.deepEqual(await page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => c.textContent)), first);
  // Another capture: its columns go to a fresh worker.
  await openPegged(page, 'again.csv');
  assert.equal(await transfers(), before + 1);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
