// Keyboard and assistive technology: the series tree is an ARIA tree (one tab stop, roving tabindex,
// arrows, Home/End, type-ahead, Space selects), the chart has a keyboard crosshair whose values go to a
// live region, a focused series' highlight ends when focus leaves it, and axe-core finds no serious or
// critical violation on the main views (light, dark, the phone's drawer, the other tabs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openCapture } from 'counterlens';
import { serve, launch, openPage, repo, artifacts } from './harness.mjs';
import { FIVE } from './fleet-logs.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const sample = openCapture(new Uint8Array(readFileSync(repo + 'web/sample-capture.json')));
const focused = (page) => page.evaluate(() => {
  const t = document.activeElement;
  return { role: t.getAttribute('role'), label: t.querySelector(':scope > .tree-row .tree-label, :scope > label span')?.textContent, expanded: t.getAttribute('aria-expanded'), selected: t.getAttribute('aria-selected') };
});

test('the series tree: one tab stop, arrows, Home/End, type-ahead, Space selects', async () => {
  const { page, problems } = await openPage(browser, server.url);
  // One tab stop for the whole tree, however many series (the sample has dozens).
  assert.equal(await page.$$eval('#series-list [role="treeitem"][tabindex="0"]', (t) => t.length), 1);
  assert.ok(await page.$$eval('#series-list [role="treeitem"]', (t) => t.length) > 20);
  assert.equal(await page.$$eval('#series-list input, #series-list [tabindex="0"]', (t) => t.filter((x) => x.tabIndex >= 0).length), 1);
  await page.focus('#series-filter');
  // From the filter: Tab passes the action buttons and the top-N controls, then lands in the tree once.
  await page.focus('#series-top-totals');
  await page.keyboard.press('Tab');
  assert.deepEqual(await focused(page), { role: 'treeitem', label: '\\\\DEMO-SQL01', expanded: 'true', selected: null });
  // Down: the first object, Processor (open: its % Processor Time is selected); Left closes it, Right
  // opens it, Right again enters it; Left goes back up.
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focused(page), { role: 'treeitem', label: 'Processor', expanded: 'true', selected: null });
  await page.keyboard.press('ArrowLeft');
  assert.equal((await focused(page)).expanded, 'false');
  assert.equal(await page.isVisible('#series-list [data-index] >> nth=0'), false);
  await page.keyboard.press('ArrowRight');
  assert.equal((await focused(page)).expanded, 'true');
  await page.keyboard.press('ArrowRight');
  assert.equal((await focused(page)).label, '% Processor Time');
  await page.keyboard.press('ArrowLeft'); // closes % Processor Time
  await page.keyboard.press('ArrowLeft'); // to its parent
  assert.equal((await focused(page)).label, 'Processor');
  // Down past the closed branch: the next counter of Processor.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal((await focused(page)).label, '% User Time');
  // Type-ahead: "me" finds Memory, then End and Home.
  await page.keyboard.type('me');
  assert.equal((await focused(page)).label, 'Memory');
  await page.keyboard.press('End');
  const last = await page.evaluate(() => [...document.querySelectorAll('#series-list [role="treeitem"]')].filter((t) => !t.parentElement.closest('[role="group"][hidden]')).at(-1) === document.activeElement);
  assert.ok(last, 'End moves to the last item shown');
  await page.keyboard.press('Home');
  assert.equal((await focused(page)).label, '\\\\DEMO-SQL01');
  // Space on a series deselects and selects it: into Processor, % Processor Time, its first instance.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await focused(page), { role: 'treeitem', label: '0', expanded: null, selected: 'true' });
  const before = await page.$$eval('#chart-stats tbody tr', (r) => r.length);
  await page.keyboard.press('Space');
  assert.equal((await focused(page)).selected, 'false');
  assert.equal(await page.$$eval('#chart-stats tbody tr', (r) => r.length), before - 1);
  await page.keyboard.press('Space');
  assert.equal((await focused(page)).selected, 'true');
  assert.equal(await page.$$eval('#chart-stats tbody tr', (r) => r.length), before);
  // Only one item is in the tab order after all that.
  assert.equal(await page.$$eval('#series-list [tabindex="0"]', (t) => t.length), 1);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('keyboard crosshair: arrows move it sample by sample, values in a live region; focus leaving ends highlights', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const ts = sample.timestamps();
  await page.focus('#chart');
  await page.keyboard.press('ArrowRight');
  assert.ok(await page.isVisible('#chart-readout'));
  const live1 = await page.textContent('#chart-live');
  // The sample nearest the middle of the capture: its time and the five default series' values.
  const mid = sample.sampleAt((ts[0] + ts[ts.length - 1]) / 2);
  const time = (k) => new Date(ts[k] + (sample.timeZone ? -sample.timeZone.biasMinutes * 60000 : 0)).toISOString().replace('T', ' ').replace('Z', '');
  assert.ok(live1.startsWith(`${time(mid)}: Processor(0)\\% Processor Time `), live1);
  assert.equal(live1.split('; ').length, 5);
  await page.keyboard.press('ArrowRight');
  assert.ok((await page.textContent('#chart-live')).startsWith(`${time(mid + 1)}: `));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.ok((await page.textContent('#chart-live')).startsWith(`${time(mid - 1)}: `));
  // The legend's value column follows it.
  assert.match(await page.textContent('#chart-legend thead [data-col="value"]'), /^at /);
  // Escape removes it; Shift+Right pans instead of moving it.
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#chart-readout'), false);
  await page.click('#zoom-in');
  const x0 = await page.$eval('#chart', (c) => Number(c.dataset.x0));
  await page.focus('#chart');
  await page.keyboard.press('Shift+ArrowRight');
  assert.ok(await page.$eval('#chart', (c) => Number(c.dataset.x0)) > x0);
  // Focus on a legend entry highlights its series (drawn thicker: more of slot 1's vermillion, 213,94,0);
  // focus moving on to something else ends it.
  await page.click('#zoom-reset');
  const orange = () => page.$eval('#chart', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 213) < 30 && Math.abs(d[i + 1] - 94) < 30 && Math.abs(d[i + 2]) < 30) n++;
    return n;
  });
  const plain = await orange();
  await page.focus('#chart-legend tbody tr:nth-child(2) button');
  const lit = await orange();
  assert.ok(lit > plain * 1.3, `${lit} vs ${plain}`);
  await page.focus('#zoom-out');
  const after = await orange();
  assert.ok(after < plain * 1.1, `${after} vs ${plain}`);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

/** axe-core's violations of impact serious or critical on the page as it is. */
async function axe(page) {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')})`);
}

test('axe-core: no serious or critical violation on the main views', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
  assert.deepEqual(await axe(page), [], 'chart view, light');
  await page.selectOption('#theme', 'dark');
  assert.deepEqual(await axe(page), [], 'chart view, dark');
  await page.selectOption('#theme', 'light');
  await page.click('#compare summary');
  assert.deepEqual(await axe(page), [], 'compare open');
  for (const tab of ['#tab-calc', '#tab-reg', '#tab-types']) {
    await page.click(tab);
    assert.deepEqual(await axe(page), [], tab);
  }
  await page.click('#tab-chart');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#series-drawer');
  assert.deepEqual(await axe(page), [], 'phone, drawer open');
  await page.screenshot({ path: artifacts + 'a11y-phone-drawer.png' });
  await context.close();
});

test('axe-core: no serious or critical violation on the fleet view, wide and on a phone (rows as blocks)', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.setInputFiles('#capture-file', FIVE());
  await page.waitForFunction(() => /^5 of 5 logs read in/.test(document.querySelector('[data-part="fleet-status"]')?.textContent ?? ''), null, { timeout: 60000 });
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      assert.deepEqual(await axe(page), [], `fleet ${w}x${h} ${theme}`);
    }
  }
  // On a phone the table is still a table with its eleven column heads (Chromium's accessibility tree).
  const snapshot = await page.locator('[data-part="fleet-table"]').ariaSnapshot();
  assert.match(snapshot, /^- '?table "Machines, worst first: Enter or a click opens its log"'?:/);
  const heads = [...snapshot.matchAll(/- columnheader "([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(heads, ['#', 'Machine', 'Worst', 'In trouble', 'CPU', 'CPU mean', 'CPU p95', 'Least available memory', 'Disk latency p95', 'Logs', 'Top card']);
  // A figure's name drawn on the phone (CSS, alt text "") is not read again after its column's head.
  assert.match(snapshot, /- cell "1"\n\s+- cell "WEB01"\n\s+- cell "critical"\n\s+- cell "60 min"\n\s+- cell "CPU over time":\n\s+- img "CPU over time"\n\s+- cell "31\.8%"\n/);
  // The top card's whole text is read, cut to two lines or not.
  assert.match(snapshot, /cell "Processor: \\\\Processor\(_Total\)\\\\% Processor Time above 95% for 60 min from 00:30 to 01:29:45 UTC, 100% of the time, mean 97%, worst 97%"/);
  await context.close();
});
