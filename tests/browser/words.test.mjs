// Issue 41's done-when in the viewer: one series (tests/vectors/words-one-text.csv: % Processor Time at
// 97.4567 from 00:30 to 01:00 UTC, 10.25 before and after) reads one text per value in the legend, the
// statistics table, the card's facts and the card's summary the verdict lists: its max 97.4567 is `97.5%`
// everywhere (perflib's display wrote `97.457%` in the legend), as the CLI's JSON and report write it
// (cli/tests/cli.rs, one_series_reads_one_text_per_value_in_the_json_and_the_report). And the series
// filter takes `?` as the CLI's `-c` does. Screenshots at 1440x900 and 390x844, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, artifacts, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('one series reads one text per value in the legend, the statistics and the card', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const buffer = readFileSync(`${repo}tests/vectors/words-one-text.csv`);
  await page.setInputFiles('#capture-file', { name: 'one.csv', mimeType: 'text/csv', buffer });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('one.csv:'));
  await page.waitForFunction(() => document.querySelector('#verdict')?.dataset.state && document.querySelector('#verdict').dataset.state !== 'running', null, { timeout: 30000 });
  // The legend's row: last, min, max, mean (min 10.25 reads 10.2 to three significant digits, the
  // mean of 120 samples at 97.4567 and 360 at 10.25 is (11694.804 + 3690) / 480 = 32.0517 -> 32.1%).
  const legend = await page.$$eval('#chart-legend tbody tr[data-index]', (rows) => rows.map((r) => [...r.cells].slice(1, 5).map((c) => c.textContent)));
  assert.deepEqual(legend, [['10.2%', '10.2%', '97.5%', '32.1%']]);
  // The statistics table: min, mean, max, last, p95 (97.4567: a quarter of the samples are at it).
  const stats = await page.$$eval('#chart-stats tbody tr', (rows) => rows.map((r) => [...r.cells].slice(1, 6).map((c) => c.textContent)));
  assert.deepEqual(stats, [['10.2%', '32.1%', '97.5%', '10.2%', '97.5%']]);
  // The card: its worst fact and the summary the verdict lists (the core's words).
  const card = await page.$eval('[data-part="card"]', (c) => ({ worst: c.querySelector('[data-part="card-worst"]').textContent, text: c.textContent }));
  assert.match(card.worst, /^97\.5% /);
  const verdict = await page.$eval('#verdict', (v) => v.textContent);
  assert.match(verdict, /mean 97\.5%, worst 97\.5%/);
  for (const text of [legend.flat().join(' '), stats.flat().join(' '), card.text, verdict]) {
    assert.doesNotMatch(text, /97\.4567|97\.457|97\.46\b/);
  }
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      await page.$eval('#chart-legend', (c) => c.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${artifacts}words-one-text-${w}x${h}-${theme}.png` });
    }
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test("the series filter takes ? and * as the CLI's -c on a localized log", async () => {
  const { page, problems } = await openPage(browser, server.url);
  const words = JSON.parse(readFileSync(`${repo}tests/vectors/words.json`, 'utf8'));
  const buffer = readFileSync(`${repo}tests/vectors/captures/${words.matching.capture}`);
  await page.setInputFiles('#capture-file', { name: 'ru.csv', mimeType: 'text/csv', buffer });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('ru.csv:'));
  for (const c of words.matching.cases) {
    await page.fill('#series-filter', c.pattern);
    const listed = () => page.$$eval('#series-list [data-index]', (l) => [...new Set(l.map((e) => Number(e.dataset.index)))].sort((a, b) => a - b));
    // The tree redraws on input (possibly a frame later): the expected list, or what it shows after 2 s.
    await page.waitForFunction(([want]) => JSON.stringify([...new Set([...document.querySelectorAll('#series-list [data-index]')].map((e) => Number(e.dataset.index)))].sort((a, b) => a - b)) === want, [JSON.stringify(c.series)], { timeout: 2000 }).catch(() => {});
    assert.deepEqual(await listed(), c.series, JSON.stringify(c));
  }
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
