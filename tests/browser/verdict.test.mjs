// The verdict first, in real Chromium: a log with known trouble opens and, without a click, the analysis
// runs in its Worker and the verdict shows above the fold (desktop and phone), its cards counted by
// severity and the pack that produced it named; cards carry the rule's
// description, references as links and the default-answer mark; Show brings the chart into view with the
// range and both thresholds inside it; Back (by keyboard) restores the user's selection and range; a log
// no rule applies to says so; the report has its header, dates, tables, descriptions and charts.
// Screenshots (light and dark, 1440x900 and 390x844) and a report page go to test-results/.
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const T0 = Date.UTC(2026, 6, 4); // 2026-07-04 00:00:00, no zone in the file: UTC
const MIN = 60_000;

/** A relog CSV of `paths` over two hours at 15 s (480 samples); `value(path, k)` gives sample k. */
export function csv(paths, value, samples = 480) {
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  for (let k = 0; k < samples; k++) {
    const t = new Date(T0 + k * 15_000);
    const p2 = (n) => String(n).padStart(2, '0');
    const stamp = `${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000`;
    lines.push([stamp, ...paths.map((p) => String(value(p, k)))].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

// The known trouble, against the system overview's rules:
// - processors 0-3 and _Total at 97 % from 00:30 to 01:00 (10 % otherwise): critical (> 95 on the slice
//   average), one card over the five series;
// - Available MBytes at 1000 all along: below 10 % of 16 GB = 1638.4 MB (warning) but not below 5 % =
//   819.2 MB; 16 GB is the pack's default (no answer given): the card marks it as an answer to confirm;
// - C: read latency 30 ms from 01:00 to 01:20 (2 ms otherwise): above 25 ms, critical.
const CPU = ['0', '1', '2', '3', '_Total'].map((i) => `\\\\SRV\\Processor(${i})\\% Processor Time`);
const MEM = '\\\\SRV\\Memory\\Available MBytes';
const DISK = '\\\\SRV\\LogicalDisk(C:)\\Avg. Disk sec/Read';
export const trouble = () => csv([...CPU, MEM, DISK], (p, k) => {
  const s = k * 15;
  if (p === MEM) return 1000;
  if (p === DISK) return s >= 3600 && s < 4800 ? 0.03 : 0.002;
  return s >= 1800 && s < 3600 ? 97 : 10;
});
const unknown = () => csv(['\\\\SRV\\Custom App(main)\\Widgets/sec', '\\\\SRV\\Custom App(main)\\Queue'], (p, k) => k % 7);

async function openLog(page, name, buffer) {
  await page.setInputFiles('#capture-file', { name, mimeType: 'text/csv', buffer });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
}
/** Waits for the verdict of the log just opened (not the sample's). */
const verdictOf = (page, state) => page.waitForFunction((s) => {
  const v = document.querySelector('#verdict');
  return v && !v.hidden && (s ? v.dataset.state === s : !['running', undefined].includes(v.dataset.state)) && /SRV/.test(v.textContent);
}, state, { timeout: 30000 });

test('the verdict is above the fold without a click, at 1440x900 and 390x844, light and dark', async () => {
  const { page, problems } = await openPage(browser, server.url);
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const chosen = Date.now();
    await openLog(page, 'trouble.csv', trouble());
    await verdictOf(page, 'critical');
    const took = Date.now() - chosen;
    const box = await page.$eval('#verdict', (v) => { const r = v.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }; });
    // The summary (its head, categories and the worst findings) is within the first screen.
    const head = await page.$eval('#verdict [data-part="verdict-worst"]', (v) => v.getBoundingClientRect().bottom);
    assert.ok(box.top >= 0 && head <= h, `${w}x${h}: verdict ${JSON.stringify(box)}, worst list ends at ${head}`);
    // Cards counted by severity (the findings' count after them): the processor card (5 findings) and
    // the disk card are critical, the memory card a warning.
    // (7 findings from slice rules; more where a card holds a warning and a critical of one episode.)
    assert.match(await page.textContent('#verdict [data-part="verdict-head"]'), /^2 critical and 1 warning cards \(\d+ findings\)$/);
    assert.match(await page.textContent('#verdict [data-part="verdict-categories"]'), /Processor: 1 critical/);
    // The verdict names its analysis: the built-in pack that ran, no PAL chip.
    assert.equal(await page.textContent('#verdict [data-part="verdict-packs"]'), 'Analysed with the built-in rules (System overview).');
    assert.equal(await page.$('#verdict [data-part="verdict-pal"]'), null);
    // The worst first, told by the core's story: the processor card (5 series) before the disk (1), each
    // with its next step (no process breakdown in this log: the counters that would name it).
    const worst = await page.$$eval('#verdict [data-part="verdict-worst"] li > span', (l) => l.map((x) => x.textContent));
    assert.match(worst[0], /^Critical: The processors were saturated from 00:3\d.*worst 97%, above 95%/, worst.join('\n'));
    assert.match(worst[1], /^Critical: Reads on disk C: were slow from .*worst 30 ms/, worst.join('\n'));
    const next = await page.$$eval('#verdict [data-part="verdict-next"]', (l) => l.map((x) => x.textContent));
    assert.equal(next[0], 'Next: Log \\Process(*)\\% Processor Time to learn which process it was.');
    // The log: machine, range with its date, interval.
    assert.match(await page.textContent('#verdict [data-part="verdict-log"]'), /^SRV · 2026-07-04 00:00 – 01:59:45 UTC \(1 h 59 min 45 s|^SRV · 2026-07-04 00:00 – 01:59:45 UTC/);
    assert.match(await page.textContent('#verdict [data-part="verdict-log"]'), /every 15 s · 480 samples of 7 series/);
    console.log(`# ${w}x${h}: from choosing the file to the verdict: ${took} ms`);
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      await page.screenshot({ path: `${artifacts}verdict-${w}x${h}-${theme}.png` });
    }
    await page.selectOption('#theme', 'auto');
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('cards: description, references as links, the default-answer mark', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLog(page, 'trouble.csv', trouble());
  await verdictOf(page, 'critical');
  const cards = await page.$$eval('[data-part="card"]', (l) => l.map((c) => ({
    title: c.querySelector('h4').textContent,
    description: c.querySelector('[data-part="card-description"]')?.textContent ?? '',
    links: [...c.querySelectorAll('[data-part="card-references"] a')].map((a) => a.href),
    answers: c.querySelector('[data-part="card-answers"]')?.textContent ?? '',
    defaults: [...c.querySelectorAll('.answer[data-origin="pack"]')].map((a) => a.textContent),
    when: c.querySelector('[data-part="card-when"]').textContent,
    worst: c.querySelector('[data-part="card-worst"]').textContent,
    threshold: c.querySelector('[data-part="card-threshold"]').textContent,
  })));
  assert.equal(cards.length, 3, JSON.stringify(cards, null, 1));
  const [cpu, disk, mem] = cards;
  assert.equal(cpu.title, 'Processor busy more than 95% of the time');
  assert.match(cpu.description, /^A processor \(or all of them, for _Total\) spent nearly all of its time running threads\./);
  assert.ok(cpu.links.includes('https://github.com/clinthuffman/PAL'), cpu.links.join(' '));
  assert.match(cpu.when, /^2026-07-04 00:3\d(:\d\d)? – 0[01]:\d\d(:\d\d)? UTC \(/);
  // Its rule's threshold (and, in a card holding both of one episode, the warning's beside it).
  assert.match(cpu.threshold, /^above 95%( \(critical\), above 80% \(warning\))?$/);
  assert.match(disk.worst, /^30 ms/);
  assert.match(disk.threshold, /^above 25 ms( \(critical\), above 15 ms \(warning\))?$/);
  // Memory: 1000 MB below 10 % of the default 16 GB; the answer it rests on is marked as a default.
  assert.match(mem.title, /Available/i);
  assert.equal(mem.threshold, 'below 1.6 GB');
  assert.deepEqual(mem.defaults, ["PhysicalMemoryGB = 16 (the pack's default: an answer to confirm)"]);
  // No process counters in this log: the processor card names the counter that would have said which
  // process it was, and takes away the counter list for the next collection (logman -cf).
  assert.equal(await page.textContent('[data-part="card"] [data-part="card-missing"] span'), 'not in this log: \\Process(*)\\% Processor Time would name it. ');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-part="card"] [data-part="card-template"]')]);
  assert.equal(file.suggestedFilename(), 'counterlens-counters.txt');
  const list = readFileSync(await file.path(), 'latin1').split('\r\n');
  assert.ok(list.includes('\\Process(*)\\% Processor Time') && list.includes('\\Processor(*)\\% Processor Time'), list.join('|'));
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      await page.$eval('[data-part="analysis-cards"]', (c) => c.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${artifacts}cards-${w}x${h}-${theme}.png` });
    }
  }
  await page.selectOption('#theme', 'auto');
  await page.setViewportSize({ width: 1440, height: 900 });
  // Answering it (64 GB: 10 % = 6553.6 MB, 5 % = 3276.8 MB) runs the analysis again: 1000 MB is now critical, from the user.
  await page.click('[data-part="card"] .card-answer[data-answer="PhysicalMemoryGB"]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.variable), 'PhysicalMemoryGB');
  await page.fill('[data-part="analysis-questions"] input[data-variable="PhysicalMemoryGB"]', '64');
  await page.dispatchEvent('[data-part="analysis-questions"] input[data-variable="PhysicalMemoryGB"]', 'change');
  await page.waitForFunction(() => /PhysicalMemoryGB = 64 \(answered\)/.test(document.querySelector('[data-part="analysis-cards"]').textContent), null, { timeout: 30000 });
  assert.match(await page.textContent('#verdict [data-part="verdict-head"]'), /^3 critical cards \(\d+ findings\)$/);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('Show brings the chart into view with the range and both thresholds; Back restores the selection', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLog(page, 'trouble.csv', trouble());
  await verdictOf(page, 'critical');
  // The user's own view: the disk alone, zoomed in.
  await page.click('#series-clear');
  await page.fill('#series-filter', '\\LogicalDisk(*)\\*');
  await page.keyboard.press('Enter');
  await page.evaluate(() => window.scrollTo(0, 0));
  const view = () => page.evaluate(() => ({
    rows: [...document.querySelectorAll('#chart-stats tbody tr')].map((tr) => tr.cells[0].textContent),
    x0: Number(document.querySelector('#chart').dataset.x0), x1: Number(document.querySelector('#chart').dataset.x1),
  }));
  await page.click('#zoom-in');
  const mine = await view();
  assert.deepEqual(mine.rows, [DISK]);

  // Show on the worst card, from the verdict, by keyboard.
  await page.focus('#verdict button[data-group="0"]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /critical:95/.test(document.querySelector('#chart').dataset.marks ?? ''));
  const chart = await page.$eval('#chart', (c) => {
    const r = c.getBoundingClientRect();
    return { ...c.dataset, top: r.top, bottom: r.bottom, inner: innerHeight };
  });
  // In the viewport.
  assert.ok(chart.top >= 0 && chart.top < chart.inner && chart.bottom <= chart.inner + 1, JSON.stringify(chart));
  const marks = chart.marks.split(' ').map((m) => m.split(':'));
  const kinds = marks.map((m) => `${m[0]}:${m[1]}`);
  assert.ok(kinds.includes('critical:95') && kinds.includes('warning:80'), chart.marks);
  // Both thresholds inside the plot.
  const [top, bottom] = [Number(chart.plotTop), Number(chart.plotTop) + Number(chart.plotHeight)];
  for (const m of marks.filter((x) => x[0] !== 'range')) assert.ok(Number(m[2]) > top && Number(m[2]) < bottom, `${m} within ${top}..${bottom}`);
  // The range shaded, with as much context again on each side: the view is at least three times as wide.
  const range = marks.find((m) => m[0] === 'range');
  const [a, b] = [Number(range[2]), Number(range[3])];
  const [left, width] = [Number(chart.plotLeft), Number(chart.plotWidth)];
  assert.ok(a > left + width * 0.2 && b < left + width * 0.8 && b - a > width * 0.2, JSON.stringify({ range, left, width }));
  const shown = await view();
  assert.equal(shown.rows.length, 5, shown.rows.join('\n'));
  assert.ok(shown.x1 - shown.x0 >= 3 * 25 * MIN, JSON.stringify(shown));
  // The finding covers about 00:32-01:00; shown from before 00:05 to after 01:20 (about 30 min either side).
  assert.ok(shown.x0 <= T0 + 5 * MIN && shown.x1 >= T0 + 80 * MIN, JSON.stringify(shown));
  assert.match(await page.textContent('[data-part="analysis-focus"]'), /^Showing: Critical: Processor busy/);
  // Back, by keyboard (Show left the focus on it): the user's selection and range again, no thresholds.
  assert.equal(await page.evaluate(() => document.activeElement.dataset.part), 'analysis-back');
  await page.screenshot({ path: `${artifacts}verdict-show-1440x900.png` });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !(document.querySelector('#chart').dataset.marks ?? ''));
  assert.deepEqual(await view(), mine);
  assert.equal(await page.isHidden('[data-part="analysis-focus"]'), true);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a log no rule applies to says so, and never looks clean', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 390, height: 844 });
  await openLog(page, 'custom.csv', unknown());
  await verdictOf(page, 'none');
  const text = await page.textContent('#verdict [data-part="verdict-head"]');
  assert.match(text, /^Not analysed\. No built-in rule applies to these counters: Custom App\. This is not a clean result/);
  assert.ok(!/No rule broke/.test(await page.textContent('#verdict')));
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#theme', theme);
    await page.screenshot({ path: `${artifacts}verdict-none-390x844-${theme}.png` });
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('the report: header with dates, summary, descriptions, tables, alert grid, charts; printable', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await openLog(page, 'trouble.csv', trouble());
  await verdictOf(page, 'critical');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-part="analysis-download"]')]);
  assert.equal(download.suggestedFilename(), 'trouble-analysis.html');
  const html = readFileSync(await download.path(), 'utf8');
  assert.match(html, /^<!DOCTYPE html>/);
  assert.ok(html.includes('<dt>Machine</dt><dd>SRV</dd>'));
  assert.ok(html.includes('<dt>First sample</dt><dd>2026-07-04 00:00 UTC</dd>'));
  assert.ok(html.includes('<dt>Last sample</dt><dd>2026-07-04 01:59:45 UTC</dd>'));
  assert.ok(html.includes('<dt>Interval</dt><dd>15 s</dd>'));
  assert.ok(html.includes('A processor (or all of them, for _Total) spent nearly all of its time running threads.'));
  assert.ok(html.includes('<a href="https://github.com/clinthuffman/PAL">'));
  assert.ok(html.includes('<h2 id="statistics">Statistics</h2>') && html.includes('<th>95th pct</th>'));
  assert.ok(html.includes('<h2 id="alerts">Alerts in time order</h2>') && html.includes('<th>Slice trend per hour</th>'));
  assert.ok(html.includes("PhysicalMemoryGB</code> = 16 <span class=\"default\">"));
  assert.ok(html.includes('@media print'));
  // Charts: one per affected series (5 processors, 1 disk, 1 memory) and the key counters (processor,
  // memory, disk latency), with thresholds labelled in the unit and axes in ms for the disk.
  assert.ok((html.match(/<svg/g) ?? []).length >= 10, `${(html.match(/<svg/g) ?? []).length} charts`);
  assert.ok(html.includes('critical 25 ms'));
  assert.ok(!/<script/i.test(html) && !/<link\b/i.test(html));
  // Rendered in Chromium, as a reader sees it, and printed.
  const view = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
  await view.setContent(html);
  await view.screenshot({ path: `${artifacts}report-page.png` });
  const pdf = await view.pdf({ format: 'A4' });
  assert.ok(pdf.length > 10_000);
  await view.close();
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('Times in UTC over a log with its own zone: the verdict and cards repaint in UTC and name the zone of the core\'s sentences', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // The same two hours at 15 s, written by a collector in Pacific Standard Time (bias 480 min: UTC =
  // local + 8 h): 97% from 00:30 to 01:00 local, 08:30 to 09:00 UTC.
  const body = csv(['\\\\SRV\\Processor(_Total)\\% Processor Time'], (p, k) => (k * 15 >= 1800 && k * 15 < 3600 ? 97 : 10))
    .toString('latin1').replace('"(PDH-CSV 4.0)"', '"(PDH-CSV 4.0) (Pacific Standard Time)(480)"');
  await page.setInputFiles('#capture-file', { name: 'pst.csv', mimeType: 'text/csv', buffer: Buffer.from(body, 'latin1') });
  await page.waitForFunction(() => ['critical', 'warning'].includes(document.querySelector('#verdict')?.dataset.state), null, { timeout: 30000 });
  const text = (part) => page.textContent(`#verdict [data-part="${part}"]`);
  // In the log's zone: the story's 00:30 and the log line agree; no note.
  assert.match(await text('verdict-worst'), /from 00:30 to 00:59\b/);
  assert.match(await text('verdict-log'), /2026-07-04 00:00 – 01:59:45 Pacific Standard Time/);
  assert.equal(await page.$('#verdict [data-part="verdict-clock"]'), null);
  // Times in UTC: the log line moves by 8 h at once (no new analysis), the story keeps the log's clock
  // and says so, and a card's headline names the zone its times are in.
  await page.selectOption('[data-part="zone"]', 'utc');
  await page.waitForFunction(() => /08:00 – 09:59:45 UTC/.test(document.querySelector('#verdict [data-part="verdict-log"]')?.textContent ?? ''));
  assert.match(await text('verdict-worst'), /from 00:30 to 00:59\b/);
  assert.equal(await text('verdict-clock'), "The sentences above give times in the log's zone, Pacific Standard Time; the rest of the page in UTC.");
  const when = await page.$$eval('#panel-chart [data-part="card-when"]', (d) => d.map((x) => x.textContent));
  assert.ok(when.length >= 1 && when.every((w) => w.includes(' UTC (')), when.join(' | '));
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
