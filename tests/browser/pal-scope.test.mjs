// The rules of an analysis, in real Chromium: the verdict names the packs that produced it; a PAL file
// imported on one log (PAL's sample log) applies to that log only: the next log (BasicPerfCounters.blg)
// is analysed with the built-in packs and its verdict says the file stayed behind, unless "Keep for the
// next logs" was ticked (then its chip says kept); "Use the built-in rules" is the way back, by keyboard;
// while a PAL file is in play the verdict says, in one line, where the built-in rules judge otherwise.
// And the episode fields of a newer core (summary, lead, share, mean, scope, packs) as the verdict and
// the cards show them, on an analysis written out by hand. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { serve, launch, openPage, repo, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const A = 'PAL_SampleLog.blg';
const B = 'BasicPerfCounters.blg';
const PAL = 'QuickSystemOverview.xml';
const part = (name) => `#verdict [data-part="${name}"]`;

/** Opens a log of tests/vectors/captures and waits for its verdict. */
async function openLog(page, name) {
  await page.setInputFiles('#capture-file', { name, mimeType: 'application/octet-stream', buffer: readFileSync(`${repo}tests/vectors/captures/${name}`) });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name, { timeout: 60000 });
  await settled(page, name);
}
/** The verdict of the log `name` is in (not "Analysing…"). */
const settled = (page, name) => page.waitForFunction((n) => {
  const v = document.querySelector('#verdict');
  return v && !v.hidden && v.dataset.state && v.dataset.state !== 'running' && document.querySelector('#chart-status').textContent.startsWith(`${n}:`) &&
    /^Done in/.test(document.querySelector('[data-part="analysis-status"]').textContent);
}, name, { timeout: 60000 });
/** Imports the PAL file through the panel's file input and waits for the analysis with it. */
async function importPal(page) {
  await page.setInputFiles('[data-part="analysis-pal-files"]', { name: PAL, mimeType: 'text/xml', buffer: readFileSync(`${repo}tests/vectors/pal/${PAL}`) });
  await page.waitForFunction((sel) => document.querySelector(sel) && document.querySelector('#verdict').dataset.state !== 'running', part('verdict-pal'), { timeout: 60000 });
}
/** axe-core's serious or critical violations inside `selector`. */
async function axe(page, selector) {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async (sel) => window.axe.run(sel, { resultTypes: ['violations'] }), selector);
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(' | ')})`);
}
const cardCount = (page) => page.$$eval('[data-part="analysis-cards"] [data-part="card"]', (l) => l.length);

test('a PAL import applies to its log: the next log is analysed with the built-in rules and says so', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLog(page, A);
  assert.equal(await page.textContent(part('verdict-packs')), 'Analysed with the built-in rules (System overview).');
  assert.equal(await page.$(part('verdict-pal')), null);
  const builtinCards = await cardCount(page);

  await importPal(page);
  assert.equal(await page.textContent(part('verdict-pal-text')), `Analysed with PAL file ${PAL} (imported for this log)`);
  assert.equal(await page.isChecked(part('verdict-keep')), false);
  // The PAL file alone: its cards, none of the built-in pack's.
  assert.ok(await cardCount(page) > builtinCards, `${await cardCount(page)} PAL cards vs ${builtinCards} built-in`);
  assert.match(await page.textContent('[data-part="analysis-summary"]'), /rules of pal-quicksystemoverview over/);
  // Where the two disagree, in one line, three counters at most: PAL's slices raise processor time, which
  // the built-in rules (an episode of 15 minutes at 80%) do not.
  const disagree = await page.textContent(part('verdict-disagree'));
  assert.match(disagree, /^The built-in rules differ on \d+ counters: /);
  assert.match(disagree, /\\Processor\(\*\)\\% Processor Time \(PAL: critical, built-in: no card\)/);
  assert.ok((disagree.match(/\(PAL: /g) ?? []).length <= 3, disagree);
  assert.match(disagree, /PAL's file judges each time slice by its worst sample \(a single spike counts\); the built-in rules need an episode/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${artifacts}pal-scope-imported-1440x900.png` });

  // Log B, without "Keep for the next logs": the built-in pack, no chip, and a word that the file stayed.
  await openLog(page, B);
  assert.equal(await page.$(part('verdict-pal')), null);
  assert.equal(await page.$(part('verdict-disagree')), null);
  assert.equal(await page.textContent(part('verdict-packs-text')), 'Analysed with the built-in rules (System overview).');
  assert.equal(await page.textContent(part('verdict-aside')), `PAL file ${PAL} stayed with the previous log.`);
  assert.equal(await page.getAttribute('#verdict', 'data-state'), 'clean');
  assert.match(await page.textContent('[data-part="analysis-summary"]'), /rules of system-overview over/);
  assert.match(await page.textContent('[data-part="analysis-custom"]'), new RegExp(`^PAL import: ${PAL} \\(\\d+ rules\\): set aside: not used on this log`));
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${artifacts}pal-scope-next-log-1440x900.png` });

  // Used on B after all, from the verdict: the chip again, imported for this log.
  await page.click(part('verdict-reapply'));
  await page.waitForFunction((sel) => document.querySelector(sel) && document.querySelector('#verdict').dataset.state !== 'running', part('verdict-pal'), { timeout: 60000 });
  assert.equal(await page.textContent(part('verdict-pal-text')), `Analysed with PAL file ${PAL} (imported for this log)`);
  assert.equal(await page.getAttribute('#verdict', 'data-state'), 'critical');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('"Keep for the next logs" carries it, said on the next log; "Use the built-in rules" is the way back, by keyboard', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLog(page, A);
  await importPal(page);
  // The choice, by keyboard, labelled for screen readers.
  assert.equal(await page.$eval(part('verdict-keep'), (i) => i.closest('label').textContent.trim()), 'Keep for the next logs');
  assert.equal(await page.getAttribute(part('verdict-pal'), 'aria-label'), 'Rules of this analysis');
  await page.focus(part('verdict-keep'));
  await page.keyboard.press('Space');
  assert.equal(await page.isChecked(part('verdict-keep')), true);
  assert.match(await page.textContent('[data-part="analysis-custom"]'), /used on this log, kept for the next logs/);

  await openLog(page, B);
  assert.equal(await page.textContent(part('verdict-pal-text')), `Analysed with PAL file ${PAL} (kept from the previous log)`);
  assert.equal(await page.isChecked(part('verdict-keep')), true);
  assert.equal(await page.getAttribute('#verdict', 'data-state'), 'critical');
  assert.match(await page.textContent('[data-part="analysis-summary"]'), /rules of pal-quicksystemoverview over/);
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#theme', theme);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${artifacts}pal-scope-kept-1440x900-${theme}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const theme of ['light', 'dark']) {
    await page.selectOption('#theme', theme);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${artifacts}pal-scope-kept-390x844-${theme}.png` });
  }
  await page.selectOption('#theme', 'auto');
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.deepEqual(await axe(page, '#verdict'), [], 'the verdict with its PAL chip');

  // The way back, by keyboard: the built-in pack again, and the focus on the way to the PAL file again.
  await page.focus(part('verdict-builtin'));
  await page.keyboard.press('Enter');
  await page.waitForFunction((sel) => document.querySelector(sel) && document.querySelector('#verdict').dataset.state !== 'running', part('verdict-reapply'), { timeout: 60000 });
  assert.equal(await page.$(part('verdict-pal')), null);
  assert.equal(await page.textContent(part('verdict-packs-text')), 'Analysed with the built-in rules (System overview).');
  assert.equal(await page.textContent(part('verdict-aside')), `PAL file ${PAL} set aside.`);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.part), 'verdict-reapply');
  assert.equal(await page.getAttribute('#verdict', 'data-state'), 'clean');
  // And forward again from there (Enter on the focused button).
  await page.keyboard.press('Enter');
  await page.waitForFunction((sel) => document.querySelector(sel) && document.querySelector('#verdict').dataset.state !== 'running', part('verdict-pal'), { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.activeElement.dataset.part), 'verdict-builtin');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

// An analysis as a core that finds episodes returns it (issue #36), written out by hand: one processor
// episode led by _Total with 7 of its 8 processors, holding a warning and a critical; one process alone.
// The viewer's modules are the page's own (the same URLs the viewer loaded, the package initialised).
const T0 = Date.UTC(2026, 6, 4);
const MIN = 60_000;
function episodes() {
  const info = [];
  const series = (object, instance, counter, unit = 'percent') => {
    info.push({ index: info.length, machine: 'SRV', object, instance, counter, unit, multiplier: 1,
      path: `\\\\SRV\\${object}${instance !== undefined ? `(${instance})` : ''}\\${counter}` });
    return info.length - 1;
  };
  const total = series('Processor', '_Total', '% Processor Time');
  const cpus = Array.from({ length: 8 }, (_, k) => series('Processor', String(k), '% Processor Time'));
  const app = series('Process', 'app', '% Processor Time');
  const finding = (seriesIndex, rule, severity, threshold, worst, extra = {}) => ({
    pack: 'system-overview', rule, title: rule, category: 'Processor', severity, seriesIndex, path: info[seriesIndex].path,
    start: T0 + 30 * MIN, end: T0 + 199 * MIN, broke: ['value'], worst, threshold, operator: 'gt', message: '', ...extra,
  });
  const findings = [
    finding(total, 'processor-time-warning', 'warning', 80, 99.1, { mean: 87, share: 0.88, scope: 'machine' }),
    finding(total, 'processor-time-critical', 'critical', 95, 99.1, { scope: 'machine' }),
    ...cpus.slice(0, 7).map((i) => finding(i, 'processor-time-warning', 'warning', 80, 98, { scope: 'instance' })),
    finding(app, 'process-time', 'warning', 90, 97, { scope: 'instance', start: T0 + 10 * MIN, end: T0 + 40 * MIN }),
  ];
  const rule = (id, title, severity, threshold, n) => ({ pack: 'system-overview', rule: id, title, category: 'Processor', severity, operator: 'gt', series: n, threshold });
  const analysis = {
    packs: [{ id: 'system-overview', title: 'System overview', source: 'counterlens built-in', builtin: true },
      { id: 'sql-server', title: 'SQL Server', source: 'counterlens built-in', builtin: true }],
    slices: [], findings, variables: {}, variableSources: {},
    rules: [rule('processor-time-warning', 'Processor busy more than 80% of the time', 'warning', 80, 9),
      rule('processor-time-critical', 'Processor busy more than 95% of the time', 'critical', 95, 9),
      rule('process-time', 'One process busy', 'warning', 90, 1)],
    // The process card first: the core ranks by impact, and the viewer keeps its order.
    groups: [
      { pack: 'system-overview', rule: 'process-time', severity: 'warning', start: T0 + 10 * MIN, end: T0 + 40 * MIN, findings: [9], worst: 9, series: 1,
        category: 'Processor', machine: 'SRV', scope: 'instance', lead: 9, durationMs: 30 * MIN, summary: 'One process busy: above 90% for 30 min' },
      { pack: 'system-overview', rule: 'processor-time-warning', severity: 'critical', start: T0 + 30 * MIN, end: T0 + 199 * MIN, findings: [0, 1, 2, 3, 4, 5, 6, 7, 8], worst: 1, series: 8,
        category: 'Processor', machine: 'SRV', scope: 'machine', lead: 0, durationMs: 169 * MIN, mean: 87, share: 0.88,
        summary: 'Processor busy more than 80% of the time: above 80% for 2 h 49 min, 88% of the time, mean 87%, worst 99.1%' },
    ],
    log: { machines: ['SRV'], samples: 1000, series: info.length, first: T0, last: T0 + 240 * MIN, intervalMs: 15_000 },
  };
  return { analysis, info };
}

test('a newer core\'s episodes: summaries in the verdict, cards led by the machine-level series, by rule, in the order given', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  const out = await page.evaluate(async ({ analysis, info }) => {
    const { createVerdict } = await import('/js/viewer/verdict.js');
    const { renderCards, headline } = await import('/js/viewer/cards.js');
    const { createPackScope, rulesLine } = await import('/js/viewer/pack-scope.js');
    const host = document.createElement('div');
    host.className = 'counterlens-viewer';
    host.dataset.test = 'episodes';
    const region = document.createElement('section');
    region.className = 'verdict';
    region.dataset.part = 'verdict';
    const cards = document.createElement('div');
    cards.className = 'analysis-cards';
    host.append(region, cards);
    document.body.prepend(host);
    const ctx = { info, offset: 0, zoneName: 'UTC' };
    const v = createVerdict(region, { show() {}, cards() {} });
    v.show(analysis, { ...ctx, sentence: (g) => headline(analysis, g, ctx), rules: rulesLine(createPackScope(), analysis, []) });
    renderCards(cards, analysis, ctx);
    for (const d of cards.querySelectorAll('details')) d.open = true;
    const text = (root, p) => root.querySelector(`[data-part="${p}"]`)?.textContent ?? null;
    return {
      head: text(region, 'verdict-head'),
      packs: text(region, 'verdict-packs'),
      categories: text(region, 'verdict-categories'),
      worst: [...region.querySelectorAll('[data-part="verdict-worst"] li > span')].map((s) => s.textContent),
      cards: [...cards.querySelectorAll('[data-part="card"]')].map((c) => ({
        title: c.querySelector('h4').textContent, concern: text(c, 'card-concern'), when: text(c, 'card-when'), where: text(c, 'card-where'),
        episode: text(c, 'card-episode'), threshold: text(c, 'card-threshold'),
        rules: [...c.querySelectorAll('[data-part="card-list-rule"]')].map((r) => r.textContent), items: c.querySelectorAll('.card-list li').length,
      })),
    };
  }, episodes());
  assert.equal(out.head, '1 critical and 1 warning cards (10 findings)');
  assert.equal(out.packs, 'Analysed with the built-in rules (System overview, SQL Server).');
  assert.equal(out.categories, 'Processor: 1 critical, 1 warning ');
  // The core's order and summaries.
  assert.deepEqual(out.worst, ['Warning: One process busy: above 90% for 30 min, from 2026-07-04 00:10',
    'Critical: Processor busy more than 80% of the time: above 80% for 2 h 49 min, 88% of the time, mean 87%, worst 99.1%, from 2026-07-04 00:30']);
  const [proc, cpu] = out.cards;
  assert.equal(proc.title, 'One process busy');
  assert.equal(proc.concern, 'Processor · one process');
  assert.equal(proc.where, 'Process(app)\\% Processor Time');
  assert.equal(proc.episode, null);
  assert.equal(cpu.title, 'Processor busy more than 80% of the time');
  assert.equal(cpu.concern, 'Processor · the whole machine');
  assert.equal(cpu.when, '2026-07-04 00:30 – 03:19 UTC (2 h 49 min)');
  assert.equal(cpu.where, 'Processor(_Total)\\% Processor Time and 7 of 8 processors');
  assert.equal(cpu.episode, '88% of the time above 80%, mean 87%');
  assert.equal(cpu.threshold, 'above 80% (warning), above 95% (critical)');
  assert.deepEqual(cpu.rules, ['Processor busy more than 80% of the time (warning): 8 findings', 'Processor busy more than 95% of the time (critical): 1 finding']);
  assert.equal(cpu.items, 9);
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('[data-test="episodes"]').screenshot({ path: `${artifacts}episodes-${w}x${h}-${theme}.png` });
    }
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
