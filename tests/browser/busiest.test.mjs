// Many machines in one log (issue 40, point 1), in real Chromium: a log of 12 machines whose busiest is
// last in alphabetical order opens with that machine in its first chart and in its small multiples (the
// machines' Processor(_Total)\% Processor Time by mean, busiest first), and the verdict names the machines
// in trouble in the cards' rank order and counts the calm ones. Screenshots at 1440x900 and 390x844.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const T0 = Date.UTC(2026, 6, 4); // 2026-07-04 00:00:00, no zone in the file: UTC

/** A relog CSV of `paths` over two hours at 15 s (480 samples); `value(path, k)` gives sample k (as in
 *  verdict.test.mjs, not imported from it: that would run its tests here too). */
function csv(paths, value, samples = 480) {
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  const p2 = (n) => String(n).padStart(2, '0');
  for (let k = 0; k < samples; k++) {
    const t = new Date(T0 + k * 15_000);
    const stamp = `${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000`;
    lines.push([stamp, ...paths.map((p) => String(value(p, k)))].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

// WEB01..WEB12 over two hours at 15 s: WEBnn at 4 + nn % (5-15 %), but WEB12 at 55 % all along (busy, no
// rule broken), WEB07 at 97 % from 00:30 to 01:30 and WEB03 at 97 % from 00:30 to 01:00 (critical, the
// longer first). By mean: WEB12 55, WEB07 ~53, WEB03 ~29, WEB11..WEB08 15-12, WEB06 10; left out of the
// first 8: WEB01, WEB02, WEB04, WEB05.
const MACHINES = Array.from({ length: 12 }, (_, k) => `WEB${String(k + 1).padStart(2, '0')}`);
const cpu = (m) => `\\\\${m}\\Processor(_Total)\\% Processor Time`;
const fleet = () => csv(MACHINES.map(cpu), (p, k) => {
  const m = /WEB(\d\d)/.exec(p)[1], s = k * 15;
  if (m === '12') return 55;
  if (m === '07' && s >= 1800 && s < 5400) return 97;
  if (m === '03' && s >= 1800 && s < 3600) return 97;
  return 4 + Number(m);
});

test('12 machines: the first chart and its small multiples show the busiest; the verdict ranks the machines in trouble', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.setInputFiles('#capture-file', { name: 'twelve.csv', mimeType: 'text/csv', buffer: fleet() });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('twelve.csv:'));
  const legend = await page.$$eval('#chart-legend tbody tr[data-index] td:first-child', (tds) => tds.map((t) => t.textContent));
  const shown = legend.map((l) => /WEB\d\d/.exec(l)[0]).sort();
  assert.deepEqual(shown, ['WEB03', 'WEB06', 'WEB07', 'WEB08', 'WEB09', 'WEB10', 'WEB11', 'WEB12']);
  assert.equal(await page.textContent('#selection-note'), 'Showing Processor(_Total)\\% Processor Time of the 8 busiest (by mean) of 12 machines (at most 8 lines at first).Show all 12');
  // The verdict: two machines in trouble, the longer critical first, the rest counted.
  await page.waitForFunction(() => {
    const v = document.querySelector('#verdict');
    return v && !v.hidden && ['critical', 'warning'].includes(v.dataset.state) && /WEB/.test(v.textContent);
  }, null, { timeout: 30000 });
  assert.equal(await page.textContent('[data-part="verdict-machines"]'), '2 of 12 machines in trouble: WEB07, WEB03; 10 calm');
  await page.screenshot({ path: artifacts + 'busiest-1440.png' });
  // The small multiples of the first chart: one per busiest machine, WEB12 among them.
  await page.selectOption('#chart-view', 'machines');
  const captions = await page.$$eval('#multiples figure figcaption', (f) => f.map((x) => x.textContent));
  assert.deepEqual(captions, shown.map((m) => `\\\\${m}`));
  await page.selectOption('#chart-view', 'one');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: artifacts + 'busiest-390.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('one machine: no line about machines in trouble', async () => {
  const { page } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', { name: 'one.csv', mimeType: 'text/csv', buffer: csv([cpu('WEB03')], (p, k) => (k * 15 >= 1800 && k * 15 < 3600 ? 97 : 10)) });
  await page.waitForFunction(() => {
    const v = document.querySelector('#verdict');
    return v && !v.hidden && v.dataset.state === 'critical' && /WEB03/.test(v.textContent);
  }, null, { timeout: 30000 });
  assert.equal(await page.$('[data-part="verdict-machines"]'), null);
  await page.close();
});
