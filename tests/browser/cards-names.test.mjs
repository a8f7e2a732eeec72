// How finding cards name series: with the machine when the log has several (two machines whose CPUs are
// pegged at once: one card, each machine named), and with the English name beside a localized one (a
// Spanish log). Screenshots of the cards at 1440x900 and 390x844, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

// Two hours at 15 s (480 samples) from 2026-07-04 00:00 UTC: 10 %, but 97 % from 00:30 to 01:00.
const T0 = Date.UTC(2026, 6, 4);
function pegged(paths, header = '(PDH-CSV 4.0)') {
  const lines = [[header, ...paths].map((c) => `"${c}"`).join(',')];
  for (let k = 0; k < 480; k++) {
    const t = new Date(T0 + k * 15_000);
    const stamp = `${String(t.getUTCMonth() + 1).padStart(2, '0')}/${String(t.getUTCDate()).padStart(2, '0')}/${t.getUTCFullYear()} ` +
      `${String(t.getUTCHours()).padStart(2, '0')}:${String(t.getUTCMinutes()).padStart(2, '0')}:${String(t.getUTCSeconds()).padStart(2, '0')}.000`;
    const v = k * 15 >= 1800 && k * 15 < 3600 ? 97 : 10;
    lines.push([stamp, ...paths.map(() => String(v))].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

async function cardsOf(page, name, buffer) {
  await page.setInputFiles('#capture-file', { name, mimeType: 'text/csv', buffer });
  await page.waitForFunction((n) => document.querySelector('#chart-status').textContent.startsWith(`${n}:`), name);
  await page.waitForFunction(() => document.querySelector('#verdict')?.dataset.state && document.querySelector('#verdict').dataset.state !== 'running', null, { timeout: 30000 });
  return page.$$eval('[data-part="card"]', (l) => l.map((c) => ({
    where: c.querySelector('[data-part="card-where"]').textContent,
    worst: c.querySelector('[data-part="card-worst"]').textContent,
    list: [...c.querySelectorAll('.card-list li')].map((li) => li.textContent),
  })));
}

async function screenshots(page, name) {
  // The findings' list open, so the machines are in the picture.
  await page.$$eval('.card-list', (l) => l.forEach((d) => { d.open = true; }));
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#theme', theme);
      await page.$eval('[data-part="analysis-cards"]', (c) => c.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: `${artifacts}${name}-${w}x${h}-${theme}.png` });
    }
  }
  await page.selectOption('#theme', 'auto');
}

test('a card over two machines names each machine', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const cards = await cardsOf(page, 'two.csv', pegged(['\\\\WEB01\\Processor(_Total)\\% Processor Time', '\\\\WEB02\\Processor(_Total)\\% Processor Time']));
  const cpu = cards.find((c) => /series/.test(c.where));
  if (cpu) {
    // Both machines' _Total in one card: "2 of 2 series", the worst named with its machine, both listed.
    assert.match(cpu.where, /^2 of 2 series$/);
    assert.match(cpu.worst, / on \\\\WEB0[12] Processor\(_Total\)\\% Processor Time\)$/);
    assert.deepEqual(cpu.list.map((t) => t.split(':')[0]).sort(), ['\\\\WEB01 Processor(_Total)\\% Processor Time', '\\\\WEB02 Processor(_Total)\\% Processor Time']);
  } else {
    // A core that makes a card per machine (issue #36): each card names its machine.
    assert.deepEqual(cards.map((c) => c.where).sort(), ['\\\\WEB01 Processor(_Total)\\% Processor Time', '\\\\WEB02 Processor(_Total)\\% Processor Time'], JSON.stringify(cards));
  }
  await screenshots(page, 'cards-two-machines');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

test('a card of a Spanish log shows the English name beside the Spanish one', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const cards = await cardsOf(page, 'es.csv', pegged(['\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador']));
  const cpu = cards.find((c) => /Procesador/.test(c.where));
  assert.ok(cpu, JSON.stringify(cards));
  // One machine: no machine in the name.
  assert.equal(cpu.where, 'Procesador(_Total)\\% de tiempo de procesador — Processor(_Total)\\% Processor Time');
  await screenshots(page, 'cards-spanish');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
