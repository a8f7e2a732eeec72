// A machine's normal in the viewer, in real Chromium: a baseline file (made here with the package's
// buildBaseline, what `counterlens baseline` writes) opened in the Analysis panel adds the card "worse
// than its normal" to a log at 60 % CPU for two hours against a normal at 10 %, and none to a log at 12 %;
// another machine's baseline and a file that is no baseline are said as text while the analysis goes on;
// in the fleet view, "Use each machine's other logs as its normal" judges the opened log against its
// machine's other logs (learnt in the analysis Worker), and without it nothing is. Screenshots of the
// panel with a baseline and of its card (1440x900 and 390x844, light and dark) go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openCapture, buildBaseline } from 'counterlens';
import { serve, launch, openPage, artifacts } from './harness.mjs';
import { log, T0, HOUR } from './fleet-logs.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const DAY = 24 * HOUR;
// T0 is Saturday 2026-07-04. The normal: four weekday logs, Monday 2026-07-06 to Thursday 2026-07-09, each
// 00:00-02:00 UTC at 10 % (480 samples each: 1920, 960 in each of the hours 0 and 1 of weekdays). The log
// judged: Friday 2026-07-10, 00:00-02:00, a weekday in the same hours.
const normalLogs = (machine) => [0, 1, 2, 3].map((k) => ({ name: `${machine.toLowerCase()}-${k + 1}.csv`, mimeType: 'text/csv', buffer: log(machine, T0 + (2 + k) * DAY, () => 10) }));
const judged = (machine, cpu, name) => ({ name, mimeType: 'text/csv', buffer: log(machine, T0 + 6 * DAY, () => cpu) });
// The rule (docs/analysis.md, "Worse than its normal"): the usual is each hour's p95 = 10 %; worse is past
// max(3 x 10, 10 + 10) = 30 %, for most of 30 min. At 60 % every sample is past it, 00:00 to 01:59:45:
// one card. At 12 % none is (12 < 30). Memory is 8000 MB all along, as in its normal: nothing there.
const HOT = (machine = 'WEB05') => judged(machine, 60, 'hot.csv');
const MILD = () => judged('WEB05', 12, 'mild.csv');
/** A baseline file of `machine`'s four logs at 10 %, as `counterlens baseline` writes it. */
function baselineFile(machine) {
  const files = normalLogs(machine);
  const captures = files.map((f) => openCapture(new Uint8Array(f.buffer)));
  const b = buildBaseline(captures, files.map((f) => f.name));
  for (const c of captures) c.free();
  return { name: `${machine}.baseline.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(b, null, 2)) };
}
// Its normal as the panel names it: machine, 4 logs, the first sample (Monday 00:00) to the last
// (Thursday 01:59:45), 4 x 480 = 1920 samples.
const WEB05_NORMAL = 'WEB05, 4 logs, 2026-07-06 00:00 – 2026-07-09 01:59:45 UTC, 1920 samples';

const part = (name) => `#panel-chart [data-part="${name}"]`;
const done = (page) => page.waitForFunction((sel) => /^Done in \d+ ms\.$/.test(document.querySelector(sel).textContent), part('analysis-status'), { timeout: 60000 });
async function openLog(page, file) {
  await page.setInputFiles('#capture-file', file);
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), file.name, { timeout: 30000 });
  await done(page);
}
const cards = (page) => page.$$eval(`${part('analysis-cards')} [data-part="card"]`, (l) => l.map((c) => ({ pack: c.dataset.pack, text: c.textContent, mark: c.querySelector('[data-part="card-normal"]')?.textContent ?? null,
  normal: c.querySelector('[data-part="card-normal-of"]')?.textContent ?? null })));
const normalCard = (page) => page.waitForSelector(`${part('analysis-cards')} [data-part="card"][data-pack="baseline"]`, { timeout: 60000 });

test('a baseline file in the panel: the 60 % log gets the card "worse than its normal", the 12 % log none', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLog(page, HOT());
  // Without a normal: 60 % breaks no fixed threshold (the system overview's CPU rules start at 80 %).
  assert.deepEqual(await cards(page), []);
  assert.equal(await page.getAttribute(part('analysis-normal'), 'data-state'), 'none');
  await page.setInputFiles(part('analysis-normal-file'), baselineFile('WEB05'));
  await normalCard(page);
  await done(page);
  assert.equal(await page.textContent(part('analysis-normal-text')), `WEB05.baseline.json: ${WEB05_NORMAL}.`);
  assert.equal(await page.getAttribute(part('analysis-normal'), 'data-state'), 'used');
  const got = await cards(page);
  assert.equal(got.length, 1, got.map((c) => c.text).join('\n'));
  assert.equal(got[0].pack, 'baseline');
  assert.equal(got[0].mark, 'Worse than its normal');
  assert.equal(got[0].normal, WEB05_NORMAL);
  // Its series, from 00:00 to 01:59:45 (119 min 45 s: the core's words round it), a warning.
  assert.match(got[0].text, /^Warning/);
  assert.match(got[0].text, /2026-07-10 00:00 – 01:59:45 UTC/);
  assert.match(got[0].text, /Processor\(_Total\)\\% Processor Time/);
  // Counted in the verdict (a warning, one card).
  await page.waitForFunction(() => document.querySelector('#verdict')?.dataset.state === 'warning');
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    for (const theme of ['light', 'dark']) {
      await page.setViewportSize({ width: w, height: h });
      await page.selectOption('#theme', theme);
      await page.$eval(part('analysis-normal'), (e) => e.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${artifacts}baseline-panel-${w}x${h}-${theme}.png` });
      await page.$eval(`${part('analysis-cards')} [data-pack="baseline"]`, (e) => e.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${artifacts}baseline-card-${w}x${h}-${theme}.png` });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.selectOption('#theme', 'light');
  // The file is kept for the next log: the 12 % log is judged against it too, and is not worse.
  await openLog(page, MILD());
  assert.equal(await page.textContent(part('analysis-normal-text')), `WEB05.baseline.json: ${WEB05_NORMAL}.`);
  assert.equal(await page.getAttribute(part('analysis-normal'), 'data-state'), 'used');
  assert.deepEqual(await cards(page), []);
  // Remove: no normal; the analysis runs again without one.
  await page.click(part('analysis-normal-remove'));
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'none', part('analysis-normal'));
  assert.equal(await page.isVisible(part('analysis-normal-remove')), false);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test("another machine's baseline, and a file that is no baseline: said as text, the analysis goes on", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openLog(page, HOT());
  await page.setInputFiles(part('analysis-normal-file'), baselineFile('OTHER01'));
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'refused', part('analysis-normal'), { timeout: 60000 });
  await done(page);
  // The core's words, naming both machines.
  assert.match(await page.textContent(part('analysis-normal-error')),
    /^Not used on this log: the baseline is the normal of machine OTHER01 \(4 logs\), this log is of machine WEB05: /);
  // Analysed without it: no card, the verdict an answer (not an error).
  assert.deepEqual(await cards(page), []);
  assert.notEqual(await page.getAttribute('#verdict', 'data-state'), 'error');
  await page.$eval(part('analysis-normal'), (e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${artifacts}baseline-other-machine.png` });
  // A rule pack is no baseline, nor is a file that is not JSON: said, and the normal chosen before stays.
  await page.setInputFiles(part('analysis-normal-file'), { name: 'pack.json', mimeType: 'application/json', buffer: Buffer.from('{"id":"mine","rules":[]}') });
  await page.waitForFunction((sel) => /^pack\.json is not a baseline: /.test(document.querySelector(sel).textContent), part('analysis-normal-note'));
  await page.setInputFiles(part('analysis-normal-file'), { name: 'hostile<b>.json', mimeType: 'application/json', buffer: Buffer.from('<img src=x onerror=window.pwned=1>') });
  await page.waitForFunction((sel) => /^hostile<b>\.json is not a baseline: not JSON/.test(document.querySelector(sel).textContent), part('analysis-normal-note'));
  // The refusal of the normal in use is still said beside it.
  assert.match(await page.textContent(part('analysis-normal-error')), /^Not used on this log: the baseline is the normal of machine OTHER01/);
  assert.equal(await page.$$eval(`${part('analysis-normal')} b, ${part('analysis-normal')} img`, (l) => l.length), 0);
  assert.match(await page.textContent(part('analysis-normal-text')), /^OTHER01\.baseline\.json: OTHER01, 4 logs/);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

const fleetDone = (page, n) => page.waitForFunction((k) => (document.querySelector('[data-part="fleet-status"]')?.textContent ?? '').startsWith(`${k} of ${k} logs read in`), n, { timeout: 60000 });
const row = (machine) => `[data-part="fleet-table"] tbody tr:has(td.machine:text-is("${machine}"))`;

test("the fleet's option: a machine's other logs are its normal for the log opened; without it, no card", async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  // WEB05: its four logs at 10 % and the 60 % one (the latest: none is in trouble by the fixed rules, so
  // a click opens the latest); APP01: one log only.
  await page.setInputFiles('#capture-file', [...normalLogs('WEB05'), HOT(), { name: 'app.csv', mimeType: 'text/csv', buffer: log('APP01', T0, () => 10) }]);
  await fleetDone(page, 6);
  assert.equal(await page.isChecked('[data-part="fleet-use-normal"]'), false);
  await page.click(`${row('WEB05')} td.machine`);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('hot.csv:'), null, { timeout: 30000 });
  await done(page);
  assert.equal(await page.textContent('[data-part="fleet-back-text"]'), 'WEB05: hot.csv (the latest of its 5 logs)');
  assert.equal(await page.textContent('[data-part="fleet-normal"]'), '');
  assert.deepEqual(await cards(page), []);

  await page.click('[data-part="fleet-back-button"]');
  await page.check('[data-part="fleet-use-normal"]');
  // Enter on the row (keyboard) opens it again, judged against its four other logs.
  await page.focus(row('WEB05'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('hot.csv:'), null, { timeout: 30000 });
  await normalCard(page);
  await page.waitForFunction(() => /^judged against its normal: 4/.test(document.querySelector('[data-part="fleet-normal"]').textContent), null, { timeout: 30000 });
  // The period of the four other logs: Monday 00:00 to Thursday 01:59:45 UTC.
  assert.equal(await page.textContent('[data-part="fleet-normal"]'), 'judged against its normal: 4 other logs, 2026-07-06 00:00 – 2026-07-09 01:59:45 UTC');
  assert.equal(await page.textContent(part('analysis-normal-text')), `its 4 other logs in the fleet: ${WEB05_NORMAL}.`);
  const got = await cards(page);
  assert.equal(got.length, 1);
  assert.equal(got[0].pack, 'baseline');
  assert.equal(got[0].normal, WEB05_NORMAL);
  await page.screenshot({ path: `${artifacts}baseline-fleet-opened-1440x900.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${artifacts}baseline-fleet-opened-390x844.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // APP01 has one log: nothing to learn its normal from, and the bar says so.
  await page.click('[data-part="fleet-back-button"]');
  await page.click(`${row('APP01')} td.machine`);
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('app.csv:'), null, { timeout: 30000 });
  await done(page);
  assert.equal(await page.textContent('[data-part="fleet-normal"]'), 'no other log of APP01 to learn its normal from');
  assert.equal(await page.getAttribute(part('analysis-normal'), 'data-state'), 'none');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
